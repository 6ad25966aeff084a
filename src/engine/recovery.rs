//! Checkpoints and a TaskManager crash (issue 17), as `tests/oracle-ext` records them with real
//! Flink 2.3 (`tests/flink-ext/golden/course_crash_*`): a checkpoint holds every operator's keyed
//! state and timers and the source's position, not the watermark; a crash restarts the job from
//! the latest completed checkpoint (or from nothing), the source replays every item after it,
//! and the watermark starts again from the restored source.
//!
//! The operators keep their own [`Snapshots`]; `run.rs` drives the items and calls
//! [`Recovery`] at each control item.

use super::output::{Output, RecoveryLine};
use super::recorder::Recorder;
use super::trace::TraceKind;

/// An operator's completed checkpoints, numbered from 1 in the order they complete.
#[derive(Clone, Debug)]
pub struct Snapshots<S>(Vec<S>);

impl<S> Default for Snapshots<S> {
    fn default() -> Self {
        Snapshots(Vec::new())
    }
}

impl<S> Snapshots<S> {
    pub fn push(&mut self, snapshot: S) {
        self.0.push(snapshot);
    }

    /// Checkpoint `n` (1-based); `None` for no checkpoint or an unknown number.
    pub fn get(&self, n: Option<u32>) -> Option<&S> {
        let n = usize::try_from(n?).ok()?;
        self.0.get(n.checked_sub(1)?)
    }
}

/// What a checkpoint holds of a keyed operator: its per-key state and both timer services (not
/// the watermark).
#[derive(Clone, Debug)]
pub struct KeyedSnapshot<K, T> {
    keys: Vec<K>,
    timers: T,
    processing_timers: T,
}

impl<K: Clone, T: Clone + Default> Snapshots<KeyedSnapshot<K, T>> {
    /// A checkpoint of the keyed state and the timers.
    pub fn take(&mut self, keys: &[K], timers: &T, processing_timers: &T) {
        self.push(KeyedSnapshot {
            keys: keys.to_vec(),
            timers: timers.clone(),
            processing_timers: processing_timers.clone(),
        });
    }

    /// Checkpoint `n`'s keyed state and timers back into the operator (none: empty).
    pub fn restore_into(&self, n: Option<u32>, keys: &mut Vec<K>, timers: &mut T, processing_timers: &mut T) {
        match self.get(n) {
            Some(s) => {
                keys.clone_from(&s.keys);
                timers.clone_from(&s.timers);
                processing_timers.clone_from(&s.processing_timers);
            }
            None => {
                keys.clear();
                *timers = T::default();
                *processing_timers = T::default();
            }
        }
    }
}

/// What a control item makes the driver do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Read the next item.
    Continue,
    /// The job restarted from `checkpoint` (none: empty state): read again from `from_item`.
    Restart { checkpoint: Option<u32>, from_item: usize },
}

/// The job's recovery bookkeeping across attempts: the completed checkpoints (their number and
/// the item they were taken at) and the crash items already passed.
#[derive(Clone, Debug, Default)]
pub struct Recovery {
    checkpoints: Vec<usize>,
    crashed: Vec<usize>,
}

impl Recovery {
    /// A checkpoint item at `item`: checkpoint n completes (the operator snapshots itself first).
    pub fn checkpoint(&mut self, rec: &mut Recorder, item: usize) -> u32 {
        self.checkpoints.push(item);
        let checkpoint = self.checkpoints.len() as u32;
        rec.outputs.push(Output::Recovery(RecoveryLine::Checkpoint { checkpoint, item, step: rec.step }));
        rec.push(TraceKind::CheckpointTaken { checkpoint, item });
        checkpoint
    }

    /// A crash item at `item`: the TaskManager dies, unless this crash already happened (a
    /// replay passes it again). Then the job restarts from the latest completed checkpoint.
    pub fn crash(&mut self, rec: &mut Recorder, item: usize) -> Next {
        if self.crashed.contains(&item) {
            rec.push(TraceKind::CrashPassed { item });
            return Next::Continue;
        }
        self.crashed.push(item);
        rec.outputs.push(Output::Recovery(RecoveryLine::Crash { item, step: rec.step }));
        rec.push(TraceKind::Crashed { item });
        let latest = self.checkpoints.len();
        let checkpoint = (latest > 0).then_some(latest as u32);
        let from_item = self.checkpoints.last().map_or(0, |i| i + 1);
        Next::Restart { checkpoint, from_item }
    }

    /// The restarted source reads for the first time: the `restore` line opens the new attempt.
    pub fn restored(rec: &mut Recorder, checkpoint: Option<u32>, from_item: usize) {
        rec.outputs.push(Output::Recovery(RecoveryLine::Restore { checkpoint, from_item, step: rec.step }));
        rec.push(TraceKind::Restored { checkpoint, from_item });
    }
}

/// The output that output `i` repeats, when `i` is a recovery duplicate: a firing after a
/// restore identical (key, window, firing counter, contents, result) to one emitted before it.
/// The k-th such firing since the latest restore repeats the k-th identical one before it (a
/// replay emits the same results in the same order). `None` for anything else.
pub fn duplicate_of(outputs: &[Output], i: usize) -> Option<usize> {
    let Some(Output::Fire(f)) = outputs.get(i) else { return None };
    let restore = outputs[..i].iter().rposition(|o| matches!(o, Output::Recovery(RecoveryLine::Restore { .. })))?;
    let same = |o: &Output| matches!(o, Output::Fire(g) if g.key == f.key && g.window == f.window && g.n == f.n && g.ids == f.ids && g.result == f.result);
    let k = outputs[restore..i].iter().filter(|o| same(o)).count();
    outputs[..restore].iter().enumerate().filter(|(_, o)| same(o)).map(|(j, _)| j).nth(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checkpoints count from 1; a crash restarts from the latest one, from nothing before the
    /// first, and a crash item passed again by a replay does not crash again.
    #[test]
    fn crash_restarts_from_the_latest_checkpoint_once() {
        let mut rec = Recorder { enabled: true, ..Recorder::default() };
        let mut r = Recovery::default();
        assert_eq!(r.crash(&mut rec, 1), Next::Restart { checkpoint: None, from_item: 0 });
        assert_eq!(r.crash(&mut rec, 1), Next::Continue);
        assert_eq!(r.checkpoint(&mut rec, 3), 1);
        assert_eq!(r.checkpoint(&mut rec, 5), 2);
        assert_eq!(r.crash(&mut rec, 7), Next::Restart { checkpoint: Some(2), from_item: 6 });
        assert_eq!(rec.outputs.len(), 4);
        let s: Snapshots<u8> = Snapshots(vec![10, 20]);
        assert_eq!((s.get(None), s.get(Some(0)), s.get(Some(2)), s.get(Some(3))), (None, None, Some(&20), None));
    }
}
