//! The course bar: the preset's title, the view modes, quiz, share, export and import.

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::share_box::ShareBoxView;
use crate::ui::action::{Action, ImportSource, Mode, PanelAction, ShareBox, TeachAction};
use crate::ui::export;
use crate::ui::hooks::AppHandle;
use crate::ui::state::AppState;
use crate::ui::state::teach::embed_code;

#[derive(Properties, PartialEq)]
pub struct StateProps {
    pub state: AppHandle,
}

fn teach(state: &AppHandle, a: TeachAction) {
    state.dispatch(Action::Teach(a));
}

/// Copies a share link (or embed code) and records what was copied.
fn share(state: &AppHandle, what: &'static str) {
    // (The state is let go of before the dispatches below: one read across a dispatch makes the
    // reducer change a copy, `hooks::AppCell`.)
    let text = {
        let s = state.get();
        let s: &AppState = &s;
        share_text(s, what)
    };
    let state2 = state.clone();
    let text2 = text.clone();
    // Show the text at once (selectable by hand), then say whether the clipboard took it.
    teach(state, TeachAction::Shared(ShareBox { what, text: text.clone(), copied: false }));
    export::copy_text(&text, move |ok| teach(&state2, TeachAction::Shared(ShareBox { what, text: text2, copied: ok })));
}

/// The share link (or embed code) of what is on show.
fn share_text(s: &AppState, what: &str) -> String {
    let base = export::base_url();
    match what {
        "embed" => {
            let title = s.teach.preset.as_ref().map_or_else(|| s.doc.scenario.name.clone(), |p| p.title.clone());
            embed_code(
                &base,
                &format!("{}{}", s.teach.embed_fragment(&s.doc.scenario, s.play.step, s.steps()), s.compare_param()),
                &format!("Tidemark: {title}"),
            )
        }
        _ => format!("{base}#{}{}", s.teach.share_fragment(&s.doc.scenario, s.play.step, s.steps()), s.compare_param()),
    }
}

fn export_action(state: &AppHandle, what: &str) {
    let result = {
        let s = state.get();
        export_now(state, &s, what)
    };
    if let Err(e) = result {
        state.dispatch(Action::Panel(PanelAction::ShowBanner(format!("Export failed: {e}"))));
    }
}

/// Exports what is on show (the state read, no dispatch: see `share`).
fn export_now(state: &AppHandle, s: &AppState, what: &str) -> Result<(), String> {
    let stem =
        export::file_stem(&s.teach.preset.as_ref().map_or_else(|| s.doc.scenario.name.clone(), |p| p.id.clone()));
    match what {
        "svg" => export::export_svg(&format!("{stem}-step-{}", s.play.step)),
        "png" => {
            let state = state.clone();
            export::export_png(&format!("{stem}-step-{}", s.play.step), 2.0, move |e| {
                state.dispatch(Action::Panel(PanelAction::ShowBanner(format!("PNG export failed: {e}"))))
            })
        }
        _ => {
            let text = serde_json::to_string_pretty(&s.doc.scenario.to_json()).unwrap_or_default();
            export::download_text(&text, "application/json", &format!("{stem}.json"))
        }
    }
}

/// A file being read (dropping it cancels the read).
pub type FileReader = gloo::file::callbacks::FileReader;

/// Opens a chosen or dropped file: a scenario `.json` loads as before; any other file is a table
/// for the import dialog, which the extras module reads.
pub fn open_file(state: &AppHandle, file: web_sys::File, reader: &std::rc::Rc<std::cell::RefCell<Option<FileReader>>>) {
    let name = file.name();
    if !name.to_ascii_lowercase().ends_with(".json") {
        return teach(state, TeachAction::OpenImport(ImportSource { name, file: Some(file) }));
    }
    let file = gloo::file::File::from(file);
    if file.size() > crate::engine::scenario::limits::MAX_SCENARIO_BYTES as u64 {
        teach(state, TeachAction::ImportError(format!("{name}: the file is larger than a scenario may be")));
        return;
    }
    let state = state.clone();
    *reader.borrow_mut() = Some(gloo::file::callbacks::read_as_text(&file, move |r| match r {
        Ok(text) => teach(&state, TeachAction::Import { name, text }),
        Err(e) => teach(&state, TeachAction::ImportError(format!("{name}: could not be read ({e})"))),
    }));
}

/// The course bar: the preset's title, the view modes, quiz, share, export and import.
#[component]
pub fn CourseBar(props: &StateProps) -> Html {
    let state = props.state.clone();
    let s = state.get();
    let s: &AppState = &s;
    // The import's file reader: dropping it would cancel the read.
    let reader = use_mut_ref(|| None::<FileReader>);
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
            open_file(&state, file, &reader);
        })
    };
    let on_paste = {
        let state = state.clone();
        Callback::from(move |_| {
            teach(&state, TeachAction::OpenImport(ImportSource { name: "pasted text".into(), file: None }))
        })
    };
    let title = s.teach.preset.as_ref().map(|p| (p.title.clone(), p.source.clone(), p.goal.clone()));
    let edited = s.teach.preset.is_some() && s.teach.pristine_preset(&s.doc.scenario).is_none();
    html! {
        <div class="course-bar" data-testid="course-bar">
            <div class="course-title" data-testid="course-title">
                if let Some((t, source, goal)) = title {
                    <strong title={goal}>{ t }</strong>
                    <span class="course-source">{ if edited { format!("{source} · edited") } else { source } }</span>
                } else {
                    <span class="course-source">{ format!("Scenario: {}", s.doc.scenario.name) }</span>
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
                <label class="tool import" title="Open a scenario JSON file, or your own stream: CSV, TSV or JSON Lines (or drop a file onto the page)">
                    { "Import…" }
                    <input type="file" accept=".json,.csv,.tsv,.jsonl,.ndjson,.txt" data-testid="import-file" onchange={on_import} />
                </label>
                <button class="tool" data-testid="import-paste" title="Paste CSV, TSV or JSON Lines" onclick={on_paste}>{ "Paste…" }</button>
            </div>
            if let Some(e) = &s.teach.import_error {
                <p class="import-error" role="alert" data-testid="import-error">
                    { format!("Import failed, nothing changed: {e}") }
                    <button aria-label="Dismiss" onclick={let state = state.clone(); Callback::from(move |_| teach(&state, TeachAction::ImportError(String::new())))}>{ "×" }</button>
                </p>
            }
            <ShareBoxView share={s.teach.share.clone().filter(|b| b.what != "code")} on_close={let state = state.clone(); Callback::from(move |_| teach(&state, TeachAction::CloseShare))} />
        </div>
    }
}
