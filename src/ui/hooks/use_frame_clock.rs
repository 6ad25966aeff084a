//! The frame clock: while playing, dispatches a tick on every animation frame. The only timer in
//! the app; what a tick means is the reducer's (`state::playback`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use crate::ui::action::{Action, PlayAction};
use crate::ui::hooks::AppDispatcher;
use crate::ui::worker_runner::next_task;

/// The requestAnimationFrame callback, shared with itself so that it can re-request.
type FrameSlot = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

#[hook]
pub fn use_frame_clock(running: bool, dispatcher: AppDispatcher) {
    use_effect_with(running, move |running| {
        let alive = Rc::new(Cell::new(*running));
        let pending = Rc::new(Cell::new(None::<i32>));
        let frame: FrameSlot = Rc::new(RefCell::new(None));
        let window = web_sys::window();
        if *running && let Some(window) = window.clone() {
            let (alive2, pending2, frame2, win2) = (alive.clone(), pending.clone(), frame.clone(), window.clone());
            *frame.borrow_mut() = Some(Closure::new(move |now: f64| {
                pending2.set(None);
                if !alive2.get() {
                    return;
                }
                mark_frame();
                dispatcher.dispatch(Action::Play(PlayAction::Tick { now_millis: now }));
                if let Some(f) = frame2.borrow().as_ref() {
                    pending2.set(win2.request_animation_frame(f.as_ref().unchecked_ref()).ok());
                }
            }));
            if let Some(f) = frame.borrow().as_ref() {
                pending.set(window.request_animation_frame(f.as_ref().unchecked_ref()).ok());
            }
        }
        move || {
            alive.set(false);
            // Cancel the frame already requested before dropping the closure it would call.
            if let (Some(id), Some(w)) = (pending.take(), window) {
                let _ = w.cancel_animation_frame(id);
            }
            frame.borrow_mut().take();
        }
    });
}

thread_local! {
    /// A frame callback dispatched since the last task ([`mark_frame`]).
    static IN_FRAME: Cell<bool> = const { Cell::new(false) };
}

/// Says that a frame callback (`requestAnimationFrame`) is dispatching: what it renders is inside the
/// frame's rendering step, before the frame's paint ([`in_frame`]). Cleared by a 0-ms timer, which
/// runs after the frame; where none can be set, not marked (a paint then waits for the next frame).
pub fn mark_frame() {
    if !IN_FRAME.get() && next_task(|| IN_FRAME.set(false)) {
        IN_FRAME.set(true);
    }
}

/// Whether a frame callback has dispatched since the last task (a render now is in that frame: a
/// paint asked for in the next frame would show one frame late).
pub fn in_frame() -> bool {
    IN_FRAME.get()
}
