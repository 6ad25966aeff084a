//! A lab page's requests through the reducer: each command's actions, and the lock.

use super::{TUMBLING, canvas_key, end, key, start, state, to, ts};
use crate::ui::action::{Action, ConfigEdit, DragStart, EditAction, Field, Mode, TeachAction};
use crate::ui::state::host::{HostCommand, parse_message};

fn host(st: &mut super::AppState, json: &str) {
    let Ok(Some(command)) = parse_message(json) else { panic!("not a request: {json}") };
    for a in command.actions() {
        st.dispatch(a);
    }
}

/// Load a preset at a step, go to the end, set the mode: the same state a link would make.
#[test]
fn requests_drive_the_state() {
    let mut st = state(TUMBLING);
    host(&mut st, r#"{"type": "tidemark:load-preset", "v": 1, "preset": "lab-6-2", "step": 3}"#);
    assert_eq!(st.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"));
    assert_eq!(st.play.step, 3);
    host(&mut st, r#"{"type": "tidemark:go-to-step", "v": 1, "step": "end"}"#);
    assert_eq!(st.play.step, st.doc.steps());
    host(&mut st, r#"{"type": "tidemark:set-mode", "v": 1, "mode": "lecture"}"#);
    assert_eq!(st.teach.mode, Mode::Lecture);
    host(
        &mut st,
        r#"{"type": "tidemark:load", "v": 1, "scenario": {"name": "mine",
        "assigner": {"kind": "tumbling", "size": 1000}, "input": [{"id": 7, "key": "K", "ts": 5}]}, "step": 0}"#,
    );
    assert_eq!((st.doc.scenario.name.as_str(), st.play.step, st.teach.preset.is_none()), ("mine", 0, true));
}

/// Locked: drags, nudges, deletes, the editor, configuration and undo change nothing; the
/// playhead still moves; unlocked, the same drag edits.
#[test]
fn a_lock_makes_the_scenario_read_only() {
    let mut st = state(TUMBLING);
    st.dispatch(Action::Teach(TeachAction::Lock(true)));
    let before = st.doc.scenario.clone();
    st.dispatch(start(DragStart::Element(0), 100.0, 50000.0));
    st.dispatch(to(140.0, 52000.0));
    st.dispatch(end());
    st.dispatch(Action::Select(Some(crate::ui::action::ObjectId::Element(0))));
    st.dispatch(canvas_key("ArrowRight"));
    st.dispatch(canvas_key("Delete"));
    st.dispatch(Action::Edit(EditAction::AddElement { key: None, ts: None }));
    st.dispatch(Action::Config(ConfigEdit::Text(Field::Size, "1000".into())));
    st.dispatch(key("n"));
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario, before);
    assert!(st.chrome.editor.is_none() && st.drag.is_none());
    st.dispatch(key("Home"));
    assert_eq!(st.play.step, 0);
    st.dispatch(Action::Teach(TeachAction::Lock(false)));
    st.dispatch(start(DragStart::Element(0), 100.0, 50000.0));
    st.dispatch(to(140.0, 52000.0));
    st.dispatch(end());
    assert_eq!(ts(&st, 0), Some(52000));
}

/// `GetScenario` is a reply, not an action.
#[test]
fn get_scenario_changes_nothing() {
    assert!(HostCommand::GetScenario.actions().is_empty());
}
