//! The generated programs against real Apache Flink 2.3 (the jars and the Python package of
//! `apache-flink` from PyPI):
//!
//! - every Java program compiles with `javac -Xlint:all -Werror` against Flink's jars;
//! - every PyFlink program passes `python -m py_compile`, imports, and uses no undefined name;
//! - the SQL programs are planned by Flink's SQL planner (or rejected where a caveat says so);
//! - the Java programs of the course presets, run on Flink, print exactly the golden results (the
//!   course aggregates' presets also the engine's, and a percentile window above K the engine's);
//! - the PyFlink programs of the lab presets (and a session merge, a window TVF, the error-rate
//!   alert), run on PyFlink, print the lab's numbers: Lab 6.2's $4.10, then its late firing's
//!   $4.31; so do those of the course aggregates' presets (TenantCost's (410, 2) then (431, 3),
//!   ModelLatency's p50/p99) and of a percentile window above K (the engine's approximate p50/p99);
//! - (the crash/restore preset's programs are the TenantCost preset's but for their name and the
//!   caveat that they run without the crash: `tests/codegen_cli.rs`.)
//!
//! The scenarios are every Flink parity scenario Flink accepts, plus variants for each window
//! function, dynamic sessions, a large input and hostile names.
//!
//! Needs `java`/`javac` (17) and the virtualenv `${ORACLE_VENV:-~/.cache/flink-oracle-venv}` with
//! `apache-flink==2.3.0` (`scripts/setup-flink` installs it). Without them each test writes a
//! `SKIP` line to stderr and passes, unless `TIDEMARK_REQUIRE_FLINK=1` (CI), which makes it fail.
//! `TIDEMARK_FLINK_FULL=1` plans every SQL program and runs every Java and PyFlink program
//! (many minutes).

#[path = "../common/mod.rs"]
mod common;
mod env;
mod java;
mod pyflink;
mod results;
mod sql;

use common::Corpus;
use tidemark::engine::Scenario;
use tidemark::engine::scenario::{InputItem, ProcessFunctionSpec, TriggerSpec, WindowFunctionSpec};

pub fn load(name: &str) -> Scenario {
    Corpus::Parity.scenario(name)
}

pub fn load_ext(name: &str) -> Scenario {
    Corpus::Ext.scenario(name)
}

pub fn parity_names() -> Vec<String> {
    Corpus::Parity.names()
}

pub fn ext_names() -> Vec<String> {
    Corpus::Ext.names()
}

pub fn rejected_at_build(name: &str) -> bool {
    Corpus::Parity.golden(name).iter().any(|l| l["out"] == "error" && l["phase"] == "build")
}

fn with_function(mut s: Scenario, f: WindowFunctionSpec, suffix: &str) -> Scenario {
    s.function = f;
    s.name = format!("{}_{suffix}", s.name);
    s
}

/// Scenarios beyond the corpus: every window function, dynamic gaps, GlobalWindows with an
/// aggregate and with EventTimeTrigger, a purging default trigger, a large input with hostile
/// keys (compact input path), hostile names and descriptions, an empty input.
pub fn variants() -> Vec<Scenario> {
    let mut out = Vec::new();
    let lab = load("course_lab_6_tenant_cost");
    for f in WindowFunctionSpec::ALL {
        out.push(with_function(lab.clone(), f, f.kind()));
    }
    for f in [WindowFunctionSpec::Avg, WindowFunctionSpec::Min, WindowFunctionSpec::Count] {
        out.push(with_function(load("session_late_bridge_two_fired"), f, f.kind()));
        out.push(with_function(load("count_trigger_global"), f, f.kind()));
        out.push(with_function(load("count_evictor_event_time"), f, f.kind()));
    }
    out.push(with_function(load("course_model_latency_sliding"), WindowFunctionSpec::Max, "max"));
    let json = r#"{"name": "dynamic gaps", "assigner": {"kind": "dynamic_session", "default_gap": 30000,
        "gaps": {"api": 10000, "we\"ird\\u000a key": 1500}}, "allowed_lateness": 5000,
        "watermarks": {"kind": "monotonous"},
        "input": [{"id": 1, "key": "api", "ts": 1000}, {"id": 2, "key": "web", "ts": 2000}, {"wm": 50000}]}"#;
    out.push(Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}")));
    let mut global_event_time = load("count_trigger_global");
    global_event_time.name = "global_event_time".into();
    global_event_time.trigger = TriggerSpec { base: tidemark::engine::scenario::BaseTrigger::EventTime, purging: true };
    out.push(global_event_time);
    let mut purging_default = load("tumbling_basic");
    purging_default.name = "purging_default".into();
    purging_default.trigger = TriggerSpec { base: tidemark::engine::scenario::BaseTrigger::Default, purging: true };
    out.push(purging_default);
    let mut big = String::from(
        r#"{"name": "big input", "assigner": {"kind": "sliding", "size": 60000, "slide": 20000, "offset": -5000},
        "watermarks": {"kind": "bounded_out_of_orderness", "bound": 1500}, "input": ["#,
    );
    let keys = ["a,b", "100%", "é\\u00e9", "line\\nbreak", "quote\\\"d", "\\\\u000a", "😀"];
    for i in 0..1200 {
        if i > 0 {
            big.push(',');
        }
        if i % 50 == 49 {
            big.push_str(&format!(r#"{{"wm": {}}}"#, i * 1000));
        } else {
            big.push_str(&format!(
                r#"{{"id": {i}, "key": "{}", "ts": {}, "value": {}}}"#,
                keys[i % keys.len()],
                i * 997,
                i % 13
            ));
        }
    }
    big.push_str("]}");
    out.push(Scenario::from_json_str(&big).unwrap_or_else(|e| panic!("{e}")));
    let json = r#"{"name": "9 */ hostile \\u000a name", "description": "ends a comment */ and \\u000a a line \u2028 too",
        "assigner": {"kind": "tumbling", "size": 1500}, "side_output": false, "end_of_input": false,
        "input": [{"id": 1, "key": "k'--", "ts": "LONG_MIN"}, {"id": 2, "key": "x", "ts": "LONG_MAX", "value": "LONG_MIN"}]}"#;
    out.push(Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}")));
    out.push(
        Scenario::from_json_str(r#"{"name": "empty", "assigner": {"kind": "global_eos"}, "input": []}"#)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    out
}

/// Latencies in the window above the course's K in [`latency_above_k`].
pub const ABOVE_K: i64 = 1199;

/// ModelLatency above the course's K = 1000: one model, [`ABOVE_K`] latencies (1 to 2,000 ms in
/// a scrambled order, one every 400 ms) in one 10-minute window, so `LatencySketch` keeps a
/// reservoir that its seeded generator (SplitMix64) fills, the same in the engine and in the
/// generated programs, and the result is marked approximate.
pub fn latency_above_k() -> Scenario {
    let base = 1_767_261_600_000_i64; // 2026-01-01 10:00
    let input: Vec<String> = (0..ABOVE_K)
        .map(|i| {
            format!(
                r#"{{"id": {}, "key": "gpt-4o", "ts": {}, "value": {}}}"#,
                i + 1,
                base + i * 400,
                (i * 7919) % 2000 + 1
            )
        })
        .collect();
    let json = format!(
        r#"{{"name": "model latency above k", "assigner": {{"kind": "tumbling", "size": 600000}},
        "function": {{"kind": "aggregate", "aggregate": "latency_sketch", "k": 1000}},
        "watermarks": {{"kind": "bounded_out_of_orderness", "bound": 20000}}, "side_output": true,
        "input": [{}]}}"#,
        input.join(", ")
    );
    Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}"))
}

/// Whether a part-two scenario depends on what a bounded single-stream job cannot reproduce
/// (several partitions, processing time: periodic emission, idleness, arrival times, TTL; a
/// TaskManager crash); the programs say so in a caveat.
pub fn needs_the_source_simulation(s: &Scenario) -> bool {
    s.has_recovery()
        || s.partition_count() > 1
        || s.source.periodic
        || s.source.idleness.is_some()
        || s.input.iter().any(|i| match i {
            InputItem::Element(e) => e.arrival.is_some(),
            InputItem::SourceWatermark(m) => m.arrival.is_some(),
            InputItem::Watermark(_) => false,
            InputItem::Control(c) => c.arrival.is_some(),
        })
        || matches!(s.process_function, Some(ProcessFunctionSpec::RequestAssembler { ttl: Some(_), .. }))
}

/// The scenarios whose programs must compile: every one Flink accepts, the part-two corpus
/// (partitions, idleness, window TVFs, keyed process functions), plus the variants.
pub fn compile_set() -> Vec<Scenario> {
    let mut set: Vec<Scenario> = parity_names().iter().filter(|n| !rejected_at_build(n)).map(|n| load(n)).collect();
    set.extend(ext_names().iter().map(|n| load_ext(n)));
    set.extend(variants());
    set
}
