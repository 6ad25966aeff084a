//! Drags, keys, edits and the configuration panel through the one reducer.

use super::*;
use crate::engine::scenario::{AssignerSpec, WatermarkSpec};
use crate::engine::view::{ElementOutcome, WindowState};
use crate::engine::{TimeWindow, Window};
use crate::ui::action::{
    ConfigEdit, EditAction, EditorAction, EditorField, Field, ObjectId, PlayAction, TriggerChoice,
};
use crate::ui::geometry::Viewport;
use crate::ui::state::drag::snap_watermark;

/// The default playhead is after all input, before the end of input.
#[test]
fn loads_with_playhead_after_input() {
    let st = state(TUMBLING);
    assert_eq!(st.play.step, 3);
    assert_eq!(st.doc.steps(), 4);
    assert_eq!(fire_ids(&st), vec![(Some(0), vec![1])]);
}

/// Dragging an element across a window boundary re-runs the engine, keeps the step, and
/// snaps the drop to a whole unit.
#[test]
fn dragging_an_element_moves_it_to_the_other_window() {
    let mut st = state(TUMBLING);
    let commits = st.doc.commits;
    st.view.viewport = Viewport::new(0.0, 120_000.0, 1200.0); // 100 ms/px: snap unit 1 s
    st.dispatch(start(DragStart::Element(0), 500.0, 50_000.0));
    st.dispatch(to(650.0, 65_432.0));
    assert_eq!(ts(&st, 0), Some(65_432), "exact value while dragging");
    assert_eq!(st.play.step, 3);
    assert!(st.scene.drag_label.as_ref().is_some_and(|d| d.ts == 65_432 && d.text.contains("drops at")));
    st.dispatch(end());
    assert_eq!(ts(&st, 0), Some(65_000));
    assert_eq!(fire_ids(&st), vec![]);
    st.dispatch(Action::Play(PlayAction::Last));
    assert_eq!(fire_ids(&st), vec![(Some(60_000), vec![1, 2])]);
    assert_eq!(st.doc.commits, commits + 1, "one committed change: the drop");
}

/// The keyboard alone: onto the canvas with `]`, move with →, across the boundary; Escape leaves,
/// and then the arrows step.
#[test]
fn keyboard_moves_the_selected_element() {
    let mut st = state(TUMBLING);
    st.view.viewport = Viewport::new(0.0, 120_000.0, 1200.0);
    st.dispatch(key("]"));
    assert_eq!(st.selection, Some(ObjectId::Element(0)));
    let seq = st.focus.seq;
    assert!(seq > 0, "the canvas takes the focus");
    for _ in 0..10 {
        st.dispatch(canvas_key("ArrowRight"));
    }
    assert_eq!(ts(&st, 0), Some(60_000));
    st.dispatch(canvas_key("Escape"));
    assert!(st.focus.leave_seq > 0, "Escape leaves the canvas");
    assert_eq!(st.selection, Some(ObjectId::Element(0)), "the selection stays for the next Tab");
    st.dispatch(key("ArrowLeft"));
    assert_eq!(st.play.step, 2, "outside the canvas the arrows step, even with a selection");
    st.dispatch(key("Escape"));
    assert_eq!(st.selection, None);
    st.dispatch(key("End"));
    assert_eq!(st.play.step, st.doc.steps());
}

/// Dragging the explicit watermark moves the watermark item; past end-1 the main firing
/// appears, past the cleanup time a late element goes to the side output.
#[test]
fn dragging_the_watermark_fires_and_cleans_up() {
    let mut st = state(
        r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 10000,
            "input": [{"id": 1, "key": "A", "ts": 50000}, {"wm": 30000}, {"id": 2, "key": "A", "ts": 10000}]}"#,
    );
    st.view.viewport = Viewport::new(0.0, 120_000.0, 1200.0);
    assert_eq!(fire_ids(&st), vec![]);
    st.dispatch(start(DragStart::Watermark, 300.0, 30_000.0));
    st.dispatch(to(600.0, 59_999.0));
    assert_eq!(st.doc.scenario.input[1], InputItem::Watermark(59_999));
    assert_eq!(fire_ids(&st), vec![(Some(0), vec![1]), (Some(0), vec![1, 2])]);
    st.dispatch(to(700.0, 70_000.0));
    st.dispatch(end());
    assert_eq!(st.doc.scenario.input[1], InputItem::Watermark(70_000));
    assert_eq!(st.fold.view.elements[1], Some(ElementOutcome::SideOutput));
}

/// With bounded out-of-orderness the drag edits the bound, and the panel follows.
#[test]
fn dragging_the_derived_watermark_edits_the_bound() {
    let mut st = state(
        r#"{"assigner": {"kind": "tumbling", "size": 60000}, "watermarks": {"kind": "bounded_out_of_orderness", "bound": 5000},
            "input": [{"id": 1, "key": "A", "ts": 50000}, {"id": 2, "key": "A", "ts": 62000}]}"#,
    );
    st.view.viewport = Viewport::new(0.0, 120_000.0, 1200.0);
    assert_eq!(st.fold.view.watermark, 56_999);
    st.dispatch(start(DragStart::Watermark, 570.0, 56_999.0));
    st.dispatch(to(610.0, 61_000.0));
    assert_eq!(st.doc.scenario.watermarks, WatermarkSpec::BoundedOutOfOrderness { bound: 999 });
    st.dispatch(end());
    assert_eq!(st.doc.scenario.watermarks, WatermarkSpec::BoundedOutOfOrderness { bound: 1000 });
    assert_eq!(st.config.view(&st.doc.scenario).bound, "1000");
    assert_eq!(fire_ids(&st), vec![(Some(0), vec![1])]);
    // The watermark handle on the keyboard: → moves the line right, a smaller bound.
    st.dispatch(Action::Select(Some(ObjectId::Watermark)));
    st.dispatch(canvas_key("ArrowRight"));
    assert_eq!(st.doc.scenario.watermarks, WatermarkSpec::BoundedOutOfOrderness { bound: 0 });
}

/// Two elements dragged within the session gap merge their sessions.
#[test]
fn sessions_merge_when_dragged_together() {
    let mut st = state(
        r#"{"assigner": {"kind": "session", "gap": 10000},
            "input": [{"id": 1, "key": "A", "ts": 0}, {"id": 2, "key": "A", "ts": 30000}]}"#,
    );
    st.view.viewport = Viewport::new(0.0, 60_000.0, 600.0);
    assert_eq!(st.fold.view.live_windows().count(), 2);
    st.dispatch(start(DragStart::Element(1), 300.0, 30_000.0));
    st.dispatch(to(80.0, 8_000.0));
    st.dispatch(end());
    let live: Vec<_> = st.fold.view.live_windows().map(|w| w.window).collect();
    assert_eq!(live, vec![Window::Time(TimeWindow::new(0, 18_000))]);
    assert!(st.fold.view.windows.iter().any(|w| matches!(w.state, WindowState::Merged { .. })));
    // The merged-away sessions are drawn but not hit or focused.
    let merged = st.scene.windows.iter().flat_map(|g| g.items.iter()).filter(|w| w.merged).count();
    assert!(merged >= 1);
    assert!(
        st.scene.focusables().iter().all(|f| !matches!(f.id, ObjectId::Window { window, .. } if window != live[0]))
    );
}

/// Adding, editing, reordering and deleting keep the playhead on the same content.
#[test]
fn editing_items() {
    let mut st = state(TUMBLING);
    st.dispatch(Action::Edit(EditAction::AddElement { key: Some("B".into()), ts: Some(5_000) }));
    assert_eq!(st.doc.scenario.input.len(), 4);
    assert_eq!(st.selection, Some(ObjectId::Element(3)));
    assert_eq!(st.play.step, 4);
    assert_eq!(st.doc.layout.lanes.len(), 2);
    st.dispatch(Action::Editor(EditorAction::Open(3)));
    st.dispatch(Action::Editor(EditorAction::Input(EditorField::Value, "x".into())));
    st.dispatch(Action::Editor(EditorAction::Commit));
    let error = st.chrome.editor.as_ref().and_then(|e| e.error.clone());
    assert!(error.is_some_and(|e| e.contains("not a whole number")));
    st.dispatch(Action::Editor(EditorAction::Input(EditorField::Value, "7".into())));
    st.dispatch(Action::Editor(EditorAction::Input(EditorField::Key, "C".into())));
    st.dispatch(Action::Editor(EditorAction::Commit));
    assert_eq!(st.chrome.editor, None);
    assert!(matches!(&st.doc.scenario.input[3], InputItem::Element(e) if e.key == "C" && e.value == 7));
    st.dispatch(Action::Edit(EditAction::MoveInput { from: 3, to: 0 }));
    assert!(matches!(&st.doc.scenario.input[0], InputItem::Element(e) if e.key == "C"));
    st.dispatch(Action::Edit(EditAction::Delete(0)));
    assert_eq!(st.doc.scenario.input.len(), 3);
    assert_eq!(st.play.step, 3);
    st.dispatch(Action::Edit(EditAction::InsertWatermark { wm: Some(120_000) }));
    assert_eq!(st.doc.scenario.input[3], InputItem::Watermark(120_000));
    assert_eq!(fire_ids(&st).len(), 2);
}

/// The panel refuses invalid values next to the field and keeps the text; valid ones re-run;
/// a value Flink accepts but whose job then fails is refused after its run.
#[test]
fn config_edits() {
    let mut st = state(TUMBLING);
    st.dispatch(Action::Config(ConfigEdit::Text(Field::Size, "-5".into())));
    assert!(st.config.errors(&st.doc.scenario).contains_key(&Field::Size));
    assert_eq!(st.config.view(&st.doc.scenario).size, "-5");
    assert_eq!(st.doc.scenario.assigner, AssignerSpec::Tumbling { size: 60_000, offset: 0 });
    st.dispatch(Action::Config(ConfigEdit::Text(Field::Size, "30s".into())));
    assert!(st.config.errors(&st.doc.scenario).is_empty());
    assert_eq!(st.doc.scenario.assigner, AssignerSpec::Tumbling { size: 30_000, offset: 0 });
    assert_eq!(st.config.view(&st.doc.scenario).size, "30s", "as typed");
    st.dispatch(Action::Config(ConfigEdit::Trigger(TriggerChoice::ContinuousEventTime)));
    let before = st.doc.scenario.clone();
    st.dispatch(Action::Config(ConfigEdit::Text(Field::TriggerInterval, "0".into())));
    let errors = st.config.errors(&st.doc.scenario);
    assert!(errors.get(&Field::TriggerInterval).is_some_and(|e| e.contains("/ by zero")), "{errors:?}");
    assert_eq!(*st.doc.scenario, *before, "the scenario stays");
    assert_eq!(st.run_status().0, "done");
}

/// A bad link loads the default scenario with a banner, never a panic.
#[test]
fn bad_fragment_shows_banner() {
    let st = AppState::from_hash("#z=!!!", 800.0);
    assert_eq!(st.chrome.banners.len(), 1);
    assert!(st.chrome.banners[0].contains("not valid base64url"));
    assert_eq!(st.doc.scenario.name, "course_worked_timeline_7");
}

#[test]
fn watermark_snapping_keeps_end_minus_one_reachable() {
    assert_eq!(snap_watermark(59_700, 1000), 59_999);
    assert_eq!(snap_watermark(60_200, 1000), 60_000);
    assert_eq!(snap_watermark(60_000, 1000), 60_000);
    assert_eq!(snap_watermark(17, 1), 17);
}

/// A click hits what is drawn under the pointer: the watermark handle on top, then marbles,
/// timers, windows, and otherwise the lane's background.
#[test]
fn hit_testing_works_on_the_scene() {
    use crate::ui::scene::Hit;
    let mut st = state(TUMBLING);
    st.dispatch(Action::Resize { width_px: 1200.0, height_px: 0.0 });
    st.view.viewport = Viewport::new(0.0, 120_000.0, 1200.0);
    st.dispatch(Action::Play(PlayAction::SetStep(2)));
    let scene = st.scene.clone();
    let m = scene.marbles.iter().flat_map(|g| g.items.iter()).find(|m| m.index == 0).cloned();
    let Some(m) = m else { panic!("element 1 is drawn") };
    assert_eq!(scene.hit(m.x + 3.0, m.y - 3.0), Hit::Object(ObjectId::Element(0)));
    let w = scene.windows[0].items[0].clone();
    assert_eq!(scene.hit(w.x0 + 30.0, w.y + 5.0), Hit::Object(w.id));
    let t = scene.timers[0].clone();
    assert_eq!(scene.hit(t.x, t.y), Hit::Object(t.id));
    let wm = &scene.watermark;
    assert_eq!(scene.hit(wm.label_x + 4.0, wm.top + 4.0), Hit::Object(ObjectId::Watermark));
    let lane = &scene.lanes[0];
    assert_eq!(scene.hit(1190.0, lane.y + 2.0), Hit::Background { lane_key: Some("A".into()) });
    assert_eq!(scene.hit(1190.0, 1.0), Hit::Background { lane_key: None });
}

/// On a projector the canvas is used: the scale grows with the box, the lanes fill the height
/// left under them (no third of the canvas empty), and lecture mode grows marbles and labels
/// further for the back row.
#[test]
fn lanes_fill_a_projected_canvas_and_lecture_mode_scales_up() {
    use crate::ui::action::{Mode, TeachAction};
    let mut st = state(TUMBLING);
    st.dispatch(Action::Resize { width_px: 1450.0, height_px: 640.0 });
    let used = |st: &AppState| st.scene.height * st.scene.scale;
    assert!(st.view.scale > 1.5, "scale {}", st.view.scale);
    assert!(used(&st) > 640.0 * 0.9 && used(&st) <= 640.0, "the canvas fills {} of 640 px", used(&st));
    let lane = &st.scene.lanes[0];
    assert!(lane.height > 120.0, "the lane grew: {}", lane.height);
    let normal = st.view.scale;
    st.dispatch(Action::Teach(TeachAction::SetMode(Mode::Lecture)));
    assert!(st.view.scale > normal, "lecture {} > {normal}", st.view.scale);
    assert!(used(&st) <= 640.0);
    // A small embed keeps the natural lanes (it scrolls, it does not squash).
    st.dispatch(Action::Teach(TeachAction::SetMode(Mode::Embed)));
    st.dispatch(Action::Resize { width_px: 680.0, height_px: 150.0 });
    assert_eq!(st.doc.layout.lanes[0].stretch, 1.0);
}

/// Two partitions, every element on partition 0 (partition 1 never sends).
const TWO_PARTITIONS: &str = r#"{"assigner": {"kind": "tumbling", "size": 10000},
    "watermarks": {"kind": "bounded_out_of_orderness", "bound": 0}, "partitions": 2, "end_of_input": false,
    "input": [{"id": 1, "key": "A", "ts": 1000, "arrival": 0}, {"id": 2, "key": "A", "ts": 5000, "arrival": 500},
              {"id": 3, "key": "A", "ts": 12000, "arrival": 1000}, {"id": 4, "key": "A", "ts": 15000, "arrival": 1500},
              {"id": 5, "key": "A", "ts": 25000, "arrival": 2000}]}"#;

fn partition_and_arrival(st: &AppState, i: usize) -> (i64, u32, Option<i64>) {
    match &st.doc.scenario.input[i] {
        InputItem::Element(e) => (e.id, e.partition, e.arrival),
        other => panic!("not an element: {other:?}"),
    }
}

/// The arrival strip's drag to another partition's row (and one place earlier): the item is read
/// from that partition, its arrival kept between its new neighbours', and the run follows; a
/// partition beyond the scenario's is refused; Alt+↑ (SetPartition) moves it back.
#[test]
fn arrival_drag_to_another_partition() {
    let mut st = state(TWO_PARTITIONS);
    assert!(st.doc.run.outputs.is_empty(), "partition 1 holds the watermark");
    st.dispatch(Action::Drag(DragAction::Start { what: DragStart::Arrival(4), px: 0.0, millis: 0.0 }));
    st.dispatch(Action::Drag(DragAction::Over(3)));
    st.dispatch(Action::Drag(DragAction::OverPartition(7)));
    st.dispatch(Action::Drag(DragAction::OverPartition(1)));
    st.dispatch(Action::Drag(DragAction::End));
    assert_eq!(partition_and_arrival(&st, 3), (5, 1, Some(1500)));
    assert_eq!(partition_and_arrival(&st, 4), (4, 0, Some(1500)));
    assert_eq!(st.selection, Some(ObjectId::Element(3)));
    assert_eq!(fire_ids(&st).len(), 1, "[0, 10 s) fires once partition 1 has a watermark");
    // A press on a chip without a move changes nothing.
    let revision = st.doc.revision;
    st.dispatch(Action::Drag(DragAction::Start { what: DragStart::Arrival(3), px: 0.0, millis: 0.0 }));
    st.dispatch(Action::Drag(DragAction::OverPartition(1)));
    st.dispatch(Action::Drag(DragAction::End));
    assert_eq!(st.doc.revision, revision);
    st.dispatch(Action::Edit(EditAction::SetPartition { index: 3, partition: 5 }));
    assert_eq!(partition_and_arrival(&st, 3).1, 1, "partition 5 of 2 refused");
    assert!(st.chrome.banners.iter().any(|b| b.contains("Partition must be from 0 to 1")));
    st.dispatch(Action::Edit(EditAction::SetPartition { index: 3, partition: 0 }));
    assert_eq!(partition_and_arrival(&st, 3).1, 0);
    assert!(fire_ids(&st).is_empty());
}

/// A drag that takes a key's first windows away moves no other window to another row (the
/// layouts of edits keep the rows' anchor), nor does its undo; a scenario opened gets its own
/// anchor, its earliest window on top.
#[test]
fn windows_keep_their_rows_through_edits_and_a_scenario_opened_starts_on_top() {
    let json = r#"{"assigner": {"kind": "sliding", "size": 60000, "slide": 20000},
        "input": [{"id": 1, "key": "A", "ts": 5000}, {"id": 2, "key": "A", "ts": 47000},
                  {"id": 3, "key": "A", "ts": 88000}, {"id": 4, "key": "B", "ts": 30000}]}"#;
    let mut st = state(json);
    let top = |st: &AppState| {
        let earliest = st.doc.layout.rows.keys().min_by_key(|(_, w)| *w).copied();
        earliest.and_then(|k| st.doc.layout.rows.get(&k).copied())
    };
    assert_eq!(top(&st), Some(0), "opened: the earliest window on top");
    let before = st.doc.layout.rows.clone();
    st.view.viewport = Viewport::new(0.0, 240_000.0, 1200.0);
    st.dispatch(start(DragStart::Element(0), 25.0, 5_000.0));
    st.dispatch(to(900.0, 180_000.0));
    st.dispatch(end());
    assert_eq!(ts(&st, 0), Some(180_000));
    let after = &st.doc.layout.rows;
    assert!(!after.contains_key(&(0, Window::Time(TimeWindow { start: -40_000, end: 20_000 }))));
    let kept: Vec<_> = after.iter().filter(|(k, _)| before.contains_key(k)).collect();
    assert!(kept.len() >= 4, "{kept:?}");
    for (k, row) in kept {
        assert_eq!(before.get(k), Some(row), "{k:?}");
    }
    st.dispatch(Action::Undo);
    assert_eq!(ts(&st, 0), Some(5_000));
    assert_eq!(st.doc.layout.rows, before, "undone: the rows as they were");
    // Another scenario opened: the element at 180 s is the only one, its first window on top.
    st.dispatch(Action::Load {
        scenario: Box::new(scenario(
            r#"{"assigner": {"kind": "sliding", "size": 60000, "slide": 20000},
                "input": [{"id": 1, "key": "A", "ts": 180000}]}"#,
        )),
        step: None,
        banner: None,
    });
    assert_eq!(top(&st), Some(0));
    assert_eq!(st.doc.layout.rows.values().copied().collect::<Vec<_>>(), vec![0, 1, 2]);
}
