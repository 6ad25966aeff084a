//! The run-status test hook (TIMELINE_CONTRACT.md §2): whether the run on show is the scenario's
//! (`done`), one is out (`running`) or the runner failed (`error`), and for which revision, on which
//! runner (`data-runner`: `worker` or `main-thread`). Tests wait on it, never on time. Hidden: it
//! says nothing a person needs. Next to it, what a person does need: a long run's progress and its
//! Cancel button.

use yew::prelude::*;

use crate::ui::action::Action;
use crate::ui::hooks::{AppHandle, send};
use crate::ui::state::AppState;

/// `state` (`running`, `done`, `error`) of the newest `revision`, on `runner`.
pub fn run_status(state: &'static str, revision: u64, runner: &'static str) -> Html {
    html! {
        <span hidden=true aria-hidden="true" data-testid="run-status" data-state={state}
              data-revision={revision.to_string()} data-runner={runner} />
    }
}

/// `n` with thin groups of three digits: 100,000.
pub(crate) fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// While a run is out on a runner that can stop it (the Web Worker): a progress bar, what runs,
/// and a Cancel button (the run on show stays). It shows only after 0.4 s (CSS: `.run-progress`),
/// so the short runs of a drag do not flash it; until then it is `visibility: hidden`, neither
/// seen nor focusable. Not during a drag: its moves' runs are out all the time, and the hand is
/// on the pointer, not the button.
pub fn run_progress(state: &AppHandle) -> Html {
    let s = state.get();
    let s: &AppState = &s;
    if s.run_status().0 != "running" || s.runner_name() != "worker" || s.drag.is_some() {
        return html! {};
    }
    let items = s.doc.scenario.input.len();
    html! {
        <div class="run-progress" data-testid="run-progress">
            <progress aria-label="Engine run in progress" />
            <span role="status">{ format!("Running the engine on {} input items…", grouped(items)) }</span>
            <button type="button" data-testid="run-cancel" onclick={send(state, Action::CancelRun)}>
                { "Cancel run" }
            </button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn grouped_digits() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(999), "999");
        assert_eq!(super::grouped(100_000), "100,000");
        assert_eq!(super::grouped(1_234_567), "1,234,567");
    }
}
