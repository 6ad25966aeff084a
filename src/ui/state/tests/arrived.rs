//! A worker's answer read by the reducer (`Action::RunArrived`): installed as the same answer read
//! first would be, read only after the run on show, its layout, fold and scene are let go of (the
//! install makes them anew), and when it is not installed after all, the run on show is as it was
//! (made again from its scenario: unreadable) or kept (a proposal that may be refused).

use std::cell::Cell;
use std::rc::Rc;

use super::runs_support::{Later, later_loaded};
use super::*;
use crate::ui::action::TriggerChoice;
use crate::ui::action::{ConfigEdit, EditAction, Field, PlayAction, RunArrived};
use crate::ui::runner::RunFinished;
use crate::ui::scene::Scene;
use crate::ui::scene::fate::{ElemFate, Fates};
use crate::ui::scene::layout::RunLayout;

/// The same answer, unread: read by handing `read` the spare run it is read into, then handing
/// over its run.
fn unread(answer: RunFinished, read: impl FnOnce(Option<&crate::engine::Run>) + 'static) -> RunArrived {
    RunArrived::new(answer.revision, answer.slot, move |spare| {
        read(spare.as_ref());
        (answer.result.map(|run| (*run).clone()), None)
    })
}

/// A scene without its build's number (two builds of one moment differ only there).
pub(super) fn drawn(scene: &Scene) -> Scene {
    Scene { generation: 0, ..scene.clone() }
}

/// A layout with its element fates compared by value (`Fates` compare by identity: one table per
/// run).
pub(super) fn same_layout(a: &RunLayout, b: &RunLayout) -> bool {
    let none = Fates::default();
    let fates = |l: &RunLayout| -> Vec<ElemFate> { (0..l.fates.len()).map(|e| l.fates.elem(e)).collect() };
    RunLayout { fates: none.clone(), ..a.clone() } == RunLayout { fates: none, ..b.clone() } && fates(a) == fates(b)
}

/// A state with the course-sized scenario loaded, the playhead mid-way, and an edit whose run is out.
fn edited() -> (AppState, RunFinished) {
    let (st, answer, _) = edited_later();
    (st, answer)
}

/// [`edited`], with the runner that answers later.
fn edited_later() -> (AppState, RunFinished, Rc<Later>) {
    let (mut st, later) = later_loaded(TUMBLING);
    st.dispatch(Action::Play(PlayAction::SetStep(2)));
    st.dispatch(Action::Edit(EditAction::Delete(0)));
    let mut answers = later.take();
    assert_eq!(answers.len(), 1);
    (st, answers.remove(0), later)
}

#[test]
fn an_arrived_answer_is_installed_as_the_same_answer_read_first() {
    let (mut read_first, answer) = edited();
    let (mut arrived, _) = edited();
    read_first.dispatch(Action::RunFinished(answer.clone()));
    arrived.dispatch(Action::RunArrived(unread(answer, |_| {})));
    assert_eq!(arrived.run_status().0, "done");
    assert_eq!(arrived.doc.run.outputs, read_first.doc.run.outputs);
    assert_eq!(arrived.doc.run.elements.len(), 1);
    assert!(same_layout(&arrived.doc.layout, &read_first.doc.layout));
    assert_eq!(arrived.fold, read_first.fold);
    assert_eq!(drawn(&arrived.scene), drawn(&read_first.scene));
    assert_eq!(arrived.play.step, read_first.play.step);
}

#[test]
fn the_run_on_show_its_layout_fold_and_scene_go_before_an_answer_is_read() {
    let (mut st, answer) = edited();
    let run = Rc::downgrade(&st.doc.run);
    let layout = Rc::downgrade(&st.doc.layout);
    let fold = Rc::downgrade(&st.fold);
    let scene = Rc::downgrade(&st.scene);
    let events = st.doc.run.trace.len();
    let seen = Rc::new(Cell::new(None));
    let (look, spare) = (seen.clone(), Rc::new(Cell::new(None)));
    let spare_seen = spare.clone();
    st.dispatch(Action::RunArrived(unread(answer, move |s| {
        spare_seen.set(s.map(|s| s.trace.len()));
        look.set(Some((
            run.upgrade().is_none(),
            layout.upgrade().is_none(),
            fold.upgrade().is_none(),
            scene.upgrade().is_none(),
        )))
    })));
    assert_eq!(seen.get(), Some((true, true, true, true)), "(run, layout, fold, scene) gone when read");
    assert_eq!(spare.get(), Some(events), "read into the old run's memory");
    assert_eq!(st.doc.run.elements.len(), 1, "installed");
}

#[test]
fn a_worker_error_leaves_the_run_on_show_as_it_was() {
    let (mut st, answer) = edited();
    let (run, layout, fold, scene) = (st.doc.run.clone(), st.doc.layout.clone(), st.fold.clone(), st.scene.clone());
    let events = run.trace.len();
    drop(run);
    // The spare is handed back unread, as `runner::read_answer` does for the worker's error.
    let error = RunArrived::new(answer.revision, answer.slot, |spare| (Err("the worker was ended".to_string()), spare));
    st.dispatch(Action::RunArrived(error));
    assert!(st.chrome.banners.iter().any(|b| b.contains("the worker was ended")), "{:?}", st.chrome.banners);
    assert_eq!(st.run_status().0, "error");
    assert_eq!(st.doc.run.trace.len(), events, "the run on show, back");
    assert!(same_layout(&st.doc.layout, &layout));
    assert_eq!(*st.fold, *fold);
    assert_eq!(drawn(&st.scene), drawn(&scene));
}

#[test]
fn an_answer_unreadable_once_read_into_the_run_on_show_asks_for_the_run_again() {
    let (mut st, answer, later) = edited_later();
    let (layout, fold, scene) = (st.doc.layout.clone(), st.fold.clone(), st.scene.clone());
    let (mut settled, _) = edited();
    settled.dispatch(Action::RunFinished(answer.clone()));
    // The spare is consumed, as a read into it that fails midway leaves it.
    let cut = RunArrived::new(answer.revision, answer.slot, |_| (Err("the answer is cut short".to_string()), None));
    st.dispatch(Action::RunArrived(cut));
    assert!(st.chrome.banners.iter().any(|b| b.contains("the answer is cut short")), "{:?}", st.chrome.banners);
    // No run on show, as before the first one, and the run is asked for again (not run here).
    assert_eq!(st.run_status().0, "running");
    assert!(st.doc.run.elements.is_empty() && st.doc.shown_scenario.input.is_empty());
    assert!(!same_layout(&st.doc.layout, &layout) && *st.fold != *fold && drawn(&st.scene) != drawn(&scene));
    let again = later.take();
    assert_eq!(again.len(), 1, "one request");
    for a in again {
        st.dispatch(Action::RunFinished(a));
    }
    assert_eq!(st.run_status().0, "done");
    assert_eq!(st.doc.run.outputs, settled.doc.run.outputs);
    assert!(same_layout(&st.doc.layout, &settled.doc.layout));
    assert_eq!(*st.fold, *settled.fold);
    assert_eq!(drawn(&st.scene), drawn(&settled.scene));
}

#[test]
fn a_refused_proposal_read_late_leaves_the_run_on_show_as_it_was() {
    let (mut st, later) = later_loaded(TUMBLING);
    st.dispatch(Action::Config(ConfigEdit::Trigger(TriggerChoice::ContinuousEventTime)));
    later.answer_all(&mut st);
    let (run, layout, scene) = (st.doc.run.clone(), st.doc.layout.clone(), st.scene.clone());
    // An interval of 0 ms: Flink builds the job, which then fails (`/ by zero`).
    st.dispatch(Action::Config(ConfigEdit::Text(Field::TriggerInterval, "0".into())));
    let answers = later.take();
    assert_eq!(answers.len(), 1);
    let answer = answers.into_iter().next().unwrap_or_else(|| panic!("one answer"));
    st.dispatch(Action::RunArrived(unread(answer, |_| {})));
    let errors = st.config.errors(&st.doc.scenario);
    assert!(errors.get(&Field::TriggerInterval).is_some_and(|e| e.contains("/ by zero")), "{errors:?}");
    assert!(Rc::ptr_eq(&st.doc.run, &run), "refused: the run on show stays");
    assert!(same_layout(&st.doc.layout, &layout));
    assert_eq!(drawn(&st.scene), drawn(&scene));
}

/// A configuration candidate refused while a drop's run was out (its answer stale by then): the
/// run of the scenario with the drop is asked for again, so the run on show is the scenario's.
#[test]
fn a_refusal_after_a_drop_asks_for_the_drops_run_again() {
    let (mut st, later) = later_loaded(TUMBLING);
    st.dispatch(Action::Config(ConfigEdit::Trigger(TriggerChoice::ContinuousEventTime)));
    later.answer_all(&mut st);
    let m = st.scene.marble_items().find(|m| m.index == 1).cloned().unwrap_or_else(|| panic!("marble 1"));
    st.dispatch(start(DragStart::Element(1), m.x, m.ts as f64));
    st.dispatch(to(m.x + 40.0, (m.ts + 20_000) as f64));
    st.dispatch(end());
    let dropped = st.doc.scenario.clone();
    st.dispatch(Action::Config(ConfigEdit::Text(Field::TriggerInterval, "0".into())));
    let answers = later.take();
    assert_eq!(answers.len(), 3, "the move, the drop and the candidate");
    for a in answers {
        st.dispatch(Action::RunFinished(a));
    }
    let errors = st.config.errors(&st.doc.scenario);
    assert!(errors.get(&Field::TriggerInterval).is_some_and(|e| e.contains("/ by zero")), "{errors:?}");
    assert!(Rc::ptr_eq(&st.doc.scenario, &dropped), "the drop stays");
    assert_eq!(st.run_status().0, "running", "its run asked for again");
    later.answer_all(&mut st);
    assert_eq!(st.run_status().0, "done");
    assert!(Rc::ptr_eq(&st.doc.shown_scenario, &st.doc.scenario), "the run on show is the scenario's");
}

#[test]
fn a_stale_arrived_answer_is_dropped_and_lets_go_of_nothing() {
    let (mut st, answer) = edited();
    st.dispatch(Action::Edit(EditAction::Delete(0)));
    let scene = st.scene.clone();
    let read = Rc::new(Cell::new(false));
    let was_read = read.clone();
    st.dispatch(Action::RunArrived(unread(answer, move |_| was_read.set(true))));
    assert!(!read.get(), "dropped as stale, unread");
    assert!(Rc::ptr_eq(&st.scene, &scene), "the scene on show was not let go of");
    assert_eq!(st.run_status().0, "running");
}

#[test]
fn an_answer_is_read_once() {
    let (_, answer) = edited();
    let reads = Rc::new(Cell::new(0));
    let count = reads.clone();
    let a = unread(answer, move |_| count.set(count.get() + 1));
    assert!(a.read(None).0.result.is_ok());
    assert!(a.clone().read(None).0.result.is_err(), "a second read is an error");
    assert_eq!(reads.get(), 1);
}

/// The output list's `outputs_version` holds over an answer read into the old run's memory when the
/// rows are the same (an element moved within its window), and moves when they differ.
#[test]
fn an_answer_read_into_the_old_run_keeps_the_outputs_version_when_the_rows_are_the_same() {
    use crate::ui::action::DragStart;
    let (mut st, later) = later_loaded(TUMBLING);
    let version = st.doc.outputs_version;
    let drag_to = |st: &mut AppState, millis: f64| {
        let from = ts(st, 0).unwrap_or_else(|| panic!("element 0")) as f64;
        st.dispatch(start(DragStart::Element(0), 500.0, from));
        st.dispatch(to(520.0, millis));
        st.dispatch(end());
        let answer = later.take().pop().unwrap_or_else(|| panic!("a run was asked for"));
        st.dispatch(Action::RunArrived(unread(answer, |spare| assert!(spare.is_some(), "read into the old run"))));
        assert_eq!(st.run_status().0, "done");
    };
    drag_to(&mut st, 55_000.0);
    assert_eq!(ts(&st, 0), Some(55_000));
    assert_eq!(st.doc.outputs_version, version, "within its window: the same rows");
    drag_to(&mut st, 65_000.0);
    assert_eq!(ts(&st, 0), Some(65_000));
    assert_eq!(st.doc.outputs_version, version + 1, "into the next window: other rows");
}
