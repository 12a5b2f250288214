//! `~`, `$VAR`, `${VAR}` and `${env.VAR}` expansion for hook settings.
//!
//! Two flavours, on purpose: paths (`working_dir`) expand every form, while values that may
//! legitimately contain `$` (env values, headers) expand only the explicit `${env.X}` form.
//! A reference to an unset variable is an error naming the variable, never a silent empty
//! string: `Authorization: Bearer ${env.TOKEN}` with no token must fail, not send `Bearer `.

use std::fmt::Write as _;

/// Why a setting could not be expanded. Each names the reference, so the config error or the
/// hook failure it becomes says which variable to set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpandError {
    /// `${` without its `}`.
    #[error("unterminated `${{` in `{text}`")]
    Unterminated {
        /// The whole value.
        text: String,
    },
    /// `${…}` holding something other than a variable name.
    #[error("`${{{reference}}}` is not a variable reference")]
    NotAReference {
        /// What is between the braces.
        reference: String,
    },
    /// A referenced variable is not set (never expanded to an empty string).
    #[error("environment variable `{name}` is not set")]
    Unset {
        /// The variable.
        name: String,
    },
    /// A path starts with `~` and `HOME` is not set.
    #[error("`{text}` uses `~` but HOME is not set")]
    NoHome {
        /// The whole value.
        text: String,
    },
}

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
pub fn expand_env_refs(text: &str, vars: &dyn Vars) -> Result<String, ExpandError> {
    expand(text, vars, false)
}

/// Expands `$NAME`, `${NAME}` and `${env.NAME}` in an HTTP header value, so the
/// `Authorization: Bearer $TOKEN` spelling of Claude Code's and Meerkat's HTTP hooks works as
/// written. Header values have no other use for `$`; an unset variable is an error, so a
/// missing token never goes out as `Bearer `.
pub fn expand_header(text: &str, vars: &dyn Vars) -> Result<String, ExpandError> {
    expand(text, vars, true)
}

/// Expands a leading `~`, `$NAME`, `${NAME}` and `${env.NAME}`.
pub fn expand_path(text: &str, vars: &dyn Vars) -> Result<String, ExpandError> {
    let expanded = expand(text, vars, true)?;
    if expanded == "~" || expanded.starts_with("~/") {
        let home = vars.get("HOME").ok_or_else(|| ExpandError::NoHome {
            text: text.to_owned(),
        })?;
        return Ok(format!("{home}{}", &expanded[1..]));
    }
    Ok(expanded)
}

fn expand(text: &str, vars: &dyn Vars, bare: bool) -> Result<String, ExpandError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(inner) = after.strip_prefix('{') {
            let Some(end) = inner.find('}') else {
                return Err(ExpandError::Unterminated {
                    text: text.to_owned(),
                });
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
                return Err(ExpandError::NotAReference {
                    reference: reference.to_owned(),
                });
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

fn lookup(vars: &dyn Vars, name: &str) -> Result<String, ExpandError> {
    vars.get(name).ok_or_else(|| ExpandError::Unset {
        name: name.to_owned(),
    })
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
            expand_header("Bearer $TOKEN", &vars)
                .unwrap_err()
                .to_string(),
            "environment variable `TOKEN` is not set"
        );
    }

    #[test]
    fn unset_variables_are_errors_not_empty_strings() {
        assert_eq!(
            expand_env_refs("Bearer ${env.TOKEN}", &vars).unwrap_err(),
            ExpandError::Unset {
                name: "TOKEN".to_owned()
            }
        );
        assert!(matches!(
            expand_path("$NOPE/x", &vars),
            Err(ExpandError::Unset { name }) if name == "NOPE"
        ));
        assert!(matches!(
            expand_path("${env.", &vars),
            Err(ExpandError::Unterminated { .. })
        ));
        assert!(matches!(
            expand_path("${1x}", &vars),
            Err(ExpandError::NotAReference { reference }) if reference == "1x"
        ));
        let no_home = |_: &str| None;
        assert!(matches!(
            expand_path("~/x", &no_home),
            Err(ExpandError::NoHome { .. })
        ));
    }
}
