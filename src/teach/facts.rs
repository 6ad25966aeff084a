//! What one input step did, sorted out of its trace events: the element's part (assignment,
//! windows, late windows, element-caused firings, side output or drop) and the watermark's part
//! (advance, timer firings, cleanups). Narration, "why?" and the quiz all read this; what is
//! alive before or after a step they read from the engine's fold, [`crate::engine::view`].

use crate::engine::time::{Millis, TimeWindow};
use crate::engine::trace::{ElemIdx, FireCause, KeyId, TraceEvent, TraceKind};
use crate::engine::{ElementInfo, Firing, Window};

use super::Context;

#[derive(Clone, Debug, PartialEq)]
pub struct CleanupFact {
    pub key: KeyId,
    pub window: Window,
    pub time: Millis,
    pub elems: Vec<ElemIdx>,
    pub unfired: Vec<ElemIdx>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MergeFact {
    pub key: KeyId,
    pub new_window: TimeWindow,
    pub merged: Vec<TimeWindow>,
    pub into: TimeWindow,
}

/// The element's fate in its step (the quiz's four answers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    Added,
    AddedAndFires,
    SideOutput,
    Dropped { counted: bool },
}

#[derive(Clone, Debug, Default)]
pub struct StepFacts<'a> {
    pub step: usize,
    pub element: Option<(ElemIdx, &'a ElementInfo)>,
    /// The assigner's answer (in the assigner's order).
    pub assigned: Vec<Window>,
    /// Windows the element went into: (key, window, created by this element).
    pub added: Vec<(KeyId, Window, bool)>,
    /// `isWindowLate` rejections: (window, cleanup time, watermark).
    pub late_windows: Vec<(Window, Millis, Millis)>,
    pub merges: Vec<MergeFact>,
    /// Firings caused by the element (`Trigger.onElement` returned FIRE).
    pub element_firings: Vec<&'a Firing>,
    pub side_output: bool,
    pub dropped: Option<bool>,
    /// An explicit watermark item of this step (advanced or not).
    pub explicit_watermark: Option<Millis>,
    pub watermark_advanced: Option<(Millis, Millis)>,
    pub watermark_ignored: Option<(Millis, Millis)>,
    /// Firings caused by timers during the watermark advance.
    pub timer_firings: Vec<&'a Firing>,
    pub cleanups: Vec<CleanupFact>,
    /// Trigger timers that fired without a firing (no contents, or CONTINUE), and stale timers.
    pub idle_timers: Vec<(KeyId, Window, Millis, bool)>,
    pub end_of_input: Option<bool>,
    pub error: Option<(String, String, String)>,
}

impl StepFacts<'_> {
    pub fn fate(&self) -> Option<Fate> {
        self.element?;
        if !self.element_firings.is_empty() {
            Some(Fate::AddedAndFires)
        } else if !self.added.is_empty() {
            Some(Fate::Added)
        } else if self.side_output {
            Some(Fate::SideOutput)
        } else {
            self.dropped.map(|counted| Fate::Dropped { counted })
        }
    }
}

/// Whether the timer that fired at `events[i]` made its window fire, purge, evict or clean up
/// (those events follow it before the next timer fires).
pub fn timer_acted(events: &[TraceEvent], i: usize, key: KeyId, window: &Window) -> bool {
    events.iter().skip(i + 1).take_while(|e| !matches!(e.kind, TraceKind::TimerFired { .. })).any(|e| match &e.kind {
        TraceKind::Fired { key: k, window: w, .. }
        | TraceKind::CleanedUp { key: k, window: w, .. }
        | TraceKind::Evicted { key: k, window: w, .. }
        | TraceKind::Purged { key: k, window: w, .. } => *k == key && w == window,
        _ => false,
    })
}

impl<'a> Context<'a> {
    /// Sorts out what input step `step` did.
    pub(crate) fn facts(&self, step: usize) -> StepFacts<'a> {
        let events = self.events(step);
        let mut f = StepFacts { step, ..StepFacts::default() };
        if let Some(crate::engine::InputItem::Watermark(wm)) = self.scenario.input.get(step) {
            f.explicit_watermark = Some(*wm);
        }
        let mut created: Vec<(KeyId, Window)> = Vec::new();
        for (i, ev) in events.iter().enumerate() {
            match &ev.kind {
                TraceKind::ElementArrived { elem, .. } => {
                    f.element = self.element(*elem).map(|info| (*elem, info));
                }
                TraceKind::WindowsAssigned { windows, .. } => f.assigned = windows.clone(),
                TraceKind::WindowCreated { key, window } => created.push((*key, *window)),
                TraceKind::ElementAdded { key, window, .. } => {
                    let new = created.contains(&(*key, *window));
                    if !f.added.iter().any(|(k, w, _)| k == key && w == window) {
                        f.added.push((*key, *window, new));
                    }
                }
                TraceKind::WindowLate { window, cleanup_time, watermark, .. } => {
                    f.late_windows.push((*window, *cleanup_time, *watermark))
                }
                TraceKind::SessionsMerged { key, new_window, merged, into, .. } => {
                    f.merges.push(MergeFact { key: *key, new_window: *new_window, merged: merged.clone(), into: *into })
                }
                TraceKind::Fired { output, .. } => {
                    if let Some(firing) = self.run.firing(*output) {
                        match firing.cause {
                            FireCause::Element { .. } => f.element_firings.push(firing),
                            FireCause::Timer { .. } | FireCause::ProcessingTimer { .. } => f.timer_firings.push(firing),
                        }
                    }
                }
                TraceKind::SideOutput { .. } => f.side_output = true,
                TraceKind::Dropped { counted, .. } => f.dropped = Some(*counted),
                TraceKind::WatermarkAdvanced { from, to } => f.watermark_advanced = Some((*from, *to)),
                TraceKind::WatermarkIgnored { proposed, current } => f.watermark_ignored = Some((*proposed, *current)),
                TraceKind::CleanedUp { key, window, time, elems, unfired } => f.cleanups.push(CleanupFact {
                    key: *key,
                    window: *window,
                    time: *time,
                    elems: elems.clone(),
                    unfired: unfired.clone(),
                }),
                TraceKind::TimerFired { key, window, time, purpose, stale, .. } => {
                    // A timer followed by no firing or cleanup of its window (before the next
                    // timer) did nothing visible.
                    let acted = timer_acted(events, i, *key, window);
                    if *stale || (!acted && purpose.trigger) {
                        f.idle_timers.push((*key, *window, *time, *stale));
                    }
                }
                TraceKind::EndOfInput { max_watermark } => f.end_of_input = Some(*max_watermark),
                TraceKind::Error { phase, class, message } => {
                    f.error = Some((phase.clone(), class.clone(), message.clone()))
                }
                TraceKind::TimerRegistered { .. }
                | TraceKind::TimerDeleted { .. }
                | TraceKind::Evicted { .. }
                | TraceKind::Purged { .. }
                | TraceKind::PartitionWatermark { .. }
                | TraceKind::PartitionIdle { .. }
                | TraceKind::PartitionActive { .. }
                | TraceKind::FunctionEmitted { .. }
                | TraceKind::StateUpdated { .. }
                | TraceKind::StateExpired { .. }
                | TraceKind::CheckpointTaken { .. }
                | TraceKind::Crashed { .. }
                | TraceKind::CrashPassed { .. }
                | TraceKind::Restored { .. }
                | TraceKind::Replayed { .. }
                | TraceKind::TimersDueAtRestore { .. } => {}
            }
        }
        f
    }
}
