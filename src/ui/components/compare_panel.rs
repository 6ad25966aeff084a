//! The Compare tab: compare mode's examples, B's configuration (bound, allowed lateness,
//! idleness, window), and closing it. The two canvases and the differences are `compare_view`.

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::sql_panel::tvf_select;
use crate::engine::Millis;
use crate::engine::scenario::WatermarkSpec;
use crate::ui::action::{Action, CompareAction, CompareExample, Side};
use crate::ui::hooks::AppHandle;
use crate::ui::state::compare::summary;

#[derive(Properties, PartialEq)]
pub struct ComparePanelProps {
    pub state: AppHandle,
}

/// A number field of B in ms, committed on change (Enter or leaving the field).
fn ms_field(
    state: &AppHandle,
    label: &'static str,
    value: Millis,
    testid: &'static str,
    f: fn(Millis) -> CompareAction,
) -> Html {
    let onchange = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let v = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).map(|i| i.value());
            if let Some(ms) = v.and_then(|v| v.trim().parse::<Millis>().ok()) {
                state.dispatch(Action::Compare(f(ms)));
            }
        })
    };
    html! {
        <label class="field"><span>{ label }</span>
            <input type="number" min="0" step="1000" value={value.to_string()} data-testid={testid} {onchange} />
        </label>
    }
}

#[component]
pub fn ComparePanel(props: &ComparePanelProps) -> Html {
    let state = props.state.clone();
    let example = |e: CompareExample, label: &'static str, testid: &'static str| {
        let state = state.clone();
        html! {
            <button class="tool" data-testid={testid}
                    onclick={Callback::from(move |_| state.dispatch(Action::Compare(CompareAction::Example(e))))}>{ label }</button>
        }
    };
    let examples = html! {
        <div class="compare-examples" role="group" aria-label="Ready-made comparisons of the scenario on show">
            { example(CompareExample::Bounds, "Bound 5 s vs 20 s", "compare-bounds") }
            { example(CompareExample::DataStreamVsTvf, "DataStream vs SQL TVF", "compare-tvf") }
            { example(CompareExample::Idleness, "Without vs with idleness", "compare-idleness") }
        </div>
    };
    let s = state.get();
    let Some(c) = &s.compare else {
        let open = {
            let state = state.clone();
            let copy = (*s.doc.scenario).clone();
            Callback::from(move |_| {
                let b = crate::engine::Scenario { input: Vec::new(), ..copy.clone() };
                state.dispatch(Action::Compare(CompareAction::Open(Box::new(b))))
            })
        };
        return html! {
            <div class="compare-panel" data-testid="compare-panel">
                <p>{ "Run two configurations on the same input, one above the other, with their differences marked ≠." }</p>
                { examples }
                <button class="tool" data-testid="compare-open" onclick={open}>{ "Compare with a copy" }</button>
            </div>
        };
    };
    let b = &c.doc.scenario;
    let bound = match b.watermarks {
        WatermarkSpec::BoundedOutOfOrderness { bound } => bound,
        _ => 0,
    };
    let close = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Compare(CompareAction::Close)))
    };
    html! {
        <div class="compare-panel" data-testid="compare-panel">
            <p><strong>{ "A: " }</strong>{ summary(&s.doc.scenario) }{ " (the Configure tab)" }</p>
            <p><strong>{ "B: " }</strong>{ summary(b) }</p>
            <label class="field"><span>{ "B's window" }</span>{ tvf_select(&state, Side::B, b.tvf, "compare-b-tvf") }</label>
            { ms_field(&state, "B's bound (ms)", bound, "compare-b-bound", CompareAction::SetBound) }
            { ms_field(&state, "B's lateness (ms)", b.lateness(), "compare-b-lateness", CompareAction::SetLateness) }
            { ms_field(&state, "B's idleness (ms, 0: off)", b.source.idleness.unwrap_or(0), "compare-b-idleness", CompareAction::SetIdleness) }
            { examples }
            <button class="tool" data-testid="compare-close" onclick={close}>{ "Close compare mode" }</button>
        </div>
    }
}
