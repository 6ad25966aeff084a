//! Hit testing on the scene (TIMELINE_CONTRACT.md §1): a pointer position in canvas units to the
//! object under it, topmost first, by the items' geometry, so that click, drag and "why?" work
//! the same whatever draws the scene. And the focus keys that name an object on a drawn node
//! (`data-focus`), so that a DOM focus event finds its object.

use crate::engine::Window;
use crate::engine::time::TimeWindow;
use crate::ui::action::ObjectId;

use super::layout::dims;
use super::{Backend, MarbleItem, Scene, TimerItem};

/// What is under the pointer.
#[derive(Clone, Debug, PartialEq)]
pub enum Hit {
    /// An object (the watermark handle, a marble, a timer glyph, a window band).
    Object(ObjectId),
    /// The background, in this key lane (or none: the axis, the side output lane).
    Background { lane_key: Option<String> },
}

/// Half the width of the watermark line's hit area (its stroke is 14 px wide).
const WM_HIT_HALF: f64 = 7.0;
/// A marble's hit circle: its body and 5 units round it (`marbles`' `.hit` ring draws it).
pub const MARBLE_HIT_R: f64 = dims::MARBLE_R + 5.0;
/// Half the size of a timer glyph's hit box.
const TIMER_HALF: f64 = 6.0;

impl Scene {
    /// Every element's marble in the lanes, once each, in draw order: the groups', then the
    /// lifted one (a dragged element's, drawn on top; not the origin it left behind).
    pub fn marble_items(&self) -> impl DoubleEndedIterator<Item = &MarbleItem> {
        self.marbles.iter().flat_map(|g| g.items.iter()).filter(|m| !m.origin).chain(&self.lifted)
    }

    /// The object under canvas point `(x, y)`, topmost first: the watermark handle (its line, flag
    /// and the bound's gap), marbles, timer glyphs, window bands (merged sessions are not hit).
    pub fn hit(&self, x: f64, y: f64) -> Hit {
        if self.on_watermark(x, y) {
            return Hit::Object(ObjectId::Watermark);
        }
        let marble_r = if self.two_d.is_some() { 12.0 } else { MARBLE_HIT_R };
        // With the canvas backend the overlay's marbles are drawn on top of the bulk drawing.
        if self.backend == Backend::Canvas {
            let on_top =
                self.marbles.iter().flat_map(|g| g.items.iter()).chain(self.two_d.iter().flat_map(|t| t.dots.iter()));
            if let Some(m) =
                on_top.filter(|m| self.overlay.contains(&m.id)).find(|m| (m.x - x).hypot(m.y - y) <= marble_r)
            {
                return Hit::Object(m.id);
            }
        }
        // The last drawn is on top. The SVG backend draws the lanes by tile column
        // (`TileGrid`), then in the scene's order: where marbles overlap across a column's edge,
        // the right column's is on top. (The canvas backend's groups are all of column 0.)
        let within = |m: &&MarbleItem| (m.x - x).hypot(m.y - y) <= marble_r;
        if let Some(m) = self.lifted.as_ref().filter(|m| within(m)) {
            return Hit::Object(m.id);
        }
        let in_groups = self.marbles.iter().rev().flat_map(|g| g.items.iter().rev().map(move |m| (g.column, m)));
        let mut top = None::<(i64, &MarbleItem)>;
        for (column, m) in in_groups.filter(|(_, m)| !m.origin && within(m)) {
            if top.is_none_or(|(c, _)| column > c) {
                top = Some((column, m));
            }
            if self.grid.width <= 0.0 {
                break;
            }
        }
        if let Some((_, m)) = top {
            return Hit::Object(m.id);
        }
        if let Some(m) = self.two_d.iter().flat_map(|t| t.dots.iter()).rev().find(within) {
            return Hit::Object(m.id);
        }
        if self.two_d.is_none() {
            let on = |t: &&TimerItem| (t.x - x).abs() <= TIMER_HALF && (t.y - y).abs() <= TIMER_HALF;
            let top = self.timers.iter().rev().filter(on).fold(None::<&TimerItem>, |top, t| {
                // As the marbles: the right column's on top.
                let column = |t: &TimerItem| self.grid.column(t.x);
                if top.is_none_or(|best| column(t) > column(best)) { Some(t) } else { top }
            });
            if let Some(t) = top {
                return Hit::Object(t.id);
            }
            let windows = self.windows.iter().flat_map(|g| g.items.iter()).filter(|w| !w.merged);
            let hit = windows.rev().find(|w| {
                let right = w.x0 + w.width + 1.0 + w.hatch_px.unwrap_or(0.0);
                x >= w.x0 && x <= right && y >= w.y && y <= w.y + w.height
            });
            if let Some(w) = hit {
                return Hit::Object(w.id);
            }
            if let Some(p) =
                self.partitions.iter().find(|p| p.drawn && y >= p.y && y < p.y + super::layout::dims::TRACK)
            {
                return Hit::Object(p.id);
            }
        }
        Hit::Background { lane_key: self.lane_key_at(y) }
    }

    /// Whether canvas point `(x, y)` is on the watermark's handle: its line, flag or the bound's gap.
    fn on_watermark(&self, x: f64, y: f64) -> bool {
        let w = &self.watermark;
        let on_line = (x - w.x).abs() <= WM_HIT_HALF && y >= w.top && y <= w.bottom;
        let on_flag = x >= w.label_x && x <= w.label_x + w.label_w && y >= w.top && y <= w.top + 18.0;
        let on_bound = w.bound.as_ref().is_some_and(|b| {
            let (lo, width) = (b.x.min(b.max_ts_x), (b.max_ts_x - b.x).abs().max(6.0));
            x >= lo && x <= lo + width && y >= w.top + 24.0 && y <= w.top + 38.0
        });
        on_line || on_flag || on_bound
    }

    /// Whether a press at canvas point `(x, y)` grabs something to drag (an element or the
    /// watermark: what [`Scene::hit`] finds there), for the pointer's cursor as it hovers. Looks
    /// only through the marbles of the lanes within a hit circle's reach of `y` (a marble is
    /// inside its lane, its circle may reach a little beyond: a stacked marble's, below it), found
    /// by halves among the groups (in lane order), so that a hover over 100,000 elements in many
    /// keys is a few thousand distances, not every item.
    pub fn grabs(&self, x: f64, y: f64) -> bool {
        if self.two_d.is_some() || self.lifted.is_some() {
            return matches!(self.hit(x, y), Hit::Object(ObjectId::Element(_) | ObjectId::Watermark));
        }
        let r = MARBLE_HIT_R;
        let near = |l: &super::LaneItem| y >= l.y - r && y <= l.y + l.height + r;
        self.on_watermark(x, y)
            || self.lanes.iter().enumerate().filter(|(_, l)| near(l)).any(|(lane, _)| {
                let from = self.marbles.partition_point(|g| g.lane < lane);
                let to = self.marbles.partition_point(|g| g.lane <= lane);
                self.marbles[from..to.max(from)]
                    .iter()
                    .flat_map(|g| g.items.iter())
                    .any(|m| !m.origin && (m.x - x).hypot(m.y - y) <= r)
            })
    }

    /// The key of the lane at canvas height `y`.
    pub fn lane_key_at(&self, y: f64) -> Option<String> {
        self.lanes.iter().find(|l| y >= l.y && y < l.y + l.height).map(|l| l.key.to_string())
    }
}

/// The `data-focus` name of an object (on the node a backend draws for it).
pub fn focus_key(id: &ObjectId) -> String {
    match id {
        ObjectId::Element(i) => format!("e:{i}"),
        ObjectId::Late(i) => format!("l:{i}"),
        ObjectId::WatermarkItem(i) => format!("i:{i}"),
        ObjectId::Watermark => "wm".into(),
        ObjectId::Window { key, window: Window::Global } => format!("w:{key}:global"),
        ObjectId::Window { key, window: Window::Time(tw) } => format!("w:{key}:{}:{}", tw.start, tw.end),
        ObjectId::Timer { key, time } => format!("t:{key}:{time}"),
        ObjectId::Partition(p) => format!("p:{p}"),
    }
}

/// The object a `data-focus` name stands for.
pub fn parse_focus_key(s: &str) -> Option<ObjectId> {
    if s == "wm" {
        return Some(ObjectId::Watermark);
    }
    let mut parts = s.split(':');
    let kind = parts.next()?;
    let a = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    Some(match (kind, rest.as_slice()) {
        ("e", []) => ObjectId::Element(a.parse().ok()?),
        ("l", []) => ObjectId::Late(a.parse().ok()?),
        ("i", []) => ObjectId::WatermarkItem(a.parse().ok()?),
        ("w", ["global"]) => ObjectId::Window { key: a.parse().ok()?, window: Window::Global },
        ("w", [start, end]) => ObjectId::Window {
            key: a.parse().ok()?,
            window: Window::Time(TimeWindow::new(start.parse().ok()?, end.parse().ok()?)),
        },
        ("t", [time]) => ObjectId::Timer { key: a.parse().ok()?, time: time.parse().ok()? },
        ("p", []) => ObjectId::Partition(a.parse().ok()?),
        _ => return None,
    })
}
