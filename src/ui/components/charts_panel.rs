//! The Charts tab: each chart of [`crate::ui::charts`] on its own `<canvas>`, drawn by plotters
//! through plotters-canvas after every render that changes its data, the playhead, its width
//! (a `ResizeObserver` on its box) or the mode. Drawing is a side effect of rendering only;
//! nothing here changes the app's state. The drawing itself ([`draw_chart`], plotters) runs in the
//! lazily loaded extras module (`crate::ui::extras`), which re-runs the scenario it is given.

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::held_note;
use crate::sinks::Downstream;
use crate::teach::ValueFormat;
use crate::ui::action::Mode;
use crate::ui::charts::draw::{ChartStyle, draw_lag, draw_partitions, draw_results, draw_state};
use crate::ui::charts::{LagChart, PartitionChart, ResultsChart, StateChart};
use crate::ui::hooks::{AppHandle, ScenarioJson, use_element_width, use_extras, use_panel_json};
use crate::ui::state::AppState;

/// The three charts' data for one run.
pub struct ChartsData {
    pub state: StateChart,
    pub lag: LagChart,
    pub results: ResultsChart,
    /// Scenarios with several source partitions (or idleness).
    pub partitions: Option<PartitionChart>,
}

impl ChartsData {
    pub fn new(d: &Downstream) -> ChartsData {
        ChartsData {
            state: StateChart::new(d),
            lag: LagChart::new(d),
            results: ResultsChart::new(d),
            partitions: PartitionChart::new(d),
        }
    }
}

/// Draws chart `kind` of `data` at `playhead` on `canvas` (its size already set), for the extras module.
pub fn draw_chart(
    canvas: HtmlCanvasElement,
    kind: ChartKind,
    data: &ChartsData,
    playhead: usize,
    values: ValueFormat,
    lecture: bool,
    dpr: f64,
) -> Result<(), String> {
    let Some(backend) = CanvasBackend::with_canvas_object(canvas) else {
        return Err("no 2d context".to_string());
    };
    let area = backend.into_drawing_area();
    let style = ChartStyle { scale: dpr * if lecture { 1.45 } else { 1.0 }, high_contrast: lecture };
    match kind {
        ChartKind::State => draw_state(&area, &data.state, playhead, &style),
        ChartKind::Lag => draw_lag(&area, &data.lag, playhead, &style),
        ChartKind::Results => draw_results(&area, &data.results, playhead, values, &style),
        ChartKind::Partitions => match &data.partitions {
            Some(p) => draw_partitions(&area, p, playhead, &style),
            None => Ok(()),
        },
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    State,
    Lag,
    Results,
    Partitions,
}

impl ChartKind {
    pub const ALL: [ChartKind; 4] = [ChartKind::State, ChartKind::Lag, ChartKind::Results, ChartKind::Partitions];

    pub fn id(&self) -> &'static str {
        match self {
            ChartKind::State => "state",
            ChartKind::Lag => "lag",
            ChartKind::Results => "results",
            ChartKind::Partitions => "partitions",
        }
    }

    fn label(&self) -> &'static str {
        match self {
            ChartKind::State => "State size per step",
            ChartKind::Lag => "Watermark against the largest event time",
            ChartKind::Results => "Results per window",
            ChartKind::Partitions => "Each partition's watermark and the combined minimum",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct ChartsPanelProps {
    pub state: AppHandle,
}

#[component]
pub fn ChartsPanel(props: &ChartsPanelProps) -> Html {
    let s = props.state.get();
    let s: &AppState = &s;
    let (scenario, held) = use_panel_json(s);
    // The partitions chart only where it has something to show (asked of the extras module).
    let extras = use_extras().and_then(Result::ok);
    let partitions =
        *use_memo((scenario.clone(), extras), |(json, x)| x.as_ref().is_some_and(|x| x.has_partitions_chart(&json.0)));
    let lecture = s.teach.mode == Mode::Lecture;
    let chart = |kind: ChartKind| {
        html! {
            <ChartCanvas {kind} scenario={scenario.clone()} playhead={s.play.step} values={s.teach.values} {lecture} />
        }
    };
    html! {
        <div class="charts" data-testid="charts" data-held={held.to_string()}>
            { held_note(held) }
            { chart(ChartKind::State) }
            { chart(ChartKind::Lag) }
            { chart(ChartKind::Results) }
            if partitions {
                { chart(ChartKind::Partitions) }
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ChartCanvasProps {
    pub kind: ChartKind,
    pub scenario: ScenarioJson,
    pub playhead: usize,
    pub values: ValueFormat,
    pub lecture: bool,
}

fn device_pixel_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).clamp(1.0, 3.0)
}

#[component]
pub fn ChartCanvas(p: &ChartCanvasProps) -> Html {
    let box_ref = use_node_ref();
    let canvas_ref = use_node_ref();
    // The box's width in CSS px, measured by a ResizeObserver: a resize redraws.
    let width = use_element_width(box_ref.clone());
    let w = *width;
    let h: u32 = if p.lecture {
        340
    } else if w < 420 {
        210
    } else {
        240
    };
    let dpr = device_pixel_ratio();
    let drawn = use_state(|| None::<Result<usize, String>>);
    let extras = use_extras();
    if let Some(Err(e)) = &extras
        && drawn.is_none()
    {
        drawn.set(Some(Err(format!("the chart module could not be loaded: {e}"))));
    }
    let ready = extras.and_then(Result::ok);
    {
        let canvas_ref = canvas_ref.clone();
        let (kind, scenario, playhead, values, lecture) = (p.kind, p.scenario.clone(), p.playhead, p.values, p.lecture);
        let drawn = drawn.clone();
        use_effect_with((kind, scenario.clone(), playhead, values, lecture, w, h, ready), move |(.., ready)| {
            if w > 0
                && let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>()
                && let Some(extras) = ready
            {
                canvas.set_width((f64::from(w) * dpr).round() as u32);
                canvas.set_height((f64::from(h) * dpr).round() as u32);
                let result = extras.draw_chart(&canvas, kind.id(), &scenario.0, playhead, values, lecture, dpr);
                let outcome = result.map(|()| playhead);
                if *drawn != Some(outcome.clone()) {
                    drawn.set(Some(outcome));
                }
            }
        });
    }
    let (drawn_step, error) = match &*drawn {
        Some(Ok(s)) => (s.to_string(), None),
        Some(Err(e)) => (String::new(), Some(e.clone())),
        None => (String::new(), None),
    };
    html! {
        <figure class="chart" ref={box_ref} data-testid={format!("chart-{}", p.kind.id())}>
            <canvas ref={canvas_ref} data-testid="chart-canvas" data-chart={p.kind.id()} data-drawn-step={drawn_step}
                    role="img" aria-label={p.kind.label()}
                    style={format!("width: {w}px; height: {h}px")} />
            if let Some(e) = error {
                <figcaption class="field-error" role="alert">{ format!("The chart could not be drawn: {e}") }</figcaption>
            }
        </figure>
    }
}
