//! A runner that answers later, when the test says so (`runs.rs`, `compare.rs`, `scale.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use super::AppState;
use crate::ui::action::Action;
use crate::ui::runner::{MainThreadRunner, RunFinished, RunRequest, Runner};

/// Queues the requests; the test answers them, in any order. Primes (`Runner::prime`) are
/// recorded: their revision and scenario.
#[derive(Default)]
pub struct Later(RefCell<Vec<RunRequest>>, pub RefCell<Vec<(u64, Rc<crate::engine::Scenario>)>>);

impl Runner for Later {
    fn submit(&self, request: RunRequest) -> Option<RunFinished> {
        self.0.borrow_mut().push(request);
        None
    }

    fn prime(&self, revision: u64, scenario: &Rc<crate::engine::Scenario>) {
        self.1.borrow_mut().push((revision, scenario.clone()));
    }

    fn name(&self) -> &'static str {
        "later"
    }
}

impl Later {
    /// The requests not answered yet.
    pub fn requests(&self) -> Vec<RunRequest> {
        self.0.borrow().clone()
    }

    pub fn take(&self) -> Vec<RunFinished> {
        let requests = std::mem::take(&mut *self.0.borrow_mut());
        requests.into_iter().filter_map(|r| MainThreadRunner.submit(r)).collect()
    }

    /// Answers every request, in order.
    pub fn answer_all(&self, st: &mut AppState) {
        for a in self.take() {
            st.dispatch(Action::RunFinished(a));
        }
    }
}

/// A state whose runs answer when the test says (the worker's way), with `json` loaded and run.
pub fn later_loaded(json: &str) -> (AppState, Rc<Later>) {
    let later = Rc::new(Later::default());
    let mut st = AppState::start("", Ok(None), 1200.0, later.clone());
    later.answer_all(&mut st);
    st.dispatch(Action::Load { scenario: Box::new(super::scenario(json)), step: None, banner: None });
    later.answer_all(&mut st);
    (st, later)
}

/// [`Later`] that also defers (`Runner::defer`), as the worker's runner does: the deferred
/// actions wait here until the test dispatches them, one task at a time.
#[derive(Default)]
pub struct Deferring {
    pub later: Later,
    pub deferred: RefCell<Vec<Action>>,
    /// `defer` fails (no timer could be set).
    pub fails: std::cell::Cell<bool>,
}

impl Runner for Deferring {
    fn submit(&self, request: RunRequest) -> Option<RunFinished> {
        self.later.submit(request)
    }

    fn prime(&self, revision: u64, scenario: &Rc<crate::engine::Scenario>) {
        self.later.prime(revision, scenario);
    }

    fn name(&self) -> &'static str {
        "deferring"
    }

    fn defers(&self) -> bool {
        true
    }

    fn defer(&self, action: Action) -> bool {
        if self.fails.get() {
            return false;
        }
        self.deferred.borrow_mut().push(action);
        true
    }
}

impl Deferring {
    /// The answers to the requests out, unread, as the worker's runner delivers them.
    pub fn arrived(&self) -> Vec<crate::ui::action::RunArrived> {
        self.later.take().into_iter().map(unread).collect()
    }

    /// Dispatches the deferred `ShowStep`s (a playhead moved over a large scene, `state::step_later`),
    /// and leaves the other deferred actions in their order.
    pub fn show_steps(&self, st: &mut AppState) {
        let shows: Vec<Action> = {
            let mut deferred = self.deferred.borrow_mut();
            let (shows, rest) = deferred.drain(..).partition(|a| *a == Action::ShowStep);
            *deferred = rest;
            shows
        };
        for a in shows {
            st.dispatch(a);
        }
    }

    /// The oldest deferred action, if any.
    pub fn next(&self) -> Option<Action> {
        let mut deferred = self.deferred.borrow_mut();
        (!deferred.is_empty()).then(|| deferred.remove(0))
    }
}

/// `answer`, unread (its run copied out when read).
pub fn unread(answer: RunFinished) -> crate::ui::action::RunArrived {
    crate::ui::action::RunArrived::new(answer.revision, answer.slot, move |spare| {
        (answer.result.map(|run| (*run).clone()), spare)
    })
}

/// A state on a [`Deferring`] runner with `json` loaded and run (its answers read at once).
pub fn deferring_loaded(json: &str) -> (AppState, Rc<Deferring>) {
    let runner = Rc::new(Deferring::default());
    let mut st = AppState::start("", Ok(None), 1200.0, runner.clone());
    runner.later.answer_all(&mut st);
    st.dispatch(Action::Load { scenario: Box::new(super::scenario(json)), step: None, banner: None });
    runner.later.answer_all(&mut st);
    (st, runner)
}
