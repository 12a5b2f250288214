#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;

use super::*;

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    move |name| map.get(name).cloned()
}

#[test]
fn export_is_off_without_an_endpoint_and_per_signal_with_one() {
    assert_eq!(configured(vars(&[])), None);
    assert_eq!(
        configured(vars(&[("OTEL_EXPORTER_OTLP_ENDPOINT", " ")])),
        None,
        "empty is unset"
    );
    let both = Signals {
        traces: true,
        logs: true,
    };
    assert_eq!(
        configured(vars(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318")])),
        Some(both)
    );
    assert_eq!(
        configured(vars(&[(
            "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
            "http://c:4318/v1/logs"
        )])),
        Some(Signals {
            traces: false,
            logs: true
        })
    );
    assert_eq!(
        configured(vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
            ("OTEL_TRACES_EXPORTER", "none"),
        ])),
        Some(Signals {
            traces: false,
            logs: true
        })
    );
    assert_eq!(
        configured(vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
            ("OTEL_SDK_DISABLED", "TRUE"),
        ])),
        None
    );
}

#[test]
fn only_http_protobuf_is_accepted_and_timeouts_are_milliseconds() {
    assert!(check_protocol(&vars(&[("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")])).is_ok());
    assert!(check_protocol(&vars(&[("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "http/json")])).is_err());
    assert_eq!(timeout(&vars(&[])).unwrap(), Duration::from_secs(10));
    assert_eq!(
        timeout(&vars(&[("OTEL_EXPORTER_OTLP_TIMEOUT", "2500")])).unwrap(),
        Duration::from_millis(2500)
    );
    assert!(timeout(&vars(&[("OTEL_EXPORTER_OTLP_TIMEOUT", "5s")])).is_err());
}

fn denied() -> Record {
    let mut r = Record::new("claude", "s-1", "pre_tool_use");
    r.decision = RecordDecision::Deny;
    r.rules = vec!["git.force_push".to_owned(), "protected-branch".to_owned()];
    r.duration_us = 812;
    r.tool = Some("Bash".to_owned());
    r.targets = vec!["git push --force".to_owned()];
    r.reason = Some("force push to main".to_owned());
    r
}

#[test]
fn attributes_carry_decision_rule_ids_agent_session_and_duration() {
    let r = denied();
    let attrs: HashMap<String, Value> = attributes(&r)
        .into_iter()
        .map(|kv| (kv.key.to_string(), kv.value))
        .collect();
    assert_eq!(attrs["hookgate.decision"], Value::from("deny"));
    assert_eq!(attrs["hookgate.agent"], Value::from("claude"));
    assert_eq!(attrs["session.id"], Value::from("s-1"));
    assert_eq!(attrs["hookgate.duration_us"], Value::I64(812));
    assert_eq!(
        attrs["hookgate.rule_ids"],
        Value::Array(Array::String(vec![
            "git.force_push".into(),
            "protected-branch".into()
        ]))
    );
    assert_eq!(attrs["hookgate.record_id"], Value::from(r.id.clone()));
    assert_eq!(severity(r.decision).1, "WARN");
    assert_eq!(
        body(&r),
        "claude deny: git push --force — force push to main"
    );
}

#[test]
fn backlog_keeps_the_newest_records_and_counts_the_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let backlog = Backlog::new(dir.path());
    let line = format!("{}\n", serde_json::to_string(&denied()).unwrap());
    append(&backlog.file, line.repeat(MAX_BACKLOG - 1).as_bytes()).unwrap();
    backlog.keep(&[denied(), denied(), denied()]).unwrap();
    let kept = fs::read_to_string(&backlog.file).unwrap().lines().count();
    assert_eq!(kept, MAX_BACKLOG);
    assert_eq!(
        fs::read_to_string(dir.path().join("otel/dropped")).unwrap(),
        "2\n"
    );
}

#[test]
fn a_claimed_backlog_is_read_once_and_unreadable_lines_are_set_aside() {
    let dir = tempfile::tempdir().unwrap();
    let backlog = Backlog::new(dir.path());
    let line = format!(
        "{}\nnot a record\n",
        serde_json::to_string(&denied()).unwrap()
    );
    append(&backlog.file, line.as_bytes()).unwrap();
    let claimed = backlog.claim().unwrap();
    assert_eq!(claimed.records.len(), 1);
    assert!(
        backlog.claim().unwrap().records.is_empty(),
        "a second shipper gets nothing"
    );
    claimed.done().unwrap();
    assert_eq!(
        fs::read_to_string(dir.path().join("otel/unreadable.jsonl")).unwrap(),
        "not a record\n"
    );
}
