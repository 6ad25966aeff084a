//! Engine runs as effects (TIMELINE_CONTRACT.md §3). The reducer never runs the engine: an edit
//! bumps the scenario's revision and leaves a [`RunRequest`]; a [`Runner`] answers it with a
//! [`RunFinished`], which comes back as `Action::RunFinished`; an answer for an older revision
//! than the newest request is dropped.
//!
//! ```text
//!  Action (edit) ──▶ reducer: revision += 1, RunRequest { revision, slot, scenario }
//!                                               │  AppState::dispatch hands it to the runner
//!  MainThreadRunner::submit ── cached_run ──────┴──▶ Some(RunFinished { revision, slot, result })   (at once)
//!  (a Web Worker runner: None now, Action::RunFinished later, from its message handler)
//!  Action::RunFinished ──▶ reducer: revision current? install the run : drop it
//! ```
//!
//! Only the main-thread runner exists for now. It answers within the same dispatch, so a drag
//! costs what it cost before this seam: one run and one render per pointer move.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use crate::engine::incremental::RunCache;
use crate::engine::{Run, Scenario};
pub use crate::ui::action::{RunFinished, RunRequest, RunSlot};

/// Where engine runs happen.
pub trait Runner {
    /// Starts a run. A runner that can answer at once returns the answer; one that answers later
    /// returns `None` and dispatches `Action::RunFinished` when it is done.
    fn submit(&self, request: RunRequest) -> Option<RunFinished>;

    /// The runner's name, for the run-status test hook (`main-thread`, `worker`).
    fn name(&self) -> &'static str;
}

/// Runs the engine on the calling thread, at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct MainThreadRunner;

impl Runner for MainThreadRunner {
    fn submit(&self, request: RunRequest) -> Option<RunFinished> {
        let RunRequest { revision, slot, scenario } = request;
        Some(RunFinished { revision, slot, result: Ok(cached_run(slot, &scenario)) })
    }

    fn name(&self) -> &'static str {
        "main-thread"
    }
}

thread_local! {
    /// The last scenario and run of each slot, on the thread that runs the engine.
    static LAST_RUN: RefCell<[RunCache; 2]> = RefCell::default();
}

/// `engine::run`, incremental when the edit since the slot's last run allows it
/// (`engine::incremental`: one key's elements changed and the watermark did not move); the
/// result equals a full run exactly.
pub fn cached_run(slot: RunSlot, scenario: &Rc<Scenario>) -> Rc<Run> {
    LAST_RUN.with(|cache| cache.borrow_mut()[slot as usize].run(scenario))
}

/// The runner a state uses: shared, and shown in `Debug` by name.
#[derive(Clone)]
pub struct RunnerRef(pub Rc<dyn Runner>);

impl Default for RunnerRef {
    fn default() -> Self {
        RunnerRef(Rc::new(MainThreadRunner))
    }
}

impl fmt::Debug for RunnerRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RunnerRef({})", self.0.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Scenario;

    /// The main-thread runner answers at once, for the revision it was asked.
    #[test]
    fn main_thread_runner_answers_at_once() {
        let scenario = Scenario::from_json_str(
            r#"{"assigner": {"kind": "tumbling", "size": 10}, "input": [{"id": 1, "key": "A", "ts": 1}]}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let answer =
            MainThreadRunner.submit(RunRequest { revision: 7, slot: RunSlot::Compare, scenario: Rc::new(scenario) });
        let Some(RunFinished { revision, slot, result: Ok(run) }) = answer else { panic!("no run") };
        assert_eq!((revision, slot), (7, RunSlot::Compare), "the answer names the request's revision and slot");
        assert_eq!(run.steps, 2);
        assert_eq!(format!("{:?}", RunnerRef::default()), "RunnerRef(main-thread)");
    }
}
