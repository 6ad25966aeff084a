//! The application state and its one reducer. Every change (a drag, a key, a tick of the playback
//! clock, an edit in the panel, a run coming back) is an [`Action`]; [`AppState::dispatch`] is the
//! only way in, and it reads top-down:
//!
//! ```text
//!  dispatch(action)
//!    ├─ snapshot for undo ─────────────────────────────── undo.rs (Edits)
//!    ├─ reduce(action): one match, each concern its own reduce
//!    │    Load / Fragment / Teach ──▶ open.rs     links, presets, imports, undo travel, the quiz's stops
//!    │    Play ─────────────────────▶ playback.rs  the playhead and the frame clock
//!    │    View / Resize ────────────▶ viewport.rs  zoom, pan, fit, scale
//!    │    Drag ─────────────────────▶ drag.rs      gestures → scenario edits (in event time)
//!    │    Edit / Editor / Config ───▶ edit.rs      every edit goes through Doc::commit (scenario.rs)
//!    │    Select / Canvas ──────────▶ focus.rs     selection = canvas focus, keyboard moves (scene::nav)
//!    │    Panel / menus ────────────▶ chrome.rs    banners, menu, editor, tabs, help
//!    │    Key ──────────────────────▶ keys.rs      the key map → one of the above
//!    │    Compare ──────────────────▶ compare.rs   compare mode's second configuration, the SQL view's TVF
//!    │    RunFinished / RunArrived ─▶ here         install the run (or drop it), then what follows a run
//!    ├─ sync: compare mode's B follows A's input (compare.rs)
//!    ├─ drain: each RunRequest to the runner; an answer at once is reduced here too
//!    ├─ record the undo step (a drag: at its end)
//!    └─ refresh the view fold at the playhead (scene::fold)
//! ```
//!
//! Pure: the engine runs in the runner (`super::runner`), the browser is in the hooks and
//! components, so the whole interaction model is tested natively (`state/tests/`).

pub mod chrome;
pub mod compare;
pub mod config;
pub mod host;
pub mod import_flow;
pub mod keys;
pub mod playback;
pub mod scenario;
pub mod sound;
pub mod teach;
pub mod undo;
pub mod viewport;

mod compare_mode;
mod drag;
mod edit;
mod focus;
mod open;
mod scene_key;
mod staged;
mod step_later;

#[cfg(test)]
pub(crate) mod tests;

use std::rc::Rc;

use crate::ui::action::{Action, Drag, ObjectId, RunArrived};
use crate::ui::runner::{RunFinished, RunRequest, RunSlot, Runner, RunnerRef};
use crate::ui::scene::Scene;
use crate::ui::scene::fold::{FoldViews, StepFold};
use crate::ui::scene::layout::{RowPhase, RunLayout};

use chrome::Chrome;
use compare::Compare;
use config::ConfigForm;
use playback::Playback;
use scenario::{Doc, Finished};
use scene_key::SceneKey;
use teach::TeachState;
use undo::{Edits, Snapshot};
use viewport::ViewState;

/// What waits for the next run of a load or an undo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct AfterRun {
    /// Show the whole scenario (another scenario was opened).
    refit: bool,
    /// Say so in a banner when Flink would fail on it.
    announce: bool,
}

/// Keyboard focus on the canvas (contract §4): the focused object is the selection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CanvasFocus {
    /// DOM focus is on a canvas object.
    pub inside: bool,
    /// The lane the focus is in (the watermark is in every lane).
    pub lane: usize,
    /// Bumps when the DOM focus must go onto the selected object (a key, a click).
    pub seq: u64,
    /// Bumps when the DOM focus must leave the canvas (Escape).
    pub leave_seq: u64,
}

#[derive(Clone, Debug)]
pub struct AppState {
    /// The scenario, the run on show and their revisions.
    pub doc: Doc,
    /// The view fold at the playhead, of the run on show.
    pub fold: Rc<StepFold>,
    /// The canvas as a scene, built from the fold, the layout and the viewport.
    pub scene: Rc<Scene>,
    pub play: Playback,
    pub view: ViewState,
    pub drag: Option<Drag>,
    /// The selected object: the canvas's focus.
    pub selection: Option<ObjectId>,
    pub focus: CanvasFocus,
    pub chrome: Chrome,
    pub config: ConfigForm,
    /// The teaching layer: preset, mode, quiz, "why?" (kept across loads).
    pub teach: TeachState,
    /// Undo history, notice, autosave status (kept across loads).
    pub edits: Edits,
    /// Compare mode's second configuration, when on.
    pub compare: Option<Compare>,
    runner: RunnerRef,
    /// Run requests not yet handed to the runner.
    outbox: Vec<RunRequest>,
    /// A scenario a drag is about to edit, not yet handed to the runner (`Runner::prime`).
    prime: Option<(u64, Rc<crate::engine::Scenario>)>,
    after_run: AfterRun,
    /// The playhead of the run on show, kept from the first request after it: a cancel brings the
    /// playhead back with the run (a load had moved it to the new scenario's end).
    step_on_show: Option<usize>,
    /// What `fold` was made for: (run revision, scenario revision, step).
    fold_key: (u64, usize),
    /// The run on show's saved fold states, for `fold`.
    fold_views: FoldViews,
    /// What `scene` was made for.
    scene_key: Option<SceneKey>,
    /// A worker's answer being installed in stages (`staged`), the run on show still shown.
    staged: Option<staged::Staged>,
    /// An `Action::ShowStep` is out: the playhead's fold and scene wait for it (`step_later`).
    step_later: bool,
    /// The newest revision any compare document (B) asked for: a new B counts on from it, so that
    /// the answer to an old B's run still out is stale for the new one.
    compare_revisions: u64,
}

/// The scenes (in elements) that a wheel, pinch or pan gesture shows moved until it rests
/// ([`AppState::previews`]); smaller ones are built at each step, which keeps up with it (20
/// elements: every frame).
pub const PREVIEW_FROM_ELEMENTS: usize = 64;

impl AppState {
    /// An empty state on `runner`, `width_px` wide; open something with [`AppState::dispatch`]
    /// (`state::open` has the start-ups: a hash, the autosave).
    pub fn new(width_px: f64, runner: Rc<dyn Runner>) -> AppState {
        let doc = Doc::empty();
        let fold = Rc::new(StepFold::new(&doc.shown_scenario, &doc.run, 0));
        let view = ViewState::new(width_px);
        let mut s = AppState {
            doc,
            fold,
            scene: Rc::default(),
            play: Playback::new(0),
            view,
            drag: None,
            selection: None,
            focus: CanvasFocus::default(),
            chrome: Chrome::default(),
            config: ConfigForm::default(),
            teach: TeachState::default(),
            edits: Edits::default(),
            compare: None,
            runner: RunnerRef(runner),
            outbox: Vec::new(),
            prime: None,
            after_run: AfterRun::default(),
            step_on_show: None,
            fold_key: (0, 0),
            fold_views: FoldViews::default(),
            scene_key: None,
            staged: None,
            step_later: false,
            compare_revisions: 0,
        };
        s.refresh();
        s
    }

    /// The one way in: reduces `action`, hands run requests to the runner (an answer at once is
    /// reduced too), records the undo step and refreshes the fold at the playhead.
    pub fn dispatch(&mut self, action: Action) {
        let playhead_only = self.only_moves_playhead(&action);
        // Any other action acts on the playhead's step shown (its fold, the selection still
        // there): as if each move before it had been shown at once (`step_later`).
        if !playhead_only && self.step_later {
            self.refresh();
        }
        let kind = self.edit_kind(&action);
        let before = self.edits.before(self.snapshot(kind.label.clone()));
        self.reduce(action);
        self.sync_compare();
        self.drain();
        let preset = self.teach.preset.as_ref().map(|p| p.id.clone());
        let title = self.title();
        let compare = self.compare.as_ref().map(Compare::kept);
        let now = (&self.doc.scenario, preset.as_deref(), compare.as_ref());
        self.edits.after(before, kind, self.drag.is_some(), now, || title);
        // A large scene's playhead is shown once the moves queued meanwhile are in (`step_later`).
        if playhead_only && self.show_step_later() {
            return;
        }
        self.refresh();
    }

    fn reduce(&mut self, action: Action) {
        // The quiz holds the playhead before a deciding step until it is answered.
        let Some(action) = self.quiz_stop(action) else { return };
        // A lab page locked editing: the student cannot change the scenario.
        if self.teach.locked && host::refused_when_locked(&action) {
            return;
        }
        match action {
            Action::Load { scenario, step, banner } => self.load_scenario(*scenario, step, banner),
            Action::Fragment(f) => {
                self.chrome.banners.clear();
                self.open_fragment(*f);
            }
            Action::Resize { width_px, height_px } => {
                self.view.resize(width_px, height_px, &self.doc.layout);
                self.fit_lanes();
            }
            Action::Play(a) => self.play.reduce(a, self.steps()),
            Action::View(a) => self.view.reduce(a, &self.doc.layout),
            Action::Select(sel) => self.select(sel),
            Action::Canvas(a) => self.canvas_action(a),
            Action::Drag(a) => self.reduce_drag(a),
            Action::Edit(a) => self.reduce_edit(a),
            Action::Editor(a) => self.reduce_editor(a),
            Action::OpenMenu(m) => self.open_menu(m),
            Action::CloseMenu => self.chrome.menu = None,
            Action::Config(edit) => self.config_edit(edit),
            Action::Panel(a) => self.chrome.reduce(a),
            Action::Key(k) => {
                if let Some(a) = keys::key_action(&k, &self.key_context()) {
                    self.reduce(a);
                }
            }
            Action::Undo => self.travel(true),
            Action::Redo => self.travel(false),
            Action::DismissNotice => self.edits.notice = None,
            Action::AutosaveFailed(e) => self.autosave_failed(e),
            Action::RunFinished(f) => self.run_finished(f),
            Action::RunArrived(a) => self.run_arrived(a),
            Action::InstallStage { revision } => self.install_stage(revision),
            // (`dispatch` shows the playhead's step after it.)
            Action::ShowStep => {}
            Action::CancelRun => self.cancel_run(),
            Action::Teach(a) => self.reduce_teach(a),
            Action::Compare(a) => self.reduce_compare(a),
        }
    }

    /// Leaves a run request for the runner (the reducer never runs the engine).
    fn request(&mut self, request: RunRequest) {
        if request.slot == RunSlot::Compare {
            self.compare_revisions = self.compare_revisions.max(request.revision);
        }
        if request.slot == RunSlot::Main {
            // Made stale by this request: its memory goes now.
            self.staged = None;
        }
        if request.slot == RunSlot::Main && self.step_on_show.is_none() {
            self.step_on_show = Some(self.play.step);
        }
        self.outbox.push(request);
    }

    /// Hands the requests to the runner; answers it gives at once are reduced now.
    fn drain(&mut self) {
        if let Some((revision, scenario)) = self.prime.take() {
            self.runner.0.prime(revision, &scenario);
        }
        while !self.outbox.is_empty() {
            let runner = self.runner.0.clone();
            for request in std::mem::take(&mut self.outbox) {
                if let Some(answer) = runner.submit(request) {
                    self.reduce(Action::RunFinished(answer));
                }
            }
        }
    }

    /// The Cancel button of a long run: the runner drops what is out, both documents go back to
    /// the runs on show.
    fn cancel_run(&mut self) {
        self.runner.0.cancel();
        self.staged = None;
        let a = self.doc.cancel();
        if let Some(step) = self.step_on_show.take().filter(|_| a) {
            self.play.place(step, self.steps());
        }
        let b = self.compare.as_mut().is_some_and(|c| c.doc.cancel());
        if a || b {
            self.after_run = AfterRun::default();
            self.chrome.banners.push("The run was cancelled; the previous result is on show.".to_string());
        }
    }

    /// A worker's answer, read here. Up to `staged::STAGED_MAX_ITEMS` (no proposal waiting, a
    /// runner that defers) it is installed in stages while the run on show stays shown
    /// (`staged`). Otherwise an answer to be installed on show (the main document's newest
    /// request) is read after the run on show, its layout, its fold and its scene are let go of,
    /// since the install makes them anew (at 100,000 elements the new run then takes the old
    /// one's memory instead of growing the page's); if it is not installed after all (unreadable,
    /// refused) they are made again.
    fn run_arrived(&mut self, arrived: RunArrived) {
        if arrived.slot == RunSlot::Compare {
            return self.run_finished(arrived.read(None).0);
        }
        // Stale: dropped unread.
        if arrived.revision != self.doc.requested {
            return;
        }
        if self.stages(&arrived) {
            return self.stage_arrived(arrived);
        }
        // What shows nothing, as before the first run: in the old parts' place while it is read.
        let blank = Doc::empty();
        // (With the rows' anchor on show: the answer of an edit keeps its windows' rows.)
        let blank_layout = Rc::new(RunLayout { row_phase: self.doc.layout.row_phase, ..(*blank.layout).clone() });
        self.doc.layout = blank_layout.clone();
        self.fold = Rc::new(StepFold::new(&blank.shown_scenario, &blank.run, 0));
        self.scene = Rc::default();
        // `refresh` makes the fold and the scene again.
        self.fold_key = (u64::MAX, usize::MAX);
        self.scene_key = None;
        // The run on show goes too, where nothing else holds it and no proposal waits for this
        // answer (refused, the run stays): the new run is read into its memory, which a
        // 100,000-element page would otherwise grow by (freed blocks too scattered for the new
        // run's lists).
        let spare = match self.doc.proposed_field() {
            None => match Rc::try_unwrap(std::mem::replace(&mut self.doc.run, blank.run.clone())) {
                Ok(run) => Some(run),
                Err(shared) => {
                    self.doc.run = shared;
                    None
                }
            },
            Some(_) => None,
        };
        let (answer, spare) = arrived.read(spare);
        if let Some(run) = spare {
            // Not read into (the worker's error): still the run on show.
            self.doc.run = Rc::new(run);
        }
        self.run_finished(answer);
        if Rc::ptr_eq(&self.doc.run, &blank.run) {
            // Read into, and then unreadable: nothing of the run on show is left. The page shows
            // no run, as before the first one, and asks for the scenario's again (the reducer
            // runs no engine).
            self.doc.shown_scenario = blank.shown_scenario.clone();
            let request = self.doc.touch();
            self.request(request);
        }
        if Rc::ptr_eq(&self.doc.layout, &blank_layout) {
            // (Nothing on show: the anchor waits for the run asked for again.)
            let layout = RunLayout::new(&self.doc.shown_scenario, &self.doc.run);
            self.doc.layout = Rc::new(RunLayout { row_phase: blank_layout.row_phase, ..layout });
            self.fit_lanes();
        }
    }

    /// The rows of the layout on show, for the next run's windows to keep: an edit's do, a
    /// scenario opened gets its own (`RunLayout::after`).
    fn kept_rows(&self) -> Option<RowPhase> {
        self.doc.layout.row_phase.filter(|_| !self.after_run.refit)
    }

    fn run_finished(&mut self, answer: RunFinished) {
        self.run_finished_with(answer, None);
    }

    /// Installs `answer` (with its layout when it was made already: `staged`).
    fn run_finished_with(&mut self, answer: RunFinished, layout: Option<Rc<RunLayout>>) {
        if answer.slot == RunSlot::Compare {
            let Some(c) = &mut self.compare else { return };
            match c.doc.finish(answer) {
                Finished::Failed(e) => self.chrome.banners.push(format!("The engine run of B failed: {e}")),
                Finished::Installed { .. } => self.play.place(self.play.step, self.steps()),
                Finished::Stale | Finished::Refused { .. } => {}
            }
            return;
        }
        match self.doc.finish_with(answer, layout, self.kept_rows()) {
            Finished::Stale => {}
            Finished::Failed(e) => self.chrome.banners.push(format!("The engine run failed: {e}")),
            Finished::Refused { field, message } => {
                self.config.refuse(field, message, &self.doc.scenario);
                // The candidate was asked for while another run was out (a drop's, in a worker):
                // that answer is stale now, and the run on show is not the scenario's. Ask again.
                if !Rc::ptr_eq(&self.doc.scenario, &self.doc.shown_scenario) {
                    let request = self.doc.touch();
                    self.request(request);
                }
            }
            Finished::Installed { .. } => {
                self.step_on_show = None;
                let steps = self.steps();
                self.play.place(self.play.step, steps);
                let after = std::mem::take(&mut self.after_run);
                if after.refit {
                    self.view.fit(&self.doc.layout);
                }
                self.view.rescale(&self.doc.layout);
                self.fit_lanes();
                if after.announce
                    && let Some(e) = &self.doc.run.error
                {
                    self.chrome.banners.push(format!(
                        "Flink would fail on this scenario ({} phase): {}: {}",
                        e.phase, e.class, e.message
                    ));
                }
                self.teach.on_run(&self.doc.shown_scenario, &self.doc.run, self.play.step);
            }
        }
    }

    /// The lanes fill the canvas box's height at the canvas's scale (2 units spare: no scroll bar).
    fn fit_lanes(&mut self) {
        let units = self.view.box_px.1 / self.view.scale - 2.0;
        if self.view.box_px.1 > 0.0 {
            Rc::make_mut(&mut self.doc.layout).fit_height(units);
        }
    }

    /// The fold at the playhead follows the run and the step; the selection follows what exists;
    /// the scene follows all of it and the view.
    fn refresh(&mut self) {
        // The playhead's step is shown now: a `ShowStep` still out changes nothing.
        self.step_later = false;
        let lecture = self.teach.mode == crate::ui::action::Mode::Lecture;
        let comparing = self.compare.is_some();
        if lecture != self.view.lecture || comparing != self.view.comparing {
            self.view.lecture = lecture;
            self.view.comparing = comparing;
            self.view.rescale(&self.doc.layout);
            self.fit_lanes();
        }
        let key = (self.doc.shown, self.play.step);
        if key != self.fold_key {
            let view = self.fold_views.at(&self.doc.run, self.play.step);
            self.fold = Rc::new(StepFold::with_view(&self.doc.shown_scenario, &self.doc.run, view));
            self.fold_key = key;
        }
        self.selection = self.selection.filter(|s| self.exists(s));
        let scene_key = SceneKey {
            fold: self.fold_key,
            revision: self.doc.revision,
            viewport: self.view.viewport,
            scale: self.view.scale,
            two_d: self.chrome.two_d,
            processing_axis: self.view.on_processing_axis(&self.doc.layout),
            // A pan draws nothing of its own (the host's cursor says it): its press, moves and
            // release build nothing (`previews`).
            drag: self.drag.filter(|d| !matches!(d, Drag::Pan { .. })),
            selection: self.selection,
            animate: self.play.animate,
            anim_seq: self.play.anim_seq,
            speed: self.play.speed,
            values: self.teach.values,
            stretch: self.doc.layout.lanes.first().map_or(1.0, |l| l.stretch),
        };
        let scene_changed = self.scene_key.as_ref() != Some(&scene_key) && !self.previews(&scene_key);
        if scene_changed {
            let input = scene_key.input(&self.doc, &self.fold, self.view.snap_unit());
            // A drag move whose run is still out (a worker's run): only the dragged marble moves
            // (`SceneInput::drag_moved`); the run's answer builds in full.
            let moved = self
                .scene_key
                .as_ref()
                .filter(|_| !self.doc.is_current() && self.compare.is_none())
                .filter(|old| **old == SceneKey { revision: old.revision, ..scene_key.clone() })
                .and_then(|_| input.drag_moved(&self.scene));
            // A press that starts an element's drag: the two marbles whose selection and Tab stop
            // change (`SceneInput::pressed`).
            let pressed = || {
                self.scene_key
                    .as_ref()
                    .filter(|_| self.compare.is_none())
                    .filter(|old| {
                        old.drag.is_none()
                            && **old == SceneKey { drag: None, selection: old.selection, ..scene_key.clone() }
                    })
                    .and_then(|_| input.pressed(&self.scene))
            };
            // The drop of an element dragged along event time, its run still out: the last move's
            // scene with the marble at its dropped time (`SceneInput::dropped`).
            let dropped = || {
                let old = self.scene_key.as_ref().filter(|_| !self.doc.is_current() && self.compare.is_none())?;
                match old.drag {
                    Some(Drag::Element { index, arrival: false, .. })
                        if *old == SceneKey { revision: old.revision, drag: old.drag, ..scene_key.clone() } =>
                    {
                        input.dropped(&self.scene, index)
                    }
                    _ => None,
                }
            };
            let patched = moved.or_else(pressed).or_else(dropped);
            self.scene = Rc::new(match patched {
                Some(scene) => scene,
                None => {
                    // The old scene goes before the new one is built (at 100,000 elements 30-50 MB).
                    self.scene = Rc::default();
                    input.build()
                }
            });
            self.scene_key = Some(scene_key.clone());
        }
        self.refresh_compare(scene_key, scene_changed);
    }

    /// Whether the scene on show stays as it is, shown moved to `key`'s viewport
    /// ([`AppState::view_preview`]): a wheel, pinch or pan gesture is under way over a scene
    /// large enough that a build per step falls behind the gesture's steps (at 250 elements a
    /// build and its render took 50-75 ms a step; at 2,000, drawn in SVG, 240; at 100,000,
    /// drawn on the canvas, 200), and nothing but the viewport changed.
    /// The scene is built at the viewport when the gesture rests or ends (`ViewAction::Settle`).
    fn previews(&self, key: &SceneKey) -> bool {
        self.view.gesture
            && self.compare.is_none()
            && !key.two_d
            && self.scene.element_count >= PREVIEW_FROM_ELEMENTS
            && self.scene_key.as_ref().is_some_and(|old| {
                old.viewport.width_px == key.viewport.width_px
                    && *old == SceneKey { viewport: old.viewport, ..key.clone() }
            })
    }

    /// While a view gesture lasts ([`AppState::previews`]), how the scene on show, drawn at an
    /// earlier viewport, is moved onto the current one: `x ↦ k·x + dx` (canvas units, from the
    /// scene's left edge). `None` when the scene is drawn at the viewport.
    pub fn view_preview(&self) -> Option<(f64, f64)> {
        let drawn = self.scene_key.as_ref()?.viewport;
        let now = self.view.viewport;
        (drawn != now).then(|| {
            let k = drawn.span_millis() / now.span_millis();
            (k, (drawn.start_millis - now.start_millis) / now.span_millis() * now.width_px)
        })
    }

    /// The frame clock's step while playing (`hooks::use_app` calls it when a tick moves the playhead).
    pub fn clock_step(&mut self) {
        let steps = self.steps();
        self.play.clock_step(steps);
        self.refresh();
    }

    /// The scenario's title: the preset's, or the scenario's name.
    pub fn title(&self) -> String {
        match &self.teach.preset {
            Some(p) => p.title.clone(),
            None if self.doc.scenario.name.is_empty() => "untitled scenario".into(),
            None => self.doc.scenario.name.clone(),
        }
    }

    /// The document as an undo step would restore it.
    pub fn snapshot(&self, label: std::borrow::Cow<'static, str>) -> Snapshot {
        Snapshot {
            scenario: self.doc.scenario.clone(),
            compare: self.compare.as_ref().map(Compare::kept),
            preset: self.teach.preset.clone(),
            values: self.teach.values,
            step: self.play.step,
            label,
        }
    }

    /// The run-status test hook's state (`running`, `done`, `error`) and revision (contract §2).
    /// In compare mode both runs count: `running` while either is out, and the revision is the
    /// sum of both documents' (it grows with every request of either).
    pub fn run_status(&self) -> (&'static str, u64) {
        let b = self.compare.as_ref().map(|c| &c.doc);
        let state = if !self.doc.is_current() || b.is_some_and(|b| !b.is_current()) {
            "running"
        } else if self.doc.failure.is_some() || b.is_some_and(|b| b.failure.is_some()) {
            "error"
        } else {
            "done"
        };
        (state, self.doc.requested + b.map_or(0, |b| b.requested))
    }

    /// Changes whenever the input's items, arrivals or partitions may have changed: with every
    /// commit and every revision, except while an element is dragged along event time (its moves
    /// change one timestamp), so that what is read from the whole input (the arrival strip's
    /// arrivals and partitions) is not read again for each move of a large stream.
    pub fn input_version(&self) -> (u64, u64) {
        let moving_ts = matches!(self.drag, Some(Drag::Element { arrival: false, .. }));
        (self.doc.commits, if moving_ts { u64::MAX } else { self.doc.revision })
    }

    /// The runner's name (the run-status hook says which one runs).
    pub fn runner_name(&self) -> &'static str {
        self.runner.0.name()
    }

    /// Whether the autosave's fragment waits for the scenario's link text, made in slices
    /// ([`fragment::ZJob`](crate::ui::fragment::ZJob)) rather than in the task of the change.
    pub fn autosave_waits(&self) -> bool {
        !crate::ui::fragment::z_at_hand(&self.doc.scenario) && self.teach.pristine_preset(&self.doc.scenario).is_none()
    }

    /// The autosave fragment of what is on show.
    pub fn autosave_fragment(&self) -> String {
        let mut out = self.teach.autosave_fragment(&self.doc.scenario, self.play.step, self.steps());
        out.push_str(&self.compare_param());
        out
    }

    /// Compare mode's link parameter (`&cmp=…`), or nothing.
    pub fn compare_param(&self) -> String {
        self.compare
            .as_ref()
            .map(|c| crate::ui::fragment::encode_compare(&c.doc.scenario, c.follow))
            .unwrap_or_default()
    }
}
