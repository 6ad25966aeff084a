//! The vocabulary of the front end: every change to the state is an [`Action`], and this module names
//! them all, with the small types they carry. Nothing here changes anything: [`super::state`] reduces
//! actions, [`super::components`] and [`super::hooks`] send them.
//!
//! ```text
//!  pointer / key / timer / URL ──▶ Action ──▶ state::AppState::dispatch ──▶ state changed ──▶ components
//!                                                   └─ RunRequest ──▶ runner ──▶ Action::RunFinished / RunArrived
//! ```
//!
//! One file per concern, each a leaf (no file here imports another, so no circle can form):
//! - [`canvas`]: the objects on the canvas, focus, drags, key presses, the context menu, "why?";
//! - [`edit`]: changes to the input items, the item editor, the side panel's tabs;
//! - [`config`]: the configuration panel's fields, edits and `<select>` choices;
//! - [`compare`]: compare mode and the SQL view's window TVF;
//! - [`teach`]: presets, modes, quiz, sharing and import;
//! - [`run`]: run requests and the runners' answers.
//!
//! Everything is re-exported here, so the rest of the UI names `action::X`.

use crate::engine::Scenario;

use super::fragment::{Fragment, FragmentError, StepParam};

mod canvas;
mod compare;
mod config;
mod edit;
mod run;
mod teach;

pub use canvas::*;
pub use compare::*;
pub use config::*;
pub use edit::*;
pub use run::*;
pub use teach::*;

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Load a scenario (an example from the menu, or a test); `banner`: why.
    Load {
        scenario: Box<Scenario>,
        step: Option<StepParam>,
        banner: Option<String>,
    },
    /// The URL fragment changed (another link pasted into the same tab).
    Fragment(Box<Result<Fragment, FragmentError>>),
    /// The canvas box's size in CSS px.
    Resize {
        width_px: f64,
        height_px: f64,
    },
    Play(PlayAction),
    View(ViewAction),
    /// Select an object (or nothing); the selected object is the canvas's focus (contract §4).
    Select(Option<ObjectId>),
    /// Keyboard focus on the canvas and moves within it.
    Canvas(CanvasAction),
    Drag(DragAction),
    Edit(EditAction),
    Editor(EditorAction),
    OpenMenu(Menu),
    CloseMenu,
    Config(ConfigEdit),
    Panel(PanelAction),
    Key(KeyInput),
    /// Back to the state before the last edit (`state::undo`).
    Undo,
    Redo,
    DismissNotice,
    /// The browser refused to store the autosave (why).
    AutosaveFailed(String),
    /// A runner's answer to a run request (`super::runner`): dropped when a newer one was asked.
    RunFinished(RunFinished),
    /// A worker's answer, read by the reducer (`RunArrived`): then as `RunFinished`.
    RunArrived(RunArrived),
    /// The next stage of a worker's answer made ready while the run on show stays shown, in a
    /// task of its own (`state::staged`); ignored unless that answer (its revision) is staged.
    InstallStage {
        revision: u64,
    },
    /// The playhead's step shown, after moves of it over a large scene (`state::step_later`):
    /// its fold and scene made once for all the moves queued before.
    ShowStep,
    /// Stop the runs that are out (the Cancel button of a long run): the run on show stays, with
    /// the scenario it was made from.
    CancelRun,
    /// Presets, modes, quiz, "why?", sharing and import (`state::teach`).
    Teach(TeachAction),
    /// Compare mode and the SQL view's window TVF (`state::compare`).
    Compare(CompareAction),
}

/// The playhead and playback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayAction {
    TogglePlay,
    Pause,
    Forward,
    Back,
    First,
    Last,
    SetStep(usize),
    SetSpeed(f64),
    /// The frame clock (ms, monotonic).
    Tick {
        now_millis: f64,
    },
}

/// The visible event-time range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ViewAction {
    ZoomAt {
        px: f64,
        factor: f64,
    },
    PanBy {
        dx_px: f64,
    },
    ZoomIn,
    ZoomOut,
    Fit,
    /// Event time or processing time (the arrivals) along the axis, then fit.
    ToggleProcessingAxis,
    /// A wheel, pinch or pan gesture rested (`SETTLE_MS` without a step; a pan's release ends
    /// it by itself): a large scene shown moved since it began is built at the viewport again
    /// (`AppState::view_preview`).
    Settle,
}
