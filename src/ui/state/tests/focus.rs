//! The canvas's keyboard focus (TIMELINE_CONTRACT.md §4): one Tab stop, roving focus, ]/[ and
//! ↑/↓ between objects, W explains, names for everything focusable.

use super::*;
use crate::ui::action::{CanvasAction, ObjectId, PlayAction, WhyTarget};
use crate::ui::geometry::Viewport;
use crate::ui::scene::{TabStop, label};

const TWO_KEYS: &str = r#"{"assigner": {"kind": "tumbling", "size": 10000}, "side_output": true,
    "input": [{"id": 1, "key": "A", "ts": 1000}, {"id": 2, "key": "B", "ts": 3000}, {"id": 3, "key": "A", "ts": 12000},
              {"wm": 15000}, {"id": 4, "key": "A", "ts": 2000}]}"#;

fn two_keys() -> AppState {
    let mut st = state(TWO_KEYS);
    st.view.viewport = Viewport::new(0.0, 20_000.0, 1000.0);
    st.dispatch(Action::Play(PlayAction::Last));
    st
}

fn tab_stops(st: &AppState) -> Vec<ObjectId> {
    let s = &st.scene;
    let mut v: Vec<ObjectId> =
        s.marbles.iter().flat_map(|g| g.items.iter()).filter(|m| m.tab == TabStop::Entry).map(|m| m.id).collect();
    v.extend(s.windows.iter().flat_map(|g| g.items.iter()).filter(|w| w.tab == TabStop::Entry).map(|w| w.id));
    v.extend(s.timers.iter().filter(|t| t.tab == TabStop::Entry).map(|t| t.id));
    v.extend(s.side.groups.iter().flat_map(|(_, g)| g.iter()).filter(|m| m.tab == TabStop::Entry).map(|m| m.id));
    if s.watermark.tab == TabStop::Entry {
        v.push(ObjectId::Watermark);
    }
    v
}

/// One Tab stop: the first element in event time, or the selected object.
#[test]
fn the_canvas_is_one_tab_stop() {
    let mut st = two_keys();
    assert_eq!(tab_stops(&st), vec![ObjectId::Element(0)]);
    st.dispatch(Action::Canvas(CanvasAction::Focused(ObjectId::Element(2))));
    assert!(st.focus.inside);
    assert_eq!(st.selection, Some(ObjectId::Element(2)), "focus and selection are one thing");
    assert_eq!(tab_stops(&st), vec![ObjectId::Element(2)]);
    st.dispatch(Action::Canvas(CanvasAction::Blurred));
    assert!(!st.focus.inside);
    assert_eq!(tab_stops(&st), vec![ObjectId::Element(2)], "Tab comes back to it");
}

/// A focus report that changes nothing is known as such (`hooks::AppCell` keeps the version
/// for it: no render): the focus coming back to the selected object (its node made anew) and a
/// blur of a canvas that had no focus. Every other report is reduced as before.
#[test]
fn focus_reports_that_change_nothing_are_told_apart() {
    let focus = |id| Action::Canvas(CanvasAction::Focused(id));
    let st = two_keys();
    // Not focused yet: a focus report selects, and a blur changes nothing.
    assert!(!st.changes_nothing(&focus(ObjectId::Element(2))));
    assert!(st.changes_nothing(&Action::Canvas(CanvasAction::Blurred)));
    let mut focused = st.clone();
    focused.dispatch(focus(ObjectId::Element(2)));
    assert!(focused.focus.inside);
    // The same object again: nothing; another object, or a blur: a change.
    assert!(focused.changes_nothing(&focus(ObjectId::Element(2))));
    assert!(!focused.changes_nothing(&focus(ObjectId::Element(0))));
    assert!(!focused.changes_nothing(&Action::Canvas(CanvasAction::Blurred)));
    let mut other = focused.clone();
    other.dispatch(focus(ObjectId::Element(0)));
    assert_eq!(other.selection, Some(ObjectId::Element(0)));
    let mut blurred = focused.clone();
    blurred.dispatch(Action::Canvas(CanvasAction::Blurred));
    assert!(!blurred.focus.inside);
    // The same object in another lane than the focus's (its lane changed): a change.
    let mut elsewhere = focused.clone();
    elsewhere.focus.lane += 1;
    assert!(!elsewhere.changes_nothing(&focus(ObjectId::Element(2))));
    // The watermark is in every lane and has none of its own: focused again, nothing changes.
    let mut wm = focused.clone();
    wm.dispatch(focus(ObjectId::Watermark));
    assert!(wm.changes_nothing(&focus(ObjectId::Watermark)));
}

/// ] and [ walk the lane in event time; ↓ goes to the next lane, then the side output.
#[test]
fn keys_move_between_objects() {
    let mut st = two_keys();
    st.dispatch(Action::Canvas(CanvasAction::Focused(ObjectId::Element(0))));
    let lane_a: Vec<ObjectId> = (0..6)
        .map(|_| {
            st.dispatch(canvas_key("]"));
            st.selection.unwrap_or(ObjectId::Watermark)
        })
        .collect();
    assert!(lane_a.contains(&ObjectId::Element(2)), "{lane_a:?}");
    assert!(lane_a.iter().any(|o| matches!(o, ObjectId::Window { .. })), "windows are in the lane: {lane_a:?}");
    assert!(lane_a.iter().any(|o| matches!(o, ObjectId::Timer { .. })) || st.fold.view.timers.is_empty());
    assert!(lane_a.iter().all(|o| !matches!(o, ObjectId::Element(1))), "element 2 is in lane B: {lane_a:?}");
    st.dispatch(canvas_key("["));
    st.dispatch(Action::Canvas(CanvasAction::Focused(ObjectId::Element(0))));
    st.dispatch(canvas_key("ArrowDown"));
    let in_lane_b = |o: Option<ObjectId>| match o {
        Some(ObjectId::Element(i)) => i == 1,
        Some(ObjectId::Window { key, .. } | ObjectId::Timer { key, .. }) => key == 1,
        _ => false,
    };
    assert!(in_lane_b(st.selection), "the nearest object of lane B: {:?}", st.selection);
    st.dispatch(canvas_key("ArrowDown"));
    assert_eq!(st.selection, Some(ObjectId::Late(4)), "element 4 went to the side output");
    st.dispatch(canvas_key("ArrowUp"));
    st.dispatch(canvas_key("ArrowUp"));
    assert!(matches!(
        st.selection,
        Some(ObjectId::Element(0 | 2 | 4) | ObjectId::Window { .. } | ObjectId::Timer { .. } | ObjectId::Watermark)
    ));
}

/// W explains the focused object, at the object.
#[test]
fn w_explains_the_focused_object() {
    let mut st = two_keys();
    st.dispatch(Action::Canvas(CanvasAction::Focused(ObjectId::Element(4))));
    let w = KeyInput { anchor_px: Some((30.0, 40.0)), ..KeyInput::canvas("W") };
    st.dispatch(Action::Key(w));
    let why = st.teach.why.unwrap_or_else(|| panic!("a why popover"));
    assert_eq!((why.x_px, why.y_px), (30.0, 40.0));
    assert!(matches!(why.target, WhyTarget::Element(3)), "element 4 is the 4th element: {:?}", why.target);
    st.dispatch(canvas_key("Escape"));
    assert!(st.teach.why.is_none(), "Escape closes the popover first");
}

/// Every focusable object has a name that says its kind and key.
#[test]
fn every_focusable_object_is_named() {
    let st = two_keys();
    let s = &st.scene;
    let mut names: Vec<String> = s.marbles.iter().flat_map(|g| g.items.iter()).map(label::element).collect();
    names.extend(s.windows.iter().flat_map(|g| g.items.iter()).filter(|w| !w.merged).map(label::window));
    names.extend(s.timers.iter().map(label::timer));
    names.extend(s.side.groups.iter().flat_map(|(_, g)| g.iter()).map(label::late_element));
    names.push(label::watermark(&s.watermark));
    assert_eq!(names.len(), s.focusables().iter().map(|f| f.id).collect::<std::collections::BTreeSet<_>>().len());
    for n in &names {
        assert!(["Element", "Window", "Trigger", "Cleanup", "Watermark"].iter().any(|k| n.starts_with(k)), "{n}");
    }
    assert!(names.iter().any(|n| n == "Window [0, 10000), key A: cleaned, 0 elements in state, 1 firing"), "{names:?}");
    // An element's name says its outcome with its window (the end of input fired [10000, 20000)).
    let has = |n: &str| names.iter().any(|x| x == n);
    assert!(has("Element 1, key A, event time 1000, value 1: main firing of window 0–10000"), "{names:?}");
    assert!(has("Element 3, key A, event time 12000, value 1: main firing of window 10000–20000"), "{names:?}");
    assert!(has("Element 4, key A, event time 2000, value 1: side output: too late for window 0–10000"), "{names:?}");
    assert!(has("Element 4, event time 2000, in the side output lane: too late for window 0–10000"), "{names:?}");
}
