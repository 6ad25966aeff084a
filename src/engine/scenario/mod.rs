//! The scenario: what the user builds and the oracle runs. The format is the Flink oracle's own
//! JSON (`../shared/flink-oracle/README.md`), extended only with optional fields, so every oracle
//! scenario loads unchanged.
//!
//! Loading never panics: every problem becomes a [`ScenarioError`] that names the field (as a
//! path like `input[3].ts`) and the rule it broke.
//!
//! - `mod.rs` (this file): the scenario's types, Tidemark's limits and the questions a run asks
//!   of a scenario (arrivals, partitions, lateness);
//! - `parse.rs`: loading JSON into a [`Scenario`], every failure a [`ScenarioError`];
//! - `json.rs`: writing a [`Scenario`] back as the oracle's JSON.

use std::collections::BTreeMap;
use std::fmt;

pub use super::aggregate::CourseAggregate;
use super::time::Millis;
use super::trace::TimeDomain;

mod json;
mod key;
pub use key::Key;
mod parse;
mod tvf_rule;
pub use tvf_rule::tvf_rule;

/// Processing time between two items without an explicit `arrival`.
pub const DEFAULT_ARRIVAL_SPACING: Millis = 100;

/// Hard limits that keep a browser tab (or the command line) responsive; exceeding one is a
/// clear error, never a frozen page or a silent truncation. The page and the command line have
/// their own [`Limits`]: the page keeps the full trace and redraws on every edit, the command line
/// runs once without a trace.
pub mod limits {
    /// What one loader accepts.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Limits {
        /// Who these limits are for, named in the message of a refusal ("the page").
        pub who: &'static str,
        /// Bytes of scenario JSON.
        pub scenario_bytes: usize,
        /// Input items (elements and watermarks) in one scenario.
        pub input_items: usize,
        /// Distinct keys in one scenario.
        pub keys: usize,
        /// Element-window assignments in one run (elements × windows per element).
        pub assignments: i64,
    }

    impl Limits {
        /// The page: the run keeps its full trace (≈ 150 bytes per assignment) and the fold, so
        /// 1,000,000 assignments is about 150 MB of trace; 100,000 items is what the canvas
        /// backend draws at 60 frames a second.
        pub const PAGE: Limits = Limits {
            who: "the page",
            scenario_bytes: 16 * 1024 * 1024,
            input_items: 100_000,
            keys: 10_000,
            assignments: 1_000_000,
        };
        /// `tidemark run`: no trace for the oracle's lines, one run. 300,000 elements of sliding
        /// 60 s / 10 s windows are 1.8 M assignments; a million elements of it are 6 M.
        pub const CLI: Limits = Limits {
            who: "the command line",
            scenario_bytes: 64 * 1024 * 1024,
            input_items: 1_000_000,
            keys: 100_000,
            assignments: 6_000_000,
        };

        /// Where a scenario over these limits may still go, for the message.
        pub(crate) fn elsewhere(&self) -> &'static str {
            if self.who == Limits::PAGE.who { " (the command line takes more: tidemark run FILE)" } else { "" }
        }
    }

    /// Bytes of scenario JSON accepted by the page (share links, autosave, imports).
    pub const MAX_SCENARIO_BYTES: usize = Limits::PAGE.scenario_bytes;
    /// Input items (elements and watermarks) in one scenario, in the page.
    pub const MAX_INPUT_ITEMS: usize = Limits::PAGE.input_items;
    /// Distinct keys in one scenario, in the page.
    pub const MAX_KEYS: usize = Limits::PAGE.keys;
    /// Windows one element may be assigned to (`ceil(size / slide)` for sliding windows).
    pub const MAX_WINDOWS_PER_ELEMENT: i64 = 10_000;
    /// Element-window assignments in one run, in the page.
    pub const MAX_ASSIGNMENTS: i64 = Limits::PAGE.assignments;
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
    /// The course's early trigger: every `n` elements, then at the watermark.
    EarlyCount {
        n: i64,
    },
    /// The course's capped session: EventTimeTrigger plus FIRE_AND_PURGE at
    /// `start + max_duration - 1`.
    SessionMaxDuration {
        max_duration: Millis,
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
            (BaseTrigger::EarlyCount { .. }, false) => "early_count_event_time",
            (BaseTrigger::EarlyCount { .. }, true) => "purging_early_count_event_time",
            (BaseTrigger::SessionMaxDuration { .. }, false) => "session_max_duration",
            (BaseTrigger::SessionMaxDuration { .. }, true) => "purging_session_max_duration",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvictorKind {
    /// `CountEvictor.of(n)`: keeps the last `n` elements in arrival order.
    Count { n: i64 },
    /// `TimeEvictor.of(size)`: keeps elements with `ts > max_ts - size`.
    Time { size: Millis },
    /// `DeltaEvictor.of(threshold, deltaFunction)`: evicts every element whose delta to the last
    /// element in arrival order is `>= threshold`.
    Delta { threshold: Threshold, delta: DeltaFn },
}

/// A `DeltaEvictor` threshold: a Java `double` (equal when the bits are equal).
#[derive(Clone, Copy, Debug)]
pub struct Threshold(pub f64);

impl PartialEq for Threshold {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Threshold {}

/// The course's `DeltaFunction`s: the distance between two elements, as a `double`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaFn {
    /// `|a.value - b.value|`.
    Value,
    /// `|a.ts - b.ts|`.
    Ts,
}

impl DeltaFn {
    pub fn name(&self) -> &'static str {
        match self {
            DeltaFn::Value => "value",
            DeltaFn::Ts => "ts",
        }
    }

    /// `getDelta(a, b)`: `Math.abs((double) a.x - (double) b.x)`.
    pub fn delta(&self, a: (Millis, i64), b: (Millis, i64)) -> f64 {
        match self {
            DeltaFn::Value => (a.1 as f64 - b.1 as f64).abs(),
            DeltaFn::Ts => (a.0 as f64 - b.0 as f64).abs(),
        }
    }
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
    /// `aggregate(agg, processWindowFunction)` with one of the course's `AggregateFunction`s:
    /// one accumulator per window, and the function gets the aggregate's result.
    Aggregate(CourseAggregate),
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
            WindowFunctionSpec::Aggregate(_) => "aggregate",
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
    pub key: Key,
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
    /// A checkpoint, or the TaskManager dying (issue 17): `{"checkpoint": true}`,
    /// `{"crash": true}`.
    Control(Control),
}

/// What a control item does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlKind {
    /// A checkpoint is taken here: every earlier item fully processed, no later one.
    Checkpoint,
    /// The TaskManager dies here: the job restarts from the latest completed checkpoint.
    Crash,
}

impl ControlKind {
    /// The item's field name (`checkpoint`, `crash`).
    pub fn name(&self) -> &'static str {
        match self {
            ControlKind::Checkpoint => "checkpoint",
            ControlKind::Crash => "crash",
        }
    }
}

/// A checkpoint or crash item, with its processing time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    pub kind: ControlKind,
    pub arrival: Option<Millis>,
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
            InputItem::Element(_) | InputItem::Control(_) => None,
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

/// What loading returns: the scenario, or the field and rule that failed.
pub(crate) type Result<T> = std::result::Result<T, ScenarioError>;

impl Scenario {
    /// The indices of the input items in which `self` differs from `base`, when that is all that
    /// differs (the same configuration, as many items) and there are at most `max` of them: what
    /// [`Scenario::input_patch_json`] needs to turn `base` into `self`. A drag move changes one.
    pub fn input_edits(&self, base: &Scenario, max: usize) -> Option<Vec<usize>> {
        // Every field but the input, named: a new field does not compile until it is compared.
        let Scenario {
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
        } = self;
        let same = *name == base.name
            && *description == base.description
            && *assigner == base.assigner
            && *allowed_lateness == base.allowed_lateness
            && *trigger == base.trigger
            && *evictor == base.evictor
            && *watermarks == base.watermarks
            && *side_output == base.side_output
            && *end_of_input == base.end_of_input
            && *function == base.function
            && *source == base.source
            && *process_function == base.process_function
            && *tvf == base.tvf
            && input.len() == base.input.len();
        if !same {
            return None;
        }
        let mut edits = Vec::new();
        for (i, (a, b)) in input.iter().zip(&base.input).enumerate() {
            if a != b {
                if edits.len() == max {
                    return None;
                }
                edits.push(i);
            }
        }
        Some(edits)
    }

    /// Tidemark's own limits in the page, beyond Flink's rules (those come from the operator).
    pub fn check_limits(&self) -> Result<()> {
        self.check_limits_within(&limits::Limits::PAGE)
    }

    /// Tidemark's own limits (the page's or the command line's), beyond Flink's rules.
    pub fn check_limits_within(&self, within: &limits::Limits) -> Result<()> {
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
            if elements.saturating_mul(per_element) > within.assignments {
                return Err(ScenarioError::new(
                    "assigner.slide",
                    format!(
                        "{elements} elements × {per_element} windows each (size {size} / slide {slide}) is more than {} element-window assignments, the limit of {}; use a larger slide or fewer elements{}",
                        within.assignments,
                        within.who,
                        within.elsewhere()
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
        if let Some(i) = self.input.iter().position(|i| matches!(i, InputItem::Control(_))) {
            // What `tests/oracle-ext` records: a checkpointed source, one partition, per-event
            // watermarks, a window or a process function.
            let unsupported = if self.tvf.is_some() {
                Some("a window TVF")
            } else if self.partition_count() > 1 {
                Some("several source partitions")
            } else if self.source.periodic {
                Some("periodic watermark emission")
            } else if self.source.idleness.is_some() {
                Some("idleness")
            } else {
                None
            };
            if let Some(what) = unsupported {
                return Err(ScenarioError::new(
                    format!("input[{i}]"),
                    format!(
                        "checkpoint and crash items work with windows and process functions on one partition with per-event watermarks, not with {what}"
                    ),
                ));
            }
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
                InputItem::Watermark(_) | InputItem::Control(_) => 1,
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
                InputItem::Control(c) => c.arrival,
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
            InputItem::Watermark(_) | InputItem::SourceWatermark(_) | InputItem::Control(_) => None,
        })
    }

    /// Whether the input has checkpoint or crash items.
    pub fn has_recovery(&self) -> bool {
        self.input.iter().any(|i| matches!(i, InputItem::Control(_)))
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

    /// The room guessed for a scenario's JSON text holds it, with no more than half again to
    /// spare: for streams whose ids and timestamps grow along the input (short at its start), of
    /// one item, of a few and of many, with and without arrivals and partitions, and with a
    /// watermark every 2, 3 or 10 items (an even sample could meet only watermarks).
    #[test]
    fn the_json_length_guess_holds_the_text() {
        // (items, an element's extra fields, a watermark every so many items: 0 none)
        let cases = [(0, "", 0), (1, "", 0), (5, r#","arrival":7"#, 0), (300, "", 0), (20_000, "", 0)];
        let more =
            [(20_000, r#","partition":1"#, 0), (12_800, "", 2), (12_800, "", 10), (3_000, r#","arrival":12345678"#, 3)];
        for (n, extra, every) in cases.into_iter().chain(more) {
            let items: Vec<String> = (0..n)
                .map(|i| match every {
                    k if k > 0 && i % k == 0 => format!(r#"{{"wm":{}}}"#, i * 1000),
                    _ => format!(
                        r#"{{"id":{i},"key":"sensor-{}","ts":{}{extra}}}"#,
                        i % 20,
                        i * 1000 + (i * 7919) % 20_000
                    ),
                })
                .collect();
            let text = format!(r#"{{"assigner":{{"kind":"tumbling","size":30000}},"input":[{}]}}"#, items.join(","));
            let s = Scenario::from_json_str(&text).unwrap_or_else(|e| panic!("{e}"));
            let (guess, len) = (s.json_len_guess(), s.to_json_string().len());
            assert!(guess >= len, "{n} items: {guess} < {len}");
            assert!(guess <= len + len / 2 + 1024, "{n} items: {guess} for {len}");
        }
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
                "assigner.slide: 101 elements × 10000 windows each (size 10000 / slide 1) is more than 1000000 element-window assignments, the limit of the page; use a larger slide or fewer elements (the command line takes more: tidemark run FILE)"
            );
        }
    }

    /// The page and the command line have their own limits: over the page's, the message says so
    /// and where the scenario can go; the command line loads it.
    #[test]
    fn page_and_command_line_limits_differ() {
        use limits::Limits;
        let many = |n: usize, keys: usize| {
            let items: Vec<String> =
                (0..n).map(|i| format!(r#"{{"id":{i},"key":"k{}","ts":{i}}}"#, i % keys)).collect();
            format!(r#"{{"assigner":{{"kind":"tumbling","size":1000}},"input":[{}]}}"#, items.join(","))
        };
        let over_items = many(Limits::PAGE.input_items + 1, 10);
        assert_eq!(
            err(&over_items),
            "input: has 100001 items; the limit of the page is 100000 (the command line takes more: tidemark run FILE)"
        );
        let cli = Scenario::from_json_bytes_within(over_items.as_bytes(), &Limits::CLI);
        assert_eq!(cli.map(|s| s.input.len()).ok(), Some(100_001));
        // 10,000 keys load in the page; the next one does not.
        assert!(Scenario::from_json_str(&many(10_000, 10_000)).is_ok());
        assert_eq!(
            err(&many(10_001, 10_001)),
            "input[10000].key: is a new key beyond the limit of 10000 distinct keys of the page (the command line takes more: tidemark run FILE)"
        );
        // Bytes: a scenario over the page's 16 MB is refused before it is parsed; the command
        // line's 64 MB take it.
        let padded =
            format!(r#"{{"name":"{}","assigner":{{"kind":"tumbling","size":1000}},"input":[]}}"#, "x".repeat(17 << 20));
        let page = Scenario::from_json_bytes(padded.as_bytes()).err().map(|e| e.to_string());
        assert!(page.is_some_and(|m| {
            m.ends_with("the limit of the page is 16777216 bytes (the command line takes more: tidemark run FILE)")
        }));
        assert!(Scenario::from_json_bytes_within(padded.as_bytes(), &Limits::CLI).is_ok());
        // The command line's own limits hold too, without pointing elsewhere.
        let cli_over =
            Scenario::from_json_bytes_within(over_items.as_bytes(), &Limits { input_items: 100_000, ..Limits::CLI });
        assert_eq!(
            cli_over.err().map(|e| e.to_string()).as_deref(),
            Some("input: has 100001 items; the limit of the command line is 100000")
        );
    }

    /// Sliding 60 s / 10 s over 300,000 elements (1.8 M assignments) is over the page's limit and
    /// within the command line's.
    #[test]
    fn sliding_at_300k_fits_the_command_line() {
        use limits::Limits;
        let scenario = Scenario {
            assigner: AssignerSpec::Sliding { size: 60_000, slide: 10_000, offset: 0 },
            input: (0..300_000)
                .map(|i| {
                    InputItem::Element(Element {
                        id: i,
                        key: format!("k{}", i % 20).into(),
                        ts: i * 1000,
                        value: 1,
                        partition: 0,
                        arrival: None,
                        event: None,
                    })
                })
                .collect(),
            ..Scenario::default()
        };
        assert!(scenario.check_limits().is_err_and(|e| e.to_string().contains("300000 elements × 6 windows each")));
        assert!(scenario.check_limits_within(&Limits::CLI).is_ok());
    }
}
