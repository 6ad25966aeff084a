//! [`RunLayout`], once per run: lanes (one per key), the row of every window (sliding windows
//! stacked so that the overlapping copies show), the input ↔ element mapping, the time range for
//! "fit", and the vertical geometry in canvas units. Derived from the scenario and its run only.

use std::collections::BTreeMap;

use crate::engine::scenario::{AssignerSpec, InputItem};
use crate::engine::time::{LONG_MAX, LONG_MIN};
use crate::engine::trace::ElemIdx;
use crate::engine::{KeyId, Millis, Run, Scenario, TraceKind, Window};

/// Vertical geometry of the canvas, in px.
pub mod dims {
    pub const AXIS_HEIGHT: f64 = 58.0;
    pub const LANE_GAP: f64 = 6.0;
    pub const TIMER_ROW: f64 = 16.0;
    pub const WINDOW_ROW: f64 = 26.0;
    pub const MARBLE_ROW: f64 = 40.0;
    pub const SIDE_LANE: f64 = 44.0;
    /// A source partition's track (its own watermark), above the key lanes.
    pub const TRACK: f64 = 22.0;
    pub const MARBLE_R: f64 = 9.0;
    /// Rows drawn per lane at most (a sliding window with 1000 copies is summarised).
    pub const MAX_ROWS: u16 = 12;
    /// How much taller than these rows a lane grows when the canvas has room below the lanes.
    pub const MAX_STRETCH: f64 = 2.5;
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub key: String,
    pub y: f64,
    pub height: f64,
    pub rows: u16,
    /// The rows' stretch (1: the `dims` heights), so that the lanes fill the canvas's height.
    pub stretch: f64,
}

impl Lane {
    fn new(key: String, rows: u16) -> Lane {
        Lane { key, y: 0.0, height: Lane::height_of(rows, 1.0), rows, stretch: 1.0 }
    }

    fn height_of(rows: u16, stretch: f64) -> f64 {
        (dims::TIMER_ROW + f64::from(rows) * dims::WINDOW_ROW + dims::MARBLE_ROW) * stretch + 8.0
    }

    pub fn timer_y(&self) -> f64 {
        self.y + dims::TIMER_ROW * self.stretch / 2.0 + 2.0
    }

    /// The height of a window row (a band is 4 less).
    pub fn row_height(&self) -> f64 {
        dims::WINDOW_ROW * self.stretch
    }

    pub fn row_y(&self, row: u16) -> f64 {
        self.y + dims::TIMER_ROW * self.stretch + 4.0 + f64::from(row.min(dims::MAX_ROWS - 1)) * self.row_height()
    }

    pub fn marble_y(&self) -> f64 {
        self.y + self.height - dims::MARBLE_ROW * self.stretch / 2.0 - 2.0
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct RunLayout {
    pub lanes: Vec<Lane>,
    /// Lane of each of the run's key ids.
    pub lane_of_run_key: Vec<usize>,
    /// Element ordinal of each input item (`None` for watermarks).
    pub elem_of_input: Vec<Option<ElemIdx>>,
    /// Input index of each element ordinal.
    pub input_of_elem: Vec<usize>,
    /// Lane of each element ordinal.
    pub lane_of_elem: Vec<usize>,
    /// Row of each window a lane ever shows.
    pub rows: BTreeMap<(KeyId, Window), u16>,
    /// How the rows were given, for the layouts of edits to give the same ones.
    pub row_phase: Option<RowPhase>,
    /// The y of each source partition's track (none when the source is one partition emitting
    /// per event: its watermark is the operator's).
    pub tracks: Vec<f64>,
    pub side_lane_y: f64,
    pub height: f64,
    /// The height with unstretched lanes (what the canvas scale is fitted to).
    pub natural_height: f64,
    /// Earliest and latest time worth showing (elements, watermark items, windows).
    pub time_range: Option<(Millis, Millis)>,
    /// The same on the processing-time axis: the arrivals (and processing-time windows).
    pub processing_range: Option<(Millis, Millis)>,
    /// The windows are processing-time windows: their bounds are arrivals.
    pub processing_windows: bool,
    /// Each input item's arrival (processing time).
    pub arrivals: Vec<Millis>,
    /// Each element's windows and firings, for its accessible name.
    pub fates: super::fate::Fates,
    /// The scenario has checkpoint / crash items (`Scenario::has_recovery`, read once a run).
    pub recovery: bool,
}

/// The rows of a tumbling or sliding assigner's windows: a window's row is its phase, its start's
/// place among the window starts counted from an anchor (`anchor + n · slide`), modulo the rows
/// that a window's span needs, so that the overlapping copies stack and no window's row depends
/// on another window. The anchor is the earliest window's start when a scenario is opened (so its
/// first window is on top and the copies of an element make a staircase down from it), and is
/// kept by the layouts of its edits ([`RunLayout::after`]).
/// (First-fit packing in start order made every row depend on the key's first window: a drag
/// that left a key without its first windows moved all of that key's other bands a row over, at
/// 2,000 sliding elements 2,030 bands for one drag, laid out and painted again, and the bands
/// jumped on screen.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowPhase {
    slide: Millis,
    offset: Millis,
    rows: Millis,
    anchor: Millis,
}

impl RowPhase {
    /// `None` for assigners whose windows share one row (sessions, global windows).
    fn of(assigner: &AssignerSpec, lateness: Millis, anchor: Millis) -> Option<RowPhase> {
        let (size, slide, offset) = match *assigner {
            AssignerSpec::Tumbling { size, offset } | AssignerSpec::TumblingProcessing { size, offset } => {
                (size, size, offset)
            }
            AssignerSpec::Sliding { size, slide, offset } | AssignerSpec::SlidingProcessing { size, slide, offset } => {
                (size, slide, offset)
            }
            AssignerSpec::Session { .. }
            | AssignerSpec::DynamicSession { .. }
            | AssignerSpec::Global
            | AssignerSpec::GlobalEos => return None,
        };
        let (size, slide, lateness) = (size.max(1), slide.max(1), lateness.max(0));
        // A window occupies its row until its cleanup time, so that the hatched allowed-lateness
        // extension is not hidden under the next window (unless the lateness dwarfs the window:
        // then it runs off screen anyway). Saturating, not i128: its division is 1 KB of wasm.
        let span = if lateness <= size.saturating_mul(4) { size.saturating_add(lateness) } else { size };
        let rows = (span / slide + Millis::from(span % slide != 0)).max(1);
        Some(RowPhase { slide, offset, rows, anchor })
    }

    /// The same rows for the same windows (the anchor aside).
    fn same_grid(&self, other: &RowPhase) -> bool {
        (self.slide, self.offset, self.rows) == (other.slide, other.offset, other.rows)
    }

    fn row(&self, start: Millis) -> u16 {
        // More copies than rows drawn: the ones past the last row are summarised in it (as
        // first-fit packing did: a staircase of the first ones from the anchor, the rest piled).
        let phase = start.saturating_sub(self.anchor).div_euclid(self.slide).rem_euclid(self.rows);
        phase.min(Millis::from(dims::MAX_ROWS - 1)) as u16
    }
}

fn is_drawable(t: Millis) -> bool {
    t != LONG_MIN && t != LONG_MAX
}

impl RunLayout {
    /// The layout of a scenario opened, its windows' rows anchored on its earliest window.
    pub fn new(scenario: &Scenario, run: &Run) -> RunLayout {
        RunLayout::after(scenario, run, None)
    }

    /// The layout of an edit of the scenario laid out with `kept`: the windows keep the rows
    /// they had (the same anchor), whatever windows the edit added or took away.
    pub fn after(scenario: &Scenario, run: &Run, kept: Option<RowPhase>) -> RunLayout {
        let mut keys: Vec<String> = Vec::new();
        let mut key_index: BTreeMap<&str, usize> = BTreeMap::new();
        let mut elem_of_input = Vec::with_capacity(scenario.input.len());
        let mut input_of_elem = Vec::new();
        let mut lane_of_elem = Vec::new();
        let mut lo = Millis::MAX;
        let mut hi = Millis::MIN;
        let mut widen = |t: Millis| {
            if is_drawable(t) {
                lo = lo.min(t);
                hi = hi.max(t);
            }
        };
        for (i, item) in scenario.input.iter().enumerate() {
            match item {
                InputItem::Element(e) => {
                    let lane = *key_index.entry(e.key.as_str()).or_insert_with(|| {
                        keys.push(e.key.to_string());
                        keys.len() - 1
                    });
                    elem_of_input.push(Some(input_of_elem.len() as ElemIdx));
                    input_of_elem.push(i);
                    lane_of_elem.push(lane);
                    widen(e.ts);
                }
                InputItem::Watermark(_) | InputItem::SourceWatermark(_) => {
                    elem_of_input.push(None);
                    widen(item.watermark().unwrap_or(0));
                }
                InputItem::Control(_) => elem_of_input.push(None),
            }
        }
        let lane_of_run_key: Vec<usize> =
            run.keys.iter().map(|k| key_index.get(k.as_str()).copied().unwrap_or(0)).collect();

        // Every window the run ever shows, per key, in (start, end) order.
        let mut per_key: BTreeMap<KeyId, Vec<Window>> = BTreeMap::new();
        let mut earliest: Option<Millis> = None;
        for ev in &run.trace {
            match &ev.kind {
                TraceKind::WindowCreated { key, window } => {
                    if let Window::Time(tw) = window {
                        earliest = Some(earliest.map_or(tw.start, |e| e.min(tw.start)));
                    }
                    per_key.entry(*key).or_default().push(*window);
                }
                TraceKind::SessionsMerged { key, into, .. } => {
                    per_key.entry(*key).or_default().push(Window::Time(*into));
                }
                _ => {}
            }
        }
        let merging = scenario.assigner.is_merging();
        let row_phase =
            RowPhase::of(&scenario.assigner, scenario.lateness(), earliest.unwrap_or(0)).map(|fresh| match kept {
                Some(kept) if kept.same_grid(&fresh) => kept,
                _ => fresh,
            });
        let mut rows = BTreeMap::new();
        let mut rows_of_lane = vec![1u16; keys.len()];
        for (key, mut windows) in per_key {
            crate::teach::sort::stable(&mut windows);
            windows.dedup();
            for w in windows {
                // Sessions never overlap while live: one row, merged ones drawn over it.
                let row = match (merging, w) {
                    (true, _) | (_, Window::Global) => 0,
                    (false, Window::Time(tw)) => {
                        if tw.end > tw.start && tw.end - tw.start < Millis::MAX / 4 {
                            widen(tw.start);
                            widen(tw.end);
                        }
                        row_phase.map_or(0, |p| p.row(tw.start))
                    }
                };
                if let Some(lane) = lane_of_run_key.get(key as usize) {
                    rows_of_lane[*lane] = rows_of_lane[*lane].max(row + 1);
                }
                rows.insert((key, w), row);
            }
        }
        if merging {
            for ev in &run.trace {
                if let TraceKind::SessionsMerged { into, .. } = &ev.kind {
                    widen(into.start);
                    widen(into.end);
                }
            }
        }
        let lanes = keys.into_iter().zip(rows_of_lane).map(|(key, rows)| Lane::new(key, rows)).collect();
        let mut tracks = Vec::new();
        if crate::teach::source::SourceView::shows_tracks(scenario) {
            let mut y = dims::AXIS_HEIGHT;
            for _ in 0..scenario.partition_count() {
                tracks.push(y);
                y += dims::TRACK;
            }
        }
        let time_range = (lo <= hi).then_some((lo, hi));
        let arrivals = scenario.arrivals();
        let processing_windows = !scenario.assigner.is_event_time();
        let mut processing_range = arrivals.iter().min().copied().zip(arrivals.iter().max().copied());
        if processing_windows {
            // Processing-time windows' bounds are processing times: they belong on that axis.
            for ev in &run.trace {
                if let TraceKind::WindowCreated { window: Window::Time(tw), .. } = &ev.kind
                    && let Some((plo, phi)) = processing_range
                    && tw.end > tw.start
                {
                    processing_range = Some((plo.min(tw.start), phi.max(tw.end)));
                }
            }
        }
        let mut layout = RunLayout {
            lanes,
            lane_of_run_key,
            elem_of_input,
            input_of_elem,
            lane_of_elem,
            rows,
            row_phase,
            tracks,
            side_lane_y: 0.0,
            height: 0.0,
            natural_height: 0.0,
            time_range,
            processing_range,
            processing_windows,
            arrivals,
            fates: super::fate::Fates::new(run),
            recovery: scenario.has_recovery(),
        };
        layout.place_lanes(1.0);
        layout.natural_height = layout.height;
        layout
    }

    /// Stacks the lanes under the axis (and the partition tracks) with their rows stretched by `stretch`.
    fn place_lanes(&mut self, stretch: f64) {
        let mut y = self.tracks.last().map_or(dims::AXIS_HEIGHT, |t| t + dims::TRACK + dims::LANE_GAP);
        for lane in &mut self.lanes {
            lane.stretch = stretch;
            lane.y = y;
            lane.height = Lane::height_of(lane.rows, stretch);
            y += lane.height + dims::LANE_GAP;
        }
        self.side_lane_y = y;
        self.height = y + dims::SIDE_LANE + 8.0;
    }

    /// Lets the lanes fill `height` canvas units (the canvas box at its scale): their rows grow,
    /// up to [`dims::MAX_STRETCH`], so no third of a projected canvas stays empty below them.
    pub fn fit_height(&mut self, height: f64) {
        let lanes: f64 = self.lanes.iter().map(|l| Lane::height_of(l.rows, 1.0) - 8.0).sum();
        let fixed = self.natural_height - lanes;
        let stretch = if lanes > 0.0 && height.is_finite() {
            ((height - fixed) / lanes).clamp(1.0, dims::MAX_STRETCH)
        } else {
            1.0
        };
        let stretch = (stretch * 20.0).floor() / 20.0;
        if stretch != self.lanes.first().map_or(1.0, |l| l.stretch) {
            self.place_lanes(stretch);
        }
    }

    pub fn lane_of_key(&self, key: KeyId) -> Option<&Lane> {
        self.lane_of_run_key.get(key as usize).and_then(|l| self.lanes.get(*l))
    }

    pub fn row_of(&self, key: KeyId, window: &Window) -> u16 {
        self.rows.get(&(key, *window)).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::run;

    fn scenario(json: &str) -> Scenario {
        Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Sliding windows stack in rows so the overlapping copies show; tumbling ones share a row.
    #[test]
    fn sliding_windows_stack_in_rows() {
        let s = scenario(
            r#"{"assigner": {"kind": "sliding", "size": 30000, "slide": 10000},
                "input": [{"id": 1, "key": "A", "ts": 25000}, {"id": 2, "key": "B", "ts": 1000}]}"#,
        );
        let r = run(&s);
        let l = RunLayout::new(&s, &r);
        assert_eq!(l.lanes.len(), 2);
        assert_eq!(l.lanes[0].rows, 3);
        let rows: Vec<u16> = l.rows.iter().filter(|((k, _), _)| *k == 0).map(|(_, r)| *r).collect();
        let mut sorted = rows.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2]);
        assert!(l.lanes[1].y > l.lanes[0].y + l.lanes[0].height);
        assert!(l.side_lane_y > l.lanes[1].y);

        let t = scenario(
            r#"{"assigner": {"kind": "tumbling", "size": 10000},
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"id": 2, "key": "A", "ts": 15000}]}"#,
        );
        let l = RunLayout::new(&t, &run(&t));
        assert_eq!(l.lanes[0].rows, 1);
        assert_eq!(l.time_range, Some((0, 20000)));
        // With allowed lateness a window keeps its row until its cleanup time: two rows, so the
        // hatched extension of [0, 10000) is not under [10000, 20000).
        let late = scenario(
            r#"{"assigner": {"kind": "tumbling", "size": 10000}, "allowed_lateness": 5000,
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"id": 2, "key": "A", "ts": 15000}, {"id": 3, "key": "A", "ts": 25000}]}"#,
        );
        let l = RunLayout::new(&late, &run(&late));
        assert_eq!(l.lanes[0].rows, 2);
        let rows: Vec<u16> = l.rows.values().copied().collect();
        assert_eq!(rows, vec![0, 1, 0]);
    }

    /// A window's row is its phase: dropping or adding other windows of its key (a drag that
    /// leaves a key without its first windows) moves no other window's row, and the windows that
    /// share a row never overlap until the cleanup time, for tumbling and sliding assigners with
    /// offsets, allowed lateness and more copies than rows drawn.
    #[test]
    fn a_windows_row_is_its_phase_whatever_windows_come_or_go() {
        let assigners = [
            r#""assigner": {"kind": "sliding", "size": 60000, "slide": 20000}"#,
            r#""assigner": {"kind": "sliding", "size": 60000, "slide": 20000, "offset": 7000}, "allowed_lateness": 30000"#,
            r#""assigner": {"kind": "sliding", "size": 10000, "slide": 25000}"#,
            r#""assigner": {"kind": "tumbling", "size": 10000, "offset": -3000}, "allowed_lateness": 5000"#,
            r#""assigner": {"kind": "tumbling", "size": 10000}"#,
            r#""assigner": {"kind": "sliding", "size": 60000, "slide": 1000}"#,
        ];
        for assigner in assigners {
            let scenario_of = |ts: &[i64]| {
                let input: Vec<String> = ts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| format!(r#"{{"id": {}, "key": "A", "ts": {t}}}"#, i + 1))
                    .collect();
                scenario(&format!(r#"{{{assigner}, "input": [{}]}}"#, input.join(", ")))
            };
            let layout_of = |ts: &[i64]| {
                let s = scenario_of(ts);
                (RunLayout::new(&s, &run(&s)), s)
            };
            let moved_ts = [200000, 1000, 23000, 47000, 90000, 131000];
            let (all, s) = layout_of(&[-45000, 1000, 23000, 47000, 90000, 131000]);
            // The scenario opened: its earliest window on top.
            let earliest = all.rows.keys().map(|(_, w)| *w).min();
            assert_eq!(earliest.and_then(|w| all.rows.get(&(0, w))), Some(&0), "{assigner}");
            // The first element moved far right (an edit): its windows go, the others stay in
            // their rows.
            let (opened, edited) = layout_of(&moved_ts);
            let moved = RunLayout::after(&edited, &run(&edited), all.row_phase);
            assert_eq!(moved.rows.keys().collect::<Vec<_>>(), opened.rows.keys().collect::<Vec<_>>());
            for ((key, w), row) in &moved.rows {
                if let Some(before) = all.rows.get(&(*key, *w)) {
                    assert_eq!(row, before, "{assigner}: {w:?}");
                }
            }
            assert!(moved.rows.keys().any(|k| all.rows.contains_key(k)), "{assigner}");
            // Windows in one row do not overlap (up to the rows drawn).
            let span = |w: &Window| match w {
                Window::Time(tw) => (tw.start, tw.end + s.lateness().min((tw.end - tw.start) * 4)),
                Window::Global => (0, 0),
            };
            let drawn = all.lanes[0].rows < dims::MAX_ROWS;
            for ((_, a), ra) in &all.rows {
                for ((_, b), rb) in &all.rows {
                    if a < b && ra == rb && drawn {
                        let ((a0, a1), (b0, _)) = (span(a), span(b));
                        assert!(a1 <= b0 || b0 < a0, "{assigner}: {a:?} and {b:?} in row {ra}");
                    }
                }
            }
        }
    }

    /// With room below them the lanes grow to fill the canvas (up to 2.5×), keeping their order
    /// and the side output lane under them; without room they keep their natural height.
    #[test]
    fn lanes_fill_the_height() {
        let s = scenario(
            r#"{"assigner": {"kind": "tumbling", "size": 10000},
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"id": 2, "key": "B", "ts": 1000}]}"#,
        );
        let mut l = RunLayout::new(&s, &run(&s));
        let natural = l.height;
        l.fit_height(natural - 50.0);
        assert_eq!(l.height, natural);
        l.fit_height(natural + 100.0);
        assert!(l.height <= natural + 100.0 && l.height > natural + 90.0, "{} of {}", l.height, natural + 100.0);
        assert!(l.lanes[1].y >= l.lanes[0].y + l.lanes[0].height);
        assert!(l.lanes[0].marble_y() > l.lanes[0].row_y(0) + l.lanes[0].row_height());
        assert_eq!(l.side_lane_y, l.lanes[1].y + l.lanes[1].height + dims::LANE_GAP);
        l.fit_height(natural * 10.0);
        assert_eq!(l.lanes[0].stretch, dims::MAX_STRETCH);
        assert_eq!(l.natural_height, natural);
    }
}
