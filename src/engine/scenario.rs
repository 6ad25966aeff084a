//! The scenario: what the user builds and the oracle runs. The format is the Flink oracle's own
//! JSON (`../shared/flink-oracle/README.md`), extended only with optional fields, so every oracle
//! scenario loads unchanged.
//!
//! Loading never panics: every problem becomes a [`ScenarioError`] that names the field (as a
//! path like `input[3].ts`) and the rule it broke.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value, json};

use super::time::{LONG_MAX, LONG_MIN, Millis};
use super::trace::TimeDomain;

/// Processing time between two items without an explicit `arrival`.
pub const DEFAULT_ARRIVAL_SPACING: Millis = 100;

/// Hard limits that keep a browser tab responsive; exceeding one is a clear error, never a
/// frozen page or a silent truncation.
pub mod limits {
    /// Bytes of scenario JSON accepted by the loader.
    pub const MAX_SCENARIO_BYTES: usize = 8 * 1024 * 1024;
    /// Input items (elements and watermarks) in one scenario.
    pub const MAX_INPUT_ITEMS: usize = 100_000;
    /// Distinct keys in one scenario.
    pub const MAX_KEYS: usize = 1_000;
    /// Windows one element may be assigned to (`ceil(size / slide)` for sliding windows).
    pub const MAX_WINDOWS_PER_ELEMENT: i64 = 10_000;
    /// Element-window assignments in one run (elements × windows per element): the trace the UI
    /// keeps grows with it (≈ 150 MB at this limit) and a re-run in the browser takes about a
    /// second.
    pub const MAX_ASSIGNMENTS: i64 = 1_000_000;
    /// Characters in a key.
    pub const MAX_KEY_CHARS: usize = 200;
    /// Source partitions.
    pub const MAX_PARTITIONS: u32 = 64;
}

/// Which windows an element belongs to (the `WindowAssigner`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AssignerSpec {
    /// `TumblingEventTimeWindows.of(size, offset)`.
    Tumbling { size: Millis, offset: Millis },
    /// `SlidingEventTimeWindows.of(size, slide, offset)`.
    Sliding { size: Millis, slide: Millis, offset: Millis },
    /// `EventTimeSessionWindows.withGap(gap)`.
    Session { gap: Millis },
    /// `EventTimeSessionWindows.withDynamicGap(extractor)`: a gap per key, `default_gap` for the
    /// keys not listed. (Tidemark extension: the oracle cannot express an extractor.)
    DynamicSession { default_gap: Millis, gaps: BTreeMap<String, Millis> },
    /// `GlobalWindows.create()`: its default `NeverTrigger` never fires.
    Global,
    /// `GlobalWindows.createWithEndOfStreamTrigger()`: fires once per key at end of input.
    GlobalEos,
    /// `TumblingProcessingTimeWindows.of(size, offset)`: windows of the arrival time.
    TumblingProcessing { size: Millis, offset: Millis },
    /// `SlidingProcessingTimeWindows.of(size, slide, offset)`.
    SlidingProcessing { size: Millis, slide: Millis, offset: Millis },
}

impl AssignerSpec {
    pub fn is_merging(&self) -> bool {
        matches!(self, AssignerSpec::Session { .. } | AssignerSpec::DynamicSession { .. })
    }

    pub fn is_global(&self) -> bool {
        matches!(self, AssignerSpec::Global | AssignerSpec::GlobalEos)
    }

    /// `WindowAssigner.isEventTime()`.
    pub fn is_event_time(&self) -> bool {
        !matches!(self, AssignerSpec::TumblingProcessing { .. } | AssignerSpec::SlidingProcessing { .. })
    }

    /// Flink's class name, for narration and generated code.
    pub fn flink_name(&self) -> &'static str {
        match self {
            AssignerSpec::Tumbling { .. } => "TumblingEventTimeWindows",
            AssignerSpec::Sliding { .. } => "SlidingEventTimeWindows",
            AssignerSpec::Session { .. } | AssignerSpec::DynamicSession { .. } => "EventTimeSessionWindows",
            AssignerSpec::Global | AssignerSpec::GlobalEos => "GlobalWindows",
            AssignerSpec::TumblingProcessing { .. } => "TumblingProcessingTimeWindows",
            AssignerSpec::SlidingProcessing { .. } => "SlidingProcessingTimeWindows",
        }
    }
}

/// The trigger that the scenario names; `purging` wraps it in `PurgingTrigger`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseTrigger {
    /// The assigner's default: `EventTimeTrigger` for time windows, `NeverTrigger` for
    /// `GlobalWindows.create()`, `EndOfStreamTrigger` for `createWithEndOfStreamTrigger()`.
    Default,
    EventTime,
    Count {
        n: i64,
    },
    ContinuousEventTime {
        interval: Millis,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriggerSpec {
    pub base: BaseTrigger,
    pub purging: bool,
}

impl TriggerSpec {
    pub const DEFAULT: TriggerSpec = TriggerSpec { base: BaseTrigger::Default, purging: false };

    /// The oracle's `kind` string.
    pub fn kind(&self) -> &'static str {
        match (self.base, self.purging) {
            (BaseTrigger::Default, _) => "default",
            (BaseTrigger::EventTime, false) => "event_time",
            (BaseTrigger::EventTime, true) => "purging_event_time",
            (BaseTrigger::Count { .. }, false) => "count",
            (BaseTrigger::Count { .. }, true) => "purging_count",
            (BaseTrigger::ContinuousEventTime { .. }, false) => "continuous_event_time",
            (BaseTrigger::ContinuousEventTime { .. }, true) => "purging_continuous_event_time",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvictorKind {
    /// `CountEvictor.of(n)`: keeps the last `n` elements in arrival order.
    Count { n: i64 },
    /// `TimeEvictor.of(size)`: keeps elements with `ts > max_ts - size`.
    Time { size: Millis },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvictorSpec {
    pub kind: EvictorKind,
    /// Evict after the window function instead of before it.
    pub do_evict_after: bool,
}

/// How the source generates watermarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatermarkSpec {
    /// Only the scenario's `{"wm": ..}` items.
    Explicit,
    /// `forBoundedOutOfOrderness(bound)`: `max_ts - bound - 1` after every element.
    BoundedOutOfOrderness { bound: Millis },
    /// `forMonotonousTimestamps()`: bounded out-of-orderness with bound 0, i.e. `max_ts - 1`.
    Monotonous,
}

/// What the window function computes. The engine always reports the contents, sum and count
/// (the oracle's fields); this only changes the displayed result and the state accounting:
/// `Process` buffers every element (`ProcessWindowFunction`), the others keep one accumulator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WindowFunctionSpec {
    #[default]
    Process,
    Sum,
    Count,
    Avg,
    Min,
    Max,
}

impl WindowFunctionSpec {
    pub const ALL: [WindowFunctionSpec; 6] = [
        WindowFunctionSpec::Process,
        WindowFunctionSpec::Sum,
        WindowFunctionSpec::Count,
        WindowFunctionSpec::Avg,
        WindowFunctionSpec::Min,
        WindowFunctionSpec::Max,
    ];

    pub fn kind(&self) -> &'static str {
        match self {
            WindowFunctionSpec::Process => "process",
            WindowFunctionSpec::Sum => "sum",
            WindowFunctionSpec::Count => "count",
            WindowFunctionSpec::Avg => "avg",
            WindowFunctionSpec::Min => "min",
            WindowFunctionSpec::Max => "max",
        }
    }

    /// Whether Flink keeps every element in list state (a `ProcessWindowFunction`) rather than
    /// one accumulator (a `ReduceFunction`/`AggregateFunction`).
    pub fn is_buffering(&self) -> bool {
        matches!(self, WindowFunctionSpec::Process)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Element {
    pub id: i64,
    pub key: String,
    pub ts: Millis,
    pub value: i64,
    /// The source partition (split) it is read from. Default 0.
    pub partition: u32,
    /// Processing time (ms) when it reaches the source; `None`: previous arrival + 100 ms.
    pub arrival: Option<Millis>,
    /// The event type a process function reads (`started`/`completed`, `request`/`error`).
    pub event: Option<String>,
}

/// How the source emits watermarks and tracks processing time (Tidemark extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceSpec {
    /// Number of source partitions; `None`: one more than the largest partition used.
    pub partitions: Option<u32>,
    /// `true`: `onPeriodicEmit` only every `interval` ms of processing time; `false` (the
    /// oracle's mode): right after every element as well.
    pub periodic: bool,
    /// `autoWatermarkInterval` in ms of processing time.
    pub interval: Millis,
    /// `withIdleness(d)`.
    pub idleness: Option<Millis>,
}

impl Default for SourceSpec {
    fn default() -> Self {
        SourceSpec { partitions: None, periodic: false, interval: 200, idleness: None }
    }
}

/// A ready-made `KeyedProcessFunction` from the course, run instead of a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcessFunctionSpec {
    /// Module 6's `RequestAssembler`: an event-time timer at `started + timeout`; `ttl` is an
    /// optional processing-time state TTL on the open request (module 3's backstop).
    RequestAssembler { timeout: Millis, ttl: Option<Millis>, timer: TimeDomain },
    /// The hand-built per-minute error-rate alert (upstream's PseudoWindow pattern).
    ErrorRateAlert { size: Millis, threshold_pct: i64 },
}

/// A Flink SQL window table-valued function, run instead of a DataStream window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TvfSpec {
    Tumble { size: Millis },
    Hop { size: Millis, slide: Millis },
    Cumulate { step: Millis, size: Millis },
    Session { gap: Millis },
}

impl TvfSpec {
    pub fn sql_name(&self) -> &'static str {
        match self {
            TvfSpec::Tumble { .. } => "TUMBLE",
            TvfSpec::Hop { .. } => "HOP",
            TvfSpec::Cumulate { .. } => "CUMULATE",
            TvfSpec::Session { .. } => "SESSION",
        }
    }

    /// The TVF closest to a DataStream assigner, if there is one.
    pub fn for_assigner(assigner: &AssignerSpec) -> Option<TvfSpec> {
        match *assigner {
            AssignerSpec::Tumbling { size, offset: 0 } => Some(TvfSpec::Tumble { size }),
            AssignerSpec::Sliding { size, slide, offset: 0 } => Some(TvfSpec::Hop { size, slide }),
            AssignerSpec::Session { gap } => Some(TvfSpec::Session { gap }),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputItem {
    Element(Element),
    /// An explicit watermark marker (read from partition 0, arriving 100 ms after the item
    /// before it).
    Watermark(Millis),
    /// An explicit watermark marker with its partition and arrival (Tidemark extension).
    SourceWatermark(Marker),
}

/// An explicit watermark marker read from one partition at one processing time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marker {
    pub wm: Millis,
    pub partition: u32,
    pub arrival: Option<Millis>,
}

impl InputItem {
    /// The watermark of a marker item.
    pub fn watermark(&self) -> Option<Millis> {
        match self {
            InputItem::Element(_) => None,
            InputItem::Watermark(wm) => Some(*wm),
            InputItem::SourceWatermark(m) => Some(m.wm),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub name: String,
    pub description: String,
    pub assigner: AssignerSpec,
    /// `None`: `allowedLateness` never called, which behaves as 0.
    pub allowed_lateness: Option<Millis>,
    pub trigger: TriggerSpec,
    pub evictor: Option<EvictorSpec>,
    pub watermarks: WatermarkSpec,
    pub side_output: bool,
    pub end_of_input: bool,
    pub function: WindowFunctionSpec,
    /// Partitions, watermark emission and idleness (Tidemark extension).
    pub source: SourceSpec,
    /// Run this keyed process function instead of the window (Tidemark extension).
    pub process_function: Option<ProcessFunctionSpec>,
    /// Run this SQL window TVF instead of the DataStream window (Tidemark extension).
    pub tvf: Option<TvfSpec>,
    pub input: Vec<InputItem>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            name: "scenario".into(),
            description: String::new(),
            assigner: AssignerSpec::Tumbling { size: 60_000, offset: 0 },
            allowed_lateness: None,
            trigger: TriggerSpec::DEFAULT,
            evictor: None,
            watermarks: WatermarkSpec::Explicit,
            side_output: true,
            end_of_input: true,
            function: WindowFunctionSpec::Process,
            source: SourceSpec::default(),
            process_function: None,
            tvf: None,
            input: Vec::new(),
        }
    }
}

/// A scenario that cannot be loaded: `path` names the field (`input[3].ts`), `message` the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() { f.write_str(&self.message) } else { write!(f, "{}: {}", self.path, self.message) }
    }
}

impl std::error::Error for ScenarioError {}

type Result<T> = std::result::Result<T, ScenarioError>;

/// Shortens user text quoted in an error message, so a hostile 1 MB string cannot flood it.
fn quote(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 { format!("{}…", s.chars().take(40).collect::<String>()) } else { s }
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() { field.to_string() } else { format!("{path}.{field}") }
}

/// A 64-bit integer: a JSON integer, or the strings `"LONG_MAX"` / `"LONG_MIN"`.
fn parse_i64(v: &Value, path: &str) -> Result<i64> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(i)
            } else if n.as_u64().is_some() || n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                Err(ScenarioError::new(
                    path,
                    format!("{} is outside the 64-bit integer range (use \"LONG_MAX\" or \"LONG_MIN\")", quote(v)),
                ))
            } else {
                Err(ScenarioError::new(path, format!("must be a whole number of milliseconds, not {}", quote(v))))
            }
        }
        Value::String(s) if s == "LONG_MAX" => Ok(LONG_MAX),
        Value::String(s) if s == "LONG_MIN" => Ok(LONG_MIN),
        _ => {
            Err(ScenarioError::new(path, format!("must be an integer, \"LONG_MAX\" or \"LONG_MIN\", not {}", quote(v))))
        }
    }
}

fn field<'a>(obj: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    obj.get(name).filter(|v| !v.is_null())
}

fn req_i64(obj: &Map<String, Value>, name: &str, path: &str) -> Result<i64> {
    match field(obj, name) {
        Some(v) => parse_i64(v, &join(path, name)),
        None => Err(ScenarioError::new(join(path, name), "is missing")),
    }
}

fn opt_i64(obj: &Map<String, Value>, name: &str, path: &str, default: i64) -> Result<i64> {
    match field(obj, name) {
        Some(v) => parse_i64(v, &join(path, name)),
        None => Ok(default),
    }
}

fn opt_bool(obj: &Map<String, Value>, name: &str, path: &str, default: bool) -> Result<bool> {
    match field(obj, name) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(ScenarioError::new(join(path, name), format!("must be true or false, not {}", quote(v)))),
    }
}

fn as_object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>> {
    v.as_object().ok_or_else(|| ScenarioError::new(path, format!("must be an object, not {}", quote(v))))
}

fn kind_of<'a>(obj: &'a Map<String, Value>, path: &str) -> Result<&'a str> {
    match obj.get("kind") {
        Some(Value::String(s)) => Ok(s),
        Some(v) => Err(ScenarioError::new(join(path, "kind"), format!("must be a string, not {}", quote(v)))),
        None => Err(ScenarioError::new(join(path, "kind"), "is missing")),
    }
}

fn unknown_kind(path: &str, kind: &str, known: &[&str]) -> ScenarioError {
    ScenarioError::new(
        join(path, "kind"),
        format!("unknown kind {} (expected one of: {})", quote(&Value::String(kind.into())), known.join(", ")),
    )
}

fn parse_assigner(v: &Value) -> Result<AssignerSpec> {
    let path = "assigner";
    let obj = as_object(v, path)?;
    // Sizes, slides and gaps are checked against Flink's own rules when the operator is built
    // (`engine::operator::validate`), which reports Flink's exception as an `error` output; the
    // loader only checks types, so that the CLI mirrors the oracle on scenarios Flink rejects.
    Ok(match kind_of(obj, path)? {
        "tumbling" => {
            AssignerSpec::Tumbling { size: req_i64(obj, "size", path)?, offset: opt_i64(obj, "offset", path, 0)? }
        }
        "sliding" => AssignerSpec::Sliding {
            size: req_i64(obj, "size", path)?,
            slide: req_i64(obj, "slide", path)?,
            offset: opt_i64(obj, "offset", path, 0)?,
        },
        "session" => AssignerSpec::Session { gap: req_i64(obj, "gap", path)? },
        "dynamic_session" => {
            let default_gap = req_i64(obj, "default_gap", path)?;
            let mut gaps = BTreeMap::new();
            if let Some(g) = field(obj, "gaps") {
                let gpath = join(path, "gaps");
                for (k, v) in as_object(g, &gpath)? {
                    gaps.insert(k.clone(), parse_i64(v, &format!("{gpath}.{k}"))?);
                }
            }
            AssignerSpec::DynamicSession { default_gap, gaps }
        }
        "global" => AssignerSpec::Global,
        "global_eos" => AssignerSpec::GlobalEos,
        "tumbling_processing" => AssignerSpec::TumblingProcessing {
            size: req_i64(obj, "size", path)?,
            offset: opt_i64(obj, "offset", path, 0)?,
        },
        "sliding_processing" => AssignerSpec::SlidingProcessing {
            size: req_i64(obj, "size", path)?,
            slide: req_i64(obj, "slide", path)?,
            offset: opt_i64(obj, "offset", path, 0)?,
        },
        other => {
            return Err(unknown_kind(
                path,
                other,
                &[
                    "tumbling",
                    "sliding",
                    "session",
                    "dynamic_session",
                    "global",
                    "global_eos",
                    "tumbling_processing",
                    "sliding_processing",
                ],
            ));
        }
    })
}

fn parse_trigger(v: Option<&Value>) -> Result<TriggerSpec> {
    let path = "trigger";
    let Some(v) = v else { return Ok(TriggerSpec::DEFAULT) };
    let obj = as_object(v, path)?;
    let kind = match obj.get("kind") {
        None | Some(Value::Null) => "default",
        _ => kind_of(obj, path)?,
    };
    let (base, purging) = match kind {
        "default" => (BaseTrigger::Default, false),
        "event_time" => (BaseTrigger::EventTime, false),
        "purging_event_time" => (BaseTrigger::EventTime, true),
        "count" => (BaseTrigger::Count { n: req_i64(obj, "n", path)? }, false),
        "purging_count" => (BaseTrigger::Count { n: req_i64(obj, "n", path)? }, true),
        "continuous_event_time" => {
            (BaseTrigger::ContinuousEventTime { interval: req_i64(obj, "interval", path)? }, false)
        }
        "purging_continuous_event_time" => {
            (BaseTrigger::ContinuousEventTime { interval: req_i64(obj, "interval", path)? }, true)
        }
        other => {
            return Err(unknown_kind(
                path,
                other,
                &[
                    "default",
                    "event_time",
                    "purging_event_time",
                    "count",
                    "purging_count",
                    "continuous_event_time",
                    "purging_continuous_event_time",
                ],
            ));
        }
    };
    Ok(TriggerSpec { base, purging })
}

fn parse_evictor(v: Option<&Value>) -> Result<Option<EvictorSpec>> {
    let path = "evictor";
    let Some(v) = v else { return Ok(None) };
    let obj = as_object(v, path)?;
    let kind = match kind_of(obj, path)? {
        "none" => return Ok(None),
        "count" => EvictorKind::Count { n: req_i64(obj, "n", path)? },
        "time" => EvictorKind::Time { size: req_i64(obj, "size", path)? },
        other => return Err(unknown_kind(path, other, &["none", "count", "time"])),
    };
    Ok(Some(EvictorSpec { kind, do_evict_after: opt_bool(obj, "do_evict_after", path, false)? }))
}

fn parse_watermarks(v: Option<&Value>) -> Result<WatermarkSpec> {
    let path = "watermarks";
    let Some(v) = v else { return Ok(WatermarkSpec::Explicit) };
    let obj = as_object(v, path)?;
    Ok(match kind_of(obj, path)? {
        "explicit" => WatermarkSpec::Explicit,
        "bounded_out_of_orderness" => {
            let bound = req_i64(obj, "bound", path)?;
            if bound < 0 {
                // Flink: `checkArgument(!maxOutOfOrderness.isNegative(), "maxOutOfOrderness cannot be negative")`.
                return Err(ScenarioError::new(join(path, "bound"), "maxOutOfOrderness cannot be negative"));
            }
            WatermarkSpec::BoundedOutOfOrderness { bound }
        }
        "monotonous" => WatermarkSpec::Monotonous,
        other => return Err(unknown_kind(path, other, &["explicit", "bounded_out_of_orderness", "monotonous"])),
    })
}

fn parse_function(v: Option<&Value>) -> Result<WindowFunctionSpec> {
    let path = "function";
    let Some(v) = v else { return Ok(WindowFunctionSpec::Process) };
    let kind = match v {
        Value::String(s) => s.as_str(),
        Value::Object(obj) => kind_of(obj, path)?,
        other => return Err(ScenarioError::new(path, format!("must be a string, not {}", quote(other)))),
    };
    WindowFunctionSpec::ALL.into_iter().find(|f| f.kind() == kind).ok_or_else(|| {
        ScenarioError::new(
            path,
            format!(
                "unknown window function {} (expected one of: process, sum, count, avg, min, max)",
                quote(&Value::String(kind.into()))
            ),
        )
    })
}

fn parse_key(v: &Value, path: &str) -> Result<String> {
    let key = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => return Err(ScenarioError::new(path, format!("must be a string, not {}", quote(other)))),
    };
    if key.chars().count() > limits::MAX_KEY_CHARS {
        return Err(ScenarioError::new(path, format!("is longer than {} characters", limits::MAX_KEY_CHARS)));
    }
    Ok(key)
}

fn parse_item(v: &Value, path: &str) -> Result<InputItem> {
    let obj = as_object(v, path)?;
    let partition = match field(obj, "partition") {
        None => 0,
        Some(v) => {
            let p = parse_i64(v, &join(path, "partition"))?;
            u32::try_from(p).ok().filter(|p| *p < limits::MAX_PARTITIONS).ok_or_else(|| {
                ScenarioError::new(
                    join(path, "partition"),
                    format!("must be between 0 and {}, not {p}", limits::MAX_PARTITIONS - 1),
                )
            })?
        }
    };
    let arrival = match field(obj, "arrival") {
        None => None,
        Some(v) => Some(parse_i64(v, &join(path, "arrival"))?),
    };
    if let Some(wm) = obj.get("wm") {
        let wm = parse_i64(wm, &join(path, "wm"))?;
        if partition == 0 && arrival.is_none() {
            return Ok(InputItem::Watermark(wm));
        }
        return Ok(InputItem::SourceWatermark(Marker { wm, partition, arrival }));
    }
    let key = match obj.get("key") {
        Some(k) => parse_key(k, &join(path, "key"))?,
        None => {
            return Err(ScenarioError::new(
                join(path, "key"),
                "is missing (an item is an element {\"id\",\"key\",\"ts\"} or a watermark {\"wm\"})",
            ));
        }
    };
    let event = match field(obj, "event") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(v) => return Err(ScenarioError::new(join(path, "event"), format!("must be a string, not {}", quote(v)))),
    };
    Ok(InputItem::Element(Element {
        id: req_i64(obj, "id", path)?,
        key,
        ts: req_i64(obj, "ts", path)?,
        value: opt_i64(obj, "value", path, 1)?,
        partition,
        arrival,
        event,
    }))
}

fn parse_source(watermarks: Option<&Value>, partitions: Option<&Value>) -> Result<SourceSpec> {
    let mut spec = SourceSpec::default();
    if let Some(Value::Object(obj)) = watermarks {
        spec.periodic = match field(obj, "emit") {
            None => false,
            Some(Value::String(s)) if s == "per_event" => false,
            Some(Value::String(s)) if s == "periodic" => true,
            Some(v) => {
                return Err(ScenarioError::new(
                    "watermarks.emit",
                    format!("must be \"per_event\" or \"periodic\", not {}", quote(v)),
                ));
            }
        };
        spec.interval = opt_i64(obj, "interval", "watermarks", 200)?;
        if spec.interval <= 0 {
            return Err(ScenarioError::new(
                "watermarks.interval",
                format!("autoWatermarkInterval must be greater than 0, not {}", spec.interval),
            ));
        }
        if let Some(v) = field(obj, "idleness") {
            let d = parse_i64(v, "watermarks.idleness")?;
            if d <= 0 {
                return Err(ScenarioError::new("watermarks.idleness", format!("must be greater than 0, not {d}")));
            }
            spec.idleness = Some(d);
        }
    }
    if let Some(v) = partitions {
        let n = parse_i64(v, "partitions")?;
        spec.partitions =
            Some(u32::try_from(n).ok().filter(|n| (1..=limits::MAX_PARTITIONS).contains(n)).ok_or_else(|| {
                ScenarioError::new("partitions", format!("must be between 1 and {}, not {n}", limits::MAX_PARTITIONS))
            })?);
    }
    Ok(spec)
}

fn parse_process_function(v: Option<&Value>) -> Result<Option<ProcessFunctionSpec>> {
    let path = "process_function";
    let Some(v) = v else { return Ok(None) };
    let obj = as_object(v, path)?;
    let spec = match kind_of(obj, path)? {
        "request_assembler" => {
            let timeout = opt_i64(obj, "timeout", path, 300_000)?;
            let ttl = match field(obj, "ttl") {
                None => None,
                Some(v) => Some(parse_i64(v, &join(path, "ttl"))?),
            };
            if ttl.is_some_and(|t| t <= 0) {
                return Err(ScenarioError::new(join(path, "ttl"), "must be greater than 0"));
            }
            let timer = match field(obj, "timer") {
                None => TimeDomain::EventTime,
                Some(Value::String(s)) if s == "event_time" => TimeDomain::EventTime,
                Some(Value::String(s)) if s == "processing_time" => TimeDomain::ProcessingTime,
                Some(v) => {
                    return Err(ScenarioError::new(
                        join(path, "timer"),
                        format!("must be \"event_time\" or \"processing_time\", not {}", quote(v)),
                    ));
                }
            };
            ProcessFunctionSpec::RequestAssembler { timeout, ttl, timer }
        }
        "error_rate_alert" => {
            let size = opt_i64(obj, "size", path, 60_000)?;
            if size <= 0 {
                return Err(ScenarioError::new(join(path, "size"), format!("must be greater than 0, not {size}")));
            }
            ProcessFunctionSpec::ErrorRateAlert { size, threshold_pct: opt_i64(obj, "threshold_pct", path, 5)? }
        }
        other => return Err(unknown_kind(path, other, &["request_assembler", "error_rate_alert"])),
    };
    Ok(Some(spec))
}

fn parse_tvf(v: Option<&Value>) -> Result<Option<TvfSpec>> {
    let path = "tvf";
    let Some(v) = v else { return Ok(None) };
    let obj = as_object(v, path)?;
    let positive = |name: &str| -> Result<Millis> {
        let x = req_i64(obj, name, path)?;
        if x > 0 {
            Ok(x)
        } else {
            Err(ScenarioError::new(join(path, name), format!("must be greater than 0, not {x}")))
        }
    };
    let spec = match kind_of(obj, path)? {
        "tumble" => TvfSpec::Tumble { size: positive("size")? },
        "hop" => TvfSpec::Hop { size: positive("size")?, slide: positive("slide")? },
        "cumulate" => TvfSpec::Cumulate { step: positive("step")?, size: positive("size")? },
        "session" => TvfSpec::Session { gap: positive("gap")? },
        other => return Err(unknown_kind(path, other, &["tumble", "hop", "cumulate", "session"])),
    };
    match spec {
        TvfSpec::Hop { size, slide } if size % slide != 0 => Err(ScenarioError::new(
            "tvf.size",
            "HOP window size must be an integral multiple of the slide (Flink SQL's rule)",
        )),
        TvfSpec::Cumulate { step, size } if size % step != 0 => Err(ScenarioError::new(
            "tvf.size",
            "CUMULATE max size must be an integral multiple of the step (Flink SQL's rule)",
        )),
        TvfSpec::Hop { size, slide } if size / slide > limits::MAX_WINDOWS_PER_ELEMENT => {
            Err(ScenarioError::new("tvf.slide", "puts every row into too many windows"))
        }
        TvfSpec::Cumulate { step, size } if size / step > limits::MAX_WINDOWS_PER_ELEMENT => {
            Err(ScenarioError::new("tvf.step", "puts every row into too many windows"))
        }
        _ => Ok(Some(spec)),
    }
}

impl Scenario {
    /// Loads a scenario from raw bytes (a file, a decoded URL fragment, an import).
    pub fn from_json_bytes(bytes: &[u8]) -> Result<Scenario> {
        if bytes.len() > limits::MAX_SCENARIO_BYTES {
            return Err(ScenarioError::new(
                "",
                format!("scenario is {} bytes; the limit is {} bytes", bytes.len(), limits::MAX_SCENARIO_BYTES),
            ));
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            ScenarioError::new("", format!("scenario is not UTF-8 text (invalid byte at offset {})", e.valid_up_to()))
        })?;
        Self::from_json_str(text)
    }

    pub fn from_json_str(text: &str) -> Result<Scenario> {
        // serde_json refuses nesting deeper than 128 levels with an error, so hostile input
        // cannot overflow the stack.
        let value: Value =
            serde_json::from_str(text).map_err(|e| ScenarioError::new("", format!("not valid JSON: {e}")))?;
        Self::from_value(&value)
    }

    pub fn from_value(value: &Value) -> Result<Scenario> {
        let obj = as_object(value, "scenario")?;
        let name = match field(obj, "name") {
            None => "scenario".to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => return Err(ScenarioError::new("name", format!("must be a string, not {}", quote(v)))),
        };
        let description = match field(obj, "description") {
            Some(Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        let assigner = match field(obj, "assigner") {
            Some(v) => parse_assigner(v)?,
            // A process-function or TVF scenario needs no DataStream window.
            None if field(obj, "process_function").is_some() || field(obj, "tvf").is_some() => {
                AssignerSpec::Tumbling { size: 60_000, offset: 0 }
            }
            None => return Err(ScenarioError::new("assigner", "is missing")),
        };
        let allowed_lateness = match field(obj, "allowed_lateness") {
            Some(v) => Some(parse_i64(v, "allowed_lateness")?),
            None => None,
        };
        let trigger = parse_trigger(field(obj, "trigger"))?;
        let evictor = parse_evictor(field(obj, "evictor"))?;
        let watermarks = parse_watermarks(field(obj, "watermarks"))?;
        let side_output = opt_bool(obj, "side_output", "", true)?;
        let end_of_input = opt_bool(obj, "end_of_input", "", true)?;
        let function = parse_function(field(obj, "function"))?;
        let source = parse_source(field(obj, "watermarks"), field(obj, "partitions"))?;
        let process_function = parse_process_function(field(obj, "process_function"))?;
        let tvf = parse_tvf(field(obj, "tvf"))?;
        let items = match field(obj, "input") {
            Some(Value::Array(a)) => a,
            Some(v) => return Err(ScenarioError::new("input", format!("must be an array, not {}", quote(v)))),
            None => return Err(ScenarioError::new("input", "is missing")),
        };
        if items.len() > limits::MAX_INPUT_ITEMS {
            return Err(ScenarioError::new(
                "input",
                format!("has {} items; the limit is {}", items.len(), limits::MAX_INPUT_ITEMS),
            ));
        }
        let mut input = Vec::with_capacity(items.len());
        let mut keys = std::collections::BTreeSet::new();
        for (i, item) in items.iter().enumerate() {
            let item = parse_item(item, &format!("input[{i}]"))?;
            if let InputItem::Element(e) = &item {
                if keys.len() < limits::MAX_KEYS || keys.contains(&e.key) {
                    keys.insert(e.key.clone());
                } else {
                    return Err(ScenarioError::new(
                        format!("input[{i}].key"),
                        format!("is a new key beyond the limit of {} distinct keys", limits::MAX_KEYS),
                    ));
                }
            }
            input.push(item);
        }
        let scenario = Scenario {
            name,
            description,
            assigner,
            allowed_lateness,
            trigger,
            evictor,
            watermarks,
            side_output,
            end_of_input,
            function,
            source,
            process_function,
            tvf,
            input,
        };
        scenario.check_limits()?;
        Ok(scenario)
    }

    /// Tidemark's own limits, beyond Flink's rules (those come from the operator).
    pub fn check_limits(&self) -> Result<()> {
        if let AssignerSpec::Sliding { size, slide, .. } = self.assigner
            && slide > 0
            && size > 0
            // Beyond 10^7 Flink itself rejects the assigner; the operator reports that.
            && size / slide <= 10_000_000
            && (size / slide) + i64::from(size % slide != 0) > limits::MAX_WINDOWS_PER_ELEMENT
        {
            return Err(ScenarioError::new(
                "assigner.slide",
                format!(
                    "size {size} / slide {slide} puts every element into more than {} windows; Tidemark's limit is {}",
                    limits::MAX_WINDOWS_PER_ELEMENT,
                    limits::MAX_WINDOWS_PER_ELEMENT
                ),
            ));
        }
        if let AssignerSpec::Sliding { size, slide, .. } | AssignerSpec::SlidingProcessing { size, slide, .. } =
            self.assigner
            && slide > 0
            && size > 0
            // As above: beyond 10^7 Flink's own rejection is the answer.
            && size / slide <= 10_000_000
        {
            let per_element = (size / slide) + i64::from(size % slide != 0);
            let elements = self.elements().count() as i64;
            if elements.saturating_mul(per_element) > limits::MAX_ASSIGNMENTS {
                return Err(ScenarioError::new(
                    "assigner.slide",
                    format!(
                        "{elements} elements × {per_element} windows each (size {size} / slide {slide}) is more than {} element-window assignments, Tidemark's limit; use a larger slide or fewer elements",
                        limits::MAX_ASSIGNMENTS
                    ),
                ));
            }
        }
        if let Some(n) = self.source.partitions
            && let Some((i, e)) = self.elements().enumerate().find(|(_, e)| e.partition >= n)
        {
            return Err(ScenarioError::new(
                format!("input element {i}"),
                format!("reads partition {} but the scenario declares {n} partitions", e.partition),
            ));
        }
        if let BaseTrigger::ContinuousEventTime { interval } = self.trigger.base
            && interval < 0
        {
            // Flink accepts it and then never finishes a watermark advance: every interval timer
            // registers `t + interval < t`, which is already due. Refused rather than mirrored.
            return Err(ScenarioError::new(
                "trigger.interval",
                format!("{interval} is negative: Flink 2.3 accepts it but its watermark advance then loops forever"),
            ));
        }
        Ok(())
    }

    /// Source partitions: declared, or one more than the largest partition an element uses.
    pub fn partition_count(&self) -> u32 {
        let used = self
            .input
            .iter()
            .map(|i| match i {
                InputItem::Element(e) => e.partition + 1,
                InputItem::SourceWatermark(m) => m.partition + 1,
                InputItem::Watermark(_) => 1,
            })
            .max()
            .unwrap_or(1);
        self.source.partitions.unwrap_or(used).max(used).max(1)
    }

    /// The processing time at which each input item arrives: its `arrival`, or 100 ms after the
    /// previous item (the first at 0). Processing time never goes back, so an earlier arrival
    /// is taken as the previous one.
    pub fn arrivals(&self) -> Vec<Millis> {
        let mut out = Vec::with_capacity(self.input.len());
        let mut previous: Option<Millis> = None;
        for item in &self.input {
            let explicit = match item {
                InputItem::Element(e) => e.arrival,
                InputItem::Watermark(_) => None,
                InputItem::SourceWatermark(m) => m.arrival,
            };
            let at = match (explicit, previous) {
                (Some(a), Some(p)) => a.max(p),
                (Some(a), None) => a,
                (None, Some(p)) => p.saturating_add(DEFAULT_ARRIVAL_SPACING),
                (None, None) => 0,
            };
            out.push(at);
            previous = Some(at);
        }
        out
    }

    /// The allowed lateness Flink uses: 0 when `allowedLateness` was never called.
    pub fn lateness(&self) -> Millis {
        self.allowed_lateness.unwrap_or(0)
    }

    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.input.iter().filter_map(|i| match i {
            InputItem::Element(e) => Some(e),
            InputItem::Watermark(_) | InputItem::SourceWatermark(_) => None,
        })
    }

    /// The scenario in the oracle's JSON format (what share links and exports carry).
    pub fn to_json(&self) -> Value {
        let num = |v: i64| match v {
            LONG_MAX => json!("LONG_MAX"),
            LONG_MIN => json!("LONG_MIN"),
            v => json!(v),
        };
        let assigner = match &self.assigner {
            AssignerSpec::Tumbling { size, offset } => {
                json!({"kind": "tumbling", "size": num(*size), "offset": num(*offset)})
            }
            AssignerSpec::Sliding { size, slide, offset } => {
                json!({"kind": "sliding", "size": num(*size), "slide": num(*slide), "offset": num(*offset)})
            }
            AssignerSpec::Session { gap } => json!({"kind": "session", "gap": num(*gap)}),
            AssignerSpec::DynamicSession { default_gap, gaps } => {
                let gaps: Map<String, Value> = gaps.iter().map(|(k, v)| (k.clone(), num(*v))).collect();
                json!({"kind": "dynamic_session", "default_gap": num(*default_gap), "gaps": gaps})
            }
            AssignerSpec::Global => json!({"kind": "global"}),
            AssignerSpec::GlobalEos => json!({"kind": "global_eos"}),
            AssignerSpec::TumblingProcessing { size, offset } => {
                json!({"kind": "tumbling_processing", "size": num(*size), "offset": num(*offset)})
            }
            AssignerSpec::SlidingProcessing { size, slide, offset } => {
                json!({"kind": "sliding_processing", "size": num(*size), "slide": num(*slide), "offset": num(*offset)})
            }
        };
        let mut trigger = Map::new();
        trigger.insert("kind".into(), json!(self.trigger.kind()));
        match self.trigger.base {
            BaseTrigger::Count { n } => {
                trigger.insert("n".into(), num(n));
            }
            BaseTrigger::ContinuousEventTime { interval } => {
                trigger.insert("interval".into(), num(interval));
            }
            BaseTrigger::Default | BaseTrigger::EventTime => {}
        }
        let evictor = match self.evictor {
            None => Value::Null,
            Some(EvictorSpec { kind: EvictorKind::Count { n }, do_evict_after }) => {
                json!({"kind": "count", "n": num(n), "do_evict_after": do_evict_after})
            }
            Some(EvictorSpec { kind: EvictorKind::Time { size }, do_evict_after }) => {
                json!({"kind": "time", "size": num(size), "do_evict_after": do_evict_after})
            }
        };
        let mut watermarks = match self.watermarks {
            WatermarkSpec::Explicit => json!({"kind": "explicit"}),
            WatermarkSpec::BoundedOutOfOrderness { bound } => {
                json!({"kind": "bounded_out_of_orderness", "bound": num(bound)})
            }
            WatermarkSpec::Monotonous => json!({"kind": "monotonous"}),
        };
        if let Value::Object(w) = &mut watermarks {
            let defaults = SourceSpec::default();
            if self.source.periodic {
                w.insert("emit".into(), json!("periodic"));
            }
            if self.source.interval != defaults.interval {
                w.insert("interval".into(), num(self.source.interval));
            }
            if let Some(d) = self.source.idleness {
                w.insert("idleness".into(), num(d));
            }
        }
        let input: Vec<Value> = self
            .input
            .iter()
            .map(|item| match item {
                InputItem::Element(e) => {
                    let mut o = Map::new();
                    o.insert("id".into(), num(e.id));
                    o.insert("key".into(), json!(e.key));
                    o.insert("ts".into(), num(e.ts));
                    o.insert("value".into(), num(e.value));
                    if e.partition != 0 {
                        o.insert("partition".into(), json!(e.partition));
                    }
                    if let Some(a) = e.arrival {
                        o.insert("arrival".into(), num(a));
                    }
                    if let Some(ev) = &e.event {
                        o.insert("event".into(), json!(ev));
                    }
                    Value::Object(o)
                }
                InputItem::Watermark(wm) => json!({"wm": num(*wm)}),
                InputItem::SourceWatermark(m) => {
                    let mut o = Map::new();
                    o.insert("wm".into(), num(m.wm));
                    if m.partition != 0 {
                        o.insert("partition".into(), json!(m.partition));
                    }
                    if let Some(a) = m.arrival {
                        o.insert("arrival".into(), num(a));
                    }
                    Value::Object(o)
                }
            })
            .collect();
        let mut out = Map::new();
        out.insert("name".into(), json!(self.name));
        if !self.description.is_empty() {
            out.insert("description".into(), json!(self.description));
        }
        out.insert("assigner".into(), assigner);
        out.insert("allowed_lateness".into(), self.allowed_lateness.map_or(Value::Null, num));
        out.insert("trigger".into(), Value::Object(trigger));
        out.insert("evictor".into(), evictor);
        out.insert("watermarks".into(), watermarks);
        out.insert("side_output".into(), json!(self.side_output));
        out.insert("end_of_input".into(), json!(self.end_of_input));
        if self.function != WindowFunctionSpec::Process {
            out.insert("function".into(), json!(self.function.kind()));
        }
        if let Some(p) = self.source.partitions {
            out.insert("partitions".into(), json!(p));
        }
        match self.process_function {
            None => {}
            Some(ProcessFunctionSpec::RequestAssembler { timeout, ttl, timer }) => {
                let mut o = Map::new();
                o.insert("kind".into(), json!("request_assembler"));
                o.insert("timeout".into(), num(timeout));
                if timer == TimeDomain::ProcessingTime {
                    o.insert("timer".into(), json!("processing_time"));
                }
                if let Some(t) = ttl {
                    o.insert("ttl".into(), num(t));
                }
                out.insert("process_function".into(), Value::Object(o));
            }
            Some(ProcessFunctionSpec::ErrorRateAlert { size, threshold_pct }) => {
                out.insert(
                    "process_function".into(),
                    json!({"kind": "error_rate_alert", "size": num(size), "threshold_pct": num(threshold_pct)}),
                );
            }
        }
        if let Some(tvf) = self.tvf {
            let v = match tvf {
                TvfSpec::Tumble { size } => json!({"kind": "tumble", "size": num(size)}),
                TvfSpec::Hop { size, slide } => json!({"kind": "hop", "size": num(size), "slide": num(slide)}),
                TvfSpec::Cumulate { step, size } => json!({"kind": "cumulate", "step": num(step), "size": num(size)}),
                TvfSpec::Session { gap } => json!({"kind": "session", "gap": num(gap)}),
            };
            out.insert("tvf".into(), v);
        }
        out.insert("input".into(), Value::Array(input));
        Value::Object(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        match Scenario::from_json_str(text) {
            Ok(_) => panic!("expected an error for {text}"),
            Err(e) => e.to_string(),
        }
    }

    const BASE: &str = r#""assigner": {"kind": "tumbling", "size": 60000}"#;

    /// Errors name the field and the rule.
    #[test]
    fn errors_name_the_field() {
        assert_eq!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "key": "A", "ts": "soon"}}]}}"#)),
            r#"input[0].ts: must be an integer, "LONG_MAX" or "LONG_MIN", not "soon""#
        );
        assert_eq!(err(r#"{"input": []}"#), "assigner: is missing");
        assert!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "key": "A", "ts": 1e40}}]}}"#))
                .contains("is outside the 64-bit integer range")
        );
        assert!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "key": "A", "ts": 18446744073709551615}}]}}"#))
                .contains("outside the 64-bit integer range")
        );
        assert!(
            err(r#"{"assigner": {"kind": "hopping"}, "input": []}"#)
                .starts_with("assigner.kind: unknown kind \"hopping\"")
        );
        assert!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "ts": 5}}]}}"#)).starts_with("input[0].key: is missing")
        );
        assert!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "key": [1], "ts": 5}}]}}"#))
                .starts_with("input[0].key: must be a string")
        );
        assert!(
            err(&format!(r#"{{{BASE}, "side_output": "yes", "input": []}}"#))
                .starts_with("side_output: must be true or false")
        );
        assert!(err("{").starts_with("not valid JSON"));
    }

    /// Hostile input: deep nesting and non-UTF-8 bytes are refused, not crashed on.
    #[test]
    fn hostile_input_is_refused() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(err(&deep).starts_with("not valid JSON"));
        let e = Scenario::from_json_bytes(b"{\"name\": \"\xff\"}").err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("scenario is not UTF-8 text (invalid byte at offset 10)"));
    }

    /// `LONG_MAX`/`LONG_MIN` strings are accepted for any number, and round-trip.
    #[test]
    fn long_strings_round_trip() {
        let text = format!(
            r#"{{{BASE}, "allowed_lateness": "LONG_MAX", "input": [{{"id": 1, "key": "A", "ts": "LONG_MIN"}}, {{"wm": "LONG_MAX"}}]}}"#
        );
        let s = Scenario::from_json_str(&text).expect("valid");
        assert_eq!(s.allowed_lateness, Some(i64::MAX));
        assert_eq!(s.input[1], InputItem::Watermark(i64::MAX));
        let again = Scenario::from_value(&s.to_json()).expect("round trip");
        assert_eq!(again, s);
    }

    /// Limits give a clear message instead of a frozen tab.
    #[test]
    fn sliding_window_copies_are_limited() {
        let text = r#"{"assigner": {"kind": "sliding", "size": 100000, "slide": 1}, "input": []}"#;
        assert!(
            err(text)
                .starts_with("assigner.slide: size 100000 / slide 1 puts every element into more than 10000 windows")
        );
    }

    /// Many elements times many windows each: refused as a whole, naming both numbers.
    #[test]
    fn total_assignments_are_limited() {
        let scenario = |n: usize, kind: &str| {
            let items: Vec<String> = (0..n)
                .map(|i| format!(r#"{{"kind": "element", "id": {i}, "key": "a", "ts": {i}, "value": 1}}"#))
                .collect();
            format!(
                r#"{{"assigner": {{"kind": "{kind}", "size": 10000, "slide": 1}}, "input": [{}]}}"#,
                items.join(",")
            )
        };
        // 100 × 10,000 = the limit exactly: accepted.
        assert!(Scenario::from_json_str(&scenario(100, "sliding")).is_ok());
        for kind in ["sliding", "sliding_processing"] {
            assert_eq!(
                err(&scenario(101, kind)),
                "assigner.slide: 101 elements × 10000 windows each (size 10000 / slide 1) is more than 1000000 element-window assignments, Tidemark's limit; use a larger slide or fewer elements"
            );
        }
    }
}
