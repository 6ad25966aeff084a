//! The canvas described once, as a scene (TIMELINE_CONTRACT.md §1): items with a kind, geometry,
//! state and ids, built from the view fold at the playhead, the run's layout and the viewport.
//! A backend draws it (`components::canvas`: SVG up to 2,000 elements, Canvas 2D above); hit testing
//! ([`Scene::hit`]) and keyboard moves ([`nav`]) work on the scene, not on what was drawn.
//!
//! ```text
//!  Run ──RunLayout (layout.rs, per run)──┐
//!  Run, step ──StepFold (fold.rs)────────┼──▶ build.rs ──▶ Scene { axis, lanes, windows, timers, marbles,
//!  viewport, scale, drag, selection ─────┘                        side lane, flights, watermark, 2-D }
//!  Scene ──▶ backend (SVG) ──▶ pixels        pointer (x, y) ──▶ Scene::hit ──▶ ObjectId / lane
//!  Scene::focusables ──▶ nav::go (]/[ ↑/↓)    Scene item ──▶ label.rs ──▶ accessible name
//! ```
//!
//! Items are grouped as a backend draws them: a group of marbles (one lane, 64 input items) or
//! the windows of one lane is compared by value, so a drag redraws only the groups it changed.

mod build;
pub mod diff;
pub mod fate;
pub mod fold;
pub mod glyph;
mod hit;
pub mod label;
pub mod layout;
pub mod nav;
pub mod process;
pub mod source;
mod tvf;

use std::rc::Rc;

use crate::engine::Millis;
use crate::engine::view::{ElementOutcome, TimerStatus};
use crate::teach::ValueFormat;
use crate::ui::action::ObjectId;

pub use build::{SceneInput, room};
pub use hit::{Hit, MARBLE_HIT_R, focus_key, parse_focus_key};
pub use label::{outcome_class, outcome_text};

/// Milliseconds one step lasts at 1× speed (playback, and the animations of a step).
pub const STEP_MILLIS: f64 = 1200.0;

/// Scenes of more elements than this are drawn by the Canvas 2D backend (contract §1).
pub const SVG_MAX_ELEMENTS: usize = 2_000;

/// Which backend draws a scene. SVG draws every item as a node (up to [`SVG_MAX_ELEMENTS`]
/// elements); the Canvas 2D backend draws the items in bulk, with a DOM overlay for the objects in
/// [`Scene::overlay`] (focused, selected, dragged) and the watermark handle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    #[default]
    Svg,
    Canvas,
}

impl Backend {
    /// The backend for a scene of `elements` elements.
    pub fn for_elements(elements: usize) -> Backend {
        if elements > SVG_MAX_ELEMENTS { Backend::Canvas } else { Backend::Svg }
    }

    /// The `data-backend` value.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Svg => "svg",
            Backend::Canvas => "canvas",
        }
    }
}

/// The roving focus of an object (contract §4): the one Tab stop, or focusable by the keys only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TabStop {
    /// `tabindex="0"`: Tab enters the canvas here.
    Entry,
    /// `tabindex="-1"`.
    #[default]
    Roving,
}

impl TabStop {
    pub fn tabindex(&self) -> &'static str {
        match self {
            TabStop::Entry => "0",
            TabStop::Roving => "-1",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub key: Millis,
    pub x: f64,
    /// Where the label is drawn (kept inside the canvas at both edges).
    pub label_x: f64,
    pub label: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Axis {
    pub ticks: Vec<Tick>,
    /// The axis is processing time (the arrivals): drawn by Flink's rules, not a recorded run.
    pub processing_axis: bool,
}

/// A key lane's background.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneItem {
    pub key: Rc<str>,
    pub y: f64,
    pub height: f64,
    /// The middle of its marbles' row (`Lane::marble_y`: lower in a stretched lane).
    pub marble_y: f64,
}

/// A window band: one window of one key at the playhead.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowItem {
    pub id: ObjectId,
    pub key_name: Rc<str>,
    /// `None`: the global window.
    pub bounds: Option<(Millis, Millis)>,
    pub state: &'static str,
    pub live: bool,
    /// A merged-away session: drawn, but neither hit nor focused.
    pub merged: bool,
    pub count: usize,
    pub firings: u32,
    pub label: BandLabel,
    pub x0: f64,
    pub width: f64,
    pub y: f64,
    pub height: f64,
    /// Width of the allowed-lateness extension, when drawn.
    pub hatch_px: Option<f64>,
    pub lateness: Millis,
    /// Contents relative to the fullest window (the state bar).
    pub fill: f64,
    pub merging: bool,
    /// Animation delays (CSS): fades in, pulses (fires), its state emptied by the cleanup.
    pub born: Option<Rc<str>>,
    pub pulse: Option<Rc<str>>,
    pub emptying: Option<Rc<str>>,
    pub tab: TabStop,
}

/// What a window band says inside it. The count is not written out per band: a 100,000-element
/// stream's 65,000 bands are all narrow (their label is the count), and the canvas backend draws
/// the count itself where it fits; a text of their own cost two allocations each per scene build.
#[derive(Clone, Debug, PartialEq)]
pub enum BandLabel {
    None,
    /// The number of elements in the window's state (`WindowItem::count`).
    Count,
    Text(Rc<str>),
}

impl BandLabel {
    /// The text to show, if any, for a band of `count` elements.
    pub fn text(&self, count: usize) -> Option<String> {
        match self {
            BandLabel::None => None,
            BandLabel::Count => Some(count.to_string()),
            BandLabel::Text(t) => Some(t.to_string()),
        }
    }
}

impl WindowItem {
    /// Stable across runs: `key:bounds:merged` (the SVG backend's node key). Made when drawn, not
    /// kept in every item: the canvas backend draws its 65,000 bands of a 100,000-element stream
    /// without nodes, and formatting a key each cost ≈ 15 % of every build of the scene (a step).
    pub fn node_key(&self) -> String {
        let key = match self.id {
            ObjectId::Window { key, .. } => key,
            _ => 0,
        };
        match self.bounds {
            Some((start, end)) => format!("{key}:{start}:{end}:{}", self.merged),
            None => format!("{key}:global:{}", self.merged),
        }
    }
}

/// A timer glyph: ▼ trigger timer, ■ cleanup timer.
#[derive(Clone, Debug, PartialEq)]
pub struct TimerItem {
    pub id: ObjectId,
    pub key_name: Rc<str>,
    pub time: Millis,
    /// `trigger`, `cleanup` or `both`.
    pub kind: &'static str,
    pub purpose: &'static str,
    pub status: TimerStatus,
    pub x: f64,
    pub y: f64,
    pub born: bool,
    pub flash: Option<Rc<str>>,
    /// A keyed process function's timer (not a window's trigger or cleanup timer).
    pub function: bool,
    /// Fired, but the function ignored it: a stale timer (the RequestAssembler's request was
    /// restarted, so `timestamp != started + timeout`).
    pub ignored: bool,
    pub tab: TabStop,
}

/// A keyed process function's state expired by its TTL (processing time `at`), drawn on the
/// key's timer row at the event time `ts` of what read it.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpiryItem {
    pub key_name: Rc<str>,
    pub at: Millis,
    pub ts: Millis,
    pub x: f64,
    pub y: f64,
}

/// An element's marble in its lane (or a dot of the 2-D view).
#[derive(Clone, Debug, PartialEq)]
pub struct MarbleItem {
    pub id: ObjectId,
    /// Its input index.
    pub index: usize,
    pub elem_id: i64,
    pub key_name: Rc<str>,
    pub ts: Millis,
    pub value: i64,
    /// The scenario's unit of values (`$4.31`, not `431`).
    pub values: ValueFormat,
    pub x: f64,
    pub y: f64,
    /// Its id is drawn over it: it has room (`build::room`; always, but in the SVG backend's lanes).
    pub label: bool,
    pub outcome: Option<ElementOutcome>,
    /// Its windows and firings at the playhead (its name says them).
    pub fate: fate::Fate,
    pub selected: bool,
    /// The arrival animation's delay, when it arrived in the step just taken.
    pub anim: Option<Rc<str>>,
    /// The crossing-out animation's delay, when it was dropped in the step just taken.
    pub crossing: Option<Rc<str>>,
    pub tab: TabStop,
    /// Where a dragged element was picked up, with the SVG backend: the element itself is
    /// `Scene::lifted` and follows the pointer; this marble stays drawn where it was, its node
    /// untouched but for its test id (`element-origin`), until the run places the element. Not an
    /// object of its own: hit testing and the keys skip it (`Scene::marble_items`).
    pub origin: bool,
}

/// A group of marbles a backend draws together: one lane, up to 64 input items.
/// A list of a scene's items, shared between scenes (a patch keeps the lists it does not touch).
/// A `Vec` behind the `Rc` rather than an `Rc<[T]>`: the list is kept where it was built, where
/// `Rc<[T]>::from(Vec)` copied it into a block of its own beside the builder (at 100,000 elements
/// 10-20 MB at once, and blocks the page's memory then grew by).
pub type Items<T> = Rc<Vec<T>>;

#[derive(Clone, Debug, PartialEq)]
pub struct MarbleGroup {
    pub key: Rc<str>,
    /// Its key lane: a scene's groups are in (lane, input order) order.
    pub lane: usize,
    /// The tile column its items were placed in ([`TileGrid::column`]; 0 with the canvas backend).
    pub column: i64,
    pub items: Items<MarbleItem>,
}

/// The SVG backend draws the key lanes' windows, timers and marbles in tiles, an `<svg>` each:
/// runs of lanes cut into columns of event time (`components::canvas::backend`). A column is a
/// power of two of milliseconds long, from time 0, the largest not over a sixth of the view: so 6
/// to 12 columns show, and a pan or a small zoom leaves every item in its column (a column that
/// moved with the view would move items from tile to tile, their nodes made again, at every step
/// of a pan). The columns shown and one on each side are a tile's each; what is further left or
/// right, where a zoom puts most items, is one tile's a side ([`FAR_LEFT`], [`FAR_RIGHT`]: a tile
/// per column there was up to 1,500 `<svg>`s at 2,000 elements zoomed in). So that the backend
/// need not cut them at every render, a scene for it makes each marble and window group lie in
/// one column. The default grid is one column.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TileGrid {
    /// The x of the first column's left edge, in canvas units.
    pub origin: f64,
    /// A column's width, in canvas units (0: one column).
    pub width: f64,
    /// The first and last columns shown (from time 0).
    pub first: i64,
    pub last: i64,
}

/// The tile column of what is left of the columns near the view, and of what is right of them
/// (in draw order: first and last).
pub const FAR_LEFT: i64 = i64::MIN;
pub const FAR_RIGHT: i64 = i64::MAX;

impl TileGrid {
    /// The columns of a view.
    pub fn of(vp: &crate::ui::geometry::Viewport) -> TileGrid {
        let (range, px) = (vp.span_millis(), vp.width_px);
        let target = range / 6.0;
        if !(target.is_finite() && target >= 1.0 && px.is_finite() && px > 0.0) {
            return TileGrid::default();
        }
        // The largest power of two not over the target (doubling: no `log2` in the bundle).
        let mut span = 1.0f64;
        while span * 2.0 <= target {
            span *= 2.0;
        }
        let column = |t: f64| (t / span).floor();
        let (first, last) = (column(vp.start_millis), column(vp.end_millis));
        if !(first.is_finite() && last.is_finite() && (last - first) < 64.0) {
            return TileGrid::default();
        }
        let origin = (first * span - vp.start_millis) / range * px;
        TileGrid { origin, width: span / range * px, first: first as i64, last: last as i64 }
    }

    /// The tile column of `x`: a column near the view (from time 0), or [`FAR_LEFT`] or
    /// [`FAR_RIGHT`] further out.
    pub fn column(&self, x: f64) -> i64 {
        if !(self.width > 0.0 && x.is_finite()) {
            return 0;
        }
        // Scene x's are within ±1e6 (`clamp_px`): far from overflowing.
        let c = self.first + ((x - self.origin) / self.width).floor().clamp(-1e12, 1e12) as i64;
        match c {
            c if c < self.first - 1 => FAR_LEFT,
            c if c > self.last + 1 => FAR_RIGHT,
            c => c,
        }
    }

    /// Tile column `column`'s left edge and width, in canvas units (the default grid's one
    /// column, and the far ones: the canvas, `canvas` wide; what they draw past it is clipped).
    pub fn area(&self, column: i64, canvas: f64) -> (f64, f64) {
        if self.width.is_nan() || self.width <= 0.0 || column == FAR_LEFT || column == FAR_RIGHT {
            return (0.0, canvas);
        }
        (self.origin + (column - self.first) as f64 * self.width, self.width)
    }
}

/// Where element `index`'s marble is in `groups`: (group, position in it). A scene's groups are
/// in (lane, input order) order, as `SceneInput::marble_groups` makes them (the patches of a press
/// or a drag change items in place, never the groups' order), and each one's items in input
/// order, so each lane is searched by halves, its end found by galloping (few groups a lane where
/// keys are many, many where they are few): at 100,000 elements over 20 keys there are ≈ 31,000
/// groups, and looking through them all was ≈ 1-2.5 ms of each press, drag move and render of the
/// canvas's overlay.
pub fn find_marble(groups: &[MarbleGroup], index: usize) -> Option<(usize, usize)> {
    let mut at = 0;
    while let Some(first) = groups.get(at) {
        let lane = first.lane;
        let mut bound = 1;
        while groups.get(at + bound).is_some_and(|g| g.lane == lane) {
            bound *= 2;
        }
        let from = at + bound / 2;
        let end = from + groups[from..(at + bound).min(groups.len())].partition_point(|g| g.lane == lane);
        // The lane's first group whose last item is not before `index`.
        let g = at + groups[at..end].partition_point(|g| g.items.last().is_some_and(|m| m.index < index));
        if let Some(k) = groups
            .get(g)
            .filter(|_| g < end)
            .and_then(|group| group.items.binary_search_by_key(&index, |m| m.index).ok())
        {
            return Some((g, k));
        }
        at = end;
    }
    None
}

/// The windows of one lane (with the SVG backend, those of one lane in one tile column).
#[derive(Clone, Debug, PartialEq)]
pub struct WindowGroup {
    pub lane: usize,
    /// The tile column of its windows' starts ([`TileGrid::column`]; 0 with the canvas backend).
    pub column: i64,
    pub items: Items<WindowItem>,
}

/// An element's marble in the late side output lane.
#[derive(Clone, Debug, PartialEq)]
pub struct SideMarbleItem {
    pub id: ObjectId,
    /// Its ordinal in the run.
    pub elem: usize,
    pub elem_id: i64,
    pub ts: Millis,
    /// Its windows (its name says which it was too late for).
    pub fate: fate::Fate,
    pub x: f64,
    pub y: f64,
    /// Its id is drawn over it: it has room (`build::room`).
    pub label: bool,
    /// The drop-in animation's style, when it went there in the step just taken.
    pub drop_in: Option<Rc<str>>,
    pub tab: TabStop,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideLane {
    pub y: f64,
    pub enabled: bool,
    pub groups: Vec<(usize, Rc<[SideMarbleItem]>)>,
}

/// An element flying into its window in the step just taken.
#[derive(Clone, Debug, PartialEq)]
pub struct Flight {
    pub x: f64,
    pub y: f64,
    pub dx: f64,
    pub dy: f64,
    pub delay: Rc<str>,
}

/// Bounded out-of-orderness: the gap between the largest timestamp and the watermark.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundItem {
    pub bound: Millis,
    pub max_ts_x: f64,
    pub x: f64,
}

/// The explicit watermark item a drag moves, when it is not where the line is.
#[derive(Clone, Debug, PartialEq)]
pub struct GhostItem {
    pub wm: Millis,
    pub x: f64,
    pub text_x: f64,
    pub anchor: &'static str,
    pub text: String,
}

/// The watermark line, its flag (the handle), the bound and the ghost item.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WatermarkItem {
    pub wm: Millis,
    pub x: f64,
    pub label: String,
    pub label_x: f64,
    pub label_w: f64,
    pub top: f64,
    pub bottom: f64,
    pub active: bool,
    pub bound: Option<BoundItem>,
    pub ghost: Option<GhostItem>,
    /// What a drag of it changes (the handle's tooltip).
    pub help: &'static str,
    pub tab: TabStop,
}

/// A source partition: its track with its own watermark line (the last watermark it emitted),
/// marked idle while idle; the one at the smallest watermark among the partitions not idle holds
/// the combined watermark back.
#[derive(Clone, Debug, PartialEq)]
pub struct PartitionItem {
    pub id: ObjectId,
    pub partition: u32,
    pub wm: Millis,
    pub idle: bool,
    /// It holds the combined watermark back (the smallest watermark of the partitions not idle).
    pub holds: bool,
    /// Drawn as a track; otherwise only its test-contract node (one partition emitting per
    /// event: its watermark is the operator's line).
    pub drawn: bool,
    pub x: f64,
    pub y: f64,
    /// What the track says: `partition 1 · wm 1999`, then `idle` or `holds the watermark`.
    pub text: String,
    pub state_text: String,
    pub tab: TabStop,
}

/// While an element is dragged: its exact timestamp, and where it will snap.
#[derive(Clone, Debug, PartialEq)]
pub struct DragLabel {
    pub ts: Millis,
    pub x: f64,
    pub label_x: f64,
    pub width: f64,
    pub text: String,
    pub bottom: f64,
}

/// A window in the 2-D view: a column over its event-time span, from the step that created it to
/// the one that ended it (or the playhead).
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub node_key: Rc<str>,
    pub state: &'static str,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// The 2-D view (event time × processing time): a row per step (its line's y, done), the
/// watermark curve, the windows' columns.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoD {
    pub rows: Vec<(f64, bool)>,
    pub columns: Vec<Column>,
    pub curve: String,
    pub playhead_y: f64,
    pub dots: Rc<[MarbleItem]>,
}

/// A row of a window TVF (`window_start`, `window_end`, `window_time`, the aggregates), drawn as a
/// ◆ at its `window_time` on its window's band.
#[derive(Clone, Debug, PartialEq)]
pub struct TvfRowItem {
    pub key_name: Rc<str>,
    pub window_start: Millis,
    pub window_end: Millis,
    pub window_time: Millis,
    pub sum: i64,
    pub count: u64,
    /// The ◆'s centre.
    pub x: f64,
    pub y: f64,
    /// The text beside it, when the band has room (right-aligned, ending left of the ◆).
    pub text: Option<Rc<str>>,
    pub title: Rc<str>,
}

/// Compare mode: a window or an element that differs from the other configuration's (a dashed
/// outline and a ≠ glyph; its title says what differs).
#[derive(Clone, Debug, PartialEq)]
pub struct DiffMark {
    /// `window` or `element`.
    pub kind: &'static str,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub title: Rc<str>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub backend: Backend,
    /// Which full build this is (`SceneInput::build`; 0: none). A drag move's scene
    /// (`SceneInput::drag_moved`) keeps its build's: the canvas backend redraws its bulk only when
    /// this changes, and the dragged element follows the pointer in the DOM overlay meanwhile.
    pub generation: u64,
    /// Canvas units (the backend scales them by `scale` CSS px).
    pub width: f64,
    pub height: f64,
    pub scale: f64,
    pub axis: Axis,
    pub lanes: Vec<LaneItem>,
    /// The source partitions' tracks, above the key lanes.
    pub partitions: Rc<[PartitionItem]>,
    pub side: SideLane,
    pub windows: Vec<WindowGroup>,
    pub timers: Items<TimerItem>,
    /// State TTL expiries of a keyed process function.
    pub expiries: Rc<[ExpiryItem]>,
    pub marbles: Vec<MarbleGroup>,
    /// The SVG backend's tile columns, that the window and marble groups were cut by.
    pub grid: TileGrid,
    /// With the SVG backend, the marble of an element dragged while its run is out
    /// (`SceneInput::drag_moved`): out of `marbles`, drawn in an overlay `<svg>` of its own, so
    /// that a pointer move repaints that small drawing and not the whole scene.
    pub lifted: Option<MarbleItem>,
    pub flights: Rc<[Flight]>,
    pub watermark: WatermarkItem,
    pub drag_label: Option<DragLabel>,
    /// Before the first step: the hint where to start, at this x.
    pub hint: Option<f64>,
    pub two_d: Option<TwoD>,
    /// The window TVF's rows emitted up to the playhead.
    pub tvf_rows: Rc<[TvfRowItem]>,
    /// Compare mode's differences (`diff::Diff::mark`).
    pub marks: Vec<DiffMark>,
    pub animate: bool,
    pub anim_seq: u64,
    /// The effects' duration (CSS `--fx-ms`).
    pub fx_ms: f64,
    pub dragging: bool,
    /// Elements and windows drawn (the `scene` test hook).
    pub element_count: usize,
    pub window_count: usize,
    /// The object with `tabindex="0"`.
    pub entry: Option<ObjectId>,
    /// What the DOM overlay carries with the canvas backend: the Tab entry, the selected (focused)
    /// object and the dragged element.
    pub overlay: Vec<ObjectId>,
}
