//! One component a file. [`app::App`] lays out the page; the components draw the state and turn
//! gestures into actions, nothing else. Those that need little of the state take it as props and
//! `on_<verb>` callbacks.

pub mod app;
mod arrival_strip;
mod banners;
mod blackout;
pub mod canvas;
pub mod charts_panel;
mod code_panel;
mod compare_panel;
mod compare_view;
mod config_panel;
mod context_menu;
mod course_bar;
mod editor_dialog;
mod embed_bar;
mod header;
mod help;
mod icon;
pub mod import_dialog;
pub mod lateness_report;
mod legend;
mod locked_badge;
mod narration;
mod output_list;
mod platform;
mod playback;
mod preset_menu;
mod quiz_box;
mod run_status;
mod share_box;
mod side_panel;
mod sinks_panel;
pub mod sinks_view;
mod sound_toggle;
mod sql_panel;
pub mod state_estimate;
mod step_log;
mod tvf_sizes;
mod undo_redo;
mod why_popover;

/// What a panel of the extras module shows while it is held during a large drag
/// ([`crate::ui::hooks::use_panel_json`]): it is of the scenario before the drag.
fn held_note(held: bool) -> yew::Html {
    if !held {
        return yew::Html::default();
    }
    yew::html! {
        <p class="panel-held" data-testid="panel-held">{ "As it was before this drag: it is made again when you let go." }</p>
    }
}
