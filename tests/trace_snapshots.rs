//! The trace's readable form (`tidemark run --format text`), snapshotted for a few scenarios
//! that between them show every common event: lateness, late firings and cleanup; session
//! merging; a continuous trigger's early firings; partitions with idleness.

use std::path::PathBuf;

use tidemark::engine::{Scenario, run};

fn text_trace(dir: &str, name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir).join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    if value.get("assigner").is_none() && value.get("process_function").is_none() && value.get("tvf").is_none() {
        value["assigner"] = serde_json::json!({"kind": "global"});
    }
    let s = Scenario::from_value(&value).unwrap_or_else(|e| panic!("{name}: {e}"));
    let r = run(&s);
    r.trace.iter().map(|e| e.display(&r).to_string()).collect::<Vec<_>>().join("\n")
}

#[test]
fn lateness_late_firings_and_cleanup() {
    insta::assert_snapshot!(text_trace("tests/flink/scenarios", "lateness_late_firings_and_cleanup_boundary"));
}

#[test]
fn session_late_bridge() {
    insta::assert_snapshot!(text_trace("tests/flink/scenarios", "session_late_bridge_two_fired"));
}

#[test]
fn continuous_trigger() {
    insta::assert_snapshot!(text_trace("tests/flink/scenarios", "continuous_event_time_tumbling"));
}

#[test]
fn idleness_releases_watermark() {
    insta::assert_snapshot!(text_trace("tests/flink-ext/scenarios", "src_idleness_releases_watermark"));
}

#[test]
fn request_assembler_ttl() {
    insta::assert_snapshot!(text_trace("tests/flink-ext/scenarios", "ra_ttl_expires_during_watermark_stall"));
}
