//! A playhead moved over a large scene (`state::step_later`): the moves queued before the
//! deferred `ShowStep` move the playhead and show nothing; `ShowStep` shows what stepping there at
//! once shows; any other action shows the step with itself; small scenes and runners that cannot
//! defer step at once; as Yew holds the state, the moves before the show are no new version.

use std::rc::Rc;

use super::arrived::drawn;
use super::runs_support::{deferring_loaded, later_loaded};
use super::scale::spread;
use super::*;
use crate::ui::action::PlayAction;
use crate::ui::scene::{Backend, Scene};

/// The deferred `ShowStep`s.
fn shows(d: &super::runs_support::Deferring) -> usize {
    d.deferred.borrow().iter().filter(|a| **a == Action::ShowStep).count()
}

/// What `st` shows equals what `direct` shows: fold and scene (but its build's number and the
/// count of playhead moves its animations are numbered by), playhead.
fn same_step_on_show(st: &AppState, direct: &AppState) {
    assert_eq!(st.play.step, direct.play.step);
    assert_eq!(st.fold_key.1, st.play.step, "the fold is the playhead's");
    assert!(*st.fold == *direct.fold, "the same fold");
    let scene = |st: &AppState| Scene { anim_seq: 0, ..drawn(&st.scene) };
    let (a, b) = (scene(st), scene(direct));
    assert_eq!(a.animate, b.animate);
    assert!(a.marbles == b.marbles, "the same marbles");
    assert!(a.windows == b.windows, "the same windows");
    assert!(a.timers == b.timers, "the same timers");
    assert!(a == b, "the same scene");
}

#[test]
fn held_keys_over_a_large_scene_move_the_playhead_and_the_step_is_shown_once() {
    let json = spread(3000);
    let (mut st, d) = deferring_loaded(&json);
    // The same actions on a runner that cannot defer: every step shown at once.
    let (mut direct, _) = later_loaded(&json);
    assert_eq!(st.scene.backend, Backend::Canvas);
    let end = st.play.step;
    assert_eq!(end, 3000, "at the end");
    let (fold, scene) = (st.fold.clone(), st.scene.clone());
    for k in 1..=5 {
        let key = Action::Key(KeyInput::page("ArrowLeft"));
        st.dispatch(key.clone());
        direct.dispatch(key);
        assert_eq!(st.play.step, end - k, "key {k} moved the playhead");
        assert!(Rc::ptr_eq(&st.fold, &fold) && Rc::ptr_eq(&st.scene, &scene), "key {k}: nothing made yet");
        assert!(st.step_waiting());
        assert_eq!(shows(&d), 1, "one show asked for, by the first key");
        assert_eq!(direct.fold_key.1, end - k, "at once where the runner cannot defer");
    }
    // The slider and the step buttons count as moves of the playhead too.
    for a in [PlayAction::SetStep(end - 40), PlayAction::Forward] {
        st.dispatch(Action::Play(a));
        direct.dispatch(Action::Play(a));
    }
    assert_eq!((st.play.step, shows(&d)), (end - 39, 1));
    assert!(!st.changes_nothing(&Action::ShowStep));
    d.show_steps(&mut st);
    assert!(!st.step_waiting());
    assert!(!Rc::ptr_eq(&st.fold, &fold) && !Rc::ptr_eq(&st.scene, &scene), "made at the show");
    same_step_on_show(&st, &direct);
    // Back to where the scene was made: shown again, as at once.
    st.dispatch(Action::Play(PlayAction::Last));
    direct.dispatch(Action::Play(PlayAction::Last));
    d.show_steps(&mut st);
    same_step_on_show(&st, &direct);
}

#[test]
fn another_action_shows_the_step_with_itself_and_the_show_then_changes_nothing() {
    let (mut st, d) = deferring_loaded(&spread(3000));
    let end = st.play.step;
    st.dispatch(Action::Play(PlayAction::Back));
    st.dispatch(Action::Play(PlayAction::Back));
    assert!(st.step_waiting());
    st.dispatch(Action::Resize { width_px: 1100.0, height_px: 800.0 });
    assert!(!st.step_waiting());
    assert_eq!(st.fold_key.1, end - 2, "shown with the resize");
    let fold = st.fold.clone();
    assert!(st.changes_nothing(&Action::ShowStep), "the show that was out changes nothing");
    // A move after it asks for a show of its own (the one out was spent).
    st.dispatch(Action::Play(PlayAction::Back));
    assert!(st.step_waiting());
    assert_eq!(shows(&d), 2);
    d.show_steps(&mut st);
    assert_eq!(st.fold_key.1, end - 3);
    assert!(!Rc::ptr_eq(&st.fold, &fold));
}

/// 3,000 elements, then a watermark and an element late for its window, sent to the side output.
fn with_a_late_element() -> String {
    let items: Vec<String> = (0..3000)
        .map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 30, (i * 197) % 600_000))
        .chain([r#"{"wm": 550000}"#.to_string(), r#"{"id": 9000, "key": "k1", "ts": 1000}"#.to_string()])
        .collect();
    format!(
        r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "side_output": true, "input": [{}]}}"#,
        items.join(",")
    )
}

/// An action queued behind moves acts on the step they moved to, as after moves shown at once:
/// Home then Delete, with the side-output element selected at the end, deletes nothing (at step
/// 0 it is not late: the selection is gone); End then `w` from step 0 inserts the watermark the
/// end's fold suggests (its largest timestamp), not step 0's.
#[test]
fn an_action_queued_behind_moves_acts_on_their_step() {
    let json = with_a_late_element();
    let late = crate::ui::action::ObjectId::Late(3001);
    for (start, keys) in [(None, ["Home", "Delete"]), (Some(PlayAction::First), ["End", "w"])] {
        let (mut st, d) = deferring_loaded(&json);
        let (mut direct, _) = later_loaded(&json);
        assert_eq!(st.scene.backend, Backend::Canvas);
        for s in [&mut st, &mut direct] {
            match start {
                Some(a) => s.dispatch(Action::Play(a)),
                None => {
                    assert!(s.exists(&late), "the late element is on the side output at the end");
                    s.dispatch(Action::Select(Some(late)));
                }
            }
        }
        d.show_steps(&mut st);
        for key in keys {
            st.dispatch(Action::Key(KeyInput::page(key)));
            direct.dispatch(Action::Key(KeyInput::page(key)));
        }
        d.show_steps(&mut st);
        assert!(st.doc.scenario.input == direct.doc.scenario.input, "{keys:?}: the same edit, or none");
        assert_eq!(st.selection, direct.selection, "{keys:?}");
        same_step_on_show(&st, &direct);
    }
}

#[test]
fn svg_scenes_and_runners_that_cannot_defer_show_every_step_at_once() {
    let (mut st, d) = deferring_loaded(&spread(300));
    assert_eq!(st.scene.backend, Backend::Svg);
    let end = st.play.step;
    st.dispatch(Action::Play(PlayAction::Back));
    assert_eq!((st.fold_key.1, shows(&d)), (end - 1, 0));
    let (mut st, d) = deferring_loaded(&spread(3000));
    d.fails.set(true);
    let end = st.play.step;
    st.dispatch(Action::Play(PlayAction::Back));
    assert!(!st.step_waiting());
    assert_eq!((st.fold_key.1, shows(&d)), (end - 1, 0));
}
