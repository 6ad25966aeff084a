//! The state as Yew holds it ([`AppCell`]): one state changed in place, a new version per
//! change, and what an install replaces let go of while the previous version is still held (a
//! render's handles hold it until the next render).

use std::rc::{Rc, Weak};

use yew::Reducible;

use super::AppCell;
use crate::engine::{Run, Scenario};
use crate::ui::action::{Action, CanvasAction, EditAction, KeyInput, PlayAction};
use crate::ui::scene::Scene;
use crate::ui::state::AppState;
use crate::ui::state::tests::runs_support::deferring_loaded;
use crate::ui::state::tests::scale::marble;
use crate::ui::state::tests::staged::{deferring, moved};
use crate::ui::state::tests::{to, ts};

const TUMBLING: &str = r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 10000,
    "input": [{"id": 1, "key": "A", "ts": 50000}, {"id": 2, "key": "A", "ts": 70000}, {"wm": 59999}]}"#;

fn load(json: &str) -> Action {
    let scenario = Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"));
    Action::Load { scenario: Box::new(scenario), step: None, banner: None }
}

/// The default start-up on the main-thread runner, then `json` loaded.
fn state(json: &str) -> AppState {
    let mut st = AppState::from_hash("", 1200.0);
    st.dispatch(load(json));
    st
}

const OTHER: &str = r#"{"assigner": {"kind": "tumbling", "size": 10000},
    "input": [{"id": 1, "key": "B", "ts": 5000}, {"id": 2, "key": "B", "ts": 15000}, {"wm": 20000}]}"#;

/// What a document's run and scene are, weakly: gone once nothing holds them.
fn parts(cell: &AppCell) -> (Weak<Run>, Weak<Scene>) {
    let s = cell.get();
    (Rc::downgrade(&s.doc.run), Rc::downgrade(&s.scene))
}

#[test]
fn an_action_changes_the_one_state_in_place_into_a_new_version() {
    let first = Rc::new(AppCell::new(state(TUMBLING)));
    let before: *const AppState = {
        let read = first.get();
        &*read
    };
    let next = first.clone().reduce(Action::Edit(EditAction::Delete(0)));
    assert!(*next != *first, "a new version: props holding the older handle compare unequal");
    assert!(std::ptr::eq(before, &*next.get()), "the same state, changed");
    assert_eq!(next.get().doc.scenario.input.len(), 2);
    // Every handle reads the current state, the older version's too (as Yew's handles do).
    assert_eq!(first.get().doc.scenario.input.len(), 2);
}

#[test]
fn an_install_lets_go_of_the_run_and_scene_it_replaces_while_the_older_version_is_held() {
    let first = Rc::new(AppCell::new(state(TUMBLING)));
    let (run, scene) = parts(&first);
    assert!(run.upgrade().is_some() && scene.upgrade().is_some());
    // `first` stays held, as a render's handles hold their version until the next render.
    let next = first.clone().reduce(load(OTHER));
    assert_eq!(next.get().doc.run.keys, vec!["B".to_string()], "the new run is on show");
    assert!(run.upgrade().is_none(), "the replaced run is gone");
    assert!(scene.upgrade().is_none(), "the replaced scene is gone");
}

#[test]
fn a_state_read_while_an_action_comes_is_left_as_read_and_the_action_changes_a_copy() {
    let first = Rc::new(AppCell::new(state(TUMBLING)));
    let (run, _) = parts(&first);
    let read = first.get();
    let next = first.clone().reduce(load(OTHER));
    // Nothing changed under the reader's feet, and nothing panicked.
    assert_eq!(read.doc.run.keys, vec!["A".to_string()]);
    assert_eq!(next.get().doc.run.keys, vec!["B".to_string()]);
    assert!(*next != *first);
    drop(read);
    // The copy is the state from now on; the old one goes with the last handle holding it.
    assert!(run.upgrade().is_some());
    drop(first);
    assert!(run.upgrade().is_none());
    let again = next.clone().reduce(Action::Edit(EditAction::Delete(0)));
    assert!(std::ptr::eq(&*next.get(), &*again.get()), "in place again once nothing reads it");
}

#[test]
fn a_report_that_changes_nothing_keeps_the_version() {
    let first = Rc::new(AppCell::new(state(TUMBLING)));
    // The canvas had no focus: its blur changes nothing (`AppState::changes_nothing`), no render.
    assert!(Rc::ptr_eq(&first.clone().reduce(Action::Canvas(CanvasAction::Blurred)), &first));
}

#[test]
fn a_tick_between_steps_keeps_the_version_and_a_tick_that_steps_makes_one() {
    let first = Rc::new(AppCell::new(state(TUMBLING)));
    let at_start = first.clone().reduce(Action::Play(PlayAction::First));
    let playing = at_start.clone().reduce(Action::Play(PlayAction::TogglePlay));
    assert!(playing.get().play.playing);
    let step = playing.get().play.step;
    let tick = |cell: &Rc<AppCell>, now_millis: f64| cell.clone().reduce(Action::Play(PlayAction::Tick { now_millis }));
    let t0 = tick(&playing, 1000.0);
    let t1 = tick(&t0, 1001.0);
    assert!(Rc::ptr_eq(&t1, &t0), "no step yet: the same version, no render");
    // (The clock counts at most 250 ms a tick: a tab in the background.)
    let mut now = t1;
    for i in 1..100 {
        let next = tick(&now, 1001.0 + 250.0 * f64::from(i));
        if next.get().play.step != step {
            assert!(*next != *now, "the step moved: a new version");
            assert_eq!(next.get().play.step, step + 1);
            return;
        }
        assert!(Rc::ptr_eq(&next, &now));
        now = next;
    }
    panic!("no step in 25 s of ticks");
}

/// As Yew holds the state (`hooks::AppCell`): the stages before the install are no new version
/// (no render: nothing on show changed), the install is, and a stage no longer staged changes
/// nothing.
#[test]
fn only_the_install_of_a_staged_answer_renders() {
    let (st, d, _) = moved(false);
    let d = deferring(d);
    let cell = Rc::new(AppCell::new(st));
    let arrived = d.arrived().remove(0);
    let revision = arrived.revision;
    let mut now = cell.clone().reduce(Action::RunArrived(arrived));
    assert!(Rc::ptr_eq(&now, &cell), "read: no render");
    for stage in ["layout", "fold"] {
        let next = now.clone().reduce(d.next().unwrap_or_else(|| panic!("the {stage}")));
        assert!(Rc::ptr_eq(&next, &now), "the {stage}: no render");
        now = next;
    }
    assert_eq!(now.get().staging(), Some(revision));
    let installed = now.clone().reduce(d.next().unwrap_or_else(|| panic!("the install")));
    assert!(!Rc::ptr_eq(&installed, &now) && *installed != *now, "the install renders");
    assert_eq!(installed.get().run_status().0, "done");

    // A stage made stale by a move renders nothing.
    let m = marble(&installed.get(), 7);
    let moved = installed.clone().reduce(to(m.x + 40.0, 140_000.0));
    let arrived = d.arrived().remove(0);
    let staged = moved.clone().reduce(Action::RunArrived(arrived));
    let before = ts(&staged.get(), 7);
    let again = staged.clone().reduce(to(m.x + 240.0, 170_000.0));
    assert_ne!(ts(&again.get(), 7), before, "moved on");
    assert_eq!(again.get().staging(), None);
    let stale = d.next().unwrap_or_else(|| panic!("the stage deferred before the move"));
    assert!(Rc::ptr_eq(&again.clone().reduce(stale), &again), "a stale stage: no render");
}

/// 3,000 elements over 30 keys: the canvas backend.
fn spread_3000() -> String {
    let items: Vec<String> =
        (0..3000).map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 30, (i * 197) % 600_000)).collect();
    format!(r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#, items.join(","))
}

/// A playhead moved over a large scene (`state::step_later`), as Yew holds the state: the moves
/// before the show are no new version (no render), the show is; a copy rendered shows its step.
#[test]
fn moves_before_the_show_render_nothing_and_the_show_renders() {
    let (st, d) = deferring_loaded(&spread_3000());
    let end = st.play.step;
    let cell = Rc::new(AppCell::new(st));
    let mut now = cell.clone();
    for _ in 0..3 {
        let next = now.clone().reduce(Action::Key(KeyInput::page("ArrowLeft")));
        assert!(Rc::ptr_eq(&next, &now), "a move: no render");
        now = next;
    }
    assert_eq!(now.get().play.step, end - 3);
    let show = d.next().unwrap_or_else(|| panic!("a show deferred"));
    assert_eq!(show, Action::ShowStep);
    let shown = now.clone().reduce(show);
    assert!(!Rc::ptr_eq(&shown, &now) && *shown != *now, "the show renders");
    assert_eq!(shown.get().fold.view.step, end - 3);
    // A show no longer waited for (shown already) renders nothing.
    assert!(Rc::ptr_eq(&shown.clone().reduce(Action::ShowStep), &shown));
    // The state read up the stack (a handler holding it): the move goes to a copy, which is
    // rendered, so its step is shown in it at once.
    let guard = shown.get();
    let copy = shown.clone().reduce(Action::Play(PlayAction::Back));
    drop(guard);
    assert!(!Rc::ptr_eq(&copy, &shown));
    let c = copy.get();
    assert_eq!((c.play.step, c.fold.view.step), (end - 4, end - 4), "the copy shows its step");
    assert!(!c.step_waiting());
}
