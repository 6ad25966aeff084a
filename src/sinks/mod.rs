//! What downstream sees: the window results of a run as rows, and what three kinds of sink
//! make of them, compared with the correct answer.
//!
//! A window can emit several results: a main firing, then a late firing for every late element
//! within the allowed lateness (or early firings of a count or continuous trigger). Flink does
//! not retract the first result; it has no way to. So the sink decides:
//!
//! ```text
//!  run.outputs ──fire──▶ ResultRow (key, window, value, firing kind, watermark, ts = end-1)
//!      │                    ├──▶ append-only sink: every row, summed      (double-counts)
//!      │                    ├──▶ upsert sink keyed by (key, window_end)   (the last row wins)
//!      │                    └──▶ changelog: +I, then -U old / +U new      (a merged session
//!      │                                                                   retracts with -D)
//!      └──late──▶ LateRecord (id, key, ts, value: the input type), or numLateRecordsDropped
//! ```
//!
//! The correct answer is the final value of each window: its last result, or, for a purging
//! trigger whose firings are deltas, the function over everything it ever emitted.
//!
//! Everything is computed once per run ([`Downstream::new`]) and read at a playhead with the
//! engine's convention "after `step` steps": the outputs whose `step < step`.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod estimate;
pub mod state;
pub mod value;

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::Run;
use crate::engine::output::ProcessRecord;
use crate::engine::output::{FlinkError, Output};
use crate::engine::recovery::duplicate_of;
use crate::engine::scenario::{Scenario, WindowFunctionSpec};
use crate::engine::time::{Millis, TimeWindow, Window};
use crate::engine::trace::{ElemIdx, FireCause, FiringKind, KeyId, TraceKind};

pub use estimate::{EstimateParams, StateEstimate, WindowsPerKey};
pub use state::{
    CourseLiveWindows, PartitionChange, PartitionSeries, PartitionState, StateSample, StateSeries, StateSizeParams,
    WatermarkSample, course_estimate_bytes, course_live_windows, course_live_windows_per_key, partition_series,
    state_series, watermark_series,
};
pub use value::{Amount, ResultValue};

/// Index of a row in [`Downstream::rows`].
pub type RowIdx = usize;

/// One result of the window function, as the main output carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow {
    /// Index in [`Run::outputs`].
    pub output: usize,
    /// The input step during which it was emitted.
    pub step: usize,
    pub key: KeyId,
    pub window: Window,
    pub value: ResultValue,
    /// Ids of the elements the function saw (after the evictor), sorted.
    pub ids: Vec<i64>,
    /// Early, main or late (the engine's teaching classification).
    pub kind: FiringKind,
    /// Earlier firings of this window (the oracle's counter: `main` iff `n == 0`).
    pub n: u64,
    /// `ctx.currentWatermark()` at the firing.
    pub watermark: Millis,
    /// The output record's timestamp: `window.maxTimestamp()`, i.e. end − 1.
    pub record_timestamp: Millis,
    pub cause: FireCause,
    /// The earlier row of the same window that this result updates.
    pub updates: Option<RowIdx>,
    /// Rows of session windows that a merge absorbed into this row's window, which this first
    /// result of the merged window replaces.
    pub replaces: Vec<RowIdx>,
    /// A recovery duplicate: after a restore from a checkpoint, the replay emitted this row of an
    /// earlier attempt again, identical (key, window, firing counter, contents). An append sink
    /// receives it a second time; an upsert sink writes the same value to the same key.
    pub recovery_duplicate: Option<RowIdx>,
}

impl ResultRow {
    /// The upsert key's window part: the window end (`None` for the global window).
    pub fn window_end(&self) -> Option<Millis> {
        self.window.time_window().map(|w| w.end)
    }

    /// Whether this row changes an earlier answer (an update or a merge replacement).
    pub fn is_update(&self) -> bool {
        self.updates.is_some() || !self.replaces.is_empty()
    }
}

/// A row of the append-only sink.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AppendRow {
    pub row: RowIdx,
    /// The sum of the amount column over this row and every earlier one.
    pub running_total: Amount,
}

/// A row of the upsert sink keyed by (key, window_end): the last result written to that key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpsertRow {
    pub key: KeyId,
    pub window_end: Option<Millis>,
    pub row: RowIdx,
    /// How many results were written to this key (more than 1: later ones overwrote).
    pub writes: u32,
    /// Of those writes, recovery duplicates: the same value again, absorbed by the key.
    pub duplicates: u32,
}

/// Flink's `RowKind` in a changelog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// `+I`: the first result of a window.
    Insert,
    /// `-U`: the old result, retracted before an update.
    UpdateBefore,
    /// `+U`: the new result.
    UpdateAfter,
    /// `-D`: a session window's result retracted because a merge absorbed the window.
    Delete,
}

impl ChangeKind {
    /// `+I`, `-U`, `+U`, `-D` as Flink prints them.
    pub fn short(&self) -> &'static str {
        match self {
            ChangeKind::Insert => "+I",
            ChangeKind::UpdateBefore => "-U",
            ChangeKind::UpdateAfter => "+U",
            ChangeKind::Delete => "-D",
        }
    }

    /// Whether the row's amount is added to (or taken from) a materialized table.
    pub fn is_addition(&self) -> bool {
        matches!(self, ChangeKind::Insert | ChangeKind::UpdateAfter)
    }
}

/// One row of the changelog view, carrying the values of result row `row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeRow {
    pub kind: ChangeKind,
    pub row: RowIdx,
    /// The step of the result that caused it.
    pub step: usize,
}

/// A record on the late side output, in its input type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LateRecord {
    /// Index in [`Run::outputs`].
    pub output: usize,
    pub step: usize,
    pub elem: ElemIdx,
    pub id: i64,
    pub key: KeyId,
    pub ts: Millis,
    pub value: i64,
}

impl LateRecord {
    /// The line the course's lab prints for it: `LATE <request_id>` (Windows and Timers, Lab 6.3:
    /// "Find its LATE <request_id> side-output line"); the element's id is its request id.
    pub fn lab_line(&self) -> String {
        format!("LATE {}", self.id)
    }
}

/// The side output panel at a playhead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideOutputView<'a> {
    /// Whether the scenario calls `sideOutputLateData`.
    pub enabled: bool,
    pub records: &'a [LateRecord],
    /// Flink's `numLateRecordsDropped`: late elements dropped because there is no side output.
    pub late_records_dropped: u64,
    /// Elements dropped without being counted: their windows were late but they were not
    /// (or they fell in no window at all).
    pub silently_dropped: u64,
}

/// Each sink's total against the correct answer, at a playhead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinkTotals {
    pub append: Amount,
    pub upsert: Amount,
    /// The changelog materialized into a table (retractions applied).
    pub changelog: Amount,
    /// The final value of each window that has emitted a result so far (what the sinks should
    /// eventually hold for those windows).
    pub correct: Amount,
    /// The column the totals add up (`sum`, `count`, `avg`, `min`, `max`).
    pub column: &'static str,
}

impl SinkTotals {
    /// Append total minus the correct answer (positive: double-counted).
    pub fn append_difference(&self) -> Amount {
        self.append - self.correct
    }

    pub fn upsert_difference(&self) -> Amount {
        self.upsert - self.correct
    }

    pub fn changelog_difference(&self) -> Amount {
        self.changelog - self.correct
    }
}

/// The results of one window up to a playhead (the "results per window" chart).
#[derive(Clone, Debug, PartialEq)]
pub struct WindowResults {
    pub key: KeyId,
    pub window: Window,
    /// In emission order.
    pub rows: Vec<RowIdx>,
}

/// The final answer for one window (after merges: for the window that absorbed the others).
#[derive(Clone, Debug, PartialEq)]
pub struct FinalAnswer {
    /// The row that holds the window's last result.
    pub last_row: RowIdx,
    pub value: ResultValue,
}

/// Everything downstream of the window operator for one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Downstream {
    function: WindowFunctionSpec,
    steps: usize,
    keys: Vec<String>,
    rows: Vec<ResultRow>,
    append: Vec<AppendRow>,
    /// The upsert sink's and the correct answer's totals after each row.
    upsert_totals: Vec<Amount>,
    correct_totals: Vec<Amount>,
    changelog: Vec<ChangeRow>,
    /// The materialized changelog's total after each changelog row.
    changelog_totals: Vec<Amount>,
    /// For each row, the index in `finals` of the answer it ends up in.
    final_of_row: Vec<usize>,
    finals: Vec<FinalAnswer>,
    late: Vec<LateRecord>,
    counted_drop_steps: Vec<usize>,
    silent_drop_steps: Vec<usize>,
    side_output: bool,
    state: StateSeries,
    watermarks: Vec<WatermarkSample>,
    partitions: PartitionSeries,
    /// Records of a keyed process function (scenarios that run one instead of a window).
    process: Vec<ProcessRecord>,
    error: Option<FlinkError>,
}

/// The playhead prefix: how many of `items` have `step < playhead` (items are in step order).
fn prefix<T>(items: &[T], playhead: usize, step_of: impl Fn(&T) -> usize) -> usize {
    items.partition_point(|i| step_of(i) < playhead)
}

impl Downstream {
    pub fn new(scenario: &Scenario, run: &Run) -> Downstream {
        let function = scenario.function;
        let value_of = |e: &ElemIdx| run.elements.get(*e as usize).map_or(0, |el| el.value);

        let mut rows: Vec<ResultRow> = Vec::new();
        let mut changelog: Vec<ChangeRow> = Vec::new();
        // The latest row of every window whose result stands (the changelog materialized).
        let mut current: BTreeMap<(KeyId, Window), RowIdx> = BTreeMap::new();
        // Rows of session windows a merge absorbed, waiting for the first result of the window
        // that absorbed them (merges pass them on to the next merge result).
        let mut absorbed_rows: BTreeMap<(KeyId, TimeWindow), Vec<RowIdx>> = BTreeMap::new();
        let mut superseded_by: Vec<Option<RowIdx>> = Vec::new();
        let late_output: BTreeMap<ElemIdx, usize> = run
            .outputs
            .iter()
            .enumerate()
            .filter_map(|(i, o)| match o {
                Output::Late { elem, .. } => Some((*elem, i)),
                Output::Fire(_) | Output::Error(_) | Output::Process(_) | Output::Tvf(_) | Output::Recovery(_) => None,
            })
            .collect();
        let mut late = Vec::new();
        let mut counted_drop_steps = Vec::new();
        let mut silent_drop_steps = Vec::new();
        // The row of each firing output (a recovery duplicate names the row it repeats).
        let mut row_of_output: BTreeMap<usize, RowIdx> = BTreeMap::new();
        let recovery = scenario.has_recovery();

        for ev in &run.trace {
            match &ev.kind {
                TraceKind::WindowCreated { key, window: Window::Time(w) }
                | TraceKind::CleanedUp { key, window: Window::Time(w), .. } => {
                    // A fresh window, or one gone without a result: nothing of an older window
                    // with the same bounds is waiting for it.
                    absorbed_rows.remove(&(*key, *w));
                }
                TraceKind::SessionsMerged { key, merged, into, .. } => {
                    let mut waiting = absorbed_rows.remove(&(*key, *into)).unwrap_or_default();
                    for m in merged.iter().filter(|m| *m != into) {
                        waiting.extend(absorbed_rows.remove(&(*key, *m)).unwrap_or_default());
                        if let Some(r) = current.get(&(*key, Window::Time(*m))) {
                            waiting.push(*r);
                        }
                    }
                    if !waiting.is_empty() {
                        absorbed_rows.insert((*key, *into), waiting);
                    }
                }
                TraceKind::Fired { output, key, window } => {
                    // The window operator's firings and the window TVF's rows alike.
                    let Some(firing) = run.firing(*output) else { continue };
                    let values: Vec<i64> = firing.elems.iter().map(value_of).collect();
                    let f = FiredRef { key: *key, window: *window, step: ev.step };
                    let r = rows.len();
                    let mut row = ResultRow {
                        output: *output,
                        step: ev.step,
                        key: *key,
                        window: *window,
                        value: ResultValue::of(function, &values),
                        ids: firing.ids.clone(),
                        kind: firing.kind,
                        n: firing.n,
                        watermark: firing.watermark,
                        record_timestamp: window.max_timestamp(),
                        cause: firing.cause,
                        updates: None,
                        replaces: Vec::new(),
                        recovery_duplicate: None,
                    };
                    // A replay's result equal to one of an earlier attempt: a recovery duplicate,
                    // not a new answer (the changelog and the correct answer ignore it).
                    let original = if recovery { duplicate_of(&run.outputs, *output) } else { None };
                    if let Some(o) = original.and_then(|o| row_of_output.get(&o).copied()) {
                        row.recovery_duplicate = Some(o);
                        row_of_output.insert(*output, r);
                        rows.push(row);
                        superseded_by.push(Some(o));
                        continue;
                    }
                    row_of_output.insert(*output, r);
                    if let Some(prev) = current.get(&(f.key, f.window)).copied() {
                        row.updates = Some(prev);
                        superseded_by[prev] = Some(r);
                        changelog.push(ChangeRow { kind: ChangeKind::UpdateBefore, row: prev, step: f.step });
                        changelog.push(ChangeRow { kind: ChangeKind::UpdateAfter, row: r, step: f.step });
                    } else {
                        // The first result of a window that may have absorbed fired sessions:
                        // their results are replaced (the course: "a late element can bridge two
                        // already-emitted sessions, producing a merged result that replaces both").
                        if let Window::Time(target) = f.window {
                            let mut replaced = absorbed_rows.remove(&(f.key, target)).unwrap_or_default();
                            replaced.sort_unstable();
                            replaced.dedup();
                            // Only results that still stand are retracted.
                            replaced.retain(|old| {
                                let Some(row) = rows.get(*old) else { return false };
                                current.get(&(row.key, row.window)) == Some(old)
                            });
                            for old in &replaced {
                                if let Some(row) = rows.get(*old) {
                                    current.remove(&(row.key, row.window));
                                }
                                superseded_by[*old] = Some(r);
                                changelog.push(ChangeRow { kind: ChangeKind::Delete, row: *old, step: f.step });
                            }
                            row.replaces = replaced;
                        }
                        changelog.push(ChangeRow { kind: ChangeKind::Insert, row: r, step: f.step });
                    }
                    current.insert((f.key, f.window), r);
                    rows.push(row);
                    superseded_by.push(None);
                }
                TraceKind::SideOutput { elem, .. } => {
                    if let Some(el) = run.elements.get(*elem as usize) {
                        let output = late_output.get(elem).copied().unwrap_or(usize::MAX);
                        late.push(LateRecord {
                            output,
                            step: ev.step,
                            elem: *elem,
                            id: el.id,
                            key: el.key,
                            ts: el.ts,
                            value: el.value,
                        });
                    }
                }
                TraceKind::Dropped { counted: true, .. } => counted_drop_steps.push(ev.step),
                TraceKind::Dropped { counted: false, .. } => silent_drop_steps.push(ev.step),
                _ => {}
            }
        }

        // The correct answer: follow each row to the row that finally superseded it.
        let final_row = |mut r: RowIdx| {
            while let Some(next) = superseded_by.get(r).copied().flatten() {
                r = next;
            }
            r
        };
        let mut finals: Vec<FinalAnswer> = Vec::new();
        let mut final_index: BTreeMap<RowIdx, usize> = BTreeMap::new();
        let mut members: Vec<Vec<RowIdx>> = Vec::new();
        let mut final_of_row = Vec::with_capacity(rows.len());
        for r in 0..rows.len() {
            let last = final_row(r);
            let idx = *final_index.entry(last).or_insert_with(|| {
                finals.push(FinalAnswer { last_row: last, value: rows[last].value });
                members.push(Vec::new());
                finals.len() - 1
            });
            members[idx].push(r);
            final_of_row.push(idx);
        }
        if scenario.trigger.purging {
            // Why: a purging trigger clears the contents at every firing, so each result holds
            // only what arrived since the last one; the window's answer is the function over
            // all of them (an append sink is right here, an upsert sink loses the earlier ones).
            for (answer, rs) in finals.iter_mut().zip(&members) {
                let elems: BTreeSet<ElemIdx> =
                    rs.iter().filter_map(|r| run.outputs.get(rows[*r].output)).flat_map(fire_elems).collect();
                let values: Vec<i64> = elems.iter().map(value_of).collect();
                answer.value = ResultValue::of(function, &values);
            }
        }

        // Running totals, so that a playhead read is a lookup (scrubbing a 100k-row run).
        let amount = |r: RowIdx| rows.get(r).and_then(|row| row.value.amount()).unwrap_or(Amount::ZERO);
        let mut total = Amount::ZERO;
        let append = (0..rows.len())
            .map(|r| {
                total = total + amount(r);
                AppendRow { row: r, running_total: total }
            })
            .collect();
        let mut upsert_table: BTreeMap<(KeyId, Option<Millis>), Amount> = BTreeMap::new();
        let mut upsert = Amount::ZERO;
        let mut seen_finals: BTreeSet<usize> = BTreeSet::new();
        let mut correct = Amount::ZERO;
        let mut upsert_totals = Vec::with_capacity(rows.len());
        let mut correct_totals = Vec::with_capacity(rows.len());
        for (r, row) in rows.iter().enumerate() {
            let new = amount(r);
            let old = upsert_table.insert((row.key, row.window_end()), new).unwrap_or(Amount::ZERO);
            upsert = upsert - old + new;
            upsert_totals.push(upsert);
            if let Some(f) = final_of_row.get(r)
                && seen_finals.insert(*f)
            {
                correct = correct + finals.get(*f).and_then(|a| a.value.amount()).unwrap_or(Amount::ZERO);
            }
            correct_totals.push(correct);
        }
        let mut materialized = Amount::ZERO;
        let changelog_totals = changelog
            .iter()
            .map(|c| {
                materialized =
                    if c.kind.is_addition() { materialized + amount(c.row) } else { materialized - amount(c.row) };
                materialized
            })
            .collect();

        Downstream {
            function,
            steps: run.steps,
            keys: run.keys.clone(),
            rows,
            append,
            upsert_totals,
            correct_totals,
            changelog,
            changelog_totals,
            final_of_row,
            finals,
            late,
            counted_drop_steps,
            silent_drop_steps,
            side_output: scenario.side_output,
            state: state_series(scenario, run),
            watermarks: watermark_series(run),
            partitions: partition_series(scenario, run),
            process: run
                .outputs
                .iter()
                .filter_map(|o| match o {
                    Output::Process(p) => Some(p.clone()),
                    _ => None,
                })
                .collect(),
            error: run.error.clone(),
        }
    }

    pub fn function(&self) -> WindowFunctionSpec {
        self.function
    }

    /// The number of playhead positions minus one (`run.steps`).
    pub fn steps(&self) -> usize {
        self.steps
    }

    pub fn key_name(&self, key: KeyId) -> &str {
        self.keys.get(key as usize).map_or("", String::as_str)
    }

    /// Every result row of the run, in emission order.
    pub fn rows(&self) -> &[ResultRow] {
        &self.rows
    }

    pub fn row(&self, row: RowIdx) -> Option<&ResultRow> {
        self.rows.get(row)
    }

    /// The main output at the playhead.
    pub fn rows_at(&self, step: usize) -> &[ResultRow] {
        &self.rows[..prefix(&self.rows, step, |r| r.step)]
    }

    /// The append-only sink at the playhead, with running totals.
    pub fn append_at(&self, step: usize) -> &[AppendRow] {
        &self.append[..self.rows_at(step).len()]
    }

    /// The upsert sink keyed by (key, window_end) at the playhead, ordered by key (first
    /// appearance) and window end.
    pub fn upsert_at(&self, step: usize) -> Vec<UpsertRow> {
        let mut table: BTreeMap<(KeyId, Option<Millis>), UpsertRow> = BTreeMap::new();
        for (r, row) in self.rows_at(step).iter().enumerate() {
            let end = row.window_end();
            table
                .entry((row.key, end))
                .and_modify(|u| {
                    u.row = r;
                    u.writes += 1;
                    u.duplicates += u32::from(row.recovery_duplicate.is_some());
                })
                .or_insert(UpsertRow { key: row.key, window_end: end, row: r, writes: 1, duplicates: 0 });
        }
        table.into_values().collect()
    }

    /// The Flink SQL changelog view of the results at the playhead.
    pub fn changelog_at(&self, step: usize) -> &[ChangeRow] {
        &self.changelog[..prefix(&self.changelog, step, |c| c.step)]
    }

    /// Each sink's total and the correct answer at the playhead.
    pub fn totals_at(&self, step: usize) -> SinkTotals {
        let last_row = self.rows_at(step).len().checked_sub(1);
        let at = |totals: &[Amount], i: Option<usize>| i.and_then(|i| totals.get(i)).copied().unwrap_or(Amount::ZERO);
        let append = last_row.and_then(|i| self.append.get(i)).map_or(Amount::ZERO, |a| a.running_total);
        let upsert = at(&self.upsert_totals, last_row);
        let correct = at(&self.correct_totals, last_row);
        let changelog = at(&self.changelog_totals, self.changelog_at(step).len().checked_sub(1));
        let column = ResultValue::of(self.function, &[]).column();
        SinkTotals { append, upsert, changelog, correct, column }
    }

    /// The final answer that row `row` ends up in.
    pub fn final_answer(&self, row: RowIdx) -> Option<&FinalAnswer> {
        self.final_of_row.get(row).and_then(|i| self.finals.get(*i))
    }

    /// The final answers of the whole run, in order of their first result.
    pub fn final_answers(&self) -> &[FinalAnswer] {
        &self.finals
    }

    /// The side output panel at the playhead.
    pub fn side_output_at(&self, step: usize) -> SideOutputView<'_> {
        SideOutputView {
            enabled: self.side_output,
            records: &self.late[..prefix(&self.late, step, |l| l.step)],
            late_records_dropped: prefix(&self.counted_drop_steps, step, |s| *s) as u64,
            silently_dropped: prefix(&self.silent_drop_steps, step, |s| *s) as u64,
        }
    }

    /// The results of each window up to the playhead, ordered by (key, window).
    pub fn results_per_window_at(&self, step: usize) -> Vec<WindowResults> {
        let mut by_window: BTreeMap<(KeyId, Window), Vec<RowIdx>> = BTreeMap::new();
        for (r, row) in self.rows_at(step).iter().enumerate() {
            by_window.entry((row.key, row.window)).or_default().push(r);
        }
        by_window.into_iter().map(|((key, window), rows)| WindowResults { key, window, rows }).collect()
    }

    /// State per step (`0..=steps`), for the state chart.
    pub fn state(&self) -> &StateSeries {
        &self.state
    }

    /// Watermark and largest event time per step (`0..=steps`), for the lag chart.
    pub fn watermarks(&self) -> &[WatermarkSample] {
        &self.watermarks
    }

    pub fn watermark_at(&self, step: usize) -> Option<&WatermarkSample> {
        self.watermarks.get(step.min(self.steps))
    }

    /// Each source partition's watermark and idle flag (the combined minimum is
    /// [`Downstream::watermarks`]).
    pub fn partitions(&self) -> &PartitionSeries {
        &self.partitions
    }

    /// What a keyed process function emitted up to the playhead (`completed`, `abandoned`,
    /// `alert`, `ok`), for scenarios that run one instead of a window.
    pub fn process_records_at(&self, step: usize) -> &[ProcessRecord] {
        &self.process[..prefix(&self.process, step, |p| p.step)]
    }

    /// Flink's error, if the job failed or was never built.
    pub fn error(&self) -> Option<&FlinkError> {
        self.error.as_ref()
    }
}

/// The parts of a `Fired` event the sinks key on.
struct FiredRef {
    key: KeyId,
    window: Window,
    step: usize,
}

fn fire_elems(output: &Output) -> Vec<ElemIdx> {
    output.firing().map(|f| f.elems.clone()).unwrap_or_default()
}
