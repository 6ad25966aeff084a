//! The quiz's question at the playhead, its options, and after an answer the engine's verdict.

use yew::prelude::*;

use crate::teach::Answer;
use crate::ui::action::{Action, PlayAction, TeachAction};
use crate::ui::hooks::AppHandle;

#[derive(Properties, PartialEq)]
pub struct StateProps {
    pub state: AppHandle,
}

fn teach(state: &AppHandle, a: TeachAction) {
    state.dispatch(Action::Teach(a));
}

/// The quiz's question at the playhead, its options, and after an answer the engine's verdict.
#[component]
pub fn QuizBox(props: &StateProps) -> Html {
    let state = props.state.clone();
    let Some(q) = state.get().teach.quiz.clone() else { return Html::default() };
    let Some(question) = q.current().cloned() else { return Html::default() };
    let answered = q.verdict.is_some();
    let option = |i: usize, label: String| {
        let state = state.clone();
        let picked = q.selected.contains(&i);
        let right = q.verdict.as_ref().is_some_and(|v| match (&v.expected, &question.options[i].answer) {
            (Answer::Windows(ws), Answer::Windows(mine)) => !mine.is_empty() && mine.iter().all(|m| ws.contains(m)),
            (a, b) => a == b,
        });
        html! {
            <button class={classes!("quiz-option", picked.then_some("picked"), (answered && right).then_some("right"))}
                    data-testid="quiz-option" data-index={i.to_string()} aria-pressed={picked.to_string()} disabled={answered}
                    onclick={Callback::from(move |_| teach(&state, TeachAction::QuizSelect(i)))}>
                <span class="quiz-key">{ i + 1 }</span>{ label }
            </button>
        }
    };
    let submit = {
        let state = state.clone();
        Callback::from(move |_| teach(&state, TeachAction::QuizSubmit))
    };
    let reveal = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Play(PlayAction::Forward)))
    };
    let can_submit = question.multiple || !q.selected.is_empty();
    html! {
        <div class="quiz" data-testid="quiz-panel" data-question={question.id.clone()}>
            <p class="quiz-prompt" data-testid="quiz-prompt">
                <span class="quiz-badge">{ "Predict" }</span>{ question.prompt.clone() }
                if question.multiple { <span class="quiz-hint">{ " (pick all that fire; none picked = none fires)" }</span> }
            </p>
            <div class="quiz-options">
                { for question.options.iter().enumerate().map(|(i, c)| option(i, c.label.clone())) }
            </div>
            if let Some(v) = &q.verdict {
                <p class={classes!("quiz-verdict", if v.correct { "ok" } else { "wrong" })} data-testid="quiz-verdict" data-correct={v.correct.to_string()}>
                    <strong>{ if v.correct { "Right. " } else { "Not quite. " } }</strong>
                    { format!("{}. {}", v.expected_label, v.explanation) }
                </p>
                <button class="quiz-go" data-testid="quiz-reveal" onclick={reveal}>{ "Show the step →" }</button>
            } else {
                <button class="quiz-go" data-testid="quiz-submit" disabled={!can_submit} onclick={submit}>{ "Check (Enter)" }</button>
            }
        </div>
    }
}
