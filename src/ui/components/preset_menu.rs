//! The one presets menu: the course's presets first, then the registry's examples
//! (`teach::presets`).

use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::teach;
use crate::ui::action::{Action, TeachAction};
use crate::ui::hooks::AppHandle;

#[derive(Properties, PartialEq)]
pub struct StateProps {
    pub state: AppHandle,
}

fn teach(state: &AppHandle, a: TeachAction) {
    state.dispatch(Action::Teach(a));
}

/// The one presets menu: the course's presets first, then the engine's example scenarios.
#[component]
pub fn PresetMenu(props: &StateProps) -> Html {
    let state = props.state.clone();
    let presets = use_memo((), |_| teach::presets::all());
    let current = state.get().teach.pristine_preset(&state.get().doc.scenario).map(|p| p.id.clone());
    let onchange = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let Some(sel) = e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()) else { return };
            let v = sel.value();
            if let Some(id) = v.strip_prefix("course:") {
                teach(&state, TeachAction::LoadPreset(id.to_string()));
            } else if let Some(id) = v.strip_prefix("example:") {
                teach(&state, TeachAction::LoadExample(id.to_string()));
            }
        })
    };
    html! {
        <select class="presets" aria-label="Load a preset scenario" data-testid="presets" {onchange}>
            <option value="" selected={current.is_none()} disabled=true>{ "Presets…" }</option>
            <optgroup label="Course presets">
                { for presets.iter().map(|p| html! {
                    <option value={format!("course:{}", p.id)} selected={current.as_deref() == Some(p.id.as_str())} title={p.goal.clone()}>
                        { p.title.clone() }
                    </option>
                }) }
            </optgroup>
            <optgroup label="Examples">
                { for teach::presets::example_titles().into_iter().map(|(id, name)| html! { <option value={format!("example:{id}")}>{ name }</option> }) }
            </optgroup>
        </select>
    }
}
