//! Opening things: the start-up (a link, the autosave, the default), a link pasted into the tab,
//! a course preset, an example, an imported file; undo and redo, which open an earlier document;
//! and the teaching layer's reducer, whose loads and modes touch the rest of the state.

use std::borrow::Cow;
use std::rc::Rc;

use crate::engine::Scenario;
use crate::engine::scenario::InputItem;
use crate::teach::{self, Preset};
use crate::ui::action::{
    Action, ConfigEdit, DragAction, DragStart, EditAction, EditorAction, Mode, PlayAction, TeachAction,
};
use crate::ui::fragment::{self, Fragment, FragmentError, StepParam};
use crate::ui::storage::MAX_AUTOSAVE_CHARS;

use super::AppState;
use super::keys;
use super::teach::{Imported, LECTURE_SPEED, QuizState, clip, parse_import, parse_params};
use super::undo::{AutosaveStatus, EditGroup, EditKind, Notice, Snapshot};

/// The scenario shown when the URL names none (`teach::presets::default_scenario`).
fn default_scenario() -> Scenario {
    teach::presets::default_scenario()
}

/// `None`: all input processed, before the end of input (where dragging the watermark shows
/// the most); `End`: after the end of input.
fn resolve_step(step: Option<StepParam>, scenario: &Scenario) -> usize {
    let steps = scenario.input.len() + 1;
    match step {
        Some(StepParam::End) => steps,
        Some(StepParam::At(n)) => n.min(steps),
        None => scenario.input.len(),
    }
}

impl AppState {
    /// The state for a location hash, with the default scenario underneath, on the main thread.
    pub fn from_hash(hash: &str, width_px: f64) -> AppState {
        AppState::from_hash_and_autosave(hash, Ok(None), width_px)
    }

    /// [`AppState::start`] on the main-thread runner.
    pub fn from_hash_and_autosave(hash: &str, saved: Result<Option<String>, String>, width_px: f64) -> AppState {
        AppState::start(hash, saved, width_px, Rc::new(crate::ui::runner::MainThreadRunner))
    }

    /// The start-up: the URL's scenario when it names one (a different autosave is then one undo
    /// away), otherwise the autosave (`saved`, as the storage read it), otherwise the default.
    pub fn start(
        hash: &str,
        saved: Result<Option<String>, String>,
        width_px: f64,
        runner: Rc<dyn crate::ui::runner::Runner>,
    ) -> AppState {
        let params = parse_params(hash);
        let parsed = fragment::parse(hash);
        let link_failed = parsed.is_err();
        let names_scenario = params.preset.is_some() || parsed.map_or(true, |f| f.scenario.is_some());
        let mode = params.mode.unwrap_or_default();
        let mut s = AppState::new(width_px, runner);
        s.dispatch(Action::Load { scenario: Box::new(default_scenario()), step: None, banner: None });
        s.edits.autosave = match (&saved, mode) {
            (Err(e), _) => AutosaveStatus::Off(e.clone()),
            (Ok(_), Mode::Embed) => AutosaveStatus::Embed,
            (Ok(_), _) => AutosaveStatus::On,
        };
        // Embeds start from their link every time (they do not write the autosave either).
        let text = match saved {
            Ok(Some(text)) if mode != Mode::Embed => Some(text),
            _ => None,
        };
        let autosave_problem = text.as_deref().and_then(|t| s.load_autosave(t).err());
        let autosaved = (autosave_problem.is_none() && text.is_some()).then(|| s.snapshot("open the link".into()));
        s.dispatch(Action::Teach(TeachAction::OpenHash(hash.to_string())));
        s.edits.history = Rc::new(super::undo::Edits::empty_history());
        s.edits.notice = None;
        if let Some(e) = autosave_problem {
            s.chrome.banners.push(format!(
                "Your autosaved scenario could not be restored: {e}. Showing “{}” instead; the autosave is replaced at your next change.",
                s.title()
            ));
        }
        if params.local && autosaved.is_none() && !names_scenario {
            s.chrome.banners.push(
                "This link's stream was too large to travel in a link: its scenario is kept only in the browser that \
                 made the link. Ask for the scenario file (Export: JSON): Import… opens it."
                    .to_string(),
            );
        }
        let preset = s.teach.preset.as_ref().map(|p| p.id.clone());
        match autosaved {
            Some(saved)
                if names_scenario
                    && !link_failed
                    && saved.differs_from(
                        &s.doc.scenario,
                        preset.as_deref(),
                        s.compare.as_ref().map(super::compare::Compare::kept).as_ref(),
                    ) =>
            {
                s.edits.record_start(saved, &s.doc.scenario);
                s.edits.notice = Some(Notice {
                    text: format!("Opened the link's scenario “{}” instead of your autosaved one.", s.title()),
                    undo: true,
                });
            }
            Some(_) if !names_scenario => {
                s.edits.notice = Some(Notice {
                    text: format!(
                        "Restored “{}”, the scenario you were working on (saved in this browser).",
                        s.title()
                    ),
                    undo: false,
                });
            }
            _ => {}
        }
        // Nothing has changed yet: the URL and the autosave follow the next commit.
        s.doc.commits = 0;
        s
    }

    /// Loads an autosave (the fragment `TeachState::autosave_fragment` wrote).
    fn load_autosave(&mut self, text: &str) -> Result<(), String> {
        if text.len() > MAX_AUTOSAVE_CHARS {
            return Err(format!("it is {} characters long; the limit is {MAX_AUTOSAVE_CHARS}", text.len()));
        }
        let params = parse_params(text);
        let parsed = fragment::parse(text).map_err(|e| e.0)?;
        let preset = match params.preset.as_deref() {
            Some(id) => {
                Some(teach::presets::by_id(id).ok_or_else(|| format!("there is no preset \"{}\"", clip(id, 40)))?)
            }
            None => None,
        };
        match (parsed.scenario, preset) {
            (Some(scenario), preset) => {
                self.dispatch(Action::Load { scenario: Box::new(scenario), step: parsed.step, banner: None });
                if let Some(p) = preset {
                    self.teach.set_preset(&p);
                }
            }
            (None, Some(p)) => {
                self.load_preset(&p, parsed.step);
                self.drain();
                self.refresh();
            }
            (None, None) => return Err("it names no scenario".into()),
        }
        if let Some(b) = fragment::parse_compare(text).map_err(|e| e.0)? {
            let follow = b.input.is_empty();
            self.open_compare(b, follow);
            self.drain();
            self.refresh();
        }
        Ok(())
    }

    /// Shows another scenario (a load, a link, a file): everything about the old one goes; the
    /// view modes, the panel, the speed, the teaching layer and the history stay.
    pub(super) fn load_scenario(&mut self, scenario: Scenario, step: Option<StepParam>, banner: Option<String>) {
        self.chrome.banners.clear();
        // A scenario from elsewhere (a menu, an import): no longer the preset's.
        self.teach.forget_preset();
        self.teach.why = None;
        self.close_compare();
        self.replace_scenario(scenario, step);
        self.after_run = super::AfterRun { refit: true, announce: true };
        self.chrome.banners.extend(banner);
    }

    /// The document is `scenario` at `step`: the old one's selection, drag, editor and playback go.
    fn replace_scenario(&mut self, scenario: Scenario, step: Option<StepParam>) {
        let step = resolve_step(step, &scenario);
        let request = self.doc.replace(Rc::new(scenario));
        self.request(request);
        self.play.place(step, self.doc.steps());
        self.play.playing = false;
        self.selection = None;
        self.drag = None;
        self.chrome.menu = None;
        self.chrome.editor = None;
        self.config = Default::default();
    }

    pub(super) fn open_fragment(&mut self, fragment: Result<Fragment, FragmentError>) {
        match fragment {
            Ok(Fragment { scenario: Some(s), step }) => self.replace_and_refit(s, step),
            Ok(Fragment { scenario: None, step: Some(step) }) => {
                self.play.place(resolve_step(Some(step), &self.doc.scenario), self.doc.steps());
            }
            Ok(Fragment { scenario: None, step: None }) => {}
            // The scenario on show stays (the default at start-up, the user's work later).
            Err(e) => {
                self.chrome.banners.push(format!("Could not open the link: {e}. Showing “{}” instead.", self.title()))
            }
        }
    }

    fn replace_and_refit(&mut self, scenario: Scenario, step: Option<StepParam>) {
        self.replace_scenario(scenario, step);
        self.after_run = super::AfterRun { refit: true, announce: true };
    }

    fn load_preset(&mut self, p: &Preset, step: Option<StepParam>) {
        let step = step.unwrap_or(StepParam::At(p.default_step));
        self.load_scenario(p.scenario.clone(), Some(step), None);
        self.teach.set_preset(p);
        // A preset that shows two configurations opens in compare mode.
        if let Some(b) = &p.compare {
            self.open_compare(b.clone(), b.input.is_empty());
        }
    }

    /// Opens a location hash: `preset=`, `mode=`, `quiz=1` and the scenario/step parameters.
    fn open_hash(&mut self, hash: &str) {
        let params = parse_params(hash);
        let parsed = fragment::parse(hash);
        let has_scenario = parsed.as_ref().map_or(true, |f| f.scenario.is_some());
        // A broken link changes nothing: the scenario on show keeps its preset too.
        let opens = parsed.as_ref().is_ok_and(|f| f.scenario.is_some());
        let step = parsed.as_ref().ok().and_then(|f| f.step);
        let preset = params.preset.as_deref().map(|id| (id, teach::presets::by_id(id)));
        match &preset {
            Some((_, Some(p))) if !has_scenario => self.load_preset(p, step),
            _ => {
                if opens {
                    self.teach.forget_preset();
                }
                self.chrome.banners.clear();
                self.open_fragment(parsed);
                // A copied link: the scenario as edited, with the preset's title and units.
                if opens && let Some((_, Some(p))) = &preset {
                    self.teach.set_preset(p);
                }
            }
        }
        // Compare mode's second configuration: the link's, or none when the link opens a scenario.
        match fragment::parse_compare(hash) {
            Ok(Some(b)) if opens || matches!(preset, Some((_, Some(_)))) => {
                let follow = b.input.is_empty();
                self.open_compare(b, follow);
            }
            Ok(_) if opens => self.close_compare(),
            Ok(_) => {}
            Err(e) => self.chrome.banners.push(format!("Could not open the link's second configuration: {e}.")),
        }
        if let Some((id, None)) = &preset {
            let ids = teach::presets::ids().join(", ");
            self.chrome.banners.push(format!("There is no preset \"{}\" (presets: {ids}).", clip(id, 40)));
        }
        for e in &params.errors {
            self.chrome.banners.push(format!("Could not read the link: {e}."));
        }
        self.set_mode(params.mode.unwrap_or_default());
        self.teach.why = None;
        self.teach.quiz = None;
        if params.quiz {
            self.toggle_quiz();
        }
    }

    fn import(&mut self, name: &str, text: &str) {
        match parse_import(text) {
            Ok(Imported::Scenario(s)) => {
                self.load_scenario(*s, None, None);
                self.teach.import_error = None;
            }
            Ok(Imported::Preset(p)) => {
                self.load_preset(&p, None);
                self.teach.import_error = None;
            }
            Err(e) => self.teach.import_error = Some(format!("{}: {e}", clip(name, 60))),
        }
    }

    /// Lecture mode hides the side panel (configuration); leaving it brings the panel back.
    fn set_mode(&mut self, m: Mode) {
        let was = self.teach.mode;
        if m == Mode::Lecture && was != Mode::Lecture {
            self.chrome.panel_open = false;
            // A hall follows slower animation: at most half speed while lecturing.
            self.teach.speed_before_lecture = Some(self.play.speed);
            self.play.speed = self.play.speed.min(LECTURE_SPEED);
        } else if was == Mode::Lecture && m != Mode::Lecture {
            self.chrome.panel_open = true;
            if let Some(speed) = self.teach.speed_before_lecture.take() {
                self.play.speed = speed;
            }
        }
        self.teach.mode = m;
        self.teach.blackout = false;
        self.play.playing = false;
    }

    fn toggle_quiz(&mut self) {
        if self.teach.quiz.take().is_none() {
            let mut q = QuizState::new(&self.doc.shown_scenario, &self.doc.run, self.teach.values);
            if self.doc.is_current() {
                q.asking = q.open_question_at(self.play.step);
            } else {
                // The questions are made again from the scenario's run when it is back.
                q.ask_when_made = true;
            }
            self.play.playing = false;
            self.teach.quiz = Some(q);
        }
    }

    /// The teaching reducer.
    pub(super) fn reduce_teach(&mut self, action: TeachAction) {
        match action {
            TeachAction::OpenHash(hash) => self.open_hash(&hash),
            TeachAction::LoadPreset(id) => match teach::presets::by_id(&id) {
                Some(p) => self.load_preset(&p, None),
                None => self.chrome.banners.push(format!("There is no preset \"{}\".", clip(&id, 40))),
            },
            TeachAction::LoadExample(id) => match teach::presets::example(&id) {
                Some(e) => self.load_scenario(e.scenario, None, None),
                None => self.chrome.banners.push(format!("There is no example \"{}\".", clip(&id, 40))),
            },
            TeachAction::SetMode(m) => self.set_mode(m),
            TeachAction::ToggleQuiz => self.toggle_quiz(),
            TeachAction::QuizSelect(i) => {
                if let Some(q) = &mut self.teach.quiz {
                    q.select(i);
                }
            }
            TeachAction::QuizSubmit => {
                if let Some(q) = &mut self.teach.quiz {
                    q.submit();
                }
            }
            TeachAction::Why(w) => self.teach.why = Some(w),
            TeachAction::CloseWhy => self.teach.why = None,
            TeachAction::ToggleBlackout => self.teach.blackout = !self.teach.blackout,
            TeachAction::Shared(b) => self.teach.share = Some(b),
            TeachAction::CloseShare => self.teach.share = None,
            TeachAction::Import { name, text } => self.import(&name, &text),
            TeachAction::ImportError(e) => {
                // A failed import closes its dialog, if one is open.
                if !e.is_empty() {
                    self.teach.import_open = None;
                }
                self.teach.import_error = (!e.is_empty()).then_some(e);
            }
            TeachAction::OpenImport(source) => {
                let seq = self.teach.import_open.as_ref().map_or(0, |(n, _)| n + 1);
                self.teach.import_error = None;
                self.teach.import_open = Some((seq, source));
            }
            TeachAction::CloseImport => self.teach.import_open = None,
            TeachAction::ImportStream { name, text, summary } => {
                self.teach.import_open = None;
                self.import(&name, &text);
                if self.teach.import_error.is_none() {
                    self.chrome.banners.push(summary);
                }
            }
            TeachAction::SetDialect(d) => self.teach.dialect = Some(d),
            TeachAction::Lock(on) => {
                self.teach.locked = on;
                if on {
                    // What was being changed stops here.
                    self.drag = None;
                    self.chrome.editor = None;
                    self.chrome.menu = None;
                }
            }
        }
    }

    /// The quiz's look at an action before the reducer: a step forward stops at an open question
    /// (`None`: held) or reveals after the verdict; other moves of the playhead close the question.
    pub(super) fn quiz_stop(&mut self, action: Action) -> Option<Action> {
        if self.teach.quiz.is_none() {
            return Some(action);
        }
        match action {
            Action::Play(PlayAction::Forward) => self.quiz_forward(),
            // The quiz walks step by step: play would run past the questions.
            Action::Play(PlayAction::TogglePlay) => self.quiz_forward().map(|_| Action::Play(PlayAction::Forward)),
            Action::Play(PlayAction::Last | PlayAction::SetStep(_) | PlayAction::Back | PlayAction::First) => {
                if let Some(q) = &mut self.teach.quiz {
                    q.leave();
                }
                Some(action)
            }
            other => Some(other),
        }
    }

    /// A step forward in quiz mode: stop to ask a question about the next step, or (after the
    /// verdict) reveal it.
    fn quiz_forward(&mut self) -> Option<Action> {
        let step = self.play.step;
        let q = self.teach.quiz.as_mut()?;
        if let Some(i) = q.asking {
            // Predict first: the step stays hidden until an answer is given.
            q.verdict.as_ref()?;
            if let Some(id) = q.questions.get(i).map(|q| q.id.clone()) {
                q.done.insert(id);
            }
            q.leave();
        }
        match q.open_question_at(step) {
            Some(next) => {
                q.asking = Some(next);
                None
            }
            None => Some(Action::Play(PlayAction::Forward)),
        }
    }

    /// Ctrl+Z (`back`) or Ctrl+Shift+Z: to the state before the last edit, or again after it
    /// (never in the middle of a drag).
    pub(super) fn travel(&mut self, back: bool) {
        if self.drag.is_some() {
            return;
        }
        let Some(label) = self.edits.peek(back) else { return };
        let current = self.snapshot(label);
        if let Some(snap) = self.edits.travel(back, current) {
            self.restore(snap);
        }
    }

    fn restore(&mut self, snap: Snapshot) {
        // Another scenario altogether (undoing a load): show all of it.
        let refit = snap.scenario.name != self.doc.scenario.name;
        let request = self.doc.replace(snap.scenario);
        self.request(request);
        let now = self.compare.as_ref().map(super::compare::Compare::kept);
        match snap.compare {
            Some((b, follow)) if now.as_ref().is_none_or(|(nb, nf)| *nf != follow || **nb != *b) => {
                self.open_compare((*b).clone(), follow)
            }
            Some(_) => {}
            None => self.close_compare(),
        }
        self.teach.preset = snap.preset;
        self.teach.values = snap.values;
        self.teach.why = None;
        self.config = Default::default();
        self.selection = self.selection.filter(|s| s.input().is_none_or(|i| i < self.doc.scenario.input.len()));
        self.chrome.editor = None;
        self.chrome.menu = None;
        self.play.playing = false;
        self.play.place(snap.step, self.steps());
        self.after_run.refit |= refit;
        self.edits.notice = None;
    }

    /// The outcome of an autosave write (only failures are reported, once).
    pub(super) fn autosave_failed(&mut self, e: String) {
        if self.edits.autosave == AutosaveStatus::On {
            self.chrome.banners.push(format!(
                "Autosave stopped: the browser refused to store the scenario ({e}). Your work is still in this tab; \
                 Copy link or JSON keeps it."
            ));
        }
        self.edits.autosave = AutosaveStatus::Off(e);
    }

    /// What an action does to the document, for the history (its label and group).
    pub(super) fn edit_kind(&self, action: &Action) -> EditKind {
        let input = &self.doc.scenario.input;
        let item = |i: usize| match input.get(i) {
            Some(InputItem::Element(e)) => format!("element {}", e.id),
            Some(_) => "the watermark item".into(),
            None => "an item".into(),
        };
        let selected = self.selection.and_then(|s| s.input());
        match action {
            Action::Load { scenario, .. } => EditKind::load(format!("load “{}”", clip(&scenario.name, 40))),
            Action::Fragment(_) | Action::Teach(TeachAction::OpenHash(_)) => EditKind::load("open a link"),
            Action::Teach(TeachAction::LoadPreset(id)) => EditKind::load(format!("load preset {}", clip(id, 40))),
            Action::Teach(TeachAction::LoadExample(id)) => EditKind::load(format!("load example {}", clip(id, 40))),
            Action::Teach(TeachAction::Import { name, .. } | TeachAction::ImportStream { name, .. }) => {
                EditKind::load(format!("import {}", clip(name, 40)))
            }
            Action::Drag(DragAction::Start { what: DragStart::Element(i), .. }) => {
                EditKind::edit(format!("move {}", item(*i)))
            }
            Action::Drag(DragAction::Start { what: DragStart::Watermark, .. }) => EditKind::edit("move the watermark"),
            Action::Drag(DragAction::Start { what: DragStart::Arrival(_), .. })
            | Action::Edit(EditAction::MoveInput { .. }) => EditKind::edit("reorder the input"),
            Action::Edit(EditAction::SetPartition { index, .. }) => {
                EditKind::edit(format!("move {} to another partition", item(*index)))
            }
            Action::Edit(EditAction::Nudge { .. }) => match selected {
                Some(i) => EditKind::grouped(format!("move {}", item(i)), EditGroup::Nudge(i)),
                None => EditKind::grouped("move the watermark", EditGroup::Bound),
            },
            Action::Edit(EditAction::AddElement { .. }) => EditKind::edit("add an element"),
            Action::Edit(EditAction::InsertWatermark { .. }) => EditKind::edit("insert a watermark item"),
            Action::Edit(EditAction::Delete(i)) => EditKind::edit(format!("delete {}", item(*i))),
            Action::Editor(EditorAction::Commit) => {
                EditKind::edit(self.chrome.editor.as_ref().map_or("edit".into(), |e| format!("edit {}", item(e.index))))
            }
            Action::Config(edit) => config_kind(edit.field(), matches!(edit, ConfigEdit::Text(..))),
            // A configuration candidate accepted after its run (a runner that answers later).
            Action::RunFinished(_) | Action::RunArrived(_) => match self.doc.proposed_field() {
                Some(field) => config_kind(field, false),
                None => EditKind::edit("edit"),
            },
            Action::Key(k) => match keys::key_action(k, &self.key_context()) {
                Some(a) => self.edit_kind(&a),
                None => EditKind::edit("edit"),
            },
            Action::Undo | Action::Redo => EditKind::travel(),
            Action::Compare(crate::ui::action::CompareAction::SetTvf(crate::ui::action::Side::A, _)) => {
                EditKind::edit("change the window TVF")
            }
            Action::Compare(crate::ui::action::CompareAction::SetTvfSpec(_)) => {
                EditKind::edit("change the TVF's sizes")
            }
            Action::Compare(_) => EditKind::edit("change the comparison"),
            Action::CancelRun => EditKind::edit("cancel the run"),
            _ => EditKind::edit("edit"),
        }
    }
}

fn config_kind(field: crate::ui::action::Field, typing: bool) -> EditKind {
    let label: Cow<'static, str> = format!("change the {}", field.name().replace('-', " ")).into();
    if typing { EditKind::grouped(label, EditGroup::Config(field)) } else { EditKind::edit(label) }
}
