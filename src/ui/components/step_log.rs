//! The Step log tab: the trace lines of the step that brought the playhead here.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct StepLogProps {
    pub step: usize,
    pub lines: Vec<String>,
}

#[component]
pub fn StepLog(p: &StepLogProps) -> Html {
    html! {
        <div class="step-log" data-testid="step-log">
            <h3>{ if p.step == 0 { "Before the first step".to_string() } else { format!("What step {} did", p.step) } }</h3>
            <ol class="log">{ for p.lines.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ol>
        </div>
    }
}
