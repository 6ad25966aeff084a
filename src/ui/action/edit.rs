//! Edits of the input items, the item editor, and the side panel.

use crate::engine::Millis;

/// Changes to the input items.
#[derive(Clone, Debug, PartialEq)]
pub enum EditAction {
    AddElement {
        key: Option<String>,
        ts: Option<Millis>,
    },
    InsertWatermark {
        wm: Option<Millis>,
    },
    Delete(usize),
    MoveInput {
        from: usize,
        to: usize,
    },
    /// The item is read from another source partition (the arrival strip's Alt+↑/↓).
    SetPartition {
        index: usize,
        partition: u32,
    },
    /// ←/→ on the selected movable object: one snap unit, or 1 ms when `fine`.
    Nudge {
        direction: i64,
        fine: bool,
    },
}

/// The key/value/timestamp editor of one input item.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorAction {
    Open(usize),
    Input(EditorField, String),
    Commit,
    Cancel,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PanelAction {
    ToggleTwoD,
    TogglePanel,
    SetTab(Tab),
    ToggleHelp,
    DismissBanner(usize),
    ShowBanner(String),
    /// Sound cues on or off (`state::sound`).
    ToggleSound,
}

/// The side panel's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Output,
    Config,
    Log,
    /// Main output, append/upsert/changelog sinks and the side output.
    Sinks,
    /// State, lag and results charts.
    Charts,
    /// The Flink program in Java, PyFlink and SQL.
    Code,
    /// The SQL view: the window TVF, its query and rows.
    Sql,
    /// Compare mode's second configuration and examples.
    Compare,
    /// The lateness report: late, dropped and late-fired elements per out-of-orderness bound.
    Lateness,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditorField {
    Key,
    Value,
    Ts,
    /// The source partition it is read from.
    Partition,
    /// Its arrival (processing time); empty: 100 ms after the item before it.
    Arrival,
}
