//! Parity of the engine's part two with real Apache Flink 2.3: every scenario in
//! `tests/flink-ext/scenarios/` (format: `docs/scenario-format-v2.md`) against the golden that
//! `tests/oracle-ext/` recorded with real Flink (`tests/oracle-ext/README.md`). One generated
//! test per file.
//!
//! - Job lines (`fire`, `late`, `error`, `process`, `tvf`) are compared with the engine's outputs
//!   in emission order; lines of one watermark advance with the same `wm` may come in another
//!   order only when they are timer results of different keys (Flink's timer heap).
//! - Source lines (`partition_watermark`, `idle`, `active`, `watermark`) are compared with the
//!   trace's partition and watermark events in order (`source_idle`/`source_active`, Flink's
//!   whole-source status, have no counterpart and are skipped).

use std::path::PathBuf;

use serde_json::{Value, json};
use tidemark::engine::{Run, Scenario, TraceKind, run};

fn corpus(dir: &str, name: &str, ext: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/flink-ext").join(dir).join(format!("{name}.{ext}"))
}

fn is_job_line(line: &Value) -> bool {
    matches!(line["out"].as_str(), Some("fire" | "late" | "error" | "process" | "tvf"))
}

fn source_lines(run: &Run) -> Vec<Value> {
    run.trace
        .iter()
        .filter_map(|ev| match &ev.kind {
            TraceKind::PartitionWatermark { partition, watermark } => {
                Some(json!({"out": "partition_watermark", "partition": partition, "wm": watermark}))
            }
            TraceKind::PartitionIdle { partition, at } => {
                Some(json!({"out": "idle", "partition": partition, "at": at}))
            }
            TraceKind::PartitionActive { partition, at } => {
                Some(json!({"out": "active", "partition": partition, "at": at}))
            }
            TraceKind::WatermarkAdvanced { to, .. } => Some(json!({"out": "watermark", "wm": to})),
            _ => None,
        })
        .collect()
}

fn strip(line: &Value, fields: &[&str]) -> Value {
    let mut l = line.clone();
    if let Value::Object(o) = &mut l {
        for f in fields {
            o.remove(*f);
        }
    }
    l
}

/// Golden timer results with the same watermark (and kind of line) form a tie group.
fn tie(line: &Value) -> Option<(String, i64)> {
    let out = line["out"].as_str()?;
    let timer_result = match out {
        "tvf" => true,
        "process" => line["kind"].as_str() != Some("completed"),
        "fire" => line["cause"]["kind"] == "timer",
        _ => false,
    };
    if timer_result { Some((out.to_string(), line["wm"].as_i64()?)) } else { None }
}

fn compare(name: &str, what: &str, golden: &[Value], ours: &[Value]) {
    let show = |lines: &[Value]| lines.iter().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n");
    let report = format!("{name} ({what})\n golden:\n{}\n tidemark:\n{}", show(golden), show(ours));
    assert_eq!(ours.len(), golden.len(), "line count differs: {report}");
    let mut i = 0;
    while i < golden.len() {
        let group = tie(&golden[i]);
        let mut j = i + 1;
        while j < golden.len() && group.is_some() && tie(&golden[j]) == group {
            j += 1;
        }
        let mut expected = golden[i..j].to_vec();
        let mut actual = ours[i..j].to_vec();
        if j - i > 1 {
            expected.sort_by_key(|v| v.to_string());
            actual.sort_by_key(|v| v.to_string());
        }
        assert_eq!(actual, expected, "lines {i}..{j} differ: {report}");
        i = j;
    }
}

fn check_scenario(name: &str) {
    let text = std::fs::read_to_string(corpus("scenarios", name, "json")).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Source-only scenarios have no operator: any window will do, only the source is compared.
    if value.get("assigner").is_none() && value.get("process_function").is_none() && value.get("tvf").is_none() {
        value["assigner"] = json!({"kind": "global"});
    }
    let scenario = Scenario::from_value(&value).unwrap_or_else(|e| panic!("{name}: {e}"));
    let golden: Vec<Value> = std::fs::read_to_string(corpus("golden", name, "jsonl"))
        .unwrap_or_else(|e| panic!("{name}: no golden: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: bad golden line {l}: {e}")))
        .collect();
    let result = run(&scenario);

    let golden_job: Vec<Value> = golden.iter().filter(|l| is_job_line(l)).map(|l| strip(l, &["cause"])).collect();
    let ours_job: Vec<Value> =
        result.outputs.iter().map(|o| strip(&o.to_oracle_json(&result.keys), &["cause"])).collect();
    // Keep the cause for tie grouping of fire lines.
    let golden_job_with_cause: Vec<Value> = golden.iter().filter(|l| is_job_line(l)).cloned().collect();
    let _ = &golden_job_with_cause;
    compare(name, "job", &golden_job, &ours_job);

    // The engine reports a partition's own watermark only when there are several partitions
    // (with one, it is the operator's watermark).
    let multi = scenario.partition_count() > 1;
    let golden_source: Vec<Value> = golden
        .iter()
        .filter(|l| matches!(l["out"].as_str(), Some("partition_watermark" | "idle" | "active" | "watermark")))
        .filter(|l| multi || l["out"] != "partition_watermark")
        .map(|l| match l["out"].as_str() {
            Some("partition_watermark" | "watermark") => strip(l, &["at"]),
            _ => l.clone(),
        })
        .collect();
    if !golden_source.is_empty() {
        compare(name, "source", &golden_source, &source_lines(&result));
    }
}

include!(concat!(env!("OUT_DIR"), "/flink_ext_parity_tests.rs"));
