//! Narration: one sentence per trace event that states the Flink rule and its numbers, and one
//! headline per input step for the text under the canvas.
//!
//! ```text
//! Watermark 10:01:00.999 ≥ 10:00:59.999, the last millisecond of [10:00, 10:01), so
//! EventTimeTrigger fires: the main firing, sum = $4.10.
//! ```
//!
//! Times are written with [`super::format::time`] (built on `engine::time::format_millis`),
//! values with the context's [`super::ValueFormat`].

use crate::engine::scenario::{AssignerSpec, BaseTrigger, WatermarkSpec, WindowFunctionSpec};
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};
use crate::engine::trace::{ElemIdx, FireCause, FiringKind, KeyId, TimeDomain, TimerPurpose, TraceEvent, TraceKind};
use crate::engine::view::{StepView, at_step};
use crate::engine::{Firing, Run, Scenario, Window};

use super::Context;
use super::facts::{Fate, StepFacts};
use super::format::{duration, list, ordinal, plural, time, window as win};

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

/// Alike events beyond this many in one step are summed up in one sentence.
const MAX_ALIKE: usize = 3;

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
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
    fn wm(&self, wm: Millis) -> String {
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

    /// One sentence for one trace event: what happened, the rule that made it happen, and the
    /// numbers.
    pub fn narrate(&self, ev: &TraceEvent) -> String {
        let step = ev.step;
        match &ev.kind {
            TraceKind::ElementArrived { id, key, ts, value, .. } => format!(
                "Element {id} arrives: key {}, timestamp {}, value {}; the watermark is {}.",
                self.key_name(*key),
                time(*ts),
                self.val(*value),
                self.wm(self.watermark_before(step))
            ),
            TraceKind::WindowsAssigned { windows, .. } => self.assigned_sentence(windows),
            TraceKind::WindowCreated { key, window } => format!(
                "{} is created: a window is created as soon as the first element that belongs to it arrives.",
                capitalize(&self.window_label(*key, window))
            ),
            TraceKind::ElementAdded { id, key, window, state_window, .. } => {
                let merged = if state_window != window {
                    format!(" (after merging, its contents live in the state window {})", win(state_window))
                } else {
                    String::new()
                };
                format!("Element {id} is added to the state of {}{merged}.", self.window_label(*key, window))
            }
            TraceKind::WindowLate { id, key, window, cleanup_time, watermark, .. } => format!(
                "{} is late for element {id}: its cleanup time {} (max timestamp {} + allowed lateness {}) ≤ watermark {}, so the element is not added to it.",
                capitalize(&self.window_label(*key, window)),
                time(*cleanup_time),
                time(window.max_timestamp()),
                self.lateness_text(),
                self.wm(*watermark)
            ),
            TraceKind::TimerRegistered { key, window, time: t, purpose, domain: TimeDomain::EventTime } => {
                self.timer_registered_sentence(*key, window, *t, *purpose)
            }
            TraceKind::TimerRegistered { key, window, time: t, .. } => format!(
                "A processing-time timer is registered at {} for {}: it fires when the processing time (the arrival clock) reaches it, whatever the watermark does.",
                time(*t),
                self.window_label(*key, window)
            ),
            TraceKind::TimerDeleted { key, window, time: t, purpose, .. } => {
                let merged_into = self.events(step).iter().find_map(|e| match &e.kind {
                    TraceKind::SessionsMerged { key: k, merged, into, .. }
                        if k == key && merged.iter().any(|m| Window::Time(*m) == *window) =>
                    {
                        Some(*into)
                    }
                    _ => None,
                });
                match merged_into {
                    Some(into) => format!(
                        "The {} timer at {} of {} is deleted: that window was merged into {}, which has its own timers.",
                        purpose.label(),
                        time(*t),
                        self.window_label(*key, window),
                        win(&Window::Time(into))
                    ),
                    None => format!(
                        "The {} timer at {} of {} is deleted: {} clears its timers when the window is cleared.",
                        purpose.label(),
                        time(*t),
                        self.window_label(*key, window),
                        self.trigger_name()
                    ),
                }
            }
            TraceKind::WatermarkAdvanced { from, to } => self.watermark_sentence(step, *from, *to),
            TraceKind::WatermarkIgnored { proposed, current } => format!(
                "Watermark {} is not larger than the current watermark {}, so it is dropped: watermarks only move forward.",
                time(*proposed),
                self.wm(*current)
            ),
            TraceKind::TimerFired { key, window, time: t, domain: TimeDomain::ProcessingTime, .. } => format!(
                "Processing time reached {}: the processing-time timer of {} fires.",
                time(*t),
                self.window_label(*key, window)
            ),
            TraceKind::TimerFired { key, window, time: t, purpose, stale, .. } => {
                let wm = self.watermark_at(step + 1);
                if *stale {
                    format!(
                        "The timer at {} of {} fires, but that window no longer exists (it was merged away), so it is ignored.",
                        time(*t),
                        self.window_label(*key, window)
                    )
                } else {
                    format!(
                        "Watermark {} ≥ {}: the {} timer of {} fires.",
                        self.wm(wm),
                        time(*t),
                        purpose.label(),
                        self.window_label(*key, window)
                    )
                }
            }
            TraceKind::Fired { key, window, output } => match self.run.firing(*output) {
                Some(f) => self.firing_sentence(f) + ".",
                None => format!("{} fires.", capitalize(&self.window_label(*key, window))),
            },
            TraceKind::PartitionWatermark { partition, watermark } => format!(
                "Partition {partition}'s own watermark moves to {}; the operator sees the minimum over the partitions that are not idle.",
                time(*watermark)
            ),
            TraceKind::PartitionIdle { partition, at } => format!(
                "Partition {partition} sent nothing for longer than the idleness timeout (processing time {at} ms), so withIdleness marks it idle: it no longer holds back the watermark minimum."
            ),
            TraceKind::PartitionActive { partition, at } => format!(
                "Partition {partition} emits again at processing time {at} ms, so it is active and rejoins the watermark minimum (which never goes back)."
            ),
            TraceKind::FunctionEmitted { key, kind, ts, .. } => {
                format!("The process function emits a {kind} record for {} at {}.", self.key_name(*key), time(*ts))
            }
            TraceKind::StateUpdated { key, what } => format!("Keyed state of {}: {what}.", self.key_name(*key)),
            TraceKind::StateExpired { key, at } => format!(
                "The state of {} has outlived its processing-time TTL (now {at} ms), so it reads as empty: the entry is gone before the event-time timer could use it.",
                self.key_name(*key)
            ),
            TraceKind::Evicted { key, window, elems, after_function } => format!(
                "{} removes {} ({}) from {} {} the window function runs.",
                self.evictor_name().unwrap_or_else(|| "The evictor".into()),
                plural(elems.len(), "element", "elements"),
                self.ids(elems),
                self.window_label(*key, window),
                if *after_function { "after" } else { "before" }
            ),
            TraceKind::Purged { key, window, elems } => format!(
                "{} returned FIRE_AND_PURGE, so the contents of {} ({}) are cleared; the window, its timers and its allowed lateness remain until its cleanup time.",
                self.trigger_name(),
                self.window_label(*key, window),
                plural(elems.len(), "element", "elements")
            ),
            TraceKind::CleanedUp { key, window, time: t, elems, unfired } => {
                format!("{}.", self.cleanup_sentence(step, *key, window, *t, elems, unfired))
            }
            TraceKind::SessionsMerged { key, new_window, merged, into, .. } => {
                let others: Vec<String> = sorted(merged).iter().map(|m| win(&Window::Time(*m))).collect();
                format!(
                    "The new session window {} overlaps {}, so EventTimeSessionWindows merges them into {}: their contents, trigger state and timers merge too{}.",
                    win(&Window::Time(*new_window)),
                    list(&others),
                    win(&Window::Time(*into)),
                    if self.run.keys.len() > 1 { format!(" (key {})", self.key_name(*key)) } else { String::new() }
                )
            }
            TraceKind::SideOutput { id, ts, .. } => format!(
                "No window accepted element {id}, and the element is late: {}, so it goes to the late side output (sideOutputLateData).",
                self.element_late_inequality(*ts, self.watermark_before(step))
            ),
            TraceKind::Dropped { id, ts, counted, .. } => {
                let wm = self.watermark_before(step);
                if *counted {
                    format!(
                        "No window accepted element {id}, and the element is late: {}; with no side output configured it is dropped and numLateRecordsDropped goes up by one.",
                        self.element_late_inequality(*ts, wm)
                    )
                } else {
                    format!(
                        "No window accepted element {id}, yet the element is not late itself ({} = {} > watermark {}), so it is dropped silently: not even numLateRecordsDropped counts it.",
                        self.ts_plus_lateness(*ts),
                        time(ts.wrapping_add(self.lateness())),
                        self.wm(wm)
                    )
                }
            }
            TraceKind::EndOfInput { max_watermark } => {
                if *max_watermark {
                    "The input ends: a bounded source finishes with Watermark(Long.MAX_VALUE).".into()
                } else {
                    "The input pauses here (end_of_input false): no final Long.MAX watermark, so windows still waiting for the watermark stay open.".into()
                }
            }
            TraceKind::Error { phase, class, message } => format!(
                "Flink fails {}: {class}: {message}.",
                if phase == "build" { "while building the job" } else { "while running the job" }
            ),
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

    fn assigned_sentence(&self, windows: &[Window]) -> String {
        let assigner = self.scenario.assigner.flink_name();
        match (&self.scenario.assigner, windows) {
            (_, []) => format!(
                "{assigner} assigns it to no window at all: the slide is larger than the size, so there are gaps between windows."
            ),
            (AssignerSpec::Global | AssignerSpec::GlobalEos, _) => {
                "GlobalWindows assigns every element to the one GlobalWindow of its key.".into()
            }
            (AssignerSpec::Session { gap }, [w]) => format!(
                "{assigner} gives it the session window {} = [timestamp, timestamp + gap {}).",
                win(w),
                duration(*gap)
            ),
            (AssignerSpec::DynamicSession { .. }, [w]) => {
                format!("{assigner} gives it the session window {} from its key's gap.", win(w))
            }
            (AssignerSpec::Sliding { size, slide, .. }, ws) => {
                let first = ws.first().map(win).unwrap_or_default();
                let last = ws.last().map(win).unwrap_or_default();
                if ws.len() == 1 {
                    format!("{assigner} (size {}, slide {}) assigns it to {first}.", duration(*size), duration(*slide))
                } else {
                    format!(
                        "{assigner} (size {}, slide {}) assigns it to {} windows, from {first} back to {last}: one copy of the element per window it belongs to.",
                        duration(*size),
                        duration(*slide),
                        ws.len()
                    )
                }
            }
            (_, [w]) => {
                format!("{assigner} assigns it to {}: start inclusive, end exclusive, aligned to the epoch.", win(w))
            }
            (_, ws) => {
                let all: Vec<String> = ws.iter().map(win).collect();
                format!("{assigner} assigns it to {}.", list(&all))
            }
        }
    }

    fn timer_registered_sentence(&self, key: KeyId, window: &Window, t: Millis, purpose: TimerPurpose) -> String {
        let w = self.window_label(key, window);
        let max_ts = window.max_timestamp();
        // Why computed here: a cleanup registration that coincides with an existing trigger
        // timer (allowed lateness 0) is deduplicated by the timer service without an event.
        let cleanup_too = purpose.cleanup || (t == self.cleanup_time(window) && *window != Window::Global);
        if purpose.trigger && t == max_ts {
            let also = if cleanup_too && self.lateness() == 0 {
                "; with allowed lateness 0 it is also the window's cleanup time"
            } else {
                ""
            };
            if t == LONG_MAX {
                format!(
                    "{} registers an event-time timer at Long.MAX for {w}: it fires only at end of input.",
                    self.trigger_name()
                )
            } else {
                format!(
                    "{} registers an event-time timer at {} for {w}: the window's max timestamp, end − 1 ms{also}.",
                    self.trigger_name(),
                    time(t)
                )
            }
        } else if purpose.trigger {
            let interval = match self.scenario.trigger.base {
                BaseTrigger::ContinuousEventTime { interval } => duration(interval),
                _ => "its interval".into(),
            };
            format!(
                "{} registers its next fire time {} for {w}: every {interval} of event time, aligned to the epoch and capped at the window's max timestamp {}.",
                self.trigger_name(),
                time(t),
                time(max_ts)
            )
        } else {
            format!(
                "The operator registers the cleanup timer of {w} at {} = max timestamp {} + allowed lateness {}: the window's state lives until the watermark reaches it.",
                time(t),
                time(max_ts),
                self.lateness_text()
            )
        }
    }

    fn watermark_sentence(&self, step: usize, from: Millis, to: Millis) -> String {
        if self.is_end_of_input(step) {
            return format!(
                "The watermark jumps from {} to Long.MAX: every pending event-time timer fires, in timestamp order.",
                self.wm(from)
            );
        }
        match self.scenario.input.get(step) {
            Some(crate::engine::InputItem::Watermark(_)) => format!(
                "Watermark({}) arrives: no more elements with a timestamp ≤ {} are expected, and the operator's watermark advances from {}.",
                time(to),
                time(to),
                self.wm(from)
            ),
            _ => {
                let max_ts = self.max_timestamp_through(step).unwrap_or(to);
                match self.scenario.watermarks {
                    WatermarkSpec::BoundedOutOfOrderness { bound } => format!(
                        "The watermark generator forBoundedOutOfOrderness({}) emits max timestamp {} − {} − 1 ms = {}; the operator's watermark advances from {}.",
                        duration(bound),
                        time(max_ts),
                        duration(bound),
                        time(to),
                        self.wm(from)
                    ),
                    WatermarkSpec::Monotonous => format!(
                        "The watermark generator forMonotonousTimestamps() emits max timestamp {} − 1 ms = {}; the operator's watermark advances from {}.",
                        time(max_ts),
                        time(to),
                        self.wm(from)
                    ),
                    WatermarkSpec::Explicit => {
                        format!("The operator's watermark advances from {} to {}.", self.wm(from), time(to))
                    }
                }
            }
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

    fn cleanup_sentence(
        &self,
        step: usize,
        key: KeyId,
        window: &Window,
        t: Millis,
        elems: &[ElemIdx],
        unfired: &[ElemIdx],
    ) -> String {
        let wm = self.watermark_at(step + 1);
        let lost = if unfired.is_empty() {
            String::new()
        } else {
            format!(
                "; {} {} {} never emitted by any firing and {} discarded",
                if unfired.len() == 1 { "element" } else { "elements" },
                self.ids(unfired),
                if unfired.len() == 1 { "was" } else { "were" },
                if unfired.len() == 1 { "is" } else { "are" }
            )
        };
        format!(
            "Watermark {} ≥ {}, the cleanup time of {} (max timestamp {} + allowed lateness {}): the window is completely removed with its {}, emitting nothing{lost}",
            self.wm(wm),
            time(t),
            self.window_label(key, window),
            time(window.max_timestamp()),
            self.lateness_text(),
            plural(elems.len(), "element", "elements")
        )
    }

    /// One sentence describing the configuration: what the playhead 0 narration says.
    pub fn describe_setup(&self) -> String {
        let lateness = if self.scenario.allowed_lateness.is_none() {
            "no allowed lateness".to_string()
        } else {
            format!("allowed lateness {}", self.lateness_text())
        };
        let late = if self.scenario.side_output {
            "elements too late for every window go to the late side output"
        } else {
            "elements too late for every window are dropped (no side output)"
        };
        let evictor = self.evictor_name().map(|e| format!(", {e}")).unwrap_or_default();
        format!(
            "{}, {}{evictor}, {lateness}, {}; {late}.",
            self.assigner_description(),
            self.trigger_name(),
            self.watermark_description()
        )
    }

    /// The narration at `playhead`: playhead 0 describes the setup; playhead `p > 0` narrates
    /// input step `p - 1`, the step that led to it.
    pub fn narrate_step(&self, playhead: usize) -> StepNarration {
        let playhead = playhead.min(self.run.steps);
        if playhead == 0 {
            let items = self.scenario.input.len();
            return StepNarration {
                playhead,
                headline: format!(
                    "Nothing has arrived yet: {} input {} and then the end of input.",
                    items,
                    if items == 1 { "item" } else { "items" }
                ),
                details: vec![self.describe_setup()],
            };
        }
        let step = playhead - 1;
        let facts = self.facts(step);
        let after = at_step(self.run, playhead);
        StepNarration { playhead, headline: self.headline(&facts, &after), details: self.details(step) }
    }

    /// The step's events as sentences, alike events folded together.
    pub fn details(&self, step: usize) -> Vec<String> {
        let events = self.events(step);
        let count = |pred: &dyn Fn(&TraceKind) -> bool| events.iter().filter(|e| pred(&e.kind)).count();
        let added = count(&|k| matches!(k, TraceKind::ElementAdded { .. }));
        let registered = count(&|k| matches!(k, TraceKind::TimerRegistered { .. }));
        let fired = count(&|k| matches!(k, TraceKind::Fired { .. }));
        let cleaned = count(&|k| matches!(k, TraceKind::CleanedUp { .. }));
        let late = count(&|k| matches!(k, TraceKind::WindowLate { .. }));
        let mut out: Vec<String> = Vec::new();
        let mut summarised: Vec<&'static str> = Vec::new();
        let mut once = |tag: &'static str, out: &mut Vec<String>, make: &dyn Fn() -> String| {
            if !summarised.contains(&tag) {
                summarised.push(tag);
                out.push(make());
            }
        };
        for (i, ev) in events.iter().enumerate() {
            let next = events.get(i + 1).map(|e| &e.kind);
            match &ev.kind {
                // Folded into the sentence of the element that created it.
                TraceKind::WindowCreated { .. } => {}
                TraceKind::ElementAdded { id, key, window, state_window, .. } if added <= MAX_ALIKE => {
                    let created = i > 0
                        && matches!(&events[i - 1].kind, TraceKind::WindowCreated { key: k, window: w } if k == key && w == window);
                    if created {
                        let merged = if state_window != window {
                            format!(" (its contents live in the state window {})", win(state_window))
                        } else {
                            String::new()
                        };
                        out.push(format!(
                            "Element {id} is the first element of {}, so the window is created{merged}: a window is created as soon as the first element that belongs to it arrives.",
                            self.window_label(*key, window)
                        ));
                    } else {
                        out.push(self.narrate(ev));
                    }
                }
                TraceKind::ElementAdded { id, .. } => {
                    once("added", &mut out, &|| self.added_summary(step, *id));
                }
                TraceKind::TimerRegistered { .. } if registered > MAX_ALIKE => {
                    once("registered", &mut out, &|| self.registered_summary(step));
                }
                TraceKind::TimerRegistered { key, window, time: t, purpose, .. }
                    if purpose.trigger
                        && matches!(next, Some(TraceKind::TimerRegistered { key: k2, window: w2, purpose: p2, .. })
                            if k2 == key && w2 == window && p2.cleanup && !p2.trigger) =>
                {
                    // Trigger timer and cleanup timer of one window: one sentence.
                    let cleanup = self.cleanup_time(window);
                    out.push(format!(
                        "{} registers an event-time timer at {} for {}, its max timestamp, and the operator a cleanup timer at {} = max timestamp + allowed lateness {}.",
                        self.trigger_name(),
                        time(*t),
                        self.window_label(*key, window),
                        time(cleanup),
                        self.lateness_text()
                    ));
                }
                TraceKind::TimerRegistered { purpose, .. }
                    if purpose.cleanup
                        && !purpose.trigger
                        && i > 0
                        && matches!(&events[i - 1].kind, TraceKind::TimerRegistered { purpose: p0, key: k0, window: w0, .. }
                            if p0.trigger && Some((k0, w0)) == Self::key_window(&ev.kind)) => {}
                TraceKind::TimerFired { key, window, stale: false, .. }
                    if super::facts::timer_acted(events, i, *key, window) => {}
                TraceKind::TimerFired { .. } if fired + cleaned > MAX_ALIKE => {}
                TraceKind::Fired { .. } if fired > MAX_ALIKE => {
                    once("fired", &mut out, &|| self.fired_summary(step));
                }
                TraceKind::CleanedUp { .. } if cleaned > MAX_ALIKE => {
                    once("cleaned", &mut out, &|| self.cleaned_summary(step));
                }
                TraceKind::WindowLate { .. } if late > MAX_ALIKE => {
                    once("late", &mut out, &|| self.late_summary(step));
                }
                _ => out.push(self.narrate(ev)),
            }
        }
        out
    }

    fn key_window(kind: &TraceKind) -> Option<(&KeyId, &Window)> {
        match kind {
            TraceKind::TimerRegistered { key, window, .. } => Some((key, window)),
            _ => None,
        }
    }

    fn added_summary(&self, step: usize, id: i64) -> String {
        let facts = self.facts(step);
        let first = facts.added.first().map(|(_, w, _)| win(w)).unwrap_or_default();
        let last = facts.added.last().map(|(_, w, _)| win(w)).unwrap_or_default();
        let of_key = match facts.element {
            Some((_, e)) if self.run.keys.len() > 1 => format!(" of key {}", self.key_name(e.key)),
            _ => String::new(),
        };
        let new = facts.added.iter().filter(|(_, _, c)| *c).count();
        let created = match new {
            0 => "all of them existed already".to_string(),
            n if n == facts.added.len() => "each is created by this element".to_string(),
            n => format!("{n} of them are created by this element"),
        };
        format!("Element {id} is added to {} windows{of_key}, from {first} to {last}; {created}.", facts.added.len())
    }

    fn registered_summary(&self, step: usize) -> String {
        let times: Vec<(Millis, TimerPurpose)> = self
            .events(step)
            .iter()
            .filter_map(|e| match &e.kind {
                TraceKind::TimerRegistered { time: t, purpose, .. } => Some((*t, *purpose)),
                _ => None,
            })
            .collect();
        let trigger = times.iter().filter(|(_, p)| p.trigger).count();
        let cleanup = times.len() - trigger;
        let (lo, hi) = times.iter().fold((LONG_MAX, LONG_MIN), |(lo, hi), (t, _)| (lo.min(*t), hi.max(*t)));
        let what = match (trigger, cleanup) {
            (_, 0) if self.lateness() == 0 => format!(
                "{trigger} at the windows' max timestamps (with allowed lateness 0 each is also the cleanup time)"
            ),
            (_, 0) => format!("{trigger} by {} at the windows' max timestamps", self.trigger_name()),
            (0, _) => format!("{cleanup} cleanup timers at max timestamp + allowed lateness {}", self.lateness_text()),
            _ => format!(
                "{trigger} by {} at the windows' max timestamps and {cleanup} cleanup timers at max timestamp + allowed lateness {}",
                self.trigger_name(),
                self.lateness_text()
            ),
        };
        format!("{} event-time timers are registered, from {} to {}: {what}.", times.len(), time(lo), time(hi))
    }

    fn fired_summary(&self, step: usize) -> String {
        let facts = self.facts(step);
        let all: Vec<&Firing> = facts.element_firings.iter().chain(&facts.timer_firings).copied().collect();
        let first = all.first().map(|f| self.window_label(f.key, &f.window)).unwrap_or_default();
        let last = all.last().map(|f| self.window_label(f.key, &f.window)).unwrap_or_default();
        let kinds = self.kind_counts(&all);
        let (lo, hi) = all.iter().fold((i64::MAX, i64::MIN), |(lo, hi), f| (lo.min(f.sum), hi.max(f.sum)));
        let sums = if lo == hi {
            format!("each with sum = {}", self.val(lo))
        } else {
            format!("sums from {} to {}", self.val(lo), self.val(hi))
        };
        let wm = self.watermark_at(step + 1);
        format!(
            "{} firings, in timer order from {first} to {last}: watermark {} has passed each window's max timestamp, so {} fires each ({kinds}), {sums}.",
            all.len(),
            self.wm(wm),
            self.trigger_name()
        )
    }

    /// `3 main firings and 1 late firing`.
    fn kind_counts(&self, firings: &[&Firing]) -> String {
        let mut parts = Vec::new();
        for (kind, one, many) in [
            (FiringKind::Early, "early firing", "early firings"),
            (FiringKind::Main, "main firing", "main firings"),
            (FiringKind::Late, "late firing", "late firings"),
        ] {
            let n = firings.iter().filter(|f| f.kind == kind).count();
            if n > 0 {
                parts.push(plural(n, one, many));
            }
        }
        list(&parts)
    }

    fn cleaned_summary(&self, step: usize) -> String {
        let facts = self.facts(step);
        let first = facts.cleanups.first().map(|c| self.window_label(c.key, &c.window)).unwrap_or_default();
        let last = facts.cleanups.last().map(|c| self.window_label(c.key, &c.window)).unwrap_or_default();
        let unfired: usize = facts.cleanups.iter().map(|c| c.unfired.len()).sum();
        let lost = if unfired == 0 {
            String::new()
        } else {
            format!("; {} never emitted are discarded", plural(unfired, "element", "elements"))
        };
        format!(
            "{} windows reach their cleanup time (max timestamp + allowed lateness {}) and are completely removed, from {first} to {last}, emitting nothing{lost}.",
            facts.cleanups.len(),
            self.lateness_text()
        )
    }

    fn late_summary(&self, step: usize) -> String {
        let facts = self.facts(step);
        let first = facts.late_windows.first().map(|(w, _, _)| win(w)).unwrap_or_default();
        let last = facts.late_windows.last().map(|(w, _, _)| win(w)).unwrap_or_default();
        let wm = self.watermark_before(step);
        format!(
            "{} of the element's windows, from {first} to {last}, are late: each one's cleanup time (max timestamp + allowed lateness {}) ≤ watermark {}, so the element is not added to them.",
            facts.late_windows.len(),
            self.lateness_text(),
            self.wm(wm)
        )
    }

    /// The one-sentence summary of a step.
    /// `after`: what is alive after the step (for "nothing fires: the next timer is ...").
    pub(crate) fn headline(&self, f: &StepFacts<'_>, after: &StepView) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some((elem, _)) = f.element {
            parts.push(self.element_clause(f, elem));
        }
        if let Some((phase, class, message)) = &f.error {
            let when = if phase == "build" { "while building the job" } else { "while running the job" };
            parts.push(format!("Flink fails {when}: {class}: {message}"));
            return capitalize(&parts.join("; ")) + ".";
        }
        if let Some(clause) = self.watermark_clause(f, after) {
            parts.push(clause);
        }
        if parts.is_empty() {
            parts.push("nothing happens".into());
        }
        capitalize(&parts.join("; ")) + "."
    }

    fn element_clause(&self, f: &StepFacts<'_>, elem: ElemIdx) -> String {
        let intro = self.element_intro(elem);
        let windows =
            |ws: Vec<String>| -> String { if ws.len() > 3 { format!("{} windows", ws.len()) } else { list(&ws) } };
        match f.fate() {
            Some(Fate::AddedAndFires) => {
                let Some(firing) = f.element_firings.first() else { return format!("{intro} is added") };
                let w = self.window_label(firing.key, &firing.window);
                let result = self.result_phrase(&firing.elems, firing.sum, firing.count);
                let more = if f.element_firings.len() > 1 {
                    format!(" (and {} more windows fire)", f.element_firings.len() - 1)
                } else {
                    String::new()
                };
                if self.is_count_trigger() {
                    format!(
                        "{intro} is added to {w}, and {} fires: {}, {result}{more}",
                        self.trigger_name(),
                        firing_kind(firing.kind)
                    )
                } else {
                    let again = if firing.n > 0 { "fires again at once" } else { "fires at once" };
                    let lands = match f.merges.last() {
                        Some(m) => {
                            let absorbed: Vec<String> =
                                sorted(&m.merged).iter().map(|w| win(&Window::Time(*w))).collect();
                            format!(
                                "gets the session window {}, which bridges {} into {w}",
                                win(&Window::Time(m.new_window)),
                                list(&absorbed)
                            )
                        }
                        None => format!("lands in {w}"),
                    };
                    format!(
                        "{intro} {lands}, whose max timestamp {} ≤ watermark {}, so it {again}: {}, {result}{more}",
                        time(firing.window.max_timestamp()),
                        self.wm(firing.watermark),
                        firing_kind(firing.kind)
                    )
                }
            }
            Some(Fate::Added) => {
                if let Some(m) = f.merges.last() {
                    let absorbed: Vec<String> = sorted(&m.merged).iter().map(|w| win(&Window::Time(*w))).collect();
                    return format!(
                        "{intro} gets the session window {}, which merges with {} into {}",
                        win(&Window::Time(m.new_window)),
                        list(&absorbed),
                        win(&Window::Time(m.into))
                    );
                }
                let new: Vec<String> =
                    f.added.iter().filter(|(_, _, c)| *c).map(|(k, w, _)| self.window_label(*k, w)).collect();
                let old: Vec<String> =
                    f.added.iter().filter(|(_, _, c)| !*c).map(|(k, w, _)| self.window_label(*k, w)).collect();
                match (new.is_empty(), old.is_empty()) {
                    (false, true) if new.len() == 1 => format!("{intro} opens the new window {}", new[0]),
                    (false, true) => format!("{intro} is added to {}, all new", windows(new)),
                    (true, false) => format!("{intro} is added to {}", windows(old)),
                    _ => format!("{intro} is added to {} and opens {}", windows(old), windows(new)),
                }
            }
            Some(Fate::SideOutput) => {
                let wm = self.watermark_before(f.step);
                format!(
                    "{intro} goes to the late side output: {}, and {}",
                    self.late_windows_reason(f),
                    self.element_late_inequality(f.element.map_or(0, |(_, e)| e.ts), wm)
                )
            }
            Some(Fate::Dropped { counted: true }) => format!(
                "{intro} is dropped, with numLateRecordsDropped + 1: {}, and there is no side output",
                self.late_windows_reason(f)
            ),
            Some(Fate::Dropped { counted: false }) => {
                if f.assigned.is_empty() {
                    format!("{intro} falls in no window and is dropped silently")
                } else {
                    format!(
                        "{intro} is dropped silently: {}, yet the element itself is not late",
                        self.late_windows_reason(f)
                    )
                }
            }
            None => format!("{intro} arrives"),
        }
    }

    /// `its window [10:00, 10:01) was removed at its cleanup time 10:02:59.999`.
    fn late_windows_reason(&self, f: &StepFacts<'_>) -> String {
        match f.late_windows.as_slice() {
            [] => "it belongs to no window".into(),
            [(w, cleanup, _)] => format!("its window {} is past its cleanup time {}", win(w), time(*cleanup)),
            ws => format!("all {} of its windows are past their cleanup times", ws.len()),
        }
    }

    fn watermark_clause(&self, f: &StepFacts<'_>, after: &StepView) -> Option<String> {
        let end = f.end_of_input;
        let lead = if let Some(max) = end {
            if !max {
                let live = after.live_windows().count();
                return Some(format!(
                    "the input pauses without a Long.MAX watermark, so {} alive",
                    plural(live, "window stays", "windows stay")
                ));
            }
            "the input ends and the watermark jumps to Long.MAX".to_string()
        } else if let Some((proposed, current)) = f.watermark_ignored {
            return Some(format!(
                "watermark {} is ignored: it is not above the current watermark {}",
                time(proposed),
                self.wm(current)
            ));
        } else if let Some((_, to)) = f.watermark_advanced {
            if f.explicit_watermark.is_some() {
                format!("watermark {} arrives", time(to))
            } else {
                format!("the watermark moves to {}", time(to))
            }
        } else {
            if f.element.is_some() && !matches!(self.scenario.watermarks, WatermarkSpec::Explicit) {
                return Some(format!(
                    "the watermark stays at {}, as the largest timestamp did not grow",
                    self.wm(self.watermark_before(f.step))
                ));
            }
            return None;
        };
        let mut parts = vec![lead.clone()];
        match f.timer_firings.as_slice() {
            [] => {}
            [one] if end.is_some() => {
                let sentence = self.firing_sentence(one);
                let tail = sentence.split_once(", so ").map(|(_, rest)| rest.to_string()).unwrap_or(sentence.clone());
                let fires = tail.split_once(" fires: ").map(|(_, rest)| rest.to_string()).unwrap_or(tail);
                parts = vec![format!("{lead}, so {} fires: {fires}", self.window_label(one.key, &one.window))];
            }
            [one] => {
                let sentence = self.firing_sentence(one);
                // "Watermark X ≥ T, the last millisecond of W, so ... fires: ..." reads as
                // the continuation of the lead.
                let tail = sentence
                    .strip_prefix(&format!("Watermark {} ", self.wm(one.watermark)))
                    .map(|s| format!("{lead} {s}"))
                    .unwrap_or_else(|| format!("{lead}: {}", lower_first(&sentence)));
                parts = vec![tail];
            }
            many => {
                let mut windows: Vec<(KeyId, Window)> = many.iter().map(|f| (f.key, f.window)).collect();
                super::sort::stable(&mut windows);
                windows.dedup();
                let kinds = self.kind_counts(many);
                parts.push(match windows.as_slice() {
                    [(k, w)] => format!(
                        "{} fires {} ({kinds}, the same window each time)",
                        self.window_label(*k, w),
                        match many.len() {
                            2 => "twice".to_string(),
                            n => format!("{n} times"),
                        }
                    ),
                    ws if ws.len() == many.len() => format!("{} windows fire ({kinds})", ws.len()),
                    ws => format!("{} windows fire {} times ({kinds})", ws.len(), many.len()),
                });
            }
        }
        match f.cleanups.as_slice() {
            [] => {}
            [c] => parts.push(format!(
                "{} is removed at its cleanup time {}{}",
                self.window_label(c.key, &c.window),
                time(c.time),
                if c.unfired.is_empty() {
                    String::new()
                } else {
                    format!(", discarding {} that never fired", plural(c.unfired.len(), "element", "elements"))
                }
            )),
            cs => {
                let unfired: usize = cs.iter().map(|c| c.unfired.len()).sum();
                parts.push(format!(
                    "{} windows are removed at their cleanup times{}",
                    cs.len(),
                    if unfired == 0 {
                        String::new()
                    } else {
                        format!(", discarding {} that never fired", plural(unfired, "element", "elements"))
                    }
                ))
            }
        }
        if f.timer_firings.is_empty() && f.cleanups.is_empty() {
            let watermark = self.watermark_at(f.step + 1);
            let passed: Vec<String> = after
                .live_windows()
                .filter(|w| w.window.max_timestamp() <= watermark && w.firings == 0)
                .map(|w| self.window_label(w.key, &w.window))
                .collect();
            // The next timer that would make a window fire (not a cleanup timer), in time order.
            let next = after
                .pending_timers()
                .filter(|t| t.time != self.cleanup_time(&t.window))
                .map(|t| (t.time, t.key, t.window))
                .min();
            if self.is_count_trigger() && end.is_none() {
                if passed.is_empty() {
                    parts.push(format!("{} fires only by count, so nothing fires", self.trigger_name()));
                } else {
                    parts.push(format!(
                        "it passes the end of {}, but {} fires only by count, so nothing fires",
                        list(&passed),
                        self.trigger_name()
                    ));
                }
            } else {
                match next {
                    Some((t, k, w)) if end.is_none() => parts.push(format!(
                        "that is before the next trigger timer, {} of {}, so nothing fires",
                        time(t),
                        self.window_label(k, &w)
                    )),
                    _ => parts.push("nothing fires".into()),
                }
            }
        }
        Some(join_clauses(&parts))
    }
}

/// Merged sessions by start (the engine keeps Flink's hash-set order, which reads randomly).
pub(crate) fn sorted(windows: &[crate::engine::TimeWindow]) -> Vec<crate::engine::TimeWindow> {
    let mut v = windows.to_vec();
    super::sort::stable(&mut v);
    v
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

/// `a, b and c` for clauses.
fn join_clauses(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
    }
}
