//! What the operator looks like after a number of input steps, folded from the trace. The UI
//! draws only this: windows with their state, elements with their outcome, timers, outputs.
//!
//! Playhead convention: `at_step(s)` shows the state after the first `s` steps, so `0` is before
//! any input and `run.steps` (the input items plus the end of input) is the end.
//!
//! The view is a fold of the trace: [`StepView::apply`] folds one event, [`StepView::advance`]
//! the events of the next steps, and [`at_step`] folds from the start and settles the result
//! (the windows and timers in their documented order, each live window's contents attached).
//! One fold for everyone: the timeline draws a settled view; the teaching layer reads the same
//! fold, walking a run step by step (the quiz) without re-folding from the start.

use std::collections::BTreeMap;

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use super::output::Firing;
use super::run::Run;
use super::time::{LONG_MIN, Millis, TimeWindow, Window};
use super::trace::{ElemIdx, FiringKind, KeyId, TimeDomain, TimerPurpose, TraceEvent, TraceKind};

mod cache;
pub use cache::FoldCache;

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
    /// The elements in the window's state now (for a merged session: the merged contents);
    /// attached to the live windows when the view is settled, empty for gone ones.
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

/// What the operator looks like at a playhead, folded from the trace.
#[derive(Clone, Debug)]
pub struct StepView {
    /// The playhead: how many input steps are folded in.
    pub step: usize,
    pub watermark: Millis,
    /// Every window that existed up to the playhead. Ordered by (key, window) once settled
    /// ([`at_step`], [`StepView::settle`]); while folding, in the order the trace created them.
    pub windows: Vec<WindowView>,
    /// Outcome per arrived element, indexed like `Run::elements` (`None`: not arrived yet).
    pub elements: Vec<Option<ElementOutcome>>,
    /// Timers in (domain, time, key, window) order once settled (while folding, in the order
    /// of first registration); a re-registered timer shows its latest status.
    pub timers: Vec<TimerView>,
    /// How many of `Run::outputs` were emitted up to the playhead.
    pub outputs: usize,
    /// The largest event timestamp seen so far.
    pub max_timestamp: Option<Millis>,
    fold: Fold,
}

/// A timer's identity in the fold: (domain, time, key, window), its firing order.
type TimerSlot = (TimeDomain, Millis, KeyId, Window);

/// The fold's bookkeeping beside the lists. Why hash maps and a sort when settling: the fold
/// does many point lookups, and the timeline wants the lists ordered once.
#[derive(Clone, Debug, Default)]
struct Fold {
    /// Index in `windows` of each (key, window).
    window_at: FxHashMap<(KeyId, Window), usize>,
    /// Index in `timers` of each timer.
    timer_at: FxHashMap<TimerSlot, usize>,
    /// The state window of each window (it differs for merged sessions), to show a window's
    /// contents.
    state_of: FxHashMap<(KeyId, Window), Window>,
    /// Contents per (key, state window).
    contents: FxHashMap<(KeyId, Window), Vec<ElemIdx>>,
    /// While folding: the indices of the live windows, and each window's place in it
    /// (`NOT_LISTED` if dead), so that the live set is kept in O(1) per event and read without a
    /// pass over every window.
    live: Vec<usize>,
    live_slot: Vec<usize>,
    /// The same for the registered (pending) timers.
    pending: Vec<usize>,
    pending_slot: Vec<usize>,
    /// The live and pending lists are kept (a view that is read while it folds); `at_step`
    /// reads only its settled result, so it saves their upkeep.
    track: bool,
    /// The lists are in their documented order (and the indices above stale until the next
    /// event rebuilds them).
    settled: bool,
    /// A view to show, not to fold on ([`at_step`], a fold cache's): it keeps none of the maps
    /// above (at 100,000 elements they are half of a view's 20 MB, and the page keeps the view on
    /// show). Folding on from it starts again from step 0.
    shed: bool,
    /// What the view showed at each completed checkpoint (issue 17), numbered from 1.
    checkpoints: Vec<Saved>,
}

/// The operator's state as the view showed it at a checkpoint: what a restore brings back.
#[derive(Clone, Debug, Default)]
struct Saved {
    windows: FxHashMap<(KeyId, Window), WindowView>,
    timers: FxHashMap<TimerSlot, TimerStatus>,
    state_of: FxHashMap<(KeyId, Window), Window>,
    contents: FxHashMap<(KeyId, Window), Vec<ElemIdx>>,
}

const NOT_LISTED: usize = usize::MAX;

/// Adds `i` to an index list (`list`, with each member's place in `slot`), or removes it.
fn set_listed(list: &mut Vec<usize>, slot: &mut Vec<usize>, i: usize, listed: bool) {
    if slot.len() <= i {
        slot.resize(i + 1, NOT_LISTED);
    }
    match (slot[i] != NOT_LISTED, listed) {
        (false, true) => {
            slot[i] = list.len();
            list.push(i);
        }
        (true, false) => {
            let at = slot[i];
            list.swap_remove(at);
            if let Some(&moved) = list.get(at) {
                slot[moved] = at;
            }
            slot[i] = NOT_LISTED;
        }
        _ => {}
    }
}

/// Two views are equal when they show the same thing (the fold's bookkeeping aside).
impl PartialEq for StepView {
    fn eq(&self, other: &Self) -> bool {
        self.step == other.step
            && self.watermark == other.watermark
            && self.windows == other.windows
            && self.elements == other.elements
            && self.timers == other.timers
            && self.outputs == other.outputs
            && self.max_timestamp == other.max_timestamp
    }
}

impl StepView {
    /// The view before any input (playhead 0), with room for every element of `run`.
    pub fn new(run: &Run) -> StepView {
        StepView { fold: Fold { track: true, ..Fold::default() }, ..StepView::untracked(run) }
    }

    /// A view that keeps no live or pending lists while folding: for a fold that is settled
    /// before anyone reads it.
    fn untracked(run: &Run) -> StepView {
        StepView {
            step: 0,
            watermark: LONG_MIN,
            windows: Vec::new(),
            elements: vec![None; run.elements.len()],
            timers: Vec::new(),
            outputs: 0,
            max_timestamp: None,
            fold: Fold::default(),
        }
    }

    /// The live windows (not cleaned up, not merged away), ordered by (key, window).
    pub fn live_windows(&self) -> impl Iterator<Item = &WindowView> {
        // Settled, the windows are in order; while folding, the live set is small and sorted here.
        let settled = self.fold.settled.then(|| self.windows.iter().filter(|w| w.state.is_live()));
        let mut folding: Vec<&WindowView> = Vec::new();
        if !self.fold.settled {
            folding.extend(self.fold.live.iter().filter_map(|&i| self.windows.get(i)));
            folding.sort_unstable_by_key(|w| (w.key, w.window));
        }
        settled.into_iter().flatten().chain(folding)
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

    /// Pending (registered, neither fired nor deleted) timers, in (domain, time, key, window)
    /// order.
    pub fn pending_timers(&self) -> impl Iterator<Item = &TimerView> {
        let settled = self.fold.settled.then(|| self.timers.iter().filter(|t| t.status == TimerStatus::Registered));
        let mut folding: Vec<&TimerView> = Vec::new();
        if !self.fold.settled {
            folding.extend(self.fold.pending.iter().filter_map(|&i| self.timers.get(i)));
            folding.sort_unstable_by_key(|t| (t.domain, t.time, t.key, t.window));
        }
        settled.into_iter().flatten().chain(folding)
    }

    /// Folds the events of the steps from the playhead up to (excluding) `step`, and moves the
    /// playhead there (never back; past the end it stops at the end). The lists are left in
    /// fold order: [`StepView::settle`] orders them.
    pub fn advance(&mut self, run: &Run, step: usize) {
        let step = step.min(run.steps);
        if step <= self.step {
            return;
        }
        if self.fold.shed {
            let track = self.fold.track;
            *self = StepView::untracked(run);
            self.fold.track = track;
        }
        let from = run.trace.partition_point(|e| e.step < self.step);
        let to = run.trace.partition_point(|e| e.step < step);
        if self.fold.settled {
            self.reindex();
        }
        for ev in run.trace.get(from..to).unwrap_or(&[]) {
            self.fold_event(run, ev);
        }
        self.step = step;
    }

    /// Orders the windows by (key, window) and the timers by firing order, and attaches each
    /// live window's contents. Folding may go on afterwards.
    pub fn settle(&mut self) {
        settle_lists(&mut self.windows, &mut self.timers, &self.fold);
        self.fold.settled = true;
    }

    /// Settled, and without the fold's maps: a view to show (see `Fold::shed`).
    pub(crate) fn settle_to_show(&mut self) {
        self.settle();
        self.fold = Fold { settled: true, shed: true, ..Fold::default() };
    }

    /// A settled copy to show, the same as a clone made [`StepView::settle_to_show`], without
    /// copying the fold's maps only to drop them (the copy's live windows take their contents
    /// from this view's: at 100,000 elements the maps are half of a view), and in an order kept
    /// from the views before ([`SettledOrder`]: the lists of one run's fold only grow, each place
    /// holding one window or timer for good, so the settled order of a later view is the earlier
    /// one's with the new places merged in), not sorted again: at 100,000 elements the two sorts
    /// were ≈ 30 ms of every step of the playhead.
    pub(crate) fn shown_copy_in(&self, order: &mut SettledOrder) -> StepView {
        order.cover(&self.windows, &self.timers);
        let (windows, timers) = order.settled(&self.windows, &self.timers, &self.fold);
        StepView {
            step: self.step,
            watermark: self.watermark,
            windows,
            elements: self.elements.clone(),
            timers,
            outputs: self.outputs,
            max_timestamp: self.max_timestamp,
            fold: Fold { settled: true, shed: true, ..Fold::default() },
        }
    }

    /// After [`StepView::settle`] reordered the lists: the indices again, before folding on.
    fn reindex(&mut self) {
        let fold = &mut self.fold;
        fold.live.clear();
        fold.live_slot.clear();
        fold.pending.clear();
        fold.pending_slot.clear();
        for (i, w) in self.windows.iter().enumerate() {
            fold.window_at.insert((w.key, w.window), i);
            if w.state.is_live() {
                set_listed(&mut fold.live, &mut fold.live_slot, i, true);
            }
        }
        for (i, t) in self.timers.iter().enumerate() {
            fold.timer_at.insert((t.domain, t.time, t.key, t.window), i);
            if t.status == TimerStatus::Registered {
                set_listed(&mut fold.pending, &mut fold.pending_slot, i, true);
            }
        }
        fold.track = true;
        fold.settled = false;
    }

    fn set_outcome(&mut self, e: ElemIdx, outcome: ElementOutcome) {
        if let Some(slot) = self.elements.get_mut(e as usize) {
            *slot = Some(outcome);
        }
    }

    fn outcome(&self, e: ElemIdx) -> Option<ElementOutcome> {
        self.elements.get(e as usize).copied().flatten()
    }

    /// Puts a window's view in (replacing one of the same key and window) and keeps the live
    /// set in step.
    fn put_window(&mut self, view: WindowView) {
        let live = view.state.is_live();
        let i = match self.fold.window_at.entry((view.key, view.window)) {
            Entry::Occupied(at) => {
                self.windows[*at.get()] = view;
                *at.get()
            }
            Entry::Vacant(at) => {
                at.insert(self.windows.len());
                self.windows.push(view);
                self.windows.len() - 1
            }
        };
        self.set_live(i, live);
    }

    fn set_live(&mut self, i: usize, live: bool) {
        if self.fold.track {
            set_listed(&mut self.fold.live, &mut self.fold.live_slot, i, live);
        }
    }

    fn window_mut(&mut self, key: KeyId, window: Window) -> Option<&mut WindowView> {
        let &i = self.fold.window_at.get(&(key, window))?;
        self.windows.get_mut(i)
    }

    /// The window at `i` ends (cleaned up or merged away) at step `step`.
    fn end_window(&mut self, i: usize, state: WindowState, step: usize) {
        if let Some(w) = self.windows.get_mut(i) {
            w.state = state;
            w.ended_step = Some(step);
            // A gone window shows no contents (a settled view had attached them while it lived).
            w.contents = Vec::new();
        }
        self.set_live(i, false);
    }

    /// A timer's latest status (and purpose), added if the trace had not registered it.
    fn put_timer(&mut self, timer: TimerView) {
        let i = match self.fold.timer_at.entry((timer.domain, timer.time, timer.key, timer.window)) {
            Entry::Occupied(at) => {
                self.timers[*at.get()] = timer;
                *at.get()
            }
            Entry::Vacant(at) => {
                at.insert(self.timers.len());
                self.timers.push(timer);
                self.timers.len() - 1
            }
        };
        self.set_pending(i, timer.status == TimerStatus::Registered);
    }

    fn set_pending(&mut self, i: usize, pending: bool) {
        if self.fold.track {
            set_listed(&mut self.fold.pending, &mut self.fold.pending_slot, i, pending);
        }
    }

    /// Folds one trace event of `run` into the view; a firing's elements and result come from
    /// `run`'s outputs (the trace keeps the output's index).
    ///
    /// Not on a view to show (`Fold::shed`: its maps are gone): [`StepView::advance`] starts
    /// such a view again from step 0.
    pub fn apply(&mut self, run: &Run, ev: &TraceEvent) {
        debug_assert!(!self.fold.shed, "apply on a view to show");
        if self.fold.settled {
            self.reindex();
        }
        self.step = self.step.max(ev.step + 1);
        self.fold_event(run, ev);
    }

    /// The fold of one event (inlined into [`StepView::advance`]'s loop: it runs for every
    /// event of every drag frame).
    #[inline(always)]
    fn fold_event(&mut self, run: &Run, ev: &TraceEvent) {
        match &ev.kind {
            TraceKind::ElementArrived { elem, ts, .. } => {
                self.set_outcome(*elem, ElementOutcome::Pending);
                self.max_timestamp = Some(self.max_timestamp.map_or(*ts, |m: Millis| m.max(*ts)));
            }
            TraceKind::WatermarkAdvanced { to, .. } => self.watermark = *to,
            TraceKind::WindowCreated { key, window } => self.put_window(WindowView::new(*key, *window, ev.step)),
            TraceKind::ElementAdded { elem, key, window, state_window, .. } => {
                self.fold.state_of.insert((*key, *window), *state_window);
                self.fold.contents.entry((*key, *state_window)).or_default().push(*elem);
            }
            TraceKind::SessionsMerged { key, merged, into, state_window, .. } => {
                self.merge_sessions(*key, merged, *into, *state_window, ev.step)
            }
            TraceKind::TimerRegistered { key, window, time, purpose, domain } => {
                let status = TimerStatus::Registered;
                let timer =
                    TimerView { key: *key, window: *window, time: *time, purpose: *purpose, status, domain: *domain };
                self.put_timer(timer);
            }
            TraceKind::TimerDeleted { key, window, time, domain, .. } => {
                if let Some(&i) = self.fold.timer_at.get(&(*domain, *time, *key, *window)) {
                    self.timers[i].status = TimerStatus::Deleted;
                    self.set_pending(i, false);
                }
            }
            TraceKind::TimerFired { key, window, time, purpose, domain, .. } => {
                let status = TimerStatus::Fired;
                let timer =
                    TimerView { key: *key, window: *window, time: *time, purpose: *purpose, status, domain: *domain };
                self.put_timer(timer);
            }
            TraceKind::Fired { key, window, output } => {
                self.outputs += 1;
                if let Some(firing) = run.firing(*output) {
                    self.fired(*key, *window, firing);
                }
            }
            TraceKind::Evicted { key, window, elems, .. } => {
                let sw = self.fold.state_of.get(&(*key, *window)).copied().unwrap_or(*window);
                if let Some(c) = self.fold.contents.get_mut(&(*key, sw)) {
                    c.retain(|e| !elems.contains(e));
                }
                self.discard_pending(elems);
            }
            TraceKind::Purged { key, window, .. } => {
                let sw = self.fold.state_of.get(&(*key, *window)).copied().unwrap_or(*window);
                self.fold.contents.remove(&(*key, sw));
                if let Some(w) = self.window_mut(*key, *window) {
                    w.state = WindowState::Purged;
                }
            }
            TraceKind::CleanedUp { key, window, unfired, .. } => {
                let sw = self.fold.state_of.remove(&(*key, *window)).unwrap_or(*window);
                self.fold.contents.remove(&(*key, sw));
                self.discard_pending(unfired);
                if let Some(&i) = self.fold.window_at.get(&(*key, *window)) {
                    self.end_window(i, WindowState::CleanedUp, ev.step);
                }
            }
            TraceKind::SideOutput { elem, .. } => {
                self.outputs += 1;
                self.set_outcome(*elem, ElementOutcome::SideOutput);
            }
            TraceKind::Dropped { elem, counted, .. } => {
                self.set_outcome(*elem, ElementOutcome::Dropped { counted: *counted });
            }
            TraceKind::Error { .. } | TraceKind::FunctionEmitted { .. } => self.outputs += 1,
            TraceKind::CheckpointTaken { .. } => {
                self.outputs += 1;
                let saved = Saved {
                    windows: self.windows.iter().map(|w| ((w.key, w.window), w.clone())).collect(),
                    timers: self.timers.iter().map(|t| ((t.domain, t.time, t.key, t.window), t.status)).collect(),
                    state_of: self.fold.state_of.clone(),
                    contents: self.fold.contents.clone(),
                };
                self.fold.checkpoints.push(saved);
            }
            TraceKind::Crashed { .. } => self.outputs += 1,
            TraceKind::Restored { checkpoint, .. } => {
                self.outputs += 1;
                self.restore(*checkpoint, ev.step);
            }
            TraceKind::WatermarkIgnored { .. }
            | TraceKind::CrashPassed { .. }
            | TraceKind::Replayed { .. }
            | TraceKind::TimersDueAtRestore { .. }
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

    /// The restarted job: the windows, timers and contents of checkpoint `n` (none: nothing),
    /// the watermark at `Long.MIN_VALUE`. A window alive at the crash that the checkpoint does not
    /// hold is gone (shown as ended at the crash step); a timer it does not hold is deleted.
    fn restore(&mut self, checkpoint: Option<u32>, step: usize) {
        let n = checkpoint.and_then(|n| usize::try_from(n).ok()).and_then(|n| n.checked_sub(1));
        let saved = n.and_then(|n| self.fold.checkpoints.get(n)).cloned().unwrap_or_default();
        for w in &mut self.windows {
            match saved.windows.get(&(w.key, w.window)) {
                Some(was) => *w = was.clone(),
                None if w.state.is_live() => {
                    w.state = WindowState::CleanedUp;
                    w.ended_step = Some(step);
                    w.contents = Vec::new();
                }
                None => {}
            }
        }
        for t in &mut self.timers {
            match saved.timers.get(&(t.domain, t.time, t.key, t.window)) {
                Some(status) => t.status = *status,
                None if t.status == TimerStatus::Registered => t.status = TimerStatus::Deleted,
                None => {}
            }
        }
        self.fold.state_of = saved.state_of;
        self.fold.contents = saved.contents;
        self.watermark = LONG_MIN;
        let fold = &mut self.fold;
        for (list, slot) in [(&mut fold.live, &mut fold.live_slot), (&mut fold.pending, &mut fold.pending_slot)] {
            list.clear();
            slot.clear();
        }
        if fold.track {
            for (i, w) in self.windows.iter().enumerate() {
                set_listed(&mut fold.live, &mut fold.live_slot, i, w.state.is_live());
            }
            for (i, t) in self.timers.iter().enumerate() {
                set_listed(&mut fold.pending, &mut fold.pending_slot, i, t.status == TimerStatus::Registered);
            }
        }
    }

    /// A firing: its elements are emitted (on time, unless only late firings carried them),
    /// and its window records the result.
    fn fired(&mut self, key: KeyId, window: Window, firing: &Firing) {
        for &e in &firing.elems {
            let outcome = match (firing.kind, self.outcome(e)) {
                (_, Some(ElementOutcome::OnTime)) => ElementOutcome::OnTime,
                (FiringKind::Late, _) => ElementOutcome::InLateFiring,
                _ => ElementOutcome::OnTime,
            };
            self.set_outcome(e, outcome);
        }
        if let Some(w) = self.window_mut(key, window) {
            w.firings += 1;
            w.last_result = Some((firing.sum, firing.count));
            w.state = if firing.kind == FiringKind::Late || w.state == WindowState::LateFired {
                WindowState::LateFired
            } else {
                WindowState::Fired
            };
        }
    }

    /// Elements removed (evicted, or cleaned up unfired) while still waiting are discarded.
    fn discard_pending(&mut self, elems: &[ElemIdx]) {
        for &e in elems {
            if self.outcome(e) == Some(ElementOutcome::Pending) {
                self.set_outcome(e, ElementOutcome::Discarded);
            }
        }
    }

    /// `MergingWindowSet` merged `merged` into `into`: their contents move to its state window,
    /// and the merged window inherits the most advanced state of what it absorbed.
    fn merge_sessions(&mut self, key: KeyId, merged: &[TimeWindow], into: TimeWindow, state: TimeWindow, step: usize) {
        let target = Window::Time(state);
        for m in merged {
            let fold = &mut self.fold;
            if let Some(old_state) = fold.state_of.remove(&(key, Window::Time(*m)))
                && old_state != target
                && let Some(elems) = fold.contents.remove(&(key, old_state))
            {
                fold.contents.entry((key, target)).or_default().extend(elems);
            }
        }
        self.fold.state_of.insert((key, Window::Time(into)), target);
        let mut view = WindowView::new(key, Window::Time(into), step);
        for m in merged {
            let Some(&i) = self.fold.window_at.get(&(key, Window::Time(*m))) else { continue };
            if let Some(old) = self.windows.get(i) {
                view.firings += old.firings;
                view.created_step = view.created_step.min(old.created_step);
                if old.last_result.is_some() {
                    view.last_result = old.last_result;
                }
                if rank(old.state) > rank(view.state) {
                    view.state = old.state;
                }
            }
            self.end_window(i, WindowState::Merged { into }, step);
        }
        self.put_window(view);
    }
}

impl WindowView {
    fn new(key: KeyId, window: Window, created_step: usize) -> WindowView {
        WindowView {
            key,
            window,
            state: WindowState::Open,
            contents: Vec::new(),
            last_result: None,
            firings: 0,
            created_step,
            ended_step: None,
        }
    }
}

/// Orders a view's windows by (key, window) and its timers by firing order, and attaches each
/// live window's contents from the fold's maps ([`StepView::settle`]).
fn settle_lists(windows: &mut [WindowView], timers: &mut [TimerView], fold: &Fold) {
    // Through the ranks' one sort ([`SettledOrder`]), the lists reordered in place: a copy beside
    // them was ≈ 15 MB more at the peak of a 100,000-element sliding run's first view (at the
    // install of each of its runs), and wasm memory never shrinks.
    let mut order = SettledOrder::default();
    order.cover(windows, timers);
    permute(windows, &order.windows);
    permute(timers, &order.timers);
    attach_contents(windows, fold);
}

/// Reorders `list` in place so that its item `i` is the one that was at `order[i]` (`order`: a
/// permutation of its places), cycle by cycle.
fn permute<T>(list: &mut [T], order: &[u32]) {
    let mut done = vec![false; list.len()];
    for start in 0..list.len() {
        let mut at = start;
        while !done[at] {
            done[at] = true;
            let from = order.get(at).map_or(start, |p| *p as usize);
            if from == start || from >= list.len() {
                break;
            }
            list.swap(at, from);
            at = from;
        }
    }
}

/// Each live window's contents, from the fold's maps (they are kept there while folding).
fn attach_contents(windows: &mut [WindowView], fold: &Fold) {
    for w in windows.iter_mut().filter(|w| w.state.is_live()) {
        let sw = fold.state_of.get(&(w.key, w.window)).copied().unwrap_or(w.window);
        w.contents = fold.contents.get(&(w.key, sw)).cloned().unwrap_or_default();
    }
}

/// The settled order of the windows and timers of one run's unsettled views (their places in
/// the lists, by (key, window) and by (domain, time, key, window): [`settle_lists`]' orders), for
/// every place up to the longest lists seen. A fold only appends to its lists (a window or a
/// timer met again is updated in place, a restore changes them in place), so a place holds the
/// same window or timer in every view of the run, at any step: a view's settled order is this
/// one's places that its lists have. For the views of one run only (`FoldCache`).
#[derive(Clone, Debug, Default)]
pub(crate) struct SettledOrder {
    windows: Vec<u32>,
    timers: Vec<u32>,
}

impl SettledOrder {
    /// Takes in the places of a view's lists not covered yet.
    fn cover(&mut self, windows: &[WindowView], timers: &[TimerView]) {
        let window = |p: usize| windows.get(p).map_or([u64::MAX; 5], |w| window_rank(w.key, w.window));
        merge_places(&mut self.windows, windows.len(), &window);
        let timer = |p: usize| timers.get(p).map_or([u64::MAX; 5], timer_rank);
        merge_places(&mut self.timers, timers.len(), &timer);
    }

    /// Copies of the lists (covered) in their settled order, each live window with its contents
    /// from the fold's maps.
    fn settled(&self, windows: &[WindowView], timers: &[TimerView], fold: &Fold) -> (Vec<WindowView>, Vec<TimerView>) {
        let mut shown: Vec<WindowView> =
            self.windows.iter().filter_map(|p| windows.get(*p as usize).cloned()).collect();
        attach_contents(&mut shown, fold);
        (shown, self.timers.iter().filter_map(|p| timers.get(*p as usize).copied()).collect())
    }
}

/// [`settle_lists`]' orders as one type of number, so that one sort and one merge serve both
/// lists (the page's main `.wasm` is at its size budget, scripts/test): a window's (key, window)
/// and a timer's (domain, time, key, window), field by field, each `i64` with its sign bit
/// flipped (so that it orders as a `u64`), a key beside its window's variant (`Global` first,
/// as `Window` orders).
type Rank = [u64; 5];

fn ordered(x: Millis) -> u64 {
    (x as u64) ^ (1 << 63)
}

fn window_rank(key: KeyId, window: Window) -> Rank {
    let (variant, start, end) = match window {
        Window::Global => (0, 0, 0),
        Window::Time(tw) => (1, ordered(tw.start), ordered(tw.end)),
    };
    [u64::from(key) << 1 | variant, start, end, 0, 0]
}

fn timer_rank(t: &TimerView) -> Rank {
    let [key_window, start, end, ..] = window_rank(t.key, t.window);
    [t.domain as u64, ordered(t.time), key_window, start, end]
}

/// Merges the places from `places.len()` up to `len` (if more) into `places`, in `rank` order
/// (each place's rank reckoned once: a sort through a lookup per comparison was slower than the
/// sort of the lists it replaces).
fn merge_places(places: &mut Vec<u32>, len: usize, rank: &dyn Fn(usize) -> Rank) {
    let covered = places.len();
    if len <= covered {
        return;
    }
    let mut fresh: Vec<(Rank, u32)> = (covered..len).map(|p| (rank(p), p as u32)).collect();
    fresh.sort_unstable();
    let mut merged = Vec::with_capacity(len);
    let mut fresh = fresh.into_iter().peekable();
    for &p in places.iter() {
        let r = rank(p as usize);
        while let Some((_, q)) = fresh.next_if(|(f, _)| *f < r) {
            merged.push(q);
        }
        merged.push(p);
    }
    merged.extend(fresh.map(|(_, q)| q));
    *places = merged;
}

/// Folds the trace of `run` up to (excluding) input step `step`, settled.
pub fn at_step(run: &Run, step: usize) -> StepView {
    let mut view = StepView::untracked(run);
    view.advance(run, step);
    view.step = step.min(run.steps);
    view.settle_to_show();
    view
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

    /// The ranks order windows and timers as their tuples do (`settle_lists` had sorted by the
    /// tuples): every pair, over extreme and random times, both window variants, both domains.
    #[test]
    fn ranks_order_as_the_tuples() {
        use proptest::prelude::*;
        let time = prop_oneof![Just(LONG_MIN), Just(Millis::MAX), Just(0), Just(-1), any::<Millis>(), -5i64..5];
        let window = prop_oneof![
            Just(Window::Global),
            (time.clone(), time.clone()).prop_map(|(start, end)| Window::Time(TimeWindow { start, end })),
        ];
        let key = prop_oneof![Just(0u32), Just(1), Just(u32::MAX), any::<u32>()];
        let domain = prop_oneof![Just(TimeDomain::EventTime), Just(TimeDomain::ProcessingTime)];
        let timer = (domain, time, key.clone(), window.clone());
        proptest!(|(a in (key.clone(), window.clone()), b in (key, window), ta in timer.clone(), tb in timer)| {
            prop_assert_eq!(window_rank(a.0, a.1).cmp(&window_rank(b.0, b.1)), a.cmp(&b));
            let view = |(domain, time, key, window): (TimeDomain, Millis, KeyId, Window)| TimerView {
                key, window, time, purpose: TimerPurpose::default(), status: TimerStatus::Registered, domain,
            };
            prop_assert_eq!(timer_rank(&view(ta)).cmp(&timer_rank(&view(tb))), ta.cmp(&tb));
        });
    }

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

    /// A view to show ([`at_step`], a fold cache's) carries none of the fold's maps, and folding
    /// on from it starts again from step 0: it ends where a fold from zero ends, for every
    /// assigner, with merging sessions, late elements and a purging trigger.
    #[test]
    fn views_to_show_hold_no_maps_and_fold_on_from_zero() {
        let input = (0..60)
            .map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 3, (i * 7_919) % 9_000))
            .collect::<Vec<_>>()
            .join(",");
        for assigner in [
            r#"{"kind": "tumbling", "size": 2000}"#,
            r#"{"kind": "sliding", "size": 3000, "slide": 1000}"#,
            r#"{"kind": "session", "gap": 400}"#,
        ] {
            let r = run(&scenario(&format!(
                r#"{{"assigner": {assigner}, "allowed_lateness": 500, "side_output": true,
                    "watermarks": {{"kind": "bounded_out_of_orderness", "bound": 1000}}, "input": [{input}]}}"#
            )));
            for (from, to) in [(0, 20), (10, 40), (30, r.steps)] {
                let mut view = at_step(&r, from);
                let fold = &view.fold;
                assert!(fold.shed && fold.window_at.is_empty() && fold.timer_at.is_empty() && fold.contents.is_empty());
                view.advance(&r, to);
                view.settle();
                assert_eq!(view, at_step(&r, to), "{assigner}: from {from} on to {to}");
            }
        }
    }
}
