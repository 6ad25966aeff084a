//! The backend seam (TIMELINE_CONTRACT.md §1): a backend turns a [`Scene`] into pixels inside the
//! canvas host, which keeps the pointer, the hit testing and the focus. [`SvgBackend`]: every item
//! a node, so the `data-testid` contract (§2) is the drawing itself. Scenes of more than 2,000
//! elements go to the Canvas 2D backend (`bulk.rs`), which draws the same items in bulk, with the
//! focused, selected or dragged object in a DOM overlay.

use std::ops::Range;
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
use crate::ui::scene::{ExpiryItem, Items, LaneItem, MarbleGroup, Scene, TimerItem, TvfRowItem, WindowGroup};

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

/// The key lanes' windows, timers and marbles are drawn in tiles, an `<svg>` each: up to
/// `MAX_LANE_RUNS` runs of consecutive lanes, each cut into the columns of the scene's
/// [`TileGrid`]. Chromium paints an `<svg>` again as a whole when anything in it changes (an
/// SVG's shapes are not paint layers; its root is). With everything in one, a rest mid-drag at
/// 2,000 elements painted all ≈ 15,000 nodes again for the few that changed: in the dragged
/// element's lane, or, where the drag moves the watermark, near it in every lane. Measured on
/// static copies of the bench's scene, that second change (two marbles and a window a lane), with
/// the CPU slowed 1.5×: one `<svg>`: Paint 14-26 ms, Layerize 9-14, PrePaint 4-8, Commit 1-6; an
/// `<svg>` per lane: Paint 22-27; per lane and 4 columns: Paint 6.7, Layerize 5; per lane and 8
/// columns (188 `<svg>`s): Paint 4-6, Layerize 5-6, PrePaint 1.5, Commit 1; 16 columns no better.
/// More runs would be paint layers to walk for little (lanes of a few elements): many keys share one.
const MAX_LANE_RUNS: usize = 32;

/// The key lanes' runs: consecutive lanes, at most [`MAX_LANE_RUNS`] runs of equal length (the
/// last shorter).
fn lane_runs(lanes: usize) -> Vec<Range<usize>> {
    let per = lanes.div_ceil(MAX_LANE_RUNS).max(1);
    (0..lanes).step_by(per).map(|a| a..(a + per).min(lanes)).collect()
}

/// The lane whose box holds `y` (lanes are in order of `y`, apart).
fn lane_at(lanes: &[LaneItem], y: f64) -> Option<usize> {
    let i = lanes.partition_point(|l| l.y <= y).checked_sub(1)?;
    (y < lanes[i].y + lanes[i].height).then_some(i)
}

/// A tile: (lane run, column).
type TileKey = (usize, i64);

/// What one tile draws.
#[derive(Default)]
struct TileParts {
    windows: Vec<WindowGroup>,
    marbles: Vec<MarbleGroup>,
    timers: Vec<TimerItem>,
    expiries: Vec<ExpiryItem>,
    tvf: Vec<TvfRowItem>,
}

/// The key lanes' items by tile, in draw order (by run, then column), and those in no lane (drawn
/// on top). Tiles with nothing are left out.
fn tiles(s: &Scene, runs: &[Range<usize>]) -> (Vec<(TileKey, TileParts)>, TileParts) {
    // (No run: the 2-D view, whose items are not the lanes'; they all go on top.)
    let mut run_of = vec![None; s.lanes.len()];
    for (r, run) in runs.iter().enumerate() {
        run_of[run.clone()].fill(Some(r));
    }
    let grid = &s.grid;
    // The columns in use, in order: a tile's place is (run, the column's place among them).
    let mut columns: Vec<i64> = (s.windows.iter().map(|g| g.column))
        .chain(s.marbles.iter().map(|g| g.column))
        .chain(s.timers.iter().map(|t| grid.column(t.x)))
        .chain(s.expiries.iter().map(|e| grid.column(e.x)))
        .chain(s.tvf_rows.iter().map(|r| grid.column(r.x)))
        .collect();
    columns.sort_unstable();
    columns.dedup();
    let n = columns.len();
    let mut parts: Vec<TileParts> = (0..runs.len() * n).map(|_| TileParts::default()).collect();
    let mut top = TileParts::default();
    let slot = |lane: Option<usize>, column: i64| {
        let run = (*run_of.get(lane?)?)?;
        Some(run * n + columns.binary_search(&column).ok()?)
    };
    for g in &s.windows {
        if let Some(t) = slot(Some(g.lane), g.column) {
            parts[t].windows.push(g.clone());
        }
    }
    for g in &s.marbles {
        if let Some(t) = slot(Some(g.lane), g.column) {
            parts[t].marbles.push(g.clone());
        }
    }
    for t in s.timers.iter() {
        match slot(lane_at(&s.lanes, t.y), grid.column(t.x)) {
            Some(k) => parts[k].timers.push(t.clone()),
            None => top.timers.push(t.clone()),
        }
    }
    for e in s.expiries.iter() {
        match slot(lane_at(&s.lanes, e.y), grid.column(e.x)) {
            Some(k) => parts[k].expiries.push(e.clone()),
            None => top.expiries.push(e.clone()),
        }
    }
    for r in s.tvf_rows.iter() {
        match slot(lane_at(&s.lanes, r.y), grid.column(r.x)) {
            Some(k) => parts[k].tvf.push(r.clone()),
            None => top.tvf.push(r.clone()),
        }
    }
    let drawn = parts.into_iter().enumerate().filter(|(_, p)| {
        !(p.windows.is_empty()
            && p.marbles.is_empty()
            && p.timers.is_empty()
            && p.expiries.is_empty()
            && p.tvf.is_empty())
    });
    (drawn.map(|(t, p)| ((t / n.max(1), columns[t % n.max(1)]), p)).collect(), top)
}

/// A tile's part of the scene, in canvas units, and the scale to CSS px.
#[derive(Clone, Copy, PartialEq)]
struct TileArea {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    scale: f64,
}

#[derive(Properties, PartialEq)]
struct TileProps {
    area: TileArea,
    windows: Vec<WindowGroup>,
    marbles: Vec<MarbleGroup>,
    timers: Items<TimerItem>,
    expiries: Rc<[ExpiryItem]>,
    tvf: Rc<[TvfRowItem]>,
    elements: usize,
}

/// One tile's `<svg>`: a component, so that a scene whose tile is the same (most of them, at a
/// rest mid-drag) makes none of its nodes again.
#[component]
fn Tile(p: &TileProps) -> Html {
    let TileArea { left, top, width, height, scale } = p.area;
    html! {
        <svg class="layer lanes" role="none" width={px(width * scale)} height={px(height * scale)}
             viewBox={format!("{} {} {} {}", px(left), px(top), px(width), px(height))}
             style={format!("left:{}px;top:{}px", px(left * scale), px(top * scale))}>
            { windows(&p.windows) }
            if !p.timers.is_empty() || !p.expiries.is_empty() {
                <TimerLayer timers={p.timers.clone()} expiries={p.expiries.clone()} />
            }
            { tvf_rows(&p.tvf) }
            { marbles(&p.marbles, p.elements) }
        </svg>
    }
}

/// The scene's drawing, in draw order: the axis, lanes and side output in one `<svg>`, the key
/// lanes' windows, timers and marbles in tiles ([`MAX_LANE_RUNS`]), and what crosses the lanes
/// (the watermark, effects, compare marks) in one on top. All share the scene's coordinates (a
/// tile's `viewBox` is its part of the scene's), so the exported SVG puts their children together
/// again (`export.rs`). The memoised groups inside (marbles, a lane's
/// windows, timer glyphs) redraw only what changed.
fn svg(s: &Scene) -> Html {
    let class = classes!("canvas", s.animate.then_some("animate"), s.dragging.then_some("dragging"));
    let (w, h) = (s.width * s.scale, s.height * s.scale);
    let style = format!("{};width:{}px;height:{}px", scene_style(s), px(w), px(h));
    let (width, height) = (AttrValue::from(px(w)), AttrValue::from(px(h)));
    let view_box = AttrValue::from(format!("0 0 {} {}", px(s.width), px(s.height)));
    let lanes_view = s.two_d.is_none();
    let runs = if lanes_view { lane_runs(s.lanes.len()) } else { Vec::new() };
    let (tiles, top) = tiles(s, &runs);
    let layers = tiles.into_iter().map(|((run, column), parts)| {
        let run = &runs[run];
        let (first, last) = (&s.lanes[run.start], &s.lanes[run.end - 1]);
        let (left, width) = s.grid.area(column, s.width);
        let area = TileArea { left, top: first.y, width, height: last.y + last.height - first.y, scale: s.scale };
        html! {
            <Tile key={format!("{}:{column}", run.start)} {area} windows={parts.windows} marbles={parts.marbles} timers={Rc::new(parts.timers)}
                  expiries={Rc::<[ExpiryItem]>::from(parts.expiries)} tvf={Rc::<[TvfRowItem]>::from(parts.tvf)} elements={s.element_count} />
        }
    });
    html! {
        <>
        <div {class} {style} data-testid="canvas" role="application"
             aria-label="Event-time canvas: drag elements and the watermark; Tab enters, ] [ and the arrows move, ? lists the keys">
            <svg class="layer" role="none" width={width.clone()} height={height.clone()} viewBox={view_box.clone()}>
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
                }
            </svg>
            { for layers }
            <svg class="layer" role="none" width={width.clone()} height={height.clone()} viewBox={view_box.clone()}>
                if lanes_view {
                    if !top.timers.is_empty() || !top.expiries.is_empty() {
                        <TimerLayer timers={Rc::new(top.timers)} expiries={Rc::<[ExpiryItem]>::from(top.expiries)} />
                    }
                    { tvf_rows(&top.tvf) }
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
        </div>
        if s.lifted.is_some() || s.drag_label.is_some() {
            // What follows the pointer in a drag: the drag label and the dragged element while its
            // run is out (`Scene::lifted`), in an `<svg>` of its own over the scene, so that a
            // pointer move repaints this and not the whole scene (about 8 ms a frame at 2,000
            // elements), and so that neither the label coming at the press nor the element lifted
            // at the first move changes what the scene's `<svg>`s draw. A drawing only: the dragged
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

    /// A 2,000-element scene over `keys` keys, of the SVG backend.
    fn scene_of(keys: usize) -> Rc<Scene> {
        let items: Vec<String> = (0..2000)
            .map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % keys, i * 1000 + (i * 7919) % 20000))
            .collect();
        let json = format!(
            r#"{{"assigner": {{"kind": "tumbling", "size": 30000}}, "allowed_lateness": 5000, "side_output": true,
                "watermarks": {{"kind": "bounded_out_of_orderness", "bound": 5000}}, "input": [{}]}}"#,
            items.join(",")
        );
        let scenario = crate::engine::Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}"));
        let mut st = crate::ui::state::AppState::from_hash("", 1400.0);
        st.dispatch(crate::ui::action::Action::Load { scenario: Box::new(scenario), step: None, banner: None });
        assert_eq!(st.scene.backend, crate::ui::scene::Backend::Svg);
        st.scene.clone()
    }

    /// The tiles hold every window, marble, timer and TVF row of the scene once, each in the tile
    /// of its lane's run and its column; runs are consecutive lanes, at most `MAX_LANE_RUNS`.
    #[test]
    fn the_tiles_draw_every_item_once_where_it_is() {
        for keys in [1, 20, 300] {
            let s = scene_of(keys);
            let runs = lane_runs(s.lanes.len());
            assert!(
                runs.len() <= MAX_LANE_RUNS && runs.len() >= s.lanes.len().min(MAX_LANE_RUNS * 9 / 10),
                "{keys} keys"
            );
            assert!(runs.iter().all(|r| r.len() == runs[0].len() || r.end == s.lanes.len()), "runs of equal length");
            assert_eq!(runs.first().map(|r| r.start), Some(0));
            assert!(
                runs.windows(2).all(|w| w[0].end == w[1].start) && runs.last().map(|r| r.end) == Some(s.lanes.len())
            );
            let (tiles, top) = tiles(&s, &runs);
            let run_of = |lane: usize| runs.iter().position(|r| r.contains(&lane));
            let (mut marbles, mut windows, mut timers) = (0, 0, 0);
            for ((run, column), parts) in &tiles {
                for g in &parts.marbles {
                    assert_eq!((run_of(g.lane), g.column), (Some(*run), *column));
                    marbles += g.items.len();
                }
                for g in &parts.windows {
                    assert_eq!((run_of(g.lane), g.column), (Some(*run), *column));
                    windows += g.items.len();
                }
                for t in &parts.timers {
                    assert_eq!((lane_at(&s.lanes, t.y).and_then(run_of), s.grid.column(t.x)), (Some(*run), *column));
                }
                timers += parts.timers.len();
            }
            assert_eq!(marbles, 2000, "{keys} keys");
            assert_eq!(windows, s.windows.iter().map(|g| g.items.len()).sum::<usize>());
            assert!(windows > 0 && !s.timers.is_empty());
            assert_eq!(timers + top.timers.len(), s.timers.len());
            assert!(top.timers.is_empty(), "every timer is in a lane");
            // 6-13 columns shown: a tile per run and column that has anything.
            assert!(tiles.len() >= runs.len() * 6 && tiles.len() <= runs.len() * 15, "{} tiles", tiles.len());
        }
    }

    /// A y between lanes or outside them is in no lane; inside one, in it.
    #[test]
    fn lane_at_finds_the_lane_of_a_y() {
        let lanes = [lane(40.0, 100.0), lane(150.0, 50.0)];
        assert_eq!(lane_at(&lanes, 39.9), None);
        assert_eq!(lane_at(&lanes, 40.0), Some(0));
        assert_eq!(lane_at(&lanes, 139.9), Some(0));
        assert_eq!(lane_at(&lanes, 145.0), None);
        assert_eq!(lane_at(&lanes, 199.0), Some(1));
        assert_eq!(lane_at(&lanes, 200.0), None);
        assert_eq!(lane_at(&[], 10.0), None);
    }
}
