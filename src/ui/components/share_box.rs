//! The share box: the link or embed code last copied, selectable by hand when the browser refused
//! the clipboard (inside an iframe).

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ui::action::ShareBox;

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
        </div>
    }
}
