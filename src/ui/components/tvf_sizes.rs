//! The SQL view's window TVF sizes, editable: TUMBLE's size, HOP's size and slide, CUMULATE's
//! max size and step, SESSION's gap. Each is a named field (ms, or with a unit: `40s`, `1min`);
//! what Flink SQL refuses (a HOP size that is not a multiple of its slide, …) is said under the
//! field as it is typed, and only an accepted value is run (on Enter or leaving the field).

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::engine::Millis;
use crate::engine::scenario::{TvfSpec, tvf_rule};
use crate::ui::action::{Action, CompareAction};
use crate::ui::hooks::AppHandle;
use crate::ui::state::config::parse_millis;

#[derive(Properties, PartialEq)]
pub struct TvfSizesProps {
    pub state: AppHandle,
    pub spec: TvfSpec,
}

/// The spec's fields: (name, label, value).
fn fields(spec: TvfSpec) -> Vec<(&'static str, &'static str, Millis)> {
    match spec {
        TvfSpec::Tumble { size } => vec![("size", "Size", size)],
        TvfSpec::Hop { size, slide } => vec![("size", "Size", size), ("slide", "Slide", slide)],
        TvfSpec::Cumulate { step, size } => vec![("size", "Max size", size), ("step", "Step", step)],
        TvfSpec::Session { gap } => vec![("gap", "Gap", gap)],
    }
}

/// The spec with the fields' texts, or (field, message).
fn spec_of(spec: TvfSpec, texts: &[(&'static str, String)]) -> Result<TvfSpec, (&'static str, String)> {
    let mut values = Vec::with_capacity(texts.len());
    for (name, text) in texts {
        values.push(parse_millis(text).map_err(|e| (*name, format!("{} {e}", capitalised(name))))?);
    }
    let v = |i: usize| values.get(i).copied().unwrap_or(0);
    let out = match spec {
        TvfSpec::Tumble { .. } => TvfSpec::Tumble { size: v(0) },
        TvfSpec::Hop { .. } => TvfSpec::Hop { size: v(0), slide: v(1) },
        TvfSpec::Cumulate { .. } => TvfSpec::Cumulate { size: v(0), step: v(1) },
        TvfSpec::Session { .. } => TvfSpec::Session { gap: v(0) },
    };
    match tvf_rule(out) {
        Some((field, message)) => Err((field, format!("{} {message}", capitalised(field)))),
        None => Ok(out),
    }
}

fn capitalised(name: &str) -> String {
    let mut c = name.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

#[component]
pub fn TvfSizes(p: &TvfSizesProps) -> Html {
    let initial = || fields(p.spec).into_iter().map(|(name, _, v)| (name, v.to_string())).collect::<Vec<_>>();
    let texts = use_state(initial);
    // Another TVF (the select, undo, a link): the fields show its sizes.
    {
        let texts = texts.clone();
        use_effect_with(p.spec, move |spec| {
            texts.set(fields(*spec).into_iter().map(|(name, _, v)| (name, v.to_string())).collect());
        });
    }
    let checked = spec_of(p.spec, &texts);
    let error = checked.as_ref().err().cloned();
    let items = fields(p.spec).into_iter().enumerate().map(|(i, (name, label, _))| {
        let id = format!("sql-{name}");
        let error_id = format!("sql-{name}-error");
        let invalid = error.as_ref().is_some_and(|(f, _)| *f == name);
        let text = texts.get(i).map(|(_, t)| t.clone()).unwrap_or_default();
        let oninput = {
            let texts = texts.clone();
            Callback::from(move |e: InputEvent| {
                let v = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).map(|i| i.value());
                let mut next = (*texts).clone();
                if let (Some(v), Some(slot)) = (v, next.get_mut(i)) {
                    slot.1 = v.chars().take(40).collect();
                }
                texts.set(next);
            })
        };
        let onchange = {
            let state = p.state.clone();
            let texts = texts.clone();
            let spec = p.spec;
            Callback::from(move |e: Event| {
                let mut now = (*texts).clone();
                if let (Some(v), Some(slot)) =
                    (e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).map(|i| i.value()), now.get_mut(i))
                {
                    slot.1 = v.chars().take(40).collect();
                }
                if let Ok(next) = spec_of(spec, &now)
                    && next != spec
                {
                    state.dispatch(Action::Compare(CompareAction::SetTvfSpec(next)));
                }
            })
        };
        html! {
            <div class={classes!("field", invalid.then_some("invalid"))}>
                <label for={id.clone()}>{ label }</label>
                <input id={id.clone()} type="text" inputmode="numeric" spellcheck="false" autocomplete="off"
                       data-testid={id} value={text} placeholder="ms, or 40s, 1min"
                       aria-invalid={invalid.to_string()} aria-describedby={invalid.then(|| error_id.clone())}
                       {oninput} {onchange} />
                if let Some((_, message)) = error.as_ref().filter(|_| invalid) {
                    <span class="field-error" role="alert" id={error_id} data-testid="field-error" data-field={format!("sql-{name}")}>{ message.clone() }</span>
                }
            </div>
        }
    });
    html! {
        <div class="tvf-sizes" data-testid="sql-sizes" role="group" aria-label="The window TVF's sizes">{ for items }</div>
    }
}
