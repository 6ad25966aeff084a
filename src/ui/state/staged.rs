//! A worker's answer installed in stages, each a task of its own, while the run on show stays
//! shown: at 10,000 elements the install of a drag move's answer when the pointer rests was one
//! task of 57-90 ms (the answer's decoding ≈ 24 ms, its layout ≈ 15, the fold at the playhead
//! ≈ 15, then the scene, Yew's render and the canvas's paint), over the 50 ms of a long task.
//!
//! ```text
//!  Action::RunArrived ──▶ read (decode) the run            ─┐ the run on show stays, nothing is
//!  Action::InstallStage ─▶ its layout                       │ rendered (hooks::AppCell), and a
//!  Action::InstallStage ─▶ its fold at the playhead        ─┘ newer request drops what is staged
//!  Action::InstallStage ─▶ installed as a RunFinished is, with them; the scene is built and drawn
//! ```
//!
//! Each `InstallStage` comes from [`Runner::defer`](crate::ui::runner::Runner::defer) (a 0 ms
//! timer): input waiting in between (the pointer moving again) is handled first in Chromium, and
//! its edit makes the staged answer stale. In one task (`AppState::run_arrived`): answers for
//! compare mode's B, answers deciding a proposal (a configuration candidate is accepted or
//! refused by its run, within its dispatch), scenarios over [`STAGED_MAX_ITEMS`], and runners
//! that cannot defer.

use std::rc::Rc;

use super::AppState;
use crate::engine::Run;
use crate::ui::action::{Action, RunArrived};
use crate::ui::runner::{RunFinished, RunSlot};
use crate::ui::scene::fold::StepFold;
use crate::ui::scene::layout::RunLayout;

/// Scenarios of at most this many input items (the one asked for and the one on show) have
/// their answers installed in stages. Staging keeps the run on show, its layout, fold and scene
/// alive beside the new ones until the last stage: at 100,000 elements that is 60-90 MB more than
/// the one-task install, which lets go of them first, and the page would pass its 300 MB. At
/// 50,000 it is about half, well inside.
pub const STAGED_MAX_ITEMS: usize = 50_000;

/// An answer being made ready: its run, then its layout, then its fold at the playhead.
#[derive(Clone, Debug)]
pub(super) struct Staged {
    revision: u64,
    run: Rc<Run>,
    layout: Option<Rc<RunLayout>>,
    /// The fold, and the step it is at (used only if the playhead is still there).
    fold: Option<(usize, Rc<StepFold>)>,
}

impl AppState {
    /// The revision of the answer being made ready, if one is: its stages change nothing on show.
    pub fn staging(&self) -> Option<u64> {
        self.staged.as_ref().map(|s| s.revision)
    }

    /// Whether `arrived` (current, of the main document) is installed in stages.
    pub(super) fn stages(&self, arrived: &RunArrived) -> bool {
        arrived.slot == RunSlot::Main
            && self.doc.proposed_field().is_none()
            && self.runner.0.defers()
            && self.doc.scenario.input.len().max(self.doc.shown_scenario.input.len()) <= STAGED_MAX_ITEMS
    }

    /// The first stage: the answer read beside the run on show. An unreadable one is shown at
    /// once, as a failed run (the run on show stays).
    pub(super) fn stage_arrived(&mut self, arrived: RunArrived) {
        let (answer, _) = arrived.read(None);
        let revision = answer.revision;
        match answer.result {
            Ok(run) => {
                self.staged = Some(Staged { revision, run, layout: None, fold: None });
                self.next_stage(revision);
            }
            Err(_) => self.run_finished(answer),
        }
    }

    /// The next stage of the answer `revision`, if it is the one staged and still the newest
    /// request (else it is dropped).
    pub(super) fn install_stage(&mut self, revision: u64) {
        let Some(mut staged) = self.staged.take_if(|s| s.revision == revision) else { return };
        if revision != self.doc.requested {
            return;
        }
        if staged.layout.is_none() {
            staged.layout = Some(Rc::new(RunLayout::after(&self.doc.scenario, &staged.run, self.kept_rows())));
        } else if staged.fold.is_none() {
            // The playhead's step after the install (`run_finished` places it again). Folded from
            // zero, as a run's first view is (`FoldViews::at`), leaving the run on show's saved
            // fold states for a step of the playhead in the meantime.
            let step = self.play.step.min(self.steps());
            let view = crate::engine::view::at_step(&staged.run, step);
            staged.fold = Some((step, Rc::new(StepFold::with_view(&self.doc.scenario, &staged.run, view))));
        } else {
            return self.install_staged(staged);
        }
        self.staged = Some(staged);
        self.next_stage(revision);
    }

    /// The next stage in a task of its own, or now where the runner cannot defer after all.
    fn next_stage(&mut self, revision: u64) {
        if !self.runner.0.defer(Action::InstallStage { revision }) {
            self.install_stage(revision);
        }
    }

    /// The last stage: installed as its `RunFinished` would be, with the layout and fold made.
    fn install_staged(&mut self, staged: Staged) {
        let Staged { revision, run, layout, fold } = staged;
        self.run_finished_with(RunFinished { revision, slot: RunSlot::Main, result: Ok(run) }, layout);
        if let Some((step, fold)) = fold
            && self.doc.shown == revision
            && self.play.step == step
        {
            self.fold = fold;
            self.fold_key = (revision, step);
            self.fold_views.made_first(&self.doc.run);
        }
    }

    /// The staged answer's layout and fold, when made (for tests).
    #[cfg(test)]
    pub(super) fn staged_parts(&self) -> (Option<Rc<RunLayout>>, Option<Rc<StepFold>>) {
        self.staged.as_ref().map_or((None, None), |s| (s.layout.clone(), s.fold.as_ref().map(|f| f.1.clone())))
    }
}
