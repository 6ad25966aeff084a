//! The run-status test hook (TIMELINE_CONTRACT.md §2): whether the run on show is the scenario's
//! (`done`), one is out (`running`) or the runner failed (`error`), and for which revision. Tests
//! wait on it, never on time. Hidden: it says nothing a person needs.

use yew::prelude::*;

/// `state` (`running`, `done`, `error`) of the newest `revision`, on `runner`.
pub fn run_status(state: &'static str, revision: u64, runner: &'static str) -> Html {
    html! {
        <span hidden=true aria-hidden="true" data-testid="run-status" data-state={state}
              data-revision={revision.to_string()} data-runner={runner} />
    }
}
