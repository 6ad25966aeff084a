//! The side panel: the output rows up to the playhead, the configuration form and the step
//! log. Rows carry the `data-*` contract the end-to-end tests read.

use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};

use yew::prelude::*;

use crate::engine::scenario::WindowFunctionSpec;
use crate::engine::time::format_millis;
use crate::engine::trace::FiringKind;
use crate::engine::{Output, Run, Scenario, Window};

use super::config::{AssignerChoice, ConfigEdit, EvictorChoice, Field, TriggerChoice, WatermarkChoice};
use super::model::{Effect, result_text, step_log};
use super::state::{Action, AppState, Tab};

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub state: UseReducerHandle<AppState>,
}

fn window_text(w: &Window) -> String {
    match w {
        Window::Global => "GlobalWindow".into(),
        Window::Time(tw) => format!("[{}, {})", format_millis(tw.start), format_millis(tw.end)),
    }
}

#[component]
pub fn SidePanel(props: &PanelProps) -> Html {
    let state = props.state.clone();
    let tab = state.tab;
    let tab_button = |t: Tab, label: &'static str, testid: &'static str| {
        let state = state.clone();
        html! {
            <button class={classes!("tab", (tab == t).then_some("active"))} role="tab" aria-selected={(tab == t).to_string()}
                    data-testid={testid} onclick={Callback::from(move |_| state.dispatch(Action::SetTab(t)))}>
                { label }
            </button>
        }
    };
    let outputs = state.scene.view.outputs;
    html! {
        <aside class="side-panel" aria-label="Output and configuration">
            <div class="tabs" role="tablist">
                { tab_button(Tab::Output, "Output", "tab-output") }
                { tab_button(Tab::Sinks, "Sinks", "tab-sinks") }
                { tab_button(Tab::Charts, "Charts", "tab-charts") }
                { tab_button(Tab::Code, "Code", "tab-code") }
                { tab_button(Tab::Config, "Configure", "tab-config") }
                { tab_button(Tab::Log, "Step log", "tab-log") }
                <span class="tab-count">{ format!("{outputs} record(s)") }</span>
            </div>
            <div class="tab-body">
                {
                    match tab {
                        Tab::Output => html! { <OutputList state={state.clone()} /> },
                        Tab::Config => html! { <ConfigPanel state={state.clone()} /> },
                        Tab::Log => html! { <StepLog state={state.clone()} /> },
                        Tab::Sinks => html! { <super::outputs::SinksPanel state={state.clone()} /> },
                        Tab::Charts => html! { <super::chart_view::ChartsPanel state={state.clone()} /> },
                        Tab::Code => html! { <super::outputs::CodePanel state={state.clone()} /> },
                    }
                }
            </div>
        </aside>
    }
}

#[component]
pub fn OutputList(props: &PanelProps) -> Html {
    let s: &AppState = &props.state;
    let upto = s.scene.view.outputs.min(s.run.outputs.len());
    let (fresh, fresh_late) = if s.animate {
        let fired = s.scene.effects.iter().filter_map(|e| match e {
            Effect::Fired { output, .. } => Some(*output),
            _ => None,
        });
        (fired.collect(), s.scene.effects.iter().any(|e| matches!(e, Effect::SideOutput { .. })))
    } else {
        (Vec::new(), false)
    };
    html! { <OutputRows run={s.run.clone()} scenario={s.scenario.clone()} {upto} {fresh} {fresh_late} /> }
}

#[derive(Properties)]
struct OutputRowsProps {
    run: Rc<Run>,
    scenario: Rc<Scenario>,
    /// How many of `run.outputs` were emitted up to the playhead.
    upto: usize,
    /// Outputs emitted by the step just taken (animated).
    fresh: Vec<usize>,
    fresh_late: bool,
}

/// Equal when the rows would be: a drag re-runs the engine, but the outputs up to the playhead
/// often stay the same, and then the list is not rendered again.
impl PartialEq for OutputRowsProps {
    fn eq(&self, other: &Self) -> bool {
        fn outputs(p: &OutputRowsProps) -> &[Output] {
            p.run.outputs.get(..p.upto).unwrap_or(&[])
        }
        fn values(p: &OutputRowsProps) -> impl Iterator<Item = i64> + '_ {
            p.run.elements.iter().map(|e| e.value)
        }
        self.upto == other.upto
            && self.fresh == other.fresh
            && self.fresh_late == other.fresh_late
            && self.scenario.function == other.scenario.function
            && self.scenario.side_output == other.scenario.side_output
            && (Rc::ptr_eq(&self.run, &other.run)
                || (outputs(self) == outputs(other)
                    && self.run.keys == other.run.keys
                    && values(self).eq(values(other))))
    }
}

#[component]
fn OutputRows(p: &OutputRowsProps) -> Html {
    let upto = p.upto.min(p.run.outputs.len());
    let fresh = |i: usize| p.fresh.contains(&i);
    let mut fires = Vec::new();
    let mut lates = Vec::new();
    let mut errors = Vec::new();
    for (i, o) in p.run.outputs[..upto].iter().enumerate() {
        match o {
            Output::Fire(f) => {
                let kind = match f.kind {
                    FiringKind::Early => "early",
                    FiringKind::Main => "main",
                    FiringKind::Late => "late",
                };
                fires.push(html! {
                    <FireRow key={i} key_name={AttrValue::from(p.run.key_name(f.key).to_string())} window={f.window}
                        firing={f.oracle_firing()} {kind} ids={f.ids.clone()} sum={f.sum} count={f.count}
                        result={AttrValue::from(result_text(&p.scenario, &p.run, Some(i)))}
                        list={p.scenario.function == WindowFunctionSpec::Process} wm={f.watermark} fresh={fresh(i)} />
                });
            }
            Output::Late { elem, id, key, ts, .. } => lates.push(LateRowProps {
                elem: *elem,
                id: *id,
                key_name: AttrValue::from(p.run.key_name(*key).to_string()),
                ts: *ts,
                fresh: p.fresh_late,
            }),
            Output::Error(e) => errors.push(html! {
                <li class="error-row" key={i.to_string()} data-testid="error-row" data-phase={e.phase} data-class={e.class}>
                    { format!("Flink error ({}): {}: {}", e.phase, e.class, e.message) }
                </li>
            }),
            // A window TVF's final row: one per window, never updated.
            Output::Tvf(r) => {
                let key = p.run.key_name(r.firing.key).to_string();
                let ids: Vec<String> = r.firing.ids.iter().map(|i| i.to_string()).collect();
                fires.push(html! {
                    <li class={classes!("output-row", "firing-main", fresh(i).then_some("fresh"))} key={i.to_string()}
                        data-testid="output-row" data-key={key.clone()} data-start={r.window_start.to_string()}
                        data-end={r.window_end.to_string()} data-firing="main" data-ids={ids.join(",")}
                        data-sum={r.firing.sum.to_string()} data-count={r.firing.count.to_string()}>
                        { format!("{key} [{}, {}) window_time {}: sum {} count {}", format_millis(r.window_start),
                            format_millis(r.window_end), format_millis(r.window_time), r.firing.sum, r.firing.count) }
                    </li>
                });
            }
            // A keyed process function's record (completed, abandoned, alert, ok).
            Output::Process(rec) => {
                let key = p.run.key_name(rec.key).to_string();
                fires.push(html! {
                    <li class={classes!("output-row", "process-row", fresh(i).then_some("fresh"))} key={i.to_string()}
                        data-testid="process-row" data-key={key.clone()} data-kind={rec.kind}>
                        { format!("{key}: {} at {}", rec.kind, format_millis(rec.ts)) }
                    </li>
                });
            }
        }
    }
    let n_fires = fires.len();
    let n_lates = lates.len();
    html! {
        <div class="outputs" data-testid="outputs">
            if !errors.is_empty() {
                <ul class="errors">{ for errors }</ul>
            }
            <h3>{ format!("Window results ({n_fires})") }</h3>
            if n_fires == 0 {
                <p class="empty">{ "Nothing emitted yet: a window fires when the watermark passes its end − 1." }</p>
            }
            <ol class="rows">{ for fires }</ol>
            <h3>{ format!("Late side output ({n_lates})") }</h3>
            if !p.scenario.side_output {
                <p class="empty">{ "Side output is off: late elements are dropped." }</p>
            }
            <ol class="rows side-rows" data-testid="side-output-rows"><LateRows rows={lates} /></ol>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct FireRowProps {
    key_name: AttrValue,
    window: Window,
    /// The oracle's `firing`: main for the first call of the window function, late after.
    firing: &'static str,
    /// The teaching classification: early, main or late.
    kind: &'static str,
    ids: Vec<i64>,
    sum: i64,
    count: u64,
    result: AttrValue,
    /// Show the element ids (a buffering process function) rather than a count.
    list: bool,
    wm: crate::engine::Millis,
    fresh: bool,
}

#[derive(Properties, PartialEq)]
struct LateRowsProps {
    rows: Vec<LateRowProps>,
}

/// The late side output's rows: components, so that a drag which changes one late element
/// re-renders that row only (a scenario can have thousands).
#[component]
fn LateRows(p: &LateRowsProps) -> Html {
    html! { <>{ for p.rows.iter().map(|r| html! { <LateRow key={r.elem} ..r.clone() /> }) }</> }
}

#[derive(Properties, PartialEq, Clone)]
struct LateRowProps {
    /// The element's ordinal in the run: its key (an element goes to the side output at most once,
    /// when it is processed), so a row that comes or goes does not shift the keys of the rows after it.
    elem: crate::engine::trace::ElemIdx,
    id: i64,
    key_name: AttrValue,
    ts: crate::engine::Millis,
    fresh: bool,
}

#[component]
fn LateRow(p: &LateRowProps) -> Html {
    html! {
        <li class={classes!("side-row", p.fresh.then_some("fresh"))} data-testid="side-output-row" data-id={p.id.to_string()}
            data-key={p.key_name.clone()} data-ts={p.ts.to_string()}>
            { format!("element {} · key {} · ts {}", p.id, p.key_name, format_millis(p.ts)) }
        </li>
    }
}

/// One window result, with the `data-*` contract of the end-to-end tests.
#[component]
fn FireRow(p: &FireRowProps) -> Html {
    let (start, end) = p.window.bounds();
    let ids: Vec<String> = p.ids.iter().map(|i| i.to_string()).collect();
    let contents = if p.list { format!("[{}]", ids.join(", ")) } else { format!("{} element(s)", p.count) };
    let class = classes!("output-row", format!("firing-{}", p.kind), p.fresh.then_some("fresh"));
    html! {
        <li {class} data-testid="output-row" data-key={p.key_name.clone()}
            data-start={start.map(|v| v.to_string()).unwrap_or_default()}
            data-end={end.map(|v| v.to_string()).unwrap_or_default()}
            data-firing={p.firing} data-ids={ids.join(",")}
            data-sum={p.sum.to_string()} data-count={p.count.to_string()}>
            <span class="row-key">{ p.key_name.clone() }</span>
            <span class="row-window">{ window_text(&p.window) }</span>
            <span class={classes!("badge", format!("badge-{}", p.kind))}>
                { match p.kind { "late" => "late · updated result", k => k } }
            </span>
            <span class="row-result">{ p.result.clone() }</span>
            <span class="row-ids">{ contents }</span>
            <span class="row-wm">{ format!("wm {}", format_millis(p.wm)) }</span>
        </li>
    }
}

#[component]
pub fn StepLog(props: &PanelProps) -> Html {
    let s: &AppState = &props.state;
    let step = s.scene.view.step;
    html! {
        <div class="step-log" data-testid="step-log">
            <h3>{ if step == 0 { "Before the first step".to_string() } else { format!("What step {step} did") } }</h3>
            <ol class="log">{ for step_log(&s.run, step).into_iter().map(|l| html! { <li>{ l }</li> }) }</ol>
        </div>
    }
}

fn select_value(e: &Event) -> String {
    e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()).map(|s| s.value()).unwrap_or_default()
}

fn input_value(e: &InputEvent) -> String {
    e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).map(|s| s.value()).unwrap_or_default()
}

fn checked(e: &Event) -> bool {
    e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).is_some_and(|s| s.checked())
}

pub(super) fn field_name(f: Field) -> &'static str {
    match f {
        Field::Assigner => "assigner",
        Field::Size => "size",
        Field::Slide => "slide",
        Field::Gap => "gap",
        Field::Offset => "offset",
        Field::Lateness => "lateness",
        Field::SideOutput => "side-output",
        Field::Watermarks => "watermarks",
        Field::Bound => "bound",
        Field::Trigger => "trigger",
        Field::TriggerN => "trigger-n",
        Field::TriggerInterval => "trigger-interval",
        Field::Evictor => "evictor",
        Field::EvictorN => "evictor-n",
        Field::EvictorSize => "evictor-size",
        Field::Function => "function",
    }
}

#[component]
pub fn ConfigPanel(props: &PanelProps) -> Html {
    let state = props.state.clone();
    let d = &state.config;
    // A new error scrolls into view: in a 700x450 page the panel shows two fields, and the
    // message under the field being typed in would otherwise sit below the fold.
    let fields_in_error: Vec<Field> = d.errors.keys().copied().collect();
    use_effect_with(fields_in_error, |fields| {
        if let Some(el) = fields
            .first()
            .and_then(|f| web_sys::window()?.document()?.get_element_by_id(&format!("cfg-{}-error", field_name(*f))))
        {
            el.scroll_into_view_with_bool(false);
        }
    });
    let dispatch = |edit: fn(String) -> Option<ConfigEdit>| {
        let state = state.clone();
        Callback::from(move |e: Event| {
            if let Some(edit) = edit(select_value(&e)) {
                state.dispatch(Action::Config(edit));
            }
        })
    };
    let error = |f: Field| match d.errors.get(&f) {
        Some(msg) => html! {
            <span class="field-error" role="alert" id={format!("cfg-{}-error", field_name(f))} data-testid="field-error" data-field={field_name(f)}>{ msg.clone() }</span>
        },
        None => Html::default(),
    };
    let text = |f: Field, label: &'static str, hint: &'static str| {
        let state = state.clone();
        let oninput =
            Callback::from(move |e: InputEvent| state.dispatch(Action::Config(ConfigEdit::Text(f, input_value(&e)))));
        let id = format!("cfg-{}", field_name(f));
        let invalid = d.errors.contains_key(&f);
        html! {
            <div class={classes!("field", invalid.then_some("invalid"))}>
                <label for={id.clone()}>{ label }</label>
                <input {id} type="text" inputmode="numeric" spellcheck="false" autocomplete="off"
                       data-testid={format!("cfg-{}", field_name(f))} value={d.text(f).to_string()}
                       aria-invalid={invalid.to_string()} aria-describedby={invalid.then(|| format!("cfg-{}-error", field_name(f)))}
                       placeholder={hint} {oninput} />
                { error(f) }
            </div>
        }
    };
    let check = |label: &'static str, value: bool, testid: &'static str, edit: fn(bool) -> ConfigEdit| {
        let state = state.clone();
        let onchange = Callback::from(move |e: Event| state.dispatch(Action::Config(edit(checked(&e)))));
        html! {
            <label class="check"><input type="checkbox" checked={value} data-testid={testid} {onchange} />{ label }</label>
        }
    };
    let assigner = d.assigner;
    html! {
        <form class="config" data-testid="config" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <fieldset>
                <legend>{ "Window assigner" }</legend>
                <div class="field">
                    <label for="cfg-assigner">{ "assigner" }</label>
                    <select id="cfg-assigner" data-testid="cfg-assigner"
                            onchange={dispatch(|v| AssignerChoice::from_value(&v).map(ConfigEdit::Assigner))}>
                        { for AssignerChoice::MENU.iter().map(|(c, label)| html! {
                            <option value={c.value()} selected={*c == assigner}>{ *label }</option>
                        }) }
                        if assigner == AssignerChoice::DynamicSession {
                            <option value="dynamic_session" selected=true>{ "session, dynamic gap" }</option>
                        }
                        if assigner == AssignerChoice::TumblingProcessing {
                            <option value="tumbling_processing" selected=true>{ "tumbling, processing time" }</option>
                        }
                        if assigner == AssignerChoice::SlidingProcessing {
                            <option value="sliding_processing" selected=true>{ "sliding, processing time" }</option>
                        }
                    </select>
                    { error(Field::Assigner) }
                </div>
                if assigner.is_sized() {
                    { text(Field::Size, "size", "e.g. 60000 or 1min") }
                }
                if assigner.is_sliding() {
                    { text(Field::Slide, "slide", "e.g. 10s") }
                }
                if matches!(assigner, AssignerChoice::Session | AssignerChoice::DynamicSession) {
                    { text(Field::Gap, if assigner == AssignerChoice::DynamicSession { "default gap" } else { "gap" }, "e.g. 10s") }
                }
                if assigner.is_sized() {
                    { text(Field::Offset, "offset", "0") }
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
                <div class="field">
                    <label for="cfg-watermarks">{ "strategy" }</label>
                    <select id="cfg-watermarks" data-testid="cfg-watermarks"
                            onchange={dispatch(|v| WatermarkChoice::from_value(&v).map(ConfigEdit::Watermarks))}>
                        { for WatermarkChoice::MENU.iter().map(|(c, label)| html! {
                            <option value={c.value()} selected={*c == d.watermarks}>{ *label }</option>
                        }) }
                    </select>
                    { error(Field::Watermarks) }
                </div>
                if d.watermarks == WatermarkChoice::Bounded {
                    { text(Field::Bound, "max out-of-orderness", "e.g. 5s") }
                }
            </fieldset>
            <fieldset>
                <legend>{ "Trigger and evictor" }</legend>
                <div class="field">
                    <label for="cfg-trigger">{ "trigger" }</label>
                    <select id="cfg-trigger" data-testid="cfg-trigger"
                            onchange={dispatch(|v| TriggerChoice::from_value(&v).map(ConfigEdit::Trigger))}>
                        { for TriggerChoice::MENU.iter().map(|(c, label)| html! {
                            <option value={c.value()} selected={*c == d.trigger}>{ *label }</option>
                        }) }
                    </select>
                    { error(Field::Trigger) }
                </div>
                if d.trigger == TriggerChoice::Count {
                    { text(Field::TriggerN, "count n", "e.g. 3") }
                }
                if d.trigger == TriggerChoice::ContinuousEventTime {
                    { text(Field::TriggerInterval, "interval", "e.g. 10s") }
                }
                { check("PurgingTrigger (purge after every firing)", d.purging, "cfg-purging", ConfigEdit::Purging) }
                <div class="field">
                    <label for="cfg-evictor">{ "evictor" }</label>
                    <select id="cfg-evictor" data-testid="cfg-evictor"
                            onchange={dispatch(|v| EvictorChoice::from_value(&v).map(ConfigEdit::Evictor))}>
                        { for EvictorChoice::MENU.iter().map(|(c, label)| html! {
                            <option value={c.value()} selected={*c == d.evictor}>{ *label }</option>
                        }) }
                    </select>
                    { error(Field::Evictor) }
                </div>
                if d.evictor == EvictorChoice::Count {
                    { text(Field::EvictorN, "keep last n", "e.g. 2") }
                }
                if d.evictor == EvictorChoice::Time {
                    { text(Field::EvictorSize, "keep within", "e.g. 10s") }
                }
                if d.evictor != EvictorChoice::None {
                    { check("evict after the function", d.evict_after, "cfg-evict-after", ConfigEdit::EvictAfter) }
                }
            </fieldset>
            <fieldset>
                <legend>{ "Window function" }</legend>
                <div class="field">
                    <label for="cfg-function">{ "function" }</label>
                    <select id="cfg-function" data-testid="cfg-function"
                            onchange={dispatch(|v| WindowFunctionSpec::ALL.into_iter().find(|f| f.kind() == v).map(ConfigEdit::Function))}>
                        { for WindowFunctionSpec::ALL.iter().map(|f| html! {
                            <option value={f.kind()} selected={*f == d.function}>{ function_label(*f) }</option>
                        }) }
                    </select>
                    { error(Field::Function) }
                </div>
            </fieldset>
        </form>
    }
}

fn function_label(f: WindowFunctionSpec) -> &'static str {
    match f {
        WindowFunctionSpec::Process => "ProcessWindowFunction (buffers all elements)",
        WindowFunctionSpec::Sum => "sum (ReduceFunction)",
        WindowFunctionSpec::Count => "count (AggregateFunction)",
        WindowFunctionSpec::Avg => "average (AggregateFunction)",
        WindowFunctionSpec::Max => "max (ReduceFunction)",
        WindowFunctionSpec::Min => "min (ReduceFunction)",
    }
}
