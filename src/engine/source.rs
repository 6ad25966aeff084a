//! The source side: per-partition watermark generators, idleness and the combined watermark,
//! as Flink's `WatermarksWithIdleness`, `BoundedOutOfOrdernessWatermarks` and
//! `WatermarkOutputMultiplexer` do it, driven by a processing-time clock made of the items'
//! arrival times.
//!
//! ```text
//!  element (partition p) ──▶ generator p ──onPeriodicEmit──▶ deferred output p ─┐
//!  tick every interval ──▶ every generator (idleness check first) ──────────────┤ then once: min
//!  marker (partition p) ──▶ immediate output p ── at once ──────────────────────┤ over partitions
//!                                                                               ▼ not idle
//!                                                     combined watermark (only forward) ──▶ operator
//! ```
//!
//! A tick (and the per-event emission, the same call) lets every partition record its state
//! before it combines them once, as `SplitLocalOutputs.emitPeriodicWatermark` does; an
//! explicit marker is combined at once, as the multiplexer's immediate output does.

use super::scenario::{Scenario, WatermarkSpec};
use super::time::{LONG_MIN, Millis};

/// What the source did, for the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceEvent {
    PartitionWatermark {
        partition: u32,
        watermark: Millis,
    },
    PartitionIdle {
        partition: u32,
        at: Millis,
    },
    PartitionActive {
        partition: u32,
        at: Millis,
    },
    /// The combined watermark moved forward: the operator processes it.
    Watermark(Millis),
}

/// Flink's `IdlenessTimer`, with processing time in milliseconds.
#[derive(Clone, Copy, Debug, Default)]
struct IdlenessTimer {
    counter: u64,
    last_counter: u64,
    /// `startOfInactivityNanos`, `None` for 0.
    start_of_inactivity: Option<Millis>,
}

impl IdlenessTimer {
    fn activity(&mut self) {
        self.counter += 1;
    }

    /// `checkIfIdle`: activity since the last check resets the clock; the first check without
    /// activity starts it; later checks are idle once more than the timeout has passed.
    fn check_if_idle(&mut self, now: Millis, timeout: Millis) -> bool {
        if self.counter != self.last_counter {
            self.last_counter = self.counter;
            self.start_of_inactivity = None;
            false
        } else if let Some(start) = self.start_of_inactivity {
            now.saturating_sub(start) > timeout
        } else {
            self.start_of_inactivity = Some(now);
            false
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Partition {
    /// `BoundedOutOfOrdernessWatermarks.maxTimestamp`.
    max_ts: Millis,
    /// The partition's output watermark in the multiplexer.
    watermark: Millis,
    /// The multiplexer's idle flag for this output.
    idle: bool,
    /// `WatermarksWithIdleness.isIdleNow`.
    idle_now: bool,
    timer: IdlenessTimer,
}

pub struct Source {
    bound: Option<Millis>,
    periodic: bool,
    interval: Millis,
    idleness: Option<Millis>,
    parts: Vec<Partition>,
    combined: Millis,
    /// Whether to report per-partition events (only when there is more than one partition).
    multi: bool,
    next_tick: Option<Millis>,
    now: Millis,
}

impl Source {
    pub fn new(scenario: &Scenario) -> Self {
        let bound = match scenario.watermarks {
            WatermarkSpec::Explicit => None,
            WatermarkSpec::BoundedOutOfOrderness { bound } => Some(bound),
            WatermarkSpec::Monotonous => Some(0),
        };
        let partitions = scenario.partition_count();
        // `BoundedOutOfOrdernessWatermarks`: start so that the first emit is Long.MIN_VALUE.
        let max_ts = bound.map_or(LONG_MIN, |b| LONG_MIN.wrapping_add(b).wrapping_add(1));
        let part =
            Partition { max_ts, watermark: LONG_MIN, idle: false, idle_now: false, timer: IdlenessTimer::default() };
        Source {
            bound,
            periodic: scenario.source.periodic,
            interval: scenario.source.interval.max(1),
            idleness: scenario.source.idleness,
            parts: vec![part; partitions as usize],
            combined: LONG_MIN,
            multi: partitions > 1,
            next_tick: None,
            now: 0,
        }
    }

    /// Ticks are only needed for periodic emission or idleness.
    fn ticks_matter(&self) -> bool {
        self.periodic || self.idleness.is_some()
    }

    /// The next tick of the periodic emitter at or before `now` that can change anything, or
    /// `None`. Ticks are at k × interval of processing time (k ≥ 1); ticks that cannot change
    /// any partition (no new watermark to emit, no idleness clock to start, reset or expire)
    /// are skipped, so a long quiet gap costs a handful of ticks, not one per interval.
    pub fn next_tick_until(&mut self, now: Millis) -> Option<Millis> {
        if !self.ticks_matter() {
            return None;
        }
        let first = *self.next_tick.get_or_insert(self.interval);
        if first > now {
            return None;
        }
        let mut next = first;
        if !self.tick_matters() {
            // The earliest tick at which an idleness clock can expire, if any.
            let expiry = self.earliest_idle_expiry();
            let grid = |t: Millis| {
                // the first tick strictly after `t`
                let k = t.div_euclid(self.interval) + 1;
                k.saturating_mul(self.interval)
            };
            match expiry {
                Some(t) => next = next.max(grid(t)),
                None => {
                    self.next_tick = Some(grid(now));
                    return None;
                }
            }
            if next > now {
                // Re-evaluate from the first tick after `now`: the next item may change things.
                self.next_tick = Some(grid(now));
                return None;
            }
        }
        self.next_tick = Some(next.saturating_add(self.interval));
        Some(next)
    }

    /// Whether a tick now would do something: emit a new watermark, or start/reset an
    /// idleness clock.
    fn tick_matters(&self) -> bool {
        self.parts.iter().any(|p| {
            let emits = self.proposal(p).is_some_and(|wm| wm > p.watermark || p.idle);
            let clock = self.idleness.is_some()
                && !p.idle_now
                && (p.timer.counter != p.timer.last_counter || p.timer.start_of_inactivity.is_none());
            (emits && !p.idle_now) || clock
        })
    }

    /// The processing time after which the next idleness clock expires (`now - start > timeout`).
    fn earliest_idle_expiry(&self) -> Option<Millis> {
        let timeout = self.idleness?;
        self.parts
            .iter()
            .filter(|p| !p.idle_now)
            .filter_map(|p| p.timer.start_of_inactivity.map(|s| s.saturating_add(timeout)))
            .min()
    }

    fn proposal(&self, p: &Partition) -> Option<Millis> {
        self.bound.map(|b| p.max_ts.wrapping_sub(b).wrapping_sub(1))
    }

    /// One tick of the periodic emitter at processing time `at`: Flink's
    /// `SplitLocalOutputs.emitPeriodicWatermark`. Every partition's generator runs
    /// `onPeriodicEmit` first, which only records the partition's state on its deferred output
    /// (idle flag, watermark); then `WatermarkOutputMultiplexer.onPeriodicEmit` combines them
    /// once. Combining per partition instead would emit a combined watermark from a half-updated
    /// state: an extra one while a partition goes idle, or one that runs ahead while a returning
    /// partition still counts as idle (`src_periodic_idle_and_advance_one_combined`,
    /// `src_periodic_reactivation_holds_combined`).
    pub fn tick(&mut self, at: Millis, out: &mut Vec<SourceEvent>) {
        self.now = at;
        for p in 0..self.parts.len() {
            self.periodic_emit(p, at, out);
        }
        self.update_combined(out);
    }

    /// `WatermarksWithIdleness.onPeriodicEmit` on partition `p`'s deferred output: records the
    /// partition's idle flag or watermark, combines nothing.
    fn periodic_emit(&mut self, p: usize, at: Millis, out: &mut Vec<SourceEvent>) {
        if let Some(timeout) = self.idleness
            && self.parts[p].timer.check_if_idle(at, timeout)
        {
            let part = &mut self.parts[p];
            if !part.idle_now {
                part.idle_now = true;
                // `markIdle` on a partition that is still idle in the multiplexer (an element
                // came, but without a watermark emission to reactivate it: explicit watermarks)
                // changes nothing.
                if !part.idle {
                    part.idle = true;
                    out.push(SourceEvent::PartitionIdle { partition: p as u32, at });
                }
            }
            return;
        }
        if let Some(wm) = self.proposal(&self.parts[p]) {
            self.set_watermark(p, wm, at, out);
        }
    }

    /// An element read from partition `p` at processing time `at`.
    pub fn on_element(&mut self, p: u32, ts: Millis, at: Millis, out: &mut Vec<SourceEvent>) {
        self.now = at;
        let p = (p as usize).min(self.parts.len().saturating_sub(1));
        let part = &mut self.parts[p];
        part.max_ts = part.max_ts.max(ts);
        part.timer.activity();
        part.idle_now = false;
        // The oracle's per-event emission: the periodic-emit path right after onEvent. It is
        // the same call as a tick, so it runs for every partition (idleness checks included).
        if !self.periodic {
            self.tick(at, out);
        }
    }

    /// An explicit watermark marker read from partition `p`: that partition's generator emits
    /// it at once from `onEvent` (markers are not fed to a bounded generator's maximum, as in
    /// the oracle). A marker is a record, so it counts as activity for idleness. It goes through
    /// the multiplexer's immediate output: the combined watermark is recomputed at once when the
    /// marker raised the partition's watermark above the combined one
    /// (`src_explicit_markers_at_once_with_idleness`).
    pub fn on_marker(&mut self, p: u32, wm: Millis, at: Millis, out: &mut Vec<SourceEvent>) {
        self.now = at;
        let p = (p as usize).min(self.parts.len().saturating_sub(1));
        self.parts[p].timer.activity();
        self.parts[p].idle_now = false;
        if self.set_watermark(p, wm, at, out) && wm > self.combined {
            self.update_combined(out);
        }
    }

    /// The bounded input ended: the source task emits `Long.MAX_VALUE` downstream itself (not
    /// through the partitions' outputs).
    pub fn end_of_input(&mut self, out: &mut Vec<SourceEvent>) {
        if self.combined < i64::MAX {
            self.combined = i64::MAX;
            out.push(SourceEvent::Watermark(i64::MAX));
        }
    }

    /// `CombinedWatermarkStatus.PartialWatermark.setWatermark`: the partition is active again
    /// and its watermark only moves forward. Returns whether it moved. Combines nothing.
    fn set_watermark(&mut self, p: usize, wm: Millis, at: Millis, out: &mut Vec<SourceEvent>) -> bool {
        let part = &mut self.parts[p];
        if part.idle {
            part.idle = false;
            if self.multi || self.idleness.is_some() {
                out.push(SourceEvent::PartitionActive { partition: p as u32, at });
            }
        }
        if wm > part.watermark {
            part.watermark = wm;
            if self.multi {
                out.push(SourceEvent::PartitionWatermark { partition: p as u32, watermark: wm });
            }
            return true;
        }
        false
    }

    /// `CombinedWatermarkStatus.updateCombinedWatermark`: the minimum over the partitions that
    /// are not idle; when every partition is idle, the maximum over all of them (Flink 2.3, seen
    /// in `src_all_partitions_idle_max_watermark`); forwarded only when larger than before.
    fn update_combined(&mut self, out: &mut Vec<SourceEvent>) {
        let active_min = self.parts.iter().filter(|p| !p.idle).map(|p| p.watermark).min();
        let Some(candidate) = active_min.or_else(|| self.parts.iter().map(|p| p.watermark).max()) else {
            return;
        };
        if candidate > self.combined {
            self.combined = candidate;
            out.push(SourceEvent::Watermark(candidate));
        }
    }

    pub fn combined(&self) -> Millis {
        self.combined
    }
}
