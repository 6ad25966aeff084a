//! The Configure tab: the window assigner, lateness, watermarks, trigger, evictor and window
//! function. It shows what the form derives from the scenario (`state::config`), with a refused
//! field's reason next to it; every change is one `ConfigEdit`.

use std::collections::BTreeMap;

use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::engine::scenario::{DeltaFn, WindowFunctionSpec};
use crate::ui::action::{
    Action, AssignerChoice, Choice, ConfigEdit, EmissionChoice, EvictorChoice, Field, TriggerChoice, WatermarkChoice,
};
use crate::ui::hooks::AppHandle;
use crate::ui::state::config::ConfigView;

/// The form for the state's scenario.
pub fn config_panel(state: &AppHandle) -> Html {
    let s = state.get();
    let scenario = &s.doc.scenario;
    let on_edit = {
        let state = state.clone();
        Callback::from(move |edit: ConfigEdit| state.dispatch(Action::Config(edit)))
    };
    let form = html! { <ConfigForm view={s.config.view(scenario)} errors={s.config.errors(scenario)} {on_edit} /> };
    if !s.teach.locked {
        return form;
    }
    // A lab page locked editing: every control of the form is disabled, and says why.
    html! {
        <fieldset class="config-lock" disabled=true data-testid="config-locked">
            <legend>{ "Read-only: the lab page has locked editing" }</legend>
            { form }
        </fieldset>
    }
}

#[derive(Properties, PartialEq)]
struct ConfigFormProps {
    view: ConfigView,
    errors: BTreeMap<Field, String>,
    on_edit: Callback<ConfigEdit>,
}

fn error_id(f: Field) -> String {
    format!("cfg-{}-error", f.name())
}

#[component]
fn ConfigForm(p: &ConfigFormProps) -> Html {
    let d = &p.view;
    // A new error scrolls into view: in a 700x450 page the panel shows two fields, and the
    // message under the field being typed in would otherwise sit below the fold.
    let fields_in_error: Vec<Field> = p.errors.keys().copied().collect();
    use_effect_with(fields_in_error, |fields| {
        if let Some(el) = fields.first().and_then(|f| web_sys::window()?.document()?.get_element_by_id(&error_id(*f))) {
            el.scroll_into_view_with_bool(false);
        }
    });
    let error = |f: Field| field_error(p, f);
    let text = |f: Field, label: &'static str, hint: &'static str| text_field(p, f, label, hint);
    let check = |label: &'static str, value: bool, testid: &'static str, edit: fn(bool) -> ConfigEdit| {
        check_box(&p.on_edit, label, value, testid, edit)
    };
    let assigner = d.assigner;
    html! {
        <form class="config" data-testid="config" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <fieldset>
                <legend>{ "Window assigner" }</legend>
                { select(Field::Assigner, "assigner", options(assigner), |v| AssignerChoice::from_value(v).map(ConfigEdit::Assigner), &p.on_edit, error(Field::Assigner)) }
                if assigner.is_sized() {
                    { text(Field::Size, "size", "e.g. 60000 or 1min") }
                }
                if assigner.is_sliding() {
                    { text(Field::Slide, "slide", "e.g. 10s") }
                }
                if assigner.is_session() {
                    { text(Field::Gap, if assigner == AssignerChoice::DynamicSession { "default gap" } else { "gap" }, "e.g. 10s") }
                }
                if assigner.is_sized() {
                    { text(Field::Offset, "offset", "0") }
                }
                if assigner == AssignerChoice::DynamicSession {
                    { key_gaps(&d.key_gaps, &p.on_edit, error(Field::KeyGaps)) }
                }
            </fieldset>
            <fieldset>
                <legend>{ "Lateness" }</legend>
                { text(Field::Lateness, "allowed lateness", "not set (0)") }
                { check("late side output (sideOutputLateData)", d.side_output, "cfg-side-output", ConfigEdit::SideOutput) }
                { error(Field::SideOutput) }
            </fieldset>
            <fieldset>
                <legend>{ "Watermarks" }</legend>
                { select(Field::Watermarks, "strategy", options(d.watermarks), |v| WatermarkChoice::from_value(v).map(ConfigEdit::Watermarks), &p.on_edit, error(Field::Watermarks)) }
                if d.watermarks == WatermarkChoice::Bounded {
                    { text(Field::Bound, "max out-of-orderness", "e.g. 5s") }
                }
            </fieldset>
            <fieldset>
                <legend>{ "Source" }</legend>
                <datalist id="cfg-partition-counts">
                    { for (1..=8).map(|n| html! { <option value={n.to_string()} /> }) }
                </datalist>
                { text(Field::Partitions, "partitions (1–64)", "1 to 64") }
                { select(Field::Emission, "watermark emission", options(d.emission), |v| EmissionChoice::from_value(v).map(ConfigEdit::Emission), &p.on_edit, error(Field::Emission)) }
                if d.emission == EmissionChoice::Periodic {
                    { text(Field::Interval, "interval (autoWatermarkInterval)", "e.g. 200ms") }
                }
                { text(Field::Idleness, "withIdleness", "none (e.g. 1s)") }
            </fieldset>
            <fieldset>
                <legend>{ "Trigger and evictor" }</legend>
                { select(Field::Trigger, "trigger", options(d.trigger), |v| TriggerChoice::from_value(v).map(ConfigEdit::Trigger), &p.on_edit, error(Field::Trigger)) }
                if d.trigger == TriggerChoice::Count {
                    { text(Field::TriggerN, "count n", "e.g. 3") }
                }
                if d.trigger == TriggerChoice::EarlyCount {
                    { text(Field::TriggerN, "fire every n elements", "e.g. 2") }
                }
                if d.trigger == TriggerChoice::SessionMaxDuration {
                    { text(Field::TriggerMaxDuration, "maximum session duration", "e.g. 60s") }
                }
                if d.trigger == TriggerChoice::ContinuousEventTime {
                    { text(Field::TriggerInterval, "interval", "e.g. 10s") }
                }
                { check("PurgingTrigger (purge after every firing)", d.purging, "cfg-purging", ConfigEdit::Purging) }
                { select(Field::Evictor, "evictor", options(d.evictor), |v| EvictorChoice::from_value(v).map(ConfigEdit::Evictor), &p.on_edit, error(Field::Evictor)) }
                if d.evictor == EvictorChoice::Count {
                    { text(Field::EvictorN, "keep last n", "e.g. 2") }
                }
                if d.evictor == EvictorChoice::Time {
                    { text(Field::EvictorSize, "keep within", "e.g. 10s") }
                }
                if d.evictor == EvictorChoice::Delta {
                    { text(Field::EvictorThreshold, "evict when delta ≥ threshold", "e.g. 10") }
                    { select(Field::EvictorDelta, "delta function", options(d.evictor_delta), |v| DeltaFn::from_value(v).map(ConfigEdit::DeltaFn), &p.on_edit, error(Field::EvictorDelta)) }
                }
                if d.evictor != EvictorChoice::None {
                    { check("evict after the function", d.evict_after, "cfg-evict-after", ConfigEdit::EvictAfter) }
                }
            </fieldset>
            <fieldset>
                <legend>{ "Window function" }</legend>
                { select(Field::Function, "function", options(d.function), |v| WindowFunctionSpec::from_value(v).map(ConfigEdit::Function), &p.on_edit, error(Field::Function)) }
            </fieldset>
        </form>
    }
}

/// A refused field's reason. One body for every field (`inline(never)`: inlined at each of the
/// form's fields it cost the main bundle kilobytes).
#[inline(never)]
fn field_error(p: &ConfigFormProps, f: Field) -> Html {
    match p.errors.get(&f) {
        Some(msg) => html! {
            <span class="field-error" role="alert" id={error_id(f)} data-testid="field-error" data-field={f.name()}>{ msg.clone() }</span>
        },
        None => Html::default(),
    }
}

/// A text field of the form, with its refusal under it.
#[inline(never)]
fn text_field(p: &ConfigFormProps, f: Field, label: &'static str, hint: &'static str) -> Html {
    let oninput = p.on_edit.reform(move |e: InputEvent| {
        let v = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).map(|i| i.value()).unwrap_or_default();
        ConfigEdit::Text(f, v)
    });
    let id = format!("cfg-{}", f.name());
    let invalid = p.errors.contains_key(&f);
    html! {
        <div class={classes!("field", invalid.then_some("invalid"))}>
            <label for={id.clone()}>{ label }</label>
            <input id={id.clone()} type="text" inputmode="numeric" spellcheck="false" autocomplete="off"
                   data-testid={id} value={p.view.text(f).to_string()}
                   list={(f == Field::Partitions).then_some("cfg-partition-counts")}
                   aria-invalid={invalid.to_string()} aria-describedby={invalid.then(|| error_id(f))}
                   placeholder={hint} {oninput} />
            { field_error(p, f) }
        </div>
    }
}

#[inline(never)]
fn check_box(
    on_edit: &Callback<ConfigEdit>,
    label: &'static str,
    value: bool,
    testid: &'static str,
    edit: fn(bool) -> ConfigEdit,
) -> Html {
    let onchange = on_edit.reform(move |e: Event| {
        edit(e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).is_some_and(|i| i.checked()))
    });
    html! {
        <label class="check"><input type="checkbox" checked={value} data-testid={testid} {onchange} />{ label }</label>
    }
}

/// The dynamic session's gap per key (`withDynamicGap`'s extractor as a table): empty uses the
/// default gap.
fn key_gaps(gaps: &[(String, String)], on_edit: &Callback<ConfigEdit>, error: Html) -> Html {
    html! {
        <div class="field key-gaps" data-testid="cfg-key-gaps" role="group" aria-label="Session gap per key (empty: the default gap)">
            <span class="key-gaps-title">{ "gap per key (empty: default)" }</span>
            { for gaps.iter().enumerate().map(|(i, (key, text))| {
                let id = format!("cfg-key-gap-{i}");
                let k = key.clone();
                let oninput = on_edit.reform(move |e: InputEvent| {
                    let v = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).map(|i| i.value()).unwrap_or_default();
                    ConfigEdit::KeyGap(k.clone(), v)
                });
                html! {
                    <div class="key-gap">
                        <label for={id.clone()}>{ format!("key {key}") }</label>
                        <input id={id} type="text" spellcheck="false" autocomplete="off" data-testid="cfg-key-gap" data-key={key.clone()}
                               value={text.clone()} placeholder="default" {oninput} />
                    </div>
                }
            }) }
            { error }
        </div>
    }
}

/// The options of a [`Choice`] (value, label), the current one added when it is not on the menu
/// (a processing-time assigner loaded from a scenario).
fn options<C: Choice>(current: C) -> (Vec<(&'static str, &'static str)>, &'static str) {
    let mut v: Vec<(&'static str, &'static str)> = C::menu().iter().map(|(_, value, label)| (*value, *label)).collect();
    if !C::menu().iter().any(|(c, _, _)| *c == current) {
        v.push((current.value(), current.label()));
    }
    (v, current.value())
}

/// A `<select>` of the panel.
fn select(
    field: Field,
    label: &'static str,
    (options, current): (Vec<(&'static str, &'static str)>, &'static str),
    edit: fn(&str) -> Option<ConfigEdit>,
    on_edit: &Callback<ConfigEdit>,
    error: Html,
) -> Html {
    let id = format!("cfg-{}", field.name());
    let on_edit = on_edit.clone();
    let onchange = Callback::from(move |e: Event| {
        let v = e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()).map(|s| s.value()).unwrap_or_default();
        if let Some(edit) = edit(&v) {
            on_edit.emit(edit);
        }
    });
    html! {
        <div class="field">
            <label for={id.clone()}>{ label }</label>
            <select id={id.clone()} data-testid={id} {onchange}>
                { for options.iter().map(|(value, label)| html! {
                    <option value={*value} selected={*value == current}>{ *label }</option>
                }) }
            </select>
            { error }
        </div>
    }
}

/// The window functions' `<option value>`s are the format's kinds (a test keeps them equal).
#[cfg(test)]
#[test]
fn function_values_are_the_format_kinds() {
    for f in WindowFunctionSpec::ALL {
        assert_eq!(Choice::value(&f), f.kind());
    }
}
