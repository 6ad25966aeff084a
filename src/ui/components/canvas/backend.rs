//! The backend seam (TIMELINE_CONTRACT.md §1): a backend turns a [`Scene`] into pixels inside the
//! canvas host, which keeps the pointer, the hit testing and the focus. [`SvgBackend`] is the only
//! one for now: every item a node, so the `data-testid` contract (§2) is the drawing itself. A
//! Canvas 2D backend for scenes of more than 2,000 elements draws the same items in bulk, with the
//! focused, selected or dragged object in a DOM overlay.

use std::rc::Rc;

use yew::prelude::*;

use super::axis::axis;
use super::effects::flights;
use super::lanes::{lanes, side_lane};
use super::marbles::marbles;
use super::marks::{marks, tvf_rows};
use super::partitions::partitions;
use super::px::px;
use super::timers::timers;
use super::two_d::two_d;
use super::watermark::{drag_label, watermark};
use super::windows::windows;
use crate::ui::scene::Scene;
use crate::ui::scene::layout::dims;

/// A way to draw a scene.
pub trait SceneBackend {
    /// The scene's drawing.
    fn draw(scene: &Rc<Scene>) -> Html;
}

/// Every item an SVG node.
pub struct SvgBackend;

impl SceneBackend for SvgBackend {
    fn draw(scene: &Rc<Scene>) -> Html {
        svg(scene)
    }
}

/// The layers in draw order; the memoised groups inside (marbles, a lane's windows, timer glyphs)
/// redraw only what changed.
fn svg(s: &Scene) -> Html {
    let class = classes!(
        "canvas",
        s.animate.then_some("animate"),
        s.dragging.then_some("dragging"),
        s.panning.then_some("panning")
    );
    let style = format!("--fx-ms: {:.0}ms", s.fx_ms);
    html! {
        <svg {class} {style} data-testid="canvas" width={px(s.width * s.scale)} height={px(s.height * s.scale)}
             viewBox={format!("0 0 {} {}", px(s.width), px(s.height))} role="application"
             aria-label="Event-time canvas: drag elements and the watermark; Tab enters, ] [ and the arrows move, ? lists the keys">
            <defs>
                <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <line x1="0" y1="0" x2="0" y2="6" class="hatch-line" />
                </pattern>
            </defs>
            { axis(&s.axis, s.width, s.height) }
            if let Some(t) = &s.two_d {
                { two_d(t, s.width) }
                { partitions(&s.partitions, s.width) }
            } else {
                { lanes(&s.lanes) }
                { partitions(&s.partitions, s.width) }
                { side_lane(&s.side) }
                { windows(&s.windows) }
                { timers(&s.timers, &s.expiries) }
                { tvf_rows(&s.tvf_rows) }
                { marbles(&s.marbles) }
                { marks(&s.marks) }
                if s.animate {
                    { flights(&s.flights, s.anim_seq) }
                }
            }
            { watermark(&s.watermark) }
            if let Some(d) = &s.drag_label {
                { drag_label(d) }
            }
            if let Some(x) = s.hint {
                <text class="hint" x={px(x)} y={px(dims::AXIS_HEIGHT + 30.0)} text-anchor="middle">
                    { "Before the first input item: press → or ▶ to start" }
                </text>
            }
        </svg>
    }
}
