//! Flink's triggers and the context they run in: `EventTimeTrigger`, `CountTrigger`,
//! `ContinuousEventTimeTrigger`, `ProcessingTimeTrigger`, `GlobalWindows`' `NeverTrigger` and
//! `EndOfStreamTrigger`, each optionally wrapped in `PurgingTrigger`.
//!
//! A trigger sees one window at a time through a [`TriggerContext`] (Flink's
//! `Trigger.TriggerContext` and `OnMergeContext`): the two clocks, the window's timers and its
//! partitioned trigger state. The operator implements the context over its timer services and
//! keyed state (`operator.rs`); the tests below implement it over a bare timer queue, as Flink's
//! `TriggerTestHarness` does, and check after every element or watermark the result and the
//! timers left registered.

use super::output::FlinkError;
use super::time::{Millis, TimeWindow, Window};

/// `TriggerResult`: CONTINUE, FIRE, PURGE or FIRE_AND_PURGE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TriggerResult {
    pub fire: bool,
    pub purge: bool,
}

impl TriggerResult {
    pub const CONTINUE: TriggerResult = TriggerResult { fire: false, purge: false };
    pub const FIRE: TriggerResult = TriggerResult { fire: true, purge: false };
    pub const FIRE_AND_PURGE: TriggerResult = TriggerResult { fire: true, purge: true };
}

/// The trigger after resolving the assigner's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerKind {
    /// `EventTimeTrigger`: timer at `max_timestamp`, FIRE when it fires; FIRE at once for an
    /// element whose window's `max_timestamp <= watermark`.
    EventTime,
    /// `GlobalWindows.NeverTrigger`.
    Never,
    /// `GlobalWindows.EndOfStreamTrigger`: a timer at `Long.MAX_VALUE`.
    EndOfStream,
    /// `CountTrigger.of(n)`.
    Count(i64),
    /// `ContinuousEventTimeTrigger.of(interval)`.
    ContinuousEventTime(Millis),
    /// `ProcessingTimeTrigger`: the default of processing-time assigners.
    ProcessingTime,
    /// The course's `EarlyCountEventTimeTrigger(n)` ("every N elements, then at the
    /// watermark"): `CountTrigger`'s counting and `EventTimeTrigger`'s end timer in one class.
    EarlyCount(i64),
    /// The course's `SessionMaxDurationTrigger(max_duration)`: `EventTimeTrigger` plus a cap
    /// timer at `start + max_duration - 1` that fires and purges.
    SessionMaxDuration(Millis),
}

/// The trigger's partitioned state for one window (`ReducingState`s in Flink).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TriggerState {
    /// `CountTrigger`'s "count".
    pub count: Option<i64>,
    /// `ContinuousEventTimeTrigger`'s "fire-time".
    pub fire_time: Option<Millis>,
}

impl TriggerState {
    /// `ReducingState` merging (`mergeNamespaces`): counts add up (`Sum`, Java's wrapping
    /// addition), fire times keep the earliest (`Min`).
    pub fn merge(self, other: TriggerState) -> TriggerState {
        TriggerState {
            count: match (self.count, other.count) {
                (Some(a), Some(b)) => Some(a.wrapping_add(b)),
                (a, b) => a.or(b),
            },
            fire_time: match (self.fire_time, other.fire_time) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        }
    }
}

/// `Trigger.TriggerContext` (with `OnMergeContext`) for the key and window a trigger is called
/// for: timers registered or deleted here belong to that window.
pub trait TriggerContext {
    fn current_watermark(&self) -> Millis;
    fn current_processing_time(&self) -> Millis;
    /// `registerEventTimeTimer`: at most one timer per (key, window, time).
    fn register_event_time_timer(&mut self, time: Millis);
    /// `deleteEventTimeTimer`: needs the exact time; no timer, no effect.
    fn delete_event_time_timer(&mut self, time: Millis);
    fn register_processing_time_timer(&mut self, time: Millis);
    fn delete_processing_time_timer(&mut self, time: Millis);
    /// `getPartitionedState`: the window's trigger state, empty until first written.
    fn state(&mut self) -> &mut TriggerState;
    /// `state.clear()`: what the window's trigger state held, gone now.
    fn clear_state(&mut self) -> Option<TriggerState>;
    /// `OnMergeContext.mergePartitionedState`: the merged windows' state folds into this
    /// window's ([`TriggerState::merge`]) and leaves them; returns the result.
    fn merge_partitioned_state(&mut self, merged: &[TimeWindow]) -> TriggerState;
}

/// The operator's trigger: Flink's trigger class, and whether `PurgingTrigger` wraps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trigger {
    pub kind: TriggerKind,
    /// `PurgingTrigger.of(..)`: every FIRE becomes FIRE_AND_PURGE.
    pub purging: bool,
}

impl Trigger {
    pub fn new(kind: TriggerKind) -> Self {
        Trigger { kind, purging: false }
    }

    pub fn purging(kind: TriggerKind) -> Self {
        Trigger { kind, purging: true }
    }

    /// `PurgingTrigger`: `r.isFire() ? FIRE_AND_PURGE : r`.
    fn wrap(&self, r: TriggerResult) -> TriggerResult {
        if self.purging && r.fire { TriggerResult::FIRE_AND_PURGE } else { r }
    }

    /// `Trigger.onElement`.
    pub fn on_element(
        &self,
        ts: Millis,
        window: Window,
        ctx: &mut impl TriggerContext,
    ) -> Result<TriggerResult, FlinkError> {
        // `EventTimeTrigger` and `ProcessingTimeTrigger` are `Trigger<Object, TimeWindow>`: on a
        // `GlobalWindow` the JVM's cast fails at the first element
        // (`global_event_time_trigger_class_cast`, recorded with real Flink).
        if window == Window::Global
            && matches!(
                self.kind,
                TriggerKind::EventTime
                    | TriggerKind::ProcessingTime
                    | TriggerKind::EarlyCount(_)
                    | TriggerKind::SessionMaxDuration(_)
            )
        {
            return Err(FlinkError::run(
                "java.lang.ClassCastException",
                "class org.apache.flink.streaming.api.windowing.windows.GlobalWindow cannot be cast to class org.apache.flink.streaming.api.windowing.windows.TimeWindow (org.apache.flink.streaming.api.windowing.windows.GlobalWindow and org.apache.flink.streaming.api.windowing.windows.TimeWindow are in unnamed module of loader 'app')",
            ));
        }
        let max_ts = window.max_timestamp();
        let r = match self.kind {
            TriggerKind::EventTime => {
                if max_ts <= ctx.current_watermark() {
                    // Late but not too late: fire at once (a late firing).
                    TriggerResult::FIRE
                } else {
                    ctx.register_event_time_timer(max_ts);
                    TriggerResult::CONTINUE
                }
            }
            TriggerKind::Never => TriggerResult::CONTINUE,
            TriggerKind::EndOfStream => {
                ctx.register_event_time_timer(max_ts);
                TriggerResult::CONTINUE
            }
            TriggerKind::Count(n) => count_element(n, ctx),
            TriggerKind::ContinuousEventTime(interval) => {
                if max_ts <= ctx.current_watermark() {
                    // "if the watermark is already past the window fire immediately"
                    return Ok(self.wrap(TriggerResult::FIRE));
                }
                ctx.register_event_time_timer(max_ts);
                if ctx.state().fire_time.is_none() {
                    if interval == 0 {
                        return Err(FlinkError::run("java.lang.ArithmeticException", "/ by zero"));
                    }
                    // Epoch-aligned, not window-aligned: `timestamp - (timestamp % interval)`.
                    let start = ts.wrapping_sub(ts.wrapping_rem(interval));
                    register_next_fire_timestamp(start, window, interval, ctx);
                }
                TriggerResult::CONTINUE
            }
            TriggerKind::ProcessingTime => {
                ctx.register_processing_time_timer(max_ts);
                TriggerResult::CONTINUE
            }
            TriggerKind::EarlyCount(n) => {
                if max_ts <= ctx.current_watermark() {
                    // A late element kept by allowed lateness: FIRE, the count is not touched.
                    TriggerResult::FIRE
                } else {
                    ctx.register_event_time_timer(max_ts);
                    count_element(n, ctx)
                }
            }
            TriggerKind::SessionMaxDuration(d) => {
                let wm = ctx.current_watermark();
                let cap = session_cap(window, d);
                if max_ts <= wm {
                    TriggerResult::FIRE
                } else if cap.is_some_and(|c| c <= wm) {
                    // The session outgrew its maximum duration earlier: fire and purge at once.
                    TriggerResult::FIRE_AND_PURGE
                } else {
                    ctx.register_event_time_timer(max_ts);
                    if let Some(c) = cap {
                        ctx.register_event_time_timer(c);
                    }
                    TriggerResult::CONTINUE
                }
            }
        };
        Ok(self.wrap(r))
    }

    /// `Trigger.onEventTime`.
    pub fn on_event_time(&self, time: Millis, window: Window, ctx: &mut impl TriggerContext) -> TriggerResult {
        let r = match self.kind {
            TriggerKind::SessionMaxDuration(d) if session_cap(window, d) == Some(time) => TriggerResult::FIRE_AND_PURGE,
            TriggerKind::EventTime
            | TriggerKind::EndOfStream
            | TriggerKind::EarlyCount(_)
            | TriggerKind::SessionMaxDuration(_) => {
                if time == window.max_timestamp() {
                    TriggerResult::FIRE
                } else {
                    TriggerResult::CONTINUE
                }
            }
            TriggerKind::Never | TriggerKind::Count(_) | TriggerKind::ProcessingTime => TriggerResult::CONTINUE,
            TriggerKind::ContinuousEventTime(interval) => {
                if time == window.max_timestamp() {
                    TriggerResult::FIRE
                } else if ctx.state().fire_time == Some(time) {
                    ctx.state().fire_time = None;
                    register_next_fire_timestamp(time, window, interval, ctx);
                    TriggerResult::FIRE
                } else {
                    TriggerResult::CONTINUE
                }
            }
        };
        self.wrap(r)
    }

    /// `Trigger.onProcessingTime`.
    pub fn on_processing_time(&self) -> TriggerResult {
        let r = match self.kind {
            TriggerKind::ProcessingTime => TriggerResult::FIRE,
            _ => TriggerResult::CONTINUE,
        };
        self.wrap(r)
    }

    /// `Trigger.onMerge`: `window` is the merge result, `merged` the windows it absorbed.
    pub fn on_merge(&self, window: Window, merged: &[TimeWindow], ctx: &mut impl TriggerContext) {
        let max_ts = window.max_timestamp();
        match self.kind {
            TriggerKind::EventTime => {
                // Why only when ahead of the watermark: a merged window whose end has already
                // passed would fire from this timer at the next watermark anyway; Flink's
                // EventTimeTrigger registers the timer only if `max_timestamp > watermark`.
                if max_ts > ctx.current_watermark() {
                    ctx.register_event_time_timer(max_ts);
                }
            }
            TriggerKind::ProcessingTime => {
                if max_ts > ctx.current_processing_time() {
                    ctx.register_processing_time_timer(max_ts);
                }
            }
            TriggerKind::Never | TriggerKind::EndOfStream => {}
            TriggerKind::Count(_) => {
                ctx.merge_partitioned_state(merged);
            }
            TriggerKind::ContinuousEventTime(_) => {
                if let Some(t) = ctx.merge_partitioned_state(merged).fire_time {
                    ctx.register_event_time_timer(t);
                }
            }
            TriggerKind::EarlyCount(_) => {
                // The counts add up; the merged count is checked at the next element.
                ctx.merge_partitioned_state(merged);
                if max_ts > ctx.current_watermark() {
                    ctx.register_event_time_timer(max_ts);
                }
            }
            TriggerKind::SessionMaxDuration(d) => {
                let wm = ctx.current_watermark();
                if max_ts > wm {
                    ctx.register_event_time_timer(max_ts);
                }
                // A merge that moves the start back moves the cap back.
                if let Some(c) = session_cap(window, d).filter(|c| *c > wm) {
                    ctx.register_event_time_timer(c);
                }
            }
        }
    }

    /// `Trigger.clear`: the window is gone (cleaned up, or merged into another).
    pub fn clear(&self, window: Window, ctx: &mut impl TriggerContext) {
        match self.kind {
            TriggerKind::EventTime | TriggerKind::EndOfStream => ctx.delete_event_time_timer(window.max_timestamp()),
            TriggerKind::ProcessingTime => ctx.delete_processing_time_timer(window.max_timestamp()),
            TriggerKind::Never => {}
            TriggerKind::Count(_) => {
                ctx.clear_state();
            }
            TriggerKind::EarlyCount(_) => {
                ctx.delete_event_time_timer(window.max_timestamp());
                ctx.clear_state();
            }
            TriggerKind::SessionMaxDuration(d) => {
                ctx.delete_event_time_timer(window.max_timestamp());
                if let Some(c) = session_cap(window, d) {
                    ctx.delete_event_time_timer(c);
                }
            }
            TriggerKind::ContinuousEventTime(_) => {
                // Deletes only the pending interval timer, not the `max_timestamp` one it
                // registered in onElement (Flink's code does the same).
                if let Some(t) = ctx.clear_state().and_then(|st| st.fire_time) {
                    ctx.delete_event_time_timer(t);
                }
            }
        }
    }
}

/// `CountTrigger`'s counting (the early trigger's too): one more element in the window's count;
/// the n-th clears the count and fires.
fn count_element(n: i64, ctx: &mut impl TriggerContext) -> TriggerResult {
    let st = ctx.state();
    let count = st.count.unwrap_or(0).wrapping_add(1);
    if count >= n {
        st.count = None;
        TriggerResult::FIRE
    } else {
        st.count = Some(count);
        TriggerResult::CONTINUE
    }
}

/// `SessionMaxDurationTrigger.cap`: `start + max_duration - 1`, the last millisecond of the
/// session's maximum duration; only while it is before the window's max timestamp (a session
/// that ends before its cap has none). `None` on overflow, as the Java class checks.
pub fn session_cap(window: Window, max_duration: Millis) -> Option<Millis> {
    let Window::Time(w) = window else { return None };
    let c = w.start.wrapping_add(max_duration).wrapping_sub(1);
    (c >= w.start && c < window.max_timestamp()).then_some(c)
}

/// `ContinuousEventTimeTrigger.registerNextFireTimestamp`: the next interval boundary, capped at
/// `max_timestamp`; the fire-time state keeps the earliest pending one.
fn register_next_fire_timestamp(time: Millis, window: Window, interval: Millis, ctx: &mut impl TriggerContext) {
    let next = time.wrapping_add(interval).min(window.max_timestamp());
    let st = ctx.state();
    st.fire_time = Some(st.fire_time.map_or(next, |t| t.min(next)));
    ctx.register_event_time_timer(next);
}

/// Tests in the style of Flink's `TriggerTestHarness` (`EventTimeTriggerTest`, `CountTriggerTest`,
/// `ContinuousEventTimeTriggerTest`, `ProcessingTimeTriggerTest`, `PurgingTriggerTest`): one key,
/// the engine's own timer queues and a map of trigger state; after every element, watermark,
/// merge or clear, the result and the timers left registered.
#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::engine::time::{LONG_MAX, LONG_MIN};
    use crate::engine::timers::{TimerKey, TimerQueue};
    use crate::engine::trace::TimerPurpose;

    const FIRE: TriggerResult = TriggerResult::FIRE;
    const CONTINUE: TriggerResult = TriggerResult::CONTINUE;
    const FIRE_AND_PURGE: TriggerResult = TriggerResult::FIRE_AND_PURGE;

    fn w(start: Millis, end: Millis) -> Window {
        Window::Time(TimeWindow::new(start, end))
    }

    fn tw(start: Millis, end: Millis) -> TimeWindow {
        TimeWindow::new(start, end)
    }

    /// Flink's `TriggerTestHarness`: a trigger, the two clocks, a timer queue per domain (the
    /// operator's own `TimerQueue`) and the trigger's partitioned state per window.
    struct Harness {
        trigger: Trigger,
        watermark: Millis,
        processing_time: Millis,
        event_timers: TimerQueue,
        processing_timers: TimerQueue,
        state: BTreeMap<Window, TriggerState>,
    }

    /// The harness's `TestTriggerContext` for one window.
    struct Ctx<'a> {
        h: &'a mut Harness,
        window: Window,
    }

    impl TriggerContext for Ctx<'_> {
        fn current_watermark(&self) -> Millis {
            self.h.watermark
        }
        fn current_processing_time(&self) -> Millis {
            self.h.processing_time
        }
        fn register_event_time_timer(&mut self, time: Millis) {
            self.h.event_timers.register(TimerKey { time, key: 0, window: self.window }, TimerPurpose::TRIGGER);
        }
        fn delete_event_time_timer(&mut self, time: Millis) {
            self.h.event_timers.delete(&TimerKey { time, key: 0, window: self.window });
        }
        fn register_processing_time_timer(&mut self, time: Millis) {
            self.h.processing_timers.register(TimerKey { time, key: 0, window: self.window }, TimerPurpose::TRIGGER);
        }
        fn delete_processing_time_timer(&mut self, time: Millis) {
            self.h.processing_timers.delete(&TimerKey { time, key: 0, window: self.window });
        }
        fn state(&mut self) -> &mut TriggerState {
            self.h.state.entry(self.window).or_default()
        }
        fn clear_state(&mut self) -> Option<TriggerState> {
            self.h.state.remove(&self.window)
        }
        fn merge_partitioned_state(&mut self, merged: &[TimeWindow]) -> TriggerState {
            let mut acc = self.h.state.remove(&self.window).unwrap_or_default();
            for m in merged {
                if let Some(st) = self.h.state.remove(&Window::Time(*m)) {
                    acc = acc.merge(st);
                }
            }
            if acc != TriggerState::default() {
                self.h.state.insert(self.window, acc);
            }
            acc
        }
    }

    impl Harness {
        fn new(trigger: Trigger) -> Self {
            Harness {
                trigger,
                watermark: LONG_MIN,
                processing_time: 0,
                event_timers: TimerQueue::default(),
                processing_timers: TimerQueue::default(),
                state: BTreeMap::new(),
            }
        }

        fn try_element(&mut self, ts: Millis, window: Window) -> Result<TriggerResult, FlinkError> {
            let trigger = self.trigger;
            trigger.on_element(ts, window, &mut Ctx { h: self, window })
        }

        /// `processElement`: the trigger's `onElement` for an element at `ts` in `window`.
        fn element(&mut self, ts: Millis, window: Window) -> TriggerResult {
            self.try_element(ts, window).unwrap_or_else(|e| panic!("onElement failed: {e}"))
        }

        /// Several elements in turn, each result in order.
        fn elements(&mut self, elements: &[(Millis, Window)]) -> Vec<TriggerResult> {
            elements.iter().map(|&(ts, window)| self.element(ts, window)).collect()
        }

        /// `advanceWatermark`: fires every event-time timer up to `watermark` in time order,
        /// those registered meanwhile included (as `InternalTimerServiceImpl` does).
        fn watermark(&mut self, watermark: Millis) -> Vec<(Window, TriggerResult)> {
            self.watermark = watermark;
            let mut fired = Vec::new();
            while let Some((timer, _)) = self.event_timers.pop_due(watermark) {
                let trigger = self.trigger;
                let window = timer.window;
                fired.push((window, trigger.on_event_time(timer.time, window, &mut Ctx { h: self, window })));
            }
            fired
        }

        /// `advanceProcessingTime`: fires every processing-time timer up to `now`.
        fn processing_time(&mut self, now: Millis) -> Vec<(Window, TriggerResult)> {
            self.processing_time = now;
            let mut fired = Vec::new();
            while let Some((timer, _)) = self.processing_timers.pop_due(now) {
                fired.push((timer.window, self.trigger.on_processing_time()));
            }
            fired
        }

        /// `mergeWindows`: `onMerge` for the result, then `clear` for each merged window, as
        /// the window operator's merge function does.
        fn merge(&mut self, into: Window, merged: &[TimeWindow]) {
            let trigger = self.trigger;
            trigger.on_merge(into, merged, &mut Ctx { h: self, window: into });
            for m in merged {
                self.clear(Window::Time(*m));
            }
        }

        /// `clearTriggerState`.
        fn clear(&mut self, window: Window) {
            let trigger = self.trigger;
            trigger.clear(window, &mut Ctx { h: self, window });
        }

        /// The registered event-time timers, in firing order.
        fn timers(&self) -> Vec<(Millis, Window)> {
            self.event_timers.iter().map(|(t, _)| (t.time, t.window)).collect()
        }

        fn processing_timers(&self) -> Vec<(Millis, Window)> {
            self.processing_timers.iter().map(|(t, _)| (t.time, t.window)).collect()
        }

        /// `numStateEntries`: windows whose trigger state holds a value (reading a state
        /// creates no entry in Flink's backend, so empty ones do not count).
        fn state_entries(&self) -> usize {
            self.state.values().filter(|s| **s != TriggerState::default()).count()
        }
    }

    /// EventTimeTrigger: each window's timer sits at its max timestamp, and the watermark
    /// fires exactly the windows it has passed.
    #[test]
    fn event_time_windows_fire_separately() {
        let mut h = Harness::new(Trigger::new(TriggerKind::EventTime));
        assert_eq!(h.elements(&[(0, w(0, 2)), (1, w(0, 2))]), [CONTINUE; 2]);
        assert_eq!(h.element(2, w(2, 4)), CONTINUE);
        assert_eq!(h.timers(), vec![(1, w(0, 2)), (3, w(2, 4))]);
        assert_eq!(h.state_entries(), 0);
        assert_eq!(h.watermark(2), vec![(w(0, 2), FIRE)]);
        assert_eq!(h.timers(), vec![(3, w(2, 4))]);
        assert_eq!(h.watermark(4), vec![(w(2, 4), FIRE)]);
        assert_eq!(h.timers(), vec![]);
        assert_eq!(h.processing_timers(), vec![]);
    }

    /// EventTimeTrigger: an element whose window's max timestamp is not after the watermark
    /// fires at once and registers no timer.
    #[test]
    fn event_time_late_element_fires_at_once() {
        let mut h = Harness::new(Trigger::new(TriggerKind::EventTime));
        assert_eq!(h.watermark(2), vec![]);
        assert_eq!(h.element(1, w(0, 2)), FIRE);
        assert_eq!(h.timers(), vec![]);
        // The max timestamp itself is not after a watermark equal to it.
        assert_eq!(h.element(3, w(2, 4)), CONTINUE);
        assert_eq!(h.watermark(3), vec![(w(2, 4), FIRE)]);
        assert_eq!(h.element(3, w(2, 4)), FIRE);
        assert_eq!(h.timers(), vec![]);
    }

    /// EventTimeTrigger: `clear` deletes the window's own timer and no other window's.
    #[test]
    fn event_time_clear_deletes_only_its_timer() {
        let mut h = Harness::new(Trigger::new(TriggerKind::EventTime));
        assert_eq!(h.elements(&[(0, w(0, 2)), (2, w(2, 4))]), [CONTINUE; 2]);
        h.clear(w(2, 4));
        assert_eq!(h.timers(), vec![(1, w(0, 2))]);
        h.clear(w(0, 2));
        assert_eq!(h.timers(), vec![]);
    }

    /// EventTimeTrigger: a merge registers the merged window's timer, and clearing the
    /// absorbed windows deletes theirs.
    #[test]
    fn event_time_merge_moves_the_timer() {
        let mut h = Harness::new(Trigger::new(TriggerKind::EventTime));
        assert_eq!(h.elements(&[(0, w(0, 2)), (2, w(2, 4))]), [CONTINUE; 2]);
        h.merge(w(0, 4), &[tw(0, 2), tw(2, 4)]);
        assert_eq!(h.timers(), vec![(3, w(0, 4))]);
        assert_eq!(h.watermark(4), vec![(w(0, 4), FIRE)]);
        assert_eq!(h.timers(), vec![]);
    }

    /// EventTimeTrigger: merging windows the watermark has already passed registers no timer,
    /// or the merged window would fire twice (from `onElement` and from the timer).
    #[test]
    fn event_time_merge_of_late_windows_registers_nothing() {
        let mut h = Harness::new(Trigger::new(TriggerKind::EventTime));
        assert_eq!(h.elements(&[(0, w(0, 2)), (2, w(2, 4))]), [CONTINUE; 2]);
        assert_eq!(h.watermark(10), vec![(w(0, 2), FIRE), (w(2, 4), FIRE)]);
        h.merge(w(0, 4), &[tw(0, 2), tw(2, 4)]);
        assert_eq!(h.timers(), vec![]);
    }

    /// EventTimeTrigger and ProcessingTimeTrigger are `Trigger<Object, TimeWindow>`: on a
    /// GlobalWindow the JVM's cast fails at the first element.
    #[test]
    fn time_triggers_fail_on_the_global_window() {
        for kind in [TriggerKind::EventTime, TriggerKind::ProcessingTime] {
            let mut h = Harness::new(Trigger::new(kind));
            let e = h.try_element(0, Window::Global).err();
            assert_eq!(e.map(|e| e.class), Some("java.lang.ClassCastException"));
            assert_eq!(h.timers(), vec![]);
            assert_eq!(h.processing_timers(), vec![]);
        }
    }

    /// CountTrigger: the count-th element fires and the count starts again; no timers.
    #[test]
    fn count_fires_every_nth_element() {
        let mut h = Harness::new(Trigger::new(TriggerKind::Count(3)));
        assert_eq!(h.elements(&[(0, w(0, 2)), (1, w(0, 2))]), [CONTINUE; 2]);
        assert_eq!(h.state_entries(), 1);
        assert_eq!(h.element(1, w(0, 2)), FIRE);
        assert_eq!(h.state_entries(), 0);
        assert_eq!(h.element(1, w(0, 2)), CONTINUE);
        assert_eq!(h.state_entries(), 1);
        assert_eq!(h.timers(), vec![]);
        assert_eq!(h.watermark(LONG_MAX), vec![]);
    }

    /// CountTrigger: each window counts its own elements.
    #[test]
    fn count_windows_count_separately() {
        let mut h = Harness::new(Trigger::new(TriggerKind::Count(2)));
        assert_eq!(h.elements(&[(0, w(0, 2)), (2, w(2, 4))]), [CONTINUE; 2]);
        assert_eq!(h.state_entries(), 2);
        assert_eq!(h.element(1, w(0, 2)), FIRE);
        assert_eq!(h.state_entries(), 1);
        assert_eq!(h.element(3, w(2, 4)), FIRE);
        assert_eq!(h.state_entries(), 0);
    }

    /// CountTrigger: a merge adds up the merged windows' counts into the result window.
    #[test]
    fn count_merge_adds_the_counts() {
        let mut h = Harness::new(Trigger::new(TriggerKind::Count(4)));
        assert_eq!(h.elements(&[(0, w(0, 2)), (1, w(0, 2))]), [CONTINUE; 2]);
        assert_eq!(h.element(2, w(2, 4)), CONTINUE);
        h.merge(w(0, 4), &[tw(0, 2), tw(2, 4)]);
        assert_eq!(h.state, BTreeMap::from([(w(0, 4), TriggerState { count: Some(3), fire_time: None })]));
        assert_eq!(h.element(3, w(0, 4)), FIRE);
        assert_eq!(h.timers(), vec![]);
    }

    /// CountTrigger: `clear` removes only its window's count.
    #[test]
    fn count_clear_removes_its_count() {
        let mut h = Harness::new(Trigger::new(TriggerKind::Count(5)));
        assert_eq!(h.elements(&[(0, w(0, 2)), (2, w(2, 4))]), [CONTINUE; 2]);
        h.clear(w(2, 4));
        assert_eq!(h.state_entries(), 1);
        h.clear(w(0, 2));
        assert_eq!(h.state_entries(), 0);
    }

    /// CountTrigger.of(n) with n ≤ 0: `count >= n` always holds, so every element fires.
    #[test]
    fn count_of_zero_fires_every_element() {
        let mut h = Harness::new(Trigger::new(TriggerKind::Count(0)));
        assert_eq!(h.elements(&[(0, w(0, 2)), (1, w(0, 2))]), [FIRE; 2]);
        assert_eq!(h.state_entries(), 0);
    }

    /// ContinuousEventTimeTrigger: the first element registers the window's end and the next
    /// interval boundary (epoch-aligned, capped at the max timestamp); each interval timer fires
    /// and registers the next, and the end fires too.
    #[test]
    fn continuous_fires_every_interval_and_at_the_end() {
        let mut h = Harness::new(Trigger::new(TriggerKind::ContinuousEventTime(5)));
        assert_eq!(h.element(3, w(0, 20)), CONTINUE);
        assert_eq!(h.timers(), vec![(5, w(0, 20)), (19, w(0, 20))]);
        assert_eq!(h.state, BTreeMap::from([(w(0, 20), TriggerState { count: None, fire_time: Some(5) })]));
        // A second element changes nothing: the fire time is already set.
        assert_eq!(h.element(8, w(0, 20)), CONTINUE);
        assert_eq!(h.timers(), vec![(5, w(0, 20)), (19, w(0, 20))]);
        assert_eq!(h.watermark(5), vec![(w(0, 20), FIRE)]);
        assert_eq!(h.timers(), vec![(10, w(0, 20)), (19, w(0, 20))]);
        // A jump over two boundaries fires the due one, whose successor is due too.
        assert_eq!(h.watermark(16), vec![(w(0, 20), FIRE), (w(0, 20), FIRE)]);
        assert_eq!(h.timers(), vec![(19, w(0, 20))]);
        // The last interval is capped at the max timestamp, the same timer as the end's.
        assert_eq!(h.watermark(19), vec![(w(0, 20), FIRE)]);
        assert_eq!(h.timers(), vec![]);
    }

    /// ContinuousEventTimeTrigger: an element of a window the watermark has passed fires at
    /// once and leaves neither timers nor state.
    #[test]
    fn continuous_late_element_fires_at_once() {
        let mut h = Harness::new(Trigger::new(TriggerKind::ContinuousEventTime(5)));
        assert_eq!(h.watermark(20), vec![]);
        assert_eq!(h.element(3, w(0, 20)), FIRE);
        assert_eq!(h.timers(), vec![]);
        assert_eq!(h.state_entries(), 0);
    }

    /// ContinuousEventTimeTrigger: `clear` deletes the pending interval timer but leaves the
    /// max-timestamp timer it registered in `onElement` (Flink's code does the same).
    #[test]
    fn continuous_clear_leaves_the_end_timer() {
        let mut h = Harness::new(Trigger::new(TriggerKind::ContinuousEventTime(5)));
        assert_eq!(h.elements(&[(3, w(0, 20)), (23, w(20, 40))]), [CONTINUE; 2]);
        h.clear(w(20, 40));
        assert_eq!(h.timers(), vec![(5, w(0, 20)), (19, w(0, 20)), (39, w(20, 40))]);
        assert_eq!(h.state_entries(), 1);
        h.clear(w(0, 20));
        assert_eq!(h.timers(), vec![(19, w(0, 20)), (39, w(20, 40))]);
        assert_eq!(h.state_entries(), 0);
    }

    /// ContinuousEventTimeTrigger: a merge keeps the earliest fire time and registers it for
    /// the merged window; the absorbed windows' timers stay, because their state moved before
    /// `clear` could find it.
    #[test]
    fn continuous_merge_keeps_the_earliest_fire_time() {
        let mut h = Harness::new(Trigger::new(TriggerKind::ContinuousEventTime(5)));
        assert_eq!(h.elements(&[(1, w(0, 12)), (7, w(7, 19))]), [CONTINUE; 2]);
        assert_eq!(h.timers(), vec![(5, w(0, 12)), (10, w(7, 19)), (11, w(0, 12)), (18, w(7, 19))]);
        h.merge(w(0, 19), &[tw(0, 12), tw(7, 19)]);
        assert_eq!(h.state, BTreeMap::from([(w(0, 19), TriggerState { count: None, fire_time: Some(5) })]));
        assert_eq!(h.timers(), vec![(5, w(0, 12)), (5, w(0, 19)), (10, w(7, 19)), (11, w(0, 12)), (18, w(7, 19))]);
    }

    /// ContinuousEventTimeTrigger: Java's remainder truncates toward zero, so a negative
    /// timestamp's first fire time is the boundary above it, not below.
    #[test]
    fn continuous_negative_timestamps_align_toward_zero() {
        let mut h = Harness::new(Trigger::new(TriggerKind::ContinuousEventTime(5)));
        assert_eq!(h.element(-3, w(-10, 10)), CONTINUE);
        // -3 - (-3 % 5) = 0, so the next fire time is 5.
        assert_eq!(h.timers(), vec![(5, w(-10, 10)), (9, w(-10, 10))]);
    }

    /// ContinuousEventTimeTrigger.of(0): Flink divides by the interval and fails.
    #[test]
    fn continuous_zero_interval_divides_by_zero() {
        let mut h = Harness::new(Trigger::new(TriggerKind::ContinuousEventTime(0)));
        let e = h.try_element(3, w(0, 20)).err();
        assert_eq!(e.map(|e| (e.class, e.message)), Some(("java.lang.ArithmeticException", "/ by zero".into())));
    }

    /// ProcessingTimeTrigger: a processing-time timer at the max timestamp, fired by the
    /// processing time, never by the watermark.
    #[test]
    fn processing_time_fires_on_the_processing_clock() {
        let mut h = Harness::new(Trigger::new(TriggerKind::ProcessingTime));
        assert_eq!(h.elements(&[(0, w(0, 2)), (0, w(2, 4))]), [CONTINUE; 2]);
        assert_eq!(h.processing_timers(), vec![(1, w(0, 2)), (3, w(2, 4))]);
        assert_eq!(h.timers(), vec![]);
        assert_eq!(h.watermark(LONG_MAX), vec![]);
        assert_eq!(h.processing_time(1), vec![(w(0, 2), FIRE)]);
        assert_eq!(h.processing_timers(), vec![(3, w(2, 4))]);
        h.clear(w(2, 4));
        assert_eq!(h.processing_timers(), vec![]);
    }

    /// ProcessingTimeTrigger: a merge registers the merged window's timer only while the
    /// processing time has not passed its max timestamp.
    #[test]
    fn processing_time_merge_registers_while_ahead() {
        let mut h = Harness::new(Trigger::new(TriggerKind::ProcessingTime));
        assert_eq!(h.elements(&[(0, w(0, 2)), (0, w(2, 4))]), [CONTINUE; 2]);
        h.merge(w(0, 4), &[tw(0, 2), tw(2, 4)]);
        assert_eq!(h.processing_timers(), vec![(3, w(0, 4))]);
        assert_eq!(h.processing_time(3), vec![(w(0, 4), FIRE)]);
        h.merge(w(0, 6), &[tw(0, 4)]);
        assert_eq!(h.processing_timers(), vec![(5, w(0, 6))]);
        h.processing_time(10);
        h.merge(w(0, 8), &[tw(0, 6)]);
        assert_eq!(h.processing_timers(), vec![]);
    }

    /// PurgingTrigger: every FIRE of the wrapped trigger becomes FIRE_AND_PURGE, CONTINUE stays.
    #[test]
    fn purging_turns_fire_into_fire_and_purge() {
        let mut count = Harness::new(Trigger::purging(TriggerKind::Count(2)));
        assert_eq!(count.element(0, w(0, 2)), CONTINUE);
        assert_eq!(count.element(1, w(0, 2)), FIRE_AND_PURGE);
        let mut event_time = Harness::new(Trigger::purging(TriggerKind::EventTime));
        assert_eq!(event_time.element(0, w(0, 2)), CONTINUE);
        assert_eq!(event_time.watermark(1), vec![(w(0, 2), FIRE_AND_PURGE)]);
        assert_eq!(event_time.element(1, w(0, 2)), FIRE_AND_PURGE);
        let mut continuous = Harness::new(Trigger::purging(TriggerKind::ContinuousEventTime(5)));
        assert_eq!(continuous.element(3, w(0, 20)), CONTINUE);
        assert_eq!(continuous.watermark(5), vec![(w(0, 20), FIRE_AND_PURGE)]);
        // The interval timers at 10 and 15, then the end at 19: each fire purges.
        assert_eq!(continuous.watermark(20), vec![(w(0, 20), FIRE_AND_PURGE); 3]);
        assert_eq!(continuous.element(3, w(0, 20)), FIRE_AND_PURGE);
        let mut processing = Harness::new(Trigger::purging(TriggerKind::ProcessingTime));
        assert_eq!(processing.element(0, w(0, 2)), CONTINUE);
        assert_eq!(processing.processing_time(5), vec![(w(0, 2), FIRE_AND_PURGE)]);
    }

    /// GlobalWindows' default NeverTrigger registers nothing and never fires.
    #[test]
    fn never_trigger_never_fires() {
        let mut h = Harness::new(Trigger::new(TriggerKind::Never));
        assert_eq!(h.element(0, Window::Global), CONTINUE);
        assert_eq!(h.timers(), vec![]);
        assert_eq!(h.watermark(LONG_MAX), vec![]);
        assert_eq!(h.processing_time(LONG_MAX), vec![]);
    }

    /// GlobalWindows.createWithEndOfStreamTrigger: one timer at Long.MAX_VALUE, so the window
    /// fires once, at the end of input.
    #[test]
    fn end_of_stream_fires_at_long_max() {
        let mut h = Harness::new(Trigger::new(TriggerKind::EndOfStream));
        assert_eq!(h.element(0, Window::Global), CONTINUE);
        assert_eq!(h.element(1, Window::Global), CONTINUE);
        assert_eq!(h.timers(), vec![(LONG_MAX, Window::Global)]);
        assert_eq!(h.watermark(LONG_MAX - 1), vec![]);
        assert_eq!(h.watermark(LONG_MAX), vec![(Window::Global, FIRE)]);
        assert_eq!(h.timers(), vec![]);
    }

    /// The course's early trigger: every N-th element fires (a running total, nothing purged)
    /// and the end timer fires at the watermark; the count starts again after each early firing.
    #[test]
    fn early_count_fires_every_n_then_at_the_watermark() {
        let mut h = Harness::new(Trigger::new(TriggerKind::EarlyCount(2)));
        assert_eq!(h.elements(&[(0, w(0, 10)), (1, w(0, 10))]), [CONTINUE, FIRE]);
        assert_eq!(h.state_entries(), 0);
        assert_eq!(h.element(2, w(0, 10)), CONTINUE);
        assert_eq!(h.state, BTreeMap::from([(w(0, 10), TriggerState { count: Some(1), fire_time: None })]));
        // One end timer, registered once however many elements came.
        assert_eq!(h.timers(), vec![(9, w(0, 10))]);
        assert_eq!(h.watermark(9), vec![(w(0, 10), FIRE)]);
        assert_eq!(h.timers(), vec![]);
    }

    /// The early trigger's late rule: once the watermark passed the window's end, an element
    /// (kept by allowed lateness) fires at once, registers nothing and leaves the count alone.
    #[test]
    fn early_count_late_element_fires_and_keeps_the_count() {
        let mut h = Harness::new(Trigger::new(TriggerKind::EarlyCount(3)));
        assert_eq!(h.element(0, w(0, 10)), CONTINUE);
        assert_eq!(h.watermark(9), vec![(w(0, 10), FIRE)]);
        assert_eq!(h.element(1, w(0, 10)), FIRE);
        assert_eq!(h.element(2, w(0, 10)), FIRE);
        assert_eq!(h.state, BTreeMap::from([(w(0, 10), TriggerState { count: Some(1), fire_time: None })]));
        assert_eq!(h.timers(), vec![]);
    }

    /// The early trigger on sessions: a merge adds the counts and registers the merged end
    /// timer; the merged count is checked only at the next element.
    #[test]
    fn early_count_merge_adds_counts_checked_at_the_next_element() {
        let mut h = Harness::new(Trigger::new(TriggerKind::EarlyCount(5)));
        assert_eq!(h.elements(&[(0, w(0, 10)), (1, w(0, 10)), (20, w(20, 30)), (21, w(20, 30))]), [CONTINUE; 4]);
        h.merge(w(0, 30), &[tw(0, 10), tw(20, 30)]);
        assert_eq!(h.state, BTreeMap::from([(w(0, 30), TriggerState { count: Some(4), fire_time: None })]));
        // The absorbed windows' timers went with their `clear`.
        assert_eq!(h.timers(), vec![(29, w(0, 30))]);
        assert_eq!(h.element(10, w(0, 30)), FIRE);
        // A merge behind the watermark registers no timer.
        h.watermark(100);
        h.merge(w(0, 40), &[tw(0, 30)]);
        assert_eq!(h.timers(), vec![]);
        h.clear(w(0, 40));
        assert_eq!(h.state_entries(), 0);
    }

    /// PurgingTrigger over the early trigger: each early firing purges (a delta).
    #[test]
    fn purging_early_count_purges_each_firing() {
        let mut h = Harness::new(Trigger::purging(TriggerKind::EarlyCount(2)));
        assert_eq!(h.elements(&[(0, w(0, 10)), (1, w(0, 10))]), [CONTINUE, FIRE_AND_PURGE]);
        assert_eq!(h.watermark(9), vec![(w(0, 10), FIRE_AND_PURGE)]);
    }

    /// The capped session: the cap timer at start + max - 1 exists only while it is before the
    /// window's max timestamp; it fires and purges, the end fires.
    #[test]
    fn session_max_duration_cap_fires_and_purges() {
        let mut h = Harness::new(Trigger::new(TriggerKind::SessionMaxDuration(30)));
        // [0, 30): max timestamp 29 = cap 29 -> no cap.
        assert_eq!(h.element(0, w(0, 30)), CONTINUE);
        assert_eq!(h.timers(), vec![(29, w(0, 30))]);
        h.clear(w(0, 30));
        // [0, 31): cap 29 < max timestamp 30.
        assert_eq!(h.element(0, w(0, 31)), CONTINUE);
        assert_eq!(h.timers(), vec![(29, w(0, 31)), (30, w(0, 31))]);
        assert_eq!(h.watermark(30), vec![(w(0, 31), FIRE_AND_PURGE), (w(0, 31), FIRE)]);
        assert_eq!(session_cap(w(0, 31), 30), Some(29));
        assert_eq!(session_cap(w(0, 30), 30), None);
        assert_eq!(session_cap(Window::Global, 30), None);
        // start + max overflows: no cap, as the Java class checks.
        assert_eq!(session_cap(w(LONG_MAX - 10, LONG_MAX), 100), None);
    }

    /// The capped session after its cap: an element of the (still open) session fires and
    /// purges at once; after the end the late rule fires; clear deletes both timers.
    #[test]
    fn session_max_duration_outgrown_and_late_rules() {
        let mut h = Harness::new(Trigger::new(TriggerKind::SessionMaxDuration(10)));
        assert_eq!(h.element(0, w(0, 20)), CONTINUE);
        assert_eq!(h.timers(), vec![(9, w(0, 20)), (19, w(0, 20))]);
        assert_eq!(h.watermark(9), vec![(w(0, 20), FIRE_AND_PURGE)]);
        assert_eq!(h.element(12, w(0, 20)), FIRE_AND_PURGE);
        h.clear(w(0, 20));
        assert_eq!(h.timers(), vec![]);
        h.watermark(25);
        assert_eq!(h.element(5, w(0, 20)), FIRE);
    }

    /// The capped session on merge: both timers of the merged window, if ahead of the watermark;
    /// a merge that moves the start back moves the cap back.
    #[test]
    fn session_max_duration_merge_moves_the_cap() {
        let mut h = Harness::new(Trigger::new(TriggerKind::SessionMaxDuration(30)));
        h.watermark(5);
        h.merge(w(2, 40), &[tw(10, 40)]);
        assert_eq!(h.timers(), vec![(31, w(2, 40)), (39, w(2, 40))]);
        assert_eq!(h.watermark(35), vec![(w(2, 40), FIRE_AND_PURGE)]);
        // The new cap (29) is behind the watermark: only the end timer; clear took [2, 40)'s.
        h.merge(w(0, 50), &[tw(2, 40)]);
        assert_eq!(h.timers(), vec![(49, w(0, 50))]);
    }

    /// The course's triggers are `Trigger<Object, TimeWindow>`: a GlobalWindow fails the cast.
    #[test]
    fn course_triggers_fail_on_the_global_window() {
        for kind in [TriggerKind::EarlyCount(2), TriggerKind::SessionMaxDuration(10)] {
            let e = Harness::new(Trigger::new(kind)).try_element(0, Window::Global).err();
            assert_eq!(e.map(|e| e.class), Some("java.lang.ClassCastException"));
        }
    }
}
