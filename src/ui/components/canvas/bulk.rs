//! The Canvas 2D backend (TIMELINE_CONTRACT.md §1) for scenes of more than 2,000 elements: the
//! scene's items drawn in bulk into one `<canvas>`, and a DOM overlay (an SVG of the same size on
//! top) for what a person or a test interacts with: the axis, the watermark and its handle, the
//! drag label, and the objects of [`Scene::overlay`] (the Tab entry, the selected object, the
//! dragged element) drawn by the SVG backend's own components, with their `data-testid`s.
//!
//! Level of detail: only what is in the visible time range is drawn; where a lane has more
//! marbles than fit side by side, each pixel column of it is one density bar (its height grows
//! with the number of elements in that column, its colour is the column's most common outcome,
//! dotted when they have not arrived), and the outcomes with a shape of their own (a late firing,
//! the side output, dropped) are marked with it wherever they occur, however few.
//! Every kind of scene item goes through [`draw`]'s one destructuring of [`Scene`], so a new kind
//! of item fails to compile here rather than vanish from large scenes.

use std::ops::Range;
use std::rc::{Rc, Weak};

use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};
use yew::prelude::*;

use super::axis::axis;
use super::lanes::side_marbles;
use super::marbles::marbles;
use super::marks::{marks, tvf_rows};
use super::partitions::partitions;
use super::px::px;
use super::raster::{Boxes, Rgba, rgba};
use super::timers::timers;
use super::watermark::{drag_label, watermark};
use super::windows::{state_shape, windows};
use crate::engine::view::{ElementOutcome, TimerStatus};
use crate::ui::action::ObjectId;
use crate::ui::hooks::in_frame;
use crate::ui::scene::glyph::Shape;
use crate::ui::scene::layout::dims;
use crate::ui::scene::room;
use crate::ui::scene::{
    Items, LaneItem, MarbleGroup, MarbleItem, Scene, SideLane, SideMarbleItem, TimerItem, TwoD, WindowGroup,
    WindowItem, find_marble,
};

/// The colours of `assets/style.css` (a canvas cannot read CSS variables per item cheaply).
mod ink {
    pub const LANE: [&str; 2] = ["#fafbfd", "#f5f7fb"];
    pub const LANE_EDGE: &str = "#e6e9ef";
    pub const LABEL: &str = "#5b6577";
    pub const SIDE: &str = "#fcf1f6";
    pub const SIDE_OFF: &str = "#f1f1f1";
    pub const SIDE_MARBLE: &str = "#c0266d";
    pub const TIMER: &str = "#263041";
}

/// A window band's fill and stroke by state (`state-*` in the stylesheet).
fn band_ink(state: &str) -> (&'static str, &'static str) {
    match state {
        "open" => ("#dce8fb", "#3d6fc0"),
        "fired" => ("#cdeed9", "#1f8a4c"),
        "late-fired" => ("#ffe6bd", "#c77700"),
        "purged" => ("#eceef1", "#8a8f99"),
        "merged" => ("rgba(0,0,0,0)", "#9577d2"),
        _ => ("#f6f6f7", "#c9cdd4"),
    }
}

/// A marble's fill by outcome (`outcome-*`).
fn outcome_ink(o: Option<ElementOutcome>) -> &'static str {
    match o {
        None => "#8d96a7",
        Some(ElementOutcome::Pending) => "#3d6fc0",
        Some(ElementOutcome::OnTime) => "#1f8a4c",
        Some(ElementOutcome::InLateFiring) => "#c77700",
        Some(ElementOutcome::SideOutput) => "#e6a7c3",
        Some(ElementOutcome::Dropped { .. }) => "#555b66",
        Some(ElementOutcome::Discarded) => "#a6abb4",
    }
}

/// The scene to draw, held weakly: the state owns it, and a scene replaced in the state goes at
/// once, not when this component is next rendered (at 100,000 elements the old scene would still
/// be alive while an install builds the new one). Compared by identity (a `Weak` keeps its
/// allocation from being reused).
#[derive(Properties, Clone)]
pub struct CanvasBackendProps {
    pub scene: Weak<Scene>,
}

impl PartialEq for CanvasBackendProps {
    fn eq(&self, other: &Self) -> bool {
        Weak::ptr_eq(&self.scene, &other.scene)
    }
}

/// Rows of CSS px drawn above and below the scrolled-to part (a scroll within them draws nothing new).
const MARGIN_PX: f64 = 1500.0;

/// Rows of CSS px beyond the view painted in the frame with it (the rest of the band follows).
const VIEW_SLACK_PX: f64 = 40.0;

/// A paint waiting: the frame's (the rows in view), then the rest of the band's. Held to be
/// dropped (a handle's drop cancels it).
#[derive(Default)]
struct Pending {
    _frame: Option<gloo::render::AnimationFrame>,
    rest: Option<gloo::timers::callback::Timeout>,
}

/// The bulk drawing and its overlay. The canvas covers the part of the scene the canvas box
/// shows (plus a margin), not the whole scene: with thousands of keys the lanes are virtualised,
/// only those in view are drawn, and a scroll redraws.
#[component]
pub fn CanvasBackend(p: &CanvasBackendProps) -> Html {
    let node = use_node_ref();
    // The canvas box's scroll position and height (CSS px).
    let view = use_state(|| (0.0f64, 1200.0f64));
    {
        let (node, view) = (node.clone(), view.clone());
        use_effect_with((), move |()| {
            let scroller = node.cast::<HtmlCanvasElement>().and_then(|c| c.closest(".canvas-box").ok().flatten());
            let listener = scroller.map(|el| {
                let read =
                    move |el: &web_sys::Element| (f64::from(el.scroll_top()), f64::from(el.client_height()).max(200.0));
                view.set(read(&el));
                let target = el.clone();
                gloo::events::EventListener::new(&target, "scroll", move |_| view.set(read(&el)))
            });
            move || drop(listener)
        });
    }
    // Rendered with the state's scene of the parent's render, or for a scroll since: alive (an
    // empty scene otherwise; no early return before the hooks below).
    let scene = p.scene.upgrade().unwrap_or_default();
    let s = &scene;
    let (w, h) = (s.width * s.scale, s.height * s.scale);
    let (scroll, shown) = *view;
    // The drawn band: from a margin above the view to a margin below it, inside the scene.
    let top = (scroll - MARGIN_PX).clamp(0.0, (h - 1.0).max(0.0)).floor();
    let band = (shown + 2.0 * MARGIN_PX).min(h - top).max(1.0).ceil();
    // The paint waiting for the next frame, and the rest of it after (dropped: cancelled).
    let pending = use_mut_ref(Pending::default);
    {
        // Redrawn for another full build (a drag move's scene keeps its build's generation: the
        // dragged element moves in the overlay) or another band. Not in the render's task but in
        // the frame that shows the render (a render inside a frame callback is in that frame
        // already: painted now), and there only the rows in view (the rest, the band's margins,
        // in a task after it): at 10,000 elements the whole band's paint was 17-27 ms, which
        // with a run's install in one task made a long task, and in the frame with the browser's
        // work one too. `data-painted` says which build the whole bitmap shows (gone meanwhile).
        let (node, scene, pending) = (node.clone(), scene.clone(), pending.clone());
        use_effect_with((s.generation, top.to_bits(), band.to_bits()), move |_| {
            // (The last paint's pending parts were dropped by its teardown, below.)
            let later = Rc::downgrade(&pending);
            let frame = node.cast::<HtmlCanvasElement>().and_then(|canvas| {
                let _ = canvas.remove_attribute("data-painted");
                let go = move || paint_in_parts(canvas, scene, top, band, (scroll, shown), later);
                if in_frame() {
                    go();
                    None
                } else {
                    Some(gloo::render::request_animation_frame(move |_| go()))
                }
            });
            pending.borrow_mut()._frame = frame;
            move || *pending.borrow_mut() = Pending::default()
        });
    }
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).clamp(1.0, 3.0);
    let (cw, ch) = bitmap_size(w, band, dpr);
    let o = overlay(s);
    let class = classes!("canvas", "overlay", s.dragging.then_some("dragging"));
    html! {
        <div class="bulk" style={format!("width: {}px; height: {}px", px(w), px(h))}>
            <canvas ref={node} class="bulk-canvas" data-testid="bulk-canvas" aria-hidden="true" data-top={px(top)}
                    data-generation={s.generation.to_string()}
                    width={px(cw)} height={px(ch)} style={format!("top: {}px; width: {}px; height: {}px", px(top), px(w), px(band))} />
            <svg {class} data-testid="canvas" width={px(w)} height={px(h)}
                 viewBox={format!("0 0 {} {}", px(s.width), px(s.height))} role="application"
                 aria-label={format!("Event-time canvas of {} elements and {} windows, drawn in bulk: Tab enters, ] [ and the arrows move, ? lists the keys", s.element_count, s.window_count)}>
                { axis(&s.axis, s.width, s.height) }
                { partitions(&s.partitions, s.width) }
                { windows(&o.windows) }
                { timers(&o.timers, &s.expiries) }
                { tvf_rows(&s.tvf_rows) }
                { side_marbles(&o.side) }
                { marbles(&o.marbles, o.marbles.iter().map(|g| g.items.len()).sum()) }
                { marks(&s.marks) }
                { watermark(&s.watermark) }
                if let Some(d) = &s.drag_label {
                    { drag_label(d) }
                }
            </svg>
        </div>
    }
}

/// The largest side of a canvas bitmap: browsers refuse canvases much larger than 16k device
/// pixels a side.
const MAX_BITMAP_SIDE: f64 = 16_384.0;

/// The bitmap (device px) of a canvas `w` × `band` CSS px at `dpr` device px each: one ratio both
/// ways, lowered where a side would pass [`MAX_BITMAP_SIDE`] (a taller band at a high device
/// pixel ratio is drawn less sharp; capping the one side alone squashed it, for `paint` draws at
/// the width's ratio).
fn bitmap_size(w: f64, band: f64, dpr: f64) -> (f64, f64) {
    let ratio = dpr.min(MAX_BITMAP_SIDE / w.max(1.0)).min(MAX_BITMAP_SIDE / band.max(1.0));
    ((w * ratio).round(), (band * ratio).round())
}

/// The overlay's share of the scene: the objects of `scene.overlay`.
struct Overlay {
    windows: Vec<WindowGroup>,
    timers: Items<TimerItem>,
    side: SideLane,
    marbles: Vec<MarbleGroup>,
}

fn overlay(s: &Scene) -> Overlay {
    // A handful of objects out of up to 100,000 items, on every render (a drag move's too): each
    // kind of item is looked through only when the overlay holds one of its kind, and an element's
    // marble is found by halves (`scene::find_marble`).
    let on = |id| s.overlay.contains(id);
    let holds = |kind: fn(&ObjectId) -> bool| s.overlay.iter().any(kind);
    let windows = if holds(|o| matches!(o, ObjectId::Window { .. })) {
        s.windows
            .iter()
            .filter_map(|g| {
                let items: Vec<WindowItem> = g.items.iter().filter(|w| on(&w.id)).cloned().collect();
                (!items.is_empty()).then(|| WindowGroup { lane: g.lane, column: g.column, items: Rc::new(items) })
            })
            .collect()
    } else {
        Vec::new()
    };
    let timers: Vec<TimerItem> = if holds(|o| matches!(o, ObjectId::Timer { .. })) {
        s.timers.iter().filter(|t| on(&t.id)).cloned().collect()
    } else {
        Vec::new()
    };
    let side_groups = if holds(|o| matches!(o, ObjectId::Late(_))) {
        s.side
            .groups
            .iter()
            .filter_map(|(chunk, g)| {
                let items: Vec<SideMarbleItem> = g.iter().filter(|m| on(&m.id)).cloned().collect();
                (!items.is_empty()).then(|| (*chunk, Rc::from(items)))
            })
            .collect()
    } else {
        Vec::new()
    };
    // The overlay's elements in the order their marbles are drawn (group, then place in it).
    let mut places: Vec<(usize, usize)> = s
        .overlay
        .iter()
        .filter_map(|o| match o {
            ObjectId::Element(i) => find_marble(&s.marbles, *i),
            _ => None,
        })
        .collect();
    places.sort_unstable();
    places.dedup();
    let dots = s.two_d.iter().flat_map(|t| t.dots.iter()).filter(|m| on(&m.id));
    let chosen: Vec<MarbleItem> = places.iter().map(|(g, k)| &s.marbles[*g].items[*k]).chain(dots).cloned().collect();
    Overlay {
        windows,
        timers: Rc::new(timers),
        side: SideLane { y: s.side.y, enabled: s.side.enabled, groups: side_groups },
        // One group of marbles from any lane: not in a scene's order, so not for `find_marble`.
        marbles: vec![MarbleGroup { key: Rc::from("overlay"), lane: 0, column: 0, items: Rc::new(chosen) }],
    }
}

/// Paints the band (`top`, `band`: CSS px) of `scene`: the rows in view now, the rest in a task
/// after this one (held in `pending`). The view is read now (a scroll since the render moved it;
/// `view` where it cannot be read).
fn paint_in_parts(
    canvas: HtmlCanvasElement,
    scene: Rc<Scene>,
    top: f64,
    band: f64,
    view: (f64, f64),
    pending: Weak<std::cell::RefCell<Pending>>,
) {
    let (ch, units) = (canvas.height() as usize, top / scene.scale.max(0.01));
    let box_el = canvas.closest(".canvas-box").ok().flatten();
    let (scroll, shown) = box_el.map_or(view, |b| (f64::from(b.scroll_top()), f64::from(b.client_height()).max(200.0)));
    let dpr = ch as f64 / band;
    let row = |css: f64| ((css - top) * dpr).clamp(0.0, ch as f64) as usize;
    let first = row(scroll - VIEW_SLACK_PX)..row(scroll + shown + VIEW_SLACK_PX);
    paint(&canvas, &scene, units, first.clone());
    let painted = |canvas: &HtmlCanvasElement, scene: &Scene| {
        let _ = canvas.set_attribute("data-painted", &scene.generation.to_string());
    };
    if first == (0..ch) {
        return painted(&canvas, &scene);
    }
    if let Some(pending) = pending.upgrade() {
        pending.borrow_mut().rest = Some(gloo::timers::callback::Timeout::new(0, move || {
            paint(&canvas, &scene, units, 0..first.start);
            paint(&canvas, &scene, units, first.end..ch);
            painted(&canvas, &scene);
        }));
    }
}

/// Paints the device rows `span` of the canvas, whose row 0 is the scene's height `top` (scene
/// units): only they are cleared, and all that is drawn is clipped to them.
fn paint(canvas: &HtmlCanvasElement, s: &Scene, top: f64, span: Range<usize>) {
    let Some(ctx) = canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let k = f64::from(canvas.width()) / s.width.max(1.0);
    let (cw, ch) = (canvas.width() as usize, canvas.height() as usize);
    let span = span.start.min(ch)..span.end.min(ch);
    if span.is_empty() {
        return;
    }
    let (y, n) = (span.start as f64, span.len() as f64);
    let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
    ctx.clear_rect(0.0, y, cw as f64, n);
    ctx.save();
    ctx.begin_path();
    ctx.rect(0.0, y, cw as f64, n);
    ctx.clip();
    let rows = (top + y / k, top + (y + n) / k);
    // The boxes go first (`putImageData` replaces what is under it, clipped or not: the strips
    // are of `span`'s rows alone), in strips of about 2 MB.
    let put = |boxes: &Boxes| {
        boxes.paint(cw, span.clone(), (STRIP_BYTES / (cw * 4).max(1)).max(16), |strip, y, n| {
            if let Ok(image) = ImageData::new_with_u8_clamped_array_and_sh(Clamped(strip), cw as u32, n as u32) {
                let _ = ctx.put_image_data(&image, 0.0, y as f64);
            }
        });
        let _ = ctx.set_transform(k, 0.0, 0.0, k, 0.0, -k * top);
    };
    draw(&ctx, s, rows, Boxes::new(k, top), put);
    ctx.restore();
}

/// The bytes of bitmap painted at a time (`raster::Boxes::paint`).
const STRIP_BYTES: usize = 2 << 20;

/// Every kind of scene item, in draw order, of those between the heights `rows` (scene units):
/// the rectangles into `boxes`, painted by `put`, then the rest through `ctx` on top. The
/// destructuring names every field of [`Scene`]: a new kind of item does not compile until it is
/// drawn here (or said to be the overlay's).
fn draw(ctx: &CanvasRenderingContext2d, s: &Scene, rows: (f64, f64), mut boxes: Boxes, put: impl FnOnce(&Boxes)) {
    let Scene {
        backend: _,
        generation: _,
        width,
        height: _,
        scale: _,
        // The overlay draws these: they are few, and carry text (the partitions' tracks, at most 64,
        // and the process functions' TTL expiries are the test contract's nodes too).
        axis: _,
        partitions: _,
        expiries: _,
        // The window TVF's rows (their `tvf-row` nodes are the test contract; not in bulk yet) and
        // compare mode's difference marks.
        tvf_rows: _,
        marks: _,
        watermark: _,
        drag_label: _,
        hint: _,
        lanes,
        side,
        windows,
        timers,
        marbles,
        // The SVG backend's tiles.
        grid: _,
        // The SVG backend's alone: this backend's overlay carries the dragged element.
        lifted: _,
        // Animations are for small scenes: large ones step without them.
        flights: _,
        two_d,
        animate: _,
        anim_seq: _,
        fx_ms: _,
        dragging: _,
        element_count: _,
        window_count: _,
        entry: _,
        overlay: _,
    } = s;
    let width = *width;
    if let Some(t) = two_d {
        let (first, shown) = lanes_in(lanes, rows);
        lane_boxes(&mut boxes, shown, first, width);
        put(&boxes);
        lane_labels(ctx, shown);
        draw_two_d(ctx, t, width, &|y| overlaps(rows, y, 0.0));
        return;
    }
    let band = Band::of(lanes, side, windows, timers, marbles, width, rows);
    lane_boxes(&mut boxes, band.lanes, band.first, width);
    if band.side {
        side_boxes(&mut boxes, side, width);
    }
    window_boxes(&mut boxes, &band.windows, width);
    for (lane, items) in &band.dense {
        let marks = density(&mut boxes, items, lane.marble_y, width);
        mark_boxes(&mut boxes, &marks);
    }
    put(&boxes);
    lane_labels(ctx, band.lanes);
    if band.side {
        side_title(ctx, side);
    }
    window_counts(ctx, &band.windows);
    draw_timers(ctx, &band.timers);
    draw_discs(ctx, &band.discs);
}

/// Units a paint looks beyond its rows: text and glyphs reach beyond their item's `y`.
const REACH: f64 = 40.0;

/// Whether an item from height `y`, `h` high, reaches into the heights `rows` (scene units), with
/// [`REACH`] to spare.
fn overlaps(rows: (f64, f64), y: f64, h: f64) -> bool {
    y + h >= rows.0 - REACH && y <= rows.1 + REACH
}

/// The lanes that reach into the heights `rows` (lanes are in y order), and the first one's number.
fn lanes_in(lanes: &[LaneItem], rows: (f64, f64)) -> (usize, &[LaneItem]) {
    let from = lanes.partition_point(|l| l.y + l.height < rows.0);
    let to = lanes.partition_point(|l| l.y <= rows.1);
    (from, lanes.get(from..to.max(from)).unwrap_or(&[]))
}

/// What a paint of the heights `rows` draws: the scene's items in those rows and in the visible
/// time range (the level of detail's extent), each kind looked through once.
struct Band<'a> {
    /// The lanes in the rows, the first of them lane number `first`.
    lanes: &'a [LaneItem],
    first: usize,
    /// Whether the side output's lane is in the rows.
    side: bool,
    windows: Vec<&'a WindowItem>,
    /// The timers by status, in [`TIMER_INKS`]' order.
    timers: [Vec<&'a TimerItem>; 3],
    /// The lanes' visible marbles: lanes with more than fit side by side (drawn as density), and
    /// the others (drawn as discs).
    dense: Vec<LaneMarbles<'a>>,
    discs: Vec<LaneMarbles<'a>>,
}

impl<'a> Band<'a> {
    fn of(
        lanes: &'a [LaneItem],
        side: &SideLane,
        windows: &'a [WindowGroup],
        timers: &'a [TimerItem],
        marbles: &'a [MarbleGroup],
        width: f64,
        rows: (f64, f64),
    ) -> Band<'a> {
        let (first, shown) = lanes_in(lanes, rows);
        // The groups of the lanes in reach (with the slack of `overlaps`: an item is inside its
        // lane) are looked through, not every item: a band of a few lanes, the rest of a paint
        // or a scroll among many keys, is cheap.
        let (near, near_lanes) = lanes_in(lanes, (rows.0 - REACH, rows.1 + REACH));
        let near = near..near + near_lanes.len();
        let windows = windows
            .iter()
            .filter(|g| near.contains(&g.lane))
            .flat_map(|g| g.items.iter())
            .filter(|w| {
                overlaps(rows, w.y, w.height) && visible(w.x0, w.x0 + w.width + w.hatch_px.unwrap_or(0.0), width)
            })
            .collect();
        // One pass over the timers (there are 100,000 and more at 100,000 elements), not one a status.
        let mut by_status: [Vec<&TimerItem>; 3] = Default::default();
        for t in timers.iter().filter(|t| overlaps(rows, t.y, 0.0) && visible(t.x, t.x, width)) {
            // (`TIMER_INKS`' order.)
            let slot = match t.status {
                TimerStatus::Registered => 0,
                TimerStatus::Fired => 1,
                TimerStatus::Deleted => 2,
            };
            by_status[slot].push(t);
        }
        let (dense, discs) = marble_lanes(shown, first, marbles, width);
        Band {
            lanes: shown,
            first,
            side: overlaps(rows, side.y, dims::SIDE_LANE),
            windows,
            timers: by_status,
            dense,
            discs,
        }
    }
}

fn visible(x0: f64, x1: f64, width: f64) -> bool {
    x1 >= -10.0 && x0 <= width + 10.0
}

/// Pixel columns of a canvas `width` wide (a column per unit, and a spare one at each edge).
fn column_count(width: f64) -> usize {
    width.max(0.0) as usize + 2
}

/// The pixel column of `x` (off-canvas x's get no column).
fn column(x: f64) -> usize {
    if x < 0.0 { usize::MAX } else { x.round() as usize }
}

/// The lanes `lanes`, the first of them lane number `first` (every other one is shaded).
fn lane_boxes(boxes: &mut Boxes, lanes: &[LaneItem], first: usize, width: f64) {
    let edge = rgba(ink::LANE_EDGE);
    for (i, l) in lanes.iter().enumerate().map(|(i, l)| (i + first, l)) {
        boxes.fill(0.0, l.y, width, l.height, rgba(ink::LANE[i % 2]));
        boxes.outline(0.0, l.y, width, l.height, edge);
    }
}

/// The lanes' keys, over their bands.
fn lane_labels(ctx: &CanvasRenderingContext2d, lanes: &[LaneItem]) {
    ctx.set_font("600 11px system-ui, sans-serif");
    ctx.set_fill_style_str(ink::LABEL);
    for l in lanes {
        let _ = ctx.fill_text(&format!("key {}", l.key), 6.0, l.y + 12.0);
    }
}

fn side_title(ctx: &CanvasRenderingContext2d, side: &SideLane) {
    ctx.set_fill_style_str(ink::LABEL);
    let title = if side.enabled {
        "late side output (sideOutputLateData)"
    } else {
        "no side output: late elements are dropped"
    };
    let _ = ctx.fill_text(title, 6.0, side.y + 12.0);
}

fn side_boxes(boxes: &mut Boxes, side: &SideLane, width: f64) {
    boxes.fill(0.0, side.y, width, dims::SIDE_LANE, rgba(if side.enabled { ink::SIDE } else { ink::SIDE_OFF }));
    // One tick per pixel column that holds a late element, its height by how many.
    let mut columns = vec![0u32; column_count(width)];
    for m in side.groups.iter().flat_map(|(_, g)| g.iter()) {
        if let Some(c) = columns.get_mut(column(m.x)) {
            *c += 1;
        }
    }
    let (ink, y) = (rgba(ink::SIDE_MARBLE), side.y + 26.0);
    for (x, n) in columns.into_iter().enumerate().filter(|(_, n)| *n > 0) {
        let h = (4.0 + 3.0 * f64::from(n)).min(dims::SIDE_LANE - 16.0);
        boxes.fill(x as f64 - 1.0, y - h / 2.0, 2.0, h, ink);
    }
}

/// A band's outline dashes by state, `(on, off)`, as the stylesheet's `stroke-dasharray`s:
/// purged, cleaned up and merged away are dashed (a band's state by more than its colour).
fn band_dash(state: &str) -> Option<(f64, f64)> {
    match state {
        "purged" => Some((5.0, 3.0)),
        "merged" => Some((6.0, 4.0)),
        "" => Some((3.0, 3.0)),
        _ => None,
    }
}

/// A band's state mark (the SVG backend's, `windows::state_shape`) and its ink (`.state-mark`'s:
/// `--fired-ink`, `--late-ink`).
fn band_mark(state: &str) -> Option<(Shape, Rgba)> {
    let ink = if state == "late-fired" { [0x9e, 0x5a, 0x00, 255] } else { [0x00, 0x70, 0x4f, 255] };
    state_shape(state).map(|shape| (shape, ink))
}

/// The window states in drawing order (`band_ink`'s; the last, "", is every other: cleaned up).
const BAND_STATES: [&str; 6] = ["open", "fired", "late-fired", "purged", "merged", ""];

/// The bands by state (`BAND_STATES`' order), each filled and outlined, then the lateness hatches.
fn window_boxes(boxes: &mut Boxes, shown: &[&WindowItem], width: f64) {
    // Dashes only where the canvas shows them: zoomed in, a band reaches a million units beyond
    // the canvas, a box per dash (`Boxes::dashed_outline`).
    let seen = (-10.0, width + 10.0);
    let mut marks = Vec::new();
    let slot = |state: &str| BAND_STATES.iter().position(|s| *s == state).unwrap_or(BAND_STATES.len() - 1);
    for (i, state) in BAND_STATES.iter().enumerate() {
        let of_state: Vec<&&WindowItem> = shown.iter().filter(|w| slot(w.state) == i).collect();
        if of_state.is_empty() {
            continue;
        }
        let (fill, stroke) = band_ink(state);
        let (fill, stroke) = (rgba(fill), rgba(stroke));
        for (x, y, w, h) in merged_runs(of_state.iter().map(|w| (w.x0, w.y, w.width, w.height))) {
            boxes.fill(x, y, w, h, fill);
        }
        // A window 2 px wide (the least a window is drawn) is all outline: a run of them in a row
        // is one block of the outline's ink.
        let thin = of_state.iter().filter(|w| w.width <= 2.0);
        for (x, y, w, h) in merged_runs(thin.map(|w| (w.x0, w.y, 2.0, w.height))) {
            boxes.fill(x, y, w, h, stroke);
        }
        for w in of_state.iter().filter(|w| w.width > 2.0) {
            match band_dash(state) {
                Some(dash) => boxes.dashed_outline((w.x0, w.y, w.width, w.height), stroke, dash, seen),
                None => boxes.outline(w.x0, w.y, w.width, w.height, stroke),
            }
        }
        // A fired band's ● and a late-fired one's ◆ at its right end, where it is wide enough
        // (`windows::WindowBand`'s `.state-mark`: white-edged, in the state's dark ink), drawn
        // over everything else of the bands, below.
        if let Some((shape, ink)) = band_mark(state) {
            marks.extend(
                of_state.iter().filter(|w| w.width > 16.0).map(|w| (shape, w.x0 + w.width - 8.0, w.y + 6.0, ink)),
            );
        }
    }
    // Joined per row first, in order along it: overlapping hatches are one translucent area, not
    // darker where they overlap, however many rows a lane has (more than `merged_runs` keeps open
    // when taken in turn). A sort here, unlike there: without it the picture is wrong, not slower
    // (the shared one, `teach::sort`: a sort of its own cost the main module 2.2 KB).
    let mut hatches: Vec<(f64, f64, f64, f64)> = shown
        .iter()
        .filter_map(|w| w.hatch_px.filter(|hw| *hw >= 1.0).map(|hw| (w.x0 + w.width + 1.0, w.y, hw, w.height)))
        .collect();
    crate::teach::sort::stable_by(&mut hatches, |a, b| {
        a.1.total_cmp(&b.1).then(a.3.total_cmp(&b.3)).then(a.0.total_cmp(&b.0))
    });
    let hatch = rgba("rgba(213, 154, 46, 0.35)");
    for (x, y, w, h) in merged_runs(hatches.into_iter()) {
        boxes.fill(x, y, w, h, hatch);
    }
    for (shape, x, y, ink) in marks {
        boxes.shape(shape, x, y, 4.0, [255; 4]);
        boxes.shape(shape, x, y, 3.5, ink);
    }
}

/// The bands' counts, where they fit.
fn window_counts(ctx: &CanvasRenderingContext2d, shown: &[&WindowItem]) {
    ctx.set_fill_style_str("#1f2633");
    for w in shown.iter().filter(|w| w.width > 24.0 && !w.merged) {
        let _ = ctx.fill_text(&w.count.to_string(), w.x0 + 4.0, w.y + w.height - 7.0);
    }
}

/// Rectangles `(x, y, width, height)` with each run of ones in the same row (same y and height)
/// that touch or overlap joined into one: the fills of a tumbling stream's windows (in start order
/// per lane) at a zoom where each is a few pixels wide become a rectangle per run of same-state
/// windows, and the density bars (in column order) one per run of equal bars, not one each (a
/// `fillRect` costs the canvas about the same whatever its size). A rectangle joins the latest run
/// of its row among the last [`OPEN_ROWS`] runs, so that rows taken in turn join too: a sliding
/// stream's windows, in start order, step through the lane's rows (3 for 60 s / 20 s), and joined
/// only with the one before, 100,000 elements were 217,000 `fillRect`s (≈ 180 ms of each redraw).
/// The rectangles are filled in one colour, so the union is the same in any order. No sort: a
/// sort's code would cost the main `.wasm` more than the few rectangles out of order save.
fn merged_runs(rects: impl Iterator<Item = (f64, f64, f64, f64)>) -> Vec<(f64, f64, f64, f64)> {
    let mut out: Vec<(f64, f64, f64, f64)> = Vec::new();
    for r in rects {
        let open = out.len().saturating_sub(OPEN_ROWS);
        let run = out[open..].iter_mut().rev().find(|run| run.1 == r.1 && run.3 == r.3);
        match run {
            Some(run) if r.0 >= run.0 && r.0 <= run.0 + run.2 => {
                run.2 = run.2.max(r.0 + r.2 - run.0);
            }
            _ => out.push(r),
        }
    }
    out
}

/// The runs [`merged_runs`] keeps open: at least as many as a lane has rows of windows, but for
/// slides under an eighth of the size.
const OPEN_ROWS: usize = 8;

/// Subpaths in one canvas path before it is painted and begun again. Chromium's `closePath`
/// grows with the path it closes: one path of the ~60,000 trigger timers of a 100,000-element
/// tumbling stream spent 19 s of a load and 88 s of a three-move drag in it (CDP CPU profile,
/// 2026-12-03). Paths are kept short, and triangles are closed with a line instead.
const PATH_CHUNK: usize = 256;

/// The timers' statuses in drawing order, and their glyphs' fills.
const TIMER_INKS: [(TimerStatus, &str); 3] =
    [(TimerStatus::Registered, "#ffffff"), (TimerStatus::Fired, ink::TIMER), (TimerStatus::Deleted, "#e4e4e4")];

/// The timers in paths per status (▼ trigger, ■ cleanup), each filled and stroked; timers that
/// fall on the same pixel with the same glyph are drawn once.
fn draw_timers(ctx: &CanvasRenderingContext2d, by_status: &[Vec<&TimerItem>; 3]) {
    ctx.set_stroke_style_str(ink::TIMER);
    for ((_, fill), timers) in TIMER_INKS.iter().zip(by_status) {
        ctx.set_fill_style_str(fill);
        let mut drawn = rustc_hash::FxHashSet::default();
        let mut open = 0;
        ctx.begin_path();
        for t in timers {
            let cleanup = t.kind == "cleanup";
            if !drawn.insert((t.x.round() as i32, t.y.round() as i32, cleanup)) {
                continue;
            }
            if cleanup {
                ctx.rect(t.x - 4.0, t.y - 4.0, 8.0, 8.0);
            } else {
                ctx.move_to(t.x - 5.0, t.y - 5.0);
                ctx.line_to(t.x + 5.0, t.y - 5.0);
                ctx.line_to(t.x, t.y + 4.0);
                // Back to the start by hand: `closePath` is what grew with the path.
                ctx.line_to(t.x - 5.0, t.y - 5.0);
            }
            open += 1;
            if open == PATH_CHUNK {
                ctx.fill();
                ctx.stroke();
                ctx.begin_path();
                open = 0;
            }
        }
        if open > 0 {
            ctx.fill();
            ctx.stroke();
        }
    }
}

/// The lane a marble is in (lanes are in y order).
fn lane_at(lanes: &[LaneItem], y: f64) -> Option<usize> {
    let i = lanes.partition_point(|l| l.y + l.height <= y);
    lanes.get(i).filter(|l| y >= l.y).map(|_| i)
}

/// A lane's visible marbles.
type LaneMarbles<'a> = (&'a LaneItem, Vec<&'a MarbleItem>);

/// Per lane of `lanes` (the first of them lane number `first`), its visible marbles: lanes with
/// more than fit side by side (drawn as density), and the others (drawn as discs).
fn marble_lanes<'a>(
    lanes: &'a [LaneItem],
    first: usize,
    groups: &'a [MarbleGroup],
    width: f64,
) -> (Vec<LaneMarbles<'a>>, Vec<LaneMarbles<'a>>) {
    let mut per_lane: Vec<Vec<&MarbleItem>> = vec![Vec::new(); lanes.len()];
    // Only the groups of these lanes: a marble is inside its group's lane.
    let of_lanes = first..first + lanes.len();
    for m in groups.iter().filter(|g| of_lanes.contains(&g.lane)).flat_map(|g| g.items.iter()) {
        if let Some(l) = lane_at(lanes, m.y)
            && visible(m.x, m.x, width)
        {
            per_lane[l].push(m);
        }
    }
    let fit = (width / (dims::MARBLE_R * 2.0)).max(1.0) as usize;
    lanes.iter().zip(per_lane).partition(|(_, items)| items.len() > fit)
}

/// The marbles of lanes that have room for them, as the SVG backend draws them: each outcome's
/// shape (`scene::glyph`: colour is never the only signal), one path per outcome, the hollow ones
/// (not arrived, in state) outlined; then each element's id where it has room
/// (`scene::room`, the SVG backend's rule, among the marbles drawn).
fn draw_discs(ctx: &CanvasRenderingContext2d, lanes: &[LaneMarbles<'_>]) {
    let r = dims::MARBLE_R - 1.0;
    for (_, items) in lanes {
        let mut outcomes: Vec<Option<ElementOutcome>> = items.iter().map(|m| m.outcome).collect();
        outcomes.sort_unstable_by_key(|o| outcome_ink(*o));
        outcomes.dedup_by_key(|o| outcome_ink(*o));
        for outcome in outcomes {
            let ink = outcome_ink(outcome);
            ctx.begin_path();
            for m in items.iter().filter(|m| outcome_ink(m.outcome) == ink) {
                trace_shape(ctx, Shape::of(m.outcome), m.x, m.y, r);
            }
            if hollow(outcome) {
                ctx.set_fill_style_str("#fff");
                ctx.fill();
                ctx.set_stroke_style_str(ink);
                // Not arrived: a dashed ring; in state: a solid, thicker one.
                let dashed = outcome.is_none();
                let dash = if dashed { js_sys::Array::of2(&3.0.into(), &2.0.into()) } else { js_sys::Array::new() };
                let _ = ctx.set_line_dash(&dash);
                ctx.set_line_width(if dashed { 2.0 } else { 3.0 });
                ctx.stroke();
                let _ = ctx.set_line_dash(&js_sys::Array::new());
            } else {
                ctx.set_fill_style_str(ink);
                ctx.fill();
            }
        }
        draw_ids(ctx, items);
    }
}

/// Not arrived, or in a window's state: drawn as a ring (`.outcome-not-arrived`, `.outcome-pending`).
fn hollow(o: Option<ElementOutcome>) -> bool {
    matches!(o, None | Some(ElementOutcome::Pending))
}

/// Adds `shape` around `(x, y)` to the current path, with `Shape::path`'s geometry.
fn trace_shape(ctx: &CanvasRenderingContext2d, shape: Shape, x: f64, y: f64, r: f64) {
    let poly = |points: &[(f64, f64)]| {
        for (i, (px, py)) in points.iter().enumerate() {
            if i == 0 { ctx.move_to(x + px, y + py) } else { ctx.line_to(x + px, y + py) }
        }
        ctx.close_path();
    };
    match shape {
        Shape::Circle => {
            ctx.move_to(x + r, y);
            let _ = ctx.arc(x, y, r, 0.0, std::f64::consts::TAU);
        }
        Shape::Diamond => {
            let d = r * 1.3;
            poly(&[(0.0, -d), (d, 0.0), (0.0, d), (-d, 0.0)]);
        }
        Shape::Triangle => {
            let d = r * 1.25;
            poly(&[(-d, -d * 0.75), (d, -d * 0.75), (0.0, d * 1.1)]);
        }
        Shape::Square => {
            let d = r * 0.9;
            poly(&[(-d, -d), (d, -d), (d, d), (-d, d)]);
        }
    }
}

/// The marbles of one lane whose ids have room among those drawn (`room::clear` in x order).
fn with_room<'a>(items: &[&'a MarbleItem]) -> Vec<&'a MarbleItem> {
    let mut sorted = items.to_vec();
    sorted.sort_unstable_by(|a, b| a.x.total_cmp(&b.x));
    let tags: Vec<room::Tag> =
        sorted.iter().map(|m| room::Tag { x: m.x, y: m.y, width: room::id_width(m.elem_id) }).collect();
    sorted.into_iter().zip(room::clear(&tags)).filter(|(_, clear)| *clear).map(|(m, _)| m).collect()
}

/// The ids of `items` that have room, as `.marble-text` draws them.
fn draw_ids(ctx: &CanvasRenderingContext2d, items: &[&MarbleItem]) {
    ctx.set_font("700 10px ui-monospace, SFMono-Regular, Menlo, Consolas, \"Liberation Mono\", monospace");
    ctx.set_text_align("center");
    let mut id = itoa::Buffer::new();
    for m in with_room(items) {
        ctx.set_fill_style_str(match m.outcome {
            Some(ElementOutcome::Dropped { .. }) => "#fff",
            None => "#4a5263",
            _ => "#000",
        });
        let _ = ctx.fill_text(id.format(m.elem_id), m.x, m.y + 4.0);
    }
    ctx.set_text_align("start");
}

/// One bar per pixel column: its height grows with the elements in the column, its colour is
/// the column's most common outcome; a column whose elements have not arrived is dotted (the SVG
/// backend's dashed ring), and one whose elements are in a window's state is open in the middle
/// (its hollow ring). And, so that colour is never the only signal and a minority is not
/// hidden by the column's most common outcome, the [`OutcomeMark`]s of the outcomes drawn as a
/// shape of their own (a late firing, the side output, dropped or removed unemitted) wherever one
/// of the lane's elements had them.
fn density(boxes: &mut Boxes, items: &[&MarbleItem], y: f64, width: f64) -> Vec<OutcomeMark> {
    let mut columns = vec![[0u32; 7]; column_count(width)];
    for m in items {
        if let Some(c) = columns.get_mut(column(m.x)) {
            c[outcome_slot(m.outcome)] += 1;
        }
    }
    // The bars by colour, each colour's joined where they are the same height side by side.
    let mut bars: [Vec<(f64, f64)>; 7] = Default::default();
    for (x, counts) in columns.iter().enumerate() {
        let n: u32 = counts.iter().sum();
        if n == 0 {
            continue;
        }
        let top = counts.iter().enumerate().max_by_key(|(i, c)| (**c, std::cmp::Reverse(*i))).map_or(0, |(i, _)| i);
        bars[top].push((x as f64, (6.0 + 4.0 * f64::from(n)).min(dims::MARBLE_ROW - 4.0)));
    }
    for (slot, (outcome, bars)) in OUTCOMES.iter().zip(bars).enumerate() {
        let ink = rgba(outcome_ink(*outcome));
        for (x, top, w, h) in merged_runs(bars.into_iter().map(|(x, h)| (x - 0.5, y - h / 2.0, 1.5, h))) {
            match slot {
                // Not arrived: dotted, 2 units on, 2 off (the SVG backend's dashed ring).
                0 => {
                    let mut at = top;
                    while at < top + h {
                        boxes.fill(x, at, w, 2.0f64.min(top + h - at), ink);
                        at += 4.0;
                    }
                }
                // In state: open in the middle of the row (the SVG backend's hollow ring).
                1 => {
                    let half = (h - IN_STATE_GAP) / 2.0;
                    boxes.fill(x, top, w, half, ink);
                    boxes.fill(x, top + h - half, w, half, ink);
                }
                _ => boxes.fill(x, top, w, h, ink),
            }
        }
    }
    outcome_marks(&columns, y)
}

/// The marks over a row's bars, each outlined in the timers' dark ink so that it reads over bars
/// of any colour: rasterised into the boxes as the bars are, not a canvas path each (a 100,000-
/// element tumbling stream has 2,120 marks: as paths, five canvas calls each; as boxes, 36,000 rows
/// made and painted in about 1.5 ms natively).
fn mark_boxes(boxes: &mut Boxes, marks: &[OutcomeMark]) {
    let edge = rgba(ink::TIMER);
    for m in marks {
        let shape = Shape::of(Some(m.outcome));
        boxes.shape(shape, m.x, m.y, MARK_OUTER, edge);
        boxes.shape(shape, m.x, m.y, MARK_R, rgba(outcome_ink(Some(m.outcome))));
    }
}

/// The gap in the middle of a bar of elements in a window's state: a bar is at least 10 units.
const IN_STATE_GAP: f64 = 4.0;

/// The outcomes in [`density`]'s count order (`outcome_slot`).
const OUTCOMES: [Option<ElementOutcome>; 7] = [
    None,
    Some(ElementOutcome::Pending),
    Some(ElementOutcome::OnTime),
    Some(ElementOutcome::InLateFiring),
    Some(ElementOutcome::SideOutput),
    Some(ElementOutcome::Dropped { counted: true }),
    Some(ElementOutcome::Discarded),
];

/// An outcome's place in [`OUTCOMES`].
fn outcome_slot(o: Option<ElementOutcome>) -> usize {
    match o {
        None => 0,
        Some(ElementOutcome::Pending) => 1,
        Some(ElementOutcome::OnTime) => 2,
        Some(ElementOutcome::InLateFiring) => 3,
        Some(ElementOutcome::SideOutput) => 4,
        Some(ElementOutcome::Dropped { .. }) => 5,
        Some(ElementOutcome::Discarded) => 6,
    }
}

/// A shape over a lane's density bars: some element of the lane within [`MARK_CELL`] units of `x`
/// had `outcome`, one of those with a shape of their own (`Shape::of`: not a circle).
#[derive(Clone, Copy)]
#[cfg_attr(test, derive(Debug, PartialEq))]
struct OutcomeMark {
    x: f64,
    y: f64,
    outcome: ElementOutcome,
}

/// The width of the cells a lane's density row is marked in: about a mark's own width and a gap,
/// so that marks side by side do not touch.
const MARK_CELL: f64 = 12.0;

/// A mark's size (`Shape::path`'s `r`).
const MARK_R: f64 = 3.2;

/// A mark's size with its outline, one unit all round.
const MARK_OUTER: f64 = MARK_R + 1.0;

/// How far apart the marks' rows are: ◆ this far above the bars' middle, ▼ on it, ■ this far below.
const MARK_ROW: f64 = 11.0;

// Marks side by side, or in one cell, never touch (`Shape::rows` and `half_width` at
// `MARK_OUTER`): the widest, the diamond (1.3 r each way), fits a cell with a unit to spare; a row
// `MARK_ROW` below another clears it (the diamond reaches 1.3 r below, the triangle 0.94 r above
// and 1.38 r below, the square 0.9 r above); and the marks stay inside the marble row (the diamond,
// a row above the middle, reaches furthest).
const _: () = assert!(2.0 * 1.3 * MARK_OUTER + 1.0 <= MARK_CELL);
const _: () = assert!(1.3 * MARK_OUTER + 1.25 * 0.75 * MARK_OUTER < MARK_ROW);
const _: () = assert!(1.25 * 1.1 * MARK_OUTER + 0.9 * MARK_OUTER < MARK_ROW);
const _: () = assert!(MARK_ROW + 1.3 * MARK_OUTER < dims::MARBLE_ROW / 2.0);

/// The marks of a density row at height `y`, from its columns' counts ([`OUTCOMES`]' order): per
/// cell of [`MARK_CELL`] columns, one at the cell's middle for each outcome with a shape that an
/// element of it had. Each shape has a row of its own (a diamond above the bars' middle, the
/// triangle on it, the square below it), so that marks in one cell never cover each other.
fn outcome_marks(columns: &[[u32; 7]], y: f64) -> Vec<OutcomeMark> {
    let cell = MARK_CELL as usize;
    let mut marks = Vec::new();
    for (i, cells) in columns.chunks(cell).enumerate() {
        let mid = (i * cell) as f64 + MARK_CELL / 2.0 - 0.5;
        for (slot, dy) in [(3, -MARK_ROW), (4, 0.0), (5, MARK_ROW), (6, MARK_ROW)] {
            let Some(outcome) = OUTCOMES[slot] else { continue };
            // Dropped and removed unemitted share the square (and its row): one mark.
            let shared = slot == 6 && cells.iter().any(|c| c[5] > 0);
            if !shared && cells.iter().any(|c| c[slot] > 0) {
                marks.push(OutcomeMark { x: mid, y: y + dy, outcome });
            }
        }
    }
    marks
}

fn draw_two_d(ctx: &CanvasRenderingContext2d, t: &TwoD, width: f64, in_rows: &dyn Fn(f64) -> bool) {
    for c in t.columns.iter().filter(|c| visible(c.x, c.x + c.width, width)) {
        let (fill, stroke) = band_ink(c.state);
        ctx.set_global_alpha(0.35);
        ctx.set_fill_style_str(fill);
        ctx.fill_rect(c.x, c.y, c.width, c.height);
        ctx.set_global_alpha(1.0);
        ctx.set_stroke_style_str(stroke);
        ctx.stroke_rect(c.x, c.y, c.width, c.height);
    }
    for d in t.dots.iter().filter(|d| in_rows(d.y) && visible(d.x, d.x, width)) {
        ctx.set_fill_style_str(outcome_ink(d.outcome));
        ctx.fill_rect(d.x - 2.0, d.y - 2.0, 4.0, 4.0);
    }
    ctx.set_fill_style_str(ink::TIMER);
    ctx.fill_rect(0.0, t.playhead_y, width, 1.0);
}

#[cfg(test)]
mod tests {
    use super::merged_runs;

    /// 3,000 elements over 30 keys and ten minutes, tumbling by the minute, with a late element
    /// sent to the side output; `extra` adds fields to the scenario.
    pub(super) fn bulk_state(extra: &str) -> crate::ui::state::AppState {
        bulk_state_of(30, extra)
    }

    /// The same over `keys` keys.
    fn bulk_state_of(keys: usize, extra: &str) -> crate::ui::state::AppState {
        let items: Vec<String> = (0..3000)
            .map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % keys, (i * 197) % 600_000))
            .chain([r#"{"wm": 550000}"#.to_string(), r#"{"id": 9000, "key": "k1", "ts": 1000}"#.to_string()])
            .collect();
        let json = format!(
            r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, {extra} "side_output": true, "input": [{}]}}"#,
            items.join(",")
        );
        let scenario = crate::engine::Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}"));
        let mut st = crate::ui::state::AppState::from_hash("", 1400.0);
        st.dispatch(crate::ui::action::Action::Load { scenario: Box::new(scenario), step: None, banner: None });
        st
    }

    /// A lane drawn as discs names the marbles whose ids have room among those drawn, in any
    /// order of its items (the SVG backend's rule: `room`), and all of them when they are apart.
    #[test]
    fn disc_lanes_name_the_marbles_with_room() {
        use super::*;
        let st = bulk_state("");
        let Some(model) = st.scene.marble_items().next().cloned() else { panic!("no marble") };
        let at = |x: f64, id: i64| MarbleItem { x, y: 50.0, elem_id: id, ..model.clone() };
        let items = [at(90.0, 1003), at(20.0, 1001), at(0.0, 1000), at(60.0, 1002)];
        let refs: Vec<&MarbleItem> = items.iter().collect();
        let named: Vec<i64> = with_room(&refs).iter().map(|m| m.elem_id).collect();
        assert_eq!(named, [1002, 1003], "1000 and 1001, 20 apart, touch");
        let apart = [at(0.0, 7), at(40.0, 8), at(80.0, 9)];
        let refs: Vec<&MarbleItem> = apart.iter().collect();
        assert_eq!(with_room(&refs).len(), 3);
        // Rings for the outcomes drawn hollow by the SVG backend, shapes for the rest.
        assert!(hollow(None) && hollow(Some(ElementOutcome::Pending)));
        assert!(!hollow(Some(ElementOutcome::OnTime)) && !hollow(Some(ElementOutcome::SideOutput)));
    }

    /// Hatches that overlap in a row are one box each way along it, also when the windows come in
    /// turn from more rows than `merged_runs` keeps open (a translucent ink blended twice where
    /// two overlapped was darker there).
    #[test]
    fn overlapping_hatches_are_painted_once() {
        use super::*;
        let st = bulk_state("");
        let Some(model) = st.scene.windows.iter().flat_map(|g| g.items.iter()).next().cloned() else {
            panic!("no window")
        };
        // 12 rows taken in turn, two windows a row whose hatches overlap by 10 units.
        let windows: Vec<WindowItem> = (0..24)
            .map(|i| WindowItem {
                x0: 100.0 + 15.0 * f64::from(i / 12),
                y: 10.0 * f64::from(i % 12),
                width: 4.0,
                height: 8.0,
                hatch_px: Some(20.0),
                ..model.clone()
            })
            .collect();
        let shown: Vec<&WindowItem> = windows.iter().collect();
        let mut b = Boxes::new(1.0, 0.0);
        window_boxes(&mut b, &shown, 1400.0);
        let hatch = rgba("rgba(213, 154, 46, 0.35)");
        let hatches: Vec<_> = b.list().iter().filter(|x| x.4 == hatch).collect();
        assert_eq!(hatches.len(), 12, "one per row: {hatches:?}");
        for (i, a) in hatches.iter().enumerate() {
            for c in &hatches[i + 1..] {
                assert!(a.1 <= c.0 || c.1 <= a.0 || a.3 <= c.2 || c.3 <= a.2, "{a:?} overlaps {c:?}");
            }
        }
    }

    /// A dashed band a million units wide each way (zoomed in, its ends clamped far off the canvas)
    /// is dashed where the canvas shows it, in its own phase, and nowhere else: a few hundred boxes,
    /// not one per dash of its length (that was 20 million boxes for 60 such bands). A pattern that
    /// is not finite, or no dash, is a plain outline.
    #[test]
    fn a_dashed_band_is_dashed_only_where_it_is_seen() {
        use super::*;
        let st = bulk_state("");
        let Some(model) = st.scene.windows.iter().flat_map(|g| g.items.iter()).next().cloned() else {
            panic!("no window")
        };
        let wide = WindowItem {
            x0: -1.0e6 + 1.0,
            width: 2.0e6,
            y: 10.0,
            height: 20.0,
            state: "purged",
            hatch_px: None,
            ..model
        };
        let mut b = Boxes::new(1.0, 0.0);
        window_boxes(&mut b, &[&wide], 1400.0);
        let stroke = rgba(band_ink("purged").1);
        let edges: Vec<_> = b.list().iter().filter(|x| x.4 == stroke).collect();
        assert!(edges.len() < 500, "{} boxes", edges.len());
        // The top edge's dashes: 5 on, 3 off from the band's start, across the canvas and no further.
        let top: Vec<(i32, i32)> = edges.iter().filter(|x| x.2 == 10).map(|x| (x.0, x.1)).collect();
        assert!(top.iter().all(|d| d.0 >= -20 && d.1 <= 1430 && (d.0 + 999_999) % 8 == 0), "{top:?}");
        assert!(top.iter().any(|d| d.0 <= 0) && top.iter().any(|d| d.1 >= 1400), "{top:?}");
        let mut b = Boxes::new(1.0, 0.0);
        for dash in [(0.0, 3.0), (f64::NAN, 1.0), (5.0, f64::INFINITY)] {
            b.dashed_outline((0.0, 0.0, 100.0, 20.0), stroke, dash, (0.0, 1400.0));
        }
        assert_eq!(b.len(), 12, "three plain outlines");
        // An endless band: its outline's finite edges, at once.
        b.dashed_outline((0.0, 0.0, f64::INFINITY, 20.0), stroke, (5.0, 3.0), (0.0, 1400.0));
        assert!(b.len() <= 16);
    }

    /// A density row marks each outcome that has a shape of its own wherever an element had it,
    /// however few beside the column's most common outcome (whose colour alone would hide it):
    /// one mark per cell and outcome, the shapes in rows of their own, dropped and removed
    /// unemitted as one square; elements not arrived are drawn as a dotted bar, those in state
    /// as a bar open in the middle, and neither is marked.
    #[test]
    fn density_marks_each_shaped_outcome_however_few() {
        use super::*;
        let st = bulk_state("");
        let Some(model) = st.scene.marble_items().next().cloned() else { panic!("no marble") };
        let at = |x: f64, outcome: Option<ElementOutcome>| MarbleItem { x, y: 50.0, outcome, ..model.clone() };
        let mut items: Vec<MarbleItem> =
            (0..40).map(|i| at(100.0 + f64::from(i % 3), Some(ElementOutcome::OnTime))).collect();
        items.extend([
            at(101.0, Some(ElementOutcome::SideOutput)),
            at(103.0, Some(ElementOutcome::SideOutput)),
            at(300.0, Some(ElementOutcome::InLateFiring)),
            at(500.0, Some(ElementOutcome::Dropped { counted: false })),
            at(501.0, Some(ElementOutcome::Discarded)),
            at(700.0, None),
            at(800.0, Some(ElementOutcome::Discarded)),
            at(900.0, Some(ElementOutcome::Pending)),
        ]);
        let refs: Vec<&MarbleItem> = items.iter().collect();
        let mut b = Boxes::new(1.0, 0.0);
        let marks = density(&mut b, &refs, 50.0, 1000.0);
        let mark = |x: f64, y: f64, outcome| OutcomeMark { x, y, outcome };
        assert_eq!(
            marks,
            [
                mark(101.5, 50.0, ElementOutcome::SideOutput),
                mark(305.5, 39.0, ElementOutcome::InLateFiring),
                mark(497.5, 61.0, ElementOutcome::Dropped { counted: true }),
                mark(797.5, 61.0, ElementOutcome::Discarded),
            ]
        );
        // Each mark is rasterised over the bars (after them in the boxes): the triangle a row of
        // its outcome's ink at a time, narrowing down to its tip, inside its outline's rows.
        let pink = rgba(outcome_ink(Some(ElementOutcome::SideOutput)));
        let mut m = Boxes::new(1.0, 0.0);
        mark_boxes(&mut m, &marks[..1]);
        let rows: Vec<(i32, i32, i32)> = m.list().iter().filter(|x| x.4 == pink).map(|x| (x.0, x.1, x.2)).collect();
        assert!((6..=8).contains(&rows.len()), "{rows:?}");
        assert!((7..=8).contains(&(rows[0].1 - rows[0].0)), "the top edge, 2 × 1.25 r wide: {rows:?}");
        assert_eq!(rows[0].2, 47, "from 0.75 × 1.25 r above the middle: {rows:?}");
        assert!(rows.windows(2).all(|w| w[1].2 == w[0].2 + 1 && w[1].1 - w[1].0 <= w[0].1 - w[0].0), "{rows:?}");
        assert!(rows.iter().all(|r| r.0 < 102 && r.1 > 101), "centred on 101.5: {rows:?}");
        let edge: Vec<(i32, i32, i32)> =
            m.list().iter().filter(|x| x.4 == rgba(ink::TIMER)).map(|x| (x.0, x.1, x.2)).collect();
        assert_eq!(m.list().iter().position(|x| x.4 == pink), Some(edge.len()), "the outline first, then the fill");
        assert!(edge[0].2 < rows[0].2 && edge[edge.len() - 1].2 > rows[rows.len() - 1].2, "{edge:?}");
        assert!(edge[0].1 - edge[0].0 > rows[0].1 - rows[0].0, "{edge:?}");
        // The bar at 100 keeps its majority's colour; the one not arrived is dotted.
        let of_ink = |o: Option<ElementOutcome>| -> Vec<(i32, i32, i32, i32)> {
            b.list().iter().filter(|x| x.4 == rgba(outcome_ink(o))).map(|x| (x.0, x.1, x.2, x.3)).collect()
        };
        assert!(of_ink(Some(ElementOutcome::OnTime)).iter().any(|x| x.0 <= 100 && x.1 >= 101));
        let dots = of_ink(None);
        assert!(dots.len() >= 2, "{dots:?}");
        assert!(dots.iter().all(|d| d.3 - d.2 <= 2 && d.0 <= 700 && d.1 >= 700), "{dots:?}");
        // The one in state is open in the middle: two pieces, one each side of the row's middle.
        let open = of_ink(Some(ElementOutcome::Pending));
        assert_eq!(open.len(), 2, "{open:?}");
        assert!(open[0].3 < 50 && open[1].2 > 50 && open.iter().all(|d| d.0 <= 900 && d.1 >= 900), "{open:?}");
    }

    /// The scene's late element (`bulk_state`: key k1, sent to the side output among its lane's
    /// on-time ones) is marked with a triangle at its place in its lane's density row.
    #[test]
    fn a_late_element_in_a_dense_lane_is_marked() {
        use super::*;
        let st = bulk_state_of(3, "");
        let s = st.scene.clone();
        let (dense, _) = marble_lanes(&s.lanes, 0, &s.marbles, s.width);
        let Some((lane, items)) = dense.iter().find(|(l, _)| l.key.as_ref() == "k1") else { panic!("k1 dense") };
        let late: Vec<&&MarbleItem> = items.iter().filter(|m| m.outcome == Some(ElementOutcome::SideOutput)).collect();
        assert_eq!(late.len(), 1, "the late element");
        let marks = density(&mut Boxes::new(1.0, 0.0), items, lane.marble_y, s.width);
        let triangles: Vec<&OutcomeMark> = marks.iter().filter(|m| m.outcome == ElementOutcome::SideOutput).collect();
        assert_eq!(triangles.len(), 1, "{marks:?}");
        assert!((triangles[0].x - late[0].x).abs() <= MARK_CELL / 2.0 + 0.5 && triangles[0].y == lane.marble_y);
    }

    /// In lanes stretched to fill a tall canvas (few keys), the density bars are where the lane's
    /// marbles are (`Lane::marble_y`), not where an unstretched lane has them.
    #[test]
    fn density_bars_sit_in_a_stretched_lanes_marble_row() {
        use super::*;
        let mut st = bulk_state_of(3, "");
        st.dispatch(crate::ui::action::Action::Resize { width_px: 1400.0, height_px: 2400.0 });
        let s = st.scene.clone();
        let (dense, _) = marble_lanes(&s.lanes, 0, &s.marbles, s.width);
        assert_eq!(dense.len(), 3, "every lane dense");
        for (lane, items) in &dense {
            let unstretched = lane.y + lane.height - dims::MARBLE_ROW / 2.0 - 2.0;
            assert!(lane.marble_y < unstretched - 2.0, "stretched: {} vs {unstretched}", lane.marble_y);
            assert!(items.iter().any(|m| (m.y - lane.marble_y).abs() < 0.01), "marbles on the row");
            let mut b = Boxes::new(1.0, 0.0);
            density(&mut b, items, lane.marble_y, s.width);
            // Each column's bar (in pieces where dotted or open in the middle) spans around the row.
            let mut spans = std::collections::BTreeMap::new();
            for &(x0, _, y0, y1, _) in b.list() {
                let span = spans.entry(x0).or_insert((y0, y1));
                *span = (span.0.min(y0), span.1.max(y1));
            }
            for (y0, y1) in spans.into_values() {
                let mid = f64::from(y0 + y1) / 2.0;
                assert!((mid - lane.marble_y).abs() <= 1.0, "a bar centred at {mid}, the row at {}", lane.marble_y);
            }
        }
    }

    /// The scene's rectangles become boxes where the canvas drew them: each lane's band and edge;
    /// each window's fill and (wide) outline or (thin) block in its state's inks; the lateness
    /// hatches right of their windows; the side output's ticks in its lane; the density bars in
    /// their lane's marble row, in the outcomes' inks.
    #[test]
    fn the_scenes_rectangles_become_boxes_in_place() {
        use super::super::raster::Rgba;
        use super::*;
        let st = bulk_state(r#""allowed_lateness": 20000,"#);
        let s = &st.scene;
        assert!(s.element_count > 2000);
        let (k, top) = (2.0, 0.0);
        let has = |b: &Boxes, want: (f64, f64, f64, f64), ink: &str| {
            let d = |v: f64| (v * k).round() as i32;
            let (x0, y0, x1, y1) = (d(want.0), d(want.1 - top), d(want.0 + want.2), d(want.1 + want.3 - top));
            let ink = rgba(ink);
            b.list().iter().any(|&(a0, a1, b0, b1, i)| {
                i == ink && a0 <= x0 && a1 >= x1.max(x0 + 1) && b0 <= y0 && b1 >= y1.max(y0 + 1)
            })
        };
        let mut b = Boxes::new(k, top);
        lane_boxes(&mut b, &s.lanes, 0, s.width);
        for (i, l) in s.lanes.iter().enumerate() {
            assert!(has(&b, (0.0, l.y, s.width, l.height), ink::LANE[i % 2]), "lane {i}");
            assert!(has(&b, (0.0, l.y, s.width, 1.0), ink::LANE_EDGE), "lane {i}'s edge");
        }
        let mut b = Boxes::new(k, top);
        side_boxes(&mut b, &s.side, s.width);
        assert!(has(&b, (0.0, s.side.y, s.width, dims::SIDE_LANE), ink::SIDE));
        let ticks: Vec<_> = b.list().iter().filter(|x| x.4 == rgba(ink::SIDE_MARBLE)).collect();
        assert!(!ticks.is_empty(), "the late element's tick");
        let side_rows = ((s.side.y * k) as i32, ((s.side.y + dims::SIDE_LANE) * k) as i32);
        assert!(ticks.iter().all(|t| t.2 >= side_rows.0 && t.3 <= side_rows.1), "{ticks:?} in {side_rows:?}");

        let bands: Vec<&WindowItem> = s.windows.iter().flat_map(|g| g.items.iter()).collect();
        let mut b = Boxes::new(k, top);
        window_boxes(&mut b, &bands, s.width);
        let (mut wide, mut thin, mut hatched, mut dashed, mut marked) = (0, 0, 0, 0, 0);
        for w in &bands {
            let (fill, stroke) = band_ink(w.state);
            if rgba(fill)[3] > 0 {
                assert!(has(&b, (w.x0, w.y, w.width, w.height), fill), "{w:?}'s fill");
            }
            if w.width > 2.0 {
                wide += 1;
                let slot = BAND_STATES.iter().position(|s| *s == w.state).map_or("", |i| BAND_STATES[i]);
                match band_dash(slot) {
                    None => {
                        assert!(has(&b, (w.x0, w.y, w.width, 1.0), stroke), "{w:?}'s top edge");
                        assert!(has(&b, (w.x0 + w.width - 1.0, w.y, 1.0, w.height), stroke), "{w:?}'s right edge");
                    }
                    Some((on, off)) => {
                        dashed += 1;
                        assert!(has(&b, (w.x0, w.y, on.min(w.width), 1.0), stroke), "{w:?}'s first dash");
                        assert!(has(&b, (w.x0 + w.width - 1.0, w.y, 1.0, on), stroke), "{w:?}'s right edge's");
                        if w.width > on + off + 1.0 {
                            let gap = (w.x0 + on + 0.5, w.y, off - 1.0, 1.0);
                            assert!(!has(&b, gap, stroke), "{w:?}'s top edge dashed");
                        }
                    }
                }
                if let (Some((_, ink)), true) = (band_mark(w.state), w.width > 16.0) {
                    marked += 1;
                    let at = (w.x0 + w.width - 9.0, w.y + 6.0, 2.0, 0.0);
                    let d = |v: f64| (v * k).round() as i32;
                    let covered = b.list().iter().any(|x| {
                        x.4 == ink && x.0 <= d(at.0) && x.1 >= d(at.0 + at.2) && x.2 <= d(at.1) && x.3 > d(at.1)
                    });
                    assert!(covered, "{w:?}'s state mark");
                }
            } else {
                thin += 1;
                assert!(has(&b, (w.x0, w.y, 2.0, w.height), stroke), "{w:?}'s block");
            }
            if let Some(hw) = w.hatch_px.filter(|hw| *hw >= 1.0) {
                hatched += 1;
                assert!(
                    has(&b, (w.x0 + w.width + 1.0, w.y, hw, w.height), "rgba(213, 154, 46, 0.35)"),
                    "{w:?}'s hatch"
                );
            }
        }
        assert!(
            wide > 0 && hatched > 0 && dashed > 0 && marked > 0,
            "{wide} wide, {thin} thin, {hatched} hatched, {dashed} dashed, {marked} marked"
        );

        let (dense, discs) = marble_lanes(&s.lanes, 0, &s.marbles, s.width);
        assert!(!dense.is_empty(), "{} dense lanes, {} with discs", dense.len(), discs.len());
        for (lane, items) in &dense {
            let mut b = Boxes::new(k, top);
            let y = lane.marble_y;
            assert!(items.iter().any(|m| (m.y - y).abs() < 0.01), "the lane's marbles' first row is its marble row");
            density(&mut b, items, y, s.width);
            assert!(!b.list().is_empty());
            let row =
                (((y - dims::MARBLE_ROW / 2.0) * k).floor() as i32, ((y + dims::MARBLE_ROW / 2.0) * k).ceil() as i32);
            assert!(b.list().iter().all(|x| x.2 >= row.0 && x.3 <= row.1), "bars in the marble row");
            let inks: Vec<Rgba> = items.iter().map(|m| rgba(outcome_ink(m.outcome))).collect();
            assert!(b.list().iter().all(|x| inks.contains(&x.4)), "the outcomes' inks");
            // Each marble's column has a bar.
            for m in items {
                let c = (m.x.round() * k) as i32;
                assert!(b.list().iter().any(|x| x.0 <= c && c < x.1), "marble {} at {}", m.index, m.x);
            }
        }
    }

    /// A paint of some rows and part of the width draws exactly the items that reach into them:
    /// lanes, windows (with their hatches), timers (by status, in the scene's order), marbles
    /// (each in its lane, dense or as discs), and the side output's lane; everything else is left
    /// out. Over a scene of 300 lanes, for bands at the top, in the middle and at the bottom, and
    /// for the whole width and its left half.
    #[test]
    fn a_band_draws_what_reaches_into_its_rows_and_nothing_else() {
        use super::*;
        let st = bulk_state_of(300, r#""allowed_lateness": 20000,"#);
        let s = &st.scene;
        assert_eq!(s.lanes.len(), 300);
        let reaches = |rows: (f64, f64), y0: f64, y1: f64| y1 >= rows.0 - 40.0 && y0 <= rows.1 + 40.0;
        let on = |x0: f64, x1: f64, width: f64| x1 >= -10.0 && x0 <= width + 10.0;
        let h = s.side.y + dims::SIDE_LANE;
        let mut seen = (0, 0, 0, 0);
        for rows in [(0.0, 600.0), (h * 0.4, h * 0.4 + 900.0), (h - 500.0, h + 10.0)] {
            for width in [s.width, s.width / 2.0] {
                let b = Band::of(&s.lanes, &s.side, &s.windows, &s.timers, &s.marbles, width, rows);
                let lanes: Vec<usize> = (0..s.lanes.len())
                    .filter(|&i| s.lanes[i].y + s.lanes[i].height >= rows.0 && s.lanes[i].y <= rows.1)
                    .collect();
                assert_eq!((b.first, b.lanes.len()), (lanes[0], lanes.len()), "the lanes of {rows:?}");
                assert_eq!(b.side, reaches(rows, s.side.y, h), "the side output's lane in {rows:?}");
                let want: Vec<&WindowItem> = s
                    .windows
                    .iter()
                    .flat_map(|g| g.items.iter())
                    .filter(|w| {
                        reaches(rows, w.y, w.y + w.height)
                            && on(w.x0, w.x0 + w.width + w.hatch_px.unwrap_or(0.0), width)
                    })
                    .collect();
                assert!(
                    b.windows.len() == want.len() && b.windows.iter().zip(&want).all(|(a, b)| std::ptr::eq(*a, *b))
                );
                for (i, (status, _)) in TIMER_INKS.iter().enumerate() {
                    let want: Vec<&TimerItem> = s
                        .timers
                        .iter()
                        .filter(|t| t.status == *status && reaches(rows, t.y, t.y) && on(t.x, t.x, width))
                        .collect();
                    let got = &b.timers[i];
                    assert!(got.len() == want.len() && got.iter().zip(&want).all(|(a, b)| std::ptr::eq(*a, *b)));
                    seen.1 += got.len();
                }
                let mut marbles: Vec<usize> =
                    b.dense.iter().chain(&b.discs).flat_map(|(_, m)| m.iter().map(|m| m.index)).collect();
                marbles.sort_unstable();
                let mut want: Vec<usize> = s
                    .marbles
                    .iter()
                    .flat_map(|g| g.items.iter())
                    .filter(|m| on(m.x, m.x, width) && b.lanes.iter().any(|l| m.y >= l.y && m.y < l.y + l.height))
                    .map(|m| m.index)
                    .collect();
                want.sort_unstable();
                assert_eq!(marbles, want, "the marbles of {rows:?}, {width} wide");
                for (lane, items) in b.dense.iter().chain(&b.discs) {
                    assert!(items.iter().all(|m| m.y >= lane.y && m.y < lane.y + lane.height), "in their lane");
                }
                seen.0 += b.windows.len();
                seen.2 += marbles.len();
                seen.3 += usize::from(b.side);
            }
        }
        // The bands are not all empty, nor all the scene.
        let (windows, timers, marbles, sides) = seen;
        let all = s.windows.iter().map(|g| g.items.len()).sum::<usize>();
        assert!(windows > 0 && windows < 6 * all, "{windows} of {all} windows six times");
        assert!(timers > 0 && marbles > 0 && sides == 2, "{timers} timers, {marbles} marbles, {sides} sides");
    }

    /// A canvas bitmap keeps one device-pixel ratio both ways and no side over the browsers'
    /// limit: a band taller than the limit at the device's ratio is drawn at a lower one, not
    /// squashed.
    #[test]
    fn a_bitmap_keeps_its_aspect_within_the_limit() {
        use super::{MAX_BITMAP_SIDE, bitmap_size};
        assert_eq!(bitmap_size(1400.0, 4200.0, 2.0), (2800.0, 8400.0), "within the limit: the device's ratio");
        for (w, band, dpr) in
            [(1400.0, 6000.0, 3.0), (1920.0, 9000.0, 2.0), (20_000.0, 800.0, 1.0), (700.0, 30_000.0, 3.0)]
        {
            let (cw, ch) = bitmap_size(w, band, dpr);
            assert!(cw <= MAX_BITMAP_SIDE && ch <= MAX_BITMAP_SIDE, "{w}×{band} at {dpr}: {cw}×{ch}");
            assert!(cw.max(ch) >= MAX_BITMAP_SIDE - 1.0, "{w}×{band} at {dpr}: as sharp as the limit allows");
            assert!(((cw / w) - (ch / band)).abs() < 0.01, "{w}×{band} at {dpr}: {cw}×{ch} is squashed");
        }
        assert_eq!(bitmap_size(0.0, 0.0, 2.0), (0.0, 0.0), "an empty canvas");
    }

    /// Touching or overlapping rectangles of a row become one, also when rows are taken in turn;
    /// gaps, other heights and rectangles left of their row's run stay apart; the union covers
    /// exactly what the rectangles covered.
    #[test]
    fn merged_runs_join_touching_rectangles_of_a_row() {
        let rects = [
            (0.0, 5.0, 4.0, 8.0),
            (4.0, 5.0, 6.0, 8.0),    // touches the one before
            (10.0, 5.0, 4.0, 8.0),   // and this one the run
            (12.0, 5.0, 1.0, 8.0),   // inside the run
            (20.0, 5.0, 2.0, 8.0),   // a gap: another run
            (21.0, 30.0, 50.0, 8.0), // another row
            (22.0, 5.0, 4.0, 8.0),   // after another row: joins its row's run
            (23.0, 5.0, 4.0, 9.0),   // another height
            (1.0, 5.0, 4.0, 9.0),    // left of its row's run: not joined
        ];
        let got = merged_runs(rects.into_iter());
        assert_eq!(
            got,
            vec![
                (0.0, 5.0, 14.0, 8.0),
                (20.0, 5.0, 6.0, 8.0),
                (21.0, 30.0, 50.0, 8.0),
                (23.0, 5.0, 4.0, 9.0),
                (1.0, 5.0, 4.0, 9.0)
            ]
        );
        assert!(merged_runs(std::iter::empty()).is_empty());
    }

    /// A sliding stream's windows, in start order, step through the lane's rows: each row becomes
    /// one run (they touch), for one, three and [`super::OPEN_ROWS`] rows; with one row more than
    /// that nothing is joined, and the same union is still covered.
    #[test]
    fn merged_runs_join_rows_taken_in_turn() {
        let windows = |rows: usize, n: usize| {
            (0..n).map(move |i| ((i / rows) as f64 * 3.0 + (i % rows) as f64, 10.0 * (i % rows) as f64, 3.0, 8.0))
        };
        for rows in [1, 3, super::OPEN_ROWS] {
            let got = merged_runs(windows(rows, 600));
            assert_eq!(got.len(), rows, "{rows} rows");
            for (k, run) in got.iter().enumerate() {
                assert_eq!(*run, (k as f64, 10.0 * k as f64, 3.0 * (600 / rows) as f64, 8.0), "{rows} rows: row {k}");
            }
        }
        // Too many rows to keep open: nothing is lost, each row's pixels are still covered.
        let rows = super::OPEN_ROWS + 1;
        let got = merged_runs(windows(rows, 180));
        for k in 0..rows {
            let mut spans: Vec<(f64, f64)> =
                got.iter().filter(|r| r.1 == 10.0 * k as f64).map(|r| (r.0, r.0 + r.2)).collect();
            spans.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (mut from, mut to) = (spans[0].0, spans[0].1);
            for (a, b) in spans.into_iter().skip(1) {
                assert!(a <= to, "row {k}: a gap at {to}..{a}");
                to = to.max(b);
                from = from.min(a);
            }
            assert_eq!((from, to), (k as f64, k as f64 + 3.0 * (180 / rows) as f64), "row {k}");
        }
    }
}

#[cfg(test)]
mod overlay_tests {
    use super::tests::bulk_state;
    use super::{Overlay, overlay};
    use crate::ui::action::ObjectId;
    use crate::ui::scene::Scene;

    fn all_of(o: &Overlay) -> Vec<ObjectId> {
        let mut ids: Vec<ObjectId> = o.marbles.iter().flat_map(|g| g.items.iter().map(|m| m.id)).collect();
        ids.extend(o.windows.iter().flat_map(|g| g.items.iter().map(|w| w.id)));
        ids.extend(o.timers.iter().map(|t| t.id));
        ids.extend(o.side.groups.iter().flat_map(|(_, g)| g.iter().map(|m| m.id)));
        ids
    }

    /// The overlay holds exactly the scene's objects of `scene.overlay` that exist, whatever their
    /// kind, as a look through every item would find them.
    #[test]
    fn the_overlay_finds_every_kind_of_object_and_nothing_else() {
        let st = bulk_state("");
        let mut scene: Scene = (*st.scene).clone();
        assert!(scene.element_count > 2000, "{}", scene.element_count);
        let window = scene.windows[3].items[2].id;
        let timer = scene.timers[10].id;
        let late = scene.side.groups.first().and_then(|(_, g)| g.first()).map(|m| m.id);
        assert!(late.is_some(), "a late element");
        let wanted: Vec<ObjectId> = [
            Some(ObjectId::Element(5)),
            Some(ObjectId::Element(2999)),
            Some(window),
            Some(timer),
            late,
            Some(ObjectId::Element(123_456)), // no such element
        ]
        .into_iter()
        .flatten()
        .collect();
        scene.overlay = wanted.clone();
        let mut got = all_of(&overlay(&scene));
        got.sort_by_key(|id| format!("{id:?}"));
        let mut expected: Vec<ObjectId> = wanted.into_iter().filter(|id| *id != ObjectId::Element(123_456)).collect();
        expected.sort_by_key(|id| format!("{id:?}"));
        assert_eq!(got, expected);
        scene.overlay = vec![ObjectId::Watermark];
        assert!(all_of(&overlay(&scene)).is_empty());
    }
}
