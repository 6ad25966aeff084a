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

/// The width in CSS px of the element behind `node`, kept up to date by [`use_resize_observer`]
/// (0 until it is mounted): a chart that draws at its box's width redraws when the box resizes.
#[hook]
pub fn use_element_width(node: NodeRef) -> yew::UseStateHandle<u32> {
    let width = yew::use_state(|| 0u32);
    {
        let width = width.clone();
        use_resize_observer(node, move |el| {
            let w = el.client_width().max(0) as u32;
            if w != *width {
                width.set(w);
            }
        });
    }
    width
}
