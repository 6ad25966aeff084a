//! The outputs charts (issue 7): what each chart shows, as plain data taken from
//! [`crate::sinks::Downstream`] ([`StateChart`], [`LagChart`], [`ResultsChart`], [`PartitionChart`]),
//! and how it is drawn with plotters on any drawing backend ([`draw`]; the browser uses
//! plotters-canvas, see `components::charts_panel`). Data and drawing are apart: the data is tested
//! natively, the drawing in the browser.
//!
//! ```text
//!  Downstream ──state()────────▶ StateChart   live windows, stored elements vs accumulators, timers per step
//!             ──watermarks()───▶ LagChart     watermark and largest event time per step (the lag between)
//!             ──results_per_window_at(end)─▶ ResultsChart  every result of every window, by kind
//!                                      draw_*(area, data, playhead, style)  axes, units, legend, playhead
//! ```

pub mod draw;
pub mod lateness;

use crate::engine::Window;
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};
use crate::engine::trace::FiringKind;
use crate::sinks::Downstream;
use crate::teach::format;

/// The state chart: one sample per playhead position `0..=steps`.
#[derive(Clone, Debug, PartialEq)]
pub struct StateChart {
    pub steps: usize,
    pub live_windows: Vec<u64>,
    pub stored_elements: Vec<u64>,
    pub accumulators: Vec<u64>,
    pub timers: Vec<u64>,
    /// The function buffers elements (a ProcessWindowFunction or an evictor): stored elements
    /// are what it keeps; otherwise accumulators.
    pub buffering: bool,
}

impl StateChart {
    pub fn new(d: &Downstream) -> StateChart {
        let s = d.state();
        StateChart {
            steps: d.steps(),
            live_windows: s.samples.iter().map(|x| x.live_windows).collect(),
            stored_elements: s.samples.iter().map(|x| x.stored_elements).collect(),
            accumulators: s.samples.iter().map(|x| x.accumulators).collect(),
            timers: s.samples.iter().map(|x| x.pending_timers).collect(),
            buffering: s.buffering,
        }
    }

    pub fn max(&self) -> u64 {
        [&self.live_windows, &self.stored_elements, &self.accumulators, &self.timers]
            .iter()
            .flat_map(|v| v.iter().copied())
            .max()
            .unwrap_or(0)
    }
}

/// The lag chart: the operator's watermark and the largest event time seen, per playhead.
#[derive(Clone, Debug, PartialEq)]
pub struct LagChart {
    pub steps: usize,
    /// `None` before the first watermark and at `Long.MAX` (end of input).
    pub watermark: Vec<Option<Millis>>,
    pub max_event_time: Vec<Option<Millis>>,
    pub lag: Vec<Option<Millis>>,
}

impl LagChart {
    pub fn new(d: &Downstream) -> LagChart {
        let finite = |t: Millis| (t != LONG_MIN && t != LONG_MAX).then_some(t);
        let w = d.watermarks();
        LagChart {
            steps: d.steps(),
            watermark: w.iter().map(|s| finite(s.watermark)).collect(),
            max_event_time: w.iter().map(|s| s.max_event_time).collect(),
            lag: w.iter().map(|s| s.lag_millis).collect(),
        }
    }

    /// The event-time range both lines need, padded; `None` when neither has a point.
    pub fn time_range(&self) -> Option<(Millis, Millis)> {
        padded_range(self.watermark.iter().chain(&self.max_event_time).flatten().copied())
    }
}

/// The range of `times`, padded by a tenth (at least a second) on both sides; `None` when empty.
fn padded_range(times: impl Iterator<Item = Millis>) -> Option<(Millis, Millis)> {
    let (lo, hi) = times.fold(None, |acc: Option<(Millis, Millis)>, t| match acc {
        None => Some((t, t)),
        Some((a, b)) => Some((a.min(t), b.max(t))),
    })?;
    let pad = ((hi.saturating_sub(lo)) / 10).max(1000);
    Some((lo.saturating_sub(pad), hi.saturating_add(pad)))
}

/// One bar: one result of one window.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultBar {
    /// The step it was emitted in (shown once the playhead is past it).
    pub step: usize,
    pub kind: FiringKind,
    pub value: f64,
    /// Later results of the same window replace this one (upsert), or not.
    pub superseded: bool,
}

/// The results-per-window chart: every window that ever emits, in (key, window) order.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultsChart {
    /// `(label, bars in emission order)`.
    pub windows: Vec<(String, Vec<ResultBar>)>,
    /// The column plotted (`sum`, `count`, ...).
    pub column: &'static str,
}

impl ResultsChart {
    pub fn new(d: &Downstream) -> ResultsChart {
        let keys = d.results_per_window_at(d.steps());
        let several_keys = keys.iter().map(|w| w.key).collect::<std::collections::BTreeSet<_>>().len() > 1;
        let windows = keys
            .iter()
            .map(|w| {
                let label = match w.window {
                    Window::Global => "global".to_string(),
                    Window::Time(tw) => format::time(tw.start),
                };
                let label = if several_keys { format!("{} {label}", d.key_name(w.key)) } else { label };
                let n = w.rows.len();
                let bars = w
                    .rows
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| d.row(*r).map(|row| (i, row)))
                    .map(|(i, row)| ResultBar {
                        step: row.step,
                        kind: row.kind,
                        value: row.value.amount().map_or(0.0, |a| a.as_f64()),
                        superseded: i + 1 < n,
                    })
                    .collect();
                (label, bars)
            })
            .collect();
        let column = d.rows().first().map_or("sum", |r| r.value.column());
        ResultsChart { windows, column }
    }

    pub fn value_range(&self) -> (f64, f64) {
        let vals = self.windows.iter().flat_map(|(_, b)| b.iter().map(|x| x.value));
        let (lo, hi) = vals.fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        if hi - lo < 1e-9 { (lo, lo + 1.0) } else { (lo, hi + (hi - lo) * 0.12) }
    }

    /// Results emitted before `playhead` (the bars drawn).
    pub fn visible(&self, playhead: usize) -> usize {
        self.windows.iter().flat_map(|(_, b)| b.iter()).filter(|b| b.step < playhead).count()
    }
}

/// Each source partition's watermark per playhead, and the operator's (their minimum over the
/// partitions that are not idle).
#[derive(Clone, Debug, PartialEq)]
pub struct PartitionChart {
    pub steps: usize,
    /// `partitions[p][step]`: `None` before the partition's first watermark and while idle.
    pub partitions: Vec<Vec<Option<Millis>>>,
    /// Partition `p` is idle after `step` steps.
    pub idle: Vec<Vec<bool>>,
    /// The operator's watermark (`None` before the first and at `Long.MAX`).
    pub combined: Vec<Option<Millis>>,
}

impl PartitionChart {
    /// `None` when the run has nothing to show per partition (one partition, never idle).
    pub fn new(d: &Downstream) -> Option<PartitionChart> {
        let series = d.partitions();
        if !series.is_interesting() {
            return None;
        }
        let n = series.partitions as usize;
        let finite = |t: Millis| (t != LONG_MIN && t != LONG_MAX).then_some(t);
        let mut now: Vec<(Millis, bool)> = vec![(LONG_MIN, false); n];
        let mut partitions = vec![Vec::with_capacity(d.steps() + 1); n];
        let mut idle = vec![Vec::with_capacity(d.steps() + 1); n];
        let mut changes = series.changes.iter().peekable();
        // One pass: the state after `step` steps applies the changes of the steps before it.
        for step in 0..=d.steps() {
            while let Some(c) = changes.next_if(|c| c.step < step) {
                if let Some(p) = now.get_mut(c.partition as usize) {
                    *p = (c.watermark, c.idle);
                }
            }
            for (p, (wm, is_idle)) in now.iter().enumerate() {
                partitions[p].push(if *is_idle { None } else { finite(*wm) });
                idle[p].push(*is_idle);
            }
        }
        let combined = d.watermarks().iter().map(|w| finite(w.watermark)).collect();
        Some(PartitionChart { steps: d.steps(), partitions, idle, combined })
    }

    fn time_range(&self) -> Option<(Millis, Millis)> {
        padded_range(self.partitions.iter().flatten().chain(&self.combined).flatten().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn downstream(id: &str) -> (Downstream, usize) {
        let Some(p) = crate::teach::presets::by_id(id) else { panic!("{id}") };
        let run = crate::engine::run(&p.scenario);
        (Downstream::new(&p.scenario, &run), run.steps)
    }

    /// ModelLatency, sliding 5 min every 1 min: the state chart shows five window copies per
    /// record (a ProcessWindowFunction buffers one element copy per window).
    #[test]
    fn sliding_state_shows_five_copies_per_record() {
        let (d, _) = downstream("model-latency-sliding");
        let c = StateChart::new(&d);
        let p = crate::teach::presets::by_id("model-latency-sliding").unwrap_or_else(|| panic!("preset"));
        // After each input element, five more copies are stored (until a window fires and is
        // cleaned up): compare the first element's step.
        let first = p.scenario.input.iter().position(|i| matches!(i, crate::engine::scenario::InputItem::Element(_)));
        let Some(first) = first else { panic!("an element") };
        assert_eq!(c.stored_elements[first + 1] - c.stored_elements[first], 5);
        assert_eq!(c.live_windows[first + 1] - c.live_windows[first], 5);
        assert_eq!(c.live_windows.len(), c.steps + 1);
    }

    /// Lab 6.2: one window, two results (main $4.10, late $4.31); the first is superseded.
    #[test]
    fn lab_6_2_results_per_window() {
        let (d, steps) = downstream("lab-6-2");
        let c = ResultsChart::new(&d);
        assert_eq!(c.windows.len(), 1);
        let bars = &c.windows[0].1;
        let got: Vec<(FiringKind, f64, bool)> = bars.iter().map(|b| (b.kind, b.value, b.superseded)).collect();
        assert_eq!(got, vec![(FiringKind::Main, 410.0, true), (FiringKind::Late, 431.0, false)]);
        assert_eq!(c.visible(steps), 2);
        assert_eq!(c.visible(0), 0);
    }

    /// The quiet night: apac's partition holds the operator's watermark back (the minimum);
    /// with withIdleness it goes idle and leaves the minimum.
    #[test]
    fn quiet_night_partitions() {
        let (d, steps) = downstream("quiet-night-stall");
        let Some(c) = PartitionChart::new(&d) else { panic!("two partitions") };
        assert_eq!(c.partitions.len(), 2);
        let at_end: Vec<Option<Millis>> = c.partitions.iter().map(|p| p[steps]).collect();
        let min = at_end.iter().flatten().min().copied();
        assert_eq!(c.combined[steps], min, "the operator's watermark is the minimum");
        let (d, steps) = downstream("quiet-night-idleness");
        let Some(c) = PartitionChart::new(&d) else { panic!("two partitions") };
        assert!(c.idle.iter().any(|p| p[steps]), "a partition is idle at the end");
        assert!(PartitionChart::new(&downstream("lab-6-2").0).is_none());
    }

    /// The lag chart follows forBoundedOutOfOrderness(20 s): max event time − watermark = 20 s + 1 ms.
    #[test]
    fn lab_6_1_lag_is_the_bound() {
        let (d, _) = downstream("lab-6-1");
        let c = LagChart::new(&d);
        assert_eq!(c.lag[1], Some(20_001));
        assert!(c.time_range().is_some());
        assert_eq!(c.watermark[0], None);
    }
}
