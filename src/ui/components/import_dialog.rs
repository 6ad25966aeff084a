//! The import dialog: your own stream's columns mapped to key, event time, value, partition and
//! arrival, the timestamps' unit and offset, the head's warnings and bad rows before anything
//! loads, the parse and the bad rows' review (skip them, or cancel). A modal: the focus stays
//! inside (Tab wraps), Escape cancels, and no key reaches the page's key map. Drawn by the extras
//! module (`src/extras.rs`), which carries the CSV reader; the flow's state and rules are
//! [`crate::ui::state::import_flow`].
//!
//! The parse: up to 1 MB at once; above, in a Web Worker of its own ([`ImportWorker`]) with a
//! progress bar (`<progress>`, named by its label) and "Cancel reading", which terminates the
//! worker. Where no worker can be made, or the worker fails, the same chunked job runs on the main
//! thread, yielding between chunks of [`CHUNK_ROWS`] rows. Test hook: the dialog's `data-parser`
//! says where the current or last parse ran, `worker` or `main-thread`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, KeyboardEvent};
use yew::prelude::*;

use crate::import::{Format, ImportError, Imported, Progress, Role, TimeUnit};
use crate::sinks::estimate::grouped;
use crate::ui::import_worker::{ImportWorker, News};
use crate::ui::state::import_flow::{CHUNK_ROWS, FlowAction, ImportFlow, Parser, Phase, column_label, summary};

#[derive(Properties, PartialEq)]
pub struct ImportDialogProps {
    pub name: String,
    /// The table's bytes; empty: the user pastes text.
    pub bytes: Rc<[u8]>,
    /// The scenario as JSON and the summary line, when the user loads.
    pub on_load: Callback<(String, String)>,
    /// Nothing is loaded.
    pub on_cancel: Callback<()>,
}

/// The flow as Yew's reducer.
#[derive(Clone, PartialEq)]
struct Flow(ImportFlow);

impl Reducible for Flow {
    type Action = FlowAction;
    fn reduce(self: Rc<Self>, action: FlowAction) -> Rc<Self> {
        let mut next = (*self).clone();
        next.0.reduce(action);
        Rc::new(next)
    }
}

/// What a Tab stop inside the dialog is.
const FOCUSABLE: &str =
    "button:not([disabled]), select:not([disabled]), input:not([disabled]), textarea, [tabindex=\"0\"]";

/// Keeps Tab inside `dialog`: from the last stop to the first and back.
fn trap_tab(dialog: &Element, e: &KeyboardEvent) {
    let Ok(list) = dialog.query_selector_all(FOCUSABLE) else { return };
    let stops: Vec<HtmlElement> = (0..list.length()).filter_map(|i| list.get(i)?.dyn_into().ok()).collect();
    let (Some(first), Some(last)) = (stops.first(), stops.last()) else { return };
    let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
    let at = |el: &HtmlElement| active.as_ref().is_some_and(|a| a == el.as_ref() as &Element);
    let inside = active.as_ref().is_some_and(|a| dialog.contains(Some(a)));
    if e.shift_key() && (at(first) || !inside) {
        e.prevent_default();
        let _ = last.focus();
    } else if !e.shift_key() && (at(last) || !inside) {
        e.prevent_default();
        let _ = first.focus();
    }
}

/// Yields to the event loop (a zero timeout), so that a chunked parse lets the page paint.
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// The parse under way: stopping it drops the worker (terminated) or stops the chunks.
#[derive(Default)]
struct Running {
    cancel: Rc<Cell<bool>>,
    worker: Option<ImportWorker>,
}

impl Running {
    fn stop(&mut self) {
        self.cancel.set(true);
        self.worker = None;
    }
}

/// Starts the parse the flow is waiting for: in a worker when the file wants one and one can be
/// made, else on the main thread; says which ([`FlowAction::ParseOn`]).
fn start_parse(flow: &ImportFlow, dispatch: UseReducerDispatcher<Flow>, running: &RefCell<Running>) {
    let mut running = running.borrow_mut();
    running.stop();
    if flow.wants_worker()
        && let Some(spec) = &flow.spec
    {
        let to = dispatch.clone();
        let worker = ImportWorker::start(spec, &flow.bytes, move |news| {
            to.dispatch(match news {
                News::Progress(p) => FlowAction::Progress(p),
                News::Done(result) => FlowAction::Parsed(result.map(Rc::new)),
                News::Failed(why) => FlowAction::WorkerFailed(why),
            })
        });
        if let Some(w) = worker {
            running.worker = Some(w);
            drop(running);
            return dispatch.dispatch(FlowAction::ParseOn(Parser::Worker));
        }
    }
    let cancel = Rc::new(Cell::new(false));
    running.cancel = cancel.clone();
    drop(running);
    dispatch.dispatch(FlowAction::ParseOn(Parser::MainThread));
    parse_here(flow, dispatch, cancel);
}

/// Parses the whole file on the main thread: at once up to 1 MB, else in chunks of
/// [`CHUNK_ROWS`] rows with a progress report after each, until done or `cancel` is set (whoever
/// sets it says what happened). The same protocol (progress, then the parsed rows) as the worker's.
fn parse_here(flow: &ImportFlow, dispatch: UseReducerDispatcher<Flow>, cancel: Rc<Cell<bool>>) {
    let mut job = match flow.job() {
        Ok(j) => j,
        Err(e) => return dispatch.dispatch(FlowAction::Parsed(Err(e))),
    };
    if !flow.chunked() {
        return dispatch.dispatch(FlowAction::Parsed(job.finish().map(Rc::new)));
    }
    wasm_bindgen_futures::spawn_local(async move {
        loop {
            next_task().await;
            if cancel.get() {
                return;
            }
            match job.step(CHUNK_ROWS) {
                Ok(Progress { done: true, .. }) => break,
                Ok(p) => dispatch.dispatch(FlowAction::Progress(p)),
                Err(e) => return dispatch.dispatch(FlowAction::Parsed(Err(e))),
            }
        }
        dispatch.dispatch(FlowAction::Parsed(job.finish().map(Rc::new)));
    });
}

fn unit_option(u: TimeUnit) -> (&'static str, &'static str) {
    match u {
        TimeUnit::Seconds => ("s", "epoch seconds"),
        TimeUnit::Millis => ("ms", "epoch milliseconds"),
        TimeUnit::Micros => ("us", "epoch microseconds (µs)"),
        TimeUnit::Nanos => ("ns", "epoch nanoseconds"),
        TimeUnit::Iso => ("iso", "ISO-8601 date-times"),
    }
}

fn select_value(e: &Event) -> String {
    e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()).map(|s| s.value()).unwrap_or_default()
}

#[component]
pub fn ImportDialog(p: &ImportDialogProps) -> Html {
    let flow = use_reducer({
        let (name, bytes) = (p.name.clone(), p.bytes.clone());
        move || Flow(ImportFlow::new(&name, bytes))
    });
    let dialog_ref = use_node_ref();
    let running = use_mut_ref(Running::default);
    let f = &flow.0;
    // A parse still running when the dialog goes (the page closed it) stops: its worker is terminated.
    {
        let running = running.clone();
        use_effect_with((), move |_| move || running.borrow_mut().stop());
    }
    // The focus goes into the dialog when it opens; the page's focus comes back when it closes.
    {
        let dialog_ref = dialog_ref.clone();
        use_effect_with((), move |_| {
            let before = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
            if let Some(d) = dialog_ref.cast::<Element>()
                && let Ok(Some(first)) = d.query_selector("select, textarea, button")
                && let Ok(first) = first.dyn_into::<HtmlElement>()
            {
                let _ = first.focus();
            }
            move || {
                if let Some(el) = before.and_then(|b| b.dyn_into::<HtmlElement>().ok()) {
                    let _ = el.focus();
                }
            }
        });
    }
    // A phase's view replaces the control that had the focus (Import, Skip…): the focus goes to
    // the new view's first control (Cancel reading while it reads), so Escape and Tab still work.
    {
        let dialog_ref = dialog_ref.clone();
        use_effect_with(discriminant(&f.phase), move |_| {
            let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
            if let Some(d) = dialog_ref.cast::<Element>()
                && !active.is_some_and(|a| d.contains(Some(&a)))
                && let Ok(Some(first)) = d.query_selector(FOCUSABLE)
                && let Ok(first) = first.dyn_into::<HtmlElement>()
            {
                let _ = first.focus();
            }
        });
    }
    // The phase's side effects: start the parse (again on the main thread after a worker failed),
    // let the worker go when the parse is over, hand over the scenario, say "cancelled".
    {
        let (dispatch, on_load, on_cancel) = (flow.dispatcher(), p.on_load.clone(), p.on_cancel.clone());
        let running = running.clone();
        use_effect_with((discriminant(&f.phase), f.parse_unplaced()), {
            let flow = flow.clone();
            move |_| match &flow.0.phase {
                Phase::Parsing { .. } if flow.0.parse_unplaced() => start_parse(&flow.0, dispatch, &running),
                Phase::Parsing { .. } => {}
                phase => {
                    running.borrow_mut().stop();
                    match phase {
                        Phase::Load(imported) => {
                            on_load.emit((imported.scenario.to_json_string(), summary(&flow.0.name, imported)))
                        }
                        Phase::Cancelled => on_cancel.emit(()),
                        _ => {}
                    }
                }
            }
        });
    }
    let send = |a: FlowAction| {
        let flow = flow.clone();
        Callback::from(move |_| flow.dispatch(a.clone()))
    };
    let onkeydown = {
        let (flow, dialog_ref, running) = (flow.clone(), dialog_ref.clone(), running.clone());
        Callback::from(move |e: KeyboardEvent| {
            // The page's key map (arrows, space, Ctrl+Z) is not for the dialog's controls.
            e.stop_propagation();
            match e.key().as_str() {
                "Escape" => {
                    e.prevent_default();
                    running.borrow_mut().stop();
                    flow.dispatch(FlowAction::Cancel);
                }
                "Tab" => {
                    if let Some(d) = dialog_ref.cast::<Element>() {
                        trap_tab(&d, &e);
                    }
                }
                _ => {}
            }
        })
    };
    let title = if f.bytes.is_empty() && f.phase == Phase::Paste {
        "Import: paste your stream".to_string()
    } else {
        format!("Import “{}”", f.name)
    };
    let body = match &f.phase {
        Phase::Paste => paste_view(&flow),
        Phase::Mapping => mapping_view(&flow),
        Phase::Parsing { bytes_read, total_bytes, rows } => {
            let cancel = {
                let (running, flow) = (running.clone(), flow.clone());
                Callback::from(move |_| {
                    running.borrow_mut().stop();
                    flow.dispatch(FlowAction::Parsed(Err(ImportError::Cancelled)));
                })
            };
            let pct = if *total_bytes == 0 { 100 } else { bytes_read * 100 / total_bytes };
            html! {
                <div class="import-progress" data-testid="import-progress">
                    <label for="import-progress-bar">{ format!("Reading {} rows so far ({pct} %)", grouped(u128::from(*rows))) }</label>
                    <progress id="import-progress-bar" max={total_bytes.to_string()} value={bytes_read.to_string()}>{ format!("{pct} %") }</progress>
                    <div class="dialog-buttons">
                        <button data-testid="import-parse-cancel" onclick={cancel}>{ "Cancel reading" }</button>
                    </div>
                </div>
            }
        }
        Phase::Review(parsed) => {
            let bad = parsed.bad_row_count;
            let good = parsed.elements.len();
            html! {
                <div class="import-review" data-testid="import-review">
                    if bad > 0 {
                        <p role="alert" data-testid="import-bad-count">{ format!("{bad} of {} rows cannot be read. Nothing is loaded until you choose.", parsed.rows) }</p>
                        <ul class="import-bad-rows" aria-label="Rows that cannot be read">
                            { for parsed.bad_rows.iter().take(20).map(|b| html! {
                                <li data-testid="import-bad-row" data-line={b.line.to_string()}>{ format!("line {}: {}", b.line, b.reason) }</li>
                            }) }
                            if bad > 20 {
                                <li>{ format!("… and {} more", bad - 20) }</li>
                            }
                        </ul>
                    }
                    { warnings(&parsed.warnings.iter().map(crate::import::Warning::message).collect::<Vec<_>>()) }
                    <div class="dialog-buttons">
                        <button data-testid="import-cancel" onclick={send(FlowAction::Cancel)}>{ "Cancel import" }</button>
                        <button data-testid="import-back" onclick={send(FlowAction::Back)}>{ "Back to the mapping" }</button>
                        if bad > 0 {
                            <button type="submit" data-testid="import-skip" onclick={send(FlowAction::Skip)}>
                                { format!("Skip {bad} bad row{} and load {good} elements", if bad == 1 { "" } else { "s" }) }
                            </button>
                        } else {
                            <button type="submit" data-testid="import-load-anyway" onclick={send(FlowAction::Skip)}>{ format!("Load {good} elements anyway") }</button>
                        }
                    </div>
                </div>
            }
        }
        Phase::Load(imported) => loaded_view(imported),
        Phase::Cancelled => html! {},
    };
    html! {
        <div class="dialog-backdrop">
            <div class="dialog import-dialog" role="dialog" aria-modal="true" aria-labelledby="import-title"
                 data-testid="import-dialog" data-phase={phase_name(&f.phase)} data-parser={f.parser.map(Parser::name)}
                 ref={dialog_ref} {onkeydown}>
                <h2 id="import-title">{ title }</h2>
                if let Some(e) = &f.error {
                    <p class="field-error" role="alert" data-testid="import-dialog-error">{ format!("Nothing was loaded: {e}") }</p>
                }
                { body }
            </div>
        </div>
    }
}

fn phase_name(p: &Phase) -> &'static str {
    match p {
        Phase::Paste => "paste",
        Phase::Mapping => "mapping",
        Phase::Parsing { .. } => "parsing",
        Phase::Review(_) => "review",
        Phase::Load(_) => "load",
        Phase::Cancelled => "cancelled",
    }
}

/// The phase without its data: the effect runs when the phase changes, not on every progress.
fn discriminant(p: &Phase) -> u8 {
    match p {
        Phase::Paste => 0,
        Phase::Mapping => 1,
        Phase::Parsing { .. } => 2,
        Phase::Review(_) => 3,
        Phase::Load(_) => 4,
        Phase::Cancelled => 5,
    }
}

fn warnings(list: &[String]) -> Html {
    html! {
        if !list.is_empty() {
            <ul class="import-warnings" role="status">
                { for list.iter().map(|w| html! { <li data-testid="import-warning">{ format!("⚠ Check: {w}") }</li> }) }
            </ul>
        }
    }
}

fn loaded_view(imported: &Imported) -> Html {
    html! { <p role="status">{ format!("Loading {} elements…", imported.scenario.input.len()) }</p> }
}

fn paste_view(flow: &UseReducerHandle<Flow>) -> Html {
    let oninput = {
        let flow = flow.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e.target().and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok()) {
                flow.dispatch(FlowAction::Paste(t.value()));
            }
        })
    };
    let (read, cancel) = {
        let (a, b) = (flow.clone(), flow.clone());
        (
            Callback::from(move |_| a.dispatch(FlowAction::ReadPasted)),
            Callback::from(move |_| b.dispatch(FlowAction::Cancel)),
        )
    };
    html! {
        <>
            <label class="import-paste" for="import-paste-text">{ "Paste CSV, TSV or JSON Lines (a header row helps)" }</label>
            <textarea id="import-paste-text" data-testid="import-paste-text" rows="8" value={flow.0.pasted.clone()} {oninput}
                      placeholder={"sensor,event_time,reading\nsensor-01,2024-03-10T08:00:03Z,316"} />
            <div class="dialog-buttons">
                <button data-testid="import-cancel" onclick={cancel}>{ "Cancel" }</button>
                <button type="submit" data-testid="import-read" disabled={flow.0.pasted.trim().is_empty()} onclick={read}>{ "Read" }</button>
            </div>
        </>
    }
}

fn mapping_view(flow: &UseReducerHandle<Flow>) -> Html {
    let f = &flow.0;
    let (Some(preview), Some(spec)) = (&f.preview, &f.spec) else { return html! {} };
    let column_select = |role: Role, label: &'static str, none: Option<&'static str>| {
        let id = format!("import-col-{}", role.label().replace(' ', "-"));
        let chosen = f.column_of(role);
        let onchange = {
            let flow = flow.clone();
            Callback::from(move |e: Event| {
                flow.dispatch(FlowAction::SetColumn(role, select_value(&e).parse::<usize>().ok()));
            })
        };
        html! {
            <label for={id.clone()}>
                { label }
                <select id={id.clone()} data-testid={id} {onchange}>
                    if let Some(none) = none {
                        <option value="" selected={chosen.is_none()}>{ none }</option>
                    } else if chosen.is_none() {
                        <option value="" selected=true>{ "choose a column" }</option>
                    }
                    { for (0..preview.columns.len()).map(|i| html! {
                        <option value={i.to_string()} selected={chosen == Some(i)}>{ column_label(preview, i) }</option>
                    }) }
                </select>
            </label>
        }
    };
    let unit_select = |id: &'static str, label: &'static str, current: Option<TimeUnit>, same: bool| {
        let onchange = {
            let flow = flow.clone();
            Callback::from(move |e: Event| {
                let unit = TimeUnit::parse(&select_value(&e));
                flow.dispatch(if id == "import-unit" {
                    FlowAction::SetUnit(unit.unwrap_or(TimeUnit::Millis))
                } else {
                    FlowAction::SetArrivalUnit(unit)
                });
            })
        };
        html! {
            <label for={id}>
                { label }
                <select {id} data-testid={id} {onchange}>
                    if same {
                        <option value="" selected={current.is_none()}>{ "as the event time" }</option>
                    }
                    { for TimeUnit::ALL.into_iter().map(|u| {
                        let (v, l) = unit_option(u);
                        html! { <option value={v} selected={current == Some(u)}>{ l }</option> }
                    }) }
                </select>
            </label>
        }
    };
    let on_offset = {
        let flow = flow.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) {
                flow.dispatch(FlowAction::SetOffset(i.value()));
            }
        })
    };
    let on_header = {
        let flow = flow.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) {
                flow.dispatch(FlowAction::SetHeader(i.checked()));
            }
        })
    };
    let roles: Vec<(usize, &'static str)> =
        Role::ALL.iter().filter_map(|r| f.column_of(*r).map(|i| (i, r.label()))).collect();
    let role_of = |i: usize| roles.iter().filter(|(c, _)| *c == i).map(|(_, l)| *l).collect::<Vec<_>>().join(", ");
    let delimited = matches!(spec.format, Format::Delimited { .. });
    let trial = &f.trial;
    html! {
        <>
            <p class="import-format">
                { format!("{}{}", spec.format.label(), if preview.whole_file { "" } else { ", a large file: the first 256 KB shown" }) }
                if delimited {
                    <label class="inline" for="import-header">
                        <input type="checkbox" id="import-header" data-testid="import-header" checked={spec.has_header} onchange={on_header} />
                        { "the first row names the columns" }
                    </label>
                }
            </p>
            <div class="import-table-wrap" tabindex="0" role="region" aria-label="The first rows of the file">
                <table class="import-preview" data-testid="import-preview">
                    <thead>
                        <tr>
                            <th scope="col">{ "line" }</th>
                            { for preview.columns.iter().enumerate().map(|(i, c)| {
                                let role = role_of(i);
                                html! {
                                    <th scope="col" class={classes!((!role.is_empty()).then_some("mapped"))}>
                                        { c.name.clone() }
                                        if !role.is_empty() { <span class="import-role">{ format!("→ {role}") }</span> }
                                    </th>
                                }
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for preview.rows.iter().map(|r| html! {
                            <tr>
                                <th scope="row">{ r.line }</th>
                                { for r.cells.iter().map(|c| html! { <td>{ c.clone() }</td> }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <div class="import-mapping">
                { column_select(Role::Key, "Key", None) }
                { column_select(Role::EventTime, "Event time", None) }
                { unit_select("import-unit", "Event-time unit", Some(spec.mapping.ts_unit), false) }
                <label for="import-offset">
                    { "Offset of times without one" }
                    <input type="text" id="import-offset" data-testid="import-offset" placeholder="+02:00 (written offsets always win)"
                           value={f.offset_text.clone()} oninput={on_offset} aria-invalid={f.offset_error.is_some().to_string()}
                           aria-describedby="import-offset-error" />
                </label>
                <span id="import-offset-error" class="field-error">{ f.offset_error.clone().unwrap_or_default() }</span>
                { column_select(Role::Value, "Value", Some("none: every value is 1")) }
                { column_select(Role::Partition, "Partition", Some("none: all from partition 0")) }
                { column_select(Role::Arrival, "Arrival (processing time)", Some("none: arrival in file order")) }
                if spec.mapping.arrival.is_some() {
                    { unit_select("import-arrival-unit", "Arrival unit", spec.mapping.arrival_unit, true) }
                }
            </div>
            <div class="import-trial" data-testid="import-trial">
                if let Some(e) = &trial.error {
                    <p class="field-error" role="alert" data-testid="import-trial-error">{ e.clone() }</p>
                } else {
                    <p>{ format!("The first {} rows read with this mapping: {} bad.", trial.rows, trial.bad_row_count) }</p>
                }
                { warnings(&trial.warnings) }
                if !trial.bad_rows.is_empty() {
                    <ul class="import-bad-rows" aria-label="Bad rows among the first rows">
                        { for trial.bad_rows.iter().map(|b| html! {
                            <li data-testid="import-trial-bad" data-line={b.line.to_string()}>{ format!("line {}: {}", b.line, b.reason) }</li>
                        }) }
                    </ul>
                }
            </div>
            <p class="import-note">
                { "Loads with bounded out-of-orderness, its bound suggested from the data, and 1-minute tumbling windows; the configuration panel changes them as for any scenario. Your current scenario stays one undo away." }
                if f.chunked() {
                    { format!(" The file is {:.1} MB: it is read in the background, with a progress bar.", f.bytes.len() as f64 / 1_048_576.0) }
                }
            </p>
            <div class="dialog-buttons">
                <button data-testid="import-cancel" onclick={{ let flow = flow.clone(); Callback::from(move |_| flow.dispatch(FlowAction::Cancel)) }}>{ "Cancel" }</button>
                <button type="submit" data-testid="import-start" disabled={!f.can_start()}
                        onclick={{ let flow = flow.clone(); Callback::from(move |_| flow.dispatch(FlowAction::Start)) }}>{ "Import" }</button>
            </div>
        </>
    }
}
