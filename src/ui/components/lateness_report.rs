//! The lateness report of the stream on show: "why no output?" and "what bound do I need?". For
//! a range of out-of-orderness bounds, the share of elements that arrive behind the watermark,
//! and with the current window and allowed lateness how many are on time, late-fired or dropped
//! (or sent to the side output), and the result delay each bound costs (bound + window). A
//! plotters chart and a table; a click on a point, or a row's button (the keyboard's way), sets
//! that bound. Drawn by the extras module (`src/extras.rs`), which re-runs what it needs.

use std::rc::Rc;

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use web_sys::{HtmlCanvasElement, MouseEvent};
use yew::prelude::*;

use crate::engine::Scenario;
use crate::import::lateness::{default_bounds, report};
use crate::import::{BoundRow, LatenessReport, format_duration};
use crate::ui::charts::draw::ChartStyle;
use crate::ui::charts::lateness::draw_lateness;
use crate::ui::hooks::use_element_width;

#[derive(Properties, PartialEq)]
pub struct LatenessViewProps {
    /// The scenario on show, as JSON.
    pub scenario_json: Rc<str>,
    pub lecture: bool,
    /// The bound the user picked, in milliseconds.
    pub on_bound: Callback<i64>,
}

fn device_pixel_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).clamp(1.0, 3.0)
}

/// The report of the scenario over its default bounds, or why there is none.
fn make_report(json: &str) -> Result<Rc<LatenessReport>, String> {
    let scenario = Scenario::from_json_str(json).map_err(|e| e.to_string())?;
    report(&scenario, &default_bounds(&scenario)).map(Rc::new).map_err(|e| e.to_string())
}

fn pct(n: u64, of: u64) -> String {
    if of == 0 { "0 %".into() } else { format!("{:.1} %", n as f64 * 100.0 / of as f64) }
}

fn row_view(r: &BoundRow, report: &LatenessReport, on_bound: &Callback<i64>) -> Html {
    let current = report.current_bound == Some(r.bound);
    let suggested = report.suggestion.bound == r.bound;
    let of = report.elements;
    let mut tags = Vec::new();
    if current {
        tags.push("current");
    }
    if suggested {
        tags.push("suggested");
    }
    let bound = r.bound;
    let onclick = {
        let on_bound = on_bound.clone();
        Callback::from(move |_| on_bound.emit(bound))
    };
    let label = format_duration(r.bound);
    html! {
        <tr data-testid="lateness-row" data-bound={r.bound.to_string()} class={classes!(current.then_some("current"))}
            aria-current={current.then_some("true")}>
            <th scope="row">
                { label.clone() }
                if !tags.is_empty() { <span class="lateness-tag">{ format!(" ({})", tags.join(", ")) }</span> }
            </th>
            <td data-col="late">{ format!("{} ({})", r.late, pct(r.late, of)) }</td>
            <td data-col="on-time">{ r.on_time }</td>
            <td data-col="late-fired">{ r.late_fired }</td>
            <td data-col="dropped">{ r.all_dropped() }</td>
            <td data-col="delay">{ format_duration(r.result_delay) }</td>
            <td>
                <button data-testid="lateness-use" aria-label={format!("Set the bound to {label}")} onclick={onclick}>{ "Use" }</button>
                if let Some(f) = &r.failure { <span class="field-error">{ format!(" Flink fails: {f}") }</span> }
            </td>
        </tr>
    }
}

#[component]
pub fn LatenessView(p: &LatenessViewProps) -> Html {
    let made = use_memo(p.scenario_json.clone(), |json| make_report(json));
    let box_ref = use_node_ref();
    let canvas_ref = use_node_ref();
    let width = use_element_width(box_ref.clone());
    let (w, h) = (*width, if p.lecture { 340u32 } else { 260 });
    let dpr = device_pixel_ratio();
    // Each bound's point in CSS px, as drawn: what a click is matched against.
    let points = use_state(Vec::<(f64, f64)>::new);
    let failed = use_state(|| None::<String>);
    {
        let (canvas_ref, points, failed, made, lecture) =
            (canvas_ref.clone(), points.clone(), failed.clone(), made.clone(), p.lecture);
        use_effect_with((made.clone(), w, lecture), move |_| {
            if let (Ok(report), true) = (&*made, w > 0)
                && let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>()
            {
                canvas.set_width((f64::from(w) * dpr).round() as u32);
                canvas.set_height((f64::from(h) * dpr).round() as u32);
                let style = ChartStyle { scale: dpr * if lecture { 1.45 } else { 1.0 }, high_contrast: lecture };
                let drawn = match CanvasBackend::with_canvas_object(canvas) {
                    Some(backend) => draw_lateness(&backend.into_drawing_area(), report, &style),
                    None => Err("no 2d context".into()),
                };
                match drawn {
                    Ok(px) => {
                        points.set(px.iter().map(|(x, y)| (f64::from(*x) / dpr, f64::from(*y) / dpr)).collect());
                        failed.set(None);
                    }
                    Err(e) => failed.set(Some(e)),
                }
            }
        });
    }
    let report = match &*made {
        Ok(r) => r.clone(),
        Err(e) => {
            return html! {
                <section class="lateness" data-testid="lateness-report" aria-label="Lateness report">
                    <p class="field-error" role="alert" data-testid="lateness-unsupported">{ e.clone() }</p>
                </section>
            };
        }
    };
    let onclick = {
        let (points, report, on_bound) = (points.clone(), report.clone(), p.on_bound.clone());
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (f64::from(e.offset_x()), f64::from(e.offset_y()));
            // The nearest point, within half the spacing of two bounds (and 40 px).
            let spacing = match points.as_slice() {
                [a, b, ..] => (b.0 - a.0).abs(),
                _ => 80.0,
            };
            let nearest = points
                .iter()
                .enumerate()
                .map(|(i, (px, py))| (i, (px - x).abs(), (py - y).abs()))
                .filter(|(_, dx, _)| *dx <= (spacing / 2.0).min(40.0))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((i, _, _)) = nearest
                && let Some(r) = report.rows.get(i)
            {
                on_bound.emit(r.bound);
            }
        })
    };
    let sug = &report.suggestion;
    let current = report.current_bound.map_or_else(|| "explicit watermarks (no bound)".into(), format_duration);
    let dropped_head = if report.side_output { "Side output" } else { "Dropped" };
    let data_points = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>().join(" ");
    let described = format!(
        "Chart: the share of the {} elements behind the watermark falls from {} at bound {} to {} at bound {}; the suggested bound is {}.",
        report.elements,
        report.rows.first().map_or_else(String::new, |r| pct(r.late, report.elements)),
        report.rows.first().map_or_else(String::new, |r| format_duration(r.bound)),
        report.rows.last().map_or_else(String::new, |r| pct(r.late, report.elements)),
        report.rows.last().map_or_else(String::new, |r| format_duration(r.bound)),
        format_duration(sug.bound),
    );
    html! {
        <section class="lateness" data-testid="lateness-report" aria-label="Lateness report">
            <p class="lateness-summary">
                { format!("{} elements; window {} (the result delay is bound + window); allowed lateness {}; current bound {current}.",
                    report.elements, format_duration(report.window), format_duration(report.allowed_lateness)) }
            </p>
            <p class="lateness-summary" data-testid="lateness-suggested" data-bound={sug.bound.to_string()}>
                <strong>{ format!("Suggested bound: {}. ", format_duration(sug.bound)) }</strong>
                { format!("{} of {} elements arrived behind a larger timestamp of their partition; 99 % of them by at most {}, the most by {}.",
                    sug.out_of_order, sug.elements, format_duration(sug.quantile_disorder), format_duration(sug.max_disorder)) }
            </p>
            <figure class="chart" ref={box_ref}>
                <canvas ref={canvas_ref} data-testid="lateness-chart" data-points={data_points} role="img" aria-label={described}
                        title="Click a point to use its bound" style={format!("width: {w}px; height: {h}px; cursor: pointer")} {onclick} />
                if let Some(e) = &*failed {
                    <figcaption class="field-error" role="alert">{ format!("The chart could not be drawn: {e}") }</figcaption>
                }
            </figure>
            <div class="lateness-table-wrap">
                <table class="lateness-table" data-testid="lateness-table">
                    <caption>{ "Per bound, with the current window and allowed lateness (click a point or press Use)" }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "Bound" }</th>
                            <th scope="col">{ "Late" }</th>
                            <th scope="col">{ "On time" }</th>
                            <th scope="col">{ "Late-fired" }</th>
                            <th scope="col">{ dropped_head }</th>
                            <th scope="col">{ "Result delay" }</th>
                            <th scope="col"><span class="sr-only">{ "Set the bound" }</span></th>
                        </tr>
                    </thead>
                    <tbody>
                        { for report.rows.iter().map(|r| row_view(r, &report, &p.on_bound)) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}
