//! Predict, then reveal: the questions are the steps that decide something, the engine gives
//! the answer, `check` gives the verdict with the narration, and the score counts.

mod common;

use common::{at, preset, presets_and_parity_scenarios};
use tidemark::engine::view::{ElementOutcome, at_step};
use tidemark::engine::{TimeWindow, Window, run};
use tidemark::teach::presets;
use tidemark::teach::{Answer, Context, ElementFate, Question, QuestionKind, Score, WindowRef, check, questions};

fn minute(h: i64, m: i64) -> WindowRef {
    WindowRef { key: 0, window: Window::Time(TimeWindow::new(at(h, m, 0, 0), at(h, m + 1, 0, 0))) }
}

fn find<'a>(qs: &'a [Question], id: &str) -> &'a Question {
    qs.iter().find(|q| q.id == id).unwrap_or_else(|| panic!("no question {id}"))
}

/// Lab 6.3: one question per element, and one per watermark that fires or removes something
/// or that ends the input; each with the engine's answer.
#[test]
fn lab_6_3_questions_and_answers() {
    let (p, r) = preset("lab-6-3");
    let qs = Context::new(&p.scenario, &r).with_values(p.value_format).questions();
    let summary: Vec<(String, Answer)> = qs.iter().map(|q| (q.id.clone(), q.correct.clone())).collect();
    assert_eq!(
        summary,
        vec![
            ("step-1-fate".into(), Answer::Fate(ElementFate::Added)),
            ("step-2-fate".into(), Answer::Fate(ElementFate::Added)),
            ("step-3-fate".into(), Answer::Fate(ElementFate::Added)),
            ("step-3-fire".into(), Answer::Windows(vec![minute(10, 0)])),
            ("step-4-fate".into(), Answer::Fate(ElementFate::AddedAndFires)),
            ("step-5-fate".into(), Answer::Fate(ElementFate::Added)),
            ("step-5-fire".into(), Answer::Windows(vec![minute(10, 1)])),
            ("step-6-fate".into(), Answer::Fate(ElementFate::SideOutput)),
            ("step-7-fire".into(), Answer::Windows(vec![minute(10, 4)])),
        ]
    );
    let q = find(&qs, "step-4-fate");
    assert_eq!(q.step, 3, "asked at playhead 3, revealed at 4");
    assert_eq!(q.kind, QuestionKind::ElementFate);
    assert!(!q.multiple);
    assert_eq!(
        q.prompt,
        "Element 4 arrives: key acme, timestamp 10:00:45, value $0.21; the watermark is 10:01:00.999. What happens to it?"
    );
    assert_eq!(q.options.len(), 4);
    assert_eq!(
        q.explanation,
        "Element 4 (10:00:45, $0.21) lands in [10:00, 10:01), whose max timestamp 10:00:59.999 ≤ watermark 10:01:00.999, so it fires again at once: a late firing, sum = $4.31. When element 4 arrived (step 4), the watermark was 10:01:00.999: its timestamp 10:00:45 ≤ 10:01:00.999, so it is late (a watermark t says the stream is complete up to t). It is within the allowed lateness: timestamp 10:00:45 + allowed lateness 2 min = 10:02:45 > watermark 10:01:00.999, so it can still be added to a window that is not yet removed."
    );
    // The cleanup at step 5 is a distractor: [10:00, 10:01) is removed, it does not fire again.
    let fire5 = find(&qs, "step-5-fire");
    assert!(fire5.multiple);
    let labels: Vec<&str> = fire5.options.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, vec!["[10:00, 10:01)", "[10:01, 10:02)", "[10:04, 10:05)"]);
    assert_eq!(
        fire5.prompt,
        "Element 5 moves the watermark to 10:03:39.999. Which windows fire? (Pick none if you think nothing fires.)"
    );
}

/// `check` accepts the engine's answer, rejects others, explains both ways, and the score counts.
#[test]
fn answers_are_checked_and_scored() {
    let (p, r) = preset("lab-6-2");
    let qs = Context::new(&p.scenario, &r).with_values(p.value_format).questions();
    let q = find(&qs, "step-4-fate");
    let mut score = Score::default();
    let right = check(q, &Answer::Fate(ElementFate::AddedAndFires));
    assert!(right.correct);
    score.record(&right);
    let wrong = check(q, &Answer::Fate(ElementFate::SideOutput));
    assert!(!wrong.correct);
    assert_eq!(wrong.expected, Answer::Fate(ElementFate::AddedAndFires));
    assert_eq!(wrong.expected_label, "It is added, and its window fires at once");
    assert!(wrong.explanation.contains("a late firing, sum = $4.31"));
    score.record(&wrong);
    assert_eq!((score.answered, score.correct, score.percent()), (2, 1, 50));
    assert_eq!(score.to_string(), "1 / 2");
    assert_eq!(Score::default().percent(), 0);

    // Multiple choice: the selected options' windows together, in any order.
    let fire = find(&qs, "step-3-fire");
    assert_eq!(fire.options.len(), 2);
    let picked = fire.answer_from(&[0]);
    assert_eq!(picked, Answer::Windows(vec![minute(10, 0)]));
    assert!(check(fire, &picked).correct);
    assert!(!check(fire, &fire.answer_from(&[0, 1])).correct);
    assert!(!check(fire, &fire.answer_from(&[])).correct, "an empty pick means none fires");
    assert!(check(fire, &fire.answer_from(&[0, 0, 7])).correct, "duplicates and bad indices are ignored");
    assert_eq!(check(fire, &picked).expected_label, "[10:00, 10:01)");
}

/// The worked timeline's element 3 is past the window's end, yet its watermark 10:00:57.999 is
/// before 10:00:59.999: the quiz asks, and the answer is that nothing fires.
#[test]
fn worked_timeline_element_3_fires_nothing() {
    let (p, r) = preset("worked-timeline");
    let qs = questions(&p.scenario, &r);
    let q = find(&qs, "step-3-fire");
    assert_eq!(q.correct, Answer::Windows(vec![]));
    assert!(check(q, &Answer::Windows(vec![])).correct);
    assert_eq!(check(q, &Answer::Windows(vec![minute(10, 0)])).expected_label, "No window fires");
    assert_eq!(
        q.explanation,
        "The watermark moves to 10:00:57.999, and that is before the next trigger timer, 10:00:59.999 of [10:00, 10:01), so nothing fires."
    );
    assert_eq!(find(&qs, "step-7-fate").correct, Answer::Fate(ElementFate::SideOutput));
}

/// Sixty windows are too many to tick: the one-hour sliding preset asks how many fire.
#[test]
fn many_windows_become_a_count() {
    let (p, r) = preset("one-hour-sliding");
    let qs = questions(&p.scenario, &r);
    let q = find(&qs, "step-2-fire");
    assert_eq!(q.kind, QuestionKind::HowManyFire);
    assert_eq!(q.correct, Answer::Count(30));
    assert_eq!(q.prompt, "Watermark 10:59:59.999 arrives. 60 windows are alive. How many fire?");
    let labels: Vec<&str> = q.options.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, vec!["None", "1 window", "30 windows", "60 windows"]);
    assert!(check(q, &q.answer_from(&[2])).correct);
    assert_eq!(find(&qs, "step-3-fire").correct, Answer::Count(30));
}

/// Count trigger: the watermark passing the window end fires nothing; the third element fires.
#[test]
fn count_trigger_questions() {
    let (p, r) = preset("count-trigger");
    let qs = questions(&p.scenario, &r);
    assert_eq!(find(&qs, "step-3-fire").correct, Answer::Windows(vec![]));
    assert_eq!(find(&qs, "step-4-fate").correct, Answer::Fate(ElementFate::AddedAndFires));
    assert_eq!(find(&qs, "step-10-fire").correct, Answer::Windows(vec![]), "nothing fires at the end of input");
    // Early firings: one window fires twice in one watermark jump; the answer is that window.
    let (e, er) = preset("early-firing-duplicates");
    let eqs = questions(&e.scenario, &er);
    let hour = WindowRef { key: 0, window: Window::Time(TimeWindow::new(at(10, 0, 0, 0), at(11, 0, 0, 0))) };
    assert_eq!(find(&eqs, "step-3-fire").correct, Answer::Windows(vec![hour]));
}

/// Over every preset and every parity scenario: the engine's answer to each element question
/// is what the view shows after the step, each fire answer is among the options, and a
/// question is never asked about a step after a failure.
#[test]
fn answers_agree_with_the_view() {
    let scenarios = presets_and_parity_scenarios();
    let mut asked = 0;
    for s in &scenarios {
        let r = run(s);
        let qs = questions(s, &r);
        let mut ids: Vec<&str> = qs.iter().map(|q| q.id.as_str()).collect();
        ids.dedup();
        assert_eq!(ids.len(), qs.len(), "{}: question ids are unique", s.name);
        for q in &qs {
            asked += 1;
            assert!(q.step < r.steps);
            assert!(!q.prompt.is_empty() && q.explanation.ends_with('.'), "{}: {:?}", s.name, q);
            assert!(check(q, &q.correct).correct);
            match &q.correct {
                Answer::Fate(f) => {
                    let elem = r.elements.iter().position(|e| e.step == q.step).expect("element of the step");
                    let after = at_step(&r, q.step + 1).elements[elem];
                    match f {
                        ElementFate::SideOutput => assert_eq!(after, Some(ElementOutcome::SideOutput)),
                        ElementFate::Dropped => assert!(matches!(after, Some(ElementOutcome::Dropped { .. }))),
                        _ => assert!(!matches!(
                            after,
                            Some(ElementOutcome::SideOutput) | Some(ElementOutcome::Dropped { .. }) | None
                        )),
                    }
                }
                Answer::Windows(ws) => {
                    for w in ws {
                        assert!(
                            q.options.iter().any(|c| c.answer == Answer::Windows(vec![*w])),
                            "{}: {} answer not among the options",
                            s.name,
                            q.id
                        );
                    }
                }
                Answer::Count(n) => assert!(q.options.iter().any(|c| c.answer == Answer::Count(*n))),
            }
        }
        if let Some(failed) = r.trace.iter().find(|e| matches!(e.kind, tidemark::engine::TraceKind::Error { .. })) {
            assert!(qs.iter().all(|q| q.step < failed.step), "{}", s.name);
        }
    }
    assert!(asked > 300, "{asked}");
}

/// `questions_at(step)` (what the UI asks when the playhead stops) equals the whole-run list's
/// questions of that step, for every preset.
#[test]
fn questions_at_a_step_match_the_whole_run() {
    for p in presets::all() {
        let r = run(&p.scenario);
        let cx = Context::new(&p.scenario, &r).with_values(p.value_format);
        let all = cx.questions();
        for step in 0..=r.steps {
            let here: Vec<Question> = all.iter().filter(|q| q.step == step).cloned().collect();
            assert_eq!(cx.questions_at(step), here, "{} step {step}", p.id);
        }
    }
}
