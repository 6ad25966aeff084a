//! `use_resize_observer`: the one place a component follows an element's size.

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::HtmlElement;
use yew::prelude::*;

/// Calls `on_resize` with the element behind `node` once it is mounted and whenever its size
/// changes (a `ResizeObserver`); disconnects when the component goes away.
#[hook]
pub fn use_resize_observer<F>(node: NodeRef, on_resize: F)
where
    F: Fn(&HtmlElement) + 'static,
{
    use_effect_with((), move |_| {
        let observer = node.cast::<HtmlElement>().and_then(|el| {
            let measure = {
                let el = el.clone();
                move || on_resize(&el)
            };
            measure();
            let cb = Closure::<dyn FnMut()>::new(measure);
            let obs = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()).ok()?;
            obs.observe(&el);
            Some((obs, cb))
        });
        move || {
            if let Some((obs, _cb)) = observer {
                obs.disconnect();
            }
        }
    });
}
