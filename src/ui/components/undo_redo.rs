//! Undo and redo, with what they would undo in their titles.

use yew::prelude::*;

use super::icon::icon;
use super::platform::shortcut;
use crate::ui::action::Action;
use crate::ui::hooks::{AppHandle, send};

#[derive(Properties, PartialEq)]
pub struct UndoRedoProps {
    pub state: AppHandle,
}

#[component]
pub fn UndoRedo(props: &UndoRedoProps) -> Html {
    let state = &props.state;
    let h = &state.get().edits.history;
    let button = |what: &'static str, label: Option<String>, keys: String, action: Action| {
        let title = match &label {
            Some(l) => format!("{} {l} ({keys})", if what == "undo" { "Undo" } else { "Redo" }),
            None => format!("Nothing to {what}"),
        };
        html! {
            <button class="pb" title={title.clone()} aria-label={title} data-testid={what} disabled={label.is_none()}
                    onclick={send(state, action)}>{ icon(what) }</button>
        }
    };
    html! {
        <span class="undo-redo" role="group" aria-label="Undo and redo" data-undo={h.undo_len().to_string()} data-redo={h.redo_len().to_string()}>
            { button("undo", h.peek_undo().map(|s| s.label.to_string()), shortcut("Z"), Action::Undo) }
            { button("redo", h.peek_redo().map(|s| s.label.to_string()), format!("{} or {}", shortcut("Shift+Z"), shortcut("Y")), Action::Redo) }
        </span>
    }
}
