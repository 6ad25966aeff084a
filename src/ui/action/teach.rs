//! Teaching's vocabulary (`state::teach`): presets, modes, quiz, "why?", sharing, import, locking.

use crate::codegen::Dialect;

use super::canvas::WhyPopover;

/// How much of the app is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Everything: configuration, outputs, charts, code.
    #[default]
    Normal,
    /// A lab page's iframe: canvas, playback and narration in 700×450.
    Embed,
    /// A lecture hall: large type, high contrast, presenter keys, no configuration.
    Lecture,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Normal, Mode::Embed, Mode::Lecture];

    /// The `mode=` spelling (`normal` is the default and never written).
    pub fn as_str(&self) -> &'static str {
        match self {
            Mode::Normal => "normal",
            Mode::Embed => "embed",
            Mode::Lecture => "lecture",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// What was last put on the clipboard (shown in a small box, so that it can be copied by hand
/// when the browser refuses the clipboard, e.g. inside an iframe).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareBox {
    /// `link`, `embed` or `code`.
    pub what: &'static str,
    pub text: String,
    /// Whether the clipboard took it.
    pub copied: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TeachAction {
    /// Open a location hash: `preset=`, `mode=`, `quiz=1`, and the scenario/step parameters of
    /// [`crate::ui::fragment`].
    OpenHash(String),
    /// Load a course preset at its default step.
    LoadPreset(String),
    /// Load one of the registry's examples (`teach::presets::examples`), by id.
    LoadExample(String),
    SetMode(Mode),
    ToggleQuiz,
    /// Pick option `i` (toggles it when several may be picked).
    QuizSelect(usize),
    QuizSubmit,
    Why(WhyPopover),
    CloseWhy,
    ToggleBlackout,
    Shared(ShareBox),
    CloseShare,
    /// The text of a file the user chose to import (a scenario, or a preset file).
    Import {
        name: String,
        text: String,
    },
    ImportError(String),
    /// A table (CSV, TSV, JSON Lines) to import: the mapping dialog opens on its bytes (empty:
    /// the user pastes text).
    OpenImport(ImportSource),
    /// The mapping dialog closed without loading anything.
    CloseImport,
    /// The mapping dialog's scenario (JSON text): loaded like any file (the previous one is one
    /// undo away), `summary` said in a banner.
    ImportStream {
        name: String,
        text: String,
        summary: String,
    },
    SetDialect(Dialect),
    /// A lab page locks editing (read-only) or unlocks it (`state::host`).
    Lock(bool),
}

/// A table the user chose or dropped (the extras module reads it), or `None`: the user pastes.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportSource {
    pub name: String,
    pub file: Option<web_sys::File>,
}
