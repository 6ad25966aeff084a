//! The backend seam (TIMELINE_CONTRACT.md §1): a backend turns a [`Scene`] into pixels inside the
//! canvas host, which keeps the pointer, the hit testing and the focus. [`SvgBackend`]: every item
//! a node, so the `data-testid` contract (§2) is the drawing itself. Scenes of more than 2,000
//! elements go to the Canvas 2D backend (`bulk.rs`), which draws the same items in bulk, with the
//! focused, selected or dragged object in a DOM overlay.

use std::rc::Rc;

use yew::prelude::*;

use super::axis::axis;
use super::effects::flights;
use super::lanes::{lanes, side_lane};
use super::marbles::{lifted_marble, marbles};
use super::marks::{marks, tvf_rows};
use super::partitions::partitions;
use super::px::px;
use super::timers::TimerLayer;
use super::two_d::two_d;
use super::watermark::{drag_label, watermark};
use super::windows::windows;
use crate::ui::scene::layout::dims;
use crate::ui::scene::{LaneItem, Scene};

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

/// The key lanes' shading as the `<svg>`'s CSS background (one gradient, its stops in CSS px),
/// under everything the SVG draws. Not a `<rect>` per lane under the lane's content: with those,
/// Chromium's layerization cost about 5 ms a frame at 2,000 elements whenever anything on the page
/// changed (measured: 7.1 ms with the rects, 1.7 ms with this background). The rects stay in the
/// DOM, hidden, for the lane's box and for the exported SVG and forced colours (style.css).
fn lane_shading(lanes: &[LaneItem], scale: f64) -> String {
    use std::fmt::Write;
    if lanes.is_empty() {
        return String::new();
    }
    let mut stops = String::new();
    let mut at = 0.0;
    for (i, lane) in lanes.iter().enumerate() {
        let (top, bottom) = ((lane.y * scale).max(at), ((lane.y + lane.height) * scale).max(at));
        // The first lane light, as the canvas backend draws it (`bulk.rs`).
        let fill = if i % 2 == 1 { LANE_FILL_ALT } else { LANE_FILL };
        let edge = ((bottom - top) / 2.0).min(1.0);
        let _ = write!(
            stops,
            ",transparent {at:.1}px {top:.1}px,{LANE_EDGE} {top:.1}px {t1:.1}px,{fill} {t1:.1}px {b1:.1}px,{LANE_EDGE} {b1:.1}px {bottom:.1}px",
            t1 = top + edge,
            b1 = bottom - edge,
        );
        at = bottom;
    }
    format!("background-image:linear-gradient(to bottom{stops},transparent {at:.1}px)")
}

/// The `<svg>`'s style: the effects' duration and, in the lanes' view (not the 2-D view, which draws
/// no lanes), the lanes' shading.
fn scene_style(s: &Scene) -> String {
    let shading = if s.two_d.is_none() { lane_shading(&s.lanes, s.scale) } else { String::new() };
    format!("--fx-ms: {:.0}ms;{shading}", s.fx_ms)
}

/// The lanes' colours (style.css's `.lane-bg` for the export and forced colours says the same).
const LANE_FILL: &str = "#fafbfd";
const LANE_FILL_ALT: &str = "#f5f7fb";
const LANE_EDGE: &str = "#e6e9ef";

/// The layers in draw order; the memoised groups inside (marbles, a lane's windows, timer glyphs)
/// redraw only what changed.
fn svg(s: &Scene) -> Html {
    let class = classes!("canvas", s.animate.then_some("animate"), s.dragging.then_some("dragging"));
    let style = scene_style(s);
    let (width, height) = (AttrValue::from(px(s.width * s.scale)), AttrValue::from(px(s.height * s.scale)));
    let view_box = AttrValue::from(format!("0 0 {} {}", px(s.width), px(s.height)));
    html! {
        <>
        <svg {class} {style} data-testid="canvas" width={width.clone()} height={height.clone()} viewBox={view_box.clone()} role="application"
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
                <TimerLayer timers={s.timers.clone()} expiries={s.expiries.clone()} />
                { tvf_rows(&s.tvf_rows) }
                { marbles(&s.marbles, s.element_count) }
                { marks(&s.marks) }
                if s.animate {
                    { flights(&s.flights, s.anim_seq) }
                }
            }
            { watermark(&s.watermark) }
            if let Some(x) = s.hint {
                <text class="hint" x={px(x)} y={px(dims::AXIS_HEIGHT + 30.0)} text-anchor="middle">
                    { "Before the first input item: press → or ▶ to start" }
                </text>
            }
        </svg>
        if s.lifted.is_some() || s.drag_label.is_some() {
            // What follows the pointer in a drag: the drag label and the dragged element while its
            // run is out (`Scene::lifted`), in an `<svg>` of its own over the scene, so that a
            // pointer move repaints this and not the whole scene (about 8 ms a frame at 2,000
            // elements), and so that neither the label coming at the press nor the element lifted
            // at the first move changes what the scene's `<svg>` draws. A drawing only: the dragged
            // element's marble in the scene keeps the focus and the name.
            <svg class="canvas lifted dragging" {width} {height} viewBox={view_box} aria-hidden="true">
                if let Some(m) = &s.lifted {
                    { lifted_marble(m) }
                }
                if let Some(d) = &s.drag_label {
                    { drag_label(d) }
                }
            </svg>
        }
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(y: f64, height: f64) -> LaneItem {
        LaneItem { key: Rc::from("k"), y, height, marble_y: y + height - dims::MARBLE_ROW / 2.0 - 2.0 }
    }

    /// Each lane: a 1-px edge above and below, its fill between, every other lane darker, in CSS
    /// px (scene units times the scale); the gaps between lanes stay clear.
    #[test]
    fn lanes_shade_the_svg_background_where_the_rects_were() {
        assert_eq!(lane_shading(&[], 1.0), "");
        let css = lane_shading(&[lane(40.0, 100.0), lane(150.0, 50.0)], 0.5);
        assert_eq!(
            css,
            "background-image:linear-gradient(to bottom,\
             transparent 0.0px 20.0px,#e6e9ef 20.0px 21.0px,#fafbfd 21.0px 69.0px,#e6e9ef 69.0px 70.0px,\
             transparent 70.0px 75.0px,#e6e9ef 75.0px 76.0px,#f5f7fb 76.0px 99.0px,#e6e9ef 99.0px 100.0px,\
             transparent 100.0px)"
        );
        // The 2-D view draws no lanes: no shading either.
        let mut scene = Scene { lanes: vec![lane(40.0, 100.0)], scale: 1.0, fx_ms: 300.0, ..Scene::default() };
        assert!(scene_style(&scene).contains("linear-gradient"));
        scene.two_d = Some(crate::ui::scene::TwoD {
            rows: Vec::new(),
            columns: Vec::new(),
            curve: String::new(),
            playhead_y: 0.0,
            dots: Rc::from([]),
        });
        assert_eq!(scene_style(&scene), "--fx-ms: 300ms;");
        // A lane thinner than two edges is all edge, never a stop out of order.
        let thin = lane_shading(&[lane(0.0, 1.0)], 1.0);
        assert!(thin.contains("#e6e9ef 0.0px 0.5px,#fafbfd 0.5px 0.5px,#e6e9ef 0.5px 1.0px"), "{thin}");
    }
}
