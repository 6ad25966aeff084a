//! The narration under the canvas: the step's headline and details (a live region), the preset's
//! goal, the quiz's score, and in quiz mode the question.

use yew::prelude::*;

use super::quiz_box::QuizBox;
use crate::teach;
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
    let s: &AppState = &state;
    let ctx = teach::Context::new(&s.doc.shown_scenario, &s.doc.run).with_values(s.teach.values);
    let step = s.play.step;
    let n = ctx.narrate_step(step);
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
                if !n.details.is_empty() {
                    <ul class="narration-details" data-testid="narration-details">
                        { for n.details.iter().map(|d| html! { <li>{ d.clone() }</li> }) }
                    </ul>
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
