//! The app's state as a Yew reducer: [`AppState::dispatch`] behind `use_reducer`, with the engine
//! in a Web Worker (`ui::worker_runner`; the main thread where there is none), started from the
//! URL and the autosave.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use yew::prelude::*;

use crate::ui::action::{Action, PlayAction, RunSlot};
use crate::ui::state::AppState;
use crate::ui::storage::{read_autosave, read_sound};
use crate::ui::worker_runner::WorkerRunner;

/// The state handle the components share: read it with [`AppCell::get`] (`state.get()`).
pub type AppHandle = UseReducerHandle<AppCell>;
/// Dispatches actions, for hooks that only send.
pub type AppDispatcher = UseReducerDispatcher<AppCell>;

/// The app's one [`AppState`] as Yew holds it: changed in place by each action, and handed out
/// anew (a new version) whenever it changed, so that props holding a handle compare unequal.
///
/// Not the usual `Reducible for AppState` that returns a changed clone: Yew's handles keep every
/// state they were read at until the next render, so an install of a large run used to build the
/// new run, layout, fold and scene while the previous state still held the old ones (at 100,000
/// elements two documents of 125-190 MB side by side in the page's memory). In place, a replaced
/// part goes as it is replaced. Every handle reads the current state, as Yew's handles do.
pub struct AppCell {
    state: Rc<RefCell<AppState>>,
    version: u64,
}

impl AppCell {
    pub fn new(state: AppState) -> AppCell {
        AppCell { state: Rc::new(RefCell::new(state)), version: 0 }
    }

    /// The current state (borrowed for a render or a handler: not across an await).
    pub fn get(&self) -> Ref<'_, AppState> {
        self.state.borrow()
    }
}

/// Equal when it is the same state at the same version.
impl PartialEq for AppCell {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.state, &other.state) && self.version == other.version
    }
}

impl Reducible for AppCell {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let changed = {
            let s = self.get();
            // Frame-clock ticks between steps change no visible state: no new version, no render.
            // Neither do focus reports that change nothing (`AppState::changes_nothing`).
            match &action {
                Action::Play(PlayAction::Tick { now_millis }) => s.play.advance_clock(*now_millis, s.steps()),
                a => !s.changes_nothing(a),
            }
        };
        if !changed {
            return self;
        }
        let state = if self.state.try_borrow_mut().is_ok() {
            self.state.clone()
        } else {
            // Read somewhere up the stack (a handler holding `get()`): changed as a copy instead.
            Rc::new(RefCell::new(self.get().clone()))
        };
        // An answer's stages before its install show nothing new (`state::staged`): no render.
        let stage = match &action {
            Action::RunArrived(a) if a.slot == RunSlot::Main => Some(a.revision),
            Action::InstallStage { revision } => Some(*revision),
            _ => None,
        };
        apply(&mut state.borrow_mut(), action);
        if stage.is_some() && Rc::ptr_eq(&state, &self.state) && state.borrow().staging() == stage {
            return self;
        }
        // Nor does a playhead moved over a large scene before its step is shown (`state::step_later`);
        // a copy to render shows it now.
        if state.borrow().step_waiting() {
            if Rc::ptr_eq(&state, &self.state) {
                return self;
            }
            state.borrow_mut().show_waiting_step();
        }
        Rc::new(AppCell { state, version: self.version + 1 })
    }
}

fn apply(s: &mut AppState, action: Action) {
    // (A tick's clock was advanced already, when it was found to move the step.)
    if let Action::Play(PlayAction::Tick { .. }) = action {
        s.clock_step();
    } else {
        s.dispatch(action);
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
            AppCell::new(s)
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
