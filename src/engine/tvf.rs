//! Flink SQL window table-valued functions (TUMBLE, HOP, CUMULATE, SESSION) with a window
//! aggregation on top: one final row per window when the watermark passes `window_end - 1`,
//! no allowed lateness, state cleared after firing, rows with `window_start`, `window_end` and
//! `window_time`. Run on the same input as a DataStream window, the difference shows: a late
//! row is simply dropped (`numLateRecordsDropped`), where allowed lateness would have re-fired.
//!
//! A row goes into every window containing it that has not fired yet; it is dropped (and
//! counted in `numLateRecordsDropped`) only when every window containing it has fired: for HOP
//! and CUMULATE a row whose first window already fired still counts in the later ones
//! (`tvf_hop_basic`, `tvf_cumulate_basic`, recorded with real Flink). SESSION merges like the
//! DataStream session windows, touching sessions included, and checks lateness on the merged
//! window: a row behind the watermark that joins an open session is kept
//! (`tvf_session_late_row_joins_open_session`).

use std::collections::BTreeMap;

use super::operator::{ElementRec, MAX_TIMERS_PER_ADVANCE, OperatorStats};
use super::output::{Firing, FlinkError, Output, TvfRow};
use super::recorder::Recorder;
use super::recovery::Snapshots;
use super::scenario::TvfSpec;
use super::scenario::limits::MAX_WINDOWS_PER_ELEMENT;
use super::time::{LONG_MIN, Millis, TimeWindow, Window, window_start_with_offset};
use super::trace::{ElemIdx, FireCause, FiringKind, KeyId, TimeDomain, TimerPurpose, TraceKind};

pub struct TvfOperator {
    spec: TvfSpec,
    watermark: Millis,
    elements: Vec<ElementRec>,
    /// Live windows: (window end, key, window start) -> rows, so firing order is by end.
    windows: BTreeMap<(Millis, KeyId, Millis), Vec<ElemIdx>>,
    /// Completed checkpoints: the live windows' rows.
    checkpoints: Snapshots<BTreeMap<(Millis, KeyId, Millis), Vec<ElemIdx>>>,
    pub rec: Recorder,
    pub stats: OperatorStats,
}

impl TvfOperator {
    pub fn new(spec: TvfSpec, trace: bool) -> Self {
        TvfOperator {
            spec,
            watermark: LONG_MIN,
            elements: Vec::new(),
            windows: BTreeMap::new(),
            checkpoints: Snapshots::default(),
            rec: Recorder { enabled: trace, ..Recorder::default() },
            stats: OperatorStats::default(),
        }
    }

    pub fn current_watermark(&self) -> Millis {
        self.watermark
    }

    /// A checkpoint: the rows of the live windows (not the watermark).
    pub fn checkpoint(&mut self) {
        self.checkpoints.push(self.windows.clone());
    }

    /// Checkpoint `n`'s rows (none: empty), the watermark back at `Long.MIN_VALUE`.
    pub fn restore(&mut self, checkpoint: Option<u32>) {
        self.windows = self.checkpoints.get(checkpoint).cloned().unwrap_or_default();
        self.watermark = LONG_MIN;
    }

    pub fn push_element(&mut self, rec: ElementRec) -> ElemIdx {
        self.elements.push(rec);
        (self.elements.len() - 1) as ElemIdx
    }

    /// The end of the row's first slice and the windows it belongs to.
    fn slice_and_windows(&self, ts: Millis) -> (Millis, Vec<TimeWindow>) {
        match self.spec {
            TvfSpec::Tumble { size } => {
                let start = window_start_with_offset(ts, 0, size);
                let w = TimeWindow::new(start, start.saturating_add(size));
                (w.end, vec![w])
            }
            TvfSpec::Hop { size, slide } => {
                let slice_start = window_start_with_offset(ts, 0, slide);
                let mut windows = Vec::new();
                let mut start = slice_start;
                while start > ts.saturating_sub(size) && (windows.len() as i64) < MAX_WINDOWS_PER_ELEMENT {
                    windows.push(TimeWindow::new(start, start.saturating_add(size)));
                    start = start.saturating_sub(slide);
                }
                (slice_start.saturating_add(slide), windows)
            }
            TvfSpec::Cumulate { step, size } => {
                let slice_end = window_start_with_offset(ts, 0, step).saturating_add(step);
                let start = window_start_with_offset(ts, 0, size);
                let mut windows = Vec::new();
                let mut end = slice_end;
                while end <= start.saturating_add(size) && (windows.len() as i64) < MAX_WINDOWS_PER_ELEMENT {
                    windows.push(TimeWindow::new(start, end));
                    end = end.saturating_add(step);
                }
                (slice_end, windows)
            }
            TvfSpec::Session { gap } => {
                let w = TimeWindow::new(ts, ts.saturating_add(gap));
                (w.end, vec![w])
            }
        }
    }

    pub fn process_element(&mut self, elem: ElemIdx, _key_name: &str) -> Result<(), FlinkError> {
        let e = self.elements[elem as usize];
        let key = e.key;
        self.rec.push(TraceKind::ElementArrived { elem, id: e.id, key, ts: e.ts, value: e.value });
        let (_, windows) = self.slice_and_windows(e.ts);
        let watermark = self.watermark;
        // SESSION merges first and checks lateness after, on the merged window
        // (`MergingWindowProcessFunction.assignStateNamespace`: `addWindow`, then
        // `isWindowLate`): a row whose own [ts, ts + gap) is behind the watermark still joins,
        // or extends backwards, a session of its key that has not fired.
        let windows: Vec<TimeWindow> = match self.spec {
            TvfSpec::Session { .. } => {
                windows.into_iter().filter(|w| self.session_merge_target(key, *w).max_timestamp() > watermark).collect()
            }
            _ => windows.into_iter().filter(|w| w.max_timestamp() > watermark).collect(),
        };
        if self.rec.enabled {
            self.rec.push(TraceKind::WindowsAssigned {
                elem,
                key,
                windows: windows.iter().map(|w| Window::Time(*w)).collect(),
            });
        }
        // No allowed lateness: a row whose windows have all fired is dropped and counted.
        if windows.is_empty() {
            self.stats.late_records_dropped += 1;
            self.rec.push(TraceKind::Dropped { elem, id: e.id, key, ts: e.ts, counted: true });
            return Ok(());
        }
        self.stats.assignments += windows.len() as u64;
        if let TvfSpec::Session { .. } = self.spec {
            let Some(&new_window) = windows.first() else { return Ok(()) };
            self.add_to_session(elem, key, new_window);
            return Ok(());
        }
        for w in windows {
            let slot = (w.end, key, w.start);
            let created = !self.windows.contains_key(&slot);
            self.windows.entry(slot).or_default().push(elem);
            let window = Window::Time(w);
            if created {
                self.rec.push(TraceKind::WindowCreated { key, window });
                self.rec.push(TraceKind::TimerRegistered {
                    key,
                    window,
                    time: w.max_timestamp(),
                    purpose: TimerPurpose { trigger: true, cleanup: true },
                    domain: TimeDomain::EventTime,
                });
            }
            self.rec.push(TraceKind::ElementAdded { elem, id: e.id, key, window, state_window: window });
        }
        Ok(())
    }

    /// The window a row's session `new_window` becomes once merged with the live sessions of
    /// its key that it intersects (touching included).
    fn session_merge_target(&self, key: KeyId, new_window: TimeWindow) -> TimeWindow {
        self.windows
            .keys()
            .filter(|(end, k, start)| *k == key && TimeWindow::new(*start, *end).intersects(&new_window))
            .fold(new_window, |merged, (end, _, start)| merged.cover(&TimeWindow::new(*start, *end)))
    }

    /// Merges the row's session with every live session of the key it intersects.
    fn add_to_session(&mut self, elem: ElemIdx, key: KeyId, new_window: TimeWindow) {
        let id = self.elements[elem as usize].id;
        let overlapping: Vec<(Millis, KeyId, Millis)> = self
            .windows
            .keys()
            .filter(|(end, k, start)| *k == key && TimeWindow::new(*start, *end).intersects(&new_window))
            .copied()
            .collect();
        let mut merged = new_window;
        let mut rows = Vec::new();
        let mut absorbed = Vec::new();
        for slot in &overlapping {
            let w = TimeWindow::new(slot.2, slot.0);
            merged = merged.cover(&w);
            absorbed.push(w);
            rows.extend(self.windows.remove(slot).unwrap_or_default());
            self.rec.push(TraceKind::TimerDeleted {
                key,
                window: Window::Time(w),
                time: w.max_timestamp(),
                purpose: TimerPurpose { trigger: true, cleanup: true },
                domain: TimeDomain::EventTime,
            });
        }
        rows.push(elem);
        let window = Window::Time(merged);
        if absorbed.is_empty() {
            self.rec.push(TraceKind::WindowCreated { key, window });
        } else {
            self.rec.push(TraceKind::SessionsMerged {
                key,
                new_window,
                merged: absorbed.clone(),
                into: merged,
                // The merged rows live under the merged window (what the view folds).
                state_window: merged,
            });
        }
        self.rec.push(TraceKind::TimerRegistered {
            key,
            window,
            time: merged.max_timestamp(),
            purpose: TimerPurpose { trigger: true, cleanup: true },
            domain: TimeDomain::EventTime,
        });
        self.rec.push(TraceKind::ElementAdded { elem, id, key, window, state_window: window });
        self.windows.insert((merged.end, key, merged.start), rows);
    }

    pub fn process_watermark(&mut self, watermark: Millis) -> Result<(), FlinkError> {
        self.rec.push(TraceKind::WatermarkAdvanced { from: self.watermark, to: watermark });
        self.watermark = watermark;
        let mut fired = 0;
        while let Some(entry) = self.windows.first_entry() {
            let (end, key, start) = *entry.key();
            if end.saturating_sub(1) > watermark {
                break;
            }
            let elems = entry.remove();
            fired += 1;
            if fired > MAX_TIMERS_PER_ADVANCE {
                return Err(FlinkError::limit("too many windows in one watermark advance"));
            }
            let w = TimeWindow::new(start, end);
            let window = Window::Time(w);
            let time = w.max_timestamp();
            self.rec.push(TraceKind::TimerFired {
                key,
                window,
                time,
                purpose: TimerPurpose { trigger: true, cleanup: true },
                stale: false,
                domain: TimeDomain::EventTime,
            });
            let mut ids: Vec<i64> = elems.iter().map(|&e| self.elements[e as usize].id).collect();
            ids.sort_unstable();
            let sum = elems.iter().fold(0i64, |s, &e| s.wrapping_add(self.elements[e as usize].value));
            let count = elems.len() as u64;
            let output = self.rec.outputs.len();
            let firing = Firing {
                key,
                window,
                ids,
                elems: elems.clone(),
                sum,
                count,
                n: 0,
                kind: FiringKind::Main,
                watermark,
                cause: FireCause::Timer { time },
                purge: true,
                step: self.rec.step,
                result: None,
            };
            self.rec.outputs.push(Output::Tvf(TvfRow {
                window_start: start,
                window_end: end,
                window_time: time,
                firing,
            }));
            self.stats.firings += 1;
            self.rec.push(TraceKind::Fired { key, window, output });
            self.rec.push(TraceKind::CleanedUp { key, window, time, elems, unfired: Vec::new() });
        }
        Ok(())
    }
}
