//! Nothing lost: undo/redo over every edit, the notice after a load, and the autosave.

use std::rc::Rc;

use super::*;
use crate::ui::action::{
    ConfigEdit, EditAction, Field, KeyTarget, Mode, ObjectId, PanelAction, PlayAction, TeachAction, ViewAction,
};
use crate::ui::geometry::Viewport;
use crate::ui::state::keys::is_shortcut;
use crate::ui::state::undo::{AutosaveStatus, MAX_UNDO_BYTES, MAX_UNDO_STEPS};
use crate::ui::storage::MAX_AUTOSAVE_CHARS;

const MINE: &str = r#"{"name": "mine", "assigner": {"kind": "tumbling", "size": 60000},
    "input": [{"id": 1, "key": "A", "ts": 50000}, {"id": 2, "key": "A", "ts": 70000}, {"wm": 59999}]}"#;

fn mine() -> AppState {
    let mut st = super::state(MINE);
    st.view.viewport = Viewport::new(0.0, 120_000.0, 1200.0);
    st
}

fn ctrl(key: &str, shift: bool) -> Action {
    Action::Key(KeyInput { key: key.into(), ctrl: true, shift, ..KeyInput::default() })
}

fn undo_len(st: &AppState) -> usize {
    st.edits.history.undo_len()
}

/// A drag is one undo step, however many pointer moves it took; redo replays it.
#[test]
fn a_drag_is_one_step() {
    let mut st = mine();
    let before = undo_len(&st);
    st.dispatch(start(DragStart::Element(0), 500.0, 50_000.0));
    for i in 1..=30 {
        st.dispatch(to(500.0 + f64::from(i), 50_000.0 + f64::from(i) * 500.0));
    }
    st.dispatch(end());
    assert_eq!(ts(&st, 0), Some(65_000));
    assert_eq!(undo_len(&st), before + 1);
    assert_eq!(st.edits.history.peek_undo().map(|s| s.label.to_string()).as_deref(), Some("move element 1"));
    st.dispatch(Action::Undo);
    assert_eq!(ts(&st, 0), Some(50_000));
    assert_eq!(st.edits.history.redo_len(), 1);
    st.dispatch(Action::Redo);
    assert_eq!(ts(&st, 0), Some(65_000));
    // A pan changes no scenario: nothing to undo for it.
    st.dispatch(start(DragStart::Pan, 10.0, 0.0));
    st.dispatch(to(60.0, 0.0));
    st.dispatch(end());
    assert_eq!(undo_len(&st), before + 1);
}

/// Undo or redo pressed in the middle of a drag does nothing, and the drag stays one step: its
/// start is kept for its end. (Undo steps are patches of the step after them: had the drag's start
/// been lost, the step before the drag would be applied to a mid-drag document and give back one
/// that never existed.)
#[test]
fn undo_pressed_mid_drag_keeps_the_drag_one_step() {
    let mut st = mine();
    st.dispatch(start(DragStart::Element(1), 700.0, 70_000.0));
    st.dispatch(to(710.0, 80_000.0));
    st.dispatch(end());
    assert_eq!(ts(&st, 1), Some(80_000));
    let steps = undo_len(&st);
    st.dispatch(start(DragStart::Element(0), 500.0, 50_000.0));
    st.dispatch(to(510.0, 55_000.0));
    for key in [ctrl("z", false), ctrl("z", true), Action::Undo, Action::Redo] {
        st.dispatch(key);
        assert_eq!(ts(&st, 0), Some(55_000), "nothing undone mid-drag");
    }
    st.dispatch(to(520.0, 60_000.0));
    st.dispatch(end());
    assert_eq!(undo_len(&st), steps + 1, "the drag is one step");
    st.dispatch(Action::Undo);
    assert_eq!((ts(&st, 0), ts(&st, 1)), (Some(50_000), Some(80_000)), "back to before the drag");
    st.dispatch(Action::Undo);
    assert_eq!((ts(&st, 0), ts(&st, 1)), (Some(50_000), Some(70_000)), "and before the first drag");
    assert_eq!(*st.doc.scenario, scenario(MINE));
    st.dispatch(Action::Redo);
    st.dispatch(Action::Redo);
    assert_eq!((ts(&st, 0), ts(&st, 1)), (Some(60_000), Some(80_000)));
}

/// While an element is dragged, a key's edit of the input (Delete, a nudge) is refused, as undo
/// is: the drag holds the element's index, and a delete would move the drag onto the next item.
#[test]
fn no_edit_of_the_input_in_the_middle_of_a_drag() {
    let mut st = mine();
    st.dispatch(start(DragStart::Element(0), 500.0, 50_000.0));
    st.dispatch(to(510.0, 55_000.0));
    st.dispatch(Action::Edit(EditAction::Delete(0)));
    st.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    assert_eq!(st.doc.scenario.input.len(), 3, "nothing deleted mid-drag");
    st.dispatch(to(520.0, 60_000.0));
    st.dispatch(end());
    assert_eq!(ts(&st, 0), Some(60_000), "the drag moved its own element, by the pointer alone");
    assert_eq!(ts(&st, 1), Some(70_000));
    st.dispatch(Action::Edit(EditAction::Delete(0)));
    assert_eq!(st.doc.scenario.input.len(), 2, "after the drop the delete is taken");
}

/// Dragging the watermark where there is none creates the item; undo removes it again.
#[test]
fn a_watermark_drag_that_creates_the_item_is_one_step() {
    let mut st = mine();
    st.dispatch(Action::Edit(EditAction::Delete(2)));
    let n = undo_len(&st);
    st.dispatch(start(DragStart::Watermark, 300.0, 30_000.0));
    st.dispatch(to(600.0, 61_000.0));
    st.dispatch(end());
    assert_eq!(st.doc.scenario.input.len(), 3);
    assert_eq!(undo_len(&st), n + 1);
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.input.len(), 2);
}

/// Typing "30s" into the size field is one step; undo brings back the size and the panel's text.
#[test]
fn config_typing_is_one_step() {
    let mut st = mine();
    let n = undo_len(&st);
    for text in ["3", "30", "30s"] {
        st.dispatch(Action::Config(ConfigEdit::Text(Field::Size, text.into())));
    }
    st.dispatch(Action::Config(ConfigEdit::Text(Field::Lateness, "5s".into())));
    assert_eq!(undo_len(&st), n + 2);
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.allowed_lateness.unwrap_or(0), 0);
    assert_eq!(st.config.view(&st.doc.scenario).size, "30000");
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.assigner, crate::engine::scenario::AssignerSpec::Tumbling { size: 60_000, offset: 0 });
    assert_eq!(st.config.view(&st.doc.scenario).size, "60000", "the panel shows the restored value");
    // An invalid value changes nothing, so it is not a step.
    st.dispatch(Action::Config(ConfigEdit::Text(Field::Size, "-1".into())));
    assert_eq!(undo_len(&st), n);
}

/// Adding and deleting are steps of their own, undone in reverse order, with the playhead.
#[test]
fn add_and_delete_undo() {
    let mut st = mine();
    let (input, step) = (st.doc.scenario.input.clone(), st.play.step);
    st.dispatch(Action::Edit(EditAction::AddElement { key: Some("B".into()), ts: Some(5_000) }));
    st.dispatch(Action::Edit(EditAction::Delete(0)));
    assert_eq!(st.doc.scenario.input.len(), 3);
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.input.len(), 4);
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.input, input);
    assert_eq!(st.play.step, step);
    // Keyboard edits too: n adds, Ctrl+Z removes.
    st.dispatch(key("n"));
    assert_eq!(st.doc.scenario.input.len(), 4);
    st.dispatch(ctrl("z", false));
    assert_eq!(st.doc.scenario.input, input);
    st.dispatch(ctrl("Z", true));
    assert_eq!(st.doc.scenario.input.len(), 4, "Ctrl+Shift+Z redoes");
    st.dispatch(ctrl("z", false));
    st.dispatch(ctrl("y", false));
    assert_eq!(st.doc.scenario.input.len(), 4, "Ctrl+Y redoes");
}

/// Ctrl+Z is ours outside text fields only: in a text field it is the field's own undo.
#[test]
fn ctrl_z_keys() {
    let k = |key: &str, shift: bool, in_text: bool| KeyInput {
        key: key.into(),
        ctrl: true,
        shift,
        target: if in_text { KeyTarget::Text } else { KeyTarget::Page },
        ..KeyInput::default()
    };
    assert!(is_shortcut(&k("z", false, false)));
    assert!(is_shortcut(&k("Z", true, false)));
    assert!(is_shortcut(&k("y", false, false)));
    assert!(!is_shortcut(&k("z", false, true)), "native undo in text fields");
    assert!(!is_shortcut(&k("c", false, false)), "Ctrl+C stays the browser's");
    // A focused select (the presets menu just used) is not a text field: Ctrl+Z undoes the load.
    let select = KeyInput { key: "z".into(), ctrl: true, target: KeyTarget::Control, ..KeyInput::default() };
    assert!(is_shortcut(&select));
    let mut st = mine();
    st.dispatch(Action::Teach(TeachAction::LoadPreset("lab-6-2".into())));
    st.dispatch(Action::Key(select));
    assert_eq!(st.doc.scenario.name, "mine");
    let mut typing = mine();
    typing.dispatch(Action::Edit(EditAction::AddElement { key: None, ts: None }));
    typing.dispatch(Action::Key(k("z", false, true)));
    assert_eq!(typing.doc.scenario.input.len(), 4, "a key in a text field undoes nothing here");
}

/// Loading a preset, a link or a file keeps the previous scenario one undo away and says so.
#[test]
fn loads_keep_the_previous_scenario_one_undo_away() {
    let mut st = mine();
    st.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    let edited = st.doc.scenario.clone();
    st.dispatch(Action::Teach(TeachAction::LoadPreset("lab-6-2".into())));
    assert_eq!(st.doc.scenario.name, "lab-6-2");
    let notice = st.edits.notice.clone().unwrap_or_else(|| panic!("a notice after a load"));
    assert!(notice.undo);
    assert!(notice.text.starts_with("Loaded “Lab 6.2"), "{}", notice.text);
    st.dispatch(Action::Undo);
    assert_eq!(*st.doc.scenario, *edited);
    assert!(st.teach.preset.is_none());
    assert_eq!(st.edits.notice, None);
    st.dispatch(Action::Redo);
    assert_eq!(st.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"), "redo brings the preset back");
    // An import.
    st.dispatch(Action::Teach(TeachAction::Import { name: "x.json".into(), text: MINE.into() }));
    assert_eq!(st.doc.scenario.name, "mine");
    assert!(st.edits.notice.is_some());
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.name, "lab-6-2");
    // A link pasted into the tab.
    let link = st.teach.share_fragment(&edited, 1, 4);
    st.dispatch(Action::Teach(TeachAction::OpenHash(format!("#{link}"))));
    assert_eq!(*st.doc.scenario, *edited);
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.name, "lab-6-2");
    // The next edit makes the notice stale: it goes.
    st.dispatch(Action::Teach(TeachAction::LoadPreset("lab-6-1".into())));
    st.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    st.dispatch(Action::Select(Some(ObjectId::Element(0))));
    st.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    assert_eq!(st.edits.notice, None);
}

/// A broken link pasted into the tab changes nothing: same scenario, same preset, a banner.
#[test]
fn a_broken_link_keeps_the_scenario() {
    let mut st = AppState::from_hash("#preset=lab-6-2&step=3", 1200.0);
    st.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    let before = st.doc.scenario.clone();
    let n = undo_len(&st);
    for bad in ["#z=not-deflate!!", "#scenario=e30", "#scenario=!!!&preset=lab-6-1"] {
        st.dispatch(Action::Teach(TeachAction::OpenHash(bad.into())));
        assert_eq!(*st.doc.scenario, *before, "{bad}");
        assert_eq!(st.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"), "{bad}");
        assert!(
            st.chrome.banners.iter().any(|b| b.starts_with("Could not open the link")),
            "{bad}: {:?}",
            st.chrome.banners
        );
        assert_eq!(undo_len(&st), n);
    }
}

/// Playback, selection and zoom are not edits.
#[test]
fn views_are_not_steps() {
    let mut st = mine();
    let n = undo_len(&st);
    for a in [
        Action::Play(PlayAction::Back),
        Action::Play(PlayAction::First),
        Action::Select(Some(ObjectId::Element(1))),
        Action::View(ViewAction::ZoomIn),
        Action::View(ViewAction::Fit),
        Action::Panel(PanelAction::ToggleTwoD),
    ] {
        st.dispatch(a);
    }
    assert_eq!(undo_len(&st), n);
    st.dispatch(Action::Undo);
    assert_eq!(st.doc.scenario.name, "course_worked_timeline_7", "the load of `state()` is the one step");
}

fn saved_of(st: &AppState) -> String {
    st.autosave_fragment()
}

/// The autosave restores the scenario, the preset's title and units, and the step.
#[test]
fn autosave_round_trips() {
    let mut st = AppState::from_hash("#preset=lab-6-2&step=3", 1200.0);
    assert_eq!(saved_of(&st), "preset=lab-6-2&step=3", "an untouched preset is saved by name");
    st.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    st.dispatch(Action::Select(Some(ObjectId::Element(0))));
    st.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    let saved = saved_of(&st);
    assert!(saved.starts_with("z=") && saved.ends_with("&preset=lab-6-2"), "{saved}");
    let back = AppState::from_hash_and_autosave("", Ok(Some(saved)), 1200.0);
    assert_eq!(*back.doc.scenario, *st.doc.scenario);
    assert_eq!(back.play.step, st.play.step);
    assert_eq!(back.teach.values, st.teach.values);
    assert!(back.chrome.banners.is_empty(), "{:?}", back.chrome.banners);
    assert_eq!(back.edits.notice.as_ref().map(|n| n.undo), Some(false), "says it restored");
    assert_eq!(undo_len(&back), 0);
    // A hash without a scenario (a mode, a step) still restores the autosave.
    let lecture = AppState::from_hash_and_autosave("#mode=lecture", Ok(Some(saved_of(&st))), 1200.0);
    assert_eq!(*lecture.doc.scenario, *st.doc.scenario);
    assert_eq!(lecture.teach.mode, Mode::Lecture);
}

/// A stream too long for a link: the address bar carries its step and view, not its scenario, and
/// says `local`; a reload restores it from the autosave; without the autosave the link says why
/// it opened something else. Where the autosave is off, the address bar keeps the scenario.
#[test]
fn a_stream_too_long_for_a_link_stays_out_of_the_address_bar() {
    let mut seed = 15u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        seed >> 40
    };
    let input: Vec<String> = (0..8000)
        .map(|i| {
            format!(
                r#"{{"id": {}, "key": "k{}", "ts": {}, "value": {}}}"#,
                i + 1,
                i % 20,
                i * 1000 + next() % 20_000,
                next() % 1000
            )
        })
        .collect();
    let json = format!(
        r#"{{"name": "big", "assigner": {{"kind": "tumbling", "size": 30000}},
            "watermarks": {{"kind": "bounded_out_of_orderness", "bound": 5000}}, "input": [{}]}}"#,
        input.join(",")
    );
    let mut st = super::state(&json);
    st.dispatch(Action::Play(PlayAction::Back));
    let saved = saved_of(&st);
    assert!(saved.len() > crate::ui::fragment::ADDRESS_BAR_MAX, "{} characters", saved.len());
    let address = st.teach.address_fragment(&saved, true);
    assert_eq!(address, format!("local=1&step={}", st.play.step));
    assert_eq!(st.teach.address_fragment(&saved, false), saved, "no autosave: the address bar keeps it");
    // A reload opens the autosave, at the step.
    let back = AppState::from_hash_and_autosave(&format!("#{address}"), Ok(Some(saved.clone())), 1200.0);
    assert_eq!(*back.doc.scenario, *st.doc.scenario);
    assert_eq!(back.play.step, st.play.step);
    assert!(back.chrome.banners.is_empty(), "{:?}", back.chrome.banners);
    // Another browser (no autosave): the default, and a banner that says why.
    let elsewhere = AppState::from_hash_and_autosave(&format!("#{address}"), Ok(None), 1200.0);
    assert_eq!(elsewhere.doc.scenario.name, "course_worked_timeline_7");
    let b = elsewhere.chrome.banners.join(" | ");
    assert!(b.contains("too large to travel in a link") && b.contains("Export: JSON"), "{b}");
    // A course-sized scenario keeps its link.
    let small = mine();
    let saved = saved_of(&small);
    assert_eq!(small.teach.address_fragment(&saved, true), saved);
}

/// A link given explicitly wins over the autosave, which stays one undo away.
#[test]
fn a_link_wins_and_the_autosave_is_one_undo_away() {
    let mut edited = mine();
    edited.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    let saved = saved_of(&edited);
    let mut st = AppState::from_hash_and_autosave("#preset=lab-6-2&step=3", Ok(Some(saved.clone())), 1200.0);
    assert_eq!(st.doc.scenario.name, "lab-6-2");
    assert_eq!(st.play.step, 3);
    assert!(st.edits.notice.as_ref().is_some_and(|n| n.undo && n.text.contains("autosaved")));
    assert_eq!(st.doc.commits, 0);
    st.dispatch(Action::Undo);
    assert_eq!(*st.doc.scenario, *edited.doc.scenario);
    // The same scenario in the link and the autosave (a reload): nothing to undo, no notice.
    let link = edited.teach.url_fragment(&edited.doc.scenario, edited.play.step, edited.doc.steps());
    let same = AppState::from_hash_and_autosave(&format!("#{link}"), Ok(Some(saved.clone())), 1200.0);
    assert_eq!(*same.doc.scenario, *edited.doc.scenario);
    assert_eq!((undo_len(&same), same.edits.notice.clone()), (0, None));
    // A broken link falls back to the autosave, not the default.
    let broken = AppState::from_hash_and_autosave("#z=%%%", Ok(Some(saved)), 1200.0);
    assert_eq!(*broken.doc.scenario, *edited.doc.scenario);
    assert!(
        broken.chrome.banners.iter().any(|b| b.contains("Could not open the link") && b.contains("“mine”")),
        "{:?}",
        broken.chrome.banners
    );
}

/// Corrupt or oversized autosaves give a clear banner and the default; no panic.
#[test]
fn corrupt_autosave_falls_back() {
    let cases = [
        ("z=AAAA&step=1".to_string(), "not valid raw DEFLATE"),
        ("garbage".to_string(), "names no scenario"),
        ("preset=nope".to_string(), "no preset \"nope\""),
        (format!("scenario={}", "A".repeat(MAX_AUTOSAVE_CHARS)), "the limit is"),
        (
            format!(
                "scenario={}",
                base64::Engine::encode(
                    &base64::engine::general_purpose::URL_SAFE_NO_PAD,
                    br#"{"assigner": {"kind": "tumbling", "size": 99999999999999999999}, "input": []}"#
                )
            ),
            "assigner.size: 1e+20 is outside the 64-bit integer range",
        ),
    ];
    for (text, why) in cases {
        let st = AppState::from_hash_and_autosave("", Ok(Some(text)), 1200.0);
        assert_eq!(st.doc.scenario.name, "course_worked_timeline_7");
        let b = st.chrome.banners.join(" | ");
        assert!(b.contains("Your autosaved scenario could not be restored") && b.contains(why), "{why}: {b}");
    }
}

/// Blocked storage (a sandboxed iframe) turns autosave off quietly; embeds neither read nor write it.
#[test]
fn blocked_storage_and_embeds() {
    let st = AppState::from_hash_and_autosave("", Err("SecurityError: denied".into()), 1200.0);
    assert_eq!(st.edits.autosave, AutosaveStatus::Off("SecurityError: denied".into()));
    assert!(st.chrome.banners.is_empty());
    let saved = saved_of(&mine());
    let embed = AppState::from_hash_and_autosave("#preset=lab-6-2&mode=embed", Ok(Some(saved)), 700.0);
    assert_eq!(embed.edits.autosave, AutosaveStatus::Embed);
    assert_eq!((undo_len(&embed), embed.edits.notice.clone()), (0, None));
    // A failing write says so once, then stays quiet.
    let mut s = mine();
    s.dispatch(Action::AutosaveFailed("QuotaExceededError: full".into()));
    s.dispatch(Action::AutosaveFailed("QuotaExceededError: full".into()));
    assert_eq!(s.chrome.banners.iter().filter(|b| b.starts_with("Autosave stopped")).count(), 1);
}

/// Snapshot cost and the history bound for a 2,000-element scenario (printed for the README).
#[test]
fn history_memory_is_bounded() {
    let input: Vec<String> =
        (0..2000).map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 7, i * 100)).collect();
    let json = format!(r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#, input.join(","));
    let big = Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}"));
    let mut st = mine();
    st.dispatch(Action::Load { scenario: Box::new(big), step: None, banner: None });
    let cost = st.snapshot("x".into()).cost();
    for _ in 0..MAX_UNDO_STEPS + 20 {
        st.dispatch(Action::Select(Some(ObjectId::Element(0))));
        st.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: false }));
        st.dispatch(Action::Select(None));
        Rc::make_mut(&mut st.edits.history).close_group();
    }
    println!(
        "snapshot of 2,000 elements: {cost} bytes; history: {} steps, {} bytes",
        undo_len(&st),
        st.edits.history.cost()
    );
    assert!(st.edits.history.cost() <= MAX_UNDO_BYTES);
    assert!(undo_len(&st) <= MAX_UNDO_STEPS);
    assert_eq!(undo_len(&st), MAX_UNDO_STEPS, "a 2,000-element scenario keeps all 200 steps");
}
