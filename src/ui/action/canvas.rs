//! The canvas's vocabulary: the objects that can be focused and selected (contract §4), focus moves,
//! drags, key presses, the context menu and the "why?" popover.

use crate::engine::trace::{ElemIdx, KeyId};
use crate::engine::{Millis, Window};

/// Keyboard focus inside the canvas (one Tab stop with roving focus, contract §4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CanvasAction {
    /// DOM focus landed on this object (Tab, a click): it becomes the selection.
    Focused(ObjectId),
    /// DOM focus left the canvas (the selection stays, for the next Tab).
    Blurred,
    /// `]`/`[` from outside the canvas: onto it, at the selected object or else the first (last) element.
    Enter(Nav),
    /// `]`/`[`, ↑/↓ on the canvas: move the focus to another object.
    Move(Nav),
    /// `W`: "why?" for the focused object, opened at page CSS px.
    Explain { x_px: f64, y_px: f64 },
    /// Escape: leave the canvas focus.
    Leave,
}

/// Where a focus move goes (contract §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nav {
    /// `]`: the next object in event time within the lane.
    Next,
    /// `[`: the previous one.
    Prev,
    /// ↑: the neighbouring lane above.
    Up,
    /// ↓: the neighbouring lane below.
    Down,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DragAction {
    Start {
        what: DragStart,
        px: f64,
        millis: f64,
    },
    Move {
        px: f64,
        millis: f64,
    },
    /// Reordering the arrival strip: the pointer is over chip `over`.
    Over(usize),
    /// With several source partitions: the pointer is over partition `n`'s row of the strip.
    OverPartition(u32),
    End,
}

/// Something on the canvas that can be selected and focused (contract §4: focus and selection are
/// one thing). Input items are named by their index in `scenario.input`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectId {
    /// An element's marble in its key lane.
    Element(usize),
    /// An element's marble in the late side output lane.
    Late(usize),
    /// An explicit watermark item (chosen in the arrival strip); on the canvas the watermark
    /// handle stands for it.
    WatermarkItem(usize),
    /// The watermark handle.
    Watermark,
    Window {
        key: KeyId,
        window: Window,
    },
    Timer {
        key: KeyId,
        time: Millis,
    },
    /// A source partition's track (its own watermark).
    Partition(u32),
}

impl ObjectId {
    /// The input item this object is, or stands for.
    pub fn input(&self) -> Option<usize> {
        match self {
            ObjectId::Element(i) | ObjectId::Late(i) | ObjectId::WatermarkItem(i) => Some(*i),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WatermarkTarget {
    /// Explicit watermarks: this input item's value follows the pointer.
    Item(usize),
    /// Bounded out-of-orderness: the bound is `max_ts - 1 - pointer`.
    Bound { max_ts: Millis },
}

/// A drag in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drag {
    Element {
        index: usize,
        grab_offset_millis: f64,
        /// On the processing-time axis the drag moves the element's arrival, not its timestamp.
        arrival: bool,
        /// The document's revision at the press: a release with no move since is a click (it
        /// explains the element), not an edit, and changes nothing.
        pressed_at: u64,
    },
    Watermark {
        target: WatermarkTarget,
    },
    /// Reordering the arrival strip: the item at `from` would be dropped at `over`, read from
    /// `partition` (the row it is over, with several partitions).
    Arrival {
        from: usize,
        over: usize,
        partition: Option<u32>,
    },
    Pan {
        last_px: f64,
    },
}

/// What a pointer went down on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DragStart {
    Element(usize),
    Watermark,
    Arrival(usize),
    Pan,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MenuTarget {
    Element(usize),
    Canvas { ts: Millis, key: Option<String> },
}

/// The context menu, at page CSS px.
#[derive(Clone, Debug, PartialEq)]
pub struct Menu {
    pub x_px: f64,
    pub y_px: f64,
    pub target: MenuTarget,
}

/// Where a key press happened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyTarget {
    /// The page: a button, the body.
    #[default]
    Page,
    /// An object on the canvas has the focus (contract §4's keys inside the canvas).
    Canvas,
    /// A select, checkbox or range: only Escape (and undo) are ours.
    Control,
    /// A field where text is typed: Ctrl+Z is the field's own undo.
    Text,
}

/// A key press, as the reducer sees it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct KeyInput {
    pub key: String,
    pub shift: bool,
    pub alt: bool,
    pub ctrl: bool,
    pub target: KeyTarget,
    /// Page CSS px of the focused canvas object's centre (where "why?" opens).
    pub anchor_px: Option<(f64, f64)>,
}

impl KeyInput {
    /// A plain key pressed on the page.
    pub fn page(key: &str) -> KeyInput {
        KeyInput { key: key.into(), ..KeyInput::default() }
    }

    /// A plain key pressed on a focused canvas object.
    pub fn canvas(key: &str) -> KeyInput {
        KeyInput { key: key.into(), target: KeyTarget::Canvas, ..KeyInput::default() }
    }

    /// In a text field, a select or a checkbox.
    pub fn in_field(&self) -> bool {
        matches!(self.target, KeyTarget::Control | KeyTarget::Text)
    }
}

/// What a "why?" explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhyTarget {
    /// An element, by its index in `run.elements`.
    Element(ElemIdx),
    Window {
        key: KeyId,
        window: Window,
    },
    Timer {
        key: KeyId,
        window: Window,
        time: Millis,
    },
    /// A source partition: its watermark, whether it is idle, whether it holds the combined one.
    Partition(u32),
}

/// The "why?" popover: its target and where it was asked (page CSS px).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WhyPopover {
    pub target: WhyTarget,
    pub x_px: f64,
    pub y_px: f64,
}
