//! The configuration panel's vocabulary: its fields (errors are shown next to them), one edit, and
//! the options of its `<select>`s.

use crate::engine::aggregate::{CourseAggregate, DEFAULT_K};
use crate::engine::scenario::{DeltaFn, WindowFunctionSpec};

/// A field of the configuration panel (errors are shown next to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    Assigner,
    Size,
    Slide,
    Gap,
    Offset,
    Lateness,
    SideOutput,
    Watermarks,
    Bound,
    Trigger,
    TriggerN,
    TriggerInterval,
    /// The course's session cap (`session_max_duration`).
    TriggerMaxDuration,
    Evictor,
    EvictorN,
    EvictorSize,
    /// `DeltaEvictor`'s threshold (a Java double).
    EvictorThreshold,
    /// `DeltaEvictor`'s delta function.
    EvictorDelta,
    Function,
    /// Source partitions (1 to 64).
    Partitions,
    /// Per-event or periodic watermark emission.
    Emission,
    /// `autoWatermarkInterval`.
    Interval,
    /// `withIdleness(d)`; empty: none.
    Idleness,
    /// The per-key gaps of a dynamic session assigner.
    KeyGaps,
}

impl Field {
    /// The `data-field` / element id spelling.
    pub fn name(&self) -> &'static str {
        match self {
            Field::Assigner => "assigner",
            Field::Size => "size",
            Field::Slide => "slide",
            Field::Gap => "gap",
            Field::Offset => "offset",
            Field::Lateness => "lateness",
            Field::SideOutput => "side-output",
            Field::Watermarks => "watermarks",
            Field::Bound => "bound",
            Field::Trigger => "trigger",
            Field::TriggerN => "trigger-n",
            Field::TriggerInterval => "trigger-interval",
            Field::TriggerMaxDuration => "trigger-max-duration",
            Field::Evictor => "evictor",
            Field::EvictorN => "evictor-n",
            Field::EvictorSize => "evictor-size",
            Field::EvictorThreshold => "evictor-threshold",
            Field::EvictorDelta => "evictor-delta",
            Field::Function => "function",
            Field::Partitions => "partitions",
            Field::Emission => "emission",
            Field::Interval => "interval",
            Field::Idleness => "idleness",
            Field::KeyGaps => "key-gaps",
        }
    }
}

/// One edit in the configuration panel.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigEdit {
    Assigner(AssignerChoice),
    Text(Field, String),
    SideOutput(bool),
    Watermarks(WatermarkChoice),
    Trigger(TriggerChoice),
    Purging(bool),
    Evictor(EvictorChoice),
    EvictAfter(bool),
    /// `DeltaEvictor`'s delta function.
    DeltaFn(DeltaFn),
    Function(WindowFunctionSpec),
    Emission(EmissionChoice),
    /// A dynamic session's gap for one key, as typed (empty: the default gap).
    KeyGap(String, String),
}

impl ConfigEdit {
    pub fn field(&self) -> Field {
        match self {
            ConfigEdit::Assigner(_) => Field::Assigner,
            ConfigEdit::Text(f, _) => *f,
            ConfigEdit::SideOutput(_) => Field::SideOutput,
            ConfigEdit::Watermarks(_) => Field::Watermarks,
            ConfigEdit::Trigger(_) | ConfigEdit::Purging(_) => Field::Trigger,
            ConfigEdit::Evictor(_) | ConfigEdit::EvictAfter(_) => Field::Evictor,
            ConfigEdit::DeltaFn(_) => Field::EvictorDelta,
            ConfigEdit::Function(_) => Field::Function,
            ConfigEdit::Emission(_) => Field::Emission,
            ConfigEdit::KeyGap(..) => Field::KeyGaps,
        }
    }
}

/// A `<select>` of the configuration panel: its options (value, label) in menu order.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every value with its `<option value>` and label, in menu order; the menu offers the first
    /// `MENU` of them.
    const OPTIONS: &'static [(Self, &'static str, &'static str)];
    const MENU: usize = Self::OPTIONS.len();

    /// The `<option value>`.
    fn value(&self) -> &'static str {
        Self::OPTIONS.iter().find(|(c, _, _)| c == self).map_or("", |(_, v, _)| v)
    }

    fn label(&self) -> &'static str {
        Self::OPTIONS.iter().find(|(c, _, _)| c == self).map_or("", |(_, _, l)| l)
    }

    fn from_value(v: &str) -> Option<Self> {
        Self::OPTIONS.iter().find(|(_, value, _)| *value == v).map(|(c, _, _)| *c)
    }

    /// The choices the menu offers (the rest only come from a loaded scenario).
    fn menu() -> &'static [(Self, &'static str, &'static str)] {
        &Self::OPTIONS[..Self::MENU]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignerChoice {
    Tumbling,
    Sliding,
    Session,
    Global,
    GlobalEos,
    /// `withDynamicGap`: only loaded from a scenario; the panel edits its default gap.
    DynamicSession,
    /// Processing-time windows: only loaded from a scenario; edits keep them processing-time.
    TumblingProcessing,
    SlidingProcessing,
}

impl Choice for AssignerChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (AssignerChoice::Tumbling, "tumbling", "tumbling"),
        (AssignerChoice::Sliding, "sliding", "sliding"),
        (AssignerChoice::Session, "session", "session"),
        (AssignerChoice::Global, "global", "global"),
        (AssignerChoice::GlobalEos, "global_eos", "global + end-of-stream trigger"),
        (AssignerChoice::DynamicSession, "dynamic_session", "session, dynamic gap"),
        (AssignerChoice::TumblingProcessing, "tumbling_processing", "tumbling, processing time"),
        (AssignerChoice::SlidingProcessing, "sliding_processing", "sliding, processing time"),
    ];
    /// Tumbling to global + end-of-stream, and the dynamic session gap (edited per key).
    const MENU: usize = 6;
}

impl AssignerChoice {
    /// Whether the assigner has a size (and an offset).
    pub fn is_sized(&self) -> bool {
        matches!(
            self,
            AssignerChoice::Tumbling
                | AssignerChoice::Sliding
                | AssignerChoice::TumblingProcessing
                | AssignerChoice::SlidingProcessing
        )
    }

    pub fn is_sliding(&self) -> bool {
        matches!(self, AssignerChoice::Sliding | AssignerChoice::SlidingProcessing)
    }

    pub fn is_session(&self) -> bool {
        matches!(self, AssignerChoice::Session | AssignerChoice::DynamicSession)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatermarkChoice {
    Explicit,
    Bounded,
    Monotonous,
}

impl Choice for WatermarkChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (WatermarkChoice::Explicit, "explicit", "explicit (watermark items)"),
        (WatermarkChoice::Bounded, "bounded_out_of_orderness", "bounded out-of-orderness"),
        (WatermarkChoice::Monotonous, "monotonous", "monotonous timestamps"),
    ];
}

/// How the source's generators emit watermarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmissionChoice {
    /// Right after every record (the oracle's mode).
    PerEvent,
    /// Every `autoWatermarkInterval` of processing time.
    Periodic,
}

impl Choice for EmissionChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (EmissionChoice::PerEvent, "per_event", "per event (after every record)"),
        (EmissionChoice::Periodic, "periodic", "periodic (autoWatermarkInterval)"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerChoice {
    Default,
    EventTime,
    Count,
    ContinuousEventTime,
    /// The course's early trigger: every n elements, then at the watermark.
    EarlyCount,
    /// The course's session with a maximum duration.
    SessionMaxDuration,
}

impl Choice for TriggerChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (TriggerChoice::Default, "default", "assigner's default"),
        (TriggerChoice::EventTime, "event_time", "EventTimeTrigger"),
        (TriggerChoice::Count, "count", "CountTrigger"),
        (TriggerChoice::ContinuousEventTime, "continuous_event_time", "ContinuousEventTimeTrigger"),
        (TriggerChoice::EarlyCount, "early_count_event_time", "every n, then watermark (course)"),
        (TriggerChoice::SessionMaxDuration, "session_max_duration", "session max duration (course)"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvictorChoice {
    None,
    Count,
    Time,
    Delta,
}

impl Choice for EvictorChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (EvictorChoice::None, "none", "none"),
        (EvictorChoice::Count, "count", "CountEvictor"),
        (EvictorChoice::Time, "time", "TimeEvictor"),
        (EvictorChoice::Delta, "delta", "DeltaEvictor"),
    ];
}

impl Choice for DeltaFn {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] =
        &[(DeltaFn::Value, "value", "|a.value − b.value|"), (DeltaFn::Ts, "ts", "|a.ts − b.ts|")];
}

impl Choice for WindowFunctionSpec {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (WindowFunctionSpec::Process, "process", "ProcessWindowFunction (buffers all elements)"),
        (WindowFunctionSpec::Sum, "sum", "sum (ReduceFunction)"),
        (WindowFunctionSpec::Count, "count", "count (AggregateFunction)"),
        (WindowFunctionSpec::Avg, "avg", "average (AggregateFunction)"),
        (WindowFunctionSpec::Min, "min", "min (ReduceFunction)"),
        (WindowFunctionSpec::Max, "max", "max (ReduceFunction)"),
        (WindowFunctionSpec::Aggregate(CourseAggregate::TenantCost), "tenant_cost", "TenantCost (course)"),
        (
            WindowFunctionSpec::Aggregate(CourseAggregate::LatencySketch { k: DEFAULT_K }),
            "latency_sketch",
            "LatencySketch p50/p99 (course)",
        ),
    ];
}
