//! The axis: ticks with their grid lines, the title (event time, or processing time: the
//! arrivals), and the note that a processing-time view follows Flink's rules, not a recorded run.

use yew::prelude::*;

use super::px::px;
use crate::ui::scene::Axis;
use crate::ui::scene::layout::dims;

/// The axis over a canvas `width` × `height` (canvas units).
pub fn axis(axis: &Axis, width: f64, height: f64) -> Html {
    html! {
        <g class="axis" data-testid="axis">
            <rect class="axis-bg" x="0" y="0" width={px(width)} height={px(dims::AXIS_HEIGHT - 4.0)} />
            { for axis.ticks.iter().map(|t| html! {
                <g class="tick" key={t.key.to_string()}>
                    <line class="grid" x1={px(t.x)} x2={px(t.x)} y1={px(dims::AXIS_HEIGHT - 10.0)} y2={px(height)} />
                    <text class="tick-label" x={px(t.label_x)} y="14" text-anchor="middle">{ &t.label }</text>
                </g>
            }) }
            <text class="axis-title" x="6" y="30" data-testid="axis-title" data-domain={if axis.processing_axis { "processing" } else { "event" }}>
                { if axis.processing_axis { "processing time (arrivals) →" } else { "event time →" } }
            </text>
            // Real Flink cannot be run deterministically on processing time: no golden stands
            // behind this view, only the rules.
            if axis.processing_axis {
                <text class="axis-title axis-domain-note" x="190" y="30" data-testid="axis-domain-note" data-domain="processing">
                    { "· drawn by Flink's rules, not a recorded run" }
                </text>
            }
        </g>
    }
}
