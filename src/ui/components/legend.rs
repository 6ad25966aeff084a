//! The legend under the canvas: what the marbles' shapes and colours, the hatching, the timer glyphs
//! and the windows' marks mean; and, where the canvas backend draws crowded lanes as density bars, what
//! the bars and their marks mean.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LegendProps {
    /// The scene is drawn by the canvas backend, whose crowded lanes are density bars.
    pub dense: bool,
}

#[component]
pub fn Legend(p: &LegendProps) -> Html {
    let item = |class: &'static str, label: &'static str| {
        html! { <span class="legend-item"><span class={classes!("swatch", class)} />{ label }</span> }
    };
    html! {
        <div class="legend" role="group" aria-label="Legend">
            { item("outcome-not-arrived", "not arrived") }
            { item("outcome-pending", "in state") }
            { item("outcome-on-time", "on time") }
            { item("outcome-late-firing", "late firing") }
            { item("outcome-side-output", "side output") }
            { item("outcome-dropped", "dropped") }
            <span class="legend-item"><span class="swatch hatch-swatch" />{ "allowed lateness" }</span>
            <span class="legend-item">{ "▼ trigger timer  ■ cleanup timer  ● ◆ window fired / late" }</span>
            if p.dense {
                <span class="legend-item" data-testid="legend-density">
                    { "bars: elements per pixel (dotted: not arrived, open: in state); ◆ ▼ ■ mark any late firing, side output, drop or removal" }
                </span>
            }
            <span class="legend-hint">{ "drag elements & watermark · wheel zooms · right-click edits · ? keys" }</span>
        </div>
    }
}
