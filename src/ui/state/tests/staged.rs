//! A worker's answer installed in stages (`state::staged`): the run on show stays shown, whole,
//! until the last stage, which installs what installing the answer at once would; a newer
//! request, a cancel or a step of the playhead in between are honoured.

use std::rc::Rc;

use super::arrived::{drawn, same_layout};
use super::runs_support::{Deferring, Later, deferring_loaded, later_loaded};
use super::scale::{marble, spread};
use super::*;
use crate::ui::action::{ConfigEdit, Field, PlayAction};
use crate::ui::state::staged::STAGED_MAX_ITEMS;

/// The parts on show, to be compared by identity.
type Shown = (
    Rc<crate::engine::Run>,
    Rc<crate::ui::scene::layout::RunLayout>,
    Rc<crate::ui::scene::fold::StepFold>,
    Rc<crate::ui::scene::Scene>,
);

fn shown(st: &AppState) -> Shown {
    (st.doc.run.clone(), st.doc.layout.clone(), st.fold.clone(), st.scene.clone())
}

fn still_shown(st: &AppState, was: &Shown) -> bool {
    Rc::ptr_eq(&st.doc.run, &was.0)
        && Rc::ptr_eq(&st.doc.layout, &was.1)
        && Rc::ptr_eq(&st.fold, &was.2)
        && Rc::ptr_eq(&st.scene, &was.3)
}

/// The same as `direct` on show: run, layout, fold, scene (but its build's number), playhead.
fn same_on_show(st: &AppState, direct: &AppState) {
    assert_eq!(st.run_status().0, "done");
    assert_eq!(st.doc.run.outputs, direct.doc.run.outputs);
    assert_eq!(st.doc.run.trace, direct.doc.run.trace);
    assert!(same_layout(&st.doc.layout, &direct.doc.layout));
    assert_eq!(*st.fold, *direct.fold);
    assert_eq!(drawn(&st.scene), drawn(&direct.scene));
    assert_eq!(st.play.step, direct.play.step);
}

/// 3,000 elements (the canvas backend), the playhead mid-way, element 7 pressed and moved: the
/// move's run is out. Staged on a deferring runner, at once on one that does not.
pub(crate) fn moved(at_once: bool) -> (AppState, Option<Rc<Deferring>>, Option<Rc<Later>>) {
    let json = spread(3000);
    let (mut st, deferring, later) = if at_once {
        let (st, later) = later_loaded(&json);
        (st, None, Some(later))
    } else {
        let (st, d) = deferring_loaded(&json);
        (st, Some(d), None)
    };
    st.dispatch(Action::Play(PlayAction::SetStep(1800)));
    if let Some(d) = &deferring {
        d.show_steps(&mut st);
    }
    let m = marble(&st, 7);
    st.dispatch(start(DragStart::Element(7), m.x, 0.0));
    let answer_all = |st: &mut AppState| match (&deferring, &later) {
        (Some(d), _) => d.later.answer_all(st),
        (_, Some(l)) => l.answer_all(st),
        _ => {}
    };
    answer_all(&mut st);
    st.dispatch(to(m.x + 100.0, 123_000.0));
    (st, deferring, later)
}

/// The state of [`moved`] with the move's answer installed at once.
fn moved_at_once() -> AppState {
    let (mut st, _, later) = moved(true);
    let Some(later) = later else { panic!("a later runner") };
    for a in later.take() {
        st.dispatch(Action::RunArrived(super::runs_support::unread(a)));
    }
    assert_eq!(st.staging(), None, "a runner that cannot defer installs at once");
    st
}

pub(crate) fn deferring(d: Option<Rc<Deferring>>) -> Rc<Deferring> {
    d.unwrap_or_else(|| panic!("a deferring runner"))
}

#[test]
fn an_answer_is_installed_in_stages_as_it_is_at_once_and_the_run_on_show_stays_until_then() {
    let direct = moved_at_once();
    let (mut st, d, _) = moved(false);
    let d = deferring(d);
    let was = shown(&st);
    let arrived = d.arrived();
    assert_eq!(arrived.len(), 1);
    let revision = arrived[0].revision;
    st.dispatch(Action::RunArrived(arrived[0].clone()));
    // Read, and three stages more: its layout, its fold, its install; each deferred by the one before.
    let mut made_fold = None;
    for stage in 0..3 {
        if stage == 2 {
            made_fold = st.staged_parts().1;
            assert!(st.staged_parts().0.is_some() && made_fold.is_some(), "layout and fold made");
        }
        assert_eq!(st.staging(), Some(revision), "stage {stage}");
        assert!(still_shown(&st, &was), "the run on show stays whole before stage {stage}");
        assert_eq!(st.run_status().0, "running");
        let next = d.next();
        assert_eq!(next, Some(Action::InstallStage { revision }));
        assert!(d.next().is_none(), "one stage at a time");
        assert!(!st.changes_nothing(&Action::InstallStage { revision }));
        st.dispatch(Action::InstallStage { revision });
    }
    assert_eq!(st.staging(), None);
    assert!(d.next().is_none(), "no stage after the install");
    assert!(!Rc::ptr_eq(&st.doc.run, &was.0));
    same_on_show(&st, &direct);
    assert_eq!(st.fold_key, (revision, st.play.step), "the fold on show is the installed run's");
    assert!(made_fold.is_some_and(|f| Rc::ptr_eq(&f, &st.fold)), "the fold made in its stage, not made again");
}

#[test]
fn a_newer_request_drops_the_staged_answer_and_its_stages_change_nothing() {
    let (mut st, d, _) = moved(false);
    let d = deferring(d);
    let old = d.arrived();
    let revision = old[0].revision;
    st.dispatch(Action::RunArrived(old[0].clone()));
    st.dispatch(d.next().unwrap_or_else(|| panic!("a stage")));
    let was = shown(&st);
    // The pointer moves on: a newer request, and what was staged goes.
    let m = marble(&st, 7);
    let before = ts(&st, 7);
    st.dispatch(to(m.x + 50.0, 150_000.0));
    let moved_to = ts(&st, 7);
    assert_ne!(moved_to, before);
    assert_eq!(st.staging(), None);
    let stale = d.next().unwrap_or_else(|| panic!("the stage deferred before the move"));
    assert!(st.changes_nothing(&stale), "its stage is no one's now");
    st.dispatch(stale);
    assert_eq!(st.staging(), None);
    assert!(Rc::ptr_eq(&st.doc.run, &was.0) && Rc::ptr_eq(&st.fold, &was.2), "nothing installed");
    assert_eq!(st.run_status().0, "running");
    // The newer answer is staged and installed; it is the same as a full run of that scenario.
    let newer = d.arrived();
    assert!(newer[0].revision > revision);
    st.dispatch(Action::RunArrived(newer[0].clone()));
    while let Some(a) = d.next() {
        st.dispatch(a);
    }
    assert_eq!(st.run_status().0, "done");
    let full = crate::engine::run(&st.doc.scenario);
    assert_eq!((&st.doc.run.outputs, &st.doc.run.trace), (&full.outputs, &full.trace));
    assert_eq!(ts(&st, 7), moved_to);
}

#[test]
fn a_cancel_drops_the_staged_answer_and_the_run_on_show_stays() {
    let (mut st, d, _) = moved(false);
    let d = deferring(d);
    let was = shown(&st);
    st.dispatch(Action::RunArrived(d.arrived()[0].clone()));
    // Its layout made, then the Cancel button.
    st.dispatch(d.next().unwrap_or_else(|| panic!("a stage")));
    st.dispatch(Action::CancelRun);
    assert_eq!(st.staging(), None);
    while let Some(a) = d.next() {
        st.dispatch(a);
    }
    assert!(Rc::ptr_eq(&st.doc.run, &was.0), "the run on show stays");
    assert_eq!(st.run_status().0, "done");
}

#[test]
fn a_step_of_the_playhead_between_stages_is_honoured() {
    let (mut st, d, _) = moved(false);
    let d = deferring(d);
    st.dispatch(Action::RunArrived(d.arrived()[0].clone()));
    // Its layout, then its fold at the playhead; then the playhead moves.
    for _ in 0..2 {
        st.dispatch(d.next().unwrap_or_else(|| panic!("a stage")));
    }
    st.dispatch(Action::Play(PlayAction::SetStep(900)));
    st.dispatch(d.next().unwrap_or_else(|| panic!("the install")));
    let mut direct = moved_at_once();
    direct.dispatch(Action::Play(PlayAction::SetStep(900)));
    same_on_show(&st, &direct);
}

#[test]
fn an_unreadable_answer_fails_at_once_and_the_run_on_show_stays() {
    let (mut st, d, _) = moved(false);
    let d = deferring(d);
    let was = shown(&st);
    let answer = d.later.take().remove(0);
    let error = crate::ui::action::RunArrived::new(answer.revision, answer.slot, |spare| {
        (Err("the worker was ended".to_string()), spare)
    });
    st.dispatch(Action::RunArrived(error));
    assert_eq!(st.staging(), None);
    assert!(d.next().is_none());
    assert_eq!(st.run_status().0, "error");
    assert!(st.chrome.banners.iter().any(|b| b.contains("the worker was ended")));
    assert!(Rc::ptr_eq(&st.doc.run, &was.0));
}

/// A proposal is decided by its answer within one task (accepted or refused), and so is a
/// scenario larger than [`STAGED_MAX_ITEMS`] (its install lets go of the run on show first).
#[test]
fn proposals_and_large_scenarios_install_at_once() {
    let (mut st, d) = deferring_loaded(TUMBLING);
    st.dispatch(Action::Config(ConfigEdit::Text(Field::Lateness, "20".into())));
    assert!(st.doc.proposed_field().is_some(), "a proposal");
    for a in d.arrived() {
        st.dispatch(Action::RunArrived(a));
    }
    assert_eq!(st.staging(), None);
    assert!(d.next().is_none());
    assert_eq!(st.run_status().0, "done");
    assert_eq!(st.doc.scenario.allowed_lateness, Some(20), "accepted");

    let items: Vec<String> =
        (0..=STAGED_MAX_ITEMS).map(|i| format!(r#"{{"id": {i}, "key": "A", "ts": {}}}"#, i % 1000)).collect();
    let (mut st, d) = deferring_loaded(&format!(
        r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#,
        items.join(",")
    ));
    st.dispatch(Action::Edit(crate::ui::action::EditAction::Delete(0)));
    for a in d.arrived() {
        st.dispatch(Action::RunArrived(a));
    }
    assert_eq!(st.staging(), None);
    assert!(d.next().is_none());
    assert_eq!(st.doc.run.elements.len(), STAGED_MAX_ITEMS);
}

/// Where the runner cannot defer after all (no timer could be set), the stages run on at once,
/// in the same dispatch: installed as at once.
#[test]
fn a_runner_that_cannot_defer_after_all_installs_at_once() {
    let direct = moved_at_once();
    let (mut st, d, _) = moved(false);
    let d = deferring(d);
    d.fails.set(true);
    st.dispatch(Action::RunArrived(d.arrived().remove(0)));
    assert_eq!(st.staging(), None);
    assert!(d.next().is_none());
    same_on_show(&st, &direct);
}

/// An edit's answer installed in stages keeps its windows' rows as one installed at once does
/// (the layout is made in a stage of its own: `RunLayout::after` with the rows' anchor on show).
#[test]
fn a_staged_edit_keeps_the_windows_rows() {
    let json = r#"{"assigner": {"kind": "sliding", "size": 60000, "slide": 20000},
        "input": [{"id": 1, "key": "A", "ts": 5000}, {"id": 2, "key": "A", "ts": 47000},
                  {"id": 3, "key": "A", "ts": 88000}]}"#;
    let (mut st, d) = deferring_loaded(json);
    let before = st.doc.layout.rows.clone();
    st.view.viewport = crate::ui::geometry::Viewport::new(0.0, 240_000.0, 1200.0);
    st.dispatch(start(DragStart::Element(0), 25.0, 5_000.0));
    st.dispatch(to(900.0, 180_000.0));
    st.dispatch(end());
    let mut staged = false;
    for _ in 0..50 {
        let (arrived, next) = (d.arrived(), d.next());
        if arrived.is_empty() && next.is_none() {
            break;
        }
        for a in arrived {
            st.dispatch(Action::RunArrived(a));
        }
        if let Some(a) = next {
            st.dispatch(a);
        }
        staged |= st.staging().is_some();
    }
    assert!(staged, "installed in stages");
    assert_eq!(ts(&st, 0), Some(180_000));
    assert_eq!(st.run_status().0, "done");
    let kept: Vec<_> = st.doc.layout.rows.iter().filter(|(k, _)| before.contains_key(k)).collect();
    assert!(kept.len() >= 3, "{kept:?}");
    for (k, row) in kept {
        assert_eq!(before.get(k), Some(row), "{k:?}");
    }
}
