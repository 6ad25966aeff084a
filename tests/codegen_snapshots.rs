//! Snapshots of the generated programs for a few scenarios that between them use every part of
//! the generators: the course presets, a window function of each kind, sessions, global
//! windows, an evictor, scripted watermarks mixed with generated ones. Review a diff before
//! accepting it (`INSTA_UPDATE=new cargo test`, then read each `.snap.new`).

use std::path::PathBuf;

use tidemark::codegen::{Dialect, generate};
use tidemark::engine::Scenario;
use tidemark::engine::scenario::WindowFunctionSpec;

fn load(name: &str) -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/flink/scenarios/{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Scenario::from_json_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn load_ext(name: &str) -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/flink-ext/scenarios/{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Scenario::from_json_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn check(snapshot: &str, scenario: &Scenario) {
    for dialect in Dialect::ALL {
        let program = generate(scenario, dialect);
        insta::assert_snapshot!(format!("{snapshot}__{}", dialect.id()), program.text);
    }
}

/// Lab 6: bounded out-of-orderness, allowed lateness, side output, a ProcessWindowFunction.
#[test]
fn course_lab_6_tenant_cost() {
    check("course_lab_6_tenant_cost", &load("course_lab_6_tenant_cost"));
}

/// ModelLatency as the course writes it: sliding windows with an AggregateFunction (average).
#[test]
fn course_model_latency_sliding_avg() {
    let mut s = load("course_model_latency_sliding");
    s.function = WindowFunctionSpec::Avg;
    check("course_model_latency_sliding_avg", &s);
}

/// Sessions with a ReduceFunction (minimum) and scripted watermarks.
#[test]
fn session_late_bridge_two_fired_min() {
    let mut s = load("session_late_bridge_two_fired");
    s.function = WindowFunctionSpec::Min;
    check("session_late_bridge_two_fired_min", &s);
}

/// GlobalWindows with the end-of-stream trigger: no TVF, no PyFlink equivalent.
#[test]
fn global_end_of_stream_trigger() {
    check("global_end_of_stream_trigger", &load("global_end_of_stream_trigger"));
}

/// An evictor (Java only) and a count of elements.
#[test]
fn count_evictor_event_time_count() {
    let mut s = load("count_evictor_event_time");
    s.function = WindowFunctionSpec::Count;
    check("count_evictor_event_time_count", &s);
}

/// Generated and scripted watermarks together; a purging continuous trigger with a sum.
#[test]
fn boo_with_explicit_markers_mixed_sum() {
    let mut s = load("boo_with_explicit_markers_mixed");
    s.function = WindowFunctionSpec::Sum;
    check("boo_with_explicit_markers_mixed_sum", &s);
}

/// A purging continuous trigger and late data dropped without a side output.
#[test]
fn purging_continuous_no_side_output() {
    let name = std::fs::read_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/flink/scenarios"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".json")).map(String::from))
        .filter(|n| load(n).trigger.kind() == "purging_continuous_event_time")
        .min()
        .unwrap_or_else(|| panic!("no purging continuous scenario in the corpus"));
    let mut s = load(&name);
    s.side_output = false;
    s.function = WindowFunctionSpec::Max;
    check("purging_continuous_no_side_output_max", &s);
}

/// Module 6's RequestAssembler with module 3's processing-time TTL (Lab 6.4): a keyed process
/// function in Java and PyFlink, no SQL form.
#[test]
fn request_assembler_with_ttl() {
    check("ra_ttl_expires_during_watermark_stall", &load_ext("ra_ttl_expires_during_watermark_stall"));
}

/// The hand-built error-rate alert, and its TUMBLE equivalent in SQL.
#[test]
fn error_rate_alert() {
    check("era_alert_and_ok", &load_ext("era_alert_and_ok"));
}

/// A scenario that runs a SQL window TVF (CUMULATE), over a DataStream source in Java and PyFlink.
#[test]
fn tvf_cumulate() {
    check("tvf_cumulate_basic", &load_ext("tvf_cumulate_basic"));
}

/// Processing-time windows over several partitions with idleness and periodic emission: what a
/// bounded single-stream job cannot reproduce is said, not dropped.
#[test]
fn processing_time_partitions_idleness() {
    let json = r#"{"name": "processing_time_partitions", "partitions": 2,
        "assigner": {"kind": "tumbling_processing", "size": 1000},
        "watermarks": {"kind": "bounded_out_of_orderness", "bound": 500, "emit": "periodic", "interval": 100, "idleness": 2000},
        "input": [{"id": 1, "key": "A", "ts": 100, "partition": 0, "arrival": 50},
                  {"id": 2, "key": "A", "ts": 900, "partition": 1, "arrival": 950},
                  {"wm": 800, "partition": 1, "arrival": 1200}]}"#;
    check("processing_time_partitions", &Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}")));
}
