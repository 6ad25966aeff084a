//! A wheel, pinch or pan gesture over a large scene: the scene drawn when it began is kept and
//! shown moved onto the view (`AppState::view_preview`), and built at the view when the gesture
//! rests or ends (`ViewAction::Settle`, the pan's release); anything else builds at once.

use std::rc::Rc;

use super::*;
use crate::ui::action::{CompareAction, CompareExample, Mode, PanelAction, PlayAction, TeachAction, ViewAction};
use crate::ui::scene::Scene;
use crate::ui::state::PREVIEW_FROM_ELEMENTS;

/// `n` elements over 12 keys and ten minutes, tumbling by the minute.
fn spread(n: usize) -> String {
    let items: Vec<String> =
        (0..n).map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 12, (i * 7919) % 600_000)).collect();
    format!(r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#, items.join(","))
}

fn view(a: ViewAction) -> Action {
    Action::View(a)
}

/// Each marble of `before` (drawn at an earlier viewport) moved by `(k, dx)` is where `after`
/// (built at the view) draws it along the axis, for the marbles inside the view (the build clamps
/// those far out). (Not up and down: marbles that share a spot are stacked by what shares it.)
fn assert_moved_onto(before: &Scene, after: &Scene, (k, dx): (f64, f64)) {
    let mut checked = 0;
    for m in after.marble_items().filter(|m| m.x > 0.0 && m.x < after.width) {
        let Some(old) = before.marble_items().find(|o| o.index == m.index) else { panic!("marble {} is new", m.index) };
        // Both are rounded to 0.1 unit when built.
        let moved = k * old.x + dx;
        assert!(
            (moved - m.x).abs() <= 0.06 * k + 0.06,
            "marble {}: {} moved to {moved}, built at {}",
            m.index,
            old.x,
            m.x
        );
        checked += 1;
    }
    assert!(checked > 20, "only {checked} marbles in the view");
}

/// The scene built at the view equals a scene built there directly (no gesture ever began).
fn assert_built_as_directly(st: &AppState, json: &str) {
    assert_built_as_directly_after(st, json, &|_| {});
}

/// The same, where `act` was done as well.
fn assert_built_as_directly_after(st: &AppState, json: &str, act: &Act) {
    let mut direct = state(json);
    act(&mut direct);
    direct.view.viewport = st.view.viewport;
    direct.dispatch(view(ViewAction::Settle));
    assert_eq!(
        format!("{:?}", (&st.scene.marbles, &st.scene.windows, &st.scene.axis)),
        format!("{:?}", (&direct.scene.marbles, &direct.scene.windows, &direct.scene.axis)),
    );
}

#[test]
fn wheel_steps_show_the_drawing_moved_and_the_rest_builds_it_at_the_view() {
    let json = spread(300);
    let mut st = state(&json);
    assert_eq!(st.view_preview(), None);
    let before = st.scene.clone();
    st.dispatch(view(ViewAction::ZoomAt { px: 400.0, factor: 1.7 }));
    st.dispatch(view(ViewAction::ZoomAt { px: 650.0, factor: 1.3 }));
    st.dispatch(view(ViewAction::PanBy { dx_px: -120.0 }));
    assert!(Rc::ptr_eq(&st.scene, &before), "the drawing is kept while the wheel turns");
    let Some((k, dx)) = st.view_preview() else { panic!("no preview") };
    assert!((k - 1.7 * 1.3).abs() < 1e-9, "zoomed by {k}");
    assert!(dx < 0.0, "{dx}");
    st.dispatch(view(ViewAction::Settle));
    assert!(!Rc::ptr_eq(&st.scene, &before), "built when it rests");
    assert_eq!(st.view_preview(), None);
    assert!(!st.view.gesture);
    assert_moved_onto(&before, &st.scene, (k, dx));
    assert_built_as_directly(&st, &json);
    // A rest with no gesture under way changes nothing (no render: `changes_nothing`).
    assert!(st.changes_nothing(&view(ViewAction::Settle)));
}

#[test]
fn a_pan_shows_the_drawing_moved_and_its_release_builds_it() {
    let json = spread(500);
    let mut st = state(&json);
    let before = st.scene.clone();
    st.dispatch(start(DragStart::Pan, 500.0, 0.0));
    assert!(Rc::ptr_eq(&st.scene, &before), "a press on the background builds nothing");
    for x in [480.0, 430.0, 390.0] {
        st.dispatch(to(x, 0.0));
    }
    assert!(Rc::ptr_eq(&st.scene, &before));
    let (k, dx) = st.view_preview().unwrap_or_else(|| panic!("no preview"));
    assert!((k - 1.0).abs() < 1e-9 && (dx + 110.0).abs() < 1e-6, "the drawing follows the pointer: {k} {dx}");
    // Held still, it rests: built at the view, and the pan goes on from there.
    st.dispatch(view(ViewAction::Settle));
    let rested = st.scene.clone();
    assert!(!Rc::ptr_eq(&rested, &before));
    assert_moved_onto(&before, &rested, (k, dx));
    st.dispatch(to(420.0, 0.0));
    assert!(Rc::ptr_eq(&st.scene, &rested));
    assert!((st.view_preview().map_or(0.0, |p| p.1) - 30.0).abs() < 1e-6);
    st.dispatch(end());
    assert_eq!(st.view_preview(), None, "the release builds it");
    assert!(st.drag.is_none() && !st.view.gesture);
    assert_built_as_directly(&st, &json);
    // A click on the background (no move) builds nothing.
    let clicked = st.scene.clone();
    st.dispatch(start(DragStart::Pan, 100.0, 0.0));
    st.dispatch(end());
    assert!(Rc::ptr_eq(&st.scene, &clicked));
}

type Act = dyn Fn(&mut AppState);

/// Anything but the view builds at once, at the view: a button's or key's zoom, a step of the
/// playhead, lecture mode, a resize, compare mode, an element's drag, the 2-D view.
#[test]
fn anything_but_the_view_builds_at_once() {
    let json = spread(300);
    let mid = |st: &AppState| st.scene.marble_items().nth(150).map(|m| (m.index, m.x)).unwrap_or_default();
    let cases: Vec<(&str, Box<Act>)> = vec![
        ("zoom in", Box::new(|st: &mut AppState| st.dispatch(view(ViewAction::ZoomIn)))),
        ("fit", Box::new(|st: &mut AppState| st.dispatch(view(ViewAction::Fit)))),
        ("a step back", Box::new(|st: &mut AppState| st.dispatch(Action::Play(PlayAction::Back)))),
        ("lecture mode", Box::new(|st: &mut AppState| st.dispatch(Action::Teach(TeachAction::SetMode(Mode::Lecture))))),
        ("a resize", Box::new(|st: &mut AppState| st.dispatch(Action::Resize { width_px: 900.0, height_px: 600.0 }))),
        (
            "compare mode",
            Box::new(|st: &mut AppState| st.dispatch(Action::Compare(CompareAction::Example(CompareExample::Bounds)))),
        ),
        (
            "an element's press",
            Box::new(move |st: &mut AppState| {
                let (i, x) = mid(st);
                st.dispatch(start(DragStart::Element(i), x, 0.0));
            }),
        ),
    ];
    for (what, act) in cases {
        let mut st = state(&json);
        st.dispatch(view(ViewAction::ZoomAt { px: 300.0, factor: 1.5 }));
        assert!(st.view_preview().is_some(), "{what}");
        act(&mut st);
        // (Fit goes back to the view the drawing was made at: kept, and right.)
        assert_eq!(st.view_preview(), None, "{what}: at the view");
        assert_built_as_directly_after(&st, &json, &*act);
    }
    // The 2-D view builds every step.
    let mut st = state(&json);
    st.dispatch(Action::Panel(PanelAction::ToggleTwoD));
    let kept = st.scene.clone();
    st.dispatch(view(ViewAction::ZoomAt { px: 300.0, factor: 1.5 }));
    assert!(!Rc::ptr_eq(&st.scene, &kept) && st.view_preview().is_none(), "2-D");
}

/// Scenes under `PREVIEW_FROM_ELEMENTS` (the course's) keep up with a build per step.
#[test]
fn small_scenes_build_at_every_step() {
    let json = spread(PREVIEW_FROM_ELEMENTS - 1);
    let mut st = state(&json);
    let before = st.scene.clone();
    st.dispatch(view(ViewAction::ZoomAt { px: 400.0, factor: 1.7 }));
    assert!(!Rc::ptr_eq(&st.scene, &before));
    assert_eq!(st.view_preview(), None);
    st.dispatch(start(DragStart::Pan, 500.0, 0.0));
    st.dispatch(to(450.0, 0.0));
    assert_eq!(st.view_preview(), None);
    assert_built_as_directly(&st, &json);
}
