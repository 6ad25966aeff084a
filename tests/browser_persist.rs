//! Undo and the autosave inside the browser (headless Chromium, `wasm-bindgen-test-runner`): the
//! real localStorage round trip of [`tidemark::ui::storage`], the start-up precedence on what it
//! read back, and the undo history with wasm32's 32-bit `usize` costs.
//!
//! Run with `cargo test --target wasm32-unknown-unknown --test browser_persist`; empty natively.
#![cfg(target_arch = "wasm32")]

use tidemark::ui::action::{Action, EditAction, ObjectId};
use tidemark::ui::history::History;
use tidemark::ui::state::AppState;
use tidemark::ui::storage::{AUTOSAVE_KEY, read_autosave, write_autosave};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn clear() {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.remove_item(AUTOSAVE_KEY);
    }
}

/// What the app writes after an edit, a reload reads back: the same scenario, step and preset.
#[wasm_bindgen_test]
fn autosave_round_trips_through_local_storage() {
    clear();
    assert_eq!(read_autosave(), Ok(None), "nothing saved yet");
    let mut s = AppState::from_hash("#preset=lab-6-2&step=3", 1000.0);
    s.dispatch(Action::Select(Some(ObjectId::Element(0))));
    s.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    let text = s.autosave_fragment();
    assert_eq!(write_autosave(&text), Ok(()));
    let read = read_autosave();
    assert_eq!(read.as_ref().ok().and_then(|t| t.as_deref()), Some(text.as_str()));
    let back = AppState::from_hash_and_autosave("", read, 1000.0);
    assert_eq!(*back.doc.scenario, *s.doc.scenario);
    assert_eq!(back.play.step, s.play.step);
    assert_eq!(back.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"));
    clear();
}

/// A corrupt value in the real storage gives a banner and the default scenario, never a panic.
#[wasm_bindgen_test]
fn corrupt_local_storage_falls_back() {
    clear();
    assert_eq!(write_autosave("z=%%%"), Ok(()));
    let s = AppState::from_hash_and_autosave("", read_autosave(), 1000.0);
    assert_eq!(s.doc.scenario.name, "course_worked_timeline_7");
    assert!(
        s.chrome.banners.iter().any(|b| b.contains("could not be restored") && b.contains("base64url")),
        "{:?}",
        s.chrome.banners
    );
    clear();
}

/// The history's byte bound holds with 32-bit sizes: costs near `usize::MAX / 2` do not overflow.
#[wasm_bindgen_test]
fn history_bounds_on_wasm32() {
    let mut h: History<u32> = History::new(200, usize::MAX / 2);
    for i in 0..300 {
        h.record(i, usize::MAX / 8, None);
    }
    assert_eq!(h.undo_len(), 4);
    assert!(h.cost() <= usize::MAX / 2);
    assert_eq!(h.undo(300, 1), Some(299));
    assert_eq!(h.redo(299, 1), Some(300));
}
