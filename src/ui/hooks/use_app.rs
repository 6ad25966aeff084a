//! The app's state as a Yew reducer: [`AppState::dispatch`] behind `use_reducer`, with the engine
//! in a Web Worker (`ui::worker_runner`; the main thread where there is none), started from the
//! URL and the autosave.

use std::rc::Rc;

use yew::prelude::*;

use crate::ui::action::{Action, PlayAction};
use crate::ui::state::AppState;
use crate::ui::storage::{read_autosave, read_sound};
use crate::ui::worker_runner::WorkerRunner;

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
        // Neither do focus reports that change nothing (`AppState::changes_nothing`).
        if self.changes_nothing(&action) {
            return self;
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
    let runner = use_memo((), |_| WorkerRunner::start());
    let state = {
        let runner = (*runner).clone();
        use_reducer(move || {
            let width = web_sys::window()
                .and_then(|w| w.inner_width().ok())
                .and_then(|v| v.as_f64())
                .map_or(1000.0, |w| (w - 40.0).max(300.0));
            let mut s = AppState::start(&location_hash(), read_autosave(), width, Rc::new(runner));
            s.chrome.sound = read_sound();
            s
        })
    };
    // The worker's answers come back as actions (those that came before this are handed over now).
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            runner.set_dispatcher(Callback::from(move |a| dispatcher.dispatch(a)));
        });
    }
    state
}

/// A callback that dispatches `action` (for buttons).
pub fn send(state: &AppHandle, action: Action) -> Callback<MouseEvent> {
    let state = state.clone();
    Callback::from(move |_| state.dispatch(action.clone()))
}
