//! Scenes of more than 2,000 elements (issue 15): the canvas backend, its overlay, and hit
//! testing and drags on it as on SVG.

use super::*;
use crate::ui::action::ObjectId;
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
