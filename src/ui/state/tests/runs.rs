//! Engine runs as effects (TIMELINE_CONTRACT.md §3) with a runner that answers later: the reducer
//! never runs the engine, an answer for an older revision is dropped, and the run-status hook says
//! what is out.

use std::rc::Rc;

use super::runs_support::Later;
use super::*;
use crate::ui::action::{ConfigEdit, Field};

fn answer_all(st: &mut AppState, later: &Later) {
    later.answer_all(st);
}

/// A drag's moves each ask for a run; an answer for an older revision than the newest is dropped,
/// and the run-status says `running` until the newest is back.
#[test]
fn answers_for_older_revisions_are_dropped() {
    let later = Rc::new(Later::default());
    let mut st = AppState::start("", Ok(None), 1200.0, later.clone());
    assert_eq!(st.run_status().0, "running", "the first run is out");
    answer_all(&mut st, &later);
    assert_eq!(st.run_status().0, "done");
    st.dispatch(Action::Load { scenario: Box::new(scenario(TUMBLING)), step: None, banner: None });
    answer_all(&mut st, &later);
    let shown = st.doc.run.clone();
    st.dispatch(start(DragStart::Element(0), 500.0, 50_000.0));
    for millis in [61_000.0, 62_000.0, 63_000.0] {
        st.dispatch(to(600.0, millis));
    }
    assert!(Rc::ptr_eq(&st.doc.run, &shown), "the reducer ran nothing");
    let answers = later.take();
    assert_eq!(answers.len(), 3, "one request per move");
    let (state, newest) = st.run_status();
    assert_eq!((state, newest), ("running", answers[2].revision));
    // The older answers come back last: dropped.
    let mut answers = answers.into_iter();
    let (first, second, third) = (answers.next(), answers.next(), answers.next());
    st.dispatch(Action::RunFinished(third.unwrap_or_else(|| panic!("three answers"))));
    assert_eq!(st.run_status().0, "done");
    let installed = st.doc.run.clone();
    assert_eq!(installed.elements[0].ts, 63_000);
    for old in [first, second].into_iter().flatten() {
        st.dispatch(Action::RunFinished(old));
    }
    assert!(Rc::ptr_eq(&st.doc.run, &installed), "stale answers are dropped");
    assert_eq!(st.doc.shown, newest);
}

/// A configuration candidate waits for its run: accepted then (one undo step), or refused
/// when its job newly fails, the scenario untouched.
#[test]
fn configuration_candidates_wait_for_their_run() {
    let later = Rc::new(Later::default());
    let mut st = AppState::start("", Ok(None), 1200.0, later.clone());
    answer_all(&mut st, &later);
    st.dispatch(Action::Load { scenario: Box::new(scenario(TUMBLING)), step: None, banner: None });
    answer_all(&mut st, &later);
    let before = st.doc.scenario.clone();
    let undo = st.edits.history.undo_len();
    st.dispatch(Action::Config(ConfigEdit::Text(Field::Lateness, "20s".into())));
    assert_eq!(*st.doc.scenario, *before, "not on show before its run");
    assert_eq!(st.run_status().0, "running");
    answer_all(&mut st, &later);
    assert_eq!(st.doc.scenario.allowed_lateness, Some(20_000));
    assert_eq!(st.edits.history.undo_len(), undo + 1);
    assert_eq!(st.edits.peek(true).as_deref(), Some("change the lateness"));
    st.dispatch(Action::Undo);
    answer_all(&mut st, &later);
    assert_eq!(*st.doc.scenario, *before);
}

/// While a run is out the input on show and the run on show differ: the dragged marble follows
/// the pointer at once, and what reads the run by index (the fold) reads it with the scenario it
/// was made from — also when an element was deleted and the indices moved.
#[test]
fn the_run_on_show_is_read_with_its_own_scenario() {
    use crate::ui::action::{EditAction, PlayAction};
    let later = Rc::new(Later::default());
    let mut st = AppState::start("", Ok(None), 1200.0, later.clone());
    st.dispatch(Action::Load { scenario: Box::new(scenario(TUMBLING)), step: None, banner: None });
    answer_all(&mut st, &later);
    st.dispatch(Action::Play(PlayAction::SetStep(3)));
    st.dispatch(start(DragStart::Element(1), 500.0, 70_000.0));
    st.dispatch(to(600.0, 65_000.0));
    let marble = |st: &AppState, index: usize| st.scene.marble_items().find(|m| m.index == index).map(|m| m.ts);
    assert_eq!(marble(&st, 1), Some(65_000), "the marble follows the pointer before its run is back");
    assert_eq!(st.doc.run.elements[1].ts, 70_000, "the run on show is the old one");
    st.dispatch(end());
    st.dispatch(Action::Edit(EditAction::Delete(0)));
    assert_eq!(st.doc.scenario.input.len(), 2);
    assert_eq!(st.doc.shown_scenario.input.len(), 3, "the run's scenario");
    for step in 0..=3 {
        st.dispatch(Action::Play(PlayAction::SetStep(step)));
    }
    answer_all(&mut st, &later);
    assert!(Rc::ptr_eq(&st.doc.scenario, &st.doc.shown_scenario), "nothing out: one scenario");
    assert_eq!((st.doc.run.elements.len(), marble(&st, 0)), (1, Some(65_000)));
}

/// The Cancel button of a long run: the scenario goes back to the one whose run is on show, as a
/// newer revision (run-status `done`), the run on show stays, the cancelled run's late answer is
/// stale, and an undo brings the cancelled load back (with a run of its own).
#[test]
fn a_cancelled_run_leaves_the_previous_result_on_show() {
    let later = Rc::new(Later::default());
    let mut st = AppState::start("", Ok(None), 1200.0, later.clone());
    answer_all(&mut st, &later);
    st.dispatch(Action::Load { scenario: Box::new(scenario(TUMBLING)), step: None, banner: None });
    answer_all(&mut st, &later);
    let (shown_scenario, shown_run) = (st.doc.scenario.clone(), st.doc.run.clone());
    let step_on_show = st.play.step;
    let mut big = scenario(TUMBLING);
    big.name = "big".to_string();
    big.input.truncate(1);
    st.dispatch(Action::Load { scenario: Box::new(big), step: None, banner: None });
    let (state, asked) = st.run_status();
    assert_eq!(state, "running");
    let cancelled = later.take();
    st.dispatch(Action::CancelRun);
    let (state, revision) = st.run_status();
    assert_eq!(state, "done", "nothing is out");
    assert!(revision > asked, "the cancel is a newer revision: {revision} > {asked}");
    assert_eq!(st.doc.scenario, shown_scenario, "the scenario of the run on show is back");
    assert!(Rc::ptr_eq(&st.doc.run, &shown_run), "the run on show stays");
    assert_eq!(st.play.step, step_on_show, "at the playhead it was shown at (the load had moved it)");
    assert!(st.chrome.banners.iter().any(|b| b.contains("cancelled")));
    for old in cancelled {
        st.dispatch(Action::RunFinished(old));
    }
    assert!(Rc::ptr_eq(&st.doc.run, &shown_run), "the cancelled run's answer is stale");
    assert_eq!(st.run_status().0, "done");
    // Nothing out: a second cancel changes nothing.
    let revision = st.run_status().1;
    st.dispatch(Action::CancelRun);
    assert_eq!(st.run_status(), ("done", revision));
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.name, "big", "undo brings the cancelled load back");
    answer_all(&mut st, &later);
    assert_eq!(st.doc.run.elements.len(), 1);
}
