//! The share box: the link or embed code last copied, selectable by hand when the browser refused
//! the clipboard (inside an iframe).

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ui::action::ShareBox;
use crate::ui::fragment::ADDRESS_BAR_MAX;

use super::run_status::grouped;

/// What to say of a link or code that holds a scenario too long for a link (the stream is in it
/// all the same: it opens where links that long are kept whole).
fn too_long(b: &ShareBox) -> Option<String> {
    (b.text.len() > ADDRESS_BAR_MAX).then(|| {
        let what = if b.what == "embed" { "This embed code" } else { "This link" };
        format!(
            "{what} is {} characters long, more than most chat and mail apps keep whole. To share this \
             stream, send its scenario file (Export: JSON): Import… opens it.",
            grouped(b.text.len())
        )
    })
}

#[derive(Properties, PartialEq)]
pub struct ShareBoxProps {
    pub share: Option<ShareBox>,
    pub on_close: Callback<()>,
}

/// What was put on the clipboard, selectable by hand.
#[component]
pub fn ShareBoxView(p: &ShareBoxProps) -> Html {
    let Some(b) = p.share.clone() else { return Html::default() };
    let close = p.on_close.reform(|_: MouseEvent| ());
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
            if let Some(note) = too_long(&b) {
                <p class="share-note" role="note" data-testid="share-too-long">{ note }</p>
            }
        </div>
    }
}
