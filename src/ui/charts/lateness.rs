//! The lateness report's chart ([`crate::import::LatenessReport`]): for each out-of-orderness
//! bound (evenly spaced, in increasing order), the share of elements behind the watermark on
//! arrival, the share dropped (side output or `numLateRecordsDropped`) and the share late-fired
//! with the scenario's allowed lateness; the current and the suggested bound marked. The points'
//! positions are returned, so that a click can pick a bound.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::draw::{ChartStyle, FIRED, LATE, MUTED, SIDE, err, legend};
use crate::import::{LatenessReport, format_duration};

/// Percent of the report's elements.
fn share(n: u64, of: u64) -> f64 {
    if of == 0 { 0.0 } else { n as f64 * 100.0 / of as f64 }
}

/// The x position of each bound: its index.
fn index_of(report: &LatenessReport, bound: Option<i64>) -> Option<f64> {
    let b = bound?;
    report.rows.iter().position(|r| r.bound == b).map(|i| i as f64)
}

/// Draws the chart; returns each bound's point of the "late" line in the backend's pixels.
pub fn draw_lateness<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    report: &LatenessReport,
    style: &ChartStyle,
) -> Result<Vec<(i32, i32)>, String> {
    area.fill(&WHITE).map_err(err)?;
    let n = report.rows.len().max(1);
    let of = report.elements;
    let late: Vec<(f64, f64)> = report.rows.iter().enumerate().map(|(i, r)| (i as f64, share(r.late, of))).collect();
    let dropped: Vec<(f64, f64)> =
        report.rows.iter().enumerate().map(|(i, r)| (i as f64, share(r.all_dropped(), of))).collect();
    let fired: Vec<(f64, f64)> =
        report.rows.iter().enumerate().map(|(i, r)| (i as f64, share(r.late_fired, of))).collect();
    let top = late.iter().chain(&dropped).chain(&fired).map(|p| p.1).fold(1.0f64, f64::max);
    // Head room for the legend (top right).
    let y_max = (top * 1.45).min(100.0).max(top);
    let every = n.div_ceil(7);
    let labels = |v: &f64| {
        let i = v.round();
        if (v - i).abs() > 0.01 || i < 0.0 || !(i as usize).is_multiple_of(every) {
            return String::new();
        }
        report.rows.get(i as usize).map(|r| format_duration(r.bound)).unwrap_or_default()
    };
    let mut chart = ChartBuilder::on(area)
        .caption("Elements behind the watermark, per out-of-orderness bound", style.font(13.0))
        .margin(style.px(8.0))
        .x_label_area_size(style.px(34.0))
        .y_label_area_size(style.px(44.0))
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("bound (maxOutOfOrderness)")
        .y_desc("% of elements")
        .x_labels(n + 1)
        .y_labels(6)
        .x_label_formatter(&labels)
        // Small shares need a decimal, or 0.5 % and 0 % would both read "0 %".
        .y_label_formatter(&|v| if y_max < 10.0 { format!("{v:.1} %") } else { format!("{v:.0} %") })
        .label_style(style.font(11.0))
        .axis_desc_style(style.font(11.0))
        .light_line_style(RGBColor(0xee, 0xf0, 0xf4))
        .draw()
        .map_err(err)?;
    // The current bound (solid) and the suggested one (dashed), each with its word.
    let marks = [(report.current_bound, "current", false), (Some(report.suggestion.bound), "suggested", true)];
    for (bound, word, dashed) in marks {
        let Some(x) = index_of(report, bound) else { continue };
        let line = MUTED.stroke_width(style.px(1.5));
        if dashed {
            chart
                .draw_series(DashedLineSeries::new(vec![(x, 0.0), (x, y_max)], style.px(5.0), style.px(4.0), line))
                .map_err(err)?;
        } else {
            chart.draw_series(std::iter::once(PathElement::new(vec![(x, 0.0), (x, y_max)], line))).map_err(err)?;
        }
        let y = if dashed { y_max * 0.92 } else { y_max * 0.84 };
        chart.draw_series(std::iter::once(Text::new(word, (x, y), style.font(11.0)))).map_err(err)?;
    }
    let size = style.px(4.0);
    let solid = LATE.stroke_width(style.px(2.5));
    chart
        .draw_series(LineSeries::new(late.clone(), solid))
        .map_err(err)?
        .label("late (ts ≤ watermark on arrival)")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], solid));
    chart.draw_series(late.iter().map(|p| Circle::new(*p, size, LATE.filled()))).map_err(err)?;
    let side = SIDE.stroke_width(style.px(2.0));
    let dropped_label =
        if report.side_output { "dropped (to the side output)" } else { "dropped (numLateRecordsDropped)" };
    chart
        .draw_series(DashedLineSeries::new(dropped.clone(), style.px(6.0), style.px(4.0), side))
        .map_err(err)?
        .label(dropped_label)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], side));
    chart.draw_series(dropped.iter().map(|p| TriangleMarker::new(*p, size, SIDE.filled()))).map_err(err)?;
    let green = FIRED.stroke_width(style.px(1.5));
    chart
        .draw_series(LineSeries::new(fired.clone(), green))
        .map_err(err)?
        .label("late-fired (accepted by allowed lateness)")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], green));
    let half = i32::try_from(size).unwrap_or(4);
    chart
        .draw_series(fired.iter().map(|p| {
            EmptyElement::at(*p) + Rectangle::new([(-half, -half), (half, half)], FIRED.stroke_width(style.px(1.5)))
        }))
        .map_err(err)?;
    legend(&mut chart, SeriesLabelPosition::UpperRight, style)?;
    let points = late.iter().map(|p| chart.backend_coord(p)).collect();
    area.present().map_err(err)?;
    Ok(points)
}
