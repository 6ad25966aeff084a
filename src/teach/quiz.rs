//! Predict, then reveal: the steps that decide something become questions whose answer is the
//! engine's. The playhead stops at [`Question::step`] (the state before the step), the user
//! picks, [`check`] gives the verdict with the narration's explanation, and the playhead moves
//! to `step + 1` to show it.
//!
//! Two things are decided:
//! - when an element arrives: is it added, added and firing its window at once (a late firing,
//!   or a count reached), sent to the late side output, or dropped ([`QuestionKind::ElementFate`]);
//! - when the watermark moves (an explicit watermark, the one an element's timestamp produces,
//!   or Long.MAX at the end of input): which windows fire ([`QuestionKind::WhichWindowsFire`], or
//!   [`QuestionKind::HowManyFire`] when there are more than [`MAX_WINDOW_OPTIONS`] candidates).
//!
//! A watermark that fires nothing is asked about only where it teaches something: an explicit
//! watermark, the end of input, or an element whose timestamp is past a window's end while its
//! watermark is not (the worked timeline's element 3).

use std::fmt;

use crate::engine::trace::KeyId;
use crate::engine::view::StepView;
use crate::engine::{Run, Scenario, Window};

use super::Context;
use super::facts::{Fate, StepFacts};
use super::format::{capitalize, list, time};

/// More candidate windows than this turn "which windows fire?" into "how many fire?".
pub const MAX_WINDOW_OPTIONS: usize = 8;

/// What becomes of an arriving element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementFate {
    /// Added to its window(s); the element itself makes nothing fire.
    Added,
    /// Added, and a window fires at once because of it (a late firing, or a count reached).
    AddedAndFires,
    /// Rejected by every window and too late: the late side output.
    SideOutput,
    /// Rejected and dropped (no side output, or not late enough to count).
    Dropped,
}

impl ElementFate {
    pub const ALL: [ElementFate; 4] =
        [ElementFate::Added, ElementFate::AddedAndFires, ElementFate::SideOutput, ElementFate::Dropped];

    pub fn label(&self) -> &'static str {
        match self {
            ElementFate::Added => "It is added to its window(s)",
            ElementFate::AddedAndFires => "It is added, and its window fires at once",
            ElementFate::SideOutput => "It goes to the late side output",
            ElementFate::Dropped => "It is dropped",
        }
    }
}

/// A window of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WindowRef {
    pub key: KeyId,
    pub window: Window,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Fate(ElementFate),
    /// A set of windows (order does not matter; empty = none fires).
    Windows(Vec<WindowRef>),
    Count(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuestionKind {
    ElementFate,
    WhichWindowsFire,
    HowManyFire,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub answer: Answer,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// Unique within a run: `step-3-fate`, `step-3-fire`.
    pub id: String,
    /// The input step it is about: ask at playhead `step`, reveal at playhead `step + 1`.
    pub step: usize,
    pub kind: QuestionKind,
    pub prompt: String,
    pub options: Vec<Choice>,
    /// Several options may be picked (their windows together are the answer; none = none fires).
    pub multiple: bool,
    pub correct: Answer,
    /// The narration that explains the answer.
    pub explanation: String,
}

impl Question {
    /// The answer the UI's selected option indices stand for (out-of-range indices ignored).
    pub fn answer_from(&self, selected: &[usize]) -> Answer {
        if self.multiple {
            let mut windows: Vec<WindowRef> = selected
                .iter()
                .filter_map(|i| self.options.get(*i))
                .flat_map(|c| match &c.answer {
                    Answer::Windows(ws) => ws.clone(),
                    _ => Vec::new(),
                })
                .collect();
            super::sort::stable(&mut windows);
            windows.dedup();
            Answer::Windows(windows)
        } else {
            match selected.first().and_then(|i| self.options.get(*i)) {
                Some(c) => c.answer.clone(),
                None => Answer::Windows(Vec::new()),
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub correct: bool,
    pub expected: Answer,
    /// The right answer in words.
    pub expected_label: String,
    pub explanation: String,
}

/// Answers so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub answered: u32,
    pub correct: u32,
}

impl Score {
    pub fn record(&mut self, verdict: &Verdict) {
        self.answered += 1;
        if verdict.correct {
            self.correct += 1;
        }
    }

    /// Whole percent correct, 0 before any answer.
    pub fn percent(&self) -> u32 {
        (self.correct * 100).checked_div(self.answered).unwrap_or(0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / {}", self.correct, self.answered)
    }
}

/// The questions of a run, in step order (values written plain).
pub fn questions(scenario: &Scenario, run: &Run) -> Vec<Question> {
    Context::new(scenario, run).questions()
}

fn same_windows(a: &[WindowRef], b: &[WindowRef]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    super::sort::stable(&mut a);
    a.dedup();
    super::sort::stable(&mut b);
    b.dedup();
    a == b
}

/// Checks an answer against the engine's.
pub fn check(question: &Question, answer: &Answer) -> Verdict {
    let correct = match (&question.correct, answer) {
        (Answer::Windows(a), Answer::Windows(b)) => same_windows(a, b),
        (a, b) => a == b,
    };
    let expected_label = match &question.correct {
        Answer::Fate(f) => f.label().to_string(),
        Answer::Count(n) => n.to_string(),
        Answer::Windows(ws) if ws.is_empty() => "No window fires".into(),
        Answer::Windows(ws) => {
            let labels: Vec<String> = question
                .options
                .iter()
                .filter(
                    |c| matches!(&c.answer, Answer::Windows(w) if w.iter().all(|x| ws.contains(x)) && !w.is_empty()),
                )
                .map(|c| c.label.clone())
                .collect();
            list(&labels)
        }
    };
    Verdict { correct, expected: question.correct.clone(), expected_label, explanation: question.explanation.clone() }
}

/// The windows alive in `view`, as the quiz names them.
fn live_refs(view: &StepView) -> Vec<WindowRef> {
    view.live_windows().map(|w| WindowRef { key: w.key, window: w.window }).collect()
}

impl Context<'_> {
    /// The questions of the run, in step order.
    pub fn questions(&self) -> Vec<Question> {
        // One pass over the trace: the view is folded on from step to step.
        let mut out = Vec::new();
        let mut view = StepView::new(self.run);
        for step in 0..self.run.steps {
            let facts = self.facts(step);
            if facts.error.is_some() {
                break;
            }
            let before = live_refs(&view);
            view.advance(self.run, step + 1);
            if let Some(q) = self.fate_question(step, &facts, &view) {
                out.push(q);
            }
            if let Some(q) = self.fire_question(step, &facts, &before, &view) {
                out.push(q);
            }
        }
        out
    }

    /// The questions about input step `step` alone (the quiz asks them at playhead `step`).
    /// Folds the trace up to the step: use [`Self::questions`] to walk a whole run.
    pub fn questions_at(&self, step: usize) -> Vec<Question> {
        if step >= self.run.steps {
            return Vec::new();
        }
        let facts = self.facts(step);
        if facts.error.is_some() {
            return Vec::new();
        }
        let mut after = StepView::new(self.run);
        after.advance(self.run, step);
        let before = live_refs(&after);
        after.advance(self.run, step + 1);
        self.fate_question(step, &facts, &after)
            .into_iter()
            .chain(self.fire_question(step, &facts, &before, &after))
            .collect()
    }

    fn fate_question(&self, step: usize, facts: &StepFacts<'_>, after: &StepView) -> Option<Question> {
        let (_, info) = facts.element?;
        let fate = match facts.fate()? {
            Fate::Added => ElementFate::Added,
            Fate::AddedAndFires => ElementFate::AddedAndFires,
            Fate::SideOutput => ElementFate::SideOutput,
            Fate::Dropped { .. } => ElementFate::Dropped,
        };
        let wm = self.watermark_before(step);
        let prompt = format!(
            "Element {} arrives: key {}, timestamp {}, value {}; the watermark is {}. What happens to it?",
            info.id,
            self.key_name(info.key),
            time(info.ts),
            self.values.value(info.value),
            if wm == crate::engine::time::LONG_MIN { "Long.MIN (none yet)".to_string() } else { time(wm) }
        );
        let clause = self.headline(facts, after);
        // The headline's element part (before the watermark part), then the lateness rule.
        let element_part = clause.split("; ").next().unwrap_or(&clause).trim_end_matches('.').to_string();
        let mut explanation = format!("{element_part}.");
        // The lateness rule: late or not, and (for a late element that was added) within the
        // allowed lateness; a side-output clause already states both.
        let take = match fate {
            ElementFate::Added | ElementFate::AddedAndFires => 2,
            ElementFate::SideOutput | ElementFate::Dropped => 1,
        };
        for reason in self.lateness_reasons(info).iter().take(take) {
            explanation.push(' ');
            explanation.push_str(reason);
        }
        Some(Question {
            id: format!("step-{}-fate", step + 1),
            step,
            kind: QuestionKind::ElementFate,
            prompt,
            options: ElementFate::ALL
                .iter()
                .map(|f| Choice { label: f.label().to_string(), answer: Answer::Fate(*f) })
                .collect(),
            multiple: false,
            correct: Answer::Fate(fate),
            explanation,
        })
    }

    fn fire_question(
        &self,
        step: usize,
        facts: &StepFacts<'_>,
        before: &[WindowRef],
        after: &StepView,
    ) -> Option<Question> {
        let end = facts.end_of_input == Some(true);
        let moved = facts.watermark_advanced.is_some() || facts.watermark_ignored.is_some();
        if !moved && !end {
            return None;
        }
        // Candidates: live before the step, plus windows this step's element created; not
        // those a merge absorbed during the step.
        let merged_away = |r: &WindowRef| {
            facts.merges.iter().any(|m| m.key == r.key && m.merged.iter().any(|w| Window::Time(*w) == r.window))
        };
        let mut candidates: Vec<WindowRef> = before.to_vec();
        for (key, window, _) in &facts.added {
            candidates.push(WindowRef { key: *key, window: *window });
        }
        for m in &facts.merges {
            candidates.push(WindowRef { key: m.key, window: Window::Time(m.into) });
        }
        let mut fired: Vec<WindowRef> =
            facts.timer_firings.iter().map(|f| WindowRef { key: f.key, window: f.window }).collect();
        candidates.extend(fired.iter().copied());
        candidates.retain(|c| !merged_away(c) || fired.contains(c));
        super::sort::stable_by_key(&mut candidates, |c| (c.window.max_timestamp(), c.key, c.window));
        candidates.dedup();
        super::sort::stable(&mut fired);
        fired.dedup();
        if candidates.is_empty() {
            return None;
        }
        let trap = facts
            .element
            .is_some_and(|(_, e)| candidates.iter().any(|c| e.ts > c.window.max_timestamp() && !fired.contains(c)));
        let interesting =
            !fired.is_empty() || !facts.cleanups.is_empty() || facts.explicit_watermark.is_some() || end || trap;
        if !interesting {
            return None;
        }
        let to = facts.watermark_advanced.map(|(_, to)| to);
        let lead = if end {
            "The input ends: the source emits Watermark(Long.MAX_VALUE).".to_string()
        } else if let Some((proposed, current)) = facts.watermark_ignored {
            format!("Watermark {} arrives; the current watermark is {}.", time(proposed), time(current))
        } else if facts.explicit_watermark.is_some() {
            format!("Watermark {} arrives.", to.map(time).unwrap_or_default())
        } else {
            let (_, e) = facts.element?;
            format!("Element {} moves the watermark to {}.", e.id, to.map(time).unwrap_or_default())
        };
        let explanation = {
            let clause = self.headline(facts, after);
            let part = if facts.element.is_some() {
                clause.split_once("; ").map(|(_, rest)| rest.to_string()).unwrap_or(clause.clone())
            } else {
                clause.clone()
            };
            let mut text = capitalize(part.trim_end_matches('.')) + ".";
            if fired.len() > 1 && fired.len() <= MAX_WINDOW_OPTIONS {
                let labels: Vec<String> = fired.iter().map(|r| self.window_label(r.key, &r.window)).collect();
                text.push_str(&format!(" Firing: {}.", list(&labels)));
            }
            text
        };
        let (kind, prompt, options, multiple, correct) = if candidates.len() <= MAX_WINDOW_OPTIONS {
            let options = candidates
                .iter()
                .map(|c| Choice { label: self.window_label(c.key, &c.window), answer: Answer::Windows(vec![*c]) })
                .collect();
            (
                QuestionKind::WhichWindowsFire,
                format!("{lead} Which windows fire? (Pick none if you think nothing fires.)"),
                options,
                true,
                Answer::Windows(fired),
            )
        } else {
            let right = fired.len();
            let total = candidates.len();
            let mut counts = vec![0, 1, right, total / 2, total];
            super::sort::stable(&mut counts);
            counts.dedup();
            let options = counts
                .into_iter()
                .map(|n| Choice {
                    label: match n {
                        0 => "None".to_string(),
                        1 => "1 window".to_string(),
                        n => format!("{n} windows"),
                    },
                    answer: Answer::Count(n),
                })
                .collect();
            (
                QuestionKind::HowManyFire,
                format!("{lead} {total} windows are alive. How many fire?"),
                options,
                false,
                Answer::Count(right),
            )
        };
        Some(Question {
            id: format!("step-{}-fire", step + 1),
            step,
            kind,
            prompt,
            options,
            multiple,
            correct,
            explanation,
        })
    }
}
