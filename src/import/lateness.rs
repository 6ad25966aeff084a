//! The lateness report: for a range of bounded out-of-orderness bounds, how many elements arrive
//! behind the watermark, and with the scenario's window and allowed lateness how many are on
//! time, late-fired or dropped (or sent to the side output), and the result delay each bound
//! costs. It answers "why no output?" and "what bound do I need?".
//!
//! Definitions, per element, at the moment the window operator receives it:
//! - **late**: `ts <= watermark` (Flink's `isElementLate` with allowed lateness 0);
//! - **dropped**: no window took it (every window's `cleanup_time <= watermark`); it went to the
//!   late side output, was counted in `numLateRecordsDropped`, or vanished silently (Flink's own
//!   three cases);
//! - **late-fired**: some window took it and fired at once because of it (its end had passed the
//!   watermark: a late firing);
//! - **on time**: the rest: it waits in its windows for the watermark.
//!
//! Two ways to compute it, equal by the property test in `tests/import_lateness.rs`:
//! - engine runs ([`report_by_runs`]): one run of the scenario per bound, with the bound
//!   substituted, and one probe run per bound with 1 ms tumbling windows, where a window is late
//!   exactly when its element is (`max_timestamp = ts`), so the probe's side output counts late
//!   elements. Any assigner, source and trigger the report supports.
//! - analytic ([`report`] where it applies): with per-element watermark emission and no idleness,
//!   the watermark an element meets is `M - bound - 1`, where `M` is the minimum over partitions
//!   of the largest timestamp read so far (`Long.MIN` until every partition has one). So an
//!   element is late exactly when its lag `M - ts` exceeds the bound, for every bound at once;
//!   and for tumbling and sliding windows the windows' fate depends only on their bounds and the
//!   watermark, not on other elements.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::engine::scenario::{AssignerSpec, BaseTrigger, InputItem, Scenario, TriggerSpec, WatermarkSpec};
use crate::engine::time::window_start_with_offset;
use crate::engine::{FireCause, Millis, Output, run, run_with};
use crate::engine::{RunOptions, TimeWindow};

/// The share of elements the suggested bound leaves behind the watermark at most: 1 %.
pub const SUGGESTION_LATE_PER_MILLE: u64 = 10;

/// How a part of the report was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Analytic,
    EngineRuns,
}

/// One bound's numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundRow {
    pub bound: Millis,
    /// Elements with `ts <= watermark` on arrival.
    pub late: u64,
    pub on_time: u64,
    pub late_fired: u64,
    /// Dropped into the late side output (when the scenario has one).
    pub side_output: u64,
    /// Dropped and counted in `numLateRecordsDropped` (no side output).
    pub dropped: u64,
    /// Dropped without being counted (no window took it, yet the element was not late).
    pub silently_dropped: u64,
    /// Event time from a window's first element to its result: the bound plus the window
    /// length (size, or the session gap).
    pub result_delay: Millis,
    /// The job failed at this bound (Flink's exception); the counts are up to the failure.
    pub failure: Option<String>,
}

impl BoundRow {
    /// Elements that never reach a window result.
    pub fn all_dropped(&self) -> u64 {
        self.side_output + self.dropped + self.silently_dropped
    }
}

/// How far elements lie behind the largest timestamp seen before them in their partition, and
/// the bound suggested from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoundSuggestion {
    /// The suggested bound: [`BoundSuggestion::quantile_disorder`] rounded up to two
    /// significant digits.
    pub bound: Millis,
    /// The 99th percentile (nearest rank) of the disorder.
    pub quantile_disorder: Millis,
    pub max_disorder: Millis,
    /// Elements with a timestamp below an earlier one of their partition.
    pub out_of_order: u64,
    pub elements: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatenessReport {
    pub elements: u64,
    /// The window length in the result delay (size, or session gap).
    pub window: Millis,
    pub allowed_lateness: Millis,
    pub side_output: bool,
    /// The scenario's own bound (`None`: explicit watermarks).
    pub current_bound: Option<Millis>,
    pub suggestion: BoundSuggestion,
    /// In increasing bound order.
    pub rows: Vec<BoundRow>,
    /// How the `late` column was computed.
    pub late_method: Method,
    /// How the on time / late-fired / dropped columns were computed.
    pub outcome_method: Method,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportError {
    /// The scenario has no event-time windows fired by the watermark; the text says why.
    Unsupported(String),
    /// Flink rejects the job (e.g. a window size of 0): its exception.
    Rejected(String),
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReportError::Unsupported(why) => write!(f, "no lateness report: {why}"),
            ReportError::Rejected(e) => write!(f, "Flink rejects the job: {e}"),
        }
    }
}

impl std::error::Error for ReportError {}

/// The bound the rule suggests: the smallest bound that leaves at most 1 % of elements behind
/// their own partition's watermark, rounded up. The combined watermark is the minimum over the
/// partitions, never ahead of a partition's own, so at that bound at most 1 % of elements are
/// late whatever the other partitions do (fewer when a slow partition holds it back).
pub fn suggest_bound(scenario: &Scenario) -> BoundSuggestion {
    let partitions = scenario.partition_count() as usize;
    let mut max_seen: Vec<Option<Millis>> = vec![None; partitions.max(1)];
    let mut disorder: Vec<Millis> = Vec::with_capacity(scenario.input.len());
    for e in scenario.elements() {
        let slot = &mut max_seen[(e.partition as usize).min(partitions.saturating_sub(1))];
        let d = slot.map_or(0, |m| (i128::from(m) - i128::from(e.ts)).clamp(0, i128::from(i64::MAX)) as i64);
        *slot = Some(slot.map_or(e.ts, |m| m.max(e.ts)));
        disorder.push(d);
    }
    let n = disorder.len() as u64;
    if n == 0 {
        return BoundSuggestion::default();
    }
    disorder.sort_unstable();
    let out_of_order = disorder.iter().filter(|d| **d > 0).count() as u64;
    // Nearest rank: the k-th smallest with k = ceil(n * 99 %); above it lie n - k <= 1 % of n.
    let k = (n * (1000 - SUGGESTION_LATE_PER_MILLE)).div_ceil(1000).max(1);
    let quantile = disorder[(k - 1) as usize];
    BoundSuggestion {
        bound: round_up_two_digits(quantile),
        quantile_disorder: quantile,
        max_disorder: disorder[disorder.len() - 1],
        out_of_order,
        elements: n,
    }
}

/// `4732` → `4800`, `12345` → `13000`, `87` → `87`.
pub fn round_up_two_digits(x: Millis) -> Millis {
    if x < 100 {
        return x;
    }
    let mut step: Millis = 1;
    while x / step >= 100 {
        step *= 10;
    }
    (x / step + Millis::from(x % step != 0)).saturating_mul(step)
}

/// The bounds a report covers by default: 0, a 1-2-5 series from a ten-thousandth of the
/// largest disorder up to past it, the scenario's current bound and the suggested one.
pub fn default_bounds(scenario: &Scenario) -> Vec<Millis> {
    let s = suggest_bound(scenario);
    let mut bounds = vec![0, s.bound];
    if let Some(b) = current_bound(scenario) {
        bounds.push(b);
    }
    let low = (s.max_disorder / 10_000).max(1);
    if s.max_disorder > 0 {
        // 1, 2, 5, 10, 20, 50, ... up to 5 × 10^18 (below Long.MAX).
        let series = (0..19u32).flat_map(|e| [1, 2, 5].map(|m| m * 10i64.pow(e)));
        for v in series {
            if v >= low {
                bounds.push(v);
            }
            if v >= s.max_disorder {
                break;
            }
        }
    }
    bounds.sort_unstable();
    bounds.dedup();
    bounds
}

fn current_bound(scenario: &Scenario) -> Option<Millis> {
    match scenario.watermarks {
        WatermarkSpec::BoundedOutOfOrderness { bound } => Some(bound),
        WatermarkSpec::Monotonous => Some(0),
        WatermarkSpec::Explicit => None,
    }
}

/// The window length in the result delay, or why there is no report.
fn window_length(scenario: &Scenario) -> Result<Millis, ReportError> {
    if scenario.process_function.is_some() {
        return Err(ReportError::Unsupported("the scenario runs a keyed process function, not a window".into()));
    }
    if scenario.tvf.is_some() {
        return Err(ReportError::Unsupported("the scenario runs a window TVF, not a DataStream window".into()));
    }
    if let BaseTrigger::Count { .. } = scenario.trigger.base {
        return Err(ReportError::Unsupported("a CountTrigger fires by count, not by the watermark".into()));
    }
    match &scenario.assigner {
        AssignerSpec::Tumbling { size, .. } | AssignerSpec::Sliding { size, .. } => Ok(*size),
        AssignerSpec::Session { gap } => Ok(*gap),
        AssignerSpec::DynamicSession { default_gap, .. } => Ok(*default_gap),
        AssignerSpec::Global | AssignerSpec::GlobalEos => {
            Err(ReportError::Unsupported("global windows are not fired by the watermark".into()))
        }
        AssignerSpec::TumblingProcessing { .. } | AssignerSpec::SlidingProcessing { .. } => {
            Err(ReportError::Unsupported("processing-time windows do not look at event time".into()))
        }
    }
}

fn with_bound(scenario: &Scenario, bound: Millis) -> Scenario {
    Scenario { watermarks: WatermarkSpec::BoundedOutOfOrderness { bound }, ..scenario.clone() }
}

/// Checks what both ways share: a supported scenario that Flink accepts, bounds not negative.
fn prepare(scenario: &Scenario, bounds: &[Millis]) -> Result<(Millis, Vec<Millis>), ReportError> {
    let window = window_length(scenario)?;
    if let Some(b) = bounds.iter().find(|b| **b < 0) {
        return Err(ReportError::Unsupported(format!("bound {b}: maxOutOfOrderness cannot be negative")));
    }
    // Flink's own checks of the job (window sizes, allowed lateness) on an empty input.
    let empty = Scenario { input: Vec::new(), ..scenario.clone() };
    if let Some(e) = run(&empty).error {
        return Err(ReportError::Rejected(e.to_string()));
    }
    let mut bounds = bounds.to_vec();
    bounds.sort_unstable();
    bounds.dedup();
    Ok((window, bounds))
}

fn empty_report(scenario: &Scenario, window: Millis, late: Method, outcome: Method) -> LatenessReport {
    LatenessReport {
        elements: scenario.elements().count() as u64,
        window,
        allowed_lateness: scenario.lateness(),
        side_output: scenario.side_output,
        current_bound: current_bound(scenario),
        suggestion: suggest_bound(scenario),
        rows: Vec::new(),
        late_method: late,
        outcome_method: outcome,
    }
}

/// The report from engine runs only: the reference the analytic way is tested against.
pub fn report_by_runs(scenario: &Scenario, bounds: &[Millis]) -> Result<LatenessReport, ReportError> {
    let (window, bounds) = prepare(scenario, bounds)?;
    let mut report = empty_report(scenario, window, Method::EngineRuns, Method::EngineRuns);
    for bound in bounds {
        let mut row = outcomes_by_run(scenario, bound, window);
        let (late, failure) = late_by_probe_run(scenario, bound);
        row.late = late;
        row.failure = row.failure.or(failure);
        report.rows.push(row);
    }
    Ok(report)
}

/// The report, analytic where it is exactly equal to engine runs, else from runs.
pub fn report(scenario: &Scenario, bounds: &[Millis]) -> Result<LatenessReport, ReportError> {
    let (window, bounds) = prepare(scenario, bounds)?;
    let analytic_source = Watermarks::applies(scenario);
    let analytic_windows = analytic_source && AnalyticWindows::applies(scenario);
    let method = |analytic: bool| if analytic { Method::Analytic } else { Method::EngineRuns };
    let mut report = empty_report(scenario, window, method(analytic_source), method(analytic_windows));
    let watermarks = analytic_source.then(|| Watermarks::new(scenario));
    for bound in bounds {
        let mut row = match (&watermarks, analytic_windows) {
            (Some(w), true) => w.outcomes(scenario, bound, window),
            _ => outcomes_by_run(scenario, bound, window),
        };
        match &watermarks {
            Some(w) => row.late = w.late(bound),
            None => {
                let (late, failure) = late_by_probe_run(scenario, bound);
                row.late = late;
                row.failure = row.failure.or(failure);
            }
        }
        report.rows.push(row);
    }
    Ok(report)
}

/// On time, late-fired and dropped from one run of the scenario with `bound`.
fn outcomes_by_run(scenario: &Scenario, bound: Millis, window: Millis) -> BoundRow {
    let result = run_with(&with_bound(scenario, bound), RunOptions { trace: false });
    // A firing caused by an element fires during that element's step: one element per step.
    let mut fired_at_step = vec![false; result.steps];
    for o in &result.outputs {
        if let Output::Fire(f) = o
            && matches!(f.cause, FireCause::Element { .. })
            && let Some(fired) = fired_at_step.get_mut(f.step)
        {
            *fired = true;
        }
    }
    let elements = scenario.elements().count() as u64;
    let s = result.stats;
    let late_fired = fired_at_step.iter().filter(|f| **f).count() as u64;
    let dropped = s.side_output + s.late_records_dropped + s.silently_dropped;
    BoundRow {
        bound,
        late: 0,
        on_time: elements.saturating_sub(late_fired + dropped),
        late_fired,
        side_output: s.side_output,
        dropped: s.late_records_dropped,
        silently_dropped: s.silently_dropped,
        result_delay: bound.saturating_add(window),
        failure: result.error.map(|e| e.to_string()),
    }
}

/// Late elements from a probe run: 1 ms tumbling windows, allowed lateness 0, a side output. A
/// window `[ts, ts + 1)` has `max_timestamp = cleanup_time = ts`, so it is late exactly when
/// `ts <= watermark`, and then the element (late too) goes to the side output.
fn late_by_probe_run(scenario: &Scenario, bound: Millis) -> (u64, Option<String>) {
    let probe = Scenario {
        assigner: AssignerSpec::Tumbling { size: 1, offset: 0 },
        allowed_lateness: None,
        trigger: TriggerSpec::DEFAULT,
        evictor: None,
        side_output: true,
        ..with_bound(scenario, bound)
    };
    let result = run_with(&probe, RunOptions { trace: false });
    (result.stats.side_output, result.error.map(|e| e.to_string()))
}

/// The watermark each element meets, as `M - bound - 1` (see the module doc).
struct Watermarks {
    /// The lags `M - ts` (elements met by `Long.MIN` have none), sorted, for counting late
    /// elements at any bound.
    sorted: Vec<i128>,
    /// `M` per element in input order.
    m: Vec<Option<Millis>>,
}

impl Watermarks {
    /// Per-element emission, no idleness, no explicit watermarks, and timestamps far enough from
    /// `Long.MIN` that `max - bound - 1` never wraps (where Java's arithmetic would).
    fn applies(scenario: &Scenario) -> bool {
        !scenario.source.periodic
            && scenario.source.idleness.is_none()
            && scenario.input.iter().all(|i| matches!(i, InputItem::Element(e) if e.ts > i64::MIN / 2))
    }

    fn new(scenario: &Scenario) -> Self {
        let partitions = scenario.partition_count().max(1) as usize;
        let mut max_seen: Vec<Option<Millis>> = vec![None; partitions];
        let mut unseen = partitions;
        let mut min: Option<Millis> = None;
        let (mut sorted, mut m) = (Vec::new(), Vec::new());
        for e in scenario.elements() {
            sorted.extend(min.map(|m| i128::from(m) - i128::from(e.ts)));
            m.push(min);
            let p = (e.partition as usize).min(partitions - 1);
            let old = max_seen[p];
            if old.is_none() {
                unseen -= 1;
            }
            max_seen[p] = Some(old.map_or(e.ts, |o| o.max(e.ts)));
            if unseen == 0 && (min.is_none() || old == min) {
                min = max_seen.iter().map(|x| x.unwrap_or(i64::MIN)).min();
            }
        }
        sorted.sort_unstable();
        Watermarks { sorted, m }
    }

    /// Elements with `ts <= M - bound - 1`, i.e. lag > bound.
    fn late(&self, bound: Millis) -> u64 {
        let first_late = self.sorted.partition_point(|lag| *lag <= i128::from(bound));
        (self.sorted.len() - first_late) as u64
    }

    fn outcomes(&self, scenario: &Scenario, bound: Millis, window: Millis) -> BoundRow {
        let lateness = scenario.lateness();
        let mut row = BoundRow {
            bound,
            late: 0,
            on_time: 0,
            late_fired: 0,
            side_output: 0,
            dropped: 0,
            silently_dropped: 0,
            result_delay: bound.saturating_add(window),
            failure: None,
        };
        let windows = AnalyticWindows::new(&scenario.assigner);
        let mut assigned = Vec::new();
        for (e, m) in scenario.elements().zip(&self.m) {
            let watermark = m.map_or(i64::MIN, |m| m.wrapping_sub(bound).wrapping_sub(1));
            windows.assign(e.ts, &mut assigned);
            let mut accepted = false;
            let mut fires = false;
            for w in &assigned {
                let max_ts = w.max_timestamp();
                // `cleanupTime`: `max_timestamp + allowed_lateness`, Long.MAX on overflow.
                let cleanup = max_ts.wrapping_add(lateness);
                let cleanup = if cleanup >= max_ts { cleanup } else { i64::MAX };
                if cleanup > watermark {
                    accepted = true;
                    // `EventTimeTrigger.onElement`: FIRE when `max_timestamp <= watermark`.
                    fires |= max_ts <= watermark;
                }
            }
            if !accepted {
                // `isElementLate`: `ts + allowed_lateness <= watermark`, Java's wrapping add.
                if e.ts.wrapping_add(lateness) <= watermark {
                    if scenario.side_output { row.side_output += 1 } else { row.dropped += 1 }
                } else {
                    row.silently_dropped += 1;
                }
            } else if fires {
                row.late_fired += 1;
            } else {
                row.on_time += 1;
            }
        }
        row
    }
}

/// The windows of tumbling and sliding assigners, as `TumblingEventTimeWindows` and
/// `SlidingEventTimeWindows` assign them.
enum AnalyticWindows {
    Tumbling { size: Millis, offset: Millis },
    Sliding { size: Millis, slide: Millis, offset: Millis },
}

impl AnalyticWindows {
    /// Tumbling or sliding event-time windows fired by `EventTimeTrigger` (purging or not; an
    /// evictor and the window function change what a firing holds, not when it happens).
    fn applies(scenario: &Scenario) -> bool {
        matches!(scenario.assigner, AssignerSpec::Tumbling { .. } | AssignerSpec::Sliding { .. })
            && matches!(scenario.trigger.base, BaseTrigger::Default | BaseTrigger::EventTime)
    }

    fn new(assigner: &AssignerSpec) -> Self {
        match *assigner {
            AssignerSpec::Sliding { size, slide, offset } => AnalyticWindows::Sliding { size, slide, offset },
            AssignerSpec::Tumbling { size, offset } => AnalyticWindows::Tumbling { size, offset },
            // `applies` admits only the two above; a 1 ms tumbling window is harmless otherwise.
            _ => AnalyticWindows::Tumbling { size: 1, offset: 0 },
        }
    }

    fn assign(&self, ts: Millis, out: &mut Vec<TimeWindow>) {
        out.clear();
        match *self {
            AnalyticWindows::Tumbling { size, offset } => {
                let start = window_start_with_offset(ts, offset % size, size);
                out.push(TimeWindow::new(start, start.wrapping_add(size)));
            }
            AnalyticWindows::Sliding { size, slide, offset } => {
                // From the last start at or before `ts` back while `start > ts - size`.
                let mut start = window_start_with_offset(ts, offset, slide);
                while start > ts.wrapping_sub(size) {
                    out.push(TimeWindow::new(start, start.wrapping_add(size)));
                    let next = start.wrapping_sub(slide);
                    if next > start {
                        break;
                    }
                    start = next;
                }
            }
        }
    }
}
