//! What the window operator keeps in state, per input step, and the course's size estimate.
//!
//! Folded from the trace in one pass (the UI asks for every step at once to draw a chart), and
//! cross-checked against [`crate::engine::view::at_step`] by the tests.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::Run;
use crate::engine::scenario::{AssignerSpec, Scenario};
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis, Window};
use crate::engine::trace::{KeyId, TraceKind};

/// The operator's state after `step` input steps (playhead convention of
/// [`crate::engine::view::at_step`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateSample {
    pub step: usize,
    /// Windows with state: created, not yet cleaned up or merged away (a purged window is still
    /// live: its timers and per-window state stay until cleanup).
    pub live_windows: u64,
    /// Keys with at least one live window.
    pub keys_with_state: u64,
    /// Element copies in list state, as a buffering `ProcessWindowFunction` (or any function
    /// behind an evictor) keeps them: a sliding window assigner stores one copy per window.
    pub stored_elements: u64,
    /// Accumulators an incremental function (`AggregateFunction`/`ReduceFunction`) would keep:
    /// one per state window with contents.
    pub accumulators: u64,
    /// Event-time timers registered and neither fired nor deleted (a trigger timer and a
    /// cleanup timer at the same time are one timer, as in Flink's timer service).
    pub pending_timers: u64,
}

impl StateSample {
    /// The entries the scenario's window function really keeps: elements when `buffering`,
    /// accumulators otherwise.
    pub fn state_entries(&self, buffering: bool) -> u64 {
        if buffering { self.stored_elements } else { self.accumulators }
    }

    /// The course's estimate for this sample: live windows × bytes per window, where a window
    /// holds its element copies (buffering) or one accumulator.
    pub fn estimated_bytes(&self, buffering: bool, params: &StateSizeParams) -> u128 {
        if buffering {
            u128::from(self.stored_elements) * u128::from(params.bytes_per_element)
        } else {
            u128::from(self.accumulators) * u128::from(params.bytes_per_accumulator)
        }
    }
}

/// Sizes for the course's back-of-envelope estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateSizeParams {
    /// One buffered element (a serialized input record).
    pub bytes_per_element: u64,
    /// One accumulator (the course's example uses 48 bytes).
    pub bytes_per_accumulator: u64,
}

impl Default for StateSizeParams {
    fn default() -> Self {
        StateSizeParams { bytes_per_element: 64, bytes_per_accumulator: 48 }
    }
}

/// The course's estimate: "active keys times live windows per key times bytes per window"
/// (2,000,000 × 60 × 48 bytes ≈ 5.8 GB for a one-hour window sliding every minute).
pub fn course_estimate_bytes(active_keys: u64, live_windows_per_key: u64, bytes_per_window: u64) -> u128 {
    u128::from(active_keys) * u128::from(live_windows_per_key) * u128::from(bytes_per_window)
}

/// Live windows per key for a key that receives data continuously, by the course's rule: the
/// windows an element is in (`size / slide`, rounded up; 1 for tumbling) plus those held open by
/// allowed lateness (`lateness / slide`, rounded up). "With zero lateness one minute of acme's
/// windows is alive; with two minutes, three are." `None` where it depends on the data
/// (sessions) or the parameters are invalid; the global window is one per key.
pub fn course_live_windows_per_key(scenario: &Scenario) -> Option<u64> {
    let lateness = u128::try_from(scenario.lateness()).ok()?;
    let (size, slide) = match scenario.assigner {
        AssignerSpec::Tumbling { size, .. } => (size, size),
        AssignerSpec::Sliding { size, slide, .. } => (size, slide),
        // Processing-time windows have no allowed lateness: size / slide windows per key.
        AssignerSpec::TumblingProcessing { size, .. } => return Some(1).filter(|_| size > 0),
        AssignerSpec::SlidingProcessing { size, slide, .. } => {
            return u64::try_from(size)
                .ok()
                .zip(u64::try_from(slide).ok())
                .filter(|(_, s)| *s > 0)
                .map(|(a, b)| a.div_ceil(b));
        }
        AssignerSpec::Global | AssignerSpec::GlobalEos => return Some(1),
        AssignerSpec::Session { .. } | AssignerSpec::DynamicSession { .. } => return None,
    };
    let (size, slide) = (u128::try_from(size).ok()?, u128::try_from(slide).ok()?);
    if size == 0 || slide == 0 {
        return None;
    }
    let n = size.div_ceil(slide) + lateness.div_ceil(slide);
    Some(u64::try_from(n).unwrap_or(u64::MAX))
}

/// The state chart's data: one sample per playhead position `0..=run.steps`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateSeries {
    /// Whether the operator buffers elements: a `ProcessWindowFunction`, or any function behind
    /// an evictor ("using one prevents any pre-aggregation").
    pub buffering: bool,
    pub samples: Vec<StateSample>,
}

impl StateSeries {
    pub fn at(&self, step: usize) -> StateSample {
        let last = self.samples.len().saturating_sub(1);
        self.samples.get(step.min(last)).copied().unwrap_or_default()
    }

    /// The largest sample of each measure over the run (for chart axes).
    pub fn peak(&self) -> StateSample {
        self.samples.iter().fold(StateSample::default(), |m, s| StateSample {
            step: 0,
            live_windows: m.live_windows.max(s.live_windows),
            keys_with_state: m.keys_with_state.max(s.keys_with_state),
            stored_elements: m.stored_elements.max(s.stored_elements),
            accumulators: m.accumulators.max(s.accumulators),
            pending_timers: m.pending_timers.max(s.pending_timers),
        })
    }
}

/// Running counters over the trace.
#[derive(Clone, Default)]
struct StateFold {
    live: BTreeSet<(KeyId, Window)>,
    /// Live windows per key (for `keys_with_state`).
    live_per_key: BTreeMap<KeyId, u64>,
    /// The state window holding each window's contents (differs for merged sessions).
    state_of: BTreeMap<(KeyId, Window), Window>,
    /// Elements per state window.
    contents: BTreeMap<(KeyId, Window), u64>,
    stored_elements: u64,
    pending: BTreeSet<(Millis, KeyId, Window)>,
    /// The counters at each completed checkpoint, numbered from 1: a restore brings them back.
    checkpoints: Vec<StateFold>,
}

impl StateFold {
    /// A checkpoint holds the state; a restore brings checkpoint `n`'s back (none: empty).
    fn checkpoint_or_restore(&mut self, kind: &TraceKind) {
        let checkpoints = std::mem::take(&mut self.checkpoints);
        match kind {
            TraceKind::CheckpointTaken { .. } => {
                let saved = self.clone();
                self.checkpoints = checkpoints;
                self.checkpoints.push(saved);
            }
            TraceKind::Restored { checkpoint, .. } => {
                let n = checkpoint.and_then(|n| usize::try_from(n).ok()).and_then(|n| n.checked_sub(1));
                *self = n.and_then(|n| checkpoints.get(n)).cloned().unwrap_or_default();
                self.checkpoints = checkpoints;
            }
            _ => self.checkpoints = checkpoints,
        }
    }

    fn make_live(&mut self, key: KeyId, window: Window) {
        if self.live.insert((key, window)) {
            *self.live_per_key.entry(key).or_default() += 1;
        }
    }

    fn end_live(&mut self, key: KeyId, window: Window) {
        if self.live.remove(&(key, window))
            && let Some(n) = self.live_per_key.get_mut(&key)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.live_per_key.remove(&key);
            }
        }
    }

    fn add_contents(&mut self, key: KeyId, state_window: Window, n: u64) {
        *self.contents.entry((key, state_window)).or_default() += n;
        self.stored_elements += n;
    }

    fn take_contents(&mut self, key: KeyId, state_window: Window) -> u64 {
        let n = self.contents.remove(&(key, state_window)).unwrap_or(0);
        self.stored_elements = self.stored_elements.saturating_sub(n);
        n
    }

    fn state_window(&self, key: KeyId, window: Window) -> Window {
        self.state_of.get(&(key, window)).copied().unwrap_or(window)
    }

    fn apply(&mut self, kind: &TraceKind) {
        match kind {
            TraceKind::WindowCreated { key, window } => self.make_live(*key, *window),
            TraceKind::ElementAdded { key, window, state_window, .. } => {
                // A window's contents live in one namespace: if an earlier event put them under
                // another state window, they move along (the TVF's SESSION names the merge's
                // state window differently from where it adds the row).
                if let Some(old) = self.state_of.insert((*key, *window), *state_window)
                    && old != *state_window
                {
                    let n = self.take_contents(*key, old);
                    self.add_contents(*key, *state_window, n);
                }
                self.add_contents(*key, *state_window, 1);
            }
            TraceKind::SessionsMerged { key, merged, into, state_window, .. } => {
                // Mirrors `mergeNamespaces`: every absorbed state window's list moves into the
                // merge's state window; the absorbed windows stop being windows of their own.
                let target = Window::Time(*state_window);
                for m in merged.iter().filter(|m| *m != into) {
                    let mw = Window::Time(*m);
                    if let Some(old_state) = self.state_of.remove(&(*key, mw))
                        && old_state != target
                    {
                        let n = self.take_contents(*key, old_state);
                        self.add_contents(*key, target, n);
                    }
                    self.end_live(*key, mw);
                }
                self.state_of.insert((*key, Window::Time(*into)), target);
                self.make_live(*key, Window::Time(*into));
            }
            TraceKind::Evicted { key, window, elems, .. } => {
                let sw = self.state_window(*key, *window);
                if let Some(n) = self.contents.get_mut(&(*key, sw)) {
                    let gone = (elems.len() as u64).min(*n);
                    *n -= gone;
                    self.stored_elements = self.stored_elements.saturating_sub(gone);
                    if *n == 0 {
                        self.contents.remove(&(*key, sw));
                    }
                }
            }
            TraceKind::Purged { key, window, .. } => {
                let sw = self.state_window(*key, *window);
                self.take_contents(*key, sw);
            }
            TraceKind::CleanedUp { key, window, .. } => {
                let sw = self.state_of.remove(&(*key, *window)).unwrap_or(*window);
                self.take_contents(*key, sw);
                self.end_live(*key, *window);
            }
            TraceKind::TimerRegistered { key, window, time, .. } => {
                self.pending.insert((*time, *key, *window));
            }
            TraceKind::TimerDeleted { key, window, time, .. } | TraceKind::TimerFired { key, window, time, .. } => {
                self.pending.remove(&(*time, *key, *window));
            }
            TraceKind::CheckpointTaken { .. } | TraceKind::Restored { .. } => self.checkpoint_or_restore(kind),
            TraceKind::ElementArrived { .. }
            | TraceKind::Crashed { .. }
            | TraceKind::CrashPassed { .. }
            | TraceKind::Replayed { .. }
            | TraceKind::TimersDueAtRestore { .. }
            | TraceKind::WatermarkAdvanced { .. }
            | TraceKind::WatermarkIgnored { .. }
            | TraceKind::WindowsAssigned { .. }
            | TraceKind::WindowLate { .. }
            | TraceKind::Fired { .. }
            | TraceKind::SideOutput { .. }
            | TraceKind::Dropped { .. }
            | TraceKind::EndOfInput { .. }
            | TraceKind::PartitionWatermark { .. }
            | TraceKind::PartitionIdle { .. }
            | TraceKind::PartitionActive { .. }
            | TraceKind::FunctionEmitted { .. }
            | TraceKind::StateUpdated { .. }
            | TraceKind::StateExpired { .. }
            | TraceKind::Error { .. } => {}
        }
    }

    fn sample(&self, step: usize) -> StateSample {
        StateSample {
            step,
            live_windows: self.live.len() as u64,
            keys_with_state: self.live_per_key.len() as u64,
            stored_elements: self.stored_elements,
            accumulators: self.contents.values().filter(|n| **n > 0).count() as u64,
            pending_timers: self.pending.len() as u64,
        }
    }
}

/// The state series of a run: samples for every playhead position `0..=run.steps`.
pub fn state_series(scenario: &Scenario, run: &Run) -> StateSeries {
    let mut fold = StateFold::default();
    let mut samples = Vec::with_capacity(run.steps + 1);
    let mut next = 0;
    for step in 0..=run.steps {
        while let Some(ev) = run.trace.get(next).filter(|e| e.step < step) {
            fold.apply(&ev.kind);
            next += 1;
        }
        samples.push(fold.sample(step));
    }
    StateSeries { buffering: scenario.function.is_buffering() || scenario.evictor.is_some(), samples }
}

/// The watermark against the largest event time seen, after `step` input steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatermarkSample {
    pub step: usize,
    /// The operator's watermark (`Long.MIN` before the first, `Long.MAX` after end of input).
    pub watermark: Millis,
    /// The largest element timestamp that reached the operator so far.
    pub max_event_time: Option<Millis>,
    /// `max_event_time - watermark` while both are finite event times; `None` before the first
    /// watermark or element and after the end-of-input watermark.
    pub lag_millis: Option<Millis>,
}

/// One sample per playhead position `0..=run.steps`.
pub fn watermark_series(run: &Run) -> Vec<WatermarkSample> {
    let mut samples = Vec::with_capacity(run.steps + 1);
    let mut max_ts: Option<Millis> = None;
    let mut next = 0;
    for step in 0..=run.steps {
        while let Some(e) = run.elements.get(next).filter(|e| e.step < step) {
            max_ts = Some(max_ts.map_or(e.ts, |m| m.max(e.ts)));
            next += 1;
        }
        let watermark = match step.checked_sub(1) {
            None => LONG_MIN,
            Some(i) => run.watermark_after_step.get(i).copied().unwrap_or(LONG_MIN),
        };
        let lag_millis = match max_ts {
            Some(m) if watermark != LONG_MIN && watermark != LONG_MAX => Some(m.saturating_sub(watermark)),
            _ => None,
        };
        samples.push(WatermarkSample { step, watermark, max_event_time: max_ts, lag_millis });
    }
    samples
}

/// A source partition's watermark or idle flag changed, during input step `step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartitionChange {
    pub step: usize,
    pub partition: u32,
    pub watermark: Millis,
    pub idle: bool,
}

/// A partition at the playhead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartitionState {
    pub partition: u32,
    /// `Long.MIN` until the partition first emits.
    pub watermark: Millis,
    /// `withIdleness`: out of the minimum.
    pub idle: bool,
}

/// Each source partition's watermark over the run (the combined minimum is the operator's
/// watermark, [`WatermarkSample::watermark`]). Kept as changes, not one sample per step and
/// partition: 64 partitions over 100k steps would be 6.4M samples.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartitionSeries {
    pub partitions: u32,
    /// In trace order (so in step order).
    pub changes: Vec<PartitionChange>,
}

impl PartitionSeries {
    /// Whether the chart has anything to show: several partitions, or idleness on one.
    pub fn is_interesting(&self) -> bool {
        self.partitions > 1 || self.changes.iter().any(|c| c.idle)
    }

    /// Every partition after `step` input steps.
    pub fn at(&self, step: usize) -> Vec<PartitionState> {
        let mut out: Vec<PartitionState> = (0..self.partitions)
            .map(|partition| PartitionState { partition, watermark: LONG_MIN, idle: false })
            .collect();
        for c in self.changes.iter().take_while(|c| c.step < step) {
            if let Some(p) = out.get_mut(c.partition as usize) {
                p.watermark = c.watermark;
                p.idle = c.idle;
            }
        }
        out
    }
}

/// The partition series of a run, from the source's trace events.
pub fn partition_series(scenario: &Scenario, run: &Run) -> PartitionSeries {
    let partitions = scenario.partition_count();
    let mut now: Vec<(Millis, bool)> = vec![(LONG_MIN, false); partitions as usize];
    let mut changes = Vec::new();
    for ev in &run.trace {
        // (partition, new watermark, new idle flag)
        let (partition, watermark, idle) = match &ev.kind {
            TraceKind::PartitionWatermark { partition, watermark } => (*partition, Some(*watermark), None),
            TraceKind::PartitionIdle { partition, .. } => (*partition, None, Some(true)),
            TraceKind::PartitionActive { partition, .. } => (*partition, None, Some(false)),
            _ => continue,
        };
        let Some(p) = now.get_mut(partition as usize) else { continue };
        p.0 = watermark.unwrap_or(p.0);
        p.1 = idle.unwrap_or(p.1);
        changes.push(PartitionChange { step: ev.step, partition, watermark: p.0, idle: p.1 });
    }
    PartitionSeries { partitions, changes }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The course's arithmetic: 2,000,000 keys × 60 windows × 48 bytes ≈ 5.8 GB.
    #[test]
    fn course_estimate_matches_the_text() {
        assert_eq!(course_estimate_bytes(2_000_000, 60, 48), 5_760_000_000);
    }

    /// One-hour windows sliding every minute keep 60 windows per key; a minute with two minutes
    /// of lateness keeps three.
    #[test]
    fn live_windows_per_key_by_the_course_rule() {
        let mut s = Scenario {
            assigner: AssignerSpec::Sliding { size: 3_600_000, slide: 60_000, offset: 0 },
            ..Scenario::default()
        };
        assert_eq!(course_live_windows_per_key(&s), Some(60));
        s.assigner = AssignerSpec::Tumbling { size: 60_000, offset: 0 };
        s.allowed_lateness = Some(120_000);
        assert_eq!(course_live_windows_per_key(&s), Some(3));
        s.allowed_lateness = Some(i64::MAX);
        assert!(course_live_windows_per_key(&s).is_some_and(|n| n > 1_000_000));
        s.assigner = AssignerSpec::Session { gap: 1000 };
        assert_eq!(course_live_windows_per_key(&s), None);
    }
}
