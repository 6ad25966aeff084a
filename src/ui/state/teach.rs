//! Teaching and sharing state: the course preset on show, the layout mode (normal, embed,
//! lecture), the predict-then-reveal quiz, the "why?" popover, blackout, share links and the
//! import's last error; plus the link formats they write. Loading and the quiz's stops, which
//! touch the rest of the state, are `state::open`.
//!
//! ```text
//!  #preset=lab-6-2&mode=embed&step=3 ──OpenHash──▶ preset scenario at step 3, embed layout
//!  #z=<deflate>&step=4&preset=lab-6-2&mode=lecture   (a copied link: the scenario as edited,
//!                                                     the preset's title and units, the mode)
//!  quiz on:  Forward at a playhead with an open question ──▶ ask (the playhead stays)
//!            answer ──QuizSubmit──▶ teach::check verdict ──Forward──▶ reveal (step + 1)
//! ```

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::codegen::Dialect;
use crate::engine::{Run, Scenario};
use crate::teach::{self, CourseRule, Preset, Question, Score, ValueFormat, Verdict};
use crate::ui::action::{Mode, ShareBox, WhyPopover, WhyTarget};
use crate::ui::fragment::{self, StepParam};

/// Lecture mode's default playback speed (animations run at half speed).
pub const LECTURE_SPEED: f64 = 0.5;

/// The course preset the scenario came from (its title, goal and how to write its values).
#[derive(Clone, Debug, PartialEq)]
pub struct PresetInfo {
    pub id: String,
    pub title: String,
    pub goal: String,
    pub source: String,
    pub values: ValueFormat,
    pub default_step: usize,
    /// The course text's simplified rules the narration names beside Flink's exact values.
    pub course_rules: Vec<CourseRule>,
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
            course_rules: p.course_rules.clone(),
            scenario: Rc::new(p.scenario.clone()),
        }
    }
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
    /// Ask the playhead's question once the questions are made from the scenario's run (the quiz
    /// was turned on while that run was still out).
    pub ask_when_made: bool,
    /// The options picked so far (indices into the question's options).
    pub selected: Vec<usize>,
    /// The engine's verdict on the submitted answer, until the step is revealed.
    pub verdict: Option<Verdict>,
    pub score: Score,
    /// Ids of the questions answered (or revealed) in this run.
    pub done: BTreeSet<String>,
}

impl QuizState {
    pub fn new(scenario: &Rc<Scenario>, run: &Run, values: ValueFormat) -> QuizState {
        let questions = teach::Context::new(scenario, run).with_values(values).questions();
        QuizState {
            scenario: scenario.clone(),
            questions: Rc::new(questions),
            asking: None,
            ask_when_made: false,
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

    /// A question waits for its answer.
    pub fn waiting(&self) -> bool {
        self.asking.is_some() && self.verdict.is_none()
    }

    /// Picks option `i` (toggles it when several may be picked).
    pub fn select(&mut self, i: usize) {
        if self.verdict.is_some() {
            return;
        }
        let Some(question) = self.asking.and_then(|a| self.questions.get(a)) else { return };
        if i >= question.options.len() {
            return;
        }
        if question.multiple {
            if let Some(pos) = self.selected.iter().position(|s| *s == i) {
                self.selected.remove(pos);
            } else {
                self.selected.push(i);
                crate::teach::sort::stable(&mut self.selected);
            }
        } else {
            self.selected = vec![i];
        }
    }

    /// Checks the picked answer with the engine (once).
    pub fn submit(&mut self) {
        if self.verdict.is_some() {
            return;
        }
        let Some(question) = self.asking.and_then(|a| self.questions.get(a)) else { return };
        // One pick is needed, unless several may be picked (none = "no window fires").
        if !question.multiple && self.selected.is_empty() {
            return;
        }
        let verdict = teach::check(question, &question.answer_from(&self.selected));
        self.score.record(&verdict);
        self.verdict = Some(verdict);
    }

    /// The playhead moved away: the question on screen goes.
    pub fn leave(&mut self) {
        self.asking = None;
        self.selected.clear();
        self.verdict = None;
    }
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
    /// The import dialog's table, while the dialog is open, and how many were opened (a new
    /// dialog for each).
    pub import_open: Option<(u64, crate::ui::action::ImportSource)>,
    pub dialect: Option<Dialect>,
    /// The playback speed before lecture mode slowed it down (restored when leaving).
    pub speed_before_lecture: Option<f64>,
    /// A lab page locked editing (`state::host`): the scenario is read-only.
    pub locked: bool,
}

impl TeachState {
    /// The preset, while the scenario on show is still exactly the preset's.
    pub fn pristine_preset(&self, scenario: &Scenario) -> Option<&PresetInfo> {
        self.preset.as_deref().filter(|p| *p.scenario == *scenario)
    }

    /// Shows preset `p` (its title and units) for the scenario on show.
    pub fn set_preset(&mut self, p: &Preset) {
        self.values = p.value_format;
        self.preset = Some(Rc::new(PresetInfo::from(p)));
    }

    /// A scenario from elsewhere (a menu, an import): no longer a preset's.
    pub fn forget_preset(&mut self) {
        self.preset = None;
        self.values = ValueFormat::Plain;
    }

    /// The run on show changed: the quiz's questions and the popover follow it.
    pub fn on_run(&mut self, scenario: &Rc<Scenario>, run: &Run, step: usize) {
        // Questions made before the scenario's run was back, or for another scenario, are made again.
        let stale = self
            .quiz
            .as_ref()
            .is_some_and(|q| q.ask_when_made || (!Rc::ptr_eq(&q.scenario, scenario) && *q.scenario != **scenario));
        if stale && let Some(old) = self.quiz.take() {
            let mut q = QuizState::new(scenario, run, self.values);
            q.score = old.score;
            if old.ask_when_made {
                q.asking = q.open_question_at(step);
            }
            self.quiz = Some(q);
            self.why = None;
        }
        if let Some(WhyPopover { target: WhyTarget::Element(e), .. }) = self.why
            && e as usize >= run.elements.len()
        {
            self.why = None;
        }
    }

    /// The teaching parameters a link carries after the scenario and step (`&preset=…&mode=…`).
    fn link_params(&self) -> String {
        let preset = self.preset.as_ref().map(|p| format!("&preset={}", p.id)).unwrap_or_default();
        self.url_fragment_after(preset)
    }

    /// The fragment the address bar shows (without `#`): `preset=…&step=…` while the preset is
    /// untouched, the compressed scenario otherwise; then the mode and quiz.
    pub fn url_fragment(&self, scenario: &Rc<Scenario>, step: usize, steps: usize) -> String {
        self.url_fragment_after(self.autosave_fragment(scenario, step, steps))
    }

    /// What the autosave keeps (without `#`): the address bar's fragment without the view (mode,
    /// quiz), so that a reload restores the scenario, its preset and the step.
    pub fn autosave_fragment(&self, scenario: &Rc<Scenario>, step: usize, steps: usize) -> String {
        self.short_or_z(scenario, step_param(step, steps), "")
    }

    /// `preset=…&…&step=…` while the preset is untouched, else `z=…&step=…&preset=…`, with `extra`.
    fn short_or_z(&self, scenario: &Rc<Scenario>, param: StepParam, extra: &str) -> String {
        match self.pristine_preset(scenario) {
            Some(p) => format!("preset={}{extra}&step={}", p.id, step_text(param)),
            None => {
                let preset = self.preset.as_ref().map(|p| format!("&preset={}", p.id)).unwrap_or_default();
                format!("{}{preset}{extra}", fragment::encode_z(scenario, param))
            }
        }
    }

    /// The address bar's fragment from the autosave's (`saved`): plus the mode and quiz, and
    /// without the scenario when it is longer than [`fragment::ADDRESS_BAR_MAX`] and `autosaved`
    /// (the autosave is on: it keeps the scenario; where it is not, in an embed or when storage
    /// fails, the address bar is the only place that does, and keeps it however long).
    pub fn address_fragment(&self, saved: &str, autosaved: bool) -> String {
        let too_long = autosaved && saved.len() > fragment::ADDRESS_BAR_MAX;
        self.url_fragment_after(if too_long { fragment::address_bar_form(saved) } else { saved.to_string() })
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
    pub fn share_fragment(&self, scenario: &Rc<Scenario>, step: usize, steps: usize) -> String {
        format!("{}{}", fragment::encode_z(scenario, step_param(step, steps)), self.link_params())
    }

    /// The fragment an embed code uses: the preset's short form when untouched, otherwise the
    /// compressed scenario; always in embed mode.
    pub fn embed_fragment(&self, scenario: &Rc<Scenario>, step: usize, steps: usize) -> String {
        self.short_or_z(scenario, step_param(step, steps), "&mode=embed")
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

/// The teaching parameters of a location hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeachParams {
    pub preset: Option<String>,
    pub mode: Option<Mode>,
    pub quiz: bool,
    /// `local=1`: the link's scenario was too long for it and is the autosave's of the browser
    /// that made it (`fragment::address_bar_form`).
    pub local: bool,
    /// Problems to show in a banner (the rest of the link still opens).
    pub errors: Vec<String>,
}

/// Reads `preset=`, `mode=` and `quiz=` from a hash (with or without `#`); other parameters
/// are [`crate::ui::fragment`]'s.
pub fn parse_params(hash: &str) -> TeachParams {
    let mut out = TeachParams::default();
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    for part in hash.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        match name {
            "preset" => out.preset = Some(value.to_string()),
            "mode" => match parse_mode(value) {
                Ok(m) => out.mode = Some(m),
                Err(e) => out.errors.push(e),
            },
            "quiz" => out.quiz = matches!(value, "1" | "on" | "true" | ""),
            "local" => out.local = matches!(value, "1" | "on" | "true" | ""),
            _ => {}
        }
    }
    out
}

/// A `mode=` value (links and a lab page's messages say the same when it is wrong).
pub fn parse_mode(value: &str) -> Result<Mode, String> {
    Mode::parse(value).ok_or_else(|| {
        let shown: String = value.chars().take(40).collect();
        format!("mode must be embed, lecture or normal, not \"{shown}\"")
    })
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

/// At most `n` characters of `s`, with an ellipsis when cut.
pub fn clip(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    if s.chars().count() > n {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Link parameters: a bad mode is reported, the rest still read.
    #[test]
    fn params() {
        let p = parse_params("#preset=lab-6-2&mode=cinema&quiz=1");
        assert_eq!(p.preset.as_deref(), Some("lab-6-2"));
        assert_eq!((p.mode, p.quiz), (None, true));
        assert!(p.errors[0].starts_with("mode must be"));
        assert_eq!(clip("abcdef", 3), "abc…");
    }
}
