//! What the operator looks like after a number of input steps, folded from the trace. The UI
//! draws only this: windows with their state, elements with their outcome, timers, outputs.
//!
//! Playhead convention: `at_step(s)` shows the state after the first `s` steps, so `0` is before
//! any input and `run.steps` (the input items plus the end of input) is the end.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use super::run::Run;
use super::time::{LONG_MIN, Millis, TimeWindow, Window};
use super::trace::{ElemIdx, FiringKind, KeyId, TimeDomain, TimerPurpose, TraceEvent, TraceKind};

/// A window's state at the playhead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowState {
    /// Has state; never fired.
    Open,
    /// Fired (main or early firings only).
    Fired,
    /// Fired again after its main firing (a late firing).
    LateFired,
    /// The trigger purged its contents; the window itself lives until cleanup.
    Purged,
    /// `clearAllState` ran at the cleanup time: the window is gone.
    CleanedUp,
    /// Absorbed into a larger session window.
    Merged { into: TimeWindow },
}

impl WindowState {
    /// The `data-state` attribute value.
    pub fn label(&self) -> &'static str {
        match self {
            WindowState::Open => "open",
            WindowState::Fired => "fired",
            WindowState::LateFired => "late-fired",
            WindowState::Purged => "purged",
            WindowState::CleanedUp => "cleaned",
            WindowState::Merged { .. } => "merged",
        }
    }

    pub fn is_live(&self) -> bool {
        !matches!(self, WindowState::CleanedUp | WindowState::Merged { .. })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct WindowView {
    pub key: KeyId,
    pub window: Window,
    pub state: WindowState,
    /// The elements in the window's state now (for a merged session: the merged contents).
    pub contents: Vec<ElemIdx>,
    /// The last result the window function emitted: (sum, count).
    pub last_result: Option<(i64, u64)>,
    pub firings: u32,
    pub created_step: usize,
    /// The step in which it was cleaned up or merged away.
    pub ended_step: Option<usize>,
}

/// What has become of an element so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementOutcome {
    /// Arrived, in a window's state, not yet emitted.
    Pending,
    /// Emitted by a main (or early) firing.
    OnTime,
    /// Emitted only by late firings (it arrived after its window's main firing).
    InLateFiring,
    /// Went to the late side output.
    SideOutput,
    /// Dropped: `counted` = late with no side output (`numLateRecordsDropped`); otherwise its
    /// windows were late while the element itself was not, and it vanished silently.
    Dropped { counted: bool },
    /// Removed by the evictor or cleaned up before any firing emitted it.
    Discarded,
}

impl ElementOutcome {
    pub fn label(&self) -> &'static str {
        match self {
            ElementOutcome::Pending => "pending",
            ElementOutcome::OnTime => "on-time",
            ElementOutcome::InLateFiring => "late-firing",
            ElementOutcome::SideOutput => "side-output",
            ElementOutcome::Dropped { counted: true } => "dropped",
            ElementOutcome::Dropped { counted: false } => "dropped-silently",
            ElementOutcome::Discarded => "discarded",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerStatus {
    Registered,
    Fired,
    Deleted,
}

impl TimerStatus {
    pub fn label(&self) -> &'static str {
        match self {
            TimerStatus::Registered => "registered",
            TimerStatus::Fired => "fired",
            TimerStatus::Deleted => "deleted",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimerView {
    pub key: KeyId,
    pub window: Window,
    pub time: Millis,
    pub purpose: TimerPurpose,
    pub status: TimerStatus,
    pub domain: TimeDomain,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StepView {
    pub step: usize,
    pub watermark: Millis,
    /// Every window that existed up to the playhead, ordered by (key, window).
    pub windows: Vec<WindowView>,
    /// Outcome per arrived element, indexed like `Run::elements` (`None`: not arrived yet).
    pub elements: Vec<Option<ElementOutcome>>,
    /// Timers in (domain, time, key, window) order; a re-registered timer shows its latest status.
    pub timers: Vec<TimerView>,
    /// How many of `Run::outputs` were emitted up to the playhead.
    pub outputs: usize,
    /// The largest event timestamp seen so far.
    pub max_timestamp: Option<Millis>,
}

impl StepView {
    pub fn live_windows(&self) -> impl Iterator<Item = &WindowView> {
        self.windows.iter().filter(|w| w.state.is_live())
    }

    /// Live windows whose end has passed the watermark: only allowed lateness keeps them (and
    /// their state and cleanup timer) alive. The course: "live windows include those held open
    /// by allowed lateness".
    pub fn held_open_by_lateness(&self) -> usize {
        self.live_windows().filter(|w| w.window != Window::Global && w.window.max_timestamp() <= self.watermark).count()
    }

    /// Live windows per key, in key order.
    pub fn live_windows_per_key(&self) -> BTreeMap<KeyId, usize> {
        let mut per_key = BTreeMap::new();
        for w in self.live_windows() {
            *per_key.entry(w.key).or_insert(0) += 1;
        }
        per_key
    }

    /// Pending (registered, neither fired nor deleted) timers.
    pub fn pending_timers(&self) -> impl Iterator<Item = &TimerView> {
        self.timers.iter().filter(|t| t.status == TimerStatus::Registered)
    }
}

/// Folds the trace of `run` up to (excluding) input step `step`.
pub fn at_step(run: &Run, step: usize) -> StepView {
    let step = step.min(run.steps);
    let events: &[TraceEvent] = {
        let end = run.trace.partition_point(|e| e.step < step);
        &run.trace[..end]
    };
    // Why hash maps and a sort at the end: the fold does many point lookups and the UI wants the
    // result ordered once (windows by key and window, timers by firing order).
    let mut windows: FxHashMap<(KeyId, Window), WindowView> = FxHashMap::default();
    let mut elements: Vec<Option<ElementOutcome>> = vec![None; run.elements.len()];
    let mut timers: FxHashMap<(TimeDomain, Millis, KeyId, Window), TimerView> = FxHashMap::default();
    let mut outputs = 0;
    let mut max_timestamp: Option<Millis> = None;
    let mut watermark = LONG_MIN;

    // The state window of each live session window, to show merged contents on the window.
    let mut state_of: FxHashMap<(KeyId, Window), Window> = FxHashMap::default();
    let mut contents: FxHashMap<(KeyId, Window), Vec<ElemIdx>> = FxHashMap::default();

    let set = |elements: &mut Vec<Option<ElementOutcome>>, e: ElemIdx, outcome: ElementOutcome| {
        if let Some(slot) = elements.get_mut(e as usize) {
            *slot = Some(outcome);
        }
    };

    for ev in events {
        match &ev.kind {
            TraceKind::ElementArrived { elem, ts, .. } => {
                set(&mut elements, *elem, ElementOutcome::Pending);
                max_timestamp = Some(max_timestamp.map_or(*ts, |m: Millis| m.max(*ts)));
            }
            TraceKind::WatermarkAdvanced { to, .. } => watermark = *to,
            TraceKind::WindowCreated { key, window } => {
                windows.insert(
                    (*key, *window),
                    WindowView {
                        key: *key,
                        window: *window,
                        state: WindowState::Open,
                        contents: Vec::new(),
                        last_result: None,
                        firings: 0,
                        created_step: ev.step,
                        ended_step: None,
                    },
                );
            }
            TraceKind::ElementAdded { elem, key, window, state_window, .. } => {
                state_of.insert((*key, *window), *state_window);
                contents.entry((*key, *state_window)).or_default().push(*elem);
            }
            TraceKind::SessionsMerged { key, new_window, merged, into, state_window } => {
                let target = (*key, Window::Time(*state_window));
                for m in merged {
                    let mw = Window::Time(*m);
                    if let Some(old_state) = state_of.remove(&(*key, mw))
                        && old_state != target.1
                        && let Some(elems) = contents.remove(&(*key, old_state))
                    {
                        contents.entry(target).or_default().extend(elems);
                    }
                }
                state_of.insert((*key, Window::Time(*into)), target.1);
                // The merged window inherits the most advanced state of what it absorbed.
                let mut view = WindowView {
                    key: *key,
                    window: Window::Time(*into),
                    state: WindowState::Open,
                    contents: Vec::new(),
                    last_result: None,
                    firings: 0,
                    created_step: ev.step,
                    ended_step: None,
                };
                for m in merged {
                    if let Some(old) = windows.get_mut(&(*key, Window::Time(*m))) {
                        view.firings += old.firings;
                        view.created_step = view.created_step.min(old.created_step);
                        if old.last_result.is_some() {
                            view.last_result = old.last_result;
                        }
                        if rank(old.state) > rank(view.state) {
                            view.state = old.state;
                        }
                        old.state = WindowState::Merged { into: *into };
                        old.ended_step = Some(ev.step);
                    }
                }
                let _ = new_window;
                windows.insert((*key, Window::Time(*into)), view);
            }
            TraceKind::TimerRegistered { key, window, time, purpose, domain } => {
                timers.insert(
                    (*domain, *time, *key, *window),
                    TimerView {
                        key: *key,
                        window: *window,
                        time: *time,
                        purpose: *purpose,
                        status: TimerStatus::Registered,
                        domain: *domain,
                    },
                );
            }
            TraceKind::TimerDeleted { key, window, time, domain, .. } => {
                if let Some(t) = timers.get_mut(&(*domain, *time, *key, *window)) {
                    t.status = TimerStatus::Deleted;
                }
            }
            TraceKind::TimerFired { key, window, time, purpose, domain, .. } => {
                let t = timers.entry((*domain, *time, *key, *window)).or_insert(TimerView {
                    key: *key,
                    window: *window,
                    time: *time,
                    purpose: *purpose,
                    status: TimerStatus::Fired,
                    domain: *domain,
                });
                t.purpose = *purpose;
                t.status = TimerStatus::Fired;
            }
            TraceKind::Fired { key, window, elems, sum, count, kind, .. } => {
                outputs += 1;
                for e in elems {
                    let current = elements.get(*e as usize).copied().flatten();
                    let outcome = match (kind, current) {
                        (_, Some(ElementOutcome::OnTime)) => ElementOutcome::OnTime,
                        (FiringKind::Late, _) => ElementOutcome::InLateFiring,
                        _ => ElementOutcome::OnTime,
                    };
                    set(&mut elements, *e, outcome);
                }
                if let Some(w) = windows.get_mut(&(*key, *window)) {
                    w.firings += 1;
                    w.last_result = Some((*sum, *count));
                    w.state = if *kind == FiringKind::Late || w.state == WindowState::LateFired {
                        WindowState::LateFired
                    } else {
                        WindowState::Fired
                    };
                }
            }
            TraceKind::Evicted { key, window, elems, .. } => {
                let sw = state_of.get(&(*key, *window)).copied().unwrap_or(*window);
                if let Some(c) = contents.get_mut(&(*key, sw)) {
                    c.retain(|e| !elems.contains(e));
                }
                for e in elems {
                    if elements.get(*e as usize).copied().flatten() == Some(ElementOutcome::Pending) {
                        set(&mut elements, *e, ElementOutcome::Discarded);
                    }
                }
            }
            TraceKind::Purged { key, window, .. } => {
                let sw = state_of.get(&(*key, *window)).copied().unwrap_or(*window);
                contents.remove(&(*key, sw));
                if let Some(w) = windows.get_mut(&(*key, *window)) {
                    w.state = WindowState::Purged;
                }
            }
            TraceKind::CleanedUp { key, window, unfired, .. } => {
                let sw = state_of.remove(&(*key, *window)).unwrap_or(*window);
                contents.remove(&(*key, sw));
                for e in unfired {
                    if elements.get(*e as usize).copied().flatten() == Some(ElementOutcome::Pending) {
                        set(&mut elements, *e, ElementOutcome::Discarded);
                    }
                }
                if let Some(w) = windows.get_mut(&(*key, *window)) {
                    w.state = WindowState::CleanedUp;
                    w.ended_step = Some(ev.step);
                }
            }
            TraceKind::SideOutput { elem, .. } => {
                outputs += 1;
                set(&mut elements, *elem, ElementOutcome::SideOutput);
            }
            TraceKind::Dropped { elem, counted, .. } => {
                set(&mut elements, *elem, ElementOutcome::Dropped { counted: *counted });
            }
            TraceKind::Error { .. } | TraceKind::FunctionEmitted { .. } => outputs += 1,
            TraceKind::WatermarkIgnored { .. }
            | TraceKind::WindowsAssigned { .. }
            | TraceKind::WindowLate { .. }
            | TraceKind::EndOfInput { .. }
            | TraceKind::PartitionWatermark { .. }
            | TraceKind::PartitionIdle { .. }
            | TraceKind::PartitionActive { .. }
            | TraceKind::StateUpdated { .. }
            | TraceKind::StateExpired { .. } => {}
        }
    }
    let mut windows: Vec<WindowView> = windows.into_values().collect();
    windows.sort_unstable_by_key(|w| (w.key, w.window));
    let mut timers: Vec<((TimeDomain, Millis, KeyId, Window), TimerView)> = timers.into_iter().collect();
    timers.sort_unstable_by_key(|(k, _)| *k);
    let timers = timers.into_iter().map(|(_, t)| t).collect();
    for w in &mut windows {
        if w.state.is_live() {
            let sw = state_of.get(&(w.key, w.window)).copied().unwrap_or(w.window);
            w.contents = contents.get(&(w.key, sw)).cloned().unwrap_or_default();
        }
    }
    StepView { step, watermark, windows, elements, timers, outputs, max_timestamp }
}

fn rank(state: WindowState) -> u8 {
    match state {
        WindowState::Open => 0,
        WindowState::Fired => 1,
        WindowState::Purged => 2,
        WindowState::LateFired => 3,
        WindowState::CleanedUp | WindowState::Merged { .. } => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Scenario, run};

    fn scenario(json: &str) -> Scenario {
        Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Windows appear with their first element, fire at end-1 and are cleaned at end-1+lateness;
    /// a late element past cleanup goes to the side output.
    #[test]
    fn window_lifecycle_across_steps() {
        let s = scenario(
            r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 10000,
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 59999},
                          {"id": 2, "key": "A", "ts": 2000}, {"wm": 69999},
                          {"id": 3, "key": "A", "ts": 3000}]}"#,
        );
        let r = run(&s);
        let v0 = at_step(&r, 0);
        assert!(v0.windows.is_empty());
        let v1 = at_step(&r, 1);
        assert_eq!(v1.windows.len(), 1);
        assert_eq!(v1.windows[0].state, WindowState::Open);
        assert_eq!(v1.windows[0].contents, vec![0]);
        assert_eq!(v1.elements[0], Some(ElementOutcome::Pending));
        let v2 = at_step(&r, 2);
        assert_eq!(v2.windows[0].state, WindowState::Fired);
        assert_eq!(v2.elements[0], Some(ElementOutcome::OnTime));
        assert_eq!(v2.watermark, 59_999);
        let v3 = at_step(&r, 3);
        assert_eq!(v3.windows[0].state, WindowState::LateFired);
        assert_eq!(v3.elements[1], Some(ElementOutcome::InLateFiring));
        assert_eq!(v3.windows[0].last_result, Some((2, 2)));
        // Fired but alive until cleanup: held open by the allowed lateness.
        assert_eq!(v3.held_open_by_lateness(), 1);
        assert_eq!(v3.pending_timers().count(), 1);
        assert_eq!(v3.live_windows_per_key().get(&0), Some(&1));
        let v4 = at_step(&r, 4);
        assert_eq!(v4.windows[0].state, WindowState::CleanedUp);
        assert!(v4.timers.iter().all(|t| t.status != TimerStatus::Registered));
        assert_eq!(v4.held_open_by_lateness(), 0);
        let v5 = at_step(&r, 5);
        assert_eq!(v5.elements[2], Some(ElementOutcome::SideOutput));
        assert_eq!(v5.outputs, 3);
    }

    /// A merge shows the absorbed sessions as merged and the result with all contents.
    #[test]
    fn session_merge_is_visible() {
        let s = scenario(
            r#"{"assigner": {"kind": "session", "gap": 10000},
                "input": [{"id": 1, "key": "A", "ts": 0}, {"id": 2, "key": "A", "ts": 20000},
                          {"id": 3, "key": "A", "ts": 10000}]}"#,
        );
        let r = run(&s);
        let v = at_step(&r, 3);
        let live: Vec<&WindowView> = v.live_windows().collect();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].window, Window::Time(TimeWindow::new(0, 30000)));
        let mut contents = live[0].contents.clone();
        contents.sort();
        assert_eq!(contents, vec![0, 1, 2]);
        assert_eq!(v.windows.iter().filter(|w| matches!(w.state, WindowState::Merged { .. })).count(), 2);
    }
}
