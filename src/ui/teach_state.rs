//! Teaching and sharing state: the course preset on show, the layout mode (normal, embed,
//! lecture), predict-then-reveal quiz, the "why?" popover, blackout, share links and
//! scenario import. Pure like [`super::state`]: every change is a [`TeachAction`] applied by
//! [`AppState::apply_teach`], and the teaching modes see every [`Action`] first
//! ([`AppState::teach_before`]), so lecture keys and the quiz's stops are tested natively.
//!
//! ```text
//!  #preset=lab-6-2&mode=embed&step=3 ──OpenHash──▶ preset scenario at step 3, embed layout
//!  #z=<deflate>&step=4&preset=lab-6-2&mode=lecture   (a copied link: the scenario as edited,
//!                                                     the preset's title and units, the mode)
//!  quiz on:  StepForward at a playhead with an open question ──▶ ask (the playhead stays)
//!            answer ──QuizSubmit──▶ teach::check verdict ──StepForward──▶ reveal (step + 1)
//! ```

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::codegen::Dialect;
use crate::engine::time::Millis;
use crate::engine::trace::{ElemIdx, KeyId};
use crate::engine::{Run, Scenario, Window};
use crate::teach::{self, Preset, Question, Score, ValueFormat, Verdict};

use super::fragment::{self, Fragment, StepParam};
use super::state::{Action, AppState, KeyInput};

/// How much of the app is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Everything: configuration, outputs, charts, code.
    #[default]
    Normal,
    /// A lab page's iframe: canvas, playback and narration in 700×450.
    Embed,
    /// A lecture hall: large type, high contrast, presenter keys, no configuration.
    Lecture,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Normal, Mode::Embed, Mode::Lecture];

    /// The `mode=` spelling (`normal` is the default and never written).
    pub fn as_str(&self) -> &'static str {
        match self {
            Mode::Normal => "normal",
            Mode::Embed => "embed",
            Mode::Lecture => "lecture",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// The course preset the scenario came from (its title, goal and how to write its values).
#[derive(Clone, Debug, PartialEq)]
pub struct PresetInfo {
    pub id: String,
    pub title: String,
    pub goal: String,
    pub source: String,
    pub values: ValueFormat,
    pub default_step: usize,
    /// The preset's own scenario: the scenario on show is "the preset" while it is equal.
    pub scenario: Rc<Scenario>,
}

impl From<&Preset> for PresetInfo {
    fn from(p: &Preset) -> Self {
        PresetInfo {
            id: p.id.clone(),
            title: p.title.clone(),
            goal: p.goal.clone(),
            source: p.source.clone(),
            values: p.value_format,
            default_step: p.default_step,
            scenario: Rc::new(p.scenario.clone()),
        }
    }
}

/// What a "why?" explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhyTarget {
    /// An element, by its index in `run.elements`.
    Element(ElemIdx),
    Window {
        key: KeyId,
        window: Window,
    },
    Timer {
        key: KeyId,
        window: Window,
        time: Millis,
    },
}

/// The "why?" popover: its target and where it was asked (page CSS px).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WhyPopover {
    pub target: WhyTarget,
    pub x_px: f64,
    pub y_px: f64,
}

/// Predict, then reveal: the questions of the current run and the user's progress.
#[derive(Clone, Debug)]
pub struct QuizState {
    /// The scenario the questions were made from (they are remade when it changes; a click
    /// that re-runs the same scenario keeps them).
    pub scenario: Rc<Scenario>,
    pub questions: Rc<Vec<Question>>,
    /// The question on screen (an index into `questions`).
    pub asking: Option<usize>,
    /// The options picked so far (indices into the question's options).
    pub selected: Vec<usize>,
    /// The engine's verdict on the submitted answer, until the step is revealed.
    pub verdict: Option<Verdict>,
    pub score: Score,
    /// Ids of the questions answered (or revealed) in this run.
    pub done: BTreeSet<String>,
}

impl QuizState {
    fn new(scenario: &Rc<Scenario>, run: &Run, values: ValueFormat) -> QuizState {
        let questions = teach::Context::new(scenario, run).with_values(values).questions();
        QuizState {
            scenario: scenario.clone(),
            questions: Rc::new(questions),
            asking: None,
            selected: Vec::new(),
            verdict: None,
            score: Score::default(),
            done: BTreeSet::new(),
        }
    }

    /// The first question about input step `step` not answered yet.
    pub fn open_question_at(&self, step: usize) -> Option<usize> {
        self.questions.iter().position(|q| q.step == step && !self.done.contains(&q.id))
    }

    pub fn current(&self) -> Option<&Question> {
        self.asking.and_then(|i| self.questions.get(i))
    }

    /// The number of questions in the run.
    pub fn total(&self) -> usize {
        self.questions.len()
    }
}

/// What was last put on the clipboard (shown in a small box, so that it can be copied by hand
/// when the browser refuses the clipboard, e.g. inside an iframe).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareBox {
    /// `link` or `embed`.
    pub what: &'static str,
    pub text: String,
    /// Whether the clipboard took it.
    pub copied: bool,
}

/// The tabs of the outputs area.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputTab {
    #[default]
    Sinks,
    Charts,
    Code,
}

#[derive(Clone, Debug, Default)]
pub struct TeachState {
    pub preset: Option<Rc<PresetInfo>>,
    pub mode: Mode,
    /// How values are written (the preset's unit; plain otherwise).
    pub values: ValueFormat,
    pub why: Option<WhyPopover>,
    pub quiz: Option<QuizState>,
    pub blackout: bool,
    pub share: Option<ShareBox>,
    /// Why the last import failed (shown next to the import control; the scenario is kept).
    pub import_error: Option<String>,
    pub dialect: Option<Dialect>,
    pub output_tab: OutputTab,
    /// The outputs area is shown (normal mode).
    pub outputs_open: bool,
    /// The playback speed before lecture mode slowed it down (restored when leaving).
    pub speed_before_lecture: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TeachAction {
    /// Open a location hash: `preset=`, `mode=`, `quiz=1`, and the scenario/step parameters of
    /// [`super::fragment`].
    OpenHash(String),
    /// Load a course preset at its default step.
    LoadPreset(String),
    SetMode(Mode),
    ToggleQuiz,
    /// Pick option `i` (toggles it when several may be picked).
    QuizSelect(usize),
    QuizSubmit,
    Why(WhyPopover),
    CloseWhy,
    ToggleBlackout,
    Shared(ShareBox),
    CloseShare,
    /// The text of a file the user chose to import (a scenario, or a preset file).
    Import {
        name: String,
        text: String,
    },
    ImportError(String),
    SetDialect(Dialect),
    SetOutputTab(OutputTab),
    ToggleOutputs,
}

/// Lecture mode's default playback speed (animations run at half speed).
pub const LECTURE_SPEED: f64 = 0.5;

/// The keys the teaching modes handle (besides [`super::state::is_shortcut`]'s).
pub fn is_teach_shortcut(k: &KeyInput) -> bool {
    !k.ctrl && !k.in_field && matches!(k.key.as_str(), "PageDown" | "PageUp" | "b" | "B" | "." | "q")
        || (!k.ctrl && !k.in_field && k.key.len() == 1 && k.key.chars().all(|c| ('1'..='9').contains(&c)))
}

/// The teaching parameters of a location hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeachParams {
    pub preset: Option<String>,
    pub mode: Option<Mode>,
    pub quiz: bool,
    /// Problems to show in a banner (the rest of the link still opens).
    pub errors: Vec<String>,
}

/// Reads `preset=`, `mode=` and `quiz=` from a hash (with or without `#`); other parameters
/// are [`super::fragment`]'s.
pub fn parse_params(hash: &str) -> TeachParams {
    let mut out = TeachParams::default();
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    for part in hash.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        let shown: String = value.chars().take(40).collect();
        match name {
            "preset" => out.preset = Some(value.to_string()),
            "mode" => match Mode::parse(value) {
                Some(m) => out.mode = Some(m),
                None => out.errors.push(format!("mode must be embed, lecture or normal, not \"{shown}\"")),
            },
            "quiz" => out.quiz = matches!(value, "1" | "on" | "true" | ""),
            _ => {}
        }
    }
    out
}

impl TeachState {
    /// The preset, while the scenario on show is still exactly the preset's.
    pub fn pristine_preset(&self, scenario: &Scenario) -> Option<&PresetInfo> {
        self.preset.as_deref().filter(|p| *p.scenario == *scenario)
    }

    /// The teaching parameters a link carries after the scenario and step (`&preset=…&mode=…`).
    fn link_params(&self) -> String {
        let mut out = String::new();
        if let Some(p) = &self.preset {
            out.push_str(&format!("&preset={}", p.id));
        }
        if self.mode != Mode::Normal {
            out.push_str(&format!("&mode={}", self.mode.as_str()));
        }
        if self.quiz.is_some() {
            out.push_str("&quiz=1");
        }
        out
    }

    /// The fragment the address bar shows (without `#`): `preset=…&step=…` while the preset is
    /// untouched, the compressed scenario otherwise; then the mode and quiz.
    pub fn url_fragment(&self, scenario: &Scenario, step: usize, steps: usize) -> String {
        self.url_fragment_after(self.autosave_fragment(scenario, step, steps))
    }

    /// What the autosave keeps (without `#`): the address bar's fragment without the view (mode,
    /// quiz), so that a reload restores the scenario, its preset and the step.
    pub fn autosave_fragment(&self, scenario: &Scenario, step: usize, steps: usize) -> String {
        let param = step_param(step, steps);
        match self.pristine_preset(scenario) {
            Some(p) => format!("preset={}&step={}", p.id, step_text(param)),
            None => {
                let preset = self.preset.as_ref().map(|p| format!("&preset={}", p.id)).unwrap_or_default();
                format!("{}{preset}", fragment::encode_z(scenario, param))
            }
        }
    }

    /// The address bar's fragment from the autosave's: plus the mode and quiz.
    pub fn url_fragment_after(&self, autosave_fragment: String) -> String {
        let mut out = autosave_fragment;
        if self.mode != Mode::Normal {
            out.push_str(&format!("&mode={}", self.mode.as_str()));
        }
        if self.quiz.is_some() {
            out.push_str("&quiz=1");
        }
        out
    }

    /// The share link's fragment (without `#`): always the compressed scenario (`z=`), so the
    /// link keeps working whatever the presets become, plus the step, the preset's name (for
    /// its title and units) and the mode.
    pub fn share_fragment(&self, scenario: &Scenario, step: usize, steps: usize) -> String {
        format!("{}{}", fragment::encode_z(scenario, step_param(step, steps)), self.link_params())
    }

    /// The fragment an embed code uses: the preset's short form when untouched, otherwise the
    /// compressed scenario; always in embed mode.
    pub fn embed_fragment(&self, scenario: &Scenario, step: usize, steps: usize) -> String {
        let param = step_param(step, steps);
        match self.pristine_preset(scenario) {
            Some(p) => format!("preset={}&mode=embed&step={}", p.id, step_text(param)),
            None => {
                let preset = self.preset.as_ref().map(|p| format!("&preset={}", p.id)).unwrap_or_default();
                format!("{}{preset}&mode=embed", fragment::encode_z(scenario, param))
            }
        }
    }
}

fn step_param(step: usize, steps: usize) -> StepParam {
    if step >= steps { StepParam::End } else { StepParam::At(step) }
}

fn step_text(p: StepParam) -> String {
    match p {
        StepParam::End => "end".into(),
        StepParam::At(n) => n.to_string(),
    }
}

/// An `<iframe>` for a lab page; `base` is the app's address without the fragment.
pub fn embed_code(base: &str, fragment: &str, title: &str) -> String {
    let title = title.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    let src = format!("{base}#{fragment}").replace('&', "&amp;").replace('"', "&quot;");
    format!("<iframe src=\"{src}\" width=\"700\" height=\"450\" title=\"{title}\" loading=\"lazy\"></iframe>")
}

impl AppState {
    /// The initial state for a location hash.
    pub fn from_hash(hash: &str, width_px: f64) -> AppState {
        let mut s = AppState::from_fragment(Ok(Fragment { scenario: None, step: None }), width_px);
        s.open_hash(hash);
        s.revision = 0;
        s
    }

    /// The teaching layer's look at an action before the reducer: it may take the action over
    /// (lecture keys, the quiz's stops) or let it through (`Some`).
    pub fn teach_before(&mut self, action: Action) -> Option<Action> {
        match &action {
            Action::Load { .. } => {
                // A scenario from elsewhere (a menu, an import): no longer the preset's.
                self.teach.preset = None;
                self.teach.values = ValueFormat::Plain;
                self.teach.why = None;
                Some(action)
            }
            Action::Key(k) if !k.ctrl && !k.in_field => {
                let k = k.clone();
                self.teach_key(&k).unwrap_or(Some(action))
            }
            Action::Key(k) if k.key == "Escape" && self.teach.why.is_some() => {
                self.teach.why = None;
                None
            }
            Action::StepForward if self.teach.quiz.is_some() => self.quiz_forward(),
            Action::TogglePlay if self.teach.quiz.is_some() => {
                // The quiz walks step by step: play would run past the questions.
                self.quiz_forward().map(|_| Action::StepForward)
            }
            Action::Last | Action::SetStep(_) | Action::StepBack | Action::First if self.teach.quiz.is_some() => {
                if let Some(q) = &mut self.teach.quiz {
                    q.asking = None;
                    q.selected.clear();
                    q.verdict = None;
                }
                Some(action)
            }
            _ => Some(action),
        }
    }

    /// After every action: keep the quiz's questions and the popover in step with the run.
    pub fn teach_after(&mut self) {
        let stale = self
            .teach
            .quiz
            .as_ref()
            .is_some_and(|q| !Rc::ptr_eq(&q.scenario, &self.scenario) && *q.scenario != *self.scenario);
        if stale {
            let score = self.teach.quiz.as_ref().map(|q| q.score).unwrap_or_default();
            let mut q = QuizState::new(&self.scenario, &self.run, self.teach.values);
            q.score = score;
            self.teach.quiz = Some(q);
            self.teach.why = None;
        }
        if let Some(WhyPopover { target: WhyTarget::Element(e), .. }) = self.teach.why
            && e as usize >= self.run.elements.len()
        {
            self.teach.why = None;
        }
    }

    fn teach_key(&mut self, k: &KeyInput) -> Option<Option<Action>> {
        let lecture = self.teach.mode == Mode::Lecture;
        let asking = self.teach.quiz.as_ref().is_some_and(|q| q.asking.is_some() && q.verdict.is_none());
        match k.key.as_str() {
            // Clickers send PageDown / PageUp: they step in every mode.
            "PageDown" => Some(Some(Action::StepForward)),
            "PageUp" => Some(Some(Action::StepBack)),
            " " if lecture => Some(Some(Action::StepForward)),
            "b" | "B" | "." if lecture => {
                self.apply_teach(TeachAction::ToggleBlackout);
                Some(None)
            }
            "Escape" if self.teach.blackout => {
                self.teach.blackout = false;
                Some(None)
            }
            "Escape" if self.teach.why.is_some() => {
                self.teach.why = None;
                Some(None)
            }
            "Enter" if asking => {
                self.apply_teach(TeachAction::QuizSubmit);
                Some(None)
            }
            d if asking && d.len() == 1 && d.chars().all(|c| ('1'..='9').contains(&c)) => {
                let i = d.parse::<usize>().unwrap_or(1).saturating_sub(1);
                self.apply_teach(TeachAction::QuizSelect(i));
                Some(None)
            }
            "q" => {
                self.apply_teach(TeachAction::ToggleQuiz);
                Some(None)
            }
            _ if self.teach.blackout => Some(None),
            _ => None,
        }
    }

    /// A step forward in quiz mode: stop to ask a question about the next step, or (after the
    /// verdict) reveal it.
    fn quiz_forward(&mut self) -> Option<Action> {
        let step = self.step;
        let q = self.teach.quiz.as_mut()?;
        if let Some(i) = q.asking {
            // Predict first: the step stays hidden until an answer is given.
            q.verdict.as_ref()?;
            if let Some(id) = q.questions.get(i).map(|q| q.id.clone()) {
                q.done.insert(id);
            }
            q.asking = None;
            q.selected.clear();
            q.verdict = None;
        }
        match q.open_question_at(step) {
            Some(next) => {
                q.asking = Some(next);
                None
            }
            None => Some(Action::StepForward),
        }
    }

    /// The teaching reducer.
    pub fn apply_teach(&mut self, action: TeachAction) {
        match action {
            TeachAction::OpenHash(hash) => {
                self.open_hash(&hash);
            }
            TeachAction::LoadPreset(id) => match teach::presets::by_id(&id) {
                Some(p) => self.load_preset(&p, None),
                None => self.apply(Action::ShowBanner(format!("There is no preset \"{}\".", clip(&id, 40)))),
            },
            TeachAction::SetMode(m) => self.set_mode(m),
            TeachAction::ToggleQuiz => {
                if self.teach.quiz.take().is_none() {
                    let mut q = QuizState::new(&self.scenario, &self.run, self.teach.values);
                    q.asking = q.open_question_at(self.step);
                    self.playing = false;
                    self.teach.quiz = Some(q);
                }
            }
            TeachAction::QuizSelect(i) => {
                if let Some(q) = &mut self.teach.quiz
                    && q.verdict.is_none()
                    && let Some(question) = q.asking.and_then(|a| q.questions.get(a))
                    && i < question.options.len()
                {
                    if question.multiple {
                        if let Some(pos) = q.selected.iter().position(|s| *s == i) {
                            q.selected.remove(pos);
                        } else {
                            q.selected.push(i);
                            crate::teach::sort::stable(&mut q.selected);
                        }
                    } else {
                        q.selected = vec![i];
                    }
                }
            }
            TeachAction::QuizSubmit => {
                if let Some(q) = &mut self.teach.quiz
                    && q.verdict.is_none()
                    && let Some(question) = q.asking.and_then(|a| q.questions.get(a))
                    // One pick is needed, unless several may be picked (none = "no window fires").
                    && (question.multiple || !q.selected.is_empty())
                {
                    let verdict = teach::check(question, &question.answer_from(&q.selected));
                    q.score.record(&verdict);
                    q.verdict = Some(verdict);
                }
            }
            TeachAction::Why(w) => self.teach.why = Some(w),
            TeachAction::CloseWhy => self.teach.why = None,
            TeachAction::ToggleBlackout => self.teach.blackout = !self.teach.blackout,
            TeachAction::Shared(b) => self.teach.share = Some(b),
            TeachAction::CloseShare => self.teach.share = None,
            TeachAction::Import { name, text } => self.import(&name, &text),
            TeachAction::ImportError(e) => self.teach.import_error = (!e.is_empty()).then_some(e),
            TeachAction::SetDialect(d) => self.teach.dialect = Some(d),
            TeachAction::SetOutputTab(t) => {
                self.teach.output_tab = t;
                self.teach.outputs_open = true;
            }
            TeachAction::ToggleOutputs => self.teach.outputs_open = !self.teach.outputs_open,
        }
    }

    /// Lecture mode hides the side panel (configuration); leaving it brings the panel back.
    fn set_mode(&mut self, m: Mode) {
        let was = self.teach.mode;
        if m == Mode::Lecture && was != Mode::Lecture {
            self.panel_open = false;
            // A hall follows slower animation: at most half speed while lecturing.
            self.teach.speed_before_lecture = Some(self.speed);
            self.speed = self.speed.min(LECTURE_SPEED);
        } else if was == Mode::Lecture && m != Mode::Lecture {
            self.panel_open = true;
            if let Some(speed) = self.teach.speed_before_lecture.take() {
                self.speed = speed;
            }
        }
        self.teach.mode = m;
        self.teach.blackout = false;
        self.playing = false;
    }

    pub(super) fn load_preset(&mut self, p: &Preset, step: Option<StepParam>) {
        let step = step.unwrap_or(StepParam::At(p.default_step));
        self.apply(Action::Load { scenario: Box::new(p.scenario.clone()), step: Some(step), banner: None });
        self.teach.values = p.value_format;
        self.teach.preset = Some(Rc::new(PresetInfo::from(p)));
        self.teach_after();
    }

    pub(super) fn open_hash(&mut self, hash: &str) {
        let params = parse_params(hash);
        let parsed = fragment::parse(hash);
        let (has_scenario, step) = match &parsed {
            Ok(f) => (f.scenario.is_some(), f.step),
            Err(_) => (true, None),
        };
        // A broken link changes nothing: the scenario on show keeps its preset too.
        let opens = parsed.as_ref().is_ok_and(|f| f.scenario.is_some());
        let preset = params.preset.as_deref().map(|id| (id, teach::presets::by_id(id)));
        match &preset {
            Some((_, Some(p))) if !has_scenario => self.load_preset(p, step),
            _ => {
                if opens {
                    self.teach.preset = None;
                    self.teach.values = ValueFormat::Plain;
                }
                self.apply(Action::Fragment(Box::new(parsed)));
                // A copied link: the scenario as edited, with the preset's title and units.
                if opens && let Some((_, Some(p))) = &preset {
                    self.teach.values = p.value_format;
                    self.teach.preset = Some(Rc::new(PresetInfo::from(p)));
                }
            }
        }
        if let Some((id, None)) = &preset {
            let ids = teach::presets::ids().join(", ");
            self.banners.push(format!("There is no preset \"{}\" (presets: {ids}).", clip(id, 40)));
        }
        for e in &params.errors {
            self.banners.push(format!("Could not read the link: {e}."));
        }
        self.set_mode(params.mode.unwrap_or_default());
        self.teach.why = None;
        self.teach.quiz = None;
        if params.quiz {
            self.apply_teach(TeachAction::ToggleQuiz);
        }
        self.teach_after();
    }

    fn import(&mut self, name: &str, text: &str) {
        match parse_import(text) {
            Ok(Imported::Scenario(s)) => {
                self.apply(Action::Load { scenario: s, step: None, banner: None });
                self.teach.import_error = None;
            }
            Ok(Imported::Preset(p)) => {
                self.load_preset(&p, None);
                self.teach.import_error = None;
            }
            Err(e) => self.teach.import_error = Some(format!("{}: {e}", clip(name, 60))),
        }
        self.teach_after();
    }
}

/// What an imported file holds.
#[derive(Debug)]
pub enum Imported {
    Scenario(Box<Scenario>),
    Preset(Box<Preset>),
}

/// Reads an imported file: a scenario in the engine's JSON format, or a preset file (an
/// object with `id` and `scenario`). The error names the field.
pub fn parse_import(text: &str) -> Result<Imported, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not a JSON file ({e})"))?;
    let is_preset = value.get("scenario").is_some_and(serde_json::Value::is_object) && value.get("id").is_some();
    if is_preset {
        return teach::presets::parse("imported", text)
            .map(|p| Imported::Preset(Box::new(p)))
            .map_err(|e| e.to_string());
    }
    Scenario::from_value(&value).map(|s| Imported::Scenario(Box::new(s))).map_err(|e| e.to_string())
}

fn clip(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    if s.chars().count() > n {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teach::Answer;

    fn key(k: &str) -> Action {
        Action::Key(KeyInput { key: k.into(), ..KeyInput::default() })
    }

    fn open(hash: &str) -> AppState {
        AppState::from_hash(hash, 1200.0)
    }

    /// `#preset=lab-6-2&mode=embed&step=3` opens the preset at step 3 in embed mode, with its
    /// title and dollar values.
    #[test]
    fn preset_link_opens_preset_step_and_mode() {
        let s = open("#preset=lab-6-2&mode=embed&step=3");
        assert_eq!(s.step, 3);
        assert_eq!(s.teach.mode, Mode::Embed);
        assert_eq!(s.teach.values, ValueFormat::UsdCents);
        assert_eq!(s.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"));
        assert_eq!(s.scenario.name, "lab-6-2");
        assert!(s.banners.is_empty(), "{:?}", s.banners);
        // Without a step, the preset's default step.
        let d = open("#preset=lab-6-3");
        assert_eq!(d.step, teach::presets::by_id("lab-6-3").map(|p| p.default_step).unwrap_or(usize::MAX));
        assert_eq!(d.teach.mode, Mode::Normal);
    }

    /// A bad preset or mode opens what it can and says what was wrong.
    #[test]
    fn bad_params_give_banners() {
        let s = open("#preset=nope&mode=cinema");
        assert!(s.banners.iter().any(|b| b.contains("no preset \"nope\"")), "{:?}", s.banners);
        assert!(s.banners.iter().any(|b| b.contains("mode must be")), "{:?}", s.banners);
        assert_eq!(s.teach.mode, Mode::Normal);
    }

    /// A share link reopens the same scenario, step, preset units and mode, also after an edit.
    #[test]
    fn share_link_round_trips() {
        let mut s = open("#preset=lab-6-2&mode=lecture&step=2");
        s.apply(Action::StepForward);
        // Edit: the scenario is no longer the preset's.
        s.apply(Action::Nudge { direction: 1, fine: true });
        s.apply(Action::Select(Some(0)));
        s.apply(Action::Nudge { direction: 1, fine: true });
        assert!(s.teach.pristine_preset(&s.scenario).is_none());
        let link = s.teach.share_fragment(&s.scenario, s.step, s.run.steps);
        assert!(link.starts_with("z="), "{link}");
        let t = open(&format!("#{link}"));
        assert_eq!(*t.scenario, *s.scenario);
        assert_eq!(t.step, s.step);
        assert_eq!(t.teach.mode, Mode::Lecture);
        assert_eq!(t.teach.values, ValueFormat::UsdCents);
        // The address bar keeps the short form while the preset is untouched.
        let u = open("#preset=lab-6-2&step=3");
        assert_eq!(u.teach.url_fragment(&u.scenario, u.step, u.run.steps), "preset=lab-6-2&step=3");
        assert_eq!(u.teach.embed_fragment(&u.scenario, u.step, u.run.steps), "preset=lab-6-2&mode=embed&step=3");
    }

    /// PageDown / PageUp step in every mode; space steps and B blacks out in lecture mode.
    #[test]
    fn lecture_keys() {
        let mut s = open("#preset=worked-timeline&mode=lecture&step=2");
        assert_eq!(s.speed, LECTURE_SPEED, "slower animation in lecture mode");
        s.apply(key("PageDown"));
        assert_eq!(s.step, 3);
        s.apply(key("PageUp"));
        assert_eq!(s.step, 2);
        s.apply(key(" "));
        assert_eq!(s.step, 3);
        assert!(!s.playing);
        s.apply(key("b"));
        assert!(s.teach.blackout);
        s.apply(key("PageDown"));
        assert_eq!(s.step, 4, "a clicker still steps behind the blackout");
        s.apply(key("B"));
        assert!(!s.teach.blackout);
        s.apply_teach(TeachAction::SetMode(Mode::Normal));
        assert_eq!(s.speed, 1.0, "the speed comes back");
        assert!(s.panel_open);
        // Outside lecture mode, space plays and b does nothing.
        let mut n = open("#preset=worked-timeline&step=2");
        n.apply(key("b"));
        assert!(!n.teach.blackout);
        n.apply(key(" "));
        assert!(n.playing);
    }

    /// In quiz mode the playhead stops before a deciding step until an answer is given; the
    /// engine checks it and the score counts it; the next step forward reveals.
    #[test]
    fn quiz_asks_checks_and_reveals() {
        let mut s = open("#preset=lab-6-2&step=3");
        s.apply_teach(TeachAction::ToggleQuiz);
        let q = s.teach.quiz.clone().unwrap_or_else(|| panic!("quiz on"));
        let asked = q.current().cloned().unwrap_or_else(|| panic!("a question about step 3: the late element"));
        assert_eq!(asked.step, 3);
        assert_eq!(asked.correct, Answer::Fate(teach::ElementFate::AddedAndFires));
        // Forward is held until an answer is given.
        s.apply(Action::StepForward);
        assert_eq!(s.step, 3);
        // A wrong answer first: side output.
        let wrong = asked
            .options
            .iter()
            .position(|c| c.answer == Answer::Fate(teach::ElementFate::SideOutput))
            .unwrap_or_else(|| panic!("side output option"));
        s.apply_teach(TeachAction::QuizSelect(wrong));
        s.apply_teach(TeachAction::QuizSubmit);
        let q = s.teach.quiz.clone().unwrap_or_else(|| panic!("quiz on"));
        assert_eq!(q.verdict.as_ref().map(|v| v.correct), Some(false));
        assert_eq!((q.score.correct, q.score.answered), (0, 1));
        // Submitting again changes nothing.
        s.apply_teach(TeachAction::QuizSubmit);
        assert_eq!(s.teach.quiz.as_ref().map(|q| q.score.answered), Some(1));
        // Reveal: on to step 4 (or the next question about the same step).
        for _ in 0..10 {
            if s.step != 3 {
                break;
            }
            s.apply(Action::StepForward);
            if let Some(q) = &s.teach.quiz
                && q.asking.is_some()
                && q.verdict.is_none()
            {
                s.apply_teach(TeachAction::QuizSelect(0));
                s.apply_teach(TeachAction::QuizSubmit);
            }
        }
        assert_eq!(s.step, 4);
    }

    /// Importing a broken file keeps the scenario and says why; a good one loads.
    #[test]
    fn import_keeps_scenario_on_error() {
        let mut s = open("#preset=lab-6-1");
        let before = s.scenario.clone();
        s.apply_teach(TeachAction::Import { name: "x.json".into(), text: "{\"assigner\": 5}".into() });
        assert_eq!(*s.scenario, *before);
        assert!(
            s.teach.import_error.as_deref().is_some_and(|e| e.starts_with("x.json: ")),
            "{:?}",
            s.teach.import_error
        );
        s.apply_teach(TeachAction::Import { name: "y.json".into(), text: "not json".into() });
        assert!(s.teach.import_error.as_deref().is_some_and(|e| e.contains("not a JSON file")));
        let text = before.to_json().to_string();
        s.apply(Action::Nudge { direction: 1, fine: true });
        s.apply_teach(TeachAction::Import { name: "z.json".into(), text });
        assert!(s.teach.import_error.is_none());
        assert_eq!(*s.scenario, *before);
        // A preset file loads as the preset.
        let preset = include_str!("../../assets/presets/lab-6-2.json");
        s.apply_teach(TeachAction::Import { name: "lab-6-2.json".into(), text: preset.into() });
        assert_eq!(s.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"));
    }

    /// The embed code is an iframe of 700×450 with the fragment escaped for HTML.
    #[test]
    fn embed_code_escapes() {
        let code = embed_code("https://x.org/t/index.html", "preset=lab-6-2&mode=embed&step=3", "Lab \"6.2\"");
        assert_eq!(
            code,
            "<iframe src=\"https://x.org/t/index.html#preset=lab-6-2&amp;mode=embed&amp;step=3\" width=\"700\" \
             height=\"450\" title=\"Lab &quot;6.2&quot;\" loading=\"lazy\"></iframe>"
        );
    }
}
