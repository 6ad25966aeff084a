//! Compare mode (`state::compare`): B's run goes through the runner, one playhead moves both, the
//! differences are marked on both scenes, the link and undo carry both configurations; and the
//! SQL view's TVF rows.

use super::runs_support::later_loaded;
use super::*;
use crate::engine::scenario::{TvfSpec, WatermarkSpec};
use crate::ui::action::{CompareAction, CompareExample, PlayAction, Side, TeachAction, TvfKind};
use crate::ui::runner::RunSlot;

/// Bound 5 s: element 3 (ts 50 s) arrives after the watermark passed 59.999 s and goes to the late
/// side output; with 20 s the window has not fired yet and counts it.
const OUT_OF_ORDER: &str = r#"{"assigner": {"kind": "tumbling", "size": 60000},
    "watermarks": {"kind": "bounded_out_of_orderness", "bound": 5000},
    "input": [{"id": 1, "key": "A", "ts": 1000, "value": 1}, {"id": 2, "key": "A", "ts": 70000, "value": 2},
              {"id": 3, "key": "A", "ts": 50000, "value": 4}]}"#;

fn kinds(st: &AppState) -> Vec<&'static str> {
    st.compare.as_ref().map(|c| c.diff.rows.iter().map(|r| r.kind).collect()).unwrap_or_default()
}

fn bound(s: &crate::engine::Scenario) -> Option<i64> {
    match s.watermarks {
        WatermarkSpec::BoundedOutOfOrderness { bound } => Some(bound),
        _ => None,
    }
}

/// Bounds 5 s against 20 s: B's run is a request of its own (slot `Compare`, the reducer runs
/// nothing), and at the end the late element and the firings that differ are listed and
/// marked on both canvases.
#[test]
fn bounds_example_marks_the_differences_on_both_sides() {
    let (mut st, later) = later_loaded(OUT_OF_ORDER);
    st.dispatch(Action::Compare(CompareAction::Example(CompareExample::Bounds)));
    let slots: Vec<RunSlot> = later.requests().iter().map(|r| r.slot).collect();
    assert!(slots.contains(&RunSlot::Compare), "B's run is asked of the runner: {slots:?}");
    assert_eq!(st.run_status().0, "running");
    let c = st.compare.as_ref().unwrap_or_else(|| panic!("compare mode is on"));
    assert!(c.doc.run.elements.is_empty(), "the reducer ran nothing for B");
    later.answer_all(&mut st);
    assert_eq!(st.run_status().0, "done");
    let c = st.compare.as_ref().unwrap_or_else(|| panic!("compare mode is on"));
    assert_eq!((bound(&st.doc.scenario), bound(&c.doc.scenario)), (Some(5000), Some(20000)));
    st.dispatch(Action::Play(PlayAction::Last));
    let k = kinds(&st);
    assert!(k.contains(&"late"), "element 3 late in A only: {k:?}");
    assert!(k.contains(&"firing") && k.contains(&"sink"), "[0, 60 s) sums 1 and 5: {k:?}");
    let text: Vec<String> =
        st.compare.as_ref().map(|c| c.diff.rows.iter().map(|r| r.text.clone()).collect()).unwrap_or_default();
    assert!(
        text.iter().any(|t| t.contains("element 3")
            && t.contains("A late, to the side output")
            && t.contains("counted in B only")),
        "{text:?}"
    );
    assert!(text.iter().any(|t| t.contains("sum 1 count 1") && t.contains("sum 5 count 2")), "{text:?}");
    let marks = |s: &crate::ui::scene::Scene| s.marks.iter().map(|m| m.kind).collect::<Vec<_>>();
    let (a, b) = (marks(&st.scene), st.compare.as_ref().map(|c| marks(&c.scene)).unwrap_or_default());
    assert!(a.contains(&"window") && a.contains(&"element"), "A's marks: {a:?}");
    assert!(b.contains(&"window") && b.contains(&"element"), "B's marks: {b:?}");
}

/// One playhead: a step moves both folds; before element 3 arrives nothing differs yet.
#[test]
fn one_playhead_moves_both() {
    let mut st = state(OUT_OF_ORDER);
    st.dispatch(Action::Compare(CompareAction::Example(CompareExample::Bounds)));
    st.dispatch(Action::Play(PlayAction::SetStep(1)));
    let step_b = |st: &AppState| st.compare.as_ref().map(|c| c.fold.view.step);
    assert_eq!((st.fold.view.step, step_b(&st)), (1, Some(1)));
    assert!(kinds(&st).is_empty(), "after element 1 both agree: {:?}", kinds(&st));
    st.dispatch(Action::Play(PlayAction::Forward));
    st.dispatch(Action::Play(PlayAction::Forward));
    assert_eq!((st.fold.view.step, step_b(&st)), (3, Some(3)));
    assert!(kinds(&st).contains(&"late"));
    assert_eq!(st.steps(), 4);
}

/// B follows A's input: a drag of A's element reaches B, one run request for each.
#[test]
fn b_follows_a_drag() {
    let mut st = state(OUT_OF_ORDER);
    st.dispatch(Action::Compare(CompareAction::Example(CompareExample::Bounds)));
    st.dispatch(start(DragStart::Element(2), 500.0, 50_000.0));
    st.dispatch(to(510.0, 62_000.0));
    st.dispatch(end());
    let b = st.compare.as_ref().map(|c| c.doc.scenario.input.clone()).unwrap_or_default();
    assert_eq!(b, st.doc.scenario.input);
    assert_eq!(ts(&st, 2), Some(62_000));
    assert_eq!(st.compare.as_ref().map(|c| c.doc.run.elements[2].ts), Some(62_000), "B's run follows");
}

/// The address bar's fragment carries both configurations; opening it restores both.
#[test]
fn the_link_carries_both_configurations() {
    let mut st = state(OUT_OF_ORDER);
    st.dispatch(Action::Compare(CompareAction::Example(CompareExample::Bounds)));
    st.dispatch(Action::Compare(CompareAction::SetLateness(7000)));
    let link = st.teach.url_fragment_after(st.autosave_fragment());
    assert!(link.contains("&cmp="), "{link}");
    let opened = AppState::from_hash(&format!("#{link}"), 1200.0);
    assert_eq!(opened.doc.scenario, st.doc.scenario);
    let b = |s: &AppState| s.compare.as_ref().map(|c| (*c.doc.scenario).clone());
    assert_eq!(b(&opened), b(&st));
    assert_eq!(opened.compare.as_ref().map(|c| c.follow), Some(true));
    // A link without `cmp` opens one configuration.
    let plain = st.teach.url_fragment_after(st.teach.autosave_fragment(&st.doc.scenario, 1, st.steps()));
    let mut again = opened.clone();
    again.dispatch(Action::Teach(TeachAction::OpenHash(format!("#{plain}"))));
    assert!(again.compare.is_none());
}

/// Undo covers both: the example (A's bound and B) is one step; B's own edits are steps too.
#[test]
fn undo_covers_both() {
    let mut st = state(OUT_OF_ORDER);
    st.dispatch(Action::Compare(CompareAction::Example(CompareExample::Bounds)));
    st.dispatch(Action::Compare(CompareAction::SetBound(30_000)));
    let b_bound = |st: &AppState| st.compare.as_ref().and_then(|c| bound(&c.doc.scenario));
    assert_eq!(b_bound(&st), Some(30_000));
    st.dispatch(Action::Undo);
    assert_eq!(b_bound(&st), Some(20_000));
    st.dispatch(Action::Undo);
    assert!(st.compare.is_none(), "before the example: one configuration");
    assert_eq!(bound(&st.doc.scenario), Some(5000));
    st.dispatch(Action::Redo);
    assert_eq!(b_bound(&st), Some(20_000));
    st.dispatch(Action::Compare(CompareAction::Close));
    assert!(st.compare.is_none());
    st.dispatch(Action::Undo);
    assert_eq!(b_bound(&st), Some(20_000), "closing is undone too");
}

/// The SQL view: HOP runs as a TVF, its rows are scene items with Flink's numbers, and the
/// DataStream-vs-TVF example puts the DataStream window (A) beside the TVF (B).
#[test]
fn sql_view_rows_and_datastream_against_tvf() {
    let mut st = state(
        r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 30000,
        "watermarks": {"kind": "explicit"},
        "input": [{"id": 1, "key": "A", "ts": 1000, "value": 1}, {"id": 2, "key": "A", "ts": 25000, "value": 2},
                  {"wm": 25000}, {"id": 3, "key": "A", "ts": 10000, "value": 4}, {"wm": 45000},
                  {"id": 4, "key": "A", "ts": 30000, "value": 8}, {"wm": 60000}, {"id": 5, "key": "A", "ts": 5000, "value": 16}]}"#,
    );
    st.dispatch(Action::Compare(CompareAction::SetTvf(Side::A, Some(TvfKind::Hop))));
    assert_eq!(st.doc.scenario.tvf, Some(TvfSpec::Hop { size: 60000, slide: 20000 }));
    st.dispatch(Action::Play(PlayAction::Last));
    let rows: Vec<(i64, i64, i64, i64, u64)> =
        st.scene.tvf_rows.iter().map(|r| (r.window_start, r.window_end, r.window_time, r.sum, r.count)).collect();
    // tests/flink-ext/golden/tvf_hop_basic.jsonl
    assert_eq!(
        rows,
        vec![
            (-40000, 20000, 19999, 1, 1),
            (-20000, 40000, 39999, 7, 3),
            (0, 60000, 59999, 15, 4),
            (20000, 80000, 79999, 10, 2)
        ]
    );
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.tvf, None, "choosing the TVF is one undo step");
    st.dispatch(Action::Compare(CompareAction::Example(CompareExample::DataStreamVsTvf)));
    assert_eq!(st.doc.scenario.tvf, None);
    assert_eq!(st.compare.as_ref().and_then(|c| c.doc.scenario.tvf), Some(TvfSpec::Tumble { size: 60000 }));
    st.dispatch(Action::Play(PlayAction::Last));
    let text: Vec<String> =
        st.compare.as_ref().map(|c| c.diff.rows.iter().map(|r| r.text.clone()).collect()).unwrap_or_default();
    // Allowed lateness 30 s: element 3 (ts 10 s) is on time in both; element 5 (ts 5 s, after
    // wm 60 s) makes a late firing in the DataStream window only; the TVF drops it.
    assert!(text.iter().any(|t| t.contains("late firing 1") && t.contains("B none")), "{text:?}");
    assert!(text.iter().any(|t| t.contains("element 5") && t.contains("B late, dropped")), "{text:?}");
    assert!(text.iter().any(|t| t.contains("append-only sink: A 2 row(s), B 1 row(s)")), "{text:?}");
}

/// A preset with a `compare` scenario opens in compare mode.
#[test]
fn a_preset_opens_in_compare_mode() {
    let mut st = state(TUMBLING);
    let text = r#"{"id": "two-bounds", "title": "Two bounds", "goal": "g", "source": "s", "value_format": "plain",
        "scenario": {"assigner": {"kind": "tumbling", "size": 60000}, "watermarks": {"kind": "bounded_out_of_orderness", "bound": 5000},
                     "input": [{"id": 1, "key": "A", "ts": 1000}]},
        "compare": {"assigner": {"kind": "tumbling", "size": 60000}, "watermarks": {"kind": "bounded_out_of_orderness", "bound": 20000}, "input": []}}"#;
    st.dispatch(Action::Teach(TeachAction::Import { name: "two.json".into(), text: text.into() }));
    let c = st.compare.as_ref().unwrap_or_else(|| panic!("compare mode is on"));
    assert!(c.follow);
    assert_eq!((bound(&c.doc.scenario), c.doc.scenario.input.len()), (Some(20000), 1));
}

/// A new B counts its revisions on from every B before: the answer to an old B's run still out
/// is stale for the new one (both B's first requests were revision 1 before, and the old answer
/// was installed as the new B's), also after compare mode was closed in between.
#[test]
fn a_new_b_does_not_take_an_old_bs_answer() {
    let (mut st, later) = later_loaded(OUT_OF_ORDER);
    st.dispatch(Action::Compare(CompareAction::Example(CompareExample::Bounds)));
    let old: Vec<_> = later.take();
    let old_b = old.iter().filter(|a| a.slot == RunSlot::Compare).max_by_key(|a| a.revision).cloned();
    let Some(old_b) = old_b else { panic!("B's run was asked for") };
    st.dispatch(Action::Compare(CompareAction::Close));
    st.dispatch(Action::Compare(CompareAction::Example(CompareExample::Idleness)));
    let new_b = later.requests().into_iter().filter(|r| r.slot == RunSlot::Compare).map(|r| r.revision).max();
    assert!(new_b.is_some_and(|n| n > old_b.revision), "{new_b:?} after {}", old_b.revision);
    st.dispatch(Action::RunFinished(old_b));
    assert_eq!(st.run_status().0, "running", "the old B's answer is not the new B's");
    later.answer_all(&mut st);
    assert_eq!(st.run_status().0, "done");
}
