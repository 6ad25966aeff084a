//! Flink's `WindowOperator` (and `EvictingWindowOperator`) for one parallel instance: the
//! operator loop over keyed window state, the trigger, the evictor, the merging window set and
//! the event-time and processing-time timer services, with Flink's exact order of operations.
//! Every method names the Flink method it mirrors; subtle rules carry a "why" comment with the
//! behaviour they reproduce.
//!
//! The parts live beside it: `config.rs` (what Flink builds and checks before the job runs),
//! `assigner.rs` (which windows), `trigger.rs` (the triggers and their context), `evictor.rs`,
//! `key_state.rs` (per-key window state), `merging.rs` (the merging window set) and `timers.rs`
//! (the timer queues). Here: the operator loop, `processElement`, `processWatermark`,
//! `onEventTime` / `onProcessingTime`, `emitWindowContents` and `clearAllState`; `context.rs`
//! beside it is the trigger context over the operator's timers and state.

use crate::engine::assigner::assign_windows;
pub use crate::engine::config::{OperatorConfig, validate};
use crate::engine::evictor::evict;
use crate::engine::key_state::KeyState;
use crate::engine::merging::{MergeScratch, WindowMeta};
use crate::engine::output::{Firing, FlinkError, Output};
use crate::engine::recorder::Recorder;
use crate::engine::recovery::{KeyedSnapshot, Snapshots};
use crate::engine::scenario::WindowFunctionSpec;
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis, TimeWindow, Window};
pub use crate::engine::timers::{TimerKey, TimerQueue};
use crate::engine::trace::{ElemIdx, FireCause, FiringKind, KeyId, TimeDomain, TimerPurpose, TraceKind};

mod context;
mod snapshot;

/// Records a trace event only when the trace is on: a run without a trace (throughput benchmarks,
/// batch checks) never builds the payloads, some of which allocate.
macro_rules! record {
    ($rec:expr, $kind:expr) => {
        if $rec.enabled {
            $rec.push($kind)
        }
    };
}

/// An element as the operator stores it.
#[derive(Clone, Copy, Debug)]
pub struct ElementRec {
    pub id: i64,
    pub key: KeyId,
    pub ts: Millis,
    pub value: i64,
}

/// Counters a run reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OperatorStats {
    /// Element-window assignments made by the assigner.
    pub assignments: u64,
    /// Flink's `numLateRecordsDropped` metric.
    pub late_records_dropped: u64,
    pub side_output: u64,
    pub silently_dropped: u64,
    pub firings: u64,
    pub timers_fired: u64,
}

pub struct WindowOperator {
    cfg: OperatorConfig,
    watermark: Millis,
    keys: Vec<KeyState>,
    timers: TimerQueue,
    /// Processing-time timers, fired by [`WindowOperator::advance_processing_time`].
    processing_timers: TimerQueue,
    processing_time: Millis,
    elements: Vec<ElementRec>,
    /// Scratch buffer for the assigner's windows of the current element.
    assigned: Vec<Window>,
    /// Scratch buffers of `MergingWindowSet::add_window`: the merged windows and their state
    /// windows.
    merge_scratch: MergeScratch,
    /// Whether an element was ever handed to the window function.
    emitted: Vec<bool>,
    /// Emptied window-content vectors, reused for new windows: a session run creates and drops
    /// a window every few elements, and each saved an allocation, its growth and a free.
    spare_contents: Vec<Vec<ElemIdx>>,
    /// Completed checkpoints (issue 17): the keyed state and timers, numbered from 1.
    checkpoints: Snapshots<KeyedSnapshot<KeyState, TimerQueue>>,
    pub rec: Recorder,
    pub stats: OperatorStats,
}

type Flink<T> = Result<T, FlinkError>;

/// Timers one watermark advance may fire before Tidemark gives up (see `process_watermark`).
pub const MAX_TIMERS_PER_ADVANCE: u64 = 200_000;

impl WindowOperator {
    pub fn new(cfg: OperatorConfig, trace: bool) -> Self {
        WindowOperator {
            cfg,
            watermark: LONG_MIN,
            keys: Vec::new(),
            timers: TimerQueue::default(),
            processing_timers: TimerQueue::default(),
            processing_time: 0,
            elements: Vec::new(),
            assigned: Vec::new(),
            merge_scratch: MergeScratch::default(),
            emitted: Vec::new(),
            spare_contents: Vec::new(),
            checkpoints: Snapshots::default(),
            rec: Recorder { enabled: trace, ..Recorder::default() },
            stats: OperatorStats::default(),
        }
    }

    pub fn config(&self) -> &OperatorConfig {
        &self.cfg
    }

    /// `internalTimerService.currentWatermark()`.
    pub fn current_watermark(&self) -> Millis {
        self.watermark
    }

    pub fn pending_timers(&self) -> impl Iterator<Item = (&TimerKey, &TimerPurpose)> {
        self.timers.iter()
    }

    pub fn element(&self, elem: ElemIdx) -> ElementRec {
        self.elements[elem as usize]
    }

    fn is_merging(&self) -> bool {
        self.cfg.assigner.is_merging()
    }

    /// The current processing time (the arrival clock).
    pub fn current_processing_time(&self) -> Millis {
        self.processing_time
    }

    fn is_event_time(&self) -> bool {
        self.cfg.assigner.is_event_time()
    }

    fn domain(&self) -> TimeDomain {
        if self.is_event_time() { TimeDomain::EventTime } else { TimeDomain::ProcessingTime }
    }

    /// The current time of the assigner's domain: the watermark, or the processing time.
    fn domain_now(&self) -> Millis {
        if self.is_event_time() { self.watermark } else { self.processing_time }
    }

    /// `WindowOperator.cleanupTime`: `max_timestamp + allowed_lateness`, saturating at
    /// `Long.MAX_VALUE` when the addition overflows (then the window is never cleaned). For
    /// processing-time windows it is `max_timestamp`: lateness does not apply.
    pub fn cleanup_time(&self, window: &Window) -> Millis {
        let max_ts = window.max_timestamp();
        if !self.is_event_time() {
            return max_ts;
        }
        let cleanup = max_ts.wrapping_add(self.cfg.allowed_lateness);
        if cleanup >= max_ts { cleanup } else { LONG_MAX }
    }

    /// `isWindowLate`: the window's cleanup time is not after the watermark.
    pub fn is_window_late(&self, window: &Window) -> bool {
        self.is_event_time() && self.cleanup_time(window) <= self.watermark
    }

    /// `isElementLate`: `ts + allowed_lateness <= watermark` (Java arithmetic: it wraps).
    pub fn is_element_late(&self, ts: Millis) -> bool {
        self.is_event_time() && ts.wrapping_add(self.cfg.allowed_lateness) <= self.watermark
    }

    fn key_state(&mut self, key: KeyId) -> &mut KeyState {
        let idx = key as usize;
        if self.keys.len() <= idx {
            self.keys.resize_with(idx + 1, KeyState::default);
        }
        &mut self.keys[idx]
    }

    // ------------------------------------------------------------------ timers
    fn timers_of(&mut self, domain: TimeDomain) -> &mut TimerQueue {
        match domain {
            TimeDomain::EventTime => &mut self.timers,
            TimeDomain::ProcessingTime => &mut self.processing_timers,
        }
    }

    /// `registerEventTimeTimer` / `registerProcessingTimeTimer`.
    fn register_timer_in(
        &mut self,
        domain: TimeDomain,
        key: KeyId,
        window: Window,
        time: Millis,
        purpose: TimerPurpose,
    ) {
        if self.timers_of(domain).register(TimerKey { time, key, window }, purpose) {
            record!(self.rec, TraceKind::TimerRegistered { key, window, time, purpose, domain });
        }
    }
    fn delete_timer_in(&mut self, domain: TimeDomain, key: KeyId, window: Window, time: Millis) {
        if let Some(purpose) = self.timers_of(domain).delete(&TimerKey { time, key, window }) {
            record!(self.rec, TraceKind::TimerDeleted { key, window, time, purpose, domain });
        }
    }

    /// `registerCleanupTimer`: no timer when the cleanup time saturated at `Long.MAX_VALUE`.
    fn register_cleanup_timer(&mut self, key: KeyId, window: Window) {
        let cleanup = self.cleanup_time(&window);
        if cleanup != LONG_MAX {
            self.register_timer_in(self.domain(), key, window, cleanup, TimerPurpose::CLEANUP);
        }
    }

    fn delete_cleanup_timer(&mut self, key: KeyId, window: Window) {
        let cleanup = self.cleanup_time(&window);
        if cleanup != LONG_MAX {
            self.delete_timer_in(self.domain(), key, window, cleanup);
        }
    }

    /// `emitWindowContents` (with `EvictingWindowOperator`'s eviction around the function).
    fn emit_window_contents(
        &mut self,
        key: KeyId,
        window: Window,
        state_window: Window,
        cause: FireCause,
        purge: bool,
    ) {
        let Some(stored) = self.keys.get(key as usize).and_then(|ks| ks.contents.get(&state_window)) else {
            return;
        };
        let mut contents = stored.clone();
        let evicted_before = evict(self.cfg.evictor, &mut contents, |e| self.rec_of(e), false);
        if !evicted_before.is_empty() {
            record!(self.rec, TraceKind::Evicted { key, window, elems: evicted_before, after_function: false });
        }
        let mut ids = Vec::with_capacity(contents.len());
        let mut sum: i64 = 0;
        for &e in &contents {
            let rec = self.elements[e as usize];
            ids.push(rec.id);
            sum = sum.wrapping_add(rec.value);
            self.emitted[e as usize] = true;
        }
        ids.sort_unstable();
        let merging = self.is_merging();
        let n = self.key_state(key).next_firing(merging, window);
        let watermark = self.watermark;
        // Early: before the window's end in its time domain. A timer firing counts at its own
        // time, so the interval timers of a continuous trigger that a watermark jump fires
        // late are still early firings.
        let at = match cause {
            FireCause::Timer { time } | FireCause::ProcessingTimer { time } => time,
            FireCause::Element { .. } => self.domain_now(),
        };
        let kind = if at < window.max_timestamp() {
            FiringKind::Early
        } else {
            let ks = self.key_state(key);
            // A window fires only while it is live (in-flight, for sessions); the entry is
            // made here for a non-merging window that somehow is not, as before.
            let meta = match ks.meta_mut(merging, window) {
                Some(meta) => meta,
                None if merging => &mut WindowMeta::default(),
                None => ks.live.entry(window).or_default(),
            };
            if meta.had_on_time_firing {
                FiringKind::Late
            } else {
                meta.had_on_time_firing = true;
                FiringKind::Main
            }
        };
        let output = self.rec.outputs.len();
        let count = contents.len() as u64;
        // `aggregate(agg, pwf)`: the accumulator folds the window's elements in the order its
        // `add` / `merge` calls saw them (= the contents' order), or, with an evictor,
        // `EvictingWindowOperator` runs the aggregate over what the evictor left.
        let result = match self.cfg.function {
            WindowFunctionSpec::Aggregate(agg) => {
                Some(agg.result(contents.iter().map(|&e| self.elements[e as usize].value)))
            }
            _ => None,
        };
        self.rec.outputs.push(Output::Fire(Firing {
            key,
            window,
            ids,
            elems: if self.cfg.evictor.is_some() { contents.clone() } else { std::mem::take(&mut contents) },
            sum,
            count,
            n,
            kind,
            watermark,
            cause,
            purge,
            step: self.rec.step,
            result,
        }));
        self.stats.firings += 1;
        record!(self.rec, TraceKind::Fired { key, window, output });
        if self.cfg.evictor.is_some() {
            let evicted_after = evict(self.cfg.evictor, &mut contents, |e| self.rec_of(e), true);
            if !evicted_after.is_empty() {
                record!(self.rec, TraceKind::Evicted { key, window, elems: evicted_after, after_function: true });
            }
            // FLINK-4369 workaround: clear the list state and re-add what the evictor kept.
            let ks = self.key_state(key);
            if contents.is_empty() {
                ks.contents.remove(&state_window);
            } else {
                ks.contents.insert(state_window, contents);
            }
        }
    }

    /// Keeps an emptied contents vector for the next window (a bounded number of them).
    fn recycle(&mut self, mut contents: Vec<ElemIdx>) {
        if contents.capacity() > 0 && self.spare_contents.len() < 1_024 {
            contents.clear();
            self.spare_contents.push(contents);
        }
    }

    /// An element's (timestamp, value), what the evictors read.
    fn rec_of(&self, e: ElemIdx) -> (Millis, i64) {
        let rec = self.elements[e as usize];
        (rec.ts, rec.value)
    }

    fn has_contents(&self, key: KeyId, state_window: Window) -> bool {
        self.keys.get(key as usize).is_some_and(|ks| ks.contents.get(&state_window).is_some_and(|c| !c.is_empty()))
    }

    /// `windowState.clear()` after a PURGE.
    fn purge(&mut self, key: KeyId, window: Window, state_window: Window) {
        if let Some(elems) = self.key_state(key).contents.remove(&state_window) {
            if self.rec.enabled {
                self.rec.push(TraceKind::Purged { key, window, elems });
            } else {
                self.recycle(elems);
            }
        }
    }

    /// `clearAllState`: contents, trigger state, the function's per-window state, and (for
    /// sessions) the window's place in the merging window set.
    fn clear_all_state(&mut self, key: KeyId, window: Window, state_window: Window, time: Millis) {
        let elems = self.key_state(key).contents.remove(&state_window).unwrap_or_default();
        let (trigger, merging) = (self.cfg.trigger, self.is_merging());
        trigger.clear(window, &mut self.ctx(key, window));
        self.key_state(key).clear_firings(merging, window);
        let was_live = match window {
            Window::Time(tw) if merging => self.key_state(key).windows.retire_window(&tw).is_some(),
            _ => self.key_state(key).live.remove(&window).is_some(),
        };
        if was_live && self.rec.enabled {
            let unfired = elems.iter().copied().filter(|&e| !self.emitted[e as usize]).collect();
            self.rec.push(TraceKind::CleanedUp { key, window, time, elems, unfired });
        } else {
            self.recycle(elems);
        }
    }

    /// Adds the element to the window's state. `created`: the window was not live before
    /// (merging assigners know it from `add_window`; the others look it up here).
    fn add_to_window(
        &mut self,
        elem: ElemIdx,
        key: KeyId,
        window: Window,
        state_window: Window,
        created: Option<bool>,
    ) {
        let id = self.elements[elem as usize].id;
        self.key_state(key); // makes sure the key's state exists
        // Borrowed field by field: the key's state and the spare vectors at once.
        let (ks, spare) = (&mut self.keys[key as usize], &mut self.spare_contents);
        let created = created.unwrap_or_else(|| ks.make_live(window));
        ks.contents.entry(state_window).or_insert_with(|| spare.pop().unwrap_or_default()).push(elem);
        if created {
            record!(self.rec, TraceKind::WindowCreated { key, window });
        }
        record!(self.rec, TraceKind::ElementAdded { elem, id, key, window, state_window });
    }

    // ------------------------------------------------------------------ merging

    /// `MergingWindowSet.addWindow` with the operator's `MergeFunction`. Returns the window the
    /// element now belongs to (the merge result, or the new window itself), its state window,
    /// and whether that window is newly in flight.
    fn add_window(&mut self, key: KeyId, new_window: TimeWindow) -> Flink<(TimeWindow, TimeWindow, bool)> {
        // Scratch buffers taken for this call and put back at the end (an error ends the run).
        let mut scratch = std::mem::take(&mut self.merge_scratch);
        let added = self.key_state(key).windows.add_window(new_window, &mut scratch)?;
        if let Some(merge) = added.merge
            && merge.callback
        {
            self.merge_function(
                key,
                new_window,
                merge.into,
                &scratch.merged,
                merge.state_window,
                &scratch.merged_state,
            )?;
        }
        self.merge_scratch = scratch;
        Ok((added.window, added.state_window, added.created))
    }

    /// The `MergeFunction` in `WindowOperator.processElement`.
    fn merge_function(
        &mut self,
        key: KeyId,
        new_window: TimeWindow,
        merge_result: TimeWindow,
        merged_windows: &[TimeWindow],
        state_window_result: TimeWindow,
        merged_state_windows: &[TimeWindow],
    ) -> Flink<()> {
        // Why plain addition: Flink checks `maxTimestamp() + allowedLateness <= watermark`
        // without the overflow guard of cleanupTime, so allowedLateness(Long.MAX_VALUE) on
        // sessions fails here (the sum wraps negative).
        if merge_result.max_timestamp().wrapping_add(self.cfg.allowed_lateness) <= self.watermark {
            return Err(FlinkError::run(
                "java.lang.UnsupportedOperationException",
                &format!(
                    "The end timestamp of an event-time window cannot become earlier than the current watermark by merging. Current watermark: {} window: TimeWindow{{start={}, end={}}}",
                    self.watermark, merge_result.start, merge_result.end
                ),
            ));
        }
        record!(
            self.rec,
            TraceKind::SessionsMerged {
                key,
                new_window,
                merged: merged_windows.to_vec(),
                into: merge_result,
                state_window: state_window_result,
            }
        );
        let trigger = self.cfg.trigger;
        let result = Window::Time(merge_result);
        trigger.on_merge(result, merged_windows, &mut self.ctx(key, result));
        for m in merged_windows {
            let merged = Window::Time(*m);
            trigger.clear(merged, &mut self.ctx(key, merged));
            self.delete_cleanup_timer(key, merged);
        }
        // `windowMergingState.mergeNamespaces(target, sources)`: the target's list first, then
        // each source's list appended in order.
        let target = Window::Time(state_window_result);
        for source in merged_state_windows {
            let ks = self.key_state(key);
            if let Some(elems) = ks.contents.remove(&Window::Time(*source)) {
                ks.contents.entry(target).or_default().extend_from_slice(&elems);
                self.recycle(elems);
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------ entry points

    /// Room for `n` elements up front (a run knows its input length).
    pub fn reserve_elements(&mut self, n: usize) {
        self.elements.reserve(n);
        self.emitted.reserve(n);
    }

    /// Registers an element that will be processed; returns its index.
    pub fn push_element(&mut self, rec: ElementRec) -> ElemIdx {
        self.elements.push(rec);
        self.emitted.push(false);
        (self.elements.len() - 1) as ElemIdx
    }

    /// `WindowOperator.processElement`.
    pub fn process_element(&mut self, elem: ElemIdx, key_name: &str) -> Flink<()> {
        let e = self.elements[elem as usize];
        let key = e.key;
        record!(self.rec, TraceKind::ElementArrived { elem, id: e.id, key, ts: e.ts, value: e.value });
        // One buffer for every element's windows (taken here, put back at the end; an error
        // ends the run, so losing it there costs nothing).
        let mut element_windows = std::mem::take(&mut self.assigned);
        assign_windows(&self.cfg.assigner, key_name, e.ts, self.processing_time, &mut element_windows)?;
        self.stats.assignments += element_windows.len() as u64;
        record!(self.rec, TraceKind::WindowsAssigned { elem, key, windows: element_windows.clone() });
        // "if element is handled by none of assigned elementWindows"
        let mut is_skipped_element = true;
        for &window in &element_windows {
            let (actual, state_window, created) = if self.is_merging() {
                let Window::Time(tw) = window else { continue };
                let (actual, state, created) = self.add_window(key, tw)?;
                let actual_window = Window::Time(actual);
                if self.is_window_late(&actual_window) {
                    self.key_state(key).windows.retire_window(&actual);
                    self.push_window_late(elem, key, actual_window);
                    continue;
                }
                (actual_window, Window::Time(state), Some(created))
            } else {
                if self.is_window_late(&window) {
                    self.push_window_late(elem, key, window);
                    continue;
                }
                (window, window, None)
            };
            is_skipped_element = false;
            self.add_to_window(elem, key, actual, state_window, created);
            let trigger = self.cfg.trigger;
            let r = trigger.on_element(e.ts, actual, &mut self.ctx(key, actual))?;
            if r.fire {
                if !self.has_contents(key, state_window) {
                    // Flink `continue`s here, skipping the cleanup timer registration.
                    continue;
                }
                self.emit_window_contents(key, actual, state_window, FireCause::Element { id: e.id }, r.purge);
            }
            if r.purge {
                self.purge(key, actual, state_window);
            }
            self.register_cleanup_timer(key, actual);
        }
        // Side output only if no window took the element *and* the element itself is late.
        if is_skipped_element {
            if self.is_element_late(e.ts) {
                if self.cfg.side_output {
                    self.stats.side_output += 1;
                    self.rec.outputs.push(Output::Late { elem, id: e.id, key, ts: e.ts, step: self.rec.step });
                    record!(self.rec, TraceKind::SideOutput { elem, id: e.id, key, ts: e.ts });
                } else {
                    self.stats.late_records_dropped += 1;
                    record!(self.rec, TraceKind::Dropped { elem, id: e.id, key, ts: e.ts, counted: true });
                }
            } else {
                self.stats.silently_dropped += 1;
                record!(self.rec, TraceKind::Dropped { elem, id: e.id, key, ts: e.ts, counted: false });
            }
        }
        self.assigned = element_windows;
        Ok(())
    }

    fn push_window_late(&mut self, elem: ElemIdx, key: KeyId, window: Window) {
        if self.rec.enabled {
            let e = self.elements[elem as usize];
            let cleanup_time = self.cleanup_time(&window);
            record!(
                self.rec,
                TraceKind::WindowLate { elem, id: e.id, key, window, cleanup_time, watermark: self.watermark }
            );
        }
    }

    /// `processWatermark` → `InternalTimerService.advanceWatermark`: set the watermark, then fire
    /// every timer with `time <= watermark` in timestamp order, including timers registered
    /// while this advance runs.
    pub fn process_watermark(&mut self, watermark: Millis) -> Flink<()> {
        debug_assert!(watermark > self.watermark, "the watermark emitter forwards only increasing watermarks");
        record!(self.rec, TraceKind::WatermarkAdvanced { from: self.watermark, to: watermark });
        self.watermark = watermark;
        self.fire_due(TimeDomain::EventTime, watermark)
    }

    /// Fires every timer of `domain` with `time <= until`, in (time, key, window) order,
    /// including timers registered while this runs (`InternalTimerServiceImpl.advanceWatermark`
    /// / `onProcessingTime`).
    fn fire_due(&mut self, domain: TimeDomain, until: Millis) -> Flink<()> {
        let mut fired: u64 = 0;
        while let Some((timer, purpose)) = self.timers_of(domain).pop_due(until) {
            fired += 1;
            if fired > MAX_TIMERS_PER_ADVANCE {
                // Real Flink would keep going (a continuous trigger on a global window re-arms a
                // timer every interval up to Long.MAX_VALUE): it never finishes. Stop with a reason.
                return Err(FlinkError::limit(&format!(
                    "more than {MAX_TIMERS_PER_ADVANCE} timers fired at once (up to {until}); \
                     Flink would keep firing for a very long time, so Tidemark stops here"
                )));
            }
            self.stats.timers_fired += 1;
            self.on_timer(timer, purpose, domain);
        }
        Ok(())
    }

    /// Processing time moves to `now` (never back): every processing-time timer with
    /// `time <= now` fires, in time order (`InternalTimerServiceImpl.onProcessingTime`).
    pub fn advance_processing_time(&mut self, now: Millis) -> Flink<()> {
        if now <= self.processing_time {
            return Ok(());
        }
        self.processing_time = now;
        // Event-time jobs have no processing-time timers, and the clock moves with every element.
        if self.processing_timers.is_empty() {
            return Ok(());
        }
        self.fire_due(TimeDomain::ProcessingTime, now)
    }

    /// Processing-time timers still pending: a bounded job ends without firing them.
    pub fn pending_processing_timers(&self) -> usize {
        self.processing_timers.len()
    }

    /// `WindowOperator.onEventTime` / `onProcessingTime`: the two differ only in the trigger
    /// callback and in which assigners clean up on them.
    fn on_timer(&mut self, timer: TimerKey, purpose: TimerPurpose, domain: TimeDomain) {
        let TimerKey { time, key, window } = timer;
        let state_window = if self.is_merging() {
            let Window::Time(tw) = window else { return };
            match self.key_state(key).windows.get(&tw) {
                Some(f) => Window::Time(f.state),
                None => {
                    // "Timer firing for non-existent window, this can only happen if a trigger
                    // did not clean up timers." Nothing to do.
                    record!(self.rec, TraceKind::TimerFired { key, window, time, purpose, stale: true, domain });
                    return;
                }
            }
        } else {
            window
        };
        if self.rec.enabled {
            let merging = self.is_merging();
            let stale = !self.key_state(key).is_live(merging, window);
            self.rec.push(TraceKind::TimerFired { key, window, time, purpose, stale, domain });
        }
        let trigger = self.cfg.trigger;
        let (r, cause) = match domain {
            TimeDomain::EventTime => {
                (trigger.on_event_time(time, window, &mut self.ctx(key, window)), FireCause::Timer { time })
            }
            TimeDomain::ProcessingTime => (trigger.on_processing_time(), FireCause::ProcessingTimer { time }),
        };
        if r.fire && self.has_contents(key, state_window) {
            self.emit_window_contents(key, window, state_window, cause, r.purge);
        }
        if r.purge {
            self.purge(key, window, state_window);
        }
        // Event-time windows clean up on event-time timers, processing-time ones on
        // processing-time timers (`windowAssigner.isEventTime() && isCleanupTime(..)`).
        if (domain == self.domain()) && time == self.cleanup_time(&window) {
            self.clear_all_state(key, window, state_window, time);
        }
    }

    /// What is alive now, for state accounting: (key, window, stored elements), by key then window.
    pub fn live_windows(&self) -> Vec<(KeyId, Window, usize)> {
        let mut live: Vec<(KeyId, Window, usize)> = self
            .keys
            .iter()
            .enumerate()
            .flat_map(move |(k, ks)| {
                let in_flight = ks
                    .windows
                    .iter()
                    .map(move |(w, f)| (k as KeyId, Window::Time(*w), ks.stored(&Window::Time(f.state))));
                let live = ks.live.keys().map(move |w| (k as KeyId, *w, ks.stored(w)));
                in_flight.chain(live)
            })
            .collect();
        live.sort_unstable_by_key(|&(k, w, _)| (k, w));
        live
    }
}
