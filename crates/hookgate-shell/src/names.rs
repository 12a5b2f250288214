//! Membership in the constant name lists that every command is checked against (`READERS`,
//! `FILTERS`, `OPERAND_PRINTERS`, …), answered first by the name's shape.
//!
//! Why: `<[&str]>::contains` compares the name with every entry (a length test, and a
//! `memcmp` for each entry of the same length), and a plain command runs a dozen such scans;
//! most names are in none of the lists. A table of the (first byte, length) pairs the list
//! holds rejects them with one load; a name that passes is then compared with the entries of
//! its length and first byte only. Invariant: [`listed!`] answers exactly what
//! `LIST.contains(&name)` answers (`tests` below checks it on every entry and near miss).

/// For each first byte, the lengths (bit `len.min(63)`) of the entries starting with it.
pub(crate) const fn shapes(list: &[&str]) -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < list.len() {
        let bytes = list[i].as_bytes();
        if let Some(&first) = bytes.first() {
            let len = if bytes.len() < 63 { bytes.len() } else { 63 };
            t[first as usize] |= 1u64 << len;
        }
        i += 1;
    }
    t
}

/// Whether some entry of the list(s) `shapes` was computed from may equal `name`: false
/// means none does (no entry has its first byte and length). An empty name is admitted.
#[inline]
pub(crate) fn shape_admits(shapes: &[u64; 256], name: &str) -> bool {
    name.as_bytes()
        .first()
        .is_none_or(|&first| shapes[usize::from(first)] & (1u64 << name.len().min(63)) != 0)
}

/// `list.contains(&name)`, given `shapes(list)` (see the module comment).
#[inline]
pub(crate) fn contains(list: &[&str], shapes: &[u64; 256], name: &str) -> bool {
    let Some(&first) = name.as_bytes().first() else {
        return list.contains(&name);
    };
    shapes[usize::from(first)] & (1u64 << name.len().min(63)) != 0
        && list
            .iter()
            .any(|t| t.len() == name.len() && t.as_bytes().first() == Some(&first) && *t == name)
}

/// `listed!(LIST, name)`: whether the constant list `LIST` holds `name`, as
/// `LIST.contains(&name)` but rejected by shape first (its table is computed at compile time).
macro_rules! listed {
    ($list:expr, $name:expr) => {{
        const SHAPES: [u64; 256] = $crate::names::shapes($list);
        $crate::names::contains($list, &SHAPES, $name)
    }};
}
pub(crate) use listed;

#[cfg(test)]
mod tests {
    const LIST: &[&str] = &[
        "cat",
        "cut",
        "grep",
        "rg",
        "x",
        "",
        "a-very-long-name-past-the-sixty-three-byte-bucket-of-the-shape-table",
    ];

    #[test]
    fn listed_answers_as_contains() {
        const NONE: &[&str] = &["cat"];
        let mut probes: Vec<String> = Vec::new();
        for e in LIST {
            probes.push((*e).to_owned());
            probes.push(format!("{e}x"));
            probes.push(e.chars().skip(1).collect());
            probes.push(e.to_uppercase());
            probes.push(format!("{e}{e}"));
        }
        probes.extend(["ca", "cbt", "zzz", "ç", "grepp", "r"].map(str::to_owned));
        for p in &probes {
            assert_eq!(
                listed!(LIST, p.as_str()),
                LIST.contains(&p.as_str()),
                "{p:?}"
            );
        }
        assert!(!listed!(NONE, ""));
    }

    #[test]
    fn shape_admits_every_listed_name() {
        const SHAPES: [u64; 256] = super::shapes(LIST);
        for e in LIST {
            assert!(super::shape_admits(&SHAPES, e), "{e:?}");
        }
        for p in ["zzz", "grepp", "ca", "y", "rgg"] {
            assert!(!super::shape_admits(&SHAPES, p), "{p:?}");
        }
    }
}
