//! The interaction model, natively: the reducer driven through `dispatch` with the main-thread
//! runner (it answers at once), or a runner that answers later (`runs.rs`).

mod arrived;
mod compare;
mod focus;
mod host;
mod preview;
mod reducer;
mod runs;
pub(crate) mod runs_support;
pub(crate) mod scale;
pub(crate) mod staged;
mod step_later;
mod teach;
mod undo;
mod undo_patch;

use crate::engine::scenario::InputItem;
use crate::engine::{Millis, Output, Scenario};
use crate::ui::action::{Action, DragAction, DragStart, KeyInput};

use super::AppState;

pub const TUMBLING: &str = r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 10000,
    "input": [{"id": 1, "key": "A", "ts": 50000}, {"id": 2, "key": "A", "ts": 70000}, {"wm": 59999}]}"#;

pub fn scenario(json: &str) -> Scenario {
    Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))
}

/// The default start-up, then `json` loaded.
pub fn state(json: &str) -> AppState {
    let mut st = AppState::from_hash("", 1200.0);
    st.dispatch(Action::Load { scenario: Box::new(scenario(json)), step: None, banner: None });
    st
}

pub fn key(k: &str) -> Action {
    Action::Key(KeyInput::page(k))
}

pub fn canvas_key(k: &str) -> Action {
    Action::Key(KeyInput::canvas(k))
}

pub fn start(what: DragStart, px: f64, millis: f64) -> Action {
    Action::Drag(DragAction::Start { what, px, millis })
}

pub fn to(px: f64, millis: f64) -> Action {
    Action::Drag(DragAction::Move { px, millis })
}

pub fn end() -> Action {
    Action::Drag(DragAction::End)
}

pub fn ts(st: &AppState, i: usize) -> Option<Millis> {
    match st.doc.scenario.input.get(i) {
        Some(InputItem::Element(e)) => Some(e.ts),
        _ => None,
    }
}

/// (window start, element ids) of every firing up to the playhead.
pub fn fire_ids(st: &AppState) -> Vec<(Option<Millis>, Vec<i64>)> {
    st.doc.run.outputs[..st.fold.view.outputs]
        .iter()
        .filter_map(|o| match o {
            Output::Fire(f) => Some((f.window.bounds().0, f.ids.clone())),
            _ => None,
        })
        .collect()
}
