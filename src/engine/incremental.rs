//! Incremental re-runs (issue 15): an edit that changes only key `k`'s elements re-runs only key
//! `k`, and splices its events into the previous run's trace, exactly where a full run puts them.
//!
//! Why this is exact: keyed state is independent per key. What ties the keys together is the
//! source's watermark (bounded out-of-orderness takes the maximum timestamp over every key;
//! partitions, idleness and periodic emission add their own events) and the order in which
//! timers of different keys fire at one watermark advance. So:
//!
//! 1. **The key-only run.** The whole input goes through the real source (so every watermark is
//!    the full run's), but the operator processes only key `k`'s elements (the others are stored,
//!    so element indices stay the same, and skipped).
//! 2. **The fallback check.** The run-wide events (watermark advances and ignored watermarks,
//!    partition watermarks, idleness, end of input) of the key-only run must equal the previous
//!    run's, one for one and step for step. If the edit moved the watermark, they differ, and the
//!    answer is a full run. So are anything this module does not model: processing-time timers,
//!    checkpoints and crashes, process functions and TVFs, errors.
//! 3. **The splice.** Between two run-wide events the trace is a run of timer firings (the
//!    watermark advance just before fires them: `TimerFired` and what follows, one key each)
//!    and then the elements of the following steps (`ElementArrived` and what follows). Timers
//!    fire in (time, key, window) order from one queue; each key's own firings form a sequence
//!    that only that key's state decides, and the queue always fires the smallest next timer of
//!    any key. So merging the other keys' firings (from the previous run, in their order) with
//!    key `k`'s new ones by "smallest head first" is the full run's order, ties across keys
//!    included. Elements go by step. Outputs follow their `Fired`/`SideOutput` events, and are
//!    renumbered; sequence numbers are renumbered.
//!
//! `tests/engine_incremental.rs` checks incremental == full over random scenarios and edits.

use std::ops::Range;
use std::rc::Rc;

use super::operator::{ElementRec, OperatorStats, TimerKey, WindowOperator, validate};
use super::output::{FlinkError, Output};
use super::recorder::Recorder;
use super::run::{Downstream, Run, drive, run};
use super::scenario::{InputItem, Scenario};
use super::time::Millis;
use super::trace::{ElemIdx, KeyId, TimeDomain, TraceEvent, TraceKind};

/// How a re-run was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rerun {
    /// Nothing that changes the run changed: the previous run as it was.
    Unchanged,
    /// Only `key`'s elements changed and the watermarks did not: key `key` re-ran alone.
    Incremental { key: KeyId },
    /// A full run, and why.
    Full(FullReason),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullReason {
    /// No previous run.
    First,
    /// The configuration, the input's shape (items added, removed, reordered, a key renamed) or
    /// more than one key's elements changed.
    NotOneKey,
    /// The run uses what the splice does not model (processing-time timers, checkpoints and
    /// crashes, a process function or TVF, an error).
    Unsupported,
    /// The edit changed the run-wide events: the watermark moved.
    WatermarkChanged,
}

/// Re-runs `next`, given the run of `prev`: incrementally when the edit allows it, otherwise in
/// full. The result equals `run(next)` exactly (outputs, trace, emission order, statistics).
pub fn rerun(prev: &Scenario, prev_run: &Run, next: &Scenario) -> (Run, Rerun) {
    match rerun_or_same(prev, prev_run, next) {
        (Some(r), how) => (r, how),
        (None, how) => (prev_run.clone(), how),
    }
}

/// [`rerun`], with `None` for "the previous run as it was" (no copy made).
fn rerun_or_same(prev: &Scenario, prev_run: &Run, next: &Scenario) -> (Option<Run>, Rerun) {
    let name = match changed_key(prev, next) {
        Changed::Nothing => return (None, Rerun::Unchanged),
        Changed::Other => return (Some(run(next)), Rerun::Full(FullReason::NotOneKey)),
        Changed::Key(name) => name,
    };
    if prev_run.error.is_some() || next.process_function.is_some() || next.tvf.is_some() {
        return (Some(run(next)), Rerun::Full(FullReason::Unsupported));
    }
    match key_only_run(next, name) {
        None => (Some(run(next)), Rerun::Full(FullReason::Unsupported)),
        Some((fresh, key)) => match splice(prev_run, fresh, key) {
            Ok(r) => (Some(r), Rerun::Incremental { key }),
            Err(reason) => (Some(run(next)), Rerun::Full(reason)),
        },
    }
}

/// The last scenario and its run, so that the next run of an edited scenario can be incremental.
/// One per document: `cache.run(&scenario)` stands in for `engine::run(&scenario)`.
#[derive(Clone, Debug, Default)]
pub struct RunCache {
    last: Option<(Rc<Scenario>, Rc<Run>)>,
    /// How the last run was made (for tests and the status line).
    pub last_rerun: Option<Rerun>,
}

impl RunCache {
    pub fn run(&mut self, scenario: &Rc<Scenario>) -> Rc<Run> {
        let (result, how) = match &self.last {
            Some((s, r)) if Rc::ptr_eq(s, scenario) => (r.clone(), Rerun::Unchanged),
            Some((s, r)) => match rerun_or_same(s, r, scenario) {
                (Some(result), how) => (Rc::new(result), how),
                (None, how) => (r.clone(), how),
            },
            None => (Rc::new(run(scenario)), Rerun::Full(FullReason::First)),
        };
        self.last = Some((scenario.clone(), result.clone()));
        self.last_rerun = Some(how);
        result
    }
}

enum Changed<'a> {
    Nothing,
    Key(&'a str),
    Other,
}

/// Which key's elements differ between the two scenarios, if only one key's do, in place
/// (same items, same keys at the same positions; timestamps, values, ids, partitions may differ).
fn changed_key<'a>(prev: &Scenario, next: &'a Scenario) -> Changed<'a> {
    let same_config = prev.assigner == next.assigner
        && prev.allowed_lateness == next.allowed_lateness
        && prev.trigger == next.trigger
        && prev.evictor == next.evictor
        && prev.watermarks == next.watermarks
        && prev.side_output == next.side_output
        && prev.end_of_input == next.end_of_input
        && prev.function == next.function
        && prev.source == next.source
        && prev.process_function == next.process_function
        && prev.tvf == next.tvf
        && prev.input.len() == next.input.len();
    if !same_config {
        return Changed::Other;
    }
    let mut changed: Option<&'a str> = None;
    for (a, b) in prev.input.iter().zip(&next.input) {
        if a == b {
            continue;
        }
        match (a, b) {
            (InputItem::Element(x), InputItem::Element(y)) if x.key == y.key => match changed {
                Some(k) if k != y.key => return Changed::Other,
                _ => changed = Some(y.key.as_str()),
            },
            _ => return Changed::Other,
        }
    }
    changed.map_or(Changed::Nothing, Changed::Key)
}

/// The window operator, processing only one key's elements (the others are stored and skipped).
struct KeyOnly {
    op: WindowOperator,
    key: Option<KeyId>,
    name: String,
}

impl Downstream for KeyOnly {
    fn rec(&mut self) -> &mut Recorder {
        &mut self.op.rec
    }
    fn push_element(&mut self, rec: ElementRec, _event: Option<&str>) -> ElemIdx {
        self.op.push_element(rec)
    }
    fn process_element(&mut self, elem: ElemIdx, key_name: &str) -> Result<(), FlinkError> {
        if key_name != self.name {
            return Ok(());
        }
        self.key = Some(self.op.element(elem).key);
        self.op.process_element(elem, key_name)
    }
    fn process_watermark(&mut self, watermark: Millis) -> Result<(), FlinkError> {
        self.op.process_watermark(watermark)
    }
    fn advance_processing_time(&mut self, now: Millis) -> Result<(), FlinkError> {
        self.op.advance_processing_time(now)
    }
    fn current_watermark(&self) -> Millis {
        self.op.current_watermark()
    }
    fn checkpoint(&mut self) {
        self.op.checkpoint()
    }
    fn restore(&mut self, checkpoint: Option<u32>) -> usize {
        self.op.restore(checkpoint)
    }
    fn fire_due_processing_timers(&mut self) -> Result<(), FlinkError> {
        self.op.fire_due_processing_timers()
    }
}

/// Runs `scenario` with only key `name`'s elements processed; `None` if it fails or the key
/// never appears.
fn key_only_run(scenario: &Scenario, name: &str) -> Option<(Run, KeyId)> {
    let config = validate(scenario).ok()?;
    let mut op = KeyOnly { op: WindowOperator::new(config, true), key: None, name: name.to_string() };
    op.op.reserve_elements(scenario.input.len());
    let mut result = Run::empty(scenario.input.len() + 1);
    if drive(scenario, &mut op, &mut result).is_some() {
        return None;
    }
    let key = op.key?;
    let wm = op.op.current_watermark();
    result.watermark_after_step.resize(result.steps, wm);
    result.stats = op.op.stats;
    result.outputs = std::mem::take(&mut op.op.rec.outputs);
    result.trace = std::mem::take(&mut op.op.rec.events);
    Some((result, key))
}

/// A stretch of the trace: one run-wide event, one element's events, or one timer firing's.
#[derive(Clone, Debug)]
struct Unit {
    kind: UnitKind,
    events: Range<usize>,
    outputs: Range<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnitKind {
    Global,
    Element { key: KeyId, step: usize },
    Timer(TimerKey),
}

impl Unit {
    fn key(&self) -> Option<KeyId> {
        match self.kind {
            UnitKind::Global => None,
            UnitKind::Element { key, .. } => Some(key),
            UnitKind::Timer(t) => Some(t.key),
        }
    }
}

/// What an event is to the splice.
enum Role {
    Global,
    StartsElement(KeyId),
    StartsTimer(TimerKey),
    /// Belongs to the current unit, of this key; `outputs`: how many outputs it made.
    Keyed {
        key: KeyId,
        outputs: usize,
    },
}

fn role(kind: &TraceKind) -> Option<Role> {
    use TraceKind as K;
    let keyed = |key: KeyId| Some(Role::Keyed { key, outputs: 0 });
    match kind {
        K::WatermarkAdvanced { .. }
        | K::WatermarkIgnored { .. }
        | K::PartitionWatermark { .. }
        | K::PartitionIdle { .. }
        | K::PartitionActive { .. }
        | K::EndOfInput { .. } => Some(Role::Global),
        K::ElementArrived { key, .. } => Some(Role::StartsElement(*key)),
        K::TimerFired { key, window, time, domain: TimeDomain::EventTime, .. } => {
            Some(Role::StartsTimer(TimerKey { time: *time, key: *key, window: *window }))
        }
        K::TimerRegistered { key, domain: TimeDomain::EventTime, .. }
        | K::TimerDeleted { key, domain: TimeDomain::EventTime, .. } => keyed(*key),
        K::WindowsAssigned { key, .. }
        | K::WindowCreated { key, .. }
        | K::ElementAdded { key, .. }
        | K::WindowLate { key, .. }
        | K::Evicted { key, .. }
        | K::Purged { key, .. }
        | K::CleanedUp { key, .. }
        | K::SessionsMerged { key, .. }
        | K::Dropped { key, .. } => keyed(*key),
        K::Fired { key, .. } | K::SideOutput { key, .. } => Some(Role::Keyed { key: *key, outputs: 1 }),
        _ => None,
    }
}

/// Cuts a trace into units; `None` if it holds anything the splice does not model.
fn units(run: &Run) -> Option<Vec<Unit>> {
    let mut out: Vec<Unit> = Vec::with_capacity(run.trace.len() / 2);
    let mut outputs = 0usize;
    for (i, ev) in run.trace.iter().enumerate() {
        let (kind, made) = match role(&ev.kind)? {
            Role::Global => (Some(UnitKind::Global), 0),
            Role::StartsElement(key) => (Some(UnitKind::Element { key, step: ev.step }), 0),
            Role::StartsTimer(t) => (Some(UnitKind::Timer(t)), 0),
            Role::Keyed { key, outputs: n } => {
                // Part of the open unit, which must be the same key's.
                let open = out.last()?;
                if open.key() != Some(key) {
                    return None;
                }
                if let TraceKind::Fired { output, .. } = ev.kind
                    && output != outputs
                {
                    return None;
                }
                (None, n)
            }
        };
        if let Some(kind) = kind {
            out.push(Unit { kind, events: i..i, outputs: outputs..outputs });
        }
        outputs += made;
        let open = out.last_mut()?;
        open.events.end = i + 1;
        open.outputs.end = outputs;
    }
    (outputs == run.outputs.len()).then_some(out)
}

/// The merged run being built.
struct Splice {
    trace: Vec<TraceEvent>,
    outputs: Vec<Output>,
}

impl Splice {
    fn push(&mut self, from: &Run, unit: &Unit) {
        let base = self.outputs.len();
        self.outputs.extend_from_slice(&from.outputs[unit.outputs.clone()]);
        for ev in &from.trace[unit.events.clone()] {
            let mut ev = ev.clone();
            ev.seq = self.trace.len() as u32;
            if let TraceKind::Fired { output, .. } = &mut ev.kind {
                *output = base + (*output - unit.outputs.start);
            }
            self.trace.push(ev);
        }
    }
}

/// One stretch between run-wide events: timer firings, then elements.
fn segment<'u>(units: &'u [Unit], at: &mut usize, skip: Option<KeyId>) -> Option<(Vec<&'u Unit>, Vec<&'u Unit>)> {
    let (mut timers, mut elements) = (Vec::new(), Vec::new());
    while let Some(u) = units.get(*at) {
        if u.kind == UnitKind::Global {
            break;
        }
        *at += 1;
        if skip.is_some() && u.key() == skip {
            continue;
        }
        match u.kind {
            UnitKind::Timer(_) if elements.is_empty() => timers.push(u),
            UnitKind::Element { .. } => elements.push(u),
            _ => return None,
        }
    }
    Some((timers, elements))
}

/// Merges `fresh` (key `key` alone) into `prev` (every key). See the module doc.
fn splice(prev: &Run, fresh: Run, key: KeyId) -> Result<Run, FullReason> {
    if prev.keys != fresh.keys || prev.steps != fresh.steps || prev.elements.len() != fresh.elements.len() {
        return Err(FullReason::NotOneKey);
    }
    let old = units(prev).ok_or(FullReason::Unsupported)?;
    let new = units(&fresh).ok_or(FullReason::Unsupported)?;
    let mut out =
        Splice { trace: Vec::with_capacity(prev.trace.len()), outputs: Vec::with_capacity(prev.outputs.len()) };
    let mut removed = OperatorStats::default();
    let (mut i, mut j) = (0, 0);
    loop {
        let i0 = i;
        let (old_timers, old_elems) = segment(&old, &mut i, Some(key)).ok_or(FullReason::Unsupported)?;
        for u in old.get(i0..i).unwrap_or(&[]).iter().filter(|u| u.key() == Some(key)) {
            count(&mut removed, &prev.trace[u.events.clone()]);
        }
        let (new_timers, new_elems) = segment(&new, &mut j, None).ok_or(FullReason::Unsupported)?;
        if old_timers.len() + new_timers.len() > super::operator::MAX_TIMERS_PER_ADVANCE as usize {
            return Err(FullReason::Unsupported);
        }
        // Timer firings: the smallest next timer of either side first.
        let (mut a, mut b) = (old_timers.iter().peekable(), new_timers.iter().peekable());
        loop {
            let take_old = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => timer_of(x) < timer_of(y),
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            if take_old {
                out.push(prev, a.next().ok_or(FullReason::Unsupported)?);
            } else {
                out.push(&fresh, b.next().ok_or(FullReason::Unsupported)?);
            }
        }
        // Elements, by step (one element per step).
        let (mut a, mut b) = (old_elems.iter().peekable(), new_elems.iter().peekable());
        loop {
            let take_old = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) if step_of(x) == step_of(y) => return Err(FullReason::Unsupported),
                (Some(x), Some(y)) => step_of(x) < step_of(y),
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            if take_old {
                out.push(prev, a.next().ok_or(FullReason::Unsupported)?);
            } else {
                out.push(&fresh, b.next().ok_or(FullReason::Unsupported)?);
            }
        }
        // The run-wide event that ends the stretch: the same on both sides, or the watermark moved.
        match (old.get(i), new.get(j)) {
            (None, None) => break,
            (Some(x), Some(y)) => {
                let (ex, ey) = (&prev.trace[x.events.start], &fresh.trace[y.events.start]);
                if ex.step != ey.step || ex.kind != ey.kind {
                    return Err(FullReason::WatermarkChanged);
                }
                out.push(&fresh, y);
                i += 1;
                j += 1;
            }
            _ => return Err(FullReason::WatermarkChanged),
        }
    }
    let adjust = |was: u64, gone: u64, new: u64| was.checked_sub(gone).map(|v| v + new);
    let (p, f) = (prev.stats, fresh.stats);
    let stats = (|| {
        Some(OperatorStats {
            assignments: adjust(p.assignments, removed.assignments, f.assignments)?,
            late_records_dropped: adjust(p.late_records_dropped, removed.late_records_dropped, f.late_records_dropped)?,
            side_output: adjust(p.side_output, removed.side_output, f.side_output)?,
            silently_dropped: adjust(p.silently_dropped, removed.silently_dropped, f.silently_dropped)?,
            firings: adjust(p.firings, removed.firings, f.firings)?,
            timers_fired: adjust(p.timers_fired, removed.timers_fired, f.timers_fired)?,
        })
    })()
    .ok_or(FullReason::Unsupported)?;
    Ok(Run {
        keys: fresh.keys,
        elements: fresh.elements,
        outputs: out.outputs,
        trace: out.trace,
        watermark_after_step: fresh.watermark_after_step,
        steps: fresh.steps,
        stats,
        error: None,
    })
}

fn timer_of(u: &Unit) -> Option<TimerKey> {
    match u.kind {
        UnitKind::Timer(t) => Some(t),
        _ => None,
    }
}

fn step_of(u: &Unit) -> usize {
    match u.kind {
        UnitKind::Element { step, .. } => step,
        _ => 0,
    }
}

/// The statistics a stretch of the trace accounts for (what `OperatorStats` counts).
fn count(stats: &mut OperatorStats, events: &[TraceEvent]) {
    for ev in events {
        match &ev.kind {
            TraceKind::WindowsAssigned { windows, .. } => stats.assignments += windows.len() as u64,
            TraceKind::Dropped { counted: true, .. } => stats.late_records_dropped += 1,
            TraceKind::Dropped { counted: false, .. } => stats.silently_dropped += 1,
            TraceKind::SideOutput { .. } => stats.side_output += 1,
            TraceKind::Fired { .. } => stats.firings += 1,
            TraceKind::TimerFired { .. } => stats.timers_fired += 1,
            _ => {}
        }
    }
}
