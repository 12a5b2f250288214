//! HTTP hooks: the input JSON as the request body; a 2xx body is read like a command's stdout.

use std::collections::BTreeMap;

use hookgate_core::{Contract, HookStatus};
use hookgate_transport::{HttpSpec, Limits, send_http};

use super::interpret_output;
use crate::config::expand::{ProcessEnv, expand_env_refs, expand_header};

pub(crate) struct HttpCall<'a> {
    pub contract: &'a Contract,
    pub url: &'a str,
    pub method: &'a str,
    pub headers: &'a BTreeMap<String, String>,
    pub strict: bool,
    pub limits: Limits,
}

/// Sends one HTTP hook request; non-2xx, timeouts and oversize bodies are failures.
pub(crate) async fn run(call: HttpCall<'_>, payload: &[u8]) -> HookStatus {
    let mut headers = Vec::with_capacity(call.headers.len());
    for (name, value) in call.headers {
        match expand_header(value, &ProcessEnv) {
            Ok(value) => headers.push((name.clone(), value)),
            Err(e) => return HookStatus::Failed(format!("header `{name}`: {e}")),
        }
    }
    let url = match expand_env_refs(call.url, &ProcessEnv) {
        Ok(url) => url,
        Err(e) => return HookStatus::Failed(format!("url: {e}")),
    };
    let spec = HttpSpec {
        url,
        method: call.method.to_owned(),
        headers,
    };
    match send_http(&spec, payload, &call.limits).await {
        Ok(out) => interpret_output(call.contract, &out.body, call.strict),
        Err(err) => HookStatus::Failed(err.to_string()),
    }
}
