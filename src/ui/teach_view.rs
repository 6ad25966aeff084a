//! The teaching layer's components: the presets menu, the course bar (title, view modes, quiz,
//! share and export), the narration under the canvas with the quiz's question, the "why?"
//! popover, the embed bar and the lecture blackout. They draw [`super::teach_state`] and the
//! teach layer's text ([`crate::teach`]); every change is a [`TeachAction`].

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{Element as DomElement, HtmlInputElement, HtmlSelectElement, PointerEvent};
use yew::prelude::*;

use crate::engine::Scenario;
use crate::engine::time::{LONG_MAX, LONG_MIN, TimeWindow};
use crate::engine::{Millis, Window};
use crate::teach::{self, Answer};

use super::export;
use super::state::{Action, AppState, PRESETS};
use super::teach_state::{Mode, ShareBox, TeachAction, WhyPopover, WhyTarget, embed_code};

#[derive(Properties, PartialEq)]
pub struct TeachProps {
    pub state: UseReducerHandle<AppState>,
}

fn teach(state: &UseReducerHandle<AppState>, a: TeachAction) {
    state.dispatch(Action::Teach(a));
}

/// The one presets menu: the course's presets first, then the engine's example scenarios.
#[component]
pub fn PresetMenu(props: &TeachProps) -> Html {
    let state = props.state.clone();
    let presets = use_memo((), |_| teach::presets::all());
    let current = state.teach.pristine_preset(&state.scenario).map(|p| p.id.clone());
    let onchange = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let Some(sel) = e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()) else { return };
            let v = sel.value();
            if let Some(id) = v.strip_prefix("course:") {
                teach(&state, TeachAction::LoadPreset(id.to_string()));
            } else if let Some((_, json)) =
                v.strip_prefix("example:").and_then(|i| i.parse::<usize>().ok()).and_then(|i| PRESETS.get(i))
            {
                match Scenario::from_json_str(json) {
                    Ok(sc) => state.dispatch(Action::Load { scenario: Box::new(sc), step: None, banner: None }),
                    Err(e) => state.dispatch(Action::ShowBanner(format!("Preset could not be loaded: {e}"))),
                }
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
                { for PRESETS.iter().enumerate().map(|(i, (name, _))| html! { <option value={format!("example:{i}")}>{ *name }</option> }) }
            </optgroup>
        </select>
    }
}

/// Copies a share link (or embed code) and records what was copied.
fn share(state: &UseReducerHandle<AppState>, what: &'static str) {
    let s: &AppState = state;
    let base = export::base_url();
    let text = match what {
        "embed" => {
            let title = s.teach.preset.as_ref().map_or_else(|| s.scenario.name.clone(), |p| p.title.clone());
            embed_code(&base, &s.teach.embed_fragment(&s.scenario, s.step, s.run.steps), &format!("Tidemark: {title}"))
        }
        _ => format!("{base}#{}", s.teach.share_fragment(&s.scenario, s.step, s.run.steps)),
    };
    let state2 = state.clone();
    let text2 = text.clone();
    // Show the text at once (selectable by hand), then say whether the clipboard took it.
    teach(state, TeachAction::Shared(ShareBox { what, text: text.clone(), copied: false }));
    export::copy_text(&text, move |ok| teach(&state2, TeachAction::Shared(ShareBox { what, text: text2, copied: ok })));
}

fn export_action(state: &UseReducerHandle<AppState>, what: &str) {
    let s: &AppState = state;
    let stem = export::file_stem(&s.teach.preset.as_ref().map_or_else(|| s.scenario.name.clone(), |p| p.id.clone()));
    let result = match what {
        "svg" => export::export_svg(&format!("{stem}-step-{}", s.step)),
        "png" => {
            let state = state.clone();
            export::export_png(&format!("{stem}-step-{}", s.step), 2.0, move |e| {
                state.dispatch(Action::ShowBanner(format!("PNG export failed: {e}")))
            })
        }
        _ => {
            let text = serde_json::to_string_pretty(&s.scenario.to_json()).unwrap_or_default();
            export::download_text(&text, "application/json", &format!("{stem}.json"))
        }
    };
    if let Err(e) = result {
        state.dispatch(Action::ShowBanner(format!("Export failed: {e}")));
    }
}

/// The course bar: the preset's title, the view modes, quiz, share, export and import.
#[component]
pub fn CourseBar(props: &TeachProps) -> Html {
    let state = props.state.clone();
    let s: &AppState = &state;
    // The import's file reader: dropping it would cancel the read.
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    let mode_button = |m: Mode, label: &'static str, title: &'static str| {
        let state = state.clone();
        let on = s.teach.mode == m;
        html! {
            <button class={classes!("seg", on.then_some("active"))} aria-pressed={on.to_string()} {title}
                    data-testid={format!("mode-{}", m.as_str())}
                    onclick={Callback::from(move |_| teach(&state, TeachAction::SetMode(m)))}>{ label }</button>
        }
    };
    let quiz_on = s.teach.quiz.is_some();
    let toggle_quiz = {
        let state = state.clone();
        Callback::from(move |_| teach(&state, TeachAction::ToggleQuiz))
    };
    let on_share = |what: &'static str| {
        let state = state.clone();
        Callback::from(move |_| share(&state, what))
    };
    let on_export = |what: &'static str| {
        let state = state.clone();
        Callback::from(move |_| export_action(&state, what))
    };
    let on_import = {
        let state = state.clone();
        let reader = reader.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            let file = gloo::file::File::from(file);
            let name = file.name();
            if file.size() > crate::engine::scenario::limits::MAX_SCENARIO_BYTES as u64 {
                teach(&state, TeachAction::ImportError(format!("{name}: the file is larger than a scenario may be")));
                return;
            }
            let state = state.clone();
            *reader.borrow_mut() = Some(gloo::file::callbacks::read_as_text(&file, move |r| match r {
                Ok(text) => teach(&state, TeachAction::Import { name, text }),
                Err(e) => teach(&state, TeachAction::ImportError(format!("{name}: could not be read ({e})"))),
            }));
        })
    };
    let title = s.teach.preset.as_ref().map(|p| (p.title.clone(), p.source.clone(), p.goal.clone()));
    let edited = s.teach.preset.is_some() && s.teach.pristine_preset(&s.scenario).is_none();
    html! {
        <div class="course-bar" data-testid="course-bar">
            <div class="course-title" data-testid="course-title">
                if let Some((t, source, goal)) = title {
                    <strong title={goal}>{ t }</strong>
                    <span class="course-source">{ if edited { format!("{source} · edited") } else { source } }</span>
                } else {
                    <span class="course-source">{ format!("Scenario: {}", s.scenario.name) }</span>
                }
            </div>
            <div class="course-tools">
                <span class="seg-group" role="group" aria-label="View">
                    { mode_button(Mode::Normal, "Explore", "Everything: configuration, outputs, charts, code") }
                    { mode_button(Mode::Lecture, "Lecture", "Large type for a projector; PageDown/PageUp or space step, B blacks out") }
                    { mode_button(Mode::Embed, "Embed view", "What a lab page's 700×450 iframe shows") }
                </span>
                <button class={classes!("tool", quiz_on.then_some("active"))} aria-pressed={quiz_on.to_string()} data-testid="quiz-toggle"
                        title="Predict, then reveal: the playhead stops before each step that decides something (q)" onclick={toggle_quiz}>
                    { if quiz_on { "Quiz: on" } else { "Quiz" } }
                </button>
                <button class="tool" data-testid="copy-link" title="Copy a link to this scenario, step and view" onclick={on_share("link")}>{ "Copy link" }</button>
                <button class="tool" data-testid="copy-embed" title="Copy an <iframe> for a lab page" onclick={on_share("embed")}>{ "Embed code" }</button>
                <span class="seg-group" role="group" aria-label="Export">
                    <button class="seg" data-testid="export-svg" title="Save the canvas as SVG (for slides)" onclick={on_export("svg")}>{ "SVG" }</button>
                    <button class="seg" data-testid="export-png" title="Save the canvas as PNG" onclick={on_export("png")}>{ "PNG" }</button>
                    <button class="seg" data-testid="export-json" title="Save the scenario as JSON" onclick={on_export("json")}>{ "JSON" }</button>
                </span>
                <label class="tool import" title="Open a scenario (or preset) JSON file">
                    { "Import…" }
                    <input type="file" accept=".json,application/json" data-testid="import-file" onchange={on_import} />
                </label>
            </div>
            if let Some(e) = &s.teach.import_error {
                <p class="import-error" role="alert" data-testid="import-error">
                    { format!("Import failed, nothing changed: {e}") }
                    <button aria-label="Dismiss" onclick={let state = state.clone(); Callback::from(move |_| teach(&state, TeachAction::ImportError(String::new())))}>{ "×" }</button>
                </p>
            }
            <ShareBoxView state={state.clone()} />
        </div>
    }
}

#[component]
fn ShareBoxView(props: &TeachProps) -> Html {
    let state = props.state.clone();
    let Some(b) = state.teach.share.clone().filter(|b| b.what != "code") else { return Html::default() };
    let close = {
        let state = state.clone();
        Callback::from(move |_| teach(&state, TeachAction::CloseShare))
    };
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(t) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
            t.select();
        }
    });
    html! {
        <div class="share-box" data-testid="share-box" data-what={b.what} data-copied={b.copied.to_string()}>
            <span class="share-status">
                { match (b.what, b.copied) {
                    ("embed", true) => "Embed code copied:",
                    ("embed", false) => "Embed code (copy it by hand if the browser refused):",
                    (_, true) => "Link copied:",
                    (_, false) => "Link (copy it by hand if the browser refused):",
                } }
            </span>
            <textarea readonly=true rows="2" data-testid="share-text" value={b.text.clone()} onfocus={select_all} />
            <button aria-label="Close" onclick={close}>{ "×" }</button>
        </div>
    }
}

/// The narration under the canvas: the preset's goal, the step's headline and details, and in
/// quiz mode the question.
#[component]
pub fn Narration(props: &TeachProps) -> Html {
    let state = props.state.clone();
    let s: &AppState = &state;
    let ctx = teach::Context::new(&s.scenario, &s.run).with_values(s.teach.values);
    let n = ctx.narrate_step(s.step);
    let embed = s.teach.mode == Mode::Embed;
    let goal = s.teach.preset.as_ref().map(|p| p.goal.clone());
    let quiz = s.teach.quiz.as_ref();
    let asking = quiz.is_some_and(|q| q.asking.is_some());
    html! {
        <section class={classes!("narration", asking.then_some("with-quiz"))} data-testid="narration" data-step={s.step.to_string()}
                 aria-live="polite" aria-label="What this step did">
            if asking {
                <QuizBox state={state.clone()} />
            }
            <div class="narration-text">
                <p class="narration-headline" data-testid="narration-headline">
                    <span class="narration-step">{ if s.step == 0 { "Start".to_string() } else { format!("Step {}/{}", s.step, s.run.steps) } }</span>
                    { n.headline.clone() }
                </p>
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

/// The quiz's question at the playhead, its options, and after an answer the engine's verdict.
#[component]
fn QuizBox(props: &TeachProps) -> Html {
    let state = props.state.clone();
    let Some(q) = state.teach.quiz.clone() else { return Html::default() };
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
        Callback::from(move |_| state.dispatch(Action::StepForward))
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

/// What a pointer went down on, for "why?" (read from the canvas's `data-*` contract).
#[derive(Clone, Debug, PartialEq)]
enum Hit {
    Element(usize),
    Window { key: String, start: Option<Millis>, end: Option<Millis> },
    Timer { time: Millis, key: Option<String> },
    Popover,
    Canvas,
    Elsewhere,
}

fn attr(el: &DomElement, name: &str) -> Option<String> {
    el.get_attribute(name).filter(|v| !v.is_empty())
}

/// The key of the lane a canvas item sits in, by its vertical centre.
fn lane_key_at(y: f64) -> Option<String> {
    let doc = web_sys::window()?.document()?;
    let lanes = doc.query_selector_all("svg[data-testid=\"canvas\"] [data-testid=\"lane\"]").ok()?;
    (0..lanes.length()).filter_map(|i| lanes.item(i)?.dyn_into::<DomElement>().ok()).find_map(|l| {
        let r = l.get_bounding_client_rect();
        (y >= r.top() && y <= r.bottom()).then(|| attr(&l, "data-key")).flatten()
    })
}

fn hit_of(target: Option<web_sys::EventTarget>) -> Hit {
    let Some(el) = target.and_then(|t| t.dyn_into::<DomElement>().ok()) else { return Hit::Elsewhere };
    if el.closest("[data-testid=\"why-popover\"]").ok().flatten().is_some() {
        return Hit::Popover;
    }
    if el.closest("svg[data-testid=\"canvas\"]").ok().flatten().is_none() {
        return Hit::Elsewhere;
    }
    let Some(item) =
        el.closest("[data-testid=\"element\"], [data-testid=\"window\"], [data-testid=\"timer\"]").ok().flatten()
    else {
        return Hit::Canvas;
    };
    let num = |n: &str| attr(&item, n).and_then(|v| v.parse::<i64>().ok());
    match item.get_attribute("data-testid").as_deref() {
        Some("element") => num("data-index").map_or(Hit::Canvas, |i| Hit::Element(i as usize)),
        Some("window") => Hit::Window {
            key: attr(&item, "data-key").unwrap_or_default(),
            start: num("data-start"),
            end: num("data-end"),
        },
        Some("timer") => {
            let r = item.get_bounding_client_rect();
            let key = attr(&item, "data-key").or_else(|| lane_key_at(r.top() + r.height() / 2.0));
            num("data-time").map_or(Hit::Canvas, |time| Hit::Timer { time, key })
        }
        _ => Hit::Canvas,
    }
}

/// Turns a hit into a "why?" target in the state's run.
fn why_target(s: &AppState, hit: &Hit) -> Option<WhyTarget> {
    let key_id = |k: &str| s.run.keys.iter().position(|n| n == k).map(|i| i as u32);
    match hit {
        Hit::Element(i) => s.layout.elem_of_input.get(*i).copied().flatten().map(WhyTarget::Element),
        Hit::Window { key, start, end } => {
            let window = match (start, end) {
                (Some(a), Some(b)) => Window::Time(TimeWindow::new(*a, *b)),
                _ => Window::Global,
            };
            Some(WhyTarget::Window { key: key_id(key)?, window })
        }
        Hit::Timer { time, key } => {
            let key = key.as_deref().and_then(key_id);
            let t = s.scene.view.timers.iter().find(|t| t.time == *time && key.is_none_or(|k| k == t.key))?;
            Some(WhyTarget::Timer { key: t.key, window: t.window, time: t.time })
        }
        Hit::Popover | Hit::Canvas | Hit::Elsewhere => None,
    }
}

/// "Why?": a click (no drag) on an element, a window or a timer opens the explanation of its
/// state at the playhead. Listens on the window in the capture phase, so the canvas's own
/// pointer handling (drags, pointer capture) is untouched.
#[component]
pub fn WhyLayer(props: &TeachProps) -> Html {
    let state = props.state.clone();
    // The newest state for the listeners, which are made once.
    let latest = use_mut_ref(|| state.clone());
    *latest.borrow_mut() = state.clone();
    {
        let latest = latest.clone();
        use_effect_with((), move |_| {
            let down = std::rc::Rc::new(std::cell::RefCell::new(None::<(f64, f64, Hit)>));
            let listeners = web_sys::window().map(|w| {
                let opts = EventListenerOptions::run_in_capture_phase();
                let d1 = down.clone();
                let on_down = EventListener::new_with_options(&w, "pointerdown", opts, move |e| {
                    let Some(e) = e.dyn_ref::<PointerEvent>() else { return };
                    if e.button() != 0 {
                        return;
                    }
                    *d1.borrow_mut() = Some((f64::from(e.client_x()), f64::from(e.client_y()), hit_of(e.target())));
                });
                let d2 = down.clone();
                let on_up = EventListener::new_with_options(&w, "pointerup", opts, move |e| {
                    let Some(e) = e.dyn_ref::<PointerEvent>() else { return };
                    let Some((x, y, hit)) = d2.borrow_mut().take() else { return };
                    let (ux, uy) = (f64::from(e.client_x()), f64::from(e.client_y()));
                    if (ux - x).hypot(uy - y) > 5.0 {
                        return;
                    }
                    let state = latest.borrow().clone();
                    match &hit {
                        Hit::Popover | Hit::Elsewhere => {}
                        Hit::Canvas => {
                            if state.teach.why.is_some() {
                                teach(&state, TeachAction::CloseWhy);
                            }
                        }
                        _ => {
                            if let Some(target) = why_target(&state, &hit) {
                                teach(&state, TeachAction::Why(WhyPopover { target, x_px: ux, y_px: uy }));
                            }
                        }
                    }
                });
                (on_down, on_up)
            });
            move || drop(listeners)
        });
    }
    let s: &AppState = &state;
    let Some(w) = s.teach.why else { return Html::default() };
    let ctx = teach::Context::new(&s.scenario, &s.run).with_values(s.teach.values);
    let (what, ex) = match w.target {
        WhyTarget::Element(e) => {
            let label = ctx.element(e).map_or_else(|| "element".to_string(), |el| format!("Element {}", el.id));
            (label, ctx.why_element(e, s.step))
        }
        WhyTarget::Window { key, window } => {
            (format!("Window {}", ctx.window_label(key, &window)), ctx.why_window(key, window, s.step))
        }
        WhyTarget::Timer { key, window, time } => {
            let t = match time {
                LONG_MAX => "Long.MAX".to_string(),
                LONG_MIN => "Long.MIN".to_string(),
                t => teach::format::time(t),
            };
            (format!("Timer at {t}"), ctx.why_timer(key, window, time, s.step))
        }
    };
    let (vw, vh) = web_sys::window()
        .map(|win| {
            (
                win.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(800.0),
                win.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(600.0),
            )
        })
        .unwrap_or((800.0, 600.0));
    let width = (vw - 16.0).min(if s.teach.mode == Mode::Lecture { 640.0 } else { 420.0 });
    let left = (w.x_px + 12.0).min(vw - width - 8.0).max(8.0);
    // Below the click when there is room, above otherwise.
    let (top, bottom) = if w.y_px < vh * 0.55 {
        (format!("top: {:.0}px", w.y_px + 14.0), String::new())
    } else {
        (String::new(), format!("bottom: {:.0}px", (vh - w.y_px + 14.0).max(8.0)))
    };
    let close = {
        let state = state.clone();
        Callback::from(move |_| teach(&state, TeachAction::CloseWhy))
    };
    let kind = match w.target {
        WhyTarget::Element(_) => "element",
        WhyTarget::Window { .. } => "window",
        WhyTarget::Timer { .. } => "timer",
    };
    html! {
        <div class="why-popover" role="dialog" aria-label="Why?" data-testid="why-popover" data-kind={kind}
             style={format!("left: {left:.0}px; width: {width:.0}px; {top}{bottom}; max-height: {:.0}px", (vh * 0.6).max(160.0))}>
            <div class="why-head">
                <span class="why-title">{ format!("Why? {what}, at step {}", s.step) }</span>
                <button aria-label="Close" data-testid="why-close" onclick={close}>{ "×" }</button>
            </div>
            <p class="why-summary" data-testid="why-summary">{ ex.summary.clone() }</p>
            if !ex.reasons.is_empty() {
                <ul class="why-reasons" data-testid="why-reasons">{ for ex.reasons.iter().map(|r| html! { <li>{ r.clone() }</li> }) }</ul>
            }
        </div>
    }
}

/// Embed mode's top line: the preset's title and a way out to the full app.
#[component]
pub fn EmbedBar(props: &TeachProps) -> Html {
    let s: &AppState = &props.state;
    let title = s.teach.preset.as_ref().map_or_else(|| s.scenario.name.clone(), |p| p.title.clone());
    let href = format!("{}#{}", export::base_url(), s.teach.share_fragment(&s.scenario, s.step, s.run.steps))
        .replace("&mode=embed", "");
    html! {
        <div class="embed-bar" data-testid="embed-bar">
            <span class="embed-title" title={title.clone()}>{ title }</span>
            <a class="embed-open" href={href} target="_blank" rel="noopener" data-testid="open-full"
               title="Open this scenario in the full Tidemark (configuration, outputs, charts, code)">{ "Open in Tidemark ↗" }</a>
        </div>
    }
}

/// Lecture mode's blackout (B): the screen goes black until B again.
#[component]
pub fn Blackout(props: &TeachProps) -> Html {
    let state = props.state.clone();
    if !state.teach.blackout {
        return Html::default();
    }
    let off = Callback::from(move |_| teach(&state, TeachAction::ToggleBlackout));
    html! { <div class="blackout" data-testid="blackout" onclick={off} aria-label="Screen blacked out: press B" /> }
}
