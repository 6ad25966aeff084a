//! The Sinks tab's host: [`super::sinks_view::SinksView`] is drawn by the lazily loaded extras
//! module (`crate::ui::extras`), as a Yew root of its own inside this panel's element.

use yew::prelude::*;

use super::held_note;
use crate::ui::hooks::{AppHandle, use_extras, use_panel_json};
use crate::ui::state::AppState;

#[derive(Properties, PartialEq)]
pub struct SinksPanelProps {
    pub state: AppHandle,
}

/// The Sinks tab. [`SinksView`] is drawn by the lazily loaded extras module ([`super::extras`]),
/// as a Yew root of its own inside this panel's host element: it re-runs the scenario (given as
/// JSON) and follows the playhead and the preset's units, which this panel hands it on every change.
#[component]
pub fn SinksPanel(props: &SinksPanelProps) -> Html {
    let s = props.state.get();
    let s: &AppState = &s;
    let (step, values) = (s.play.step, s.teach.values);
    let (json, held) = use_panel_json(s);
    let extras = use_extras();
    let ready = extras.as_ref().and_then(|x| x.as_ref().ok()).cloned();
    let host = use_node_ref();
    let failed = use_state(|| None::<String>);
    {
        let (host, failed) = (host.clone(), failed.clone());
        use_effect_with((json, step, values, ready), move |(json, step, values, ready)| {
            if let Some(x) = ready
                && let Some(el) = host.cast::<web_sys::Element>()
            {
                let outcome = x.render_sinks(&el, &json.0, *step, *values).err();
                if *failed != outcome {
                    failed.set(outcome);
                }
            }
        });
    }
    let error = match (&extras, &*failed) {
        (Some(Err(e)), _) | (_, Some(e)) => Some(e.clone()),
        _ => None,
    };
    html! {
        <>
            if extras.is_none() {
                <p class="loading" data-testid="sinks-loading">{ "Loading the sinks…" }</p>
            }
            if let Some(e) = error {
                <p class="field-error" role="alert" data-testid="sinks-error">{ format!("The sinks could not be shown: {e}") }</p>
            }
            { held_note(held) }
            <div class="sinks-host" ref={host} data-held={held.to_string()} />
        </>
    }
}
