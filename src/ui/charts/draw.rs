//! The charts drawn with plotters: axes in the data's units, a legend, the playhead.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::engine::time::Millis;
use crate::engine::trace::FiringKind;
use crate::teach::{ValueFormat, format};

use super::{LagChart, PartitionChart, ResultsChart, StateChart};

/// Sizes and contrast: `scale` multiplies every font and line (device pixels × lecture size).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartStyle {
    pub scale: f64,
    pub high_contrast: bool,
}

impl ChartStyle {
    pub(super) fn px(&self, v: f64) -> u32 {
        (v * self.scale).round().max(1.0) as u32
    }

    pub(super) fn font(&self, size: f64) -> TextStyle<'static> {
        let color = if self.high_contrast { BLACK } else { RGBColor(0x30, 0x38, 0x48) };
        ("sans-serif", size * self.scale).into_font().color(&color)
    }
}

// The app's colours (assets/style.css), so the charts read like the canvas.
pub(super) const OPEN: RGBColor = RGBColor(0x3d, 0x6f, 0xc0);
pub(super) const FIRED: RGBColor = RGBColor(0x1f, 0x8a, 0x4c);
pub(super) const LATE: RGBColor = RGBColor(0xc7, 0x77, 0x00);
const EARLY: RGBColor = RGBColor(0x7b, 0x52, 0xc7);
pub(super) const WM: RGBColor = RGBColor(0x0b, 0x57, 0xd0);
pub(super) const SIDE: RGBColor = RGBColor(0xc0, 0x26, 0x6d);
pub(super) const MUTED: RGBColor = RGBColor(0x8a, 0x8f, 0x99);
const PLAYHEAD: RGBColor = RGBColor(0xe0, 0x1e, 0x1e);

type DrawResult = Result<(), String>;

pub(super) fn err<E: std::fmt::Debug>(e: E) -> String {
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

/// The points of a line in x order as `columns` pixel columns show them: in each column its first,
/// lowest, highest and last point, in their order (a line through them covers the pixels the
/// line through all of them does). At 100,000 steps plotters drew every point, ≈ 10 s of the
/// page's thread for the Charts tab (issue 15). Lines of at most four points a column are kept.
fn thin(points: Vec<(f64, f64)>, columns: usize) -> Vec<(f64, f64)> {
    let (Some(&(x0, _)), Some(&(x1, _))) = (points.first(), points.last()) else { return points };
    if columns == 0 || points.len() <= 4 * columns || x1 <= x0 {
        return points;
    }
    let column = |x: f64| (((x - x0) / (x1 - x0)) * columns as f64) as usize;
    let mut out = Vec::with_capacity(4 * columns + 4);
    let mut start = 0;
    while start < points.len() {
        let c = column(points[start].0);
        let (mut lo, mut hi, mut end) = (start, start, start);
        while end < points.len() && column(points[end].0) == c {
            if points[end].1 < points[lo].1 {
                lo = end;
            }
            if points[end].1 > points[hi].1 {
                hi = end;
            }
            end += 1;
        }
        let mut keep = [start, lo, hi, end - 1];
        keep.sort_unstable();
        for (k, &i) in keep.iter().enumerate() {
            if k == 0 || keep[k - 1] != i {
                out.push(points[i]);
            }
        }
        start = end;
    }
    out
}

/// A line's point markers: `size` where its points have room (a point per four pixel columns at
/// most), none where they would merge into a smear.
fn marker_size(points: usize, columns: usize, size: u32) -> u32 {
    if points.saturating_mul(4) <= columns { size } else { 0 }
}

/// The pixel columns of a chart's plotting area.
fn columns<DB: DrawingBackend, CT: CoordTranslate>(chart: &ChartContext<'_, DB, CT>) -> usize {
    chart.plotting_area().dim_in_pixel().0 as usize
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
    let cols = columns(&chart);
    let series = |v: &[u64]| -> Vec<(f64, f64)> {
        thin(v.iter().enumerate().map(|(i, y)| (i as f64, *y as f64)).collect(), cols)
    };
    let kept_points = marker_size(data.steps + 1, cols, style.px(2.5));
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
        .draw_series(LineSeries::new(series(kept), solid).point_size(kept_points))
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

/// The charts of event time over processing steps: `Chart`'s coordinates.
type StepsChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The frame such a chart draws in: a white area, the title, the axes labelled (processing step
/// →, event time ↑, in whole units of [`time_unit`]); with the axis that maps times to y.
fn event_time_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    steps: usize,
    (lo, hi): (Millis, Millis),
    title: String,
    style: &ChartStyle,
) -> Result<(StepsChart<'a, DB>, EventTimeAxis), String> {
    let axis = EventTimeAxis::new(lo, hi);
    let mut chart = ChartBuilder::on(area)
        .caption(title, style.font(13.0))
        .margin(style.px(8.0))
        .x_label_area_size(style.px(34.0))
        .y_label_area_size(style.px(78.0))
        .build_cartesian_2d(0f64..steps.max(1) as f64, 0.0..axis.y(hi))
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("processing step")
        .y_desc("event time")
        .x_labels(steps.clamp(2, 12) + 1)
        .y_labels(5)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| axis.label(*v))
        .label_style(style.font(11.0))
        .axis_desc_style(style.font(11.0))
        .light_line_style(RGBColor(0xee, 0xf0, 0xf4))
        .draw()
        .map_err(err)?;
    Ok((chart, axis))
}

/// A series of event times per step as staircases ([`stairs`]), in the legend once as `label`.
fn stair_series<DB: DrawingBackend>(
    chart: &mut StepsChart<'_, DB>,
    v: &[Option<Millis>],
    axis: &EventTimeAxis,
    line: ShapeStyle,
    point_size: u32,
    label: String,
) -> DrawResult {
    let mut label = Some(label);
    let cols = columns(chart);
    let point_size = marker_size(v.len(), cols, point_size);
    for run in stairs(v, &|t| axis.y(t)) {
        let drawn = chart.draw_series(LineSeries::new(thin(run, cols), line).point_size(point_size)).map_err(err)?;
        if let Some(l) = label.take() {
            drawn.label(l).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], line));
        }
    }
    Ok(())
}

/// The end every steps chart shares: the playhead, the legend at the top left, presented.
fn finish_steps_chart<'a, DB: DrawingBackend + 'a>(
    area: &DrawingArea<DB, Shift>,
    mut chart: StepsChart<'a, DB>,
    playhead: usize,
    style: &ChartStyle,
) -> DrawResult {
    let y1 = chart.y_range().end;
    playhead_line(&mut chart, playhead as f64, 0.0, y1, style)?;
    legend(&mut chart, SeriesLabelPosition::UpperLeft, style)?;
    area.present().map_err(err)
}

/// The watermark against the largest event time seen; the gap between is the lag.
pub fn draw_lag<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &LagChart,
    playhead: usize,
    style: &ChartStyle,
) -> DrawResult {
    area.fill(&WHITE).map_err(err)?;
    let Some(range) = data.time_range() else {
        return empty_chart(area, "No element and no watermark yet", style);
    };
    let lag_now = data.lag.get(playhead.min(data.steps)).copied().flatten();
    let title = match lag_now {
        Some(l) if l >= 0 => format!("Watermark vs largest event time (lag at the playhead: {})", format::duration(l)),
        Some(l) => {
            format!("Watermark vs largest event time (the watermark is {} ahead)", format::duration(l.saturating_neg()))
        }
        None => "Watermark vs largest event time".to_string(),
    };
    let (mut chart, axis) = event_time_chart(area, data.steps, range, title, style)?;
    for (label, v, color) in
        [("largest event time seen", &data.max_event_time, SIDE), ("watermark", &data.watermark, WM)]
    {
        stair_series(&mut chart, v, &axis, color.stroke_width(style.px(2.5)), style.px(3.0), label.to_string())?;
    }
    // The lag at the playhead, as a bracket between the two lines.
    if let (Some(Some(w)), Some(Some(m))) = (data.watermark.get(playhead), data.max_event_time.get(playhead)) {
        let x = playhead as f64;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x, axis.y(*w)), (x, axis.y(*m))],
                LATE.stroke_width(style.px(5.0)),
            )))
            .map_err(err)?
            .label("lag")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], LATE.stroke_width(5)));
    }
    finish_steps_chart(area, chart, playhead, style)
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
    let Some(range) = data.time_range() else {
        return empty_chart(area, "No partition has a watermark yet", style);
    };
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
    let (mut chart, axis) = event_time_chart(area, data.steps, range, title, style)?;
    let combined = BLACK.mix(0.75).stroke_width(style.px(5.0));
    stair_series(&mut chart, &data.combined, &axis, combined, 0, "operator watermark (minimum)".to_string())?;
    for (p, v) in data.partitions.iter().enumerate() {
        let line = PARTITION_COLORS[p % PARTITION_COLORS.len()].stroke_width(style.px(2.0));
        stair_series(&mut chart, v, &axis, line, style.px(2.0), format!("partition {p}"))?;
    }
    finish_steps_chart(area, chart, playhead, style)
}

/// The windows a bar of the results chart stands for, with `windows` over `columns` pixel columns.
fn windows_per_bar(windows: usize, columns: usize) -> usize {
    windows.div_ceil(columns.max(1)).max(1)
}

/// A bar of the results chart where there are more windows than pixel columns.
#[derive(Clone, Debug, PartialEq)]
struct ColumnBar {
    /// The first window it stands for, and how many.
    first: usize,
    windows: usize,
    kind: FiringKind,
    value: f64,
}

/// The results chart's bars where it has more windows than `columns`: windows grouped into as
/// many runs as there are columns, and for each run and kind the largest (farthest from zero)
/// latest result at the playhead of a window of that kind, early, main, then late (drawn in
/// that order: late over main). A drawn bar per window (65,000 at 100,000 elements) took
/// seconds, and the pixels showed only the largest anyway.
fn column_bars(data: &ResultsChart, playhead: usize, columns: usize) -> Vec<ColumnBar> {
    let per = windows_per_bar(data.windows.len(), columns);
    let mut out = Vec::new();
    for (c, windows) in data.windows.chunks(per).enumerate() {
        for kind in [FiringKind::Early, FiringKind::Main, FiringKind::Late] {
            let latest = windows.iter().filter_map(|(_, bars)| bars.iter().rev().find(|b| b.step < playhead));
            let value = latest
                .filter(|b| b.kind == kind)
                .map(|b| b.value)
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| if v.abs() > m.abs() { v } else { m })));
            if let Some(value) = value {
                out.push(ColumnBar { first: c * per, windows: windows.len(), kind, value });
            }
        }
    }
    out
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
    // (A bar per pixel column where there are more windows: said under the chart, with the playhead.)
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
    let cols = columns(&chart);
    if data.windows.len() > cols {
        for bar in column_bars(data, playhead, cols) {
            let x0 = bar.first as f64 - 0.5;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0f64.max(v0)), (x0 + bar.windows as f64, bar.value)],
                    color(bar.kind).filled(),
                )))
                .map_err(err)?;
        }
    } else {
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
    let per = windows_per_bar(data.windows.len(), cols);
    let caption = if data.windows.len() > cols {
        format!("at step {playhead}; a bar per {per} windows: the largest latest result of each kind")
    } else {
        format!("at step {playhead}")
    };
    area.draw_text(
        &caption,
        &style.font(11.0).color(&PLAYHEAD),
        (style.px(8.0) as i32, area.dim_in_pixel().1 as i32 - style.px(14.0) as i32),
    )
    .map_err(err)?;
    area.present().map_err(err)?;
    Ok(())
}

/// The series-label box every chart draws, at `position`.
pub(super) fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
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

    /// A thinned line keeps, in every pixel column, the original's lowest and highest point and
    /// its first and last (where the line enters and leaves the column), in order, and at most
    /// four points a column; a line with room is kept whole.
    #[test]
    fn a_thinned_line_covers_the_columns_the_line_does() {
        use proptest::prelude::*;
        let lines = (1usize..3000, 1usize..400).prop_flat_map(|(n, cols)| {
            (proptest::collection::vec(-1e6f64..1e6, n), Just(cols), 0.0f64..10.0, 0.001f64..5.0)
        });
        proptest!(|((ys, cols, x0, dx) in lines)| {
            let points: Vec<(f64, f64)> = ys.iter().enumerate().map(|(i, y)| (x0 + i as f64 * dx, *y)).collect();
            let thinned = thin(points.clone(), cols);
            if points.len() <= 4 * cols {
                prop_assert_eq!(&thinned, &points);
                return Ok(());
            }
            prop_assert!(thinned.len() <= 4 * (cols + 1));
            prop_assert_eq!(thinned.first(), points.first());
            prop_assert_eq!(thinned.last(), points.last());
            // In order, and a subsequence of the original.
            let mut at = points.iter();
            for p in &thinned {
                prop_assert!(at.any(|q| q == p), "{:?} out of order", p);
            }
            // Each column's extremes.
            let (first, last) = (points[0].0, points[points.len() - 1].0);
            let column = |x: f64| (((x - first) / (last - first)) * cols as f64) as usize;
            for c in 0..=cols {
                let of = |v: &[(f64, f64)]| {
                    let ys: Vec<f64> = v.iter().filter(|p| column(p.0) == c).map(|p| p.1).collect();
                    (ys.iter().copied().fold(f64::INFINITY, f64::min), ys.iter().copied().fold(f64::NEG_INFINITY, f64::max))
                };
                prop_assert_eq!(of(&thinned), of(&points), "column {}", c);
            }
        });
        assert_eq!(thin(vec![], 10), vec![]);
        assert_eq!(marker_size(100, 400, 3), 3);
        assert_eq!(marker_size(101, 400, 3), 0);
    }

    /// More windows than columns: each run of windows has a bar per kind of its windows' latest
    /// results at the playhead, the largest; results not emitted yet, and results a later one
    /// replaced, are not among them.
    #[test]
    fn column_bars_are_the_largest_latest_results() {
        use super::super::{ResultBar, ResultsChart};
        let bar = |step, kind, value| ResultBar { step, kind, value, superseded: false };
        // Window i: a main result of i at step i; every third also a late result of 1000 + i at
        // step 500 + i (it replaces the main one once emitted).
        let windows: Vec<(String, Vec<ResultBar>)> = (0..300)
            .map(|i| {
                let mut bars = vec![bar(i, FiringKind::Main, i as f64)];
                if i % 3 == 0 {
                    bars.push(bar(500 + i, FiringKind::Late, 1000.0 + i as f64));
                }
                (format!("w{i}"), bars)
            })
            .collect();
        let data = ResultsChart { windows, column: "sum" };
        // 300 windows in 100 columns: runs of 3 (windows 3c, 3c+1, 3c+2).
        let early = column_bars(&data, 150, 100);
        // At step 150, windows up to 149 emitted their main result only.
        assert_eq!(early.len(), 50);
        assert!(early.iter().all(|b| b.kind == FiringKind::Main && b.windows == 3));
        assert_eq!(early[10], ColumnBar { first: 30, windows: 3, kind: FiringKind::Main, value: 32.0 });
        // At the end: window 3c's late result replaced its main one; the run's main bar is the
        // largest of the other two's.
        let end = column_bars(&data, 10_000, 100);
        assert_eq!(end.len(), 200);
        assert_eq!(end[20], ColumnBar { first: 30, windows: 3, kind: FiringKind::Main, value: 32.0 });
        assert_eq!(end[21], ColumnBar { first: 30, windows: 3, kind: FiringKind::Late, value: 1030.0 });
        // 301 windows: the last run is shorter, and every window is in one run.
        let mut more = data.clone();
        more.windows.push(("w300".into(), vec![bar(1, FiringKind::Main, -7.0)]));
        let runs = column_bars(&more, 10_000, 100);
        assert_eq!(runs.iter().filter(|b| b.kind == FiringKind::Main).map(|b| b.windows).sum::<usize>(), 301);
        assert_eq!(runs.last(), Some(&ColumnBar { first: 301 - 1, windows: 1, kind: FiringKind::Main, value: -7.0 }));
    }

    /// Axis values in the column's unit: dollars for cents, plain counts.
    #[test]
    fn value_labels() {
        assert_eq!(value_label(431.0, "sum", ValueFormat::UsdCents), "$4.31");
        assert_eq!(value_label(3.0, "count", ValueFormat::UsdCents), "3");
        assert_eq!(time_unit(59_000), 1_000);
    }
}
