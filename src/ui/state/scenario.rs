//! The document: the scenario on show, the run on show and what derives from the run alone, with
//! the revisions that tie them together (TIMELINE_CONTRACT.md §3).
//!
//! ```text
//!  revision   bumps on every change of the scenario (each drag move too): a RunRequest carries it
//!  requested  the newest revision asked of the runner (a configuration candidate included)
//!  shown      the revision of the run on show; requested > shown while a run is out
//!  commits    bumps on every committed change: the URL and the autosave follow it
//! ```
//!
//! `run` was made from `shown_scenario`, which is `scenario` whenever nothing is out. What reads
//! the run by index (the fold, teaching, the output lists) pairs it with `shown_scenario`; the
//! scene draws the input from `scenario`, so that a dragged marble follows the pointer before its
//! run is back (with an asynchronous runner the two differ while a run is out).
//!
//! [`Doc::commit`] is the one way an edit enters the document. A candidate committed with
//! [`Refuse::IfNewlyFails`] (the configuration panel) stays a proposal until its run is back: when
//! its job fails where the scenario's did not, it is refused and the scenario stays as it was.

use std::rc::Rc;

use crate::engine::scenario::{Element, InputItem};
use crate::engine::{Run, Scenario, run};
use crate::ui::action::Field;
use crate::ui::runner::{RunFinished, RunRequest, RunSlot};
use crate::ui::scene::layout::{RowPhase, RunLayout};

/// Whether a committed candidate may be refused after its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refuse {
    Never,
    /// Refused when its job fails where the scenario's did not (Flink accepts the value when the
    /// job is built, then the job fails); the reason is shown at this field.
    IfNewlyFails(Field),
}

/// What a runner's answer did.
#[derive(Clone, Debug, PartialEq)]
pub enum Finished {
    /// An answer for an older revision than the newest request: dropped.
    Stale,
    /// The run is on show (and a proposal, if there was one, accepted).
    Installed { accepted: Option<Field> },
    /// The proposal's job newly fails: the scenario stays.
    Refused { field: Field, message: String },
    /// The runner failed; the previous run stays on show.
    Failed(String),
}

#[derive(Clone, Debug)]
struct Proposal {
    revision: u64,
    candidate: Rc<Scenario>,
    field: Field,
}

#[derive(Clone, Debug)]
pub struct Doc {
    pub scenario: Rc<Scenario>,
    /// The scenario `run` was made from (see the module doc).
    pub shown_scenario: Rc<Scenario>,
    pub run: Rc<Run>,
    pub layout: Rc<RunLayout>,
    /// The scenario's revision (see the module doc).
    pub revision: u64,
    pub requested: u64,
    pub shown: u64,
    pub commits: u64,
    /// Bumps when an installed run's rows differ from the run's before (its outputs, keys or
    /// element values): the output list compares this, not the runs (it holds no run between
    /// renders, so a replaced run goes at once).
    pub outputs_version: u64,
    /// The rows' fingerprint of the run on show (`wire::rows_fingerprint`): compared with the next
    /// run's, which may be read into the old run's memory (`AppState::run_arrived`).
    rows: u64,
    /// The runner's failure for the newest request (the run-status `error`).
    pub failure: Option<String>,
    /// Which document this is (its runs' requests and answers say so).
    pub slot: RunSlot,
    proposal: Option<Proposal>,
}

impl Doc {
    /// The empty scenario with its run on show, so that a run is always there; the first load
    /// replaces both.
    pub fn empty() -> Doc {
        let scenario = Scenario::default();
        let run = run(&scenario);
        let rows = crate::engine::wire::rows_fingerprint(&run);
        let scenario = Rc::new(scenario);
        Doc {
            layout: Rc::new(RunLayout::new(&scenario, &run)),
            shown_scenario: scenario.clone(),
            scenario,
            run: Rc::new(run),
            revision: 0,
            requested: 0,
            shown: 0,
            commits: 0,
            outputs_version: 0,
            rows,
            failure: None,
            slot: RunSlot::Main,
            proposal: None,
        }
    }

    /// Playhead positions after 0: the input items plus the end of input (the run's `steps`).
    pub fn steps(&self) -> usize {
        self.scenario.input.len() + 1
    }

    /// The run on show is the scenario's, and nothing is out.
    pub fn is_current(&self) -> bool {
        self.shown == self.requested
    }

    /// The field of the configuration candidate waiting for its run.
    pub fn proposed_field(&self) -> Option<Field> {
        self.proposal.as_ref().map(|p| p.field)
    }

    /// Another scenario on show (a load, an undo, a committed edit): a new revision and a commit.
    pub fn replace(&mut self, scenario: Rc<Scenario>) -> RunRequest {
        self.scenario = scenario;
        self.commits += 1;
        self.touch()
    }

    /// The scenario was changed in place (a drag move): a new revision, not a commit.
    pub fn touch(&mut self) -> RunRequest {
        self.revision += 1;
        self.requested = self.revision;
        self.proposal = None;
        RunRequest {
            revision: self.revision,
            slot: self.slot,
            scenario: self.scenario.clone(),
            gesture: false,
            release: false,
        }
    }

    /// An edit becomes part of the document: a new revision, a commit, and its run.
    pub fn commit(&mut self, candidate: Scenario, refuse: Refuse) -> RunRequest {
        match refuse {
            Refuse::Never => self.replace(Rc::new(candidate)),
            Refuse::IfNewlyFails(field) => {
                let candidate = Rc::new(candidate);
                self.revision += 1;
                self.requested = self.revision;
                self.proposal = Some(Proposal { revision: self.revision, candidate: candidate.clone(), field });
                RunRequest {
                    revision: self.revision,
                    slot: self.slot,
                    scenario: candidate,
                    gesture: false,
                    release: false,
                }
            }
        }
    }

    /// Takes a runner's answer.
    pub fn finish(&mut self, answer: RunFinished) -> Finished {
        let kept = self.layout.row_phase;
        self.finish_with(answer, None, kept)
    }

    /// Takes a runner's answer, with its layout when it was made already (`layout`: of this
    /// scenario and the answer's run, made while the run on show was still shown; `state::staged`).
    /// `kept`: the rows of the layout on show, for an edit's windows to keep ([`RunLayout::after`]);
    /// `None` for a scenario opened.
    pub fn finish_with(
        &mut self,
        answer: RunFinished,
        layout: Option<Rc<RunLayout>>,
        kept: Option<RowPhase>,
    ) -> Finished {
        if answer.revision != self.requested || answer.slot != self.slot {
            return Finished::Stale;
        }
        self.shown = answer.revision;
        let run = match answer.result {
            Ok(run) => run,
            Err(e) => {
                self.proposal = None;
                self.failure = Some(e.clone());
                return Finished::Failed(e);
            }
        };
        self.failure = None;
        let mut accepted = None;
        if let Some(p) = self.proposal.take().filter(|p| p.revision == answer.revision) {
            if let Some(e) = &run.error
                && self.run.error.as_ref().is_none_or(|old| old.message != e.message)
            {
                return Finished::Refused {
                    field: p.field,
                    message: format!("Flink accepts it, but the job then fails: {}: {}", e.class, e.message),
                };
            }
            self.scenario = p.candidate;
            self.commits += 1;
            accepted = Some(p.field);
        }
        debug_assert_eq!(run.steps, self.steps(), "a run has a step per input item plus the end of input");
        // The old run goes before the new layout is made (the state is changed in place:
        // `hooks::AppCell`), so that at 100,000 elements two runs are not alive beside the old
        // layout and the new one.
        let rows = crate::engine::wire::rows_fingerprint(&run);
        if rows != self.rows {
            self.rows = rows;
            self.outputs_version += 1;
        }
        self.run = run;
        // (A proposal's layout is of its candidate, made here: a made one is the scenario's.)
        self.layout = match layout.filter(|_| accepted.is_none()) {
            Some(layout) => layout,
            None => Rc::new(RunLayout::after(&self.scenario, &self.run, kept)),
        };
        self.shown_scenario = self.scenario.clone();
        Finished::Installed { accepted }
    }

    /// The run that is out was cancelled: the scenario goes back to the one the run on show was
    /// made from (a commit, so the URL and the autosave follow), as a new revision whose run is
    /// the one on show (revisions only grow: tests wait on them), and nothing is out. A late
    /// answer for the cancelled revision is stale. `false` when nothing was out.
    pub fn cancel(&mut self) -> bool {
        if self.is_current() {
            return false;
        }
        self.proposal = None;
        self.revision += 1;
        self.requested = self.revision;
        self.shown = self.revision;
        if !Rc::ptr_eq(&self.scenario, &self.shown_scenario) {
            self.scenario = self.shown_scenario.clone();
            self.commits += 1;
        }
        true
    }

    /// The scenario to edit (copied first when anything else shares it: an undo snapshot, the
    /// request the worker runner posted last, the run on show's `shown_scenario`). Only for an
    /// edit that changes it and is then asked for ([`Doc::touch`]): a worker's queue holds the
    /// scenarios of waiting requests weakly (`runner::WorkQueue`), and an edit cuts them off, as
    /// the edit's own request replaces them.
    pub fn scenario_mut(&mut self) -> &mut Scenario {
        Rc::make_mut(&mut self.scenario)
    }

    pub fn element(&self, index: usize) -> Option<&Element> {
        match self.scenario.input.get(index) {
            Some(InputItem::Element(e)) => Some(e),
            _ => None,
        }
    }

    pub fn element_mut(&mut self, index: usize) -> Option<&mut Element> {
        match self.scenario_mut().input.get_mut(index) {
            Some(InputItem::Element(e)) => Some(e),
            _ => None,
        }
    }

    /// A copy of the scenario to build a candidate from.
    pub fn candidate(&self) -> Scenario {
        (*self.scenario).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::runner::{MainThreadRunner, Runner};

    fn answer(req: RunRequest) -> RunFinished {
        MainThreadRunner.submit(req).unwrap_or_else(|| panic!("the main-thread runner answers at once"))
    }

    fn scenario(json: &str) -> Scenario {
        Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))
    }

    /// An answer for an older revision than the newest request is dropped; the newest is shown.
    #[test]
    fn stale_answers_are_dropped() {
        let mut d = Doc::empty();
        let a = d.replace(Rc::new(scenario(r#"{"assigner": {"kind": "tumbling", "size": 10}, "input": []}"#)));
        let b = d.commit(
            scenario(r#"{"assigner": {"kind": "tumbling", "size": 10}, "input": [{"id": 1, "key": "A", "ts": 1}]}"#),
            Refuse::Never,
        );
        assert!(!d.is_current());
        let (old, new) = (answer(a), answer(b));
        assert_eq!(d.finish(old), Finished::Stale);
        assert!(d.run.elements.is_empty(), "the stale run is not shown");
        assert_eq!(d.finish(new), Finished::Installed { accepted: None });
        assert_eq!((d.run.elements.len(), d.shown, d.requested, d.commits), (1, 2, 2, 2));
        assert!(d.is_current());
        // A runner failure is reported, and the run on show stays.
        let c = d.touch();
        assert_eq!(
            d.finish(RunFinished { revision: c.revision, slot: RunSlot::Main, result: Err("worker died".into()) }),
            Finished::Failed("worker died".into())
        );
        assert_eq!((d.failure.as_deref(), d.run.elements.len()), (Some("worker died"), 1));
    }

    /// A proposal whose job newly fails is refused and the scenario stays; one that runs is accepted.
    #[test]
    fn proposals_that_newly_fail_are_refused() {
        let base = r#"{"assigner": {"kind": "tumbling", "size": 60000}, "input": [{"id": 1, "key": "A", "ts": 1}]}"#;
        let mut d = Doc::empty();
        let r = d.replace(Rc::new(scenario(base)));
        d.finish(answer(r));
        let mut bad = d.candidate();
        bad.trigger.base = crate::engine::scenario::BaseTrigger::ContinuousEventTime { interval: 0 };
        let r = d.commit(bad, Refuse::IfNewlyFails(Field::TriggerInterval));
        let Finished::Refused { field, message } = d.finish(answer(r)) else { panic!("refused") };
        assert_eq!(field, Field::TriggerInterval);
        assert!(message.contains("/ by zero"), "{message}");
        assert_eq!(*d.scenario, scenario(base), "the scenario stays");
        assert!(d.is_current());
        let mut good = d.candidate();
        good.allowed_lateness = Some(5);
        let r = d.commit(good, Refuse::IfNewlyFails(Field::Lateness));
        assert_eq!(*d.scenario, scenario(base), "a proposal is not on show before its run");
        assert_eq!(d.finish(answer(r)), Finished::Installed { accepted: Some(Field::Lateness) });
        assert_eq!((d.scenario.allowed_lateness, d.commits), (Some(5), 2));
    }

    /// The output list compares `outputs_version`, not runs: it holds over runs whose rows are
    /// the same (a move within a window, a watermark that changes no firing), and bumps for a run
    /// whose outputs, keys or element values differ.
    #[test]
    fn the_outputs_version_follows_the_rows_not_the_run() {
        let json = |ts: i64, value: i64| {
            format!(
                r#"{{"assigner": {{"kind": "tumbling", "size": 10000}}, "input": [{{"id": 1, "key": "A", "ts": 1000}},
                    {{"id": 2, "key": "A", "ts": {ts}, "value": {value}}}, {{"wm": 30000}}]}}"#
            )
        };
        let mut d = Doc::empty();
        let install = |d: &mut Doc, ts: i64, value: i64| {
            let r = d.replace(Rc::new(scenario(&json(ts, value))));
            assert_eq!(d.finish(answer(r)), Finished::Installed { accepted: None });
            d.outputs_version
        };
        let first = install(&mut d, 2000, 1);
        assert!(first > 0, "the first run's rows differ from the empty run's");
        let run = d.run.clone();
        assert_eq!(install(&mut d, 3000, 1), first, "moved within its window: the same rows");
        assert!(!Rc::ptr_eq(&run, &d.run), "another run all the same");
        let moved = install(&mut d, 12_000, 1);
        assert_eq!(moved, first + 1, "into the next window: other rows");
        assert_eq!(install(&mut d, 12_000, 5), moved + 1, "another value: another sum");
        // A cancel keeps the run on show, and its version.
        d.touch();
        d.cancel();
        assert_eq!(d.outputs_version, moved + 1);
    }
}
