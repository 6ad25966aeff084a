//! The engine inside the browser: run in headless Chromium (wasm32, via `wasm-bindgen-test-runner`,
//! see `.cargo/config.toml`), it must emit exactly the lines real Flink emitted, as it does natively
//! in `tests/flink_parity.rs`. wasm32 has 32-bit `usize` and its own float and hash code paths, so
//! the scenarios below lean on `Long.MIN/MAX` timestamps, session merges (Java hash-set order),
//! sliding windows and validation errors.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test browser_engine`. Only
//! `#[wasm_bindgen_test]` functions run under wasm (plain `#[test]`s are skipped silently), and
//! this file is empty natively.
#![cfg(target_arch = "wasm32")]

use serde_json::Value;
use tidemark::engine::{Scenario, run, view};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Scenarios (and their goldens) compiled into the test binary: the browser has no file system.
/// Chosen from `tests/flink/` among those whose golden has no timer tie group and no `untraced`
/// cause, so the comparison can be exact and in order.
macro_rules! corpus {
    ($($name:literal),+ $(,)?) => {
        &[$((
            $name,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/flink/scenarios/", $name, ".json")),
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/flink/golden/", $name, ".jsonl")),
        )),+]
    };
}

const CORPUS: &[(&str, &str, &str)] = corpus![
    "tumbling_basic",
    "tumbling_negative_timestamps",
    "ts_near_long_max",
    "ts_near_long_min_tumbling",
    "ts_long_min_session",
    "ts_long_min_global",
    "lateness_long_max",
    "explicit_long_max_watermark_then_elements",
    "sliding_late_firings_multi",
    "course_one_hour_sliding_every_minute",
    "session_three_way_merge_one_element",
    "course_late_element_bridges_sessions",
    "session_continuous_event_time",
    "count_trigger_global",
    "global_count_trigger_time_evictor",
    "time_evictor_before",
    "count_evictor_evict_after",
    "purging_continuous_empty_intervals",
    "course_worked_timeline_7",
    "end_of_input_false_pending_windows",
    "non_increasing_watermarks_ignored",
    "sliding_too_many_windows_rejected",
    "session_lateness_long_max_merge_rejected",
    "tumbling_size_zero_rejected",
];

fn parse_lines(name: &str, text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: bad golden line {l}: {e}")))
        .collect()
}

/// The engine compiled to wasm emits Flink's lines, in Flink's order, for every embedded scenario.
#[wasm_bindgen_test]
fn engine_in_wasm_matches_flink_goldens() {
    let mut failures = Vec::new();
    for (name, scenario_json, golden_jsonl) in CORPUS {
        let scenario = Scenario::from_json_str(scenario_json).unwrap_or_else(|e| panic!("{name}: {e}"));
        let result = run(&scenario);
        let ours: Vec<Value> = result.outputs.iter().map(|o| o.to_oracle_json(&result.keys)).collect();
        let golden = parse_lines(name, golden_jsonl);
        if ours != golden {
            let show = |lines: &[Value]| lines.iter().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n");
            failures.push(format!("{name}\n  golden:\n{}\n  tidemark (wasm):\n{}", show(&golden), show(&ours)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios differ in wasm:\n{}",
        failures.len(),
        CORPUS.len(),
        failures.join("\n")
    );
}

/// Every playhead position of every embedded scenario folds into a view in wasm, and the view at
/// the end has counted every output.
#[wasm_bindgen_test]
fn step_views_cover_every_playhead_position_in_wasm() {
    for (name, scenario_json, _) in CORPUS {
        let scenario = Scenario::from_json_str(scenario_json).unwrap_or_else(|e| panic!("{name}: {e}"));
        let result = run(&scenario);
        for step in 0..=result.steps {
            let v = view::at_step(&result, step);
            assert_eq!(v.step, step, "{name}: view of step {step}");
        }
        assert_eq!(view::at_step(&result, result.steps).outputs, result.outputs.len(), "{name}: outputs at the end");
    }
}

/// Malformed input is an error that names the problem, never a panic (a panic kills the page).
#[wasm_bindgen_test]
fn malformed_scenarios_are_errors_not_panics_in_wasm() {
    for text in ["", "{", "[]", r#"{"assigner": 5}"#, r#"{"assigner": {"kind": "tumbling"}, "input": [{"ts": "x"}]}"#] {
        let Err(e) = Scenario::from_json_str(text) else {
            panic!("{text:?} was accepted");
        };
        assert!(!e.to_string().is_empty(), "{text:?}: empty error message");
    }
}
