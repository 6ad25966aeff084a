//! Scenes of more than 2,000 elements (issue 15): the canvas backend, its overlay, and hit
//! testing and drags on it as on SVG.

use std::rc::Rc;

use super::runs_support::later_loaded;
use super::*;
use crate::ui::action::{ObjectId, ViewAction};
use crate::ui::scene::{Backend, Hit};

fn many(n: usize) -> String {
    // All in one key, a few timestamps: marbles pile up on each other.
    let items: Vec<String> =
        (0..n).map(|i| format!(r#"{{"id": {i}, "key": "A", "ts": {}}}"#, 1000 * (i % 7))).collect();
    format!(r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#, items.join(","))
}

/// 2,000 elements are SVG; one more and the scene is drawn by the canvas, with the Tab entry in
/// its overlay.
#[test]
fn backend_follows_the_element_count() {
    let small = state(&many(2000));
    assert_eq!(small.scene.backend, Backend::Svg);
    let big = state(&many(2001));
    assert_eq!(big.scene.backend, Backend::Canvas);
    assert_eq!(big.scene.element_count, 2001);
    assert_eq!(big.scene.backend.name(), "canvas");
    assert_eq!(big.scene.overlay, vec![ObjectId::Element(0)], "the entry: the first element in event time");
}

/// On the canvas the overlay's marble is on top: a press on it hits it, not one of the hundreds
/// drawn at the same place; dragging it moves it, and it stays in the overlay while dragged.
#[test]
fn the_overlay_marble_is_hit_and_dragged() {
    let mut st = state(&many(3000));
    let entry = st.scene.marbles.iter().flat_map(|g| g.items.iter()).find(|m| m.id == ObjectId::Element(0)).cloned();
    let Some(m) = entry else { panic!("no entry marble") };
    assert_eq!(st.scene.hit(m.x, m.y), Hit::Object(ObjectId::Element(0)));
    st.dispatch(start(DragStart::Element(0), m.x, 0.0));
    st.dispatch(to(m.x + 100.0, 20_000.0));
    assert!(st.scene.overlay.contains(&ObjectId::Element(0)));
    st.dispatch(end());
    assert_eq!(ts(&st, 0), Some(20_000));
    let fired_with_it = st.doc.run.outputs.iter().any(|o| matches!(o, Output::Fire(f) if f.ids.contains(&0)));
    assert!(fired_with_it, "the end of input fires its window with it");
}

/// `n` elements over 30 keys and ten minutes, so that windows, timers and marbles all exist.
pub(super) fn spread(n: usize) -> String {
    let items: Vec<String> =
        (0..n).map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 30, (i * 197) % 600_000)).collect();
    format!(r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#, items.join(","))
}

pub(crate) fn marble(st: &AppState, index: usize) -> crate::ui::scene::MarbleItem {
    let m = st.scene.marble_items().find(|m| m.index == index).cloned();
    m.unwrap_or_else(|| panic!("no marble for input item {index}"))
}

/// `find_marble` finds every element's marble where a look through all the groups finds it, in
/// streams with one key, 30 and 800 (lanes of three groups to forty), of the canvas and SVG
/// sizes; an item with no marble (a watermark) or past the input is not found.
#[test]
fn every_marble_is_found_by_halves_where_a_full_look_finds_it() {
    use crate::ui::scene::find_marble;
    let with_watermark = r#"{"assigner": {"kind": "tumbling", "size": 60000}, "input": [{"id": 1, "key": "A", "ts": 5},
        {"wm": 100}, {"id": 2, "key": "B", "ts": 7}]}"#;
    let many_keys: Vec<String> =
        (0..2400).map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 800, (i * 197) % 600_000)).collect();
    let many_keys =
        format!(r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#, many_keys.join(","));
    for json in [many(2500), spread(2400), spread(900), many_keys, with_watermark.to_string()] {
        let st = state(&json);
        let groups = &st.scene.marbles;
        let look = |groups: &[crate::ui::scene::MarbleGroup], index: usize| {
            groups
                .iter()
                .enumerate()
                .find_map(|(g, group)| group.items.iter().position(|m| m.index == index).map(|k| (g, k)))
        };
        let n = st.doc.scenario.input.len();
        for index in 0..n + 2 {
            assert_eq!(find_marble(groups, index), look(groups, index), "input item {index}");
        }
        assert!((0..n).filter(|i| look(groups, *i).is_some()).count() > n / 2, "marbles were looked for");
        // What the search relies on: groups in (lane, input order) order.
        let order: Vec<(usize, usize)> =
            groups.iter().map(|g| (g.lane, g.items.first().map_or(0, |m| m.index))).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "groups in (lane, input order) order");
    }
    // A press and a move waiting for its run (patched scenes) keep the order: the moved marble is found.
    let (mut st, _later) = later_loaded(&spread(2400));
    let m = marble(&st, 700);
    st.dispatch(start(DragStart::Element(700), m.x, m.ts as f64));
    st.dispatch(to(m.x + 40.0, (m.ts + 20_000) as f64));
    let found = find_marble(&st.scene.marbles, 700).map(|(g, k)| st.scene.marbles[g].items[k].ts);
    assert_eq!(found, Some(m.ts + 20_000));
}

/// The scene on show (a patch), and the same moment built in full (another generation).
fn patched_and_full(st: &mut AppState) -> (crate::ui::scene::Scene, crate::ui::scene::Scene) {
    let patched = st.scene.clone();
    st.scene_key = None;
    st.refresh();
    let full = st.scene.clone();
    assert_ne!(full.generation, patched.generation);
    (Rc::unwrap_or_clone(patched), Rc::unwrap_or_clone(full))
}

/// Above 2,000 elements a drag move whose run is still out moves only the dragged marble: the
/// scene keeps its build's generation (the canvas backend leaves its bulk drawing alone), the
/// marble and the drag label follow the new timestamp, and every other item is the full build's
/// of the same moment. The answer builds the scene in full again (a new generation).
#[test]
fn a_drag_move_waiting_for_its_run_moves_only_the_dragged_marble() {
    let (mut st, later) = later_loaded(&spread(3000));
    assert_eq!(st.scene.backend, Backend::Canvas);
    let i = 7;
    let m = marble(&st, i);
    st.dispatch(start(DragStart::Element(i), m.x, 0.0));
    later.answer_all(&mut st);
    let built = st.scene.generation;
    assert!(built > 0);
    st.dispatch(to(m.x + 100.0, 123_000.0));
    assert_eq!(st.run_status().0, "running", "the move's run is out");
    assert_eq!(st.scene.generation, built, "the bulk is not rebuilt for a move");
    let moved = marble(&st, i);
    assert_eq!(moved.ts, ts(&st, i).unwrap_or_default());
    assert!(moved.x > m.x + 10.0, "the marble follows the pointer: {} → {}", m.x, moved.x);
    assert_eq!(st.scene.drag_label.as_ref().map(|d| d.ts), Some(moved.ts));
    assert!(st.scene.overlay.contains(&ObjectId::Element(i)), "drawn in the overlay");
    // The same moment built in full: the same items but the moved marble's stacking row.
    let (patched, full) = patched_and_full(&mut st);
    assert_eq!(patched.windows, full.windows);
    assert_eq!(patched.timers, full.timers);
    assert_eq!(patched.watermark, full.watermark);
    assert_eq!(patched.overlay, full.overlay);
    assert_eq!(patched.drag_label, full.drag_label);
    let items = |s: &crate::ui::scene::Scene| {
        let mut v: Vec<_> =
            s.marbles.iter().flat_map(|g| g.items.iter()).map(|m| (m.index, m.ts, m.x, m.outcome)).collect();
        v.sort_by_key(|t| t.0);
        v
    };
    assert_eq!(items(&patched), items(&full));
    // The run comes back: a full build of the new run.
    later.answer_all(&mut st);
    assert_eq!(st.run_status().0, "done");
    assert_ne!(st.scene.generation, built);
    let dropped = ts(&st, i).unwrap_or_default();
    st.dispatch(end());
    later.answer_all(&mut st);
    assert_eq!(ts(&st, i), Some(crate::ui::geometry::snap(dropped, st.view.snap_unit())));
}

/// The press on an element hands the runner the scenario as it is (`Runner::prime`), before any
/// move: every move's request then differs from it in the dragged element alone, so a worker
/// that keeps it is sent that element, not the whole scenario (`runner::encode_request_after`).
#[test]
fn the_press_primes_the_runner_with_the_scenario_the_moves_edit() {
    let (mut st, later) = later_loaded(&spread(3000));
    assert!(later.1.borrow().is_empty(), "no prime before a drag");
    let i = 11;
    let m = marble(&st, i);
    let (revision, before) = (st.doc.revision, st.doc.scenario.clone());
    st.dispatch(start(DragStart::Element(i), m.x, 0.0));
    let primes = later.1.borrow().clone();
    assert_eq!(primes.len(), 1);
    assert_eq!(primes[0].0, revision);
    assert!(Rc::ptr_eq(&primes[0].1, &before), "the scenario the drag starts from");
    for k in 1..4 {
        st.dispatch(to(m.x + 40.0 * f64::from(k), 50_000.0 * f64::from(k)));
    }
    let moves = later.requests();
    assert_eq!(moves.len(), 3);
    for r in &moves {
        assert!(r.revision > revision);
        assert_eq!(r.scenario.input_edits(&primes[0].1, 64), Some(vec![i]), "only the dragged element differs");
    }
    assert_eq!(later.1.borrow().len(), 1, "moves do not prime again");
    // A pan (a press on the background) is no edit: no prime.
    later.answer_all(&mut st);
    st.dispatch(end());
    later.answer_all(&mut st);
    st.dispatch(start(DragStart::Pan, 10.0, 0.0));
    assert_eq!(later.1.borrow().len(), 1);
}

/// Above 2,000 elements the drop of an element whose run is still out keeps the bulk drawing
/// (the generation): the marble at its dropped, snapped time, the drag over, and every other item
/// the full build's of the same moment. The answer builds the scene in full.
#[test]
fn a_drop_whose_run_is_out_keeps_the_bulk_and_places_the_marble() {
    let (mut st, later) = later_loaded(&spread(3000));
    let i = 7;
    let m = marble(&st, i);
    st.dispatch(start(DragStart::Element(i), m.x, 0.0));
    later.answer_all(&mut st);
    let built = st.scene.generation;
    st.dispatch(to(m.x + 100.0, 123_456.0));
    st.dispatch(end());
    assert_eq!(st.run_status().0, "running", "the drop's run is out");
    assert_eq!(st.scene.generation, built, "the bulk is not rebuilt for the drop");
    let dropped = ts(&st, i).unwrap_or_default();
    assert_eq!(dropped, crate::ui::geometry::snap(123_456, st.view.snap_unit()));
    assert_eq!(marble(&st, i).ts, dropped);
    assert!(!st.scene.dragging && st.scene.drag_label.is_none());
    assert!(st.scene.overlay.contains(&ObjectId::Element(i)), "drawn in the overlay");
    // The same moment built in full: the same items but the dropped marble's stacking row.
    let (patched, full) = patched_and_full(&mut st);
    assert_eq!(
        (&patched.windows, &patched.timers, &patched.watermark, &patched.overlay, &patched.entry),
        (&full.windows, &full.timers, &full.watermark, &full.overlay, &full.entry)
    );
    assert_eq!((patched.dragging, &patched.drag_label), (full.dragging, &full.drag_label));
    let items = |s: &crate::ui::scene::Scene| {
        let mut v: Vec<_> = s
            .marbles
            .iter()
            .flat_map(|g| g.items.iter())
            .map(|m| (m.index, m.ts, m.x, m.outcome, m.selected))
            .collect();
        v.sort_by_key(|t| t.0);
        v
    };
    assert_eq!(items(&patched), items(&full));
    // The run comes back: a full build of the new run, the element where it was dropped.
    later.answer_all(&mut st);
    assert_eq!(st.run_status().0, "done");
    assert_ne!(st.scene.generation, full.generation);
    assert_eq!(marble(&st, i).ts, dropped);
}

/// A move answered at once (the main-thread runner: at most 500 elements, or no worker) builds
/// the scene in full, on either backend; so does every move in compare mode.
#[test]
fn moves_answered_at_once_build_the_scene_in_full() {
    let moves = |st: &mut AppState| {
        let m = marble(st, 3);
        st.dispatch(start(DragStart::Element(3), m.x, 0.0));
        let mut seen = vec![st.scene.generation];
        for k in 1..4 {
            st.dispatch(to(m.x + 10.0 * f64::from(k), (m.ts + 1000 * i64::from(k)) as f64));
            seen.push(st.scene.generation);
        }
        st.dispatch(end());
        seen.dedup();
        seen.len()
    };
    let mut st = state(&spread(1500));
    assert_eq!(st.scene.backend, Backend::Svg);
    assert_eq!(moves(&mut st), 4, "a new build per move");
    let (mut st, later) = later_loaded(&spread(1500));
    st.dispatch(Action::Compare(crate::ui::action::CompareAction::Example(crate::ui::action::CompareExample::Bounds)));
    later.answer_all(&mut st);
    assert_eq!(moves(&mut st), 4, "compare mode: a new build per move");
}

/// On the SVG backend too, a move whose run is out (the worker's, above 500 elements) moves
/// only the dragged marble; the moves are gestures (their answers wait for the pointer to rest),
/// the drop is not, and neither is a watermark's drag. The dragged element is lifted from the
/// press on (`SceneInput::lift`): a copy follows the pointer, and nothing the scene's `<svg>`
/// draws changes during the moves (its groups are the very ones of the build).
#[test]
fn svg_moves_waiting_for_their_run_move_only_the_marble_and_are_gestures() {
    let (mut st, later) = later_loaded(&spread(1500));
    assert_eq!(st.scene.backend, Backend::Svg);
    let m = marble(&st, 3);
    st.dispatch(start(DragStart::Element(3), m.x, m.ts as f64));
    // Lifted at the press, where it is: the copy and its origin in the group are alike but for
    // the origin's flag.
    let lifted = st.scene.lifted.clone().unwrap_or_else(|| panic!("lifted at the press"));
    let origin = |st: &AppState| st.scene.marbles.iter().flat_map(|g| g.items.iter()).find(|m| m.index == 3).cloned();
    let at_press = origin(&st).unwrap_or_else(|| panic!("the origin stays in its group"));
    assert!(at_press.origin && !lifted.origin);
    assert!(lifted.selected && !at_press.selected, "the copy shows the selection, the origin as it was");
    assert!(
        MarbleItemWithout(lifted.clone()) == MarbleItemWithout(at_press.clone()),
        "alike but for origin and selection"
    );
    assert_eq!((lifted.x, lifted.ts), (m.x, m.ts));
    later.answer_all(&mut st);
    let built = st.scene.generation;
    let groups = st.scene.marbles.clone();
    for k in 1..4 {
        st.dispatch(to(m.x + 10.0 * f64::from(k), (m.ts + 1000 * i64::from(k)) as f64));
        assert_eq!(st.scene.generation, built, "move {k}: the scene is patched, not rebuilt");
        assert_eq!(marble(&st, 3).ts, m.ts + 1000 * i64::from(k));
        assert_eq!(
            st.scene.lifted.as_ref().map(|m| (m.index, m.ts)),
            Some((3, m.ts + 1000 * i64::from(k))),
            "move {k}"
        );
        // The scene's groups are the build's, the origin among them where it was.
        assert!(st.scene.marbles.iter().zip(&groups).all(|(a, b)| Rc::ptr_eq(&a.items, &b.items)), "move {k}");
        assert_eq!(origin(&st).map(|o| (o.x, o.ts, o.origin)), Some((at_press.x, at_press.ts, true)));
        // Once each for hit testing and the keys: the copy, not the origin.
        assert_eq!(st.scene.marble_items().count(), 1500);
        assert_eq!(st.scene.marble_items().filter(|m| m.index == 3).count(), 1);
        assert_eq!(st.focusables().iter().filter(|f| f.id == ObjectId::Element(3)).count(), 1);
    }
    let moves = later.requests();
    assert_eq!(moves.len(), 3);
    assert!(moves.iter().all(|r| r.gesture), "every move is a gesture");
    st.dispatch(end());
    let drop = later.requests();
    assert_eq!(drop.len(), 4, "three moves and the drop");
    assert!(drop.last().is_some_and(|r| !r.gesture && r.release), "the drop is a release, answered when done");
    assert!(moves.iter().all(|r| !r.release));
    // While its run is out the scene is the last move's: the copy at the dropped, snapped time,
    // the drag over, the groups the build's (nothing the scene's `<svg>`s draw changes).
    let dropped = m.ts + 3000;
    let snapped = crate::ui::geometry::snap(dropped, st.view.snap_unit());
    assert_eq!(st.scene.generation, built, "the drop's scene is patched, not rebuilt");
    assert_eq!(st.scene.lifted.as_ref().map(|m| (m.index, m.ts)), Some((3, snapped)));
    assert!(!st.scene.dragging && st.scene.drag_label.is_none());
    assert!(st.scene.marbles.iter().zip(&groups).all(|(a, b)| Rc::ptr_eq(&a.items, &b.items)));
    assert_eq!(origin(&st).map(|o| o.origin), Some(true));
    // The copy is where a full build of the same moment puts the marble.
    let (patched, full) = patched_and_full(&mut st);
    let copy = patched.lifted.clone().unwrap_or_else(|| panic!("the copy"));
    let placed = full.marble_items().find(|m| m.index == 3).cloned().unwrap_or_else(|| panic!("the marble"));
    assert_eq!((copy.ts, copy.x, copy.value), (placed.ts, placed.x, placed.value));
    assert!(full.lifted.is_none(), "a build with no drag lifts nothing");
    assert_eq!(
        (&patched.windows, &patched.timers, &patched.watermark, &patched.entry),
        (&full.windows, &full.timers, &full.watermark, &full.entry)
    );
    st.scene = Rc::new(patched);
    later.answer_all(&mut st);
    assert_ne!(st.scene.generation, built, "the answer builds in full");
    assert!(st.scene.lifted.is_none(), "the answer puts it back in its group");
    assert_eq!(origin(&st).map(|o| (o.origin, o.ts)), Some((false, snapped)));
    st.dispatch(start(DragStart::Watermark, st.scene.watermark.x, 0.0));
    st.dispatch(to(st.scene.watermark.x + 40.0, 200_000.0));
    let wm = later.requests();
    assert!(!wm.is_empty() && wm.iter().all(|r| !r.gesture), "a watermark drag is not: {wm:?}");
}

/// A marble item compared without its `origin` and `selected` flags.
struct MarbleItemWithout(crate::ui::scene::MarbleItem);

impl PartialEq for MarbleItemWithout {
    fn eq(&self, other: &Self) -> bool {
        let plain = |m: &crate::ui::scene::MarbleItem| crate::ui::scene::MarbleItem {
            origin: false,
            selected: false,
            ..m.clone()
        };
        plain(&self.0) == plain(&other.0)
    }
}

/// What is read from the whole input (the arrival strip's arrivals and partitions) is read again
/// when the input may have changed: not for the moves of an element dragged along event time
/// (one timestamp changes), again at its drop, and for every move of an arrival's drag.
#[test]
fn the_input_version_holds_still_while_a_timestamp_is_dragged() {
    let (mut st, later) = later_loaded(&spread(600));
    let m = marble(&st, 5);
    let before = st.input_version();
    st.dispatch(start(DragStart::Element(5), m.x, m.ts as f64));
    let dragging = st.input_version();
    assert_ne!(dragging, before);
    for k in 1..4 {
        st.dispatch(to(m.x + 10.0 * f64::from(k), (m.ts + 1000 * i64::from(k)) as f64));
        assert_eq!(st.input_version(), dragging, "move {k}");
    }
    st.dispatch(end());
    later.answer_all(&mut st);
    let dropped = st.input_version();
    assert_ne!(dropped, dragging, "the drop is a commit");
    assert_ne!(dropped, before);
    // Along the processing-time axis a move changes an arrival: each move is a new version.
    st.dispatch(start(DragStart::Element(5), m.x, 0.0));
    if let Some(crate::ui::action::Drag::Element { arrival, .. }) = &mut st.drag {
        *arrival = true;
    }
    let a = st.input_version();
    st.dispatch(to(m.x + 30.0, 5_000.0));
    assert_ne!(st.input_version(), a, "an arrival's move");
}

/// The scene a full build would make now (generation aside: it is the scene's own).
fn full_build(st: &AppState) -> crate::ui::scene::Scene {
    let key = st.scene_key.clone().unwrap_or_else(|| panic!("a scene key"));
    let full = key.input(&st.doc, &st.fold, st.view.snap_unit()).build();
    crate::ui::scene::Scene { generation: st.scene.generation, ..full }
}

/// A press that starts an element's drag on the SVG backend (the selection moves to it, and the
/// Tab entry with it) changes the pressed marble's group and the old entry's, and nothing else: every
/// other group is the one already drawn (Yew skips it), and the scene is what a full build makes.
/// Over tumbling, sliding and session streams with late elements and a side output, at the end and
/// mid-run, pressing the entry itself, a marble in the same group, and one far away; after a drop
/// (the selection then on an element) and after a selected window (a full build).
#[test]
fn a_press_on_svg_changes_two_marble_groups_like_a_full_build() {
    // Both backends: on the canvas backend the kept generation means the bulk is not redrawn.
    for (n, backend, assigner) in [
        (1200, Backend::Svg, r#"{"kind": "tumbling", "size": 60000}"#),
        (1200, Backend::Svg, r#"{"kind": "sliding", "size": 60000, "slide": 20000}"#),
        (1200, Backend::Svg, r#"{"kind": "session", "gap": 900}"#),
        (2400, Backend::Canvas, r#"{"kind": "tumbling", "size": 60000}"#),
        (2400, Backend::Canvas, r#"{"kind": "session", "gap": 900}"#),
    ] {
        let items: Vec<String> =
            (0..n).map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 17, (i * 997) % 400_000)).collect();
        let json = format!(
            r#"{{"assigner": {assigner}, "allowed_lateness": 2000, "side_output": true,
                "watermarks": {{"kind": "bounded_out_of_orderness", "bound": 3000}}, "input": [{}]}}"#,
            items.join(",")
        );
        let (mut st, later) = later_loaded(&json);
        assert_eq!(st.scene.backend, backend);
        for (step, index) in [(None, 0), (None, 1), (None, 600), (Some(700), 650), (Some(700), 5), (None, n - 1)] {
            if let Some(s) = step {
                st.dispatch(Action::Play(crate::ui::action::PlayAction::SetStep(s)));
            }
            let before = st.scene.clone();
            let m = marble(&st, index);
            st.dispatch(start(DragStart::Element(index), m.x, m.ts as f64));
            assert_eq!(st.scene.generation, before.generation, "{assigner} {index}: patched, not rebuilt");
            assert_eq!(*st.scene, full_build(&st), "{assigner} {index}: as a full build");
            let changed =
                st.scene.marbles.iter().zip(&before.marbles).filter(|(a, b)| !std::rc::Rc::ptr_eq(&a.items, &b.items));
            assert!(changed.count() <= 2, "{assigner} {index}: two groups at most");
            assert_eq!(st.scene.entry, Some(ObjectId::Element(index)));
            // Every focusable's lane, found without the list (`Scene::lane_of`), is the list's.
            if index == 600 {
                let list = st.scene.focusables();
                for f in list.iter().step_by(7) {
                    let first = list.iter().find(|g| g.id == f.id).map(|g| g.lane);
                    assert_eq!(st.scene.lane_of(&f.id), first, "{assigner}: {:?}", f.id);
                }
            }
            // The drop (no move): the drag ends; its run is answered.
            st.dispatch(end());
            later.answer_all(&mut st);
        }
        // A selected window is the Tab entry: a press then builds in full, and is the same.
        if let Some(w) = st.scene.windows.iter().flat_map(|g| g.items.iter()).next().map(|w| w.id) {
            st.dispatch(Action::Canvas(crate::ui::action::CanvasAction::Focused(w)));
            let before = st.scene.generation;
            let m = marble(&st, 10);
            st.dispatch(start(DragStart::Element(10), m.x, m.ts as f64));
            assert_ne!(st.scene.generation, before, "after a window's selection: a full build");
            assert_eq!(*st.scene, full_build(&st));
        }
    }
}

/// A window band's node key (the SVG backend's `key`, made when drawn) is unique among its lane's
/// bands, names the window (key, bounds, merged), and stays the same for the same window in
/// another run of the scenario.
#[test]
fn window_bands_node_keys_are_unique_and_stable() {
    let (mut st, later) = later_loaded(&spread(1500));
    let keys = |st: &AppState| -> Vec<Vec<(ObjectId, String)>> {
        st.scene.windows.iter().map(|g| g.items.iter().map(|w| (w.id, w.node_key())).collect()).collect()
    };
    let before = keys(&st);
    assert!(before.iter().map(Vec::len).sum::<usize>() > 100);
    for group in &before {
        let distinct: std::collections::BTreeSet<&String> = group.iter().map(|(_, k)| k).collect();
        assert_eq!(distinct.len(), group.len(), "unique in a lane: {group:?}");
        for (id, k) in group {
            let ObjectId::Window { key, window: crate::engine::time::Window::Time(tw) } = id else { continue };
            assert!(k.starts_with(&format!("{key}:{}:{}:", tw.start, tw.end)), "{k} names {id:?}");
        }
    }
    // Another run of an edited scenario: the windows it shares keep their keys.
    let m = marble(&st, 5);
    st.dispatch(start(DragStart::Element(5), m.x, 0.0));
    st.dispatch(to(m.x + 3.0, 1.0));
    st.dispatch(end());
    later.answer_all(&mut st);
    let after: std::collections::BTreeMap<ObjectId, String> = keys(&st).into_iter().flatten().collect();
    let shared = before.iter().flatten().filter(|(id, k)| after.get(id) == Some(k)).count();
    assert!(shared * 10 >= before.iter().map(Vec::len).sum::<usize>() * 9, "most windows keep their key");
}

/// A band says its count, made when drawn (`BandLabel::Count`) where it is too narrow for more,
/// and a text of its own (the count first) where it is wide enough; merged sessions say nothing.
#[test]
fn window_bands_say_their_count_or_more_where_they_are_wide() {
    use crate::ui::scene::BandLabel;
    let (st, _later) = later_loaded(&spread(1500));
    let items: Vec<&crate::ui::scene::WindowItem> = st.scene.windows.iter().flat_map(|g| g.items.iter()).collect();
    let (mut counts, mut texts) = (0, 0);
    for w in &items {
        match &w.label {
            BandLabel::Count => {
                counts += 1;
                assert!(w.width <= 150.0, "a wide band says more than its count: {w:?}");
                assert_eq!(w.label.text(w.count), Some(w.count.to_string()));
            }
            BandLabel::Text(t) => {
                texts += 1;
                assert!(w.width > 70.0, "{t} on a band {} px wide", w.width);
                assert!(t.starts_with(&w.count.to_string()) || &**t == "cleaned up", "{t}");
            }
            BandLabel::None => assert!(w.merged || w.state == "cleaned", "{w:?}"),
        }
    }
    assert!(texts > 0 && counts + texts > 0, "some bands are wide enough for a text: {} items", items.len());
    // Zoomed out (the wheel rested), every band is narrow: counts only, no text made.
    let mut st = st;
    for _ in 0..6 {
        st.dispatch(Action::View(crate::ui::action::ViewAction::ZoomAt { px: 600.0, factor: 0.5 }));
    }
    st.dispatch(Action::View(crate::ui::action::ViewAction::Settle));
    let narrow = st.scene.windows.iter().flat_map(|g| g.items.iter()).filter(|w| matches!(w.label, BandLabel::Text(_)));
    assert_eq!(narrow.count(), 0);
}

/// At 2,000 crowded elements (the SVG backend) an id is drawn only where it has room: some are
/// left out, none drawn touches another in its lane, and every one left out would have touched
/// one. The element dragged is named as it goes; the canvas backend's overlay names its marbles.
#[test]
fn crowded_marbles_draw_only_the_ids_that_have_room() {
    // `spread`'s timestamps are evenly spaced, each id with room on its stacking row: here they
    // are scattered (a linear congruential sequence), as a real stream's are.
    let mut seed: u64 = 7;
    let items: Vec<String> = (0..2000)
        .map(|i| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 20, (seed >> 33) % 600_000)
        })
        .collect();
    let json = format!(r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#, items.join(","));
    let mut st = state(&json);
    assert_eq!(st.scene.backend, Backend::Svg);
    let width = |m: &crate::ui::scene::MarbleItem| m.elem_id.to_string().len() as f64 * 6.2;
    let touch = |a: &crate::ui::scene::MarbleItem, b: &crate::ui::scene::MarbleItem| {
        a.index != b.index
            && a.key_name == b.key_name
            && (a.x - b.x).abs() < (width(a) + width(b)) / 2.0 + 1.0
            && (a.y - b.y).abs() < 10.0
    };
    let all: Vec<_> = st.scene.marble_items().cloned().collect();
    let shown = all.iter().filter(|m| m.label).count();
    assert!(shown > 100 && shown < all.len() / 2, "{shown} of {} ids drawn", all.len());
    for a in &all {
        let touches = all.iter().find(|b| touch(a, b));
        assert_eq!(
            a.label,
            touches.is_none(),
            "element {} at ({}, {}): {:?}",
            a.elem_id,
            a.x,
            a.y,
            touches.map(|b| (b.elem_id, b.x, b.y))
        );
    }
    let hidden = all.iter().find(|m| !m.label).map(|m| m.index).unwrap_or_default();
    let m = marble(&st, hidden);
    st.dispatch(start(DragStart::Element(hidden), m.x, 0.0));
    assert!(st.scene.lifted.as_ref().is_some_and(|l| l.label && l.index == hidden), "the lifted copy names it");
    let big = state(&spread(3000));
    assert_eq!(big.scene.backend, Backend::Canvas);
    assert!(big.scene.marble_items().all(|m| m.label));
}

/// The hover's cursor agrees with the press: wherever `Scene::grabs` says a press grabs (it looks
/// only through the lanes near the pointer), `Scene::hit` finds an element or the watermark, and
/// nowhere else: just inside and outside every fourth marble's hit circle all round, and across a
/// grid; on SVG above the hit rings' 500 elements, on the canvas, with marbles stacked in rows
/// (whose circles reach below their lane, into the gap between lanes), and mid-run.
#[test]
fn a_hover_grabs_exactly_where_a_press_grabs() {
    let scenes = [state(&spread(600)), state(&spread(3000)), state(&many(2500)), state(&many(400)), {
        let mut st = state(&spread(40));
        st.dispatch(Action::Play(crate::ui::action::PlayAction::SetStep(20)));
        st
    }];
    for st in &scenes {
        let s = &st.scene;
        let (mut grabbing, mut not) = (0, 0);
        let mut check = |x: f64, y: f64| {
            let hit = matches!(s.hit(x, y), Hit::Object(ObjectId::Element(_) | ObjectId::Watermark));
            assert_eq!(s.grabs(x, y), hit, "at ({x}, {y}): {:?}", s.hit(x, y));
            if hit { grabbing += 1 } else { not += 1 }
        };
        for m in s.marble_items().step_by(4) {
            check(m.x, m.y);
            for k in 0..16 {
                let a = std::f64::consts::TAU * f64::from(k) / 16.0;
                for r in [13.95, 14.05] {
                    check(m.x + r * a.cos(), m.y + r * a.sin());
                }
            }
        }
        let wm = &s.watermark;
        for (x, y) in [(wm.x, wm.top + 40.0), (wm.x + 8.0, wm.top + 40.0), (wm.label_x + 3.0, wm.top + 3.0)] {
            check(x, y);
        }
        let mut y = 0.0;
        while y < s.height {
            let mut x = -10.0;
            while x < s.width + 10.0 {
                check(x, y);
                x += 37.0;
            }
            y += 11.0;
        }
        assert!(grabbing > 10 && not > 100, "{grabbing} grabbing, {not} not ({:?})", s.backend);
    }
}

/// The SVG backend's tile columns (`TileGrid`): 6 to 12 columns of a power of two of
/// milliseconds show, from time 0; an x near the view is in its column's area, a column of its
/// own, and further out it is the far left or far right one's; a pan of less than the view, or a
/// zoom within a power of two, leaves a time's column where it was.
#[test]
fn tile_columns_hold_still_under_a_pan() {
    use crate::ui::geometry::{Viewport, px_from_millis_f64};
    use crate::ui::scene::{FAR_LEFT, FAR_RIGHT, TileGrid};
    for (start, end, px) in [(0.0, 60_000.0, 1200.0), (-7_777.0, 2_000_000.0, 1550.0), (1.7e12, 1.7e12 + 3.6e6, 700.0)]
    {
        let vp = Viewport::new(start, end, px);
        let g = TileGrid::of(&vp);
        let shown = g.last - g.first + 1;
        assert!((6..=13).contains(&shown), "{shown} columns over {vp:?}");
        let span = g.width / px * (end - start);
        assert_eq!(span.log2().round(), span.log2(), "a power of two of ms: {span}");
        assert!(span <= (end - start) / 6.0 && span > (end - start) / 12.0, "{span}");
        for i in -400..=400 {
            let x = i as f64 * px / 100.0 + 0.37;
            let key = g.column(x);
            let c = g.first + ((x - g.origin) / g.width).floor() as i64;
            let (left, width) = g.area(key, px);
            match c {
                c if c < g.first - 1 => assert_eq!((key, left, width), (FAR_LEFT, 0.0, px), "x {x}"),
                c if c > g.last + 1 => assert_eq!((key, left, width), (FAR_RIGHT, 0.0, px), "x {x}"),
                c => {
                    assert_eq!(key, c, "x {x}");
                    assert!(left <= x + 1e-6 && x < left + width + 1e-6, "x {x}: column {key} area {left}+{width}");
                }
            }
        }
        // A pan by a third of the view, and a zoom by 1.3 about the middle (within a power of two
        // or not): a time shown in both views keeps its column, unless the zoom changed the span.
        let third = (end - start) / 3.0;
        let mid = (start + end) / 2.0;
        for moved in [
            Viewport::new(start + third, end + third, px),
            Viewport::new(start - third, end - third, px),
            Viewport::new(mid - (mid - start) / 1.3, mid + (end - mid) / 1.3, px),
        ] {
            let h = TileGrid::of(&moved);
            let same_span = (h.width / px * (moved.end_millis - moved.start_millis) - span).abs() < 1e-6;
            for k in 0..100 {
                let t = moved.start_millis.max(start)
                    + (k as f64 + 0.5) / 100.0 * (end.min(moved.end_millis) - moved.start_millis.max(start));
                let (a, b) = (g.column(px_from_millis_f64(&vp, t)), h.column(px_from_millis_f64(&moved, t)));
                if same_span {
                    assert_eq!(a, b, "time {t} moved from column {a} to {b}");
                }
            }
        }
    }
    // No view to cut (a width of nothing, a span of nothing): one column, the canvas's.
    let none = TileGrid::default();
    assert_eq!((none.column(123.0), none.area(0, 900.0)), (0, (0.0, 900.0)));
}

/// A scene for the SVG backend cuts its marble and window groups by tile column: every item lies
/// in its group's column, the groups stay in (lane, input order) order, and a group of the same
/// lane and input chunk is cut only where the column changes. The canvas backend's are not cut.
#[test]
fn svg_scenes_cut_their_groups_by_tile_column() {
    for assigner in [
        r#"{"kind": "tumbling", "size": 60000}"#,
        r#"{"kind": "sliding", "size": 60000, "slide": 20000}"#,
        r#"{"kind": "session", "gap": 900}"#,
    ] {
        for n in [1500, 2400] {
            let items: Vec<String> = (0..n)
                .map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 17, i * 300 + (i * 7919) % 20_000))
                .collect();
            let json = format!(
                r#"{{"assigner": {assigner}, "side_output": true, "watermarks": {{"kind": "bounded_out_of_orderness", "bound": 3000}}, "input": [{}]}}"#,
                items.join(",")
            );
            let mut st = state(&json);
            // Zoomed in too: items out of the view go to coarse columns.
            for zoom in [false, true] {
                if zoom {
                    st.dispatch(Action::View(crate::ui::action::ViewAction::ZoomAt { px: 500.0, factor: 4.0 }));
                    st.dispatch(Action::View(crate::ui::action::ViewAction::Settle));
                }
                let s = &st.scene;
                let g = s.grid;
                if n > 2000 {
                    assert_eq!(s.backend, Backend::Canvas);
                    assert_eq!(g, crate::ui::scene::TileGrid::default());
                    assert!(s.marbles.iter().all(|m| m.column == 0) && s.windows.iter().all(|w| w.column == 0));
                    continue;
                }
                assert!(g.width > 0.0, "{assigner}: a grid");
                let columns: std::collections::BTreeSet<i64> = s.marbles.iter().map(|m| m.column).collect();
                assert!(columns.len() >= 6, "{assigner} zoom {zoom}: {columns:?}");
                for m in &s.marbles {
                    assert!(m.items.iter().all(|i| g.column(i.x) == m.column), "{assigner}: group {}", m.key);
                }
                for w in &s.windows {
                    assert!(w.items.iter().all(|i| g.column(i.x0) == w.column), "{assigner}: lane {}", w.lane);
                }
                // Cut only where the column changes: two groups of a lane and input chunk in a row
                // are in different columns.
                for pair in s.marbles.windows(2) {
                    let chunk = |m: &crate::ui::scene::MarbleGroup| (m.lane, m.items[0].index / 64);
                    if chunk(&pair[0]) == chunk(&pair[1]) {
                        assert_ne!(pair[0].column, pair[1].column, "{assigner}: {} {}", pair[0].key, pair[1].key);
                    }
                }
            }
        }
    }
}

/// Where two marbles overlap across a tile column's edge, the right column's is drawn on top (the
/// SVG backend draws by tile): a press between them grabs it, whichever came first in the input.
#[test]
fn a_press_grabs_the_marble_drawn_on_top_across_a_column_edge() {
    for (first, second) in [(33_068, 32_468), (32_468, 33_068)] {
        let json = format!(
            r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [
                {{"id": 1, "key": "A", "ts": {first}}}, {{"id": 2, "key": "A", "ts": {second}}},
                {{"id": 3, "key": "B", "ts": 0}}, {{"id": 4, "key": "B", "ts": 100000}}]}}"#
        );
        let st = state(&json);
        let (a, b) = (marble(&st, 0), marble(&st, 1));
        let column = |m: &crate::ui::scene::MarbleItem| st.scene.grid.column(m.x);
        assert_ne!(column(&a), column(&b), "the two straddle a column's edge: {} {}", a.x, b.x);
        let right = if a.x > b.x { &a } else { &b };
        let (x, y) = ((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
        assert!(
            (a.x - x).hypot(a.y - y) <= crate::ui::scene::MARBLE_HIT_R
                && (b.x - x).hypot(b.y - y) <= crate::ui::scene::MARBLE_HIT_R
        );
        assert_eq!(st.scene.hit(x, y), Hit::Object(right.id), "{first} then {second}");
    }
}

/// A click on a marble (a press and a release with no move) explains it and edits nothing: its
/// timestamp is not snapped to the unit (the release of a drag snaps it), no run is asked for and
/// no undo step made. A press whose moves come back to where they started is a drag: snapped.
#[test]
fn a_click_on_a_marble_snaps_nothing() {
    let (mut st, later) = later_loaded(&spread(1500));
    let unit = st.view.snap_unit();
    let i = (0..1500)
        .find(|&i| ts(&st, i).is_some_and(|t| t % unit != 0))
        .unwrap_or_else(|| panic!("an element off the unit"));
    let m = marble(&st, i);
    let (before, revision, commits) = (ts(&st, i), st.doc.revision, st.doc.commits);
    st.dispatch(start(DragStart::Element(i), m.x, m.ts as f64));
    st.dispatch(end());
    assert_eq!(ts(&st, i), before, "not snapped");
    assert_eq!((st.doc.revision, st.doc.commits), (revision, commits), "no edit");
    assert!(later.requests().is_empty(), "no run");
    assert!(st.drag.is_none() && st.scene.lifted.is_none() && !st.scene.dragging, "the drag is over: {:?}", st.drag);
    assert_eq!(st.selection, Some(ObjectId::Element(i)), "the clicked element is selected");
    // There and back: a drag, snapped at its release.
    st.dispatch(start(DragStart::Element(i), m.x, m.ts as f64));
    st.dispatch(to(m.x + 30.0, (m.ts + 40_000) as f64));
    st.dispatch(to(m.x, m.ts as f64));
    st.dispatch(end());
    later.answer_all(&mut st);
    assert_eq!(ts(&st, i), before.map(|t| crate::ui::geometry::snap(t, unit)));
    assert_eq!(st.doc.commits, commits + 1);
}

/// In the interval between an SVG drop (1,500 elements: its run in the worker) and its answer, the
/// scene is patched: the dragged element's copy lifted at the dropped time, the groups as the rest
/// drew them. An undo, a cancel or the 2-D toggle in that interval leaves no copy behind: the scene
/// is what a full build of the same moment draws, the element where the document now has it (its
/// time before the drag for an undo and a cancel, the drop's for the toggle), and the same once
/// the answers come.
#[test]
fn what_ends_a_drops_interval_leaves_no_lifted_copy() {
    let toggle = Action::View(ViewAction::ToggleProcessingAxis);
    let cases = [
        ("undo", vec![Action::Undo], false),
        ("cancel", vec![Action::CancelRun], false),
        ("2-D", vec![toggle.clone()], true),
        ("2-D and back", vec![toggle.clone(), toggle], true),
    ];
    for (name, actions, kept) in cases {
        let (mut st, later) = later_loaded(&spread(1500));
        let m = marble(&st, 3);
        st.dispatch(start(DragStart::Element(3), m.x, m.ts as f64));
        later.answer_all(&mut st);
        st.dispatch(to(m.x + 30.0, (m.ts + 3000) as f64));
        st.dispatch(end());
        assert!(st.scene.lifted.is_some(), "{name}: the drop's copy, its run out");
        let snapped = ts(&st, 3).unwrap_or_else(|| panic!("{name}: the element"));
        assert_ne!(snapped, m.ts, "{name}: dropped elsewhere");
        for a in actions {
            st.dispatch(a);
        }
        let want = if kept { snapped } else { m.ts };
        assert_eq!(ts(&st, 3), Some(want), "{name}: the document's time");
        let check = |st: &mut AppState, when: &str| {
            assert!(st.scene.lifted.is_none(), "{name}, {when}: no lifted copy");
            let shown = st.scene.marble_items().filter(|m| m.index == 3).map(|m| (m.ts, m.origin)).collect::<Vec<_>>();
            let (patched, full) = patched_and_full(st);
            let built = full.marble_items().filter(|m| m.index == 3).map(|m| (m.ts, m.origin)).collect::<Vec<_>>();
            assert_eq!(shown, built, "{name}, {when}: the element as a full build draws it");
            assert_eq!(
                (&patched.marbles, &patched.windows, &patched.watermark),
                (&full.marbles, &full.windows, &full.watermark),
                "{name}, {when}: the scene is a full build's"
            );
        };
        check(&mut st, "before the answers");
        later.answer_all(&mut st);
        assert_eq!(st.run_status().0, "done", "{name}");
        check(&mut st, "after the answers");
        assert_eq!(marble(&st, 3).ts, want, "{name}: the element on show");
    }
}
