//! The app's state as a Yew reducer: [`AppState::dispatch`] behind `use_reducer`, with the engine
//! on the main-thread runner, started from the URL and the autosave.

use std::rc::Rc;

use yew::prelude::*;

use crate::ui::action::{Action, PlayAction};
use crate::ui::runner::MainThreadRunner;
use crate::ui::state::AppState;
use crate::ui::storage::{read_autosave, read_sound};

/// The state handle the components share.
pub type AppHandle = UseReducerHandle<AppState>;

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        // Frame-clock ticks between steps change no visible state: no new state, no render.
        if let Action::Play(PlayAction::Tick { now_millis }) = action {
            if !self.play.advance_clock(now_millis, self.steps()) {
                return self;
            }
            let mut next = (*self).clone();
            next.clock_step();
            return Rc::new(next);
        }
        let mut next = (*self).clone();
        next.dispatch(action);
        Rc::new(next)
    }
}

/// The location's hash (`#…`), or "".
pub fn location_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// The app's state, started once from the URL's hash and the autosave.
#[hook]
pub fn use_app() -> AppHandle {
    use_reducer(|| {
        let width = web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|v| v.as_f64())
            .map_or(1000.0, |w| (w - 40.0).max(300.0));
        let mut s = AppState::start(&location_hash(), read_autosave(), width, Rc::new(MainThreadRunner));
        s.chrome.sound = read_sound();
        s
    })
}

/// A callback that dispatches `action` (for buttons).
pub fn send(state: &AppHandle, action: Action) -> Callback<MouseEvent> {
    let state = state.clone();
    Callback::from(move |_| state.dispatch(action.clone()))
}
