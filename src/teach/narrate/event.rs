//! One sentence per trace event: what happened, the rule that made it happen, and the numbers.

use crate::engine::Window;
use crate::engine::scenario::{AssignerSpec, BaseTrigger, WatermarkSpec};
use crate::engine::time::{LONG_MAX, Millis};
use crate::engine::trace::{ElemIdx, KeyId, TimeDomain, TimerPurpose, TraceEvent, TraceKind};

use super::sorted;
use crate::teach::Context;
use crate::teach::format::{capitalize, duration, list, plural, time, window as win};

impl Context<'_> {
    /// One sentence for one trace event: what happened, the rule that made it happen, and the
    /// numbers.
    pub fn narrate(&self, ev: &TraceEvent) -> String {
        if let Some(sentence) = self.process_sentence(ev) {
            return sentence;
        }
        let step = ev.step;
        match &ev.kind {
            TraceKind::ElementArrived { id, key, ts, value, .. } => format!(
                "Element {id} arrives: key {}, timestamp {}, value {}; the watermark is {}.",
                self.key_name(*key),
                time(*ts),
                self.val(*value),
                self.wm(self.watermark_seen_by(ev))
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
            TraceKind::CheckpointTaken { checkpoint, item } => format!(
                "Checkpoint {checkpoint} completes {}: it holds every window's state, the trigger state and all timers, and the source's position (a restore replays from {}); not the watermark.",
                self.after_element(*item),
                self.item_name(item + 1)
            ),
            TraceKind::Crashed { item } => format!(
                "The TaskManager dies at {}, {}: everything the job held in memory is lost; what was already written to the sinks stays there.",
                self.item_name(*item),
                self.after_element(*item)
            ),
            TraceKind::CrashPassed { item } => {
                format!(
                    "The replay passes {}, where the TaskManager died: that failure does not happen again.",
                    self.item_name(*item)
                )
            }
            TraceKind::Restored { checkpoint: Some(n), from_item } => format!(
                "Flink restarts the job from checkpoint {n}: state and timers come back as the checkpoint saved them, the watermark starts again at Long.MIN_VALUE, and the source replays from {}. A result emitted again is a recovery duplicate: an append sink writes it twice, an upsert sink overwrites its row with it.",
                self.item_name(*from_item)
            ),
            TraceKind::Restored { checkpoint: None, from_item } => format!(
                "No checkpoint had completed, so Flink restarts the job with empty state and the source replays from {}: every result comes out again.",
                self.item_name(*from_item)
            ),
            TraceKind::Replayed { item } => match self.element_id_at(*item) {
                Some(id) => {
                    format!("The restarted source replays element {id} (step {}), read before the crash.", item + 1)
                }
                None => format!("The restarted source reaches {} again.", self.item_name(*item)),
            },
            TraceKind::TimersDueAtRestore { timers, .. } => format!(
                "At the restore {} already due and {} at once, before the first replayed item (Flink's documented rule, not a recorded golden: in real Flink their place among the first outputs after the restart is a race).",
                plural(*timers, "restored processing-time timer is", "restored processing-time timers are"),
                if *timers == 1 { "fires" } else { "fire" }
            ),
            TraceKind::Error { phase, class, message } => format!(
                "Flink fails {}: {class}: {message}.",
                if phase == "build" { "while building the job" } else { "while running the job" }
            ),
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
}
