//! The keyboard: one `keydown` listener on the window turns a key press into [`KeyInput`] (where it
//! happened: the page, a field, a canvas object) and dispatches it when the key map may use it.
//! What a key does is the reducer's (`state::keys`).

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use crate::ui::action::{Action, KeyInput, KeyTarget};
use crate::ui::hooks::AppDispatcher;
use crate::ui::state::keys::is_shortcut;

/// Where the key press happened.
fn key_target(target: Option<&Element>) -> KeyTarget {
    let Some(t) = target else { return KeyTarget::Page };
    match t.tag_name().as_str() {
        "TEXTAREA" => KeyTarget::Text,
        "SELECT" => KeyTarget::Control,
        "INPUT" => {
            let text = t.dyn_ref::<HtmlInputElement>().is_some_and(|i| {
                matches!(i.type_().as_str(), "text" | "search" | "number" | "email" | "url" | "tel" | "password")
            });
            if text { KeyTarget::Text } else { KeyTarget::Control }
        }
        // The canvas, or the dragged marble lifted over it (`Scene::lifted`).
        _ if t.closest("[data-testid=\"canvas\"], svg.lifted").ok().flatten().is_some() => KeyTarget::Canvas,
        _ => KeyTarget::Page,
    }
}

#[hook]
pub fn use_keyboard(dispatcher: AppDispatcher) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|w| {
            EventListener::new_with_options(&w, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                // An `Element`, not an `HtmlElement`: the canvas's objects are SVG.
                let target = e.target().and_then(|t| t.dyn_into::<Element>().ok());
                let key = e.key();
                // Space and Enter on a focused button press the button.
                if target.as_ref().is_some_and(|t| t.tag_name() == "BUTTON") && (key == " " || key == "Enter") {
                    return;
                }
                let where_ = key_target(target.as_ref());
                // The focused object's centre: where "why?" opens.
                let anchor_px = (where_ == KeyTarget::Canvas)
                    .then(|| target.as_ref().map(|t| t.get_bounding_client_rect()))
                    .flatten()
                    .map(|r| (r.left() + r.width() / 2.0, r.top() + r.height() / 2.0));
                let input = KeyInput {
                    key,
                    shift: e.shift_key(),
                    alt: e.alt_key(),
                    ctrl: e.ctrl_key() || e.meta_key(),
                    target: where_,
                    anchor_px,
                };
                if is_shortcut(&input) {
                    e.prevent_default();
                    dispatcher.dispatch(Action::Key(input));
                }
            })
        });
        move || drop(listener)
    });
}
