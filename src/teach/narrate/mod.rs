//! Narration: one sentence per trace event that states the Flink rule and its numbers
//! (`event.rs`), and per input step a headline and the step's events for the text under the
//! canvas (`step.rs`). Here: the phrases both use (results, firings, the lateness inequality).
//!
//! ```text
//! Watermark 10:01:00.999 ≥ 10:00:59.999, the last millisecond of [10:00, 10:01), so
//! EventTimeTrigger fires: the main firing, sum = $4.10.
//! ```
//!
//! Times are written with [`super::format::time`] (built on `engine::time::format_millis`),
//! values with the context's [`super::ValueFormat`].

use crate::engine::aggregate::AggregateResult;
use crate::engine::scenario::{BaseTrigger, WindowFunctionSpec};
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};
use crate::engine::trace::{ElemIdx, FireCause, FiringKind, TraceEvent};
use crate::engine::{Firing, Run, Scenario, TimeWindow, Window};

use super::Context;
use super::format::{duration, list, ordinal, time};

mod event;
mod process;
mod recovery;
mod step;

/// The text for one playhead position: a one-sentence headline and the step's events, one
/// sentence each (long runs of alike events, such as a 60-window sliding assignment, are
/// summed up in one sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepNarration {
    /// The playhead this narrates (see [`super`]: the state after `playhead` steps).
    pub playhead: usize,
    pub headline: String,
    pub details: Vec<String>,
}

/// One sentence for one trace event, values written plain. See [`Context::narrate`].
pub fn narrate(scenario: &Scenario, run: &Run, event: &TraceEvent) -> String {
    Context::new(scenario, run).narrate(event)
}

/// The narration shown at `playhead`, values written plain. See [`Context::narrate_step`].
pub fn narrate_step(scenario: &Scenario, run: &Run, playhead: usize) -> StepNarration {
    Context::new(scenario, run).narrate_step(playhead)
}

/// A firing kind as a sentence names it: "the main firing", "a late firing", "an early firing".
pub(crate) fn firing_kind(kind: FiringKind) -> &'static str {
    match kind {
        FiringKind::Main => "the main firing",
        FiringKind::Late => "a late firing",
        FiringKind::Early => "an early firing",
    }
}

impl Context<'_> {
    fn val(&self, v: i64) -> String {
        self.values.value(v)
    }

    /// `≥` sentence part for a watermark, `Long.MIN` spelled out as "no watermark yet".
    pub(crate) fn wm(&self, wm: Millis) -> String {
        if wm == LONG_MIN { "Long.MIN (no watermark yet)".into() } else { time(wm) }
    }

    fn lateness_text(&self) -> String {
        duration(self.lateness())
    }

    /// What the window function returned: `sum = $4.10` (or the scenario's function).
    pub(crate) fn result_phrase(&self, elems: &[ElemIdx], sum: i64, count: u64) -> String {
        if count == 0 {
            return "the function sees no elements".into();
        }
        let values: Vec<i64> = elems.iter().filter_map(|e| self.element(*e)).map(|e| e.value).collect();
        match self.scenario.function {
            WindowFunctionSpec::Process | WindowFunctionSpec::Sum => format!("sum = {}", self.val(sum)),
            WindowFunctionSpec::Count => format!("count = {count}"),
            WindowFunctionSpec::Avg => {
                let c = count as i64;
                if c != 0 && sum % c == 0 {
                    format!("average = {}", self.val(sum / c))
                } else {
                    format!("average = {} / {count}", self.val(sum))
                }
            }
            WindowFunctionSpec::Min => match values.iter().min() {
                Some(v) => format!("min = {}", self.val(*v)),
                None => format!("sum = {}", self.val(sum)),
            },
            WindowFunctionSpec::Max => match values.iter().max() {
                Some(v) => format!("max = {}", self.val(*v)),
                None => format!("sum = {}", self.val(sum)),
            },
            WindowFunctionSpec::Aggregate(agg) => match agg.result(values.iter().copied()) {
                // TenantCost's usd in the scenario's unit ($4.10), as the outputs show it.
                AggregateResult::TenantCost { usd, requests } => {
                    format!("{} returns usd {} · requests {requests}", agg.class_name(), self.val(usd))
                }
                r => format!("{} returns {r}", agg.class_name()),
            },
        }
    }

    /// `, the 2nd result for this window` for repeated firings; empty for the first.
    fn nth_result(&self, n: u64) -> String {
        if n == 0 { String::new() } else { format!(", the {} result for this window", ordinal(n + 1)) }
    }

    fn ids(&self, elems: &[ElemIdx]) -> String {
        let ids: Vec<String> = elems.iter().filter_map(|e| self.element(*e)).map(|e| e.id.to_string()).collect();
        list(&ids)
    }

    fn element_intro(&self, elem: ElemIdx) -> String {
        match self.element(elem) {
            Some(e) if self.values == super::ValueFormat::Count && e.value == 1 => {
                format!("Element {} ({})", e.id, time(e.ts))
            }
            Some(e) => format!("Element {} ({}, {})", e.id, time(e.ts), self.val(e.value)),
            None => "An element".into(),
        }
    }

    /// `10:00:50 + allowed lateness 2 min`, or just the timestamp when the lateness is 0.
    fn ts_plus_lateness(&self, ts: Millis) -> String {
        if self.lateness() == 0 {
            format!("timestamp {} + allowed lateness 0", time(ts))
        } else {
            format!("timestamp {} + allowed lateness {}", time(ts), self.lateness_text())
        }
    }

    /// `timestamp 10:00:50 + allowed lateness 2 min = 10:02:50 ≤ watermark 10:03:00.999`.
    pub(crate) fn element_late_inequality(&self, ts: Millis, wm: Millis) -> String {
        let sum = ts.wrapping_add(self.lateness());
        let relation = if sum <= wm { "≤" } else { ">" };
        if self.lateness() == 0 {
            format!("timestamp {} {relation} watermark {} (allowed lateness 0)", time(ts), self.wm(wm))
        } else {
            format!("{} = {} {relation} watermark {}", self.ts_plus_lateness(ts), time(sum), self.wm(wm))
        }
    }

    /// The firing sentence without the final full stop.
    pub(crate) fn firing_sentence(&self, f: &Firing) -> String {
        let w = self.window_label(f.key, &f.window);
        let result = self.result_phrase(&f.elems, f.sum, f.count);
        let kind = match (f.kind, f.n) {
            (FiringKind::Main, n) if n > 0 => "the main firing (the first since the watermark passed the window's end)",
            (k, _) => firing_kind(k),
        };
        let nth = self.nth_result(f.n);
        let purge = if f.purge { ", then the contents are purged (FIRE_AND_PURGE)" } else { "" };
        let trigger = self.trigger_name();
        match f.cause {
            FireCause::Timer { time: t } if t == LONG_MAX || (f.window == Window::Global) => {
                format!("At end of input {trigger} fires {w}: {kind}, {result}{nth}{purge}")
            }
            FireCause::Timer { time: t } if t == f.window.max_timestamp() => format!(
                "Watermark {} ≥ {}, the last millisecond of {w}, so {trigger} fires: {kind}, {result}{nth}{purge}",
                self.wm(f.watermark),
                time(t)
            ),
            FireCause::Timer { time: t } => format!(
                "Watermark {} ≥ {}, the next fire time {trigger} registered for {w}, so it fires: {kind}, {result}{nth}{purge}",
                self.wm(f.watermark),
                time(t)
            ),
            FireCause::ProcessingTimer { time: t } => format!(
                "Processing time reached {}, the last millisecond of {w}, so {trigger} fires: {kind}, {result}{nth}{purge}",
                time(t)
            ),
            FireCause::Element { id } => match self.scenario.trigger.base {
                BaseTrigger::Count { n } if n <= 0 => format!(
                    "Element {id} is counted in {w}, and {trigger} fires on every element (count ≥ {n} always): {kind}, {result}{nth}{purge}"
                ),
                BaseTrigger::Count { n } => format!(
                    "Element {id} brings the count of {w} to {n}, so {trigger} fires: {kind}, {result}{nth}{purge}"
                ),
                _ => format!(
                    "Element {id} joins {w}, whose max timestamp {} ≤ watermark {}, so {trigger} fires at once: {kind}, {result}{nth}{purge}",
                    time(f.window.max_timestamp()),
                    self.wm(f.watermark)
                ),
            },
        }
    }
}

/// Merged sessions by start (the engine keeps Flink's hash-set order, which reads randomly).
pub(crate) fn sorted(windows: &[TimeWindow]) -> Vec<TimeWindow> {
    let mut v = windows.to_vec();
    super::sort::stable(&mut v);
    v
}
