//! A whole run: the source (timestamps and watermarks, as Flink's
//! `TimestampsAndWatermarksOperator`) feeding the window operator, item by item, then the end of
//! input. Deterministic: the same scenario always gives the same trace.

use std::collections::HashMap;

use super::operator::{ElementRec, OperatorStats, WindowOperator, validate};
use super::output::{FlinkError, Output};
use super::scenario::{InputItem, Scenario, WatermarkSpec};
use super::time::{LONG_MAX, LONG_MIN, Millis};
use super::trace::{KeyId, TraceEvent, TraceKind};

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
    pub fn key_name(&self, key: KeyId) -> &str {
        self.keys.get(key as usize).map_or("", String::as_str)
    }

    /// The oracle's JSON lines.
    pub fn oracle_lines(&self) -> Vec<String> {
        self.outputs.iter().map(|o| o.to_oracle_json(&self.keys).to_string()).collect()
    }
}

/// The watermark generator of the source (`WatermarkStrategy`), per-event emission as the
/// oracle does it: bounded out-of-orderness emits `max_ts - bound - 1` after every element.
struct WatermarkGenerator {
    bound: Option<Millis>,
    max_ts: Millis,
}

impl WatermarkGenerator {
    fn new(spec: WatermarkSpec) -> Self {
        let bound = match spec {
            WatermarkSpec::Explicit => None,
            WatermarkSpec::BoundedOutOfOrderness { bound } => Some(bound),
            WatermarkSpec::Monotonous => Some(0),
        };
        // `BoundedOutOfOrdernessWatermarks`: start so that the first emit is Long.MIN_VALUE.
        let max_ts = bound.map_or(LONG_MIN, |b| LONG_MIN.wrapping_add(b).wrapping_add(1));
        WatermarkGenerator { bound, max_ts }
    }

    /// `onEvent` + `onPeriodicEmit`: the watermark proposed after this element, if any.
    fn on_element(&mut self, ts: Millis) -> Option<Millis> {
        let bound = self.bound?;
        self.max_ts = self.max_ts.max(ts);
        Some(self.max_ts.wrapping_sub(bound).wrapping_sub(1))
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
    let mut generator = WatermarkGenerator::new(scenario.watermarks);
    // The watermark emitter's `maxWatermarkSoFar`: only larger watermarks are forwarded.
    let mut emitted = LONG_MIN;
    let mut key_ids: HashMap<&str, KeyId> = HashMap::new();

    let mut failure: Option<FlinkError> = None;
    for (step, item) in scenario.input.iter().enumerate() {
        op.rec.step = step;
        let outcome = match item {
            InputItem::Element(e) => {
                let next_id = result.keys.len() as KeyId;
                let key = *key_ids.entry(e.key.as_str()).or_insert_with(|| {
                    result.keys.push(e.key.clone());
                    next_id
                });
                let elem = op.push_element(ElementRec { id: e.id, key, ts: e.ts, value: e.value });
                result.elements.push(ElementInfo { id: e.id, key, ts: e.ts, value: e.value, step });
                // The element goes downstream first, then the generator sees it.
                op.process_element(elem, &e.key).and_then(|()| match generator.on_element(e.ts) {
                    Some(wm) if wm > emitted => {
                        emitted = wm;
                        op.process_watermark(wm)
                    }
                    _ => Ok(()),
                })
            }
            InputItem::Watermark(wm) => {
                if *wm > emitted {
                    emitted = *wm;
                    op.process_watermark(*wm)
                } else {
                    op.rec.push(TraceKind::WatermarkIgnored { proposed: *wm, current: emitted });
                    Ok(())
                }
            }
        };
        if let Err(e) = outcome {
            failure = Some(e);
            break;
        }
        result.watermark_after_step.push(op.current_watermark());
    }
    if failure.is_none() {
        op.rec.step = scenario.input.len();
        // A bounded source ends with `Watermark(Long.MAX_VALUE)`, unless the scenario models a
        // paused input (`end_of_input: false`).
        let max_watermark = scenario.end_of_input && emitted < LONG_MAX;
        op.rec.push(TraceKind::EndOfInput { max_watermark: scenario.end_of_input });
        if max_watermark && let Err(e) = op.process_watermark(LONG_MAX) {
            failure = Some(e);
        }
    }
    if let Some(e) = failure {
        op.rec.push(TraceKind::Error { phase: e.phase.into(), class: e.class.into(), message: e.message.clone() });
        op.rec.outputs.push(Output::Error(e.clone()));
        result.error = Some(e);
    }
    let last = op.current_watermark();
    result.watermark_after_step.resize(steps, last);
    result.stats = op.stats;
    result.outputs = std::mem::take(&mut op.rec.outputs);
    result.trace = std::mem::take(&mut op.rec.events);
    result
}
