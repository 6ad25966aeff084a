//! A whole run: the source (timestamps and watermarks, as Flink's
//! `TimestampsAndWatermarksOperator`) feeding the window operator, item by item, then the end of
//! input. Deterministic: the same scenario always gives the same trace.

use rustc_hash::FxHashMap;

use super::operator::{ElementRec, OperatorStats, WindowOperator, validate};
use super::output::{Firing, FlinkError, Output};
use super::process_fn::ProcessOperator;
use super::recorder::Recorder;
use super::recovery::{Next, Recovery};
use super::scenario::{AssignerSpec, ControlKind, InputItem, Scenario};
use super::source::{Source, SourceEvent};
use super::time::{LONG_MIN, Millis};
use super::trace::{ElemIdx, KeyId, TraceEvent, TraceKind};
use super::tvf::TvfOperator;

#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// Record the full trace (the UI needs it; throughput benchmarks may turn it off).
    pub trace: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { trace: true }
    }
}

/// An element of the run, with the input step it arrived in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementInfo {
    pub id: i64,
    pub key: KeyId,
    pub ts: Millis,
    pub value: i64,
    pub step: usize,
}

#[derive(Clone, Debug)]
pub struct Run {
    /// Key names, numbered in order of first appearance.
    pub keys: Vec<String>,
    pub elements: Vec<ElementInfo>,
    /// Outputs in Flink's emission order.
    pub outputs: Vec<Output>,
    pub trace: Vec<TraceEvent>,
    /// The operator's watermark after each input step (`Long.MIN` before the first one); the
    /// last entry is after the end of input.
    pub watermark_after_step: Vec<Millis>,
    /// Number of steps: the input items plus the end of input.
    pub steps: usize,
    pub stats: OperatorStats,
    pub error: Option<FlinkError>,
}

impl Run {
    /// A run with nothing in it yet, for `steps` steps.
    pub(crate) fn empty(steps: usize) -> Run {
        Run {
            keys: Vec::new(),
            elements: Vec::with_capacity(steps.saturating_sub(1)),
            outputs: Vec::new(),
            trace: Vec::new(),
            watermark_after_step: Vec::with_capacity(steps),
            steps,
            stats: OperatorStats::default(),
            error: None,
        }
    }

    pub fn key_name(&self, key: KeyId) -> &str {
        self.keys.get(key as usize).map_or("", String::as_str)
    }

    /// The firing at `output` (a `TraceKind::Fired` event's index): a window's, or a TVF row's.
    pub fn firing(&self, output: usize) -> Option<&Firing> {
        self.outputs.get(output).and_then(Output::firing)
    }

    /// The oracle's JSON lines, fields in the oracle's order.
    pub fn oracle_lines(&self) -> Vec<String> {
        self.outputs.iter().map(|o| o.to_oracle_line(&self.keys)).collect()
    }
}

pub fn run(scenario: &Scenario) -> Run {
    run_with(scenario, RunOptions::default())
}

pub fn run_with(scenario: &Scenario, options: RunOptions) -> Run {
    let steps = scenario.input.len() + 1;
    let mut result = Run {
        keys: Vec::new(),
        elements: Vec::with_capacity(scenario.input.len()),
        outputs: Vec::new(),
        trace: Vec::new(),
        watermark_after_step: Vec::with_capacity(steps),
        steps,
        stats: OperatorStats::default(),
        error: None,
    };
    if let Some(spec) = scenario.process_function {
        let mut op = ProcessOperator::new(spec, options.trace);
        if options.trace {
            op.rec.events.reserve(trace_capacity(scenario));
        }
        let failure = drive(scenario, &mut op, &mut result);
        let wm = op.current_watermark();
        return finish(result, &mut op.rec, op.stats, wm, failure);
    }
    if let Some(spec) = scenario.tvf {
        let mut op = TvfOperator::new(spec, options.trace);
        if options.trace {
            op.rec.events.reserve(trace_capacity(scenario));
        }
        let failure = drive(scenario, &mut op, &mut result);
        let wm = op.current_watermark();
        return finish(result, &mut op.rec, op.stats, wm, failure);
    }
    let config = match validate(scenario) {
        Ok(c) => c,
        Err(e) => {
            if options.trace {
                result.trace.push(TraceEvent {
                    seq: 0,
                    step: 0,
                    kind: TraceKind::Error { phase: e.phase.into(), class: e.class.into(), message: e.message.clone() },
                });
            }
            result.outputs.push(Output::Error(e.clone()));
            result.error = Some(e);
            result.watermark_after_step = vec![LONG_MIN; steps];
            return result;
        }
    };
    let mut op = WindowOperator::new(config, options.trace);
    op.reserve_elements(scenario.input.len());
    if options.trace {
        op.rec.events.reserve(trace_capacity(scenario));
    }
    let failure = drive(scenario, &mut op, &mut result);
    let wm = op.current_watermark();
    finish(result, &mut op.rec, op.stats, wm, failure)
}

/// Room for the trace up front. Growing it by doubling copied it about twice over, and each
/// large reallocation made the allocator sweep every small freed block: a fifth of a
/// 1,000-element session re-run. Measured (the bench workload): 3.3 events per element for
/// tumbling windows, 9.1 for sliding 60 s/10 s (6 windows each), 8.1 for sessions; so 5 per
/// element plus 4 per window. Capped so that a huge input does not reserve memory it may never
/// touch (wasm memory never shrinks); past the cap the vector grows as usual.
fn trace_capacity(scenario: &Scenario) -> usize {
    const MAX_RESERVED_EVENTS: usize = 1 << 20;
    let windows_per_element = match scenario.assigner {
        AssignerSpec::Sliding { size, slide, .. } | AssignerSpec::SlidingProcessing { size, slide, .. }
            if slide > 0 =>
        {
            (size / slide).clamp(1, 64) as usize
        }
        _ => 1,
    };
    scenario.input.len().saturating_mul(5 + 4 * windows_per_element).min(MAX_RESERVED_EVENTS)
}

fn finish(
    mut result: Run,
    rec: &mut Recorder,
    stats: OperatorStats,
    last_watermark: Millis,
    failure: Option<FlinkError>,
) -> Run {
    if let Some(e) = failure {
        rec.push(TraceKind::Error { phase: e.phase.into(), class: e.class.into(), message: e.message.clone() });
        rec.outputs.push(Output::Error(e.clone()));
        result.error = Some(e);
    }
    result.watermark_after_step.resize(result.steps, last_watermark);
    result.stats = stats;
    result.outputs = std::mem::take(&mut rec.outputs);
    result.trace = std::mem::take(&mut rec.events);
    result
}

/// What the source feeds: the window operator, a keyed process function or a TVF aggregation.
pub(crate) trait Downstream {
    fn rec(&mut self) -> &mut Recorder;
    fn push_element(&mut self, rec: ElementRec, event: Option<&str>) -> ElemIdx;
    fn process_element(&mut self, elem: ElemIdx, key_name: &str) -> Result<(), FlinkError>;
    fn process_watermark(&mut self, watermark: Millis) -> Result<(), FlinkError>;
    fn advance_processing_time(&mut self, now: Millis) -> Result<(), FlinkError>;
    fn current_watermark(&self) -> Millis;
    /// A checkpoint of the operator's keyed state and timers.
    fn checkpoint(&mut self);
    /// Back to checkpoint `n` (none: empty state), the watermark at `Long.MIN_VALUE`; returns
    /// how many processing-time timers are already due.
    fn restore(&mut self, checkpoint: Option<u32>) -> usize;
    /// Fires the processing-time timers due now (after a restore).
    fn fire_due_processing_timers(&mut self) -> Result<(), FlinkError>;
}

impl Downstream for WindowOperator {
    fn rec(&mut self) -> &mut Recorder {
        &mut self.rec
    }
    fn push_element(&mut self, rec: ElementRec, _event: Option<&str>) -> ElemIdx {
        WindowOperator::push_element(self, rec)
    }
    fn process_element(&mut self, elem: ElemIdx, key_name: &str) -> Result<(), FlinkError> {
        WindowOperator::process_element(self, elem, key_name)
    }
    fn process_watermark(&mut self, watermark: Millis) -> Result<(), FlinkError> {
        WindowOperator::process_watermark(self, watermark)
    }
    fn advance_processing_time(&mut self, now: Millis) -> Result<(), FlinkError> {
        WindowOperator::advance_processing_time(self, now)
    }
    fn current_watermark(&self) -> Millis {
        WindowOperator::current_watermark(self)
    }
    fn checkpoint(&mut self) {
        WindowOperator::checkpoint(self)
    }
    fn restore(&mut self, checkpoint: Option<u32>) -> usize {
        WindowOperator::restore(self, checkpoint)
    }
    fn fire_due_processing_timers(&mut self) -> Result<(), FlinkError> {
        WindowOperator::fire_due_processing_timers(self)
    }
}

/// Pushes the source's events into the trace and the combined watermark into the operator.
fn apply(op: &mut dyn Downstream, events: &mut Vec<SourceEvent>) -> Result<(), FlinkError> {
    for ev in events.drain(..) {
        match ev {
            SourceEvent::PartitionWatermark { partition, watermark } => {
                op.rec().push(TraceKind::PartitionWatermark { partition, watermark })
            }
            SourceEvent::PartitionIdle { partition, at } => op.rec().push(TraceKind::PartitionIdle { partition, at }),
            SourceEvent::PartitionActive { partition, at } => {
                op.rec().push(TraceKind::PartitionActive { partition, at })
            }
            SourceEvent::Watermark(wm) => op.process_watermark(wm)?,
        }
    }
    Ok(())
}

/// Feeds the scenario's input through the source into `op`, item by item, then the end of
/// input. Returns the failure that stopped the job, if any.
///
/// A crash item restarts the job (`recovery.rs`): the operator gets a checkpoint's state back,
/// the source starts again and replays the items after the checkpoint. The replay happens in the
/// crash item's step (its events say `Replayed`), so that steps stay input items.
pub(crate) fn drive(scenario: &Scenario, op: &mut dyn Downstream, result: &mut Run) -> Option<FlinkError> {
    let mut source = Source::new(scenario);
    let arrivals = scenario.arrivals();
    let mut key_ids: FxHashMap<&str, KeyId> = FxHashMap::default();
    let mut events = Vec::new();
    let mut recovery = Recovery::default();
    // The next item the source reads; items before `frontier` have had their step (a read of
    // one of them is a replay, in the step `crash_step`).
    let (mut next, mut frontier, mut crash_step) = (0, 0, 0);
    while let Some(item) = scenario.input.get(next) {
        let replay = next < frontier;
        let step = if replay { crash_step } else { next };
        op.rec().step = step;
        if replay {
            op.rec().push(TraceKind::Replayed { item: next });
        }
        let at = arrivals.get(next).copied().unwrap_or(0);
        let outcome = (|| {
            // Processing time moves to the arrival: periodic ticks and processing-time timers
            // due before it run first, in time order.
            while let Some(tick) = source.next_tick_until(at) {
                op.advance_processing_time(tick)?;
                source.tick(tick, &mut events);
                apply(op, &mut events)?;
            }
            op.advance_processing_time(at)?;
            match item {
                InputItem::Element(e) => {
                    let next_id = result.keys.len() as KeyId;
                    let key = *key_ids.entry(e.key.as_str()).or_insert_with(|| {
                        result.keys.push(e.key.to_string());
                        next_id
                    });
                    let elem =
                        op.push_element(ElementRec { id: e.id, key, ts: e.ts, value: e.value }, e.event.as_deref());
                    result.elements.push(ElementInfo { id: e.id, key, ts: e.ts, value: e.value, step });
                    // `TimestampsAndWatermarksOperator`: the element goes downstream first,
                    // then the generator sees it.
                    op.process_element(elem, &e.key)?;
                    source.on_element(e.partition, e.ts, at, &mut events);
                    apply(op, &mut events).map(|()| Next::Continue)
                }
                InputItem::Watermark(_) | InputItem::SourceWatermark(_) => {
                    let (wm, partition) = match item {
                        InputItem::SourceWatermark(m) => (m.wm, m.partition),
                        _ => (item.watermark().unwrap_or(LONG_MIN), 0),
                    };
                    let before = source.combined();
                    source.on_marker(partition, wm, at, &mut events);
                    if source.combined() == before && wm <= before {
                        op.rec().push(TraceKind::WatermarkIgnored { proposed: wm, current: before });
                    }
                    apply(op, &mut events).map(|()| Next::Continue)
                }
                InputItem::Control(c) => match c.kind {
                    ControlKind::Checkpoint => {
                        op.checkpoint();
                        recovery.checkpoint(op.rec(), next);
                        Ok(Next::Continue)
                    }
                    ControlKind::Crash => Ok(recovery.crash(op.rec(), next)),
                },
            }
        })();
        match outcome {
            Err(e) => return Some(e),
            Ok(Next::Continue) => next += 1,
            Ok(Next::Restart { checkpoint, from_item }) => {
                crash_step = step;
                frontier = frontier.max(next + 1);
                next = from_item;
                // The restarted task: state and timers back, the watermark at Long.MIN_VALUE,
                // the source's watermark generator from scratch.
                let due = op.restore(checkpoint);
                source = Source::new(scenario);
                Recovery::restored(op.rec(), checkpoint, from_item);
                if due > 0 {
                    op.rec().push(TraceKind::TimersDueAtRestore { timers: due, rule_only: true });
                    if let Err(e) = op.fire_due_processing_timers() {
                        return Some(e);
                    }
                }
            }
        }
        // A step ends when the source is back at its frontier: right after a normal item, or
        // after a crash's replay.
        if next >= frontier {
            frontier = next;
            if result.watermark_after_step.len() < next {
                result.watermark_after_step.push(op.current_watermark());
            }
        }
    }
    op.rec().step = scenario.input.len();
    op.rec().push(TraceKind::EndOfInput { max_watermark: scenario.end_of_input });
    // A bounded source ends with `Watermark(Long.MAX_VALUE)`, unless the scenario models a
    // paused input (`end_of_input: false`). Pending processing-time timers are not fired.
    if scenario.end_of_input {
        source.end_of_input(&mut events);
        if let Err(e) = apply(op, &mut events) {
            return Some(e);
        }
    }
    None
}

impl Downstream for ProcessOperator {
    fn rec(&mut self) -> &mut Recorder {
        &mut self.rec
    }
    fn push_element(&mut self, rec: ElementRec, event: Option<&str>) -> ElemIdx {
        ProcessOperator::push_element(self, rec, event.map(str::to_string))
    }
    fn process_element(&mut self, elem: ElemIdx, key_name: &str) -> Result<(), FlinkError> {
        ProcessOperator::process_element(self, elem, key_name)
    }
    fn process_watermark(&mut self, watermark: Millis) -> Result<(), FlinkError> {
        ProcessOperator::process_watermark(self, watermark)
    }
    fn advance_processing_time(&mut self, now: Millis) -> Result<(), FlinkError> {
        ProcessOperator::advance_processing_time(self, now)
    }
    fn current_watermark(&self) -> Millis {
        ProcessOperator::current_watermark(self)
    }
    fn checkpoint(&mut self) {
        ProcessOperator::checkpoint(self)
    }
    fn restore(&mut self, checkpoint: Option<u32>) -> usize {
        ProcessOperator::restore(self, checkpoint)
    }
    fn fire_due_processing_timers(&mut self) -> Result<(), FlinkError> {
        ProcessOperator::fire_due_processing_timers(self)
    }
}

impl Downstream for TvfOperator {
    fn rec(&mut self) -> &mut Recorder {
        &mut self.rec
    }
    fn push_element(&mut self, rec: ElementRec, _event: Option<&str>) -> ElemIdx {
        TvfOperator::push_element(self, rec)
    }
    fn process_element(&mut self, elem: ElemIdx, key_name: &str) -> Result<(), FlinkError> {
        TvfOperator::process_element(self, elem, key_name)
    }
    fn process_watermark(&mut self, watermark: Millis) -> Result<(), FlinkError> {
        TvfOperator::process_watermark(self, watermark)
    }
    fn advance_processing_time(&mut self, _now: Millis) -> Result<(), FlinkError> {
        Ok(())
    }
    fn current_watermark(&self) -> Millis {
        TvfOperator::current_watermark(self)
    }
    fn checkpoint(&mut self) {
        TvfOperator::checkpoint(self)
    }
    fn restore(&mut self, checkpoint: Option<u32>) -> usize {
        TvfOperator::restore(self, checkpoint);
        0
    }
    fn fire_due_processing_timers(&mut self) -> Result<(), FlinkError> {
        Ok(())
    }
}
