//! Interpreter code can name a value through itself (`fs = require(fs …)`). Resolving a
//! callee or a string walks variables, `require` arguments and `process.env` lookups; the hop
//! budget must carry through every one of those steps, or a self-reference recurses until the
//! stack overflows — a crashed guard answers nothing, which agents treat as allow. The first
//! case is the `analyze` fuzz target's crash input, byte for byte.

use std::path::PathBuf;

use hookgate_shell::{Analyzer, Context};

fn ctx() -> Context {
    Context::new("/home/user/project", Some(PathBuf::from("/home/user")))
}

#[test]
fn a_value_defined_through_itself_ends_at_the_hop_budget() {
    let mut analyzer = Analyzer::new().expect("grammars load");
    let cases = [
        // The fuzzer's input (a `require` whose argument names the variable being defined).
        "node -e \"requiinkSync('a')A.exeDDDDDDDDDDDDIsub('fs').rmtreeunlinkSync(rt ost fs=require(\"fs\")2 fs.readdirSync(\"dist\"); fs')\"",
        "node -e 'fs = require(fs); fs.rmSync(\"/\")'",
        "node -e 'a = require(b); b = require(a); a.unlinkSync(\"x\")'",
        "node -e 'e = process.env[e]; require(e).rmSync(\"x\")'",
        "python3 -c 'm = __import__(m); m.remove(\"x\")'",
        "python3 -c 'import os; k = os.environ[k]; os.remove(k)'",
    ];
    for c in cases {
        // Any verdict is acceptable; finishing is the rule.
        let _ = analyzer.analyze(c, &ctx());
    }
}

/// An `env` operand that starts with a multi-byte character is no option: reading its flags
/// must not slice inside the character (the `analyze` fuzz target's crash input of round 18,
/// byte for byte, then its shapes).
#[test]
fn env_operands_that_start_with_a_multibyte_character_are_not_sliced() {
    let mut analyzer = Analyzer::new().expect("grammars load");
    for c in [
        "env щp/f;mk0.1.1[",
        "env щ",
        "env -щ x",
        "env éi ls",
        "env -i ls",
    ] {
        let _ = analyzer.analyze(c, &ctx());
    }
}

/// A string in interpreter code whose first bytes end inside a multi-byte character (`"ht|p:/՚/x"`)
/// is not a URL, and the scheme test must not slice inside the character (the `analyze` fuzz
/// target's crash input of round 26, byte for byte, then its shapes).
#[test]
fn a_url_test_never_slices_inside_a_multibyte_character() {
    let mut analyzer = Analyzer::new().expect("grammars load");
    for c in [
        "php -r '$f = \"shellarg(gnteev(\"HO)\"))ME; include \"ht|p:/\u{55a}/x.php\"; str_repeat(\" \", 08(*12) if-vkde ind ~ -nameg($f) unlink($f);'",
        "php -r 'include \"ht|p:/\u{55a}/x.php\";'",
        "python3 -c 'import urllib.request as u; u.urlopen(\"htt\u{e9}://x\")'",
        "node -e 'fetch(\"ftp:\u{449}//x\")'",
        "php -r 'include \"http://x.example/a.php\";'",
    ] {
        let _ = analyzer.analyze(c, &ctx());
    }
}
