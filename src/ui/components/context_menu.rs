//! The canvas's context menu: edit or delete an element, or add an element or a watermark item
//! where the pointer was.

use yew::prelude::*;

use super::platform::window_size;
use crate::ui::action::{Action, EditAction, EditorAction, MenuTarget};
use crate::ui::hooks::{AppHandle, send};
use crate::ui::scene::outcome_text;

#[derive(Properties, PartialEq)]
pub struct ContextMenuProps {
    pub state: AppHandle,
}

#[component]
pub fn ContextMenu(props: &ContextMenuProps) -> Html {
    let state = &props.state;
    let s = state.get();
    let Some(menu) = s.chrome.menu.clone() else { return Html::default() };
    let item = |label: String, action: Action, testid: &'static str| {
        html! { <button role="menuitem" data-testid={testid} onclick={send(state, action)}>{ label }</button> }
    };
    let items = match &menu.target {
        MenuTarget::Element(i) => {
            let what = match s.doc.element(*i) {
                Some(e) => {
                    let ordinal = s.doc.layout.elem_of_input.get(*i).copied().flatten().map(|o| o as usize);
                    let outcome = ordinal.and_then(|o| s.fold.view.elements.get(o).copied().flatten());
                    format!("element {} · {}", e.id, outcome_text(outcome))
                }
                None => String::new(),
            };
            html! {
                <>
                    <div class="menu-title">{ what }</div>
                    { item("Edit key, value, timestamp… (Enter)".into(), Action::Editor(EditorAction::Open(*i)), "menu-edit") }
                    { item("Delete (Del)".into(), Action::Edit(EditAction::Delete(*i)), "menu-delete") }
                </>
            }
        }
        MenuTarget::Canvas { ts, key } => html! {
            <>
                <div class="menu-title">{ format!("at {}", crate::engine::time::format_millis(*ts)) }</div>
                { item(
                    format!("Add element here{}", key.as_ref().map(|k| format!(" (key {k})")).unwrap_or_default()),
                    Action::Edit(EditAction::AddElement { key: key.clone(), ts: Some(*ts) }),
                    "menu-add",
                ) }
                { item("Insert watermark item here (at the playhead)".into(), Action::Edit(EditAction::InsertWatermark { wm: Some(*ts) }), "menu-watermark") }
            </>
        },
    };
    let close = {
        let state = state.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            state.dispatch(Action::CloseMenu)
        })
    };
    // Keep the menu inside the viewport.
    let (vw, vh) = window_size();
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
