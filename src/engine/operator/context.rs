//! The trigger context over the operator: `WindowOperator.Context`, through which a trigger
//! reads the clocks and registers, deletes and keeps its state for one window of one key.

use crate::engine::time::{Millis, TimeWindow, Window};
use crate::engine::trace::{KeyId, TimeDomain, TimerPurpose};
use crate::engine::trigger::{TriggerContext, TriggerState};

use super::WindowOperator;

/// `WindowOperator.Context`: what a trigger reaches through [`TriggerContext`] for one window of
/// one key. Its timers are recorded as trigger timers in the trace.
pub(super) struct WindowContext<'a> {
    op: &'a mut WindowOperator,
    key: KeyId,
    window: Window,
}

impl WindowOperator {
    /// The trigger's context for one window of one key.
    pub(super) fn ctx(&mut self, key: KeyId, window: Window) -> WindowContext<'_> {
        WindowContext { op: self, key, window }
    }
}

impl TriggerContext for WindowContext<'_> {
    fn current_watermark(&self) -> Millis {
        self.op.watermark
    }

    fn current_processing_time(&self) -> Millis {
        self.op.processing_time
    }

    fn register_event_time_timer(&mut self, time: Millis) {
        self.op.register_timer_in(TimeDomain::EventTime, self.key, self.window, time, TimerPurpose::TRIGGER);
    }

    fn delete_event_time_timer(&mut self, time: Millis) {
        self.op.delete_timer_in(TimeDomain::EventTime, self.key, self.window, time);
    }

    fn register_processing_time_timer(&mut self, time: Millis) {
        self.op.register_timer_in(TimeDomain::ProcessingTime, self.key, self.window, time, TimerPurpose::TRIGGER);
    }

    fn delete_processing_time_timer(&mut self, time: Millis) {
        self.op.delete_timer_in(TimeDomain::ProcessingTime, self.key, self.window, time);
    }

    fn state(&mut self) -> &mut TriggerState {
        self.op.key_state(self.key).trigger_state.entry(self.window).or_default()
    }

    fn clear_state(&mut self) -> Option<TriggerState> {
        self.op.key_state(self.key).trigger_state.remove(&self.window)
    }

    fn merge_partitioned_state(&mut self, merged: &[TimeWindow]) -> TriggerState {
        // A ReducingState merge (sum of counts, min of fire times) that moves the merged
        // windows' state into this window.
        let ks = self.op.key_state(self.key);
        let mut acc = ks.trigger_state.remove(&self.window).unwrap_or_default();
        for m in merged {
            if let Some(st) = ks.trigger_state.remove(&Window::Time(*m)) {
                acc = acc.merge(st);
            }
        }
        if acc != TriggerState::default() {
            ks.trigger_state.insert(self.window, acc);
        }
        acc
    }
}
