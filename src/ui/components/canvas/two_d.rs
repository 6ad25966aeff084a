//! The 2-D view: event time × processing time (Streaming Systems' picture). Each element at (its
//! timestamp, the step it arrived in), the watermark as a curve over the steps, each window as a
//! column from the step that created it to the one that ended it.

use yew::prelude::*;

use super::px::px;
use crate::ui::scene::glyph::Shape;
use crate::ui::scene::label::element as element_name;
use crate::ui::scene::layout::dims;
use crate::ui::scene::{TwoD, focus_key, outcome_class};

pub fn two_d(t: &TwoD, width: f64) -> Html {
    let rows = t.rows.iter().enumerate().map(|(i, (y, done))| {
        html! {
            <g key={format!("r{i}")}>
                <line class={classes!("step-row", done.then_some("done"))} x1="0" x2={px(width)} y1={px(*y)} y2={px(*y)} />
                <text class="step-num" x="4" y={px(y - 18.0 / 2.0 + 4.0)}>{ format!("#{}", i + 1) }</text>
            </g>
        }
    });
    let columns = t.columns.iter().map(|c| {
        html! {
            <g class={classes!("window", "column", format!("state-{}", c.state))} key={c.node_key.to_string()}>
                <rect class="band" x={px(c.x)} y={px(c.y)} width={px(c.width)} height={px(c.height)} />
            </g>
        }
    });
    let dots = t.dots.iter().map(|m| {
        let class = classes!("marble", outcome_class(m.outcome), m.selected.then_some("selected"));
        let shape = Shape::of(m.outcome);
        html! {
            <g {class} key={format!("d{}", m.index)} data-testid="element" data-id={m.elem_id.to_string()} data-key={m.key_name.to_string()}
               data-ts={m.ts.to_string()} data-index={m.index.to_string()} data-drag={format!("e:{}", m.index)}
               data-focus={focus_key(&m.id)} tabindex={m.tab.tabindex()} role="button" aria-describedby="desc-element"
               transform={format!("translate({},{})", px(m.x), px(m.y))}>
                <circle class="hit" r="12" />
                <path class="body" d={shape.path(0.0, 0.0, 7.0)} />
                <text class="marble-text small" y="3" text-anchor="middle">{ m.elem_id }</text>
                <title>{ format!("{}, arrives in step {}", element_name(m), m.index + 1) }</title>
            </g>
        }
    });
    html! {
        <g class="two-d" data-testid="two-d">
            { for rows }
            { for columns }
            <path class="wm-curve" d={t.curve.clone()} />
            <line class="playhead-line" x1="0" x2={px(width)} y1={px(t.playhead_y)} y2={px(t.playhead_y)} />
            <text class="axis-title" x={px(width - 6.0)} y={px(dims::AXIS_HEIGHT + 12.0)} text-anchor="end">
                { "processing order ↓ · watermark curve in blue" }
            </text>
            { for dots }
        </g>
    }
}
