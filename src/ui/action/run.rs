//! Runs as effects (contract §3): what the reducer asks a runner for, and the runner's answer.

use std::cell::RefCell;
use std::fmt;
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
    /// The release of such a drag: the worker runner sends it where the drag's moves went
    /// (`worker_runner::runs_here`), and it is answered as soon as it is done.
    pub release: bool,
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

/// How an unread answer is read (once), into a spare run's memory when given one; the spare comes
/// back when it was not read into (`runner::read_answer`).
type Read = Box<dyn FnOnce(Option<Run>) -> (Result<Run, String>, Option<Run>)>;

/// A worker's answer, current when it came and still unread in its buffer (`ui::worker_runner`):
/// the reducer reads it only after letting go of what the install builds anew from it
/// (`AppState::run_arrived`), so that at 100,000 elements the new run is not decoded beside the
/// old run's layout, fold and scene (40-80 MB).
#[derive(Clone)]
pub struct RunArrived {
    pub revision: u64,
    pub slot: RunSlot,
    read: Rc<RefCell<Option<Read>>>,
}

impl RunArrived {
    pub fn new(
        revision: u64,
        slot: RunSlot,
        read: impl FnOnce(Option<Run>) -> (Result<Run, String>, Option<Run>) + 'static,
    ) -> RunArrived {
        RunArrived { revision, slot, read: Rc::new(RefCell::new(Some(Box::new(read)))) }
    }

    /// The answer, read: decoded once (a second read is an error, not a second decode), into
    /// `spare`'s memory when given a run no longer needed (`wire::read_run_into`); the spare comes
    /// back when it was not read into.
    pub fn read(&self, spare: Option<Run>) -> (RunFinished, Option<Run>) {
        let read = self.read.borrow_mut().take();
        let (result, spare) = match read {
            Some(read) => read(spare),
            None => (Err("the answer was read already".to_string()), spare),
        };
        (RunFinished { revision: self.revision, slot: self.slot, result: result.map(Rc::new) }, spare)
    }
}

/// Two handles of one answer are equal.
impl PartialEq for RunArrived {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision && self.slot == other.slot && Rc::ptr_eq(&self.read, &other.read)
    }
}

impl fmt::Debug for RunArrived {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunArrived").field("revision", &self.revision).field("slot", &self.slot).finish_non_exhaustive()
    }
}
