//! `~`, `$VAR`, `${VAR}` and `${env.VAR}` expansion for hook settings.
//!
//! Two flavours, on purpose: paths (`working_dir`) expand every form, while values that may
//! legitimately contain `$` (env values, headers) expand only the explicit `${env.X}` form.
//! A reference to an unset variable is an error naming the variable, never a silent empty
//! string: `Authorization: Bearer ${env.TOKEN}` with no token must fail, not send `Bearer `.

use std::fmt::Write as _;

/// Where variable values come from (the process environment in production).
pub trait Vars {
    /// The value of `name`, if set.
    fn get(&self, name: &str) -> Option<String>;
}

/// The process environment.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcessEnv;

impl Vars for ProcessEnv {
    fn get(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
}

impl<F: Fn(&str) -> Option<String>> Vars for F {
    fn get(&self, name: &str) -> Option<String> {
        self(name)
    }
}

/// Expands only `${env.NAME}`.
pub fn expand_env_refs(text: &str, vars: &dyn Vars) -> Result<String, String> {
    expand(text, vars, false)
}

/// Expands `$NAME`, `${NAME}` and `${env.NAME}` in an HTTP header value, so the
/// `Authorization: Bearer $TOKEN` spelling of Claude Code's and Meerkat's HTTP hooks works as
/// written. Header values have no other use for `$`; an unset variable is an error, so a
/// missing token never goes out as `Bearer `.
pub fn expand_header(text: &str, vars: &dyn Vars) -> Result<String, String> {
    expand(text, vars, true)
}

/// Expands a leading `~`, `$NAME`, `${NAME}` and `${env.NAME}`.
pub fn expand_path(text: &str, vars: &dyn Vars) -> Result<String, String> {
    let expanded = expand(text, vars, true)?;
    if expanded == "~" || expanded.starts_with("~/") {
        let home = vars
            .get("HOME")
            .ok_or_else(|| format!("`{text}` uses `~` but HOME is not set"))?;
        return Ok(format!("{home}{}", &expanded[1..]));
    }
    Ok(expanded)
}

fn expand(text: &str, vars: &dyn Vars, bare: bool) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(inner) = after.strip_prefix('{') {
            let Some(end) = inner.find('}') else {
                return Err(format!("unterminated `${{` in `{text}`"));
            };
            let reference = &inner[..end];
            let name = match reference.strip_prefix("env.") {
                Some(name) => name,
                None if bare => reference,
                None => {
                    let _ = write!(out, "${{{reference}}}");
                    rest = &inner[end + 1..];
                    continue;
                }
            };
            if !valid_name(name) {
                return Err(format!("`${{{reference}}}` is not a variable reference"));
            }
            out.push_str(&lookup(vars, name)?);
            rest = &inner[end + 1..];
        } else if bare {
            let len = after
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            if len == 0 {
                out.push('$');
                rest = after;
            } else {
                out.push_str(&lookup(vars, &after[..len])?);
                rest = &after[len..];
            }
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !name.as_bytes()[0].is_ascii_digit()
}

fn lookup(vars: &dyn Vars, name: &str) -> Result<String, String> {
    vars.get(name)
        .ok_or_else(|| format!("environment variable `{name}` is not set"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(name: &str) -> Option<String> {
        match name {
            "HOME" => Some("/home/u".into()),
            "PROFILE" => Some("dev".into()),
            _ => None,
        }
    }

    #[test]
    fn paths_expand_every_form() {
        assert_eq!(expand_path("~/hooks", &vars).unwrap(), "/home/u/hooks");
        assert_eq!(
            expand_path("$HOME/x/${PROFILE}/${env.PROFILE}", &vars).unwrap(),
            "/home/u/x/dev/dev"
        );
        assert_eq!(expand_path("/a$/b", &vars).unwrap(), "/a$/b");
    }

    #[test]
    fn values_expand_only_explicit_env_references() {
        assert_eq!(
            expand_env_refs("p=$PROFILE ${PROFILE} ${env.PROFILE}", &vars).unwrap(),
            "p=$PROFILE ${PROFILE} dev"
        );
    }

    #[test]
    fn header_values_expand_bearer_dollar_token_in_every_spelling() {
        for header in [
            "Bearer $PROFILE",
            "Bearer ${PROFILE}",
            "Bearer ${env.PROFILE}",
        ] {
            assert_eq!(
                expand_header(header, &vars).unwrap(),
                "Bearer dev",
                "{header}"
            );
        }
        assert_eq!(
            expand_header("~/x", &vars).unwrap(),
            "~/x",
            "no home expansion"
        );
        assert_eq!(
            expand_header("Bearer $TOKEN", &vars).unwrap_err(),
            "environment variable `TOKEN` is not set"
        );
    }

    #[test]
    fn unset_variables_are_errors_not_empty_strings() {
        assert_eq!(
            expand_env_refs("Bearer ${env.TOKEN}", &vars).unwrap_err(),
            "environment variable `TOKEN` is not set"
        );
        assert!(expand_path("$NOPE/x", &vars).is_err());
        assert!(expand_path("${env.", &vars).is_err());
    }
}
