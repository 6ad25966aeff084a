//! Parity with real Apache Flink 2.3: every scenario in `tests/flink/scenarios/` is run through
//! the engine and compared, in emission order, with the golden that real Flink recorded
//! (`tests/flink/golden/`, see `tests/flink/README.md`). One generated test per file.
//!
//! The comparison is `../shared/flink-oracle/compare.py --order strict`, made stricter: error
//! lines must match in phase, class and message, and the `cause` of every line must match
//! (except the oracle's `untraced` for `global_eos`). Only firings from timers with the same
//! timestamp in the same watermark advance (different keys: Flink's timer heap leaves their
//! order unspecified) may come in another order.

use std::path::PathBuf;

use serde_json::Value;
use tidemark::engine::{Scenario, run};

fn corpus(dir: &str, name: &str, ext: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/flink").join(dir).join(format!("{name}.{ext}"))
}

/// The tie group of a golden line: timer firings in one advance with one timestamp.
fn tie_group(line: &Value) -> Option<(i64, i64)> {
    let cause = line.get("cause")?;
    if line.get("out")?.as_str()? == "fire" && cause.get("kind")?.as_str()? == "timer" {
        Some((line.get("wm")?.as_i64()?, cause.get("time")?.as_i64()?))
    } else {
        None
    }
}

fn without_cause(line: &Value) -> Value {
    let mut l = line.clone();
    if let Value::Object(o) = &mut l {
        o.remove("cause");
    }
    l
}

fn check_scenario(name: &str) {
    let text = std::fs::read_to_string(corpus("scenarios", name, "json")).unwrap_or_else(|e| panic!("{name}: {e}"));
    let scenario = Scenario::from_json_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let golden_text =
        std::fs::read_to_string(corpus("golden", name, "jsonl")).unwrap_or_else(|e| panic!("{name}: no golden: {e}"));
    let golden: Vec<Value> = golden_text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: bad golden line {l}: {e}")))
        .collect();
    let result = run(&scenario);
    let ours: Vec<Value> = result.outputs.iter().map(|o| o.to_oracle_json(&result.keys)).collect();

    let show = |lines: &[Value]| lines.iter().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n");
    let report = format!("{name}\n golden:\n{}\n tidemark:\n{}", show(&golden), show(&ours));
    assert_eq!(ours.len(), golden.len(), "line count differs: {report}");

    // Walk the golden in order; a tie group may be matched in any order.
    let mut i = 0;
    while i < golden.len() {
        let group = tie_group(&golden[i]);
        let mut j = i + 1;
        while j < golden.len() && group.is_some() && tie_group(&golden[j]) == group {
            j += 1;
        }
        let mut expected: Vec<Value> = golden[i..j].to_vec();
        let mut actual: Vec<Value> = ours[i..j].to_vec();
        let untraced = expected.iter().any(|l| l["cause"]["kind"] == "untraced");
        if untraced {
            expected = expected.iter().map(without_cause).collect();
            actual = actual.iter().map(without_cause).collect();
        }
        if j - i > 1 {
            let key = |v: &Value| v.to_string();
            expected.sort_by_key(key);
            actual.sort_by_key(key);
        }
        assert_eq!(actual, expected, "lines {i}..{j} differ: {report}");
        i = j;
    }
}

include!(concat!(env!("OUT_DIR"), "/flink_parity_tests.rs"));
