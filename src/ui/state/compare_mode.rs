//! Compare mode in the reducer (the document and its rules: `compare.rs`): opening and closing
//! it, B following A's input, B's edits and the ready-made comparisons, and refreshing B's fold,
//! the differences and B's scene after every action.

use std::rc::Rc;

use crate::engine::Scenario;
use crate::engine::scenario::{TvfSpec, WatermarkSpec};
use crate::ui::action::{CompareAction, CompareExample, Side, TvfKind};
use crate::ui::scene::diff::{Diff, SideRun};
use crate::ui::scene::fold::StepFold;

use super::AppState;
use super::compare::{Compare, with_tvf};
use super::scenario::Refuse;
use super::scene_key::SceneKey;

impl AppState {
    /// Playhead positions after 0: the longer input of the two, plus its end of input.
    pub fn steps(&self) -> usize {
        let b = self.compare.as_ref().map_or(0, |c| c.doc.steps());
        self.doc.steps().max(b)
    }

    /// Opens (or replaces) B; `follow`: B's input is A's.
    pub(super) fn open_compare(&mut self, b: Scenario, follow: bool) {
        let mut c = Compare::new(b, follow);
        // Counting on from every B before (see `compare_revisions`).
        let from = self.compare_revisions;
        (c.doc.revision, c.doc.requested, c.doc.shown) = (from, from, from);
        if follow {
            Rc::make_mut(&mut c.doc.scenario).input = self.doc.scenario.input.clone();
        }
        let request = c.doc.touch();
        self.request(request);
        self.compare = Some(c);
        self.scene_key = None;
    }

    pub(super) fn close_compare(&mut self) {
        if self.compare.take().is_some() {
            // A's scene loses its marks.
            self.scene_key = None;
        }
    }

    /// A's input reached B (a following B), as a new revision of B and its run.
    pub(super) fn sync_compare(&mut self) {
        let Some(c) = &mut self.compare else { return };
        if c.follow && c.doc.scenario.input != self.doc.scenario.input {
            c.doc.scenario_mut().input = self.doc.scenario.input.clone();
            let request = c.doc.touch();
            self.request(request);
        }
    }

    /// B's configuration changed: a commit of the document (the link and the autosave follow).
    fn set_b(&mut self, f: impl FnOnce(&mut Scenario)) {
        let Some(c) = &mut self.compare else { return };
        f(c.doc.scenario_mut());
        let request = c.doc.touch();
        self.request(request);
        self.doc.commits += 1;
    }

    /// A's configuration changed (an example, the SQL view): a commit of A.
    fn set_a(&mut self, a: Scenario) {
        if a != *self.doc.scenario {
            let request = self.doc.commit(a, Refuse::Never);
            self.request(request);
        }
    }

    /// Compare mode: B's fold at the playhead, the differences, B's scene (the same builder as
    /// A's, at A's viewport) and both scenes' marks.
    pub(super) fn refresh_compare(&mut self, a_key: SceneKey, a_changed: bool) {
        let Some(c) = &mut self.compare else { return };
        let key = (c.doc.shown, self.play.step.min(c.doc.shown_scenario.input.len() + 1));
        if key != c.fold_key {
            c.fold = Rc::new(StepFold::new(&c.doc.shown_scenario, &c.doc.run, key.1));
            c.fold_key = key;
        }
        let diff_key = Some((self.fold_key, c.fold_key));
        let diff_changed = c.diff_key != diff_key;
        if diff_changed {
            c.diff = Rc::new(Diff::new(
                SideRun { run: &self.doc.run, view: &self.fold.view, input_of_elem: &self.doc.layout.input_of_elem },
                SideRun { run: &c.doc.run, view: &c.fold.view, input_of_elem: &c.doc.layout.input_of_elem },
                self.teach.values,
            ));
            c.diff_key = diff_key;
        }
        let b_key = SceneKey { fold: c.fold_key, revision: c.doc.revision, drag: None, selection: None, ..a_key };
        if c.scene_key.as_ref() != Some(&b_key) || diff_changed {
            let input = b_key.input(&c.doc, &c.fold, self.view.snap_unit());
            let mut scene = input.build();
            c.diff.mark(&mut scene, Side::B);
            c.scene = Rc::new(scene);
            c.scene_key = Some(b_key);
        }
        if a_changed || diff_changed {
            c.diff.mark(Rc::make_mut(&mut self.scene), Side::A);
        }
    }

    pub(super) fn reduce_compare(&mut self, action: CompareAction) {
        match action {
            CompareAction::Open(b) => {
                let follow = b.input.is_empty();
                self.open_compare(*b, follow);
                self.doc.commits += 1;
            }
            CompareAction::Close => {
                self.close_compare();
                self.doc.commits += 1;
            }
            CompareAction::Example(e) => self.compare_example(e),
            CompareAction::SetTvf(Side::A, kind) => self.set_a(with_tvf(&self.doc.scenario, kind)),
            CompareAction::SetTvfSpec(spec) => {
                if self.doc.scenario.tvf.is_some() && crate::engine::scenario::tvf_rule(spec).is_none() {
                    let mut a = (*self.doc.scenario).clone();
                    a.tvf = Some(spec);
                    self.set_a(a);
                }
            }
            CompareAction::SetTvf(Side::B, kind) => self.set_b(|s| *s = with_tvf(s, kind)),
            CompareAction::SetBound(b) => {
                self.set_b(|s| s.watermarks = WatermarkSpec::BoundedOutOfOrderness { bound: b.max(0) })
            }
            CompareAction::SetLateness(l) => self.set_b(|s| s.allowed_lateness = Some(l.max(0))),
            CompareAction::SetIdleness(i) => self.set_b(|s| s.source.idleness = (i > 0).then_some(i)),
        }
    }

    /// A and B from the scenario on show, for one of the ready-made comparisons.
    fn compare_example(&mut self, e: CompareExample) {
        let s = &*self.doc.scenario;
        let bounded = |bound| {
            let mut x = s.clone();
            x.watermarks = WatermarkSpec::BoundedOutOfOrderness { bound };
            x
        };
        let (a, b) = match e {
            CompareExample::Bounds => (bounded(5_000), bounded(20_000)),
            CompareExample::DataStreamVsTvf => {
                let a = with_tvf(s, None);
                let kind = match TvfSpec::for_assigner(&a.assigner) {
                    Some(TvfSpec::Hop { .. }) => TvfKind::Hop,
                    Some(TvfSpec::Session { .. }) => TvfKind::Session,
                    _ => TvfKind::Tumble,
                };
                let b = with_tvf(&a, Some(kind));
                (a, b)
            }
            CompareExample::Idleness => {
                let mut off = s.clone();
                off.source.idleness = None;
                let mut on = s.clone();
                on.source.idleness = Some(s.source.idleness.unwrap_or(10_000));
                (off, on)
            }
        };
        self.set_a(a);
        self.open_compare(b, true);
        self.doc.commits += 1;
    }
}
