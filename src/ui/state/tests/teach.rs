//! The teaching layer: presets and links, lecture keys, the quiz, import.

use std::rc::Rc;

use super::*;
use crate::teach::{self, Answer, ValueFormat};
use crate::ui::action::{EditAction, Mode, ObjectId, PlayAction, TeachAction};
use crate::ui::state::teach::LECTURE_SPEED;

fn open(hash: &str) -> AppState {
    AppState::from_hash(hash, 1200.0)
}

/// `#preset=lab-6-2&mode=embed&step=3` opens the preset at step 3 in embed mode, with its
/// title and dollar values.
#[test]
fn preset_link_opens_preset_step_and_mode() {
    let s = open("#preset=lab-6-2&mode=embed&step=3");
    assert_eq!(s.play.step, 3);
    assert_eq!(s.teach.mode, Mode::Embed);
    assert_eq!(s.teach.values, ValueFormat::UsdCents);
    assert_eq!(s.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"));
    assert_eq!(s.doc.scenario.name, "lab-6-2");
    assert!(s.chrome.banners.is_empty(), "{:?}", s.chrome.banners);
    // Without a step, the preset's default step.
    let d = open("#preset=lab-6-3");
    assert_eq!(d.play.step, teach::presets::by_id("lab-6-3").map(|p| p.default_step).unwrap_or(usize::MAX));
    assert_eq!(d.teach.mode, Mode::Normal);
}

/// A bad preset or mode opens what it can and says what was wrong.
#[test]
fn bad_params_give_banners() {
    let s = open("#preset=nope&mode=cinema");
    assert!(s.chrome.banners.iter().any(|b| b.contains("no preset \"nope\"")), "{:?}", s.chrome.banners);
    assert!(s.chrome.banners.iter().any(|b| b.contains("mode must be")), "{:?}", s.chrome.banners);
    assert_eq!(s.teach.mode, Mode::Normal);
}

/// A share link reopens the same scenario, step, preset units and mode, also after an edit.
#[test]
fn share_link_round_trips() {
    let mut s = open("#preset=lab-6-2&mode=lecture&step=2");
    s.dispatch(Action::Play(PlayAction::Forward));
    // Edit: the scenario is no longer the preset's.
    s.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    s.dispatch(Action::Select(Some(ObjectId::Element(0))));
    s.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    assert!(s.teach.pristine_preset(&s.doc.scenario).is_none());
    let link = s.teach.share_fragment(&s.doc.scenario, s.play.step, s.doc.steps());
    assert!(link.starts_with("z="), "{link}");
    let t = open(&format!("#{link}"));
    assert_eq!(*t.doc.scenario, *s.doc.scenario);
    assert_eq!(t.play.step, s.play.step);
    assert_eq!(t.teach.mode, Mode::Lecture);
    assert_eq!(t.teach.values, ValueFormat::UsdCents);
    // The address bar keeps the short form while the preset is untouched.
    let u = open("#preset=lab-6-2&step=3");
    assert_eq!(u.teach.url_fragment(&u.doc.scenario, u.play.step, u.doc.steps()), "preset=lab-6-2&step=3");
    assert_eq!(u.teach.embed_fragment(&u.doc.scenario, u.play.step, u.doc.steps()), "preset=lab-6-2&mode=embed&step=3");
}

/// PageDown / PageUp step in every mode; space steps and B blacks out in lecture mode.
#[test]
fn lecture_keys() {
    let mut s = open("#preset=worked-timeline&mode=lecture&step=2");
    assert_eq!(s.play.speed, LECTURE_SPEED, "slower animation in lecture mode");
    s.dispatch(key("PageDown"));
    assert_eq!(s.play.step, 3);
    s.dispatch(key("PageUp"));
    assert_eq!(s.play.step, 2);
    s.dispatch(key(" "));
    assert_eq!(s.play.step, 3);
    assert!(!s.play.playing);
    s.dispatch(key("b"));
    assert!(s.teach.blackout);
    s.dispatch(key("PageDown"));
    assert_eq!(s.play.step, 4, "a clicker still steps behind the blackout");
    s.dispatch(key("B"));
    assert!(!s.teach.blackout);
    s.dispatch(Action::Teach(TeachAction::SetMode(Mode::Normal)));
    assert_eq!(s.play.speed, 1.0, "the speed comes back");
    assert!(s.chrome.panel_open);
    // Outside lecture mode, space plays and b does nothing.
    let mut n = open("#preset=worked-timeline&step=2");
    n.dispatch(key("b"));
    assert!(!n.teach.blackout);
    n.dispatch(key(" "));
    assert!(n.play.playing);
}

/// In quiz mode the playhead stops before a deciding step until an answer is given; the
/// engine checks it and the score counts it; the next step forward reveals.
#[test]
fn quiz_asks_checks_and_reveals() {
    let mut s = open("#preset=lab-6-2&step=3");
    s.dispatch(Action::Teach(TeachAction::ToggleQuiz));
    let q = s.teach.quiz.clone().unwrap_or_else(|| panic!("quiz on"));
    let asked = q.current().cloned().unwrap_or_else(|| panic!("a question about step 3: the late element"));
    assert_eq!(asked.step, 3);
    assert_eq!(asked.correct, Answer::Fate(teach::ElementFate::AddedAndFires));
    // Forward is held until an answer is given.
    s.dispatch(Action::Play(PlayAction::Forward));
    assert_eq!(s.play.step, 3);
    // A wrong answer first: side output.
    let wrong = asked
        .options
        .iter()
        .position(|c| c.answer == Answer::Fate(teach::ElementFate::SideOutput))
        .unwrap_or_else(|| panic!("side output option"));
    s.dispatch(Action::Teach(TeachAction::QuizSelect(wrong)));
    s.dispatch(Action::Teach(TeachAction::QuizSubmit));
    let q = s.teach.quiz.clone().unwrap_or_else(|| panic!("quiz on"));
    assert_eq!(q.verdict.as_ref().map(|v| v.correct), Some(false));
    assert_eq!((q.score.correct, q.score.answered), (0, 1));
    // Submitting again changes nothing.
    s.dispatch(Action::Teach(TeachAction::QuizSubmit));
    assert_eq!(s.teach.quiz.as_ref().map(|q| q.score.answered), Some(1));
    // Reveal: on to step 4 (or the next question about the same step).
    for _ in 0..10 {
        if s.play.step != 3 {
            break;
        }
        s.dispatch(Action::Play(PlayAction::Forward));
        if let Some(q) = &s.teach.quiz
            && q.asking.is_some()
            && q.verdict.is_none()
        {
            s.dispatch(Action::Teach(TeachAction::QuizSelect(0)));
            s.dispatch(Action::Teach(TeachAction::QuizSubmit));
        }
    }
    assert_eq!(s.play.step, 4);
}

/// Importing a broken file keeps the scenario and says why; a good one loads.
#[test]
fn import_keeps_scenario_on_error() {
    let mut s = open("#preset=lab-6-1");
    let before = s.doc.scenario.clone();
    s.dispatch(Action::Teach(TeachAction::Import { name: "x.json".into(), text: "{\"assigner\": 5}".into() }));
    assert_eq!(*s.doc.scenario, *before);
    assert!(s.teach.import_error.as_deref().is_some_and(|e| e.starts_with("x.json: ")), "{:?}", s.teach.import_error);
    s.dispatch(Action::Teach(TeachAction::Import { name: "y.json".into(), text: "not json".into() }));
    assert!(s.teach.import_error.as_deref().is_some_and(|e| e.contains("not a JSON file")));
    let text = before.to_json().to_string();
    s.dispatch(Action::Edit(EditAction::Nudge { direction: 1, fine: true }));
    s.dispatch(Action::Teach(TeachAction::Import { name: "z.json".into(), text }));
    assert!(s.teach.import_error.is_none());
    assert_eq!(*s.doc.scenario, *before);
    // A preset file loads as the preset.
    let preset = include_str!("../../../../assets/presets/lab-6-2.json");
    s.dispatch(Action::Teach(TeachAction::Import { name: "lab-6-2.json".into(), text: preset.into() }));
    assert_eq!(s.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"));
}

/// `quiz=1` in a link opens the quiz asking at the playhead, with the questions of the link's run.
#[test]
fn a_quiz_link_asks_at_the_playhead() {
    let s = open("#preset=lab-6-2&step=3&quiz=1");
    let q = s.teach.quiz.as_ref().unwrap_or_else(|| panic!("the quiz is on"));
    assert!(Rc::ptr_eq(&q.scenario, &s.doc.scenario) || *q.scenario == *s.doc.scenario);
    let asked = q.current().unwrap_or_else(|| panic!("a question about step 3"));
    assert_eq!(asked.step, 3);
    assert!(!q.ask_when_made);
}

/// Every course preset names every element on its marble and in the side output lane, at its
/// default step and at the end, at a projector's width and at an embed's: the ids left out where
/// marbles crowd (`scene::build::room`) are a large stream's.
#[test]
fn every_preset_marble_shows_its_id() {
    let mut side_seen = 0;
    for width in [1200.0, 700.0] {
        for p in teach::presets::all() {
            for step in ["", "&step=end"] {
                let s = AppState::from_hash(&format!("#preset={}{step}", p.id), width);
                let hidden: Vec<i64> = s.scene.marble_items().filter(|m| !m.label).map(|m| m.elem_id).collect();
                let side = s.scene.side.groups.iter().flat_map(|(_, g)| g.iter());
                side_seen += side.clone().count();
                let side_hidden: Vec<i64> = side.filter(|m| !m.label).map(|m| m.elem_id).collect();
                assert!(
                    hidden.is_empty() && side_hidden.is_empty(),
                    "{}{step} at {width}: {hidden:?} {side_hidden:?}",
                    p.id
                );
            }
        }
    }
    assert!(side_seen > 0, "no preset has a side output at its end");
}
