//! The teaching layer: course presets, one narrated sentence per trace event and per step,
//! "why?" explanations and predict-then-reveal questions, all computed from a scenario and its
//! run. Pure and deterministic like the engine (no browser, no clock), so it is tested natively
//! and the UI only renders what it returns.
//!
//! ```text
//!  presets::all() ──Preset{scenario, value_format, default_step}──▶ engine::run ──▶ Run
//!                                                                                  │
//!  Context::new(&scenario, &run).with_values(preset.value_format) ◀────────────────┘
//!     ├─ narrate(&event)        one sentence per trace event: the Flink rule and its numbers
//!     ├─ narrate_step(playhead) the step that led to this playhead: headline + details
//!     ├─ why_element / why_window / why_timer(.., playhead)   the state at the playhead, explained
//!     └─ quiz::questions        the steps that decide something, with the engine's answer
//! ```
//!
//! Step numbers follow [`crate::engine::view::at_step`]: a *playhead* `p` is the state after the
//! first `p` input steps (`0` = before any input, `run.steps` = after the end of input), and
//! input step `i` (the trace's `step` field) moves the playhead from `i` to `i + 1`. Text written
//! for people counts from 1: "at step 3" is input step 2, the one that leads to playhead 3.
//!
//! Wording follows Flink's documentation (assigner, trigger, max timestamp, cleanup time,
//! allowed lateness, main firing, late firing, side output) so that what a student reads here
//! is what they will read in Flink's docs.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod facts;
pub mod format;
pub mod narrate;
pub mod presets;
pub mod quiz;
pub mod sort;
pub mod source;
pub mod why;

pub use format::ValueFormat;
pub use narrate::{StepNarration, narrate, narrate_step};
pub use presets::Preset;
pub use quiz::{Answer, Choice, ElementFate, Question, QuestionKind, Score, Verdict, WindowRef, check, questions};
pub use why::{Explanation, why_element, why_timer, why_window};

use crate::engine::scenario::{AssignerSpec, BaseTrigger, EvictorKind, WatermarkSpec};
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};
use crate::engine::trace::{ElemIdx, KeyId, TraceEvent};
use crate::engine::{ElementInfo, Run, Scenario, Window};

/// A scenario, its run and how to write its values: everything the teaching functions read.
/// Cheap to build (two borrows and a copy), so build one per render.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub scenario: &'a Scenario,
    pub run: &'a Run,
    pub values: ValueFormat,
}

impl<'a> Context<'a> {
    /// `run` must be `engine::run(scenario)`; values are written plain until [`Self::with_values`].
    pub fn new(scenario: &'a Scenario, run: &'a Run) -> Self {
        Context { scenario, run, values: ValueFormat::Plain }
    }

    pub fn with_values(self, values: ValueFormat) -> Self {
        Context { values, ..self }
    }

    /// The trace events of input step `step` (the trace's `step` field).
    pub fn events(&self, step: usize) -> &'a [TraceEvent] {
        let trace: &'a [TraceEvent] = &self.run.trace;
        let start = trace.partition_point(|e| e.step < step);
        let end = trace.partition_point(|e| e.step <= step);
        trace.get(start..end).unwrap_or(&[])
    }

    /// The operator's watermark when input step `step` began (`Long.MIN` before the first).
    pub fn watermark_before(&self, step: usize) -> Millis {
        if step == 0 { LONG_MIN } else { self.watermark_at(step) }
    }

    /// The operator's watermark at playhead `playhead` (after that many steps).
    pub fn watermark_at(&self, playhead: usize) -> Millis {
        if playhead == 0 {
            return LONG_MIN;
        }
        let wms = &self.run.watermark_after_step;
        wms.get(playhead - 1).or(wms.last()).copied().unwrap_or(LONG_MIN)
    }

    /// Whether input step `step` is the end of input rather than an input item.
    pub fn is_end_of_input(&self, step: usize) -> bool {
        step >= self.scenario.input.len()
    }

    /// The allowed lateness Flink uses (0 when never set).
    pub fn lateness(&self) -> Millis {
        self.scenario.lateness()
    }

    /// `WindowOperator.cleanupTime`: `max_timestamp + allowed_lateness`, saturating at
    /// `Long.MAX_VALUE` (the engine's rule, `engine::operator`).
    pub fn cleanup_time(&self, window: &Window) -> Millis {
        let max_ts = window.max_timestamp();
        let cleanup = max_ts.wrapping_add(self.lateness());
        if cleanup >= max_ts { cleanup } else { LONG_MAX }
    }

    /// `isElementLate`: `ts + allowed_lateness <= watermark`, with Java's wrapping addition.
    pub fn is_element_late(&self, ts: Millis, watermark: Millis) -> bool {
        ts.wrapping_add(self.lateness()) <= watermark
    }

    pub fn element(&self, elem: ElemIdx) -> Option<&'a ElementInfo> {
        self.run.elements.get(elem as usize)
    }

    /// The index of the element with this id (the first, if ids repeat).
    pub fn element_by_id(&self, id: i64) -> Option<ElemIdx> {
        self.run.elements.iter().position(|e| e.id == id).map(|i| i as ElemIdx)
    }

    pub fn key_name(&self, key: KeyId) -> &'a str {
        self.run.keys.get(key as usize).map_or("?", String::as_str)
    }

    /// A window as the reader sees it: `[10:00, 10:01)`, with the key when there are several.
    pub fn window_label(&self, key: KeyId, window: &Window) -> String {
        let w = format::window(window);
        if self.run.keys.len() > 1 { format!("{w} (key {})", self.key_name(key)) } else { w }
    }

    /// The largest element timestamp seen up to and including input step `step`.
    pub fn max_timestamp_through(&self, step: usize) -> Option<Millis> {
        self.run.elements.iter().filter(|e| e.step <= step).map(|e| e.ts).max()
    }

    /// The trigger as Flink names it: `EventTimeTrigger`, `CountTrigger.of(3)`, ...
    pub fn trigger_name(&self) -> String {
        let t = self.scenario.trigger;
        let base = match t.base {
            BaseTrigger::Default => match self.scenario.assigner {
                AssignerSpec::Global => "NeverTrigger".to_string(),
                AssignerSpec::GlobalEos => "EndOfStreamTrigger".to_string(),
                _ => "EventTimeTrigger".to_string(),
            },
            BaseTrigger::EventTime => "EventTimeTrigger".to_string(),
            BaseTrigger::Count { n } => format!("CountTrigger.of({n})"),
            BaseTrigger::ContinuousEventTime { interval } => {
                format!("ContinuousEventTimeTrigger.of({})", format::duration(interval))
            }
            BaseTrigger::EarlyCount { n } => format!("EarlyCountEventTimeTrigger({n})"),
            BaseTrigger::SessionMaxDuration { max_duration } => {
                format!("SessionMaxDurationTrigger({})", format::duration(max_duration))
            }
        };
        if t.purging { format!("PurgingTrigger.of({base})") } else { base }
    }

    /// Whether the trigger fires from event-time timers at a window's max timestamp.
    pub fn fires_at_window_end(&self) -> bool {
        match self.scenario.trigger.base {
            BaseTrigger::Default => !self.scenario.assigner.is_global(),
            BaseTrigger::EventTime
            | BaseTrigger::ContinuousEventTime { .. }
            | BaseTrigger::EarlyCount { .. }
            | BaseTrigger::SessionMaxDuration { .. } => true,
            BaseTrigger::Count { .. } => false,
        }
    }

    pub fn is_count_trigger(&self) -> bool {
        matches!(self.scenario.trigger.base, BaseTrigger::Count { .. })
    }

    /// The assigner in Flink's words, with its parameters.
    pub fn assigner_description(&self) -> String {
        match &self.scenario.assigner {
            AssignerSpec::Tumbling { size, offset } => {
                let off = if *offset == 0 { String::new() } else { format!(", offset {}", format::duration(*offset)) };
                format!("TumblingEventTimeWindows.of({}{off})", format::duration(*size))
            }
            AssignerSpec::Sliding { size, slide, offset } => {
                let off = if *offset == 0 { String::new() } else { format!(", offset {}", format::duration(*offset)) };
                format!("SlidingEventTimeWindows.of({}, {}{off})", format::duration(*size), format::duration(*slide))
            }
            AssignerSpec::Session { gap } => format!("EventTimeSessionWindows.withGap({})", format::duration(*gap)),
            AssignerSpec::DynamicSession { default_gap, .. } => {
                format!("EventTimeSessionWindows.withDynamicGap(default {})", format::duration(*default_gap))
            }
            AssignerSpec::Global => "GlobalWindows.create()".into(),
            AssignerSpec::GlobalEos => "GlobalWindows.createWithEndOfStreamTrigger()".into(),
            AssignerSpec::TumblingProcessing { size, .. } => {
                format!("TumblingProcessingTimeWindows.of({})", format::duration(*size))
            }
            AssignerSpec::SlidingProcessing { size, slide, .. } => {
                format!("SlidingProcessingTimeWindows.of({}, {})", format::duration(*size), format::duration(*slide))
            }
        }
    }

    /// The watermark strategy in Flink's words.
    pub fn watermark_description(&self) -> String {
        match self.scenario.watermarks {
            WatermarkSpec::Explicit => "explicit watermarks in the input".into(),
            WatermarkSpec::BoundedOutOfOrderness { bound } => {
                format!("watermarks from forBoundedOutOfOrderness({})", format::duration(bound))
            }
            WatermarkSpec::Monotonous => "watermarks from forMonotonousTimestamps()".into(),
        }
    }

    /// The evictor in Flink's words, if any.
    pub fn evictor_name(&self) -> Option<String> {
        self.scenario.evictor.map(|e| match e.kind {
            EvictorKind::Count { n } => format!("CountEvictor.of({n})"),
            EvictorKind::Time { size } => format!("TimeEvictor.of({})", format::duration(size)),
            EvictorKind::Delta { threshold, delta } => {
                format!("DeltaEvictor.of({}, |a.{d} − b.{d}|)", threshold.0, d = delta.name())
            }
        })
    }
}
