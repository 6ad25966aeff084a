//! What a job printed, against what real Flink printed (a golden) or the engine's run gives (its
//! oracle lines, which the parity tests hold to the goldens): the same shapes for the Java and the
//! PyFlink programs, each parsed from its own output.

use std::collections::BTreeMap;

use serde_json::Value;

/// The engine's oracle lines of a scenario, parsed.
pub fn oracle_lines(s: &tidemark::engine::Scenario) -> Vec<Value> {
    tidemark::engine::run(s).oracle_lines().iter().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

/// (key, start, end) → the window's results in order: (sum, count, watermark). `GlobalWindow`
/// results have no start and end.
pub type FiresPerWindow = BTreeMap<(String, Option<i64>, Option<i64>), Vec<(i64, u64, i64)>>;

/// (key, start, end) → a course aggregate's results in order: (the oracle's `result` object,
/// watermark). `{"requests", "usd"}` of TenantCost, `{"n", "p50_ms", "p99_ms"}` of LatencySketch
/// (with `"approximate": true` above K only, as the oracle writes it).
pub type ResultsPerWindow = BTreeMap<(String, Option<i64>, Option<i64>), Vec<(Value, i64)>>;

/// A window job's results: fires per window in order (windows of different keys may interleave
/// differently within one watermark's timer group, which Flink leaves unspecified), a course
/// aggregate's results per window in order (instead of `fires`: a program prints the aggregate's
/// result, not the elements' sum and count), the late side output's ids in order, and the number
/// of errors.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct WindowResults {
    pub fires: FiresPerWindow,
    pub results: ResultsPerWindow,
    pub late: Vec<i64>,
    pub errors: usize,
}

impl WindowResults {
    /// From the oracle's JSON lines.
    pub fn from_oracle(lines: &[Value]) -> WindowResults {
        let mut out = WindowResults::default();
        for g in lines {
            match g["out"].as_str() {
                Some("fire") if g.get("result").is_some() => out.result(
                    g["key"].as_str().unwrap_or_default(),
                    (g["start"].as_i64(), g["end"].as_i64()),
                    (g["result"].clone(), g["wm"].as_i64().unwrap_or_default()),
                ),
                Some("fire") => out.fire(
                    g["key"].as_str().unwrap_or_default(),
                    (g["start"].as_i64(), g["end"].as_i64()),
                    (
                        g["sum"].as_i64().unwrap_or_default(),
                        g["count"].as_u64().unwrap_or_default(),
                        g["wm"].as_i64().unwrap_or_default(),
                    ),
                ),
                Some("late") => out.late.push(g["id"].as_i64().unwrap_or_default()),
                Some("error") => out.errors += 1,
                _ => {}
            }
        }
        out
    }

    pub fn fire(&mut self, key: &str, (start, end): (Option<i64>, Option<i64>), result: (i64, u64, i64)) {
        self.fires.entry((key.to_string(), start, end)).or_default().push(result);
    }

    pub fn result(&mut self, key: &str, (start, end): (Option<i64>, Option<i64>), result: (Value, i64)) {
        self.results.entry((key.to_string(), start, end)).or_default().push(result);
    }

    /// A printed result of the window at watermark `wm`.
    pub fn printed(&mut self, key: &str, window: (Option<i64>, Option<i64>), printed: Printed, wm: i64) {
        match printed {
            Printed::SumAndCount(sum, count) => self.fire(key, window, (sum, count, wm)),
            Printed::Aggregate(result) => self.result(key, window, (result, wm)),
        }
    }
}

/// What a printed window result carries: the elements' sum and count (the buffering
/// `SumAndCount`) or a course aggregate's result as the oracle writes it.
pub enum Printed {
    SumAndCount(i64, u64),
    Aggregate(Value),
}

/// A LatencySketch result as the oracle writes it: `approximate` only when true.
pub fn latency_result(p50: i64, p99: i64, n: u64, approximate: bool) -> Value {
    let mut o = serde_json::json!({"n": n, "p50_ms": p50, "p99_ms": p99});
    if approximate {
        o["approximate"] = Value::Bool(true);
    }
    o
}

/// Checks a window job's printed results against the reference.
pub fn check_window_results(name: &str, ours: &WindowResults, reference: &[Value], printed: &[String]) {
    let theirs = WindowResults::from_oracle(reference);
    let report = format!("{name}: generated program printed\n{}", printed.join("\n"));
    assert_eq!(ours.fires, theirs.fires, "fires per window differ: {report}");
    assert_eq!(ours.results, theirs.results, "aggregate results per window differ: {report}");
    assert_eq!(ours.late, theirs.late, "late records differ: {report}");
    assert_eq!(ours.errors, theirs.errors, "errors differ: {report}");
}

/// Days from 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `1970-01-01 00:00:20.000` (UTC, as the table result prints TIMESTAMP_LTZ) → epoch ms.
fn epoch_millis(text: &str) -> Option<i64> {
    let (date, time) = text.trim().split_once(' ')?;
    let mut d = date.split('-').map(|x| x.parse::<i64>());
    let (y, m, day) = (d.next()?.ok()?, d.next()?.ok()?, d.next()?.ok()?);
    let (hms, ms) = time.split_once('.')?;
    let mut t = hms.split(':').map(|x| x.parse::<i64>());
    let (h, min, sec) = (t.next()?.ok()?, t.next()?.ok()?, t.next()?.ok()?);
    Some(((days_from_civil(y, m, day) * 24 + h) * 60 + min) * 60_000 + sec * 1000 + ms.parse::<i64>().ok()?)
}

/// A window TVF's printed row, `| +I | key | start | end | time | sum | count |` (the table
/// result of `execute_sql(query).print()`, in Java and PyFlink alike), as the oracle's line.
pub fn tvf_row(line: &str) -> Option<Value> {
    if !line.starts_with("| +I |") {
        return None;
    }
    let cells: Vec<&str> = line.split('|').map(str::trim).collect();
    // ["", "+I", key, start, end, time, sum, count, ""]
    let num = |i: usize| cells.get(i).and_then(|c| c.parse::<i64>().ok());
    let time = |i: usize| cells.get(i).and_then(|c| epoch_millis(c));
    Some(serde_json::json!({
        "out": "tvf", "key": cells.get(2).copied().unwrap_or_default(),
        "window_start": time(3), "window_end": time(4), "window_time": time(5),
        "sum": num(6), "count": num(7),
    }))
}

/// A keyed process function's or window TVF's records against the reference, as sorted sets
/// (one advance's timer results of different keys come in an unspecified order). `ours` are the
/// oracle's shapes: `{"out": "process", key, kind, ts, wm, ...}`, `{"out": "tvf", ...}` (no
/// watermark: the printed table has none) and `{"out": "error"}`.
pub fn check_records(name: &str, mut ours: Vec<Value>, reference: &[Value], printed: &[String]) {
    let mut theirs: Vec<Value> = reference
        .iter()
        .filter(|g| matches!(g["out"].as_str(), Some("process" | "tvf" | "error")))
        .cloned()
        .map(|mut g| {
            if let Value::Object(o) = &mut g {
                match o.get("out").and_then(Value::as_str) {
                    Some("tvf") => {
                        o.remove("wm");
                    }
                    Some("error") => o.retain(|k, _| k == "out"),
                    _ => {}
                }
            }
            g
        })
        .collect();
    let key = |v: &Value| v.to_string();
    ours.sort_by_key(key);
    theirs.sort_by_key(key);
    assert_eq!(ours, theirs, "{name}: generated program printed\n{}", printed.join("\n"));
}
