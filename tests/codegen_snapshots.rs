//! Snapshots of the generated programs for a few scenarios that between them use every part of
//! the generators: the course presets, a window function of each kind, sessions, global
//! windows, an evictor, scripted watermarks mixed with generated ones. Review a diff before
//! accepting it (`INSTA_UPDATE=new cargo test`, then read each `.snap.new`).

mod common;

use common::Corpus;
use tidemark::codegen::{Dialect, ValueUnit, generate_with};
use tidemark::engine::Scenario;
use tidemark::engine::scenario::WindowFunctionSpec;

fn parity(name: &str) -> Scenario {
    Corpus::Parity.scenario(name)
}

fn ext(name: &str) -> Scenario {
    Corpus::Ext.scenario(name)
}

/// A parity scenario with another window function.
fn with_function(name: &str, function: WindowFunctionSpec) -> Scenario {
    Scenario { function, ..parity(name) }
}

/// The first parity scenario (by name) with a purging continuous trigger, without its side
/// output and with a maximum.
fn purging_continuous_no_side_output() -> Scenario {
    let name = Corpus::Parity
        .names()
        .into_iter()
        .find(|n| parity(n).trigger.kind() == "purging_continuous_event_time")
        .unwrap_or_else(|| panic!("no purging continuous scenario in the corpus"));
    Scenario { side_output: false, function: WindowFunctionSpec::Max, ..parity(&name) }
}

fn check(snapshot: &str, scenario: &Scenario) {
    check_in(snapshot, scenario, ValueUnit::Plain);
}

fn check_in(snapshot: &str, scenario: &Scenario, unit: ValueUnit) {
    for dialect in Dialect::ALL {
        let program = generate_with(scenario, dialect, unit);
        insta::assert_snapshot!(format!("{snapshot}__{}", dialect.id()), program.text);
    }
}

/// One test per snapshot: `name: scenario;` checks `codegen_snapshots__<name>__<dialect>.snap`.
macro_rules! snapshots {
    ($($(#[doc = $doc:expr])* $name:ident: $scenario:expr;)*) => {$(
        $(#[doc = $doc])*
        #[test]
        fn $name() {
            check(stringify!($name), &$scenario);
        }
    )*};
}

snapshots! {
    /// Lab 6: bounded out-of-orderness, allowed lateness, side output, a ProcessWindowFunction.
    course_lab_6_tenant_cost: parity("course_lab_6_tenant_cost");
    /// ModelLatency as the course writes it: sliding windows with an AggregateFunction (average).
    course_model_latency_sliding_avg: with_function("course_model_latency_sliding", WindowFunctionSpec::Avg);
    /// Sessions with a ReduceFunction (minimum) and scripted watermarks.
    session_late_bridge_two_fired_min: with_function("session_late_bridge_two_fired", WindowFunctionSpec::Min);
    /// GlobalWindows with the end-of-stream trigger: no TVF, no PyFlink equivalent.
    global_end_of_stream_trigger: parity("global_end_of_stream_trigger");
    /// An evictor (Java only) and a count of elements.
    count_evictor_event_time_count: with_function("count_evictor_event_time", WindowFunctionSpec::Count);
    /// Generated and scripted watermarks together; a purging continuous trigger with a sum.
    boo_with_explicit_markers_mixed_sum: with_function("boo_with_explicit_markers_mixed", WindowFunctionSpec::Sum);
    /// A purging continuous trigger and late data dropped without a side output.
    purging_continuous_no_side_output_max: purging_continuous_no_side_output();
    /// Module 6's RequestAssembler with module 3's processing-time TTL (Lab 6.4): a keyed process
    /// function in Java and PyFlink, no SQL form.
    ra_ttl_expires_during_watermark_stall: ext("ra_ttl_expires_during_watermark_stall");
    /// The hand-built error-rate alert, and its TUMBLE equivalent in SQL.
    era_alert_and_ok: ext("era_alert_and_ok");
    /// A scenario that runs a SQL window TVF (CUMULATE), over a DataStream source in Java and PyFlink.
    tvf_cumulate_basic: ext("tvf_cumulate_basic");
    /// Processing-time windows over several partitions with idleness and periodic emission: what a
    /// bounded single-stream job cannot reproduce is said, not dropped.
    processing_time_partitions: common::scenario(
        r#"{"name": "processing_time_partitions", "partitions": 2,
        "assigner": {"kind": "tumbling_processing", "size": 1000},
        "watermarks": {"kind": "bounded_out_of_orderness", "bound": 500, "emit": "periodic", "interval": 100, "idleness": 2000},
        "input": [{"id": 1, "key": "A", "ts": 100, "partition": 0, "arrival": 50},
                  {"id": 2, "key": "A", "ts": 900, "partition": 1, "arrival": 950},
                  {"wm": 800, "partition": 1, "arrival": 1200}]}"#,
    );
}

/// Lab 6.2 as its preset: values in US cents, which the PyFlink program also shows in dollars
/// (the course's $4.10, then $4.31); watermarks from a Table API expression after every element.
#[test]
fn lab_6_2_preset_in_dollars() {
    let p = tidemark::teach::presets::by_id("lab-6-2").unwrap_or_else(|| panic!("preset lab-6-2"));
    check_in("lab_6_2_preset_in_dollars", &p.scenario, ValueUnit::UsdCents);
}
