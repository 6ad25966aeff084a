//! The narration under the canvas: the step's headline and details (a live region), the preset's
//! goal, the quiz's score, and in quiz mode the question.

use std::rc::{Rc, Weak};

use yew::prelude::*;

use super::quiz_box::QuizBox;
use crate::engine::Run;
use crate::teach;
use crate::teach::StepNarration;
use crate::teach::ValueFormat;
use crate::ui::action::Mode;
use crate::ui::hooks::AppHandle;
use crate::ui::state::AppState;

#[derive(Properties, PartialEq)]
pub struct StateProps {
    pub state: AppHandle,
}

/// The narration under the canvas: the preset's goal, the step's headline and details, and in
/// quiz mode the question.
#[component]
pub fn Narration(props: &StateProps) -> Html {
    let state = props.state.clone();
    let s = state.get();
    let s: &AppState = &s;
    let step = s.play.step;
    // Made again for another run, step or unit of values only, and not during a drag: a drag
    // re-runs per pointer move, and the live region says the step once the element is dropped.
    let cache = use_mut_ref(|| None::<Said>);
    let said = {
        let mut cache = cache.borrow_mut();
        let kept = cache.as_ref().filter(|c| {
            s.drag.is_some()
                || (Weak::ptr_eq(&c.run, &Rc::downgrade(&s.doc.run)) && c.step == step && c.values == s.teach.values)
        });
        if let Some(c) = kept {
            c.text.clone()
        } else {
            let ctx = teach::Context::new(&s.doc.shown_scenario, &s.doc.run).with_values(s.teach.values);
            // The course text's simplified rules, beside Flink's exact values (only while the
            // scenario on show is still the preset's: an edit may make the course's numbers wrong).
            let course_notes = s
                .teach
                .pristine_preset(&s.doc.shown_scenario)
                .map(|p| ctx.course_rule_notes(&p.course_rules, step))
                .unwrap_or_default();
            // The page's fold is the settled view at this step of this run (`AppState::refresh`).
            let text = Rc::new((ctx.narrate_step_with(step, &s.fold.view), course_notes));
            *cache = Some(Said { run: Rc::downgrade(&s.doc.run), step, values: s.teach.values, text: text.clone() });
            text
        }
    };
    let (n, course_notes) = &*said;
    let recovery = recovery_basis(s, step);
    let embed = s.teach.mode == Mode::Embed;
    let goal = s.teach.preset.as_ref().map(|p| p.goal.clone());
    let quiz = s.teach.quiz.as_ref();
    let asking = quiz.is_some_and(|q| q.asking.is_some());
    html! {
        <section class={classes!("narration", asking.then_some("with-quiz"))} data-testid="narration" data-step={step.to_string()}
                 aria-live="polite" aria-label="What this step did" tabindex="0">
            if asking {
                <QuizBox state={state.clone()} />
            }
            <div class="narration-text">
                <p class="narration-headline" data-testid="narration-headline">
                    <span class="narration-step">{ if step == 0 { "Start".to_string() } else { format!("Step {}/{}", step, s.doc.steps()) } }</span>
                    { n.headline.clone() }
                </p>
                if let Some(source) = s.fold.source.narration(&s.doc.shown_scenario) {
                    <p class="narration-source" data-testid="narration-source">{ source }</p>
                }
                if !n.details.is_empty() || !course_notes.is_empty() {
                    <ul class="narration-details" data-testid="narration-details">
                        { for n.details.iter().map(|d| html! { <li>{ d.clone() }</li> }) }
                        { for course_notes.iter().map(|d| html! { <li class="course-rule" data-testid="course-rule-note">{ d.clone() }</li> }) }
                    </ul>
                }
                if let Some((basis, text)) = recovery {
                    <p class={classes!("recovery-basis", format!("basis-{basis}"))} data-testid="recovery-basis" data-basis={basis}>
                        <strong>{ if basis == "rule-only" { "Documented rule only" } else { "Golden-backed" } }</strong>{ ": " }{ text }
                    </p>
                }
                if let (Some(goal), false) = (goal, embed) {
                    <details class="goal">
                        <summary>{ "Goal" }</summary>
                        <p>{ goal }</p>
                    </details>
                }
                if let Some(q) = quiz {
                    <p class="quiz-score" data-testid="quiz-score" data-correct={q.score.correct.to_string()} data-answered={q.score.answered.to_string()}>
                        { format!("Quiz: {} correct of {} answered ({} questions in this scenario). Click an element, window or timer for \"why?\".",
                            q.score.correct, q.score.answered, q.total()) }
                    </p>
                } else if !embed {
                    <p class="narration-hint">{ "Click an element, a window or a timer on the canvas: why is it there?" }</p>
                }
            </div>
        </section>
    }
}

/// What the narration said last, and of what (the run weakly: a replaced run goes at once, not
/// at the next render; its allocation is not reused while the `Weak` is held, so identity holds).
struct Said {
    run: Weak<Run>,
    step: usize,
    values: ValueFormat,
    text: Rc<(StepNarration, Vec<String>)>,
}

/// What backs a checkpoint / crash / restore step, as `docs/scenario-format-v2.md` divides it:
/// recorded real-Flink goldens, or Flink's documented rule only (a processing-time timer already
/// due at the restore fires at once; its place among the first outputs is a race, so no golden).
fn recovery_basis(s: &AppState, step: usize) -> Option<(&'static str, &'static str)> {
    use crate::engine::trace::TraceKind as K;
    if step == 0 || !s.doc.layout.recovery {
        return None;
    }
    let trace = &s.doc.run.trace;
    let from = trace.partition_point(|e| e.step + 1 < step);
    let events = trace[from..].iter().take_while(|e| e.step + 1 == step);
    let mut basis = None;
    for e in events {
        match e.kind {
            K::TimersDueAtRestore { rule_only: true, .. } => {
                return Some(("rule-only", "a due processing-time timer fires at once (no golden)."));
            }
            K::CheckpointTaken { .. } | K::Crashed { .. } | K::Restored { .. } | K::Replayed { .. } => {
                basis = Some(("golden", "as recorded with real Flink 2.3 (course_crash_* goldens)."));
            }
            _ => {}
        }
    }
    basis
}
