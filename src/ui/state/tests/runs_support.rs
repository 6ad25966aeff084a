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
