//! The app shell: header (or the embed bar), banners, course bar, the canvas with its narration,
//! the side panel, the arrival strip and playback, and the dialogs. It connects the state to the
//! browser through the named hooks; every decision is the reducer's.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::arrival_strip::ArrivalStrip;
use super::banners::Banners;
use super::blackout::Blackout;
use super::canvas::Canvas;
use super::compare_view::{CompareView, side_label};
use super::context_menu::ContextMenu;
use super::course_bar::{CourseBar, FileReader, open_file};
use super::editor_dialog::editor_dialog;
use super::embed_bar::EmbedBar;
use super::header::Header;
use super::help::Help;
use super::legend::Legend;
use super::narration::Narration;
use super::playback::playback;
use super::run_status::{run_progress, run_status};
use super::side_panel::SidePanel;
use super::why_popover::WhyLayer;
use crate::ui::action::{Action, Mode, PanelAction, Tab};
use crate::ui::hooks::{
    ExtrasView, use_app, use_autosave, use_extras_view, use_frame_clock, use_hash_link, use_host_api, use_keyboard,
    use_resize_observer, use_saved_fragment, use_sound, use_url_sync,
};
use crate::ui::state::AppState;

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

#[component]
pub fn App() -> Html {
    let state = use_app();
    let canvas_box = use_node_ref();
    // The fragment we wrote last: a `hashchange` to it is ours, not a pasted link.
    let written: Rc<RefCell<String>> = use_mut_ref(String::new);

    use_keyboard(state.dispatcher());
    use_hash_link(state.dispatcher(), written.clone());
    {
        let dispatcher = state.dispatcher();
        use_resize_observer(canvas_box.clone(), move |el| {
            dispatcher.dispatch(Action::Resize {
                width_px: f64::from(el.client_width()),
                height_px: f64::from(el.client_height()),
            })
        });
    }
    let saved = use_saved_fragment(&state);
    // Whether the link text of what is on show is made (`making` while a large one is made in
    // slices): what the autosave and the address bar wait for, said for tests and probes.
    let link_text = if saved.is_some() { "made" } else { "making" };
    use_autosave(&state, saved.clone());
    use_url_sync(&state, saved, written);
    use_frame_clock(state.get().play.playing, state.dispatcher());
    use_host_api(&state);
    use_sound(&state);

    let s = state.get();
    let s: &AppState = &s;
    let mode = s.teach.mode;
    let embed = mode == Mode::Embed;
    let comparing = s.compare.is_some();
    let root_class = classes!(
        "app",
        (!s.chrome.panel_open).then_some("panel-closed"),
        format!("mode-{}", mode.as_str()),
        s.teach.quiz.is_some().then_some("quiz-on"),
        s.teach.locked.then_some("locked"),
        matches!(s.chrome.tab, Tab::Sinks | Tab::Charts | Tab::Code | Tab::Lateness).then_some("wide-panel"),
    );
    let (run_state, revision) = s.run_status();
    let on_close_help = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Panel(PanelAction::ToggleHelp)))
    };
    // The import dialog, drawn by the extras module while an import is open.
    let import_host = use_node_ref();
    let import = s.teach.import_open.clone().map(|(seq, source)| ExtrasView::Import(seq, source));
    use_extras_view(import_host.clone(), state.clone(), import);
    // A file dropped anywhere on the page opens like Import… (a scenario, or a table to map).
    let reader = use_mut_ref(|| None::<FileReader>);
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    let ondrop = {
        let state = state.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if let Some(file) = e.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
                open_file(&state, file, &reader);
            }
        })
    };
    html! {
        <div class={root_class} data-testid="app" data-mode={mode.as_str()} data-link-text={link_text} {ondragover} {ondrop}>
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
                <section class={classes!("canvas-wrap", comparing.then_some("comparing"))} aria-label="Timeline" data-testid="timeline">
                    if comparing {
                        { side_label("A", crate::ui::state::compare::summary(&s.doc.scenario)) }
                    }
                    <div class="canvas-box" ref={canvas_box}>
                        <Canvas state={state.clone()} />
                    </div>
                    if comparing {
                        <CompareView state={state.clone()} />
                    }
                    <Narration state={state.clone()} />
                    if !embed {
                        <Legend dense={s.scene.backend == crate::ui::scene::Backend::Canvas} />
                    }
                </section>
                if s.chrome.panel_open && !embed {
                    <SidePanel state={state.clone()} />
                }
            </main>
            if !embed {
                <ArrivalStrip state={state.clone()} />
            }
            { playback(&state) }
            <ContextMenu state={state.clone()} />
            { editor_dialog(&state) }
            if s.chrome.help_open {
                <Help on_close={on_close_help} />
            }
            if s.teach.why.is_some() {
                <WhyLayer state={state.clone()} />
            }
            <div class="import-host" ref={import_host} />
            <Blackout state={state.clone()} />
            { run_progress(&state) }
            { run_status(run_state, revision, s.runner_name()) }
        </div>
    }
}
