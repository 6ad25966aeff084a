//! A playhead moved over a large scene is shown in a task of its own, once for every move queued
//! before it. At 100,000 elements the fold and scene of one step take 150-300 ms; an arrow key
//! held down (about 30 repeats a second) queued that work for every repeat, and the page froze,
//! then jumped: ArrowLeft held for one second gave long tasks of 253, 1,174 and 3,116 ms.
//!
//! ```text
//!  ArrowLeft ─▶ Action::Key ─▶ play.step moves; Action::ShowStep deferred, nothing rendered
//!  ArrowLeft ─▶ Action::Key ─▶ play.step moves (a ShowStep is out already)
//!  Action::ShowStep ───────────▶ the fold and the scene at play.step, rendered
//! ```
//!
//! Queued input comes before a deferred task in Chromium (`Runner::defer`: a 0 ms timer), so the
//! keys already waiting move the playhead first. Any other action shows the step first, then acts
//! on it (`AppState::dispatch`): an action never sees a fold or a selection of a step the playhead
//! has left. Which keys are moves does not depend on the fold or the selection (those only choose
//! among a canvas key's other actions: a nudge, a deletion), so the step shown cannot change it. Scenes drawn by the SVG backend (up to 2,000 elements, where a
//! step animates) and runners that cannot defer show every step at once.

use super::AppState;
use crate::ui::action::{Action, PlayAction};
use crate::ui::scene::Backend;

impl AppState {
    /// Whether `action` only moves the playhead: a step, first, last, a step set, or a key that
    /// is one of them.
    pub(super) fn only_moves_playhead(&self, action: &Action) -> bool {
        match action {
            Action::Play(a) => matches!(
                a,
                PlayAction::Forward | PlayAction::Back | PlayAction::First | PlayAction::Last | PlayAction::SetStep(_)
            ),
            Action::Key(k) => {
                super::keys::key_action(k, &self.key_context()).is_some_and(|a| self.only_moves_playhead(&a))
            }
            _ => false,
        }
    }

    /// After an action that only moved the playhead: whether its fold and scene wait for
    /// `Action::ShowStep` (deferred now, unless one is out already).
    pub(super) fn show_step_later(&mut self) -> bool {
        if self.scene.backend != Backend::Canvas || self.fold_key == (self.doc.shown, self.play.step) {
            return false;
        }
        if !self.step_later {
            self.step_later = self.runner.0.defer(Action::ShowStep);
        }
        self.step_later
    }

    /// Shows the playhead's step now if it waits for its show (a copy of the state about to be
    /// rendered: `hooks::AppCell`'s fallback when the state is read up the stack).
    pub fn show_waiting_step(&mut self) {
        if self.step_waiting() {
            self.refresh();
        }
    }

    /// Whether the playhead has moved to a step not shown yet (`Action::ShowStep` is out): there
    /// is nothing new to render.
    pub fn step_waiting(&self) -> bool {
        self.step_later && self.fold_key != (self.doc.shown, self.play.step)
    }
}
