//! Runs as effects (contract §3): what the reducer asks a runner for, and the runner's answer.

use std::rc::Rc;

use crate::engine::{Run, Scenario};

/// Which document a run is for: the scenario on show, or compare mode's second configuration
/// (`state::compare`). A runner hands it back unchanged with the answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RunSlot {
    #[default]
    Main,
    Compare,
}

/// A run for the runner (`crate::ui::runner`): this scenario, answered with `revision` and `slot`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRequest {
    pub revision: u64,
    pub slot: RunSlot,
    pub scenario: Rc<Scenario>,
    /// A pointer move of an element's drag: the worker runner holds its answer until the pointer
    /// rests (`runner::REST_MS`), since the next move makes it stale.
    pub gesture: bool,
}

/// A runner's answer. `Err`: the runner itself failed (a worker died); a job that Flink fails is
/// an `Ok` run with its error in `run.error`.
#[derive(Clone, Debug)]
pub struct RunFinished {
    pub revision: u64,
    pub slot: RunSlot,
    pub result: Result<Rc<Run>, String>,
}

/// Answers compare by revision and by the identity of the run: two handles of one answer are equal.
impl PartialEq for RunFinished {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision
            && self.slot == other.slot
            && match (&self.result, &other.result) {
                (Ok(a), Ok(b)) => Rc::ptr_eq(a, b),
                (Err(a), Err(b)) => a == b,
                _ => false,
            }
    }
}
