//! Parity of the engine's part two with real Apache Flink 2.3: every scenario in
//! `tests/flink-ext/scenarios/` (format: `docs/scenario-format-v2.md`) against the golden that
//! `tests/oracle-ext/` recorded with real Flink (`tests/oracle-ext/README.md`). One generated
//! test per file, and one test (`random_corpus`) over the 300 random scenarios of
//! `tests/flink-ext/random/` (`scripts/random-part-two`) that names every file that differs.
//!
//! - Job lines (`fire`, `late`, `error`, `process`, `tvf`), `cause` included, are compared with
//!   the engine's outputs line by line in emission order. The only freedom: timer results that
//!   share a watermark and a timer timestamp may come in another order across keys (Flink's
//!   timer heap leaves it unspecified); one key's lines keep their order.
//! - Source lines (`partition_watermark`, `idle`, `active`, `watermark`), which every golden has
//!   (job scenarios too: the harness prints its source simulation first), are compared with the
//!   trace's partition and watermark events in order (`source_idle`/`source_active`, Flink's
//!   whole-source status, have no counterpart and are skipped).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tidemark::engine::{Run, Scenario, TraceKind, run};

fn corpus(dir: &str, name: &str, ext: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/flink-ext").join(dir).join(format!("{name}.{ext}"))
}

fn is_job_line(line: &Value) -> bool {
    matches!(
        line["out"].as_str(),
        Some("fire" | "late" | "error" | "process" | "tvf" | "checkpoint" | "crash" | "restore")
    )
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

/// A timer result's tie class: Flink fires the timers of one watermark advance from a heap,
/// so results with the same watermark and the same timer timestamp may come in any order across
/// keys (never for one key). `None` for every other line.
fn tie(line: &Value) -> Option<(String, i64, i64)> {
    let out = line["out"].as_str()?;
    let timer = match out {
        "tvf" => line["window_time"].as_i64(),
        "process" if line["kind"].as_str() != Some("completed") => line["ts"].as_i64(),
        "fire" if line["cause"]["kind"] == "timer" => line["cause"]["time"].as_i64(),
        _ => None,
    }?;
    Some((out.to_string(), line["wm"].as_i64()?, timer))
}

fn key_of(line: &Value) -> String {
    line["key"].as_str().unwrap_or_default().to_string()
}

/// The lines of each key, in their order, keys sorted.
fn by_key(lines: &[Value]) -> Vec<(String, Vec<&Value>)> {
    let mut keyed: Vec<(String, Vec<&Value>)> = Vec::new();
    for l in lines {
        match keyed.iter_mut().find(|(k, _)| *k == key_of(l)) {
            Some((_, v)) => v.push(l),
            None => keyed.push((key_of(l), vec![l])),
        }
    }
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed
}

/// Line by line in emission order; within a tie group (consecutive lines of one tie class) the
/// keys may interleave differently, but each key's lines keep their order.
fn compare(name: &str, what: &str, golden: &[Value], ours: &[Value]) -> Result<(), String> {
    let show = |lines: &[Value]| lines.iter().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n");
    let report = || format!("{name} ({what})\n golden:\n{}\n tidemark:\n{}", show(golden), show(ours));
    if ours.len() != golden.len() {
        return Err(format!("line count differs: {}", report()));
    }
    let mut i = 0;
    while i < golden.len() {
        let group = tie(&golden[i]);
        let mut j = i + 1;
        while j < golden.len() && group.is_some() && tie(&golden[j]) == group {
            j += 1;
        }
        let (expected, actual) = (&golden[i..j], &ours[i..j]);
        let same = if j - i == 1 { expected == actual } else { by_key(expected) == by_key(actual) };
        if !same {
            return Err(format!("lines {i}..{j} differ: {}", report()));
        }
        i = j;
    }
    Ok(())
}

/// The scenario, and whether it is a DataStream window scenario (it has an `assigner`).
fn load_scenario(path: &Path) -> Result<(Scenario, bool), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut value: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let has_assigner = value.get("assigner").is_some();
    // Source-only scenarios have no operator: any window will do, only the source is compared.
    if value.get("assigner").is_none() && value.get("process_function").is_none() && value.get("tvf").is_none() {
        value["assigner"] = json!({"kind": "global"});
    }
    Ok((Scenario::from_value(&value).map_err(|e| e.to_string())?, has_assigner))
}

fn load_golden(path: &Path) -> Result<Vec<Value>, String> {
    std::fs::read_to_string(path)
        .map_err(|e| format!("no golden: {e}"))?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("bad golden line {l}: {e}")))
        .collect()
}

/// The engine against one golden: the job's lines (`cause` included), then the source's.
fn check(name: &str, scenario: &Path, golden: &Path) -> Result<(), String> {
    let (scenario, scenario_has_assigner) = load_scenario(scenario)?;
    let golden = load_golden(golden)?;
    let result = run(&scenario);

    let golden_job: Vec<Value> = golden.iter().filter(|l| is_job_line(l)).cloned().collect();
    let ours_job: Vec<Value> = result.outputs.iter().map(|o| o.to_oracle_json(&result.keys)).collect();
    compare(name, "job", &golden_job, &ours_job)?;

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
    // A DataStream window twin's golden comes from the window oracle, which prints fire and
    // late lines only (its per-element watermarks are the oracle's, pinned by tests/flink); a
    // crash run's golden has no source lines either (a real source restarts, the harness prints
    // only the job's and the recovery lines).
    if (scenario_has_assigner || scenario.has_recovery()) && golden_source.is_empty() {
        return Ok(());
    }
    compare(name, "source", &golden_source, &source_lines(&result))
}

fn check_scenario(name: &str) {
    if let Err(e) = check(name, &corpus("scenarios", name, "json"), &corpus("golden", name, "jsonl")) {
        panic!("{e}");
    }
}

/// The committed random corpus (`tests/flink-ext/random/`, written by `scripts/random-part-two`
/// and recorded once by real Flink): every scenario against its golden, naming every file that
/// differs. `TIDEMARK_RANDOM_CORPUS=DIR` checks another recorded corpus (DIR/scenarios,
/// DIR/golden) instead, e.g. a fresh seed.
#[test]
fn random_corpus() {
    let other = std::env::var_os("TIDEMARK_RANDOM_CORPUS").map(PathBuf::from);
    let dir = other.clone().unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/flink-ext/random"));
    let mut names: Vec<String> = std::fs::read_dir(dir.join("scenarios"))
        .unwrap_or_else(|e| panic!("{}: {e}", dir.join("scenarios").display()))
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".json").map(String::from))
        .collect();
    names.sort();
    assert!(other.is_some() || names.len() >= 200, "the random corpus has only {} scenarios", names.len());
    let failures: Vec<String> = names
        .iter()
        .filter_map(|name| {
            let golden = dir.join("golden").join(format!("{name}.jsonl"));
            check(name, &dir.join("scenarios").join(format!("{name}.json")), &golden).err()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} random scenarios differ from real Flink:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n\n")
    );
}

include!(concat!(env!("OUT_DIR"), "/flink_ext_parity_tests.rs"));
