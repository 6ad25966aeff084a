//! What leaves the operator: window results, late records and Flink's errors, in emission
//! order, printable as the oracle's JSON lines.

use std::fmt;

use serde_json::{Map, Value, json};

use super::aggregate::AggregateResult;
use super::time::{Millis, Window};
use super::trace::{ElemIdx, FireCause, FiringKind, KeyId};

/// Flink threw: while building the job (`build`) or while running it (`run`); or (`limit`) the
/// run hit one of Tidemark's limits where Flink would not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlinkError {
    pub phase: &'static str,
    /// The Java exception class, e.g. `java.lang.IllegalArgumentException`.
    pub class: &'static str,
    pub message: String,
}

impl FlinkError {
    pub fn build(class: &'static str, message: &str) -> Self {
        FlinkError { phase: "build", class, message: message.to_string() }
    }

    pub fn run(class: &'static str, message: &str) -> Self {
        FlinkError { phase: "run", class, message: message.to_string() }
    }

    /// Not Flink: one of Tidemark's limits stopped a run that real Flink would not finish.
    pub fn limit(message: &str) -> Self {
        FlinkError { phase: "limit", class: "tidemark.LimitExceeded", message: message.to_string() }
    }
}

impl fmt::Display for FlinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.class, self.message)
    }
}

/// One call of the window function: what the output, the trace (by its index in
/// [`super::Run::outputs`]) and the teaching layer all read. A window TVF's row carries one too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Firing {
    pub key: KeyId,
    pub window: Window,
    /// Ids of the elements handed to the function (after the evictor), sorted.
    pub ids: Vec<i64>,
    /// The same elements, in the order the function saw them.
    pub elems: Vec<ElemIdx>,
    pub sum: i64,
    pub count: u64,
    /// Earlier firings of this window (the oracle's counter).
    pub n: u64,
    pub kind: FiringKind,
    /// `ctx.currentWatermark()` at the call.
    pub watermark: Millis,
    pub cause: FireCause,
    /// The trigger said FIRE_AND_PURGE: the contents are cleared after the call.
    pub purge: bool,
    /// The input step during which it fired.
    pub step: usize,
    /// What a course `AggregateFunction` returned (`aggregate(agg, pwf)`): the oracle's `result`.
    pub result: Option<AggregateResult>,
}

impl Firing {
    /// The oracle's `firing` field: `main` for the first call of the window function, `late`
    /// for every later one (so early firings of count/continuous triggers count as well).
    pub fn oracle_firing(&self) -> &'static str {
        if self.n == 0 { "main" } else { "late" }
    }

    /// The output record's timestamp: `window.maxTimestamp()`.
    pub fn record_timestamp(&self) -> Millis {
        self.window.max_timestamp()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Fire(Firing),
    /// An element emitted to the late side output.
    Late {
        elem: ElemIdx,
        id: i64,
        key: KeyId,
        ts: Millis,
        step: usize,
    },
    Error(FlinkError),
    /// A record emitted by a keyed process function.
    Process(ProcessRecord),
    /// A row of a window TVF aggregation.
    Tvf(TvfRow),
    /// A checkpoint completed, the TaskManager died, or the job restarted (issue 17).
    Recovery(RecoveryLine),
}

/// The recovery lines of a run with checkpoint and crash items, in emission order between the
/// other outputs. `item` / `from_item` are 0-based positions in `input`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryLine {
    /// Checkpoint `checkpoint` completed; it holds everything before `item`.
    Checkpoint { checkpoint: u32, item: usize, step: usize },
    /// The TaskManager died at `item`.
    Crash { item: usize, step: usize },
    /// The job restarted from `checkpoint` (`None`: no checkpoint, empty state) and the source
    /// replays from `from_item`.
    Restore { checkpoint: Option<u32>, from_item: usize, step: usize },
}

/// What a keyed process function emitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessRecord {
    pub key: KeyId,
    /// `completed`, `abandoned`, `alert` or `ok`.
    pub kind: &'static str,
    /// The record's timestamp (the completion, the timer, the minute end).
    pub ts: Millis,
    pub watermark: Millis,
    /// The element that caused it (completion), if any.
    pub id: Option<i64>,
    /// Error-rate alert: errors and requests in the minute.
    pub errors: Option<i64>,
    pub requests: Option<i64>,
    pub step: usize,
}

/// One final result of a window TVF aggregation: the SQL row's window columns, and the
/// aggregation as a firing of its window (the first and only one: `n` 0, the main firing, caused
/// by the timer at `window_time`, state purged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TvfRow {
    pub window_start: Millis,
    pub window_end: Millis,
    /// `window_end - 1`, the rowtime of the result.
    pub window_time: Millis,
    pub firing: Firing,
}

impl Output {
    /// The window function's call behind this output: a window firing, or a TVF row's.
    pub fn firing(&self) -> Option<&Firing> {
        match self {
            Output::Fire(f) => Some(f),
            Output::Tvf(r) => Some(&r.firing),
            Output::Late { .. } | Output::Error(_) | Output::Process(_) | Output::Recovery(_) => None,
        }
    }

    /// The oracle's JSON line (`cause` included; `compare.py` ignores it unless asked).
    /// One line of the oracle's JSONL, byte for byte: the fields in the oracle's order (the
    /// JSON map of `to_oracle_json` sorts them), so `diff` against a golden works.
    pub fn to_oracle_line(&self, keys: &[String]) -> String {
        ordered_line(&self.to_oracle_json(keys))
    }

    pub fn to_oracle_json(&self, keys: &[String]) -> Value {
        let key_name = |k: &KeyId| keys.get(*k as usize).cloned().unwrap_or_default();
        match self {
            Output::Fire(f) => {
                let (start, end) = f.window.bounds();
                let cause = match f.cause {
                    FireCause::Element { id } => json!({"kind": "element", "id": id}),
                    FireCause::Timer { time } => json!({"kind": "timer", "time": time}),
                    FireCause::ProcessingTimer { time } => json!({"kind": "ptimer", "time": time}),
                };
                let mut o = Map::new();
                o.insert("out".into(), json!("fire"));
                o.insert("key".into(), json!(key_name(&f.key)));
                o.insert("start".into(), json!(start));
                o.insert("end".into(), json!(end));
                o.insert("ids".into(), json!(f.ids));
                o.insert("sum".into(), json!(f.sum));
                o.insert("count".into(), json!(f.count));
                o.insert("firing".into(), json!(f.oracle_firing()));
                o.insert("n".into(), json!(f.n));
                o.insert("wm".into(), json!(f.watermark));
                o.insert("cause".into(), cause);
                if let Some(r) = &f.result {
                    o.insert("result".into(), r.to_json());
                }
                Value::Object(o)
            }
            Output::Late { id, key, ts, .. } => json!({
                "out": "late", "id": id, "key": key_name(key), "ts": ts,
                "cause": {"kind": "element", "id": id},
            }),
            Output::Error(e) => json!({"out": "error", "phase": e.phase, "class": e.class, "message": e.message}),
            Output::Process(p) => {
                let mut o = Map::new();
                o.insert("out".into(), json!("process"));
                o.insert("key".into(), json!(key_name(&p.key)));
                o.insert("kind".into(), json!(p.kind));
                o.insert("ts".into(), json!(p.ts));
                o.insert("wm".into(), json!(p.watermark));
                if let Some(id) = p.id {
                    o.insert("id".into(), json!(id));
                }
                if let (Some(e), Some(r)) = (p.errors, p.requests) {
                    o.insert("errors".into(), json!(e));
                    o.insert("requests".into(), json!(r));
                }
                Value::Object(o)
            }
            Output::Recovery(RecoveryLine::Checkpoint { checkpoint, item, .. }) => {
                json!({"out": "checkpoint", "checkpoint": checkpoint, "item": item})
            }
            Output::Recovery(RecoveryLine::Crash { item, .. }) => json!({"out": "crash", "item": item}),
            Output::Recovery(RecoveryLine::Restore { checkpoint, from_item, .. }) => {
                json!({"out": "restore", "checkpoint": checkpoint, "from_item": from_item})
            }
            Output::Tvf(r) => json!({
                "out": "tvf", "key": key_name(&r.firing.key), "window_start": r.window_start,
                "window_end": r.window_end, "window_time": r.window_time, "sum": r.firing.sum,
                "count": r.firing.count, "wm": r.firing.watermark,
            }),
        }
    }
}

/// The oracle's field order per `out` kind (from its `Recorder` output); `cause` objects put
/// `kind` first. Fields not listed follow in name order, so nothing is ever dropped.
const ORACLE_FIELD_ORDER: [(&str, &[&str]); 8] = [
    ("checkpoint", &["out", "checkpoint", "item"]),
    ("crash", &["out", "item"]),
    ("restore", &["out", "checkpoint", "from_item"]),
    ("fire", &["out", "key", "start", "end", "ids", "sum", "count", "firing", "n", "wm", "cause", "result"]),
    ("late", &["out", "id", "key", "ts", "cause"]),
    ("error", &["out", "phase", "class", "message"]),
    ("process", &["out", "key", "kind", "ts", "wm", "id", "errors", "requests"]),
    ("tvf", &["out", "key", "window_start", "window_end", "window_time", "sum", "count", "wm"]),
];

fn ordered_line(value: &Value) -> String {
    let Value::Object(map) = value else { return value.to_string() };
    let order: &[&str] = match map.get("out").and_then(Value::as_str) {
        Some(out) => ORACLE_FIELD_ORDER.iter().find(|(o, _)| *o == out).map_or(&[], |(_, f)| *f),
        None => &["kind"],
    };
    let listed = order.iter().filter_map(|k| map.get_key_value(*k));
    let rest = map.iter().filter(|(k, _)| !order.contains(&k.as_str()));
    let fields: Vec<String> = listed
        .chain(rest)
        .map(|(k, v)| {
            let v = if v.is_object() { ordered_line(v) } else { v.to_string() };
            format!("{}:{v}", Value::String(k.clone()))
        })
        .collect();
    format!("{{{}}}", fields.join(","))
}
