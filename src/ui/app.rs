//! The app shell: header, banners, canvas, side panel, arrival strip and playback, plus the
//! few hooks that connect the state to the browser (keyboard, URL, size, frame clock). The hooks
//! only translate browser events into actions; every decision is the reducer's.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{HtmlElement, HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use crate::engine::scenario::InputItem;

use super::canvas::{Canvas, outcome_text};
use super::controls::{ArrivalStrip, Playback};
use super::panels::SidePanel;
use super::persist::{AutosaveStatus, read_autosave, write_autosave};
use super::resize::use_resize_observer;
use super::state::{Action, AppState, EditorField, KeyInput, MenuTarget, Tab, is_shortcut};
use super::teach_state::{Mode, TeachAction};
use super::teach_view::{Blackout, CourseBar, EmbedBar, Narration, PresetMenu, WhyLayer};

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        // Frame-clock ticks between steps change no visible state: no new state, no render.
        if let Action::Tick { now_millis } = action {
            if !self.advance_clock(now_millis) {
                return self;
            }
            let mut next = (*self).clone();
            next.clock_step();
            return Rc::new(next);
        }
        let mut next = (*self).clone();
        next.apply(action);
        Rc::new(next)
    }
}

/// Installs the panic hook: the console message, plus a visible banner instead of a dead page.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
        let Some(body) = doc.body() else { return };
        if let Ok(div) = doc.create_element("div") {
            div.set_class_name("panic-banner");
            let _ = div.set_attribute("role", "alert");
            let _ = div.set_attribute("data-testid", "panic-banner");
            // Text only, never HTML.
            div.set_text_content(Some(&format!(
                "Tidemark stopped because of an internal error: {info}. Reload the page; the link keeps your scenario."
            )));
            let _ = body.prepend_with_node_1(&div);
        }
    }));
}

fn location_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// The requestAnimationFrame callback, shared with itself so that it can re-request.
type FrameSlot = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

/// The frame clock: while playing, dispatches `Tick` on every animation frame. The only
/// timer in the app; what a tick means is decided by the reducer.
#[hook]
fn use_frame_clock(running: bool, state: UseReducerHandle<AppState>) {
    let dispatcher = state.dispatcher();
    use_effect_with(running, move |running| {
        let alive = Rc::new(Cell::new(*running));
        let pending = Rc::new(Cell::new(None::<i32>));
        let frame: FrameSlot = Rc::new(RefCell::new(None));
        let window = web_sys::window();
        if *running && let Some(window) = window.clone() {
            let (alive2, pending2, frame2, win2) = (alive.clone(), pending.clone(), frame.clone(), window.clone());
            *frame.borrow_mut() = Some(Closure::new(move |now: f64| {
                pending2.set(None);
                if !alive2.get() {
                    return;
                }
                dispatcher.dispatch(Action::Tick { now_millis: now });
                if let Some(f) = frame2.borrow().as_ref() {
                    pending2.set(win2.request_animation_frame(f.as_ref().unchecked_ref()).ok());
                }
            }));
            if let Some(f) = frame.borrow().as_ref() {
                pending.set(window.request_animation_frame(f.as_ref().unchecked_ref()).ok());
            }
        }
        move || {
            alive.set(false);
            // Cancel the frame already requested before dropping the closure it would call.
            if let (Some(id), Some(w)) = (pending.take(), window) {
                let _ = w.cancel_animation_frame(id);
            }
            frame.borrow_mut().take();
        }
    });
}

#[component]
pub fn App() -> Html {
    let state = use_reducer(|| {
        let width = web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|v| v.as_f64())
            .map_or(1000.0, |w| (w - 40.0).max(300.0));
        AppState::from_hash_and_autosave(&location_hash(), read_autosave(), width)
    });
    let canvas_box = use_node_ref();
    // The fragment we wrote last: a `hashchange` to it is ours, not a pasted link.
    let written = use_mut_ref(String::new);

    // Keyboard: one listener on the window.
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                EventListener::new_with_options(
                    &w,
                    "keydown",
                    EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                        let target = e.target().and_then(|t| t.dyn_into::<HtmlElement>().ok());
                        let tag = target.as_ref().map(|t| t.tag_name()).unwrap_or_default();
                        let in_field = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
                        // Where text is typed, Ctrl+Z is the field's own undo.
                        let in_text = tag == "TEXTAREA"
                            || target.as_ref().and_then(|t| t.dyn_ref::<HtmlInputElement>()).is_some_and(|i| {
                                matches!(
                                    i.type_().as_str(),
                                    "text" | "search" | "number" | "email" | "url" | "tel" | "password"
                                )
                            });
                        let key = e.key();
                        // Space and Enter on a focused button press the button.
                        if tag == "BUTTON" && (key == " " || key == "Enter") {
                            return;
                        }
                        let input = KeyInput {
                            key,
                            shift: e.shift_key(),
                            alt: e.alt_key(),
                            ctrl: e.ctrl_key() || e.meta_key(),
                            in_field,
                            in_text,
                        };
                        if is_shortcut(&input) {
                            e.prevent_default();
                            dispatcher.dispatch(Action::Key(input));
                        }
                    },
                )
            });
            move || drop(listener)
        });
    }

    // A link pasted into the same tab.
    {
        let dispatcher = state.dispatcher();
        let written = written.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, "hashchange", move |_| {
                    let hash = location_hash();
                    if hash.trim_start_matches('#') != written.borrow().as_str() {
                        dispatcher.dispatch(Action::Teach(TeachAction::OpenHash(hash)));
                    }
                })
            });
            move || drop(listener)
        });
    }

    // The canvas follows its box's width.
    {
        let dispatcher = state.dispatcher();
        use_resize_observer(canvas_box.clone(), move |el| {
            dispatcher.dispatch(Action::Resize {
                width_px: f64::from(el.client_width()),
                height_px: f64::from(el.client_height()),
            })
        });
    }

    // The URL follows every committed change, as a share link (`#z=…&step=…`), and so does the
    // autosave (without the view mode; embeds keep none).
    {
        let dispatcher = state.dispatcher();
        let autosave = state.edits.autosave == AutosaveStatus::On;
        let written = written.clone();
        let scenario = state.scenario.clone();
        let step = state.step;
        let steps = state.run.steps;
        let revision = state.revision;
        let teach = state.teach.clone();
        let teach_key = (teach.mode, teach.quiz.is_some(), teach.preset.as_ref().map(|p| p.id.clone()));
        let last_saved = use_mut_ref(|| revision);
        use_effect_with((revision, step, teach_key), move |_| {
            let initial = revision == 0 && written.borrow().is_empty();
            if !initial {
                // `preset=…` while the preset is untouched, `z=…` otherwise; with the mode.
                let saved = teach.autosave_fragment(&scenario, step, steps);
                if autosave && *last_saved.borrow() != revision {
                    *last_saved.borrow_mut() = revision;
                    if let Err(e) = write_autosave(&saved) {
                        dispatcher.dispatch(Action::AutosaveFailed(e));
                    }
                }
                let frag = teach.url_fragment_after(saved);
                if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
                    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{frag}")));
                }
                *written.borrow_mut() = frag;
            } else {
                *written.borrow_mut() = location_hash().trim_start_matches('#').to_string();
            }
        });
    }

    use_frame_clock(state.playing, state.clone());

    let s: &AppState = &state;
    let mut root_class = classes!("app");
    if !s.panel_open {
        root_class.push("panel-closed");
    }
    // The teaching layer's view mode (embed, lecture), quiz, and the wide outputs tabs.
    let mode = s.teach.mode;
    let embed = mode == Mode::Embed;
    root_class.push(format!("mode-{}", mode.as_str()));
    if s.teach.quiz.is_some() {
        root_class.push("quiz-on");
    }
    if matches!(s.tab, Tab::Sinks | Tab::Charts | Tab::Code) {
        root_class.push("wide-panel");
    }
    html! {
        <div class={root_class} data-testid="app" data-mode={mode.as_str()}>
            if embed {
                <EmbedBar state={state.clone()} />
            } else {
                <Header state={state.clone()} />
            }
            <Banners state={state.clone()} />
            if !embed {
                <CourseBar state={state.clone()} />
            }
            <main class="main">
                <section class="canvas-wrap" aria-label="Timeline" data-testid="timeline">
                    <div class="canvas-box" ref={canvas_box}>
                        <Canvas state={state.clone()} />
                    </div>
                    <Narration state={state.clone()} />
                    if !embed {
                        <Legend />
                    }
                </section>
                if s.panel_open && !embed {
                    <SidePanel state={state.clone()} />
                }
            </main>
            if !embed {
                <ArrivalStrip state={state.clone()} />
            }
            <Playback state={state.clone()} />
            <ContextMenu state={state.clone()} />
            <EditorDialog state={state.clone()} />
            if s.help_open {
                <Help state={state.clone()} />
            }
            <WhyLayer state={state.clone()} />
            <Blackout state={state.clone()} />
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct Props {
    state: UseReducerHandle<AppState>,
}

#[component]
fn Header(props: &Props) -> Html {
    let state = props.state.clone();
    let s: &AppState = &state;
    let b = |label: &'static str, title: &'static str, testid: &'static str, action: Action| {
        let state = state.clone();
        html! {
            <button class="tool" {title} aria-label={title} data-testid={testid}
                    onclick={Callback::from(move |_| state.dispatch(action.clone()))}>{ label }</button>
        }
    };
    html! {
        <header class="header">
            <h1 class="brand" title="Apache Flink's event-time window operator, made visible">{ "Tidemark" }</h1>
            <span class="scenario-name" title={s.scenario.description.clone()} data-testid="scenario-name">{ s.scenario.name.clone() }</span>
            <PresetMenu state={state.clone()} />
            <span class="spacer" />
            { b("−", "Zoom out (-)", "zoom-out", Action::ZoomOut) }
            { b("+", "Zoom in (+)", "zoom-in", Action::ZoomIn) }
            { b("fit", "Fit the scenario (f)", "fit", Action::Fit) }
            { b("+ element", "Add an element (n)", "add-element", Action::AddElement { key: None, ts: None }) }
            { b("panel", "Show or hide the side panel", "toggle-panel", Action::TogglePanel) }
            { b("?", "Keyboard shortcuts (?)", "help", Action::ToggleHelp) }
        </header>
    }
}

#[component]
fn Banners(props: &Props) -> Html {
    let state = props.state.clone();
    html! {
        <div class="banners">
            if let Some(n) = &state.edits.notice {
                <div class="notice" role="status" data-testid="notice">
                    <span class="notice-text" title={n.text.clone()}>{ n.text.clone() }</span>
                    if n.undo {
                        <span class="notice-hint">{ format!("{} brings back your previous scenario.", shortcut("Z")) }</span>
                        <button data-testid="notice-undo" title={format!("Bring back your previous scenario ({})", shortcut("Z"))}
                                onclick={let state = state.clone(); Callback::from(move |_| state.dispatch(Action::Undo))}>{ "Undo" }</button>
                    }
                    <button class="dismiss" aria-label="Dismiss" data-testid="notice-dismiss"
                            onclick={let state = state.clone(); Callback::from(move |_| state.dispatch(Action::DismissNotice))}>{ "×" }</button>
                </div>
            }
            { for state.banners.iter().enumerate().map(|(i, b)| {
                let state = state.clone();
                html! {
                    <div class="banner" role="alert" data-testid="error-banner" key={format!("{i}{b}")}>
                        <span>{ b.clone() }</span>
                        <button aria-label="Dismiss" onclick={Callback::from(move |_| state.dispatch(Action::DismissBanner(i)))}>{ "×" }</button>
                    </div>
                }
            }) }
        </div>
    }
}

#[component]
fn Legend() -> Html {
    let item = |class: &'static str, label: &'static str| {
        html! { <span class="legend-item"><span class={classes!("swatch", class)} />{ label }</span> }
    };
    html! {
        <div class="legend" aria-label="Legend">
            { item("outcome-not-arrived", "not arrived") }
            { item("outcome-pending", "in state") }
            { item("outcome-on-time", "on time") }
            { item("outcome-late-firing", "late firing") }
            { item("outcome-side-output", "side output") }
            { item("outcome-dropped", "dropped") }
            <span class="legend-item"><span class="swatch hatch-swatch" />{ "allowed lateness" }</span>
            <span class="legend-item">{ "▼ trigger timer  ■ cleanup timer" }</span>
            <span class="legend-hint">{ "drag elements & watermark · wheel zooms · right-click edits · ? keys" }</span>
        </div>
    }
}

#[component]
fn ContextMenu(props: &Props) -> Html {
    let state = props.state.clone();
    let Some(menu) = state.menu.clone() else { return Html::default() };
    let item = |label: String, action: Action, testid: &'static str| {
        let state = state.clone();
        html! {
            <button role="menuitem" data-testid={testid} onclick={Callback::from(move |_| state.dispatch(action.clone()))}>{ label }</button>
        }
    };
    let items = match &menu.target {
        MenuTarget::Element(i) => {
            let what = match state.scenario.input.get(*i) {
                Some(InputItem::Element(e)) => {
                    let ordinal = state.layout.elem_of_input.get(*i).copied().flatten().map(|o| o as usize);
                    let outcome = ordinal.and_then(|o| state.scene.view.elements.get(o).copied().flatten());
                    format!("element {} · {}", e.id, outcome_text(outcome))
                }
                _ => String::new(),
            };
            html! {
                <>
                    <div class="menu-title">{ what }</div>
                    { item("Edit key, value, timestamp… (Enter)".into(), Action::EditOpen(*i), "menu-edit") }
                    { item("Delete (Del)".into(), Action::Delete(*i), "menu-delete") }
                </>
            }
        }
        MenuTarget::Canvas { ts, key } => {
            let k = key.clone();
            html! {
                <>
                    <div class="menu-title">{ format!("at {}", crate::engine::time::format_millis(*ts)) }</div>
                    { item(
                        format!("Add element here{}", k.as_ref().map(|k| format!(" (key {k})")).unwrap_or_default()),
                        Action::AddElement { key: k.clone(), ts: Some(*ts) },
                        "menu-add",
                    ) }
                    { item("Insert watermark item here (at the playhead)".into(), Action::InsertWatermark { wm: Some(*ts) }, "menu-watermark") }
                </>
            }
        }
    };
    let close = {
        let state = state.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            state.dispatch(Action::CloseMenu)
        })
    };
    // Keep the menu inside the viewport.
    let (vw, vh) = web_sys::window()
        .map(|w| {
            (
                w.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(800.0),
                w.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(600.0),
            )
        })
        .unwrap_or((800.0, 600.0));
    let left = menu.x_px.min(vw - 290.0).max(0.0);
    let top = menu.y_px.min(vh - 130.0).max(0.0);
    html! {
        <>
            <div class="menu-backdrop" onclick={close.clone()} oncontextmenu={close} />
            <div class="menu" role="menu" data-testid="context-menu" style={format!("left: {left:.0}px; top: {top:.0}px")}>
                { items }
            </div>
        </>
    }
}

#[component]
fn EditorDialog(props: &Props) -> Html {
    let state = props.state.clone();
    let ed_ref = use_node_ref();
    let open = state.editor.as_ref().map(|e| e.index);
    {
        let ed_ref = ed_ref.clone();
        use_effect_with(open, move |open| {
            if open.is_some()
                && let Some(input) = ed_ref.cast::<HtmlInputElement>()
            {
                let _ = input.focus();
                input.select();
            }
        });
    }
    let Some(ed) = state.editor.clone() else { return Html::default() };
    let field = |f: EditorField| {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let v =
                e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).map(|i| i.value()).unwrap_or_default();
            state.dispatch(Action::EditorInput(f, v));
        })
    };
    let submit = {
        let state = state.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            state.dispatch(Action::EditorCommit);
        })
    };
    let cancel = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::EditorCancel))
    };
    html! {
        <div class="dialog-backdrop">
            <form class="dialog" data-testid="editor" onsubmit={submit} aria-label="Edit input item">
                <h2>{ if ed.is_watermark { format!("Watermark item #{}", ed.index + 1) } else { format!("Element (input #{})", ed.index + 1) } }</h2>
                if !ed.is_watermark {
                    <label>{ "key" }<input ref={ed_ref.clone()} data-testid="edit-key" value={ed.key.clone()} oninput={field(EditorField::Key)} /></label>
                    <label>{ "value" }<input data-testid="edit-value" inputmode="numeric" value={ed.value.clone()} oninput={field(EditorField::Value)} /></label>
                    <label>{ "timestamp (ms)" }<input data-testid="edit-ts" inputmode="numeric" value={ed.ts.clone()} oninput={field(EditorField::Ts)} /></label>
                } else {
                    <label>{ "watermark (ms)" }<input ref={ed_ref.clone()} data-testid="edit-ts" inputmode="numeric" value={ed.ts.clone()} oninput={field(EditorField::Ts)} /></label>
                }
                if let Some(err) = &ed.error {
                    <p class="field-error" role="alert" data-testid="edit-error">{ err.clone() }</p>
                }
                <div class="dialog-buttons">
                    <button type="submit" data-testid="edit-save">{ "Save" }</button>
                    <button type="button" onclick={cancel}>{ "Cancel" }</button>
                </div>
            </form>
        </div>
    }
}

#[component]
fn Help(props: &Props) -> Html {
    let state = props.state.clone();
    let close = Callback::from(move |_| state.dispatch(Action::ToggleHelp));
    let rows = [
        ("space", "play / pause"),
        ("← →", "step back / forward (with an element selected: move it one unit; shift: 1 ms)"),
        ("Home End", "first step / end of input"),
        ("[ ]", "select the previous / next element in event time"),
        ("Enter, e", "edit the selected item"),
        ("Delete", "delete the selected item"),
        ("n", "add an element"),
        ("w", "insert a watermark item at the playhead"),
        ("+ − f", "zoom in / out / fit"),
        ("t", "toggle the 2-D view (event time × processing time)"),
        ("Esc", "deselect, close"),
        ("Ctrl+Z", "undo (⌘Z on a Mac); Ctrl+Shift+Z or Ctrl+Y: redo"),
    ];
    html! {
        <div class="dialog-backdrop" onclick={close.clone()}>
            <div class="dialog help" data-testid="help-dialog">
                <h2>{ "Keyboard" }</h2>
                <table>{ for rows.iter().map(|(k, v)| html! { <tr><th>{ *k }</th><td>{ *v }</td></tr> }) }</table>
                <p>{ "Mouse: drag a marble to change its timestamp, drag the watermark flag, drag the background to pan, wheel to zoom, right-click for the menu, double-click to add an element." }</p>
                <button onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}

/// How a keyboard shortcut with Ctrl is written on this machine (⌘ on macOS).
pub fn shortcut(key: &str) -> String {
    let mac = web_sys::window()
        .and_then(|w| w.navigator().platform().ok())
        .is_some_and(|p| p.starts_with("Mac") || p.starts_with("iP"));
    if mac { format!("⌘{key}") } else { format!("Ctrl+{key}") }
}
