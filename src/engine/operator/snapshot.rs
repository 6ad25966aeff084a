//! Checkpoints of the window operator (issue 17): what a restarted task gets back
//! (`recovery.rs` drives them).

use crate::engine::time::LONG_MIN;
use crate::engine::trace::TimeDomain;

use super::{Flink, WindowOperator};

impl WindowOperator {
    /// A checkpoint: all keyed state (window contents or accumulators, trigger state, the
    /// merging window sets, the function's firing counters) and both timer services. Not the
    /// watermark.
    pub fn checkpoint(&mut self) {
        self.checkpoints.take(&self.keys, &self.timers, &self.processing_timers);
    }

    /// The restarted task: the keyed state and timers of checkpoint `n` (none: empty), and the
    /// watermark back at `Long.MIN_VALUE`. Returns the processing-time timers already due.
    pub fn restore(&mut self, checkpoint: Option<u32>) -> usize {
        self.checkpoints.restore_into(checkpoint, &mut self.keys, &mut self.timers, &mut self.processing_timers);
        self.watermark = LONG_MIN;
        let now = self.processing_time;
        self.processing_timers.iter().filter(|(t, _)| t.time <= now).count()
    }

    /// Processing-time timers due at the restore "fire immediately" (Flink's documented rule).
    pub fn fire_due_processing_timers(&mut self) -> Flink<()> {
        self.fire_due(TimeDomain::ProcessingTime, self.processing_time)
    }
}
