//! The watermark: its line and flag (the handle: drag it, or ←/→ when focused), the bound of
//! bounded out-of-orderness, the explicit item a drag moves, and while an element is dragged the
//! label with its timestamp.

use yew::prelude::*;

use super::px::px;
use crate::ui::action::ObjectId;
use crate::ui::scene::label::watermark as watermark_name;
use crate::ui::scene::layout::dims;
use crate::ui::scene::{DragLabel, Scene, WatermarkItem, focus_key};

pub fn watermark(w: &WatermarkItem) -> Html {
    let (x, top, height) = (w.x, w.top, w.bottom);
    let bound = w.bound.as_ref().map(|b| {
        let xm = b.max_ts_x;
        html! {
            <g class="bound" data-testid="bound">
                <line class="max-ts" x1={px(xm)} x2={px(xm)} y1={px(top)} y2={px(height)} />
                // The gap itself is a handle too: dragging it edits the bound.
                <rect class="bound-hit" data-drag="wm" x={px(x.min(xm))} y={px(top + 24.0)}
                      width={px((xm - x).abs().max(6.0))} height="14" />
                <line class="bound-gap" x1={px(x)} x2={px(xm)} y1={px(top + 33.0)} y2={px(top + 33.0)} />
                <line class="bound-gap" x1={px(xm)} x2={px(xm)} y1={px(top + 29.0)} y2={px(top + 37.0)} />
                <text class="bound-label" x={px(xm + 4.0)} y={px(top + 32.0)}>{ Scene::bound_text(b.bound) }</text>
            </g>
        }
    });
    let ghost = w.ghost.as_ref().map(|g| {
        html! {
            <g class="wm-ghost" data-testid="watermark-item" data-wm={g.wm.to_string()}>
                <line x1={px(g.x)} x2={px(g.x)} y1={px(top)} y2={px(height)} />
                <text x={px(g.text_x)} y={px(height - 6.0)} text-anchor={g.anchor}>{ g.text.clone() }</text>
            </g>
        }
    });
    html! {
        <g class={classes!("watermark", w.active.then_some("active"))}>
            { bound.unwrap_or_default() }
            { ghost.unwrap_or_default() }
            <line class="wm-line" data-testid="watermark-line" x1={px(x)} x2={px(x)} y1={px(top)} y2={px(height)} />
            <g class="wm-handle" data-testid="watermark" data-wm={w.wm.to_string()} data-drag="wm"
               data-focus={focus_key(&ObjectId::Watermark)} tabindex={w.tab.tabindex()} role="button" aria-describedby="desc-watermark">
                <line class="wm-hit" x1={px(x)} x2={px(x)} y1={px(top)} y2={px(height)} />
                <rect class="wm-flag" x={px(w.label_x)} y={px(top)} width={px(w.label_w)} height="18" rx="4" />
                <text class="wm-text" x={px(w.label_x + 8.0)} y={px(top + 13.0)}>{ w.label.clone() }</text>
                <title>{ watermark_name(w) }</title>
            </g>
        </g>
    }
}

/// While dragging an element: its exact timestamp, and where it will snap.
pub fn drag_label(d: &DragLabel) -> Html {
    html! {
        <g class="drag-label" data-testid="drag-label" data-ts={d.ts.to_string()}>
            <line class="drag-guide" x1={px(d.x)} x2={px(d.x)} y1={px(dims::AXIS_HEIGHT - 8.0)} y2={px(d.bottom)} />
            <rect x={px(d.label_x)} y={px(dims::AXIS_HEIGHT - 22.0)} width={px(d.width)} height="18" rx="4" />
            <text x={px(d.label_x + 6.0)} y={px(dims::AXIS_HEIGHT - 9.0)}>{ d.text.clone() }</text>
        </g>
    }
}
