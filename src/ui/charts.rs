//! The outputs charts (issue 7): what each chart shows, as plain data taken from
//! [`crate::sinks::Downstream`] ([`StateChart`], [`LagChart`], [`ResultsChart`]), and how it is
//! drawn with plotters on any [`DrawingBackend`] (the browser uses plotters-canvas; see
//! `chart_view`). Data and drawing are apart: the data is tested natively, the drawing in the
//! browser.
//!
//! ```text
//!  Downstream ──state()────────▶ StateChart   live windows, stored elements vs accumulators, timers per step
//!             ──watermarks()───▶ LagChart     watermark and largest event time per step (the lag between)
//!             ──results_per_window_at(end)─▶ ResultsChart  every result of every window, by kind
//!                                      draw_*(area, data, playhead, style)  axes, units, legend, playhead
//! ```

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::engine::Window;
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};
use crate::engine::trace::FiringKind;
use crate::sinks::Downstream;
use crate::teach::{ValueFormat, format};

/// Sizes and contrast: `scale` multiplies every font and line (device pixels × lecture size).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartStyle {
    pub scale: f64,
    pub high_contrast: bool,
}

impl ChartStyle {
    fn px(&self, v: f64) -> u32 {
        (v * self.scale).round().max(1.0) as u32
    }

    fn font(&self, size: f64) -> TextStyle<'static> {
        let color = if self.high_contrast { BLACK } else { RGBColor(0x30, 0x38, 0x48) };
        ("sans-serif", size * self.scale).into_font().color(&color)
    }
}

// The app's colours (assets/style.css), so the charts read like the canvas.
const OPEN: RGBColor = RGBColor(0x3d, 0x6f, 0xc0);
const FIRED: RGBColor = RGBColor(0x1f, 0x8a, 0x4c);
const LATE: RGBColor = RGBColor(0xc7, 0x77, 0x00);
const EARLY: RGBColor = RGBColor(0x7b, 0x52, 0xc7);
const WM: RGBColor = RGBColor(0x0b, 0x57, 0xd0);
const SIDE: RGBColor = RGBColor(0xc0, 0x26, 0x6d);
const MUTED: RGBColor = RGBColor(0x8a, 0x8f, 0x99);
const PLAYHEAD: RGBColor = RGBColor(0xe0, 0x1e, 0x1e);

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
        let all = self.watermark.iter().chain(&self.max_event_time).flatten().copied();
        let (lo, hi) = all.fold(None, |acc: Option<(Millis, Millis)>, t| match acc {
            None => Some((t, t)),
            Some((a, b)) => Some((a.min(t), b.max(t))),
        })?;
        let pad = ((hi.saturating_sub(lo)) / 10).max(1000);
        Some((lo.saturating_sub(pad), hi.saturating_add(pad)))
    }
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

type DrawResult = Result<(), String>;

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// A y-axis value in the column's unit (`$4.10`, `3`).
pub fn value_label(v: f64, column: &str, values: ValueFormat) -> String {
    if column == "count" || (v.fract().abs() > 1e-9 && values != ValueFormat::UsdCents) {
        return if v.fract().abs() < 1e-9 { format!("{v:.0}") } else { format!("{v:.1}") };
    }
    values.value(v.round() as i64)
}

fn playhead_line<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    x: f64,
    y0: f64,
    y1: f64,
    style: &ChartStyle,
) -> DrawResult {
    chart
        .draw_series(std::iter::once(PathElement::new(vec![(x, y0), (x, y1)], PLAYHEAD.stroke_width(style.px(2.0)))))
        .map_err(err)?;
    Ok(())
}

/// State per step: live windows, element copies or accumulators, pending timers.
pub fn draw_state<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &StateChart,
    playhead: usize,
    style: &ChartStyle,
) -> DrawResult {
    area.fill(&WHITE).map_err(err)?;
    let x_max = data.steps.max(1) as f64;
    // Head room for the legend (top left).
    let y_max = (data.max() as f64 * 1.7).max(4.0);
    let title = if data.buffering {
        "State per step (ProcessWindowFunction: buffers element copies)"
    } else {
        "State per step (incremental function: one accumulator per window)"
    };
    let mut chart = ChartBuilder::on(area)
        .caption(title, style.font(13.0))
        .margin(style.px(8.0))
        .x_label_area_size(style.px(34.0))
        .y_label_area_size(style.px(44.0))
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("processing step")
        .y_desc("entries")
        .x_labels(data.steps.clamp(2, 12) + 1)
        .y_labels(6)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| if v.fract().abs() < 1e-9 { format!("{v:.0}") } else { String::new() })
        .label_style(style.font(11.0))
        .axis_desc_style(style.font(11.0))
        .light_line_style(RGBColor(0xee, 0xf0, 0xf4))
        .draw()
        .map_err(err)?;
    let series = |v: &[u64]| -> Vec<(f64, f64)> { v.iter().enumerate().map(|(i, y)| (i as f64, *y as f64)).collect() };
    // Equal lines lie on top of each other (often: live windows = accumulators = timers), so
    // each has its own look: a wide pale band, a solid line, dashes.
    let band = OPEN.mix(0.4).stroke_width(style.px(7.0));
    chart
        .draw_series(LineSeries::new(series(&data.live_windows), band))
        .map_err(err)?
        .label("live windows")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], band));
    let (kept, kept_label, other, other_label, kept_color, other_color) = if data.buffering {
        (
            &data.stored_elements,
            "stored element copies (kept)",
            &data.accumulators,
            "accumulators (if incremental)",
            SIDE,
            FIRED,
        )
    } else {
        (&data.accumulators, "accumulators (kept)", &data.stored_elements, "element copies (if buffered)", FIRED, SIDE)
    };
    let solid = kept_color.stroke_width(style.px(2.5));
    chart
        .draw_series(LineSeries::new(series(kept), solid).point_size(style.px(2.5)))
        .map_err(err)?
        .label(kept_label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], solid));
    let dashed = other_color.stroke_width(style.px(1.5));
    let (dash, gap) = (style.px(6.0), style.px(4.0));
    chart
        .draw_series(DashedLineSeries::new(series(other), dash, gap, dashed))
        .map_err(err)?
        .label(other_label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 7, y), (x + 9, y), (x + 18, y)], dashed));
    let timers = LATE.stroke_width(style.px(2.0));
    let (dot, dgap) = (style.px(2.0), style.px(3.0));
    chart
        .draw_series(DashedLineSeries::new(series(&data.timers), dot, dgap, timers))
        .map_err(err)?
        .label("pending timers")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], timers));
    playhead_line(&mut chart, playhead as f64, 0.0, y_max, style)?;
    legend(&mut chart, SeriesLabelPosition::UpperLeft, style)?;
    area.present().map_err(err)?;
    Ok(())
}

/// The watermark against the largest event time seen; the gap between is the lag.
pub fn draw_lag<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &LagChart,
    playhead: usize,
    style: &ChartStyle,
) -> DrawResult {
    area.fill(&WHITE).map_err(err)?;
    let x_max = data.steps.max(1) as f64;
    let Some((lo, hi)) = data.time_range() else {
        return empty_chart(area, "No element and no watermark yet", style);
    };
    let axis = EventTimeAxis::new(lo, hi);
    let to_y = |t: Millis| axis.y(t);
    let (y0, y1) = (0.0, to_y(hi));
    let lag_now = data.lag.get(playhead.min(data.steps)).copied().flatten();
    let title = match lag_now {
        Some(l) if l >= 0 => format!("Watermark vs largest event time (lag at the playhead: {})", format::duration(l)),
        Some(l) => {
            format!("Watermark vs largest event time (the watermark is {} ahead)", format::duration(l.saturating_neg()))
        }
        None => "Watermark vs largest event time".to_string(),
    };
    let mut chart = ChartBuilder::on(area)
        .caption(title, style.font(13.0))
        .margin(style.px(8.0))
        .x_label_area_size(style.px(34.0))
        .y_label_area_size(style.px(78.0))
        .build_cartesian_2d(0f64..x_max, y0..y1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("processing step")
        .y_desc("event time")
        .x_labels(data.steps.clamp(2, 12) + 1)
        .y_labels(5)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| axis.label(*v))
        .label_style(style.font(11.0))
        .axis_desc_style(style.font(11.0))
        .light_line_style(RGBColor(0xee, 0xf0, 0xf4))
        .draw()
        .map_err(err)?;
    for (label, v, color) in
        [("largest event time seen", &data.max_event_time, SIDE), ("watermark", &data.watermark, WM)]
    {
        let s = color.stroke_width(style.px(2.5));
        let mut first = true;
        for run in stairs(v, &to_y) {
            let drawn = chart.draw_series(LineSeries::new(run, s).point_size(style.px(3.0))).map_err(err)?;
            if first {
                drawn.label(label).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], s));
                first = false;
            }
        }
    }
    // The lag at the playhead, as a bracket between the two lines.
    if let (Some(Some(w)), Some(Some(m))) = (data.watermark.get(playhead), data.max_event_time.get(playhead)) {
        let x = playhead as f64;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x, to_y(*w)), (x, to_y(*m))],
                LATE.stroke_width(style.px(5.0)),
            )))
            .map_err(err)?
            .label("lag")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], LATE.stroke_width(5)));
    }
    playhead_line(&mut chart, playhead as f64, y0, y1, style)?;
    legend(&mut chart, SeriesLabelPosition::UpperLeft, style)?;
    area.present().map_err(err)?;
    Ok(())
}

/// A watermark holds between steps, so it is drawn as a staircase; `None` (no watermark yet,
/// or `Long.MAX`, or an idle partition) breaks the line.
fn stairs(v: &[Option<Millis>], to_y: &dyn Fn(Millis) -> f64) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for (i, t) in v.iter().enumerate() {
        match t {
            Some(t) => {
                let y = to_y(*t);
                if let Some(&(_, py)) = cur.last() {
                    cur.push((i as f64, py));
                }
                cur.push((i as f64, y));
            }
            None => {
                if !cur.is_empty() {
                    runs.push(std::mem::take(&mut cur));
                }
            }
        }
    }
    if !cur.is_empty() {
        runs.push(cur);
    }
    runs
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
        let all = self.partitions.iter().flatten().chain(&self.combined).flatten().copied();
        let (lo, hi) = all.fold(None, |acc: Option<(Millis, Millis)>, t| match acc {
            None => Some((t, t)),
            Some((a, b)) => Some((a.min(t), b.max(t))),
        })?;
        let pad = ((hi.saturating_sub(lo)) / 10).max(1000);
        Some((lo.saturating_sub(pad), hi.saturating_add(pad)))
    }
}

const PARTITION_COLORS: [RGBColor; 6] = [
    RGBColor(0x3d, 0x6f, 0xc0),
    RGBColor(0xc7, 0x77, 0x00),
    RGBColor(0x1f, 0x8a, 0x4c),
    RGBColor(0xc0, 0x26, 0x6d),
    RGBColor(0x7b, 0x52, 0xc7),
    RGBColor(0x00, 0x8b, 0x8b),
];

/// Each partition's watermark and the combined minimum the window operator uses.
pub fn draw_partitions<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &PartitionChart,
    playhead: usize,
    style: &ChartStyle,
) -> DrawResult {
    area.fill(&WHITE).map_err(err)?;
    let x_max = data.steps.max(1) as f64;
    let Some((lo, hi)) = data.time_range() else {
        return empty_chart(area, "No partition has a watermark yet", style);
    };
    let axis = EventTimeAxis::new(lo, hi);
    let to_y = |t: Millis| axis.y(t);
    let (y0, y1) = (0.0, to_y(hi));
    let idle_now: Vec<String> = data
        .idle
        .iter()
        .enumerate()
        .filter(|(_, v)| v.get(playhead).copied().unwrap_or(false))
        .map(|(p, _)| p.to_string())
        .collect();
    let title = if idle_now.is_empty() {
        "Partition watermarks and their minimum (the operator's watermark)".to_string()
    } else {
        format!("Partition watermarks and their minimum (idle now: partition {})", idle_now.join(", "))
    };
    let mut chart = ChartBuilder::on(area)
        .caption(title, style.font(13.0))
        .margin(style.px(8.0))
        .x_label_area_size(style.px(34.0))
        .y_label_area_size(style.px(78.0))
        .build_cartesian_2d(0f64..x_max, y0..y1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("processing step")
        .y_desc("event time")
        .x_labels(data.steps.clamp(2, 12) + 1)
        .y_labels(5)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| axis.label(*v))
        .label_style(style.font(11.0))
        .axis_desc_style(style.font(11.0))
        .light_line_style(RGBColor(0xee, 0xf0, 0xf4))
        .draw()
        .map_err(err)?;
    let combined = BLACK.mix(0.75).stroke_width(style.px(5.0));
    let mut first = true;
    for run in stairs(&data.combined, &to_y) {
        let drawn = chart.draw_series(LineSeries::new(run, combined)).map_err(err)?;
        if first {
            drawn
                .label("operator watermark (minimum)")
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], combined));
            first = false;
        }
    }
    for (p, v) in data.partitions.iter().enumerate() {
        let s = PARTITION_COLORS[p % PARTITION_COLORS.len()].stroke_width(style.px(2.0));
        let mut first = true;
        for run in stairs(v, &to_y) {
            let drawn = chart.draw_series(LineSeries::new(run, s).point_size(style.px(2.0))).map_err(err)?;
            if first {
                drawn
                    .label(format!("partition {p}"))
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], s));
                first = false;
            }
        }
    }
    playhead_line(&mut chart, playhead as f64, y0, y1, style)?;
    legend(&mut chart, SeriesLabelPosition::UpperLeft, style)?;
    area.present().map_err(err)?;
    Ok(())
}

/// Every result of every window up to the playhead: a window with a main and a late firing
/// has two bars, the superseded one pale.
pub fn draw_results<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &ResultsChart,
    playhead: usize,
    values: ValueFormat,
    style: &ChartStyle,
) -> DrawResult {
    area.fill(&WHITE).map_err(err)?;
    if data.windows.is_empty() {
        return empty_chart(area, "Results per window: no window fires in this run", style);
    }
    let n = data.windows.len().max(1) as f64;
    let (v0, v1) = data.value_range();
    let shown = data.visible(playhead);
    let total: usize = data.windows.iter().map(|(_, b)| b.len()).sum();
    let title = format!("Results per window ({shown} of {total} emitted; column {})", data.column);
    let mut chart = ChartBuilder::on(area)
        .caption(title, style.font(13.0))
        .margin(style.px(8.0))
        .x_label_area_size(style.px(34.0))
        .y_label_area_size(style.px(56.0))
        .build_cartesian_2d(-0.5f64..n - 0.5, v0..v1)
        .map_err(err)?;
    let labels: Vec<String> = data.windows.iter().map(|(l, _)| l.clone()).collect();
    let column = data.column;
    chart
        .configure_mesh()
        .x_desc("window (start)")
        .y_desc(column)
        .disable_x_mesh()
        .x_labels(data.windows.len().clamp(1, 10))
        .y_labels(5)
        .x_label_formatter(&|v| {
            // Window i is centred on x = i: label whole numbers only.
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|v| value_label(*v, column, values))
        .label_style(style.font(11.0))
        .axis_desc_style(style.font(11.0))
        .light_line_style(RGBColor(0xee, 0xf0, 0xf4))
        .draw()
        .map_err(err)?;
    let color = |k: FiringKind| match k {
        FiringKind::Main => FIRED,
        FiringKind::Late => LATE,
        FiringKind::Early => EARLY,
    };
    for (i, (_, bars)) in data.windows.iter().enumerate() {
        let k = bars.len().max(1) as f64;
        let slot = 0.8 / k;
        for (j, b) in bars.iter().enumerate().filter(|(_, b)| b.step < playhead) {
            let x0 = i as f64 - 0.4 + j as f64 * slot;
            let c = color(b.kind);
            let fill = if b.superseded && bars.iter().skip(j + 1).any(|x| x.step < playhead) {
                c.mix(0.35)
            } else {
                c.mix(1.0)
            };
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0f64.max(v0)), (x0 + slot * 0.92, b.value)],
                    fill.filled(),
                )))
                .map_err(err)?;
        }
    }
    for (kind, label) in
        [(FiringKind::Main, "main firing"), (FiringKind::Late, "late firing"), (FiringKind::Early, "early firing")]
    {
        if data.windows.iter().flat_map(|(_, b)| b.iter()).any(|b| b.kind == kind) {
            let c = color(kind);
            chart
                .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], c.filled()));
        }
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight, style)?;
    // The playhead as a caption line at the bottom left: results are per window, not per step.
    area.draw_text(
        &format!("at step {playhead}"),
        &style.font(11.0).color(&PLAYHEAD),
        (style.px(8.0) as i32, area.dim_in_pixel().1 as i32 - style.px(14.0) as i32),
    )
    .map_err(err)?;
    area.present().map_err(err)?;
    Ok(())
}

/// The series-label box every chart draws, at `position`.
fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
    style: &ChartStyle,
) -> DrawResult {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.88))
        .border_style(MUTED)
        .label_font(style.font(11.0))
        .draw()
        .map_err(err)
}

/// A chart with nothing to show yet: one line of text instead.
fn empty_chart<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, message: &str, style: &ChartStyle) -> DrawResult {
    area.draw_text(message, &style.font(13.0), (style.px(12.0) as i32, style.px(20.0) as i32)).map_err(err)?;
    area.present().map_err(err)
}

/// An event-time y axis plotted in whole units from a round start (event times are large
/// numbers, and ticks should fall on round times): see [`time_unit`].
struct EventTimeAxis {
    lo: Millis,
    unit: Millis,
}

impl EventTimeAxis {
    fn new(lo: Millis, hi: Millis) -> Self {
        let unit = time_unit(hi.saturating_sub(lo));
        EventTimeAxis { lo: lo.div_euclid(unit).saturating_mul(unit), unit }
    }

    fn y(&self, t: Millis) -> f64 {
        t.saturating_sub(self.lo) as f64 / self.unit as f64
    }

    fn label(&self, y: f64) -> String {
        format::time(self.lo.saturating_add((y * self.unit as f64).round() as i64))
    }
}

/// A unit for an event-time axis spanning `span` ms, such that plotters' round tick steps
/// (1, 2 or 5 × 10ⁿ units) fall on round times: seconds up to a minute (ticks every 5, 10,
/// 20 s), minutes up to three hours (every 30 s, 1, 2, 5, 10 min), hours beyond.
pub fn time_unit(span: Millis) -> Millis {
    match span {
        s if s <= 60_000 => 1_000,
        s if s <= 3 * 3_600_000 => 60_000,
        _ => 3_600_000,
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
        assert_eq!(value_label(431.0, "sum", ValueFormat::UsdCents), "$4.31");
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
