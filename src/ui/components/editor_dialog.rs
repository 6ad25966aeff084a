//! The editor of one input item: key, value and timestamp of an element, or a watermark item's
//! value. The text is kept as typed; the reducer says what is wrong.

use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::ui::action::{Action, EditorAction, EditorField};
use crate::ui::hooks::AppHandle;
use crate::ui::state::chrome::Editor;

/// The dialog for the state's open editor, if any.
pub fn editor_dialog(state: &AppHandle) -> Html {
    let Some(editor) = state.get().chrome.editor.clone() else { return Html::default() };
    let on_input = {
        let state = state.clone();
        Callback::from(move |(f, v): (EditorField, String)| state.dispatch(Action::Editor(EditorAction::Input(f, v))))
    };
    let on_save = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Editor(EditorAction::Commit)))
    };
    let on_cancel = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Editor(EditorAction::Cancel)))
    };
    html! { <EditorForm {editor} {on_input} {on_save} {on_cancel} /> }
}

#[derive(Properties, PartialEq)]
struct EditorFormProps {
    editor: Editor,
    on_input: Callback<(EditorField, String)>,
    on_save: Callback<()>,
    on_cancel: Callback<()>,
}

#[component]
fn EditorForm(p: &EditorFormProps) -> Html {
    let ed = &p.editor;
    let first = use_node_ref();
    {
        let first = first.clone();
        use_effect_with(ed.index, move |_| {
            if let Some(input) = first.cast::<HtmlInputElement>() {
                let _ = input.focus();
                input.select();
            }
        });
    }
    let field = |f: EditorField| {
        p.on_input.reform(move |e: InputEvent| {
            let v =
                e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).map(|i| i.value()).unwrap_or_default();
            (f, v)
        })
    };
    let submit = p.on_save.reform(|e: SubmitEvent| e.prevent_default());
    let cancel = p.on_cancel.reform(|_: MouseEvent| ());
    html! {
        <div class="dialog-backdrop">
            <form class="dialog" data-testid="editor" onsubmit={submit} aria-label="Edit input item">
                <h2>{ if ed.is_watermark { format!("Watermark item #{}", ed.index + 1) } else { format!("Element (input #{})", ed.index + 1) } }</h2>
                if !ed.is_watermark {
                    <label>{ "key" }<input ref={first.clone()} data-testid="edit-key" value={ed.key.clone()} oninput={field(EditorField::Key)} /></label>
                    <label>{ "value" }<input data-testid="edit-value" inputmode="numeric" value={ed.value.clone()} oninput={field(EditorField::Value)} /></label>
                    <label>{ "timestamp (ms)" }<input data-testid="edit-ts" inputmode="numeric" value={ed.ts.clone()} oninput={field(EditorField::Ts)} /></label>
                } else {
                    <label>{ "watermark (ms)" }<input ref={first.clone()} data-testid="edit-ts" inputmode="numeric" value={ed.ts.clone()} oninput={field(EditorField::Ts)} /></label>
                }
                <label>{ "source partition" }<input data-testid="edit-partition" inputmode="numeric" value={ed.partition.clone()} oninput={field(EditorField::Partition)} /></label>
                <label>{ "arrival (processing time, ms; empty: 100 ms after the item before)" }<input data-testid="edit-arrival" inputmode="numeric" value={ed.arrival.clone()} oninput={field(EditorField::Arrival)} /></label>
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
