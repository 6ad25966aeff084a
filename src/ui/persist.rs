//! Nothing lost: undo/redo over every edit, the notice after a load, and the autosave.
//!
//! ```text
//!  apply(action) ──▶ snapshot before ──▶ reducer ──▶ scenario or preset changed?
//!                         │                              ├─ drag still going: keep the snapshot for DragEnd
//!                         │                              └─ yes: History::record(before) (+ notice if a load)
//!  Ctrl+Z ──Undo──▶ History::undo(current) ──▶ restore the snapshot (scenario, preset, step)
//!  every committed change ──▶ autosave_fragment() ──▶ localStorage[AUTOSAVE_KEY]   (not in embeds)
//!  start-up: URL names a scenario? ── yes ─▶ the URL's; a different autosave is one undo away
//!                                   └─ no ──▶ the autosave (or the default)
//! ```
//!
//! Pure like [`super::state`]: the browser side is [`read_autosave`] / [`write_autosave`], which
//! never panic and report a blocked or full storage as a value.

use std::borrow::Cow;
use std::rc::Rc;

use crate::engine::Scenario;
use crate::engine::scenario::InputItem;
use crate::teach::{self, ValueFormat};

use super::config::{ConfigDraft, ConfigEdit, Field};
use super::fragment;
use super::history::History;
use super::state::{Action, AppState, DragStart, fit_viewport};
use super::teach_state::{Mode, PresetInfo, TeachAction, parse_params};

/// Undo steps kept.
pub const MAX_UNDO_STEPS: usize = 200;
/// Bytes of scenario snapshots kept for undo (an estimate, see [`Snapshot::cost`]): 200 steps of a
/// 2,000-element scenario (about 220 KB each) fit; of a 100,000-item one, four.
pub const MAX_UNDO_BYTES: usize = 48 << 20;
/// The localStorage key of the autosave (a fragment: `z=…&step=…&preset=…` or `preset=…&step=…`).
pub const AUTOSAVE_KEY: &str = "tidemark.autosave.v1";
/// Longest autosave read back (localStorage holds about 5 M characters per origin).
pub const MAX_AUTOSAVE_CHARS: usize = 5 * 1024 * 1024;

/// What an undo step restores: the scenario, the preset it came from (title and units), and
/// the playhead.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub scenario: Rc<Scenario>,
    pub preset: Option<Rc<PresetInfo>>,
    pub values: ValueFormat,
    pub step: usize,
    /// The edit that led away from this state ("move element 3"), for the buttons' titles.
    pub label: Cow<'static, str>,
}

impl Snapshot {
    /// Approximate bytes held: the input items dominate (keys are short).
    pub fn cost(&self) -> usize {
        std::mem::size_of::<Scenario>() + self.scenario.input.len() * (std::mem::size_of::<InputItem>() + 16)
    }

    /// Whether `s` shows another scenario or preset than this snapshot.
    fn differs_from(&self, s: &AppState) -> bool {
        let scenario = !Rc::ptr_eq(&self.scenario, &s.scenario) && *self.scenario != *s.scenario;
        let preset = self.preset.as_ref().map(|p| &p.id) != s.teach.preset.as_ref().map(|p| &p.id);
        scenario || preset
    }
}

/// Edits that are one undo step together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditGroup {
    /// Typing into one field of the configuration panel.
    Config(Field),
    /// Arrow keys on one input item.
    Nudge(usize),
}

/// A short message under the header (not an error): what was loaded, and that undo brings the
/// previous scenario back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    /// Offer undo (the previous scenario is one undo away).
    pub undo: bool,
}

/// Whether the browser keeps the autosave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AutosaveStatus {
    #[default]
    On,
    /// Embeds do not autosave: several iframes of a lab page would overwrite the student's own
    /// work (their edits stay in the iframe's address and undo history).
    Embed,
    /// localStorage is blocked (a sandboxed iframe, privacy settings) or refused a write.
    Off(String),
}

/// Undo history, the snapshot of an action (or drag) in progress, the notice and the autosave
/// status. Kept across loads.
#[derive(Clone, Debug)]
pub struct Edits {
    pub history: Rc<History<Snapshot, EditGroup>>,
    /// The state before the drag in progress: the whole drag is one step.
    pending: Option<Snapshot>,
    /// The outermost `apply` is running (nested applies are part of its step).
    applying: bool,
    /// The action was an undo or redo: nothing to record.
    restored: bool,
    pub notice: Option<Notice>,
    pub autosave: AutosaveStatus,
}

impl Default for Edits {
    fn default() -> Self {
        Edits {
            history: Rc::new(History::new(MAX_UNDO_STEPS, MAX_UNDO_BYTES)),
            pending: None,
            applying: false,
            restored: false,
            notice: None,
            autosave: AutosaveStatus::On,
        }
    }
}

/// What an action does to the document, for the history: its label, its group, and whether it
/// replaces the scenario (a load, which gets a notice).
struct EditKind {
    label: Cow<'static, str>,
    group: Option<EditGroup>,
    load: bool,
}

impl EditKind {
    fn edit(label: impl Into<Cow<'static, str>>) -> EditKind {
        EditKind { label: label.into(), group: None, load: false }
    }

    fn load(label: impl Into<Cow<'static, str>>) -> EditKind {
        EditKind { label: label.into(), group: None, load: true }
    }
}

impl AppState {
    /// The top of the reducer: applies `action` and records one undo step when it changed the
    /// scenario (a drag: when it ends).
    pub fn apply(&mut self, action: Action) {
        if self.edits.applying {
            return self.apply_unrecorded(action);
        }
        let kind = self.edit_kind(&action);
        let before = self.edits.pending.take().unwrap_or_else(|| self.snapshot(kind.label));
        self.edits.applying = true;
        self.apply_unrecorded(action);
        self.edits.applying = false;
        if std::mem::take(&mut self.edits.restored) {
            return;
        }
        if self.drag.is_some() {
            self.edits.pending = Some(before);
            return;
        }
        if !before.differs_from(self) {
            return;
        }
        let cost = before.cost();
        Rc::make_mut(&mut self.edits.history).record(before, cost, kind.group);
        self.edits.notice = kind.load.then(|| Notice { text: format!("Loaded “{}”.", self.title()), undo: true });
    }

    /// The scenario's title: the preset's, or the scenario's name.
    pub fn title(&self) -> String {
        match &self.teach.preset {
            Some(p) => p.title.clone(),
            None if self.scenario.name.is_empty() => "untitled scenario".into(),
            None => self.scenario.name.clone(),
        }
    }

    pub fn snapshot(&self, label: Cow<'static, str>) -> Snapshot {
        Snapshot {
            scenario: self.scenario.clone(),
            preset: self.teach.preset.clone(),
            values: self.teach.values,
            step: self.step,
            label,
        }
    }

    fn edit_kind(&self, action: &Action) -> EditKind {
        let item = |i: usize| match self.scenario.input.get(i) {
            Some(InputItem::Element(e)) => format!("element {}", e.id),
            Some(_) => "the watermark item".into(),
            None => "an item".into(),
        };
        match action {
            Action::Load { scenario, .. } => EditKind::load(format!("load “{}”", clip(&scenario.name))),
            Action::Fragment(_) | Action::Teach(TeachAction::OpenHash(_)) => EditKind::load("open a link"),
            Action::Teach(TeachAction::LoadPreset(id)) => EditKind::load(format!("load preset {}", clip(id))),
            Action::Teach(TeachAction::Import { name, .. }) => EditKind::load(format!("import {}", clip(name))),
            Action::DragStart { what: DragStart::Element(i), .. } => EditKind::edit(format!("move {}", item(*i))),
            Action::DragStart { what: DragStart::Watermark, .. } => EditKind::edit("move the watermark"),
            Action::DragStart { what: DragStart::Arrival(_), .. } | Action::MoveInput { .. } => {
                EditKind::edit("reorder the input")
            }
            Action::Nudge { .. } => match self.selection {
                Some(i) => EditKind { group: Some(EditGroup::Nudge(i)), ..EditKind::edit(format!("move {}", item(i))) },
                None => EditKind::edit("move"),
            },
            Action::AddElement { .. } => EditKind::edit("add an element"),
            Action::InsertWatermark { .. } => EditKind::edit("insert a watermark item"),
            Action::Delete(i) => EditKind::edit(format!("delete {}", item(*i))),
            Action::DeleteSelected => {
                EditKind::edit(self.selection.map_or("delete".into(), |i| format!("delete {}", item(i))))
            }
            Action::EditorCommit => {
                EditKind::edit(self.editor.as_ref().map_or("edit".into(), |e| format!("edit {}", item(e.index))))
            }
            Action::Config(edit) => {
                let field = edit.field();
                let label = format!("change the {}", super::panels::field_name(field).replace('-', " "));
                let group = matches!(edit, ConfigEdit::Text(..)).then_some(EditGroup::Config(field));
                EditKind { group, ..EditKind::edit(label) }
            }
            Action::Key(k) => match self.key_action(k) {
                Some(a) => self.edit_kind(&a),
                None => EditKind::edit("edit"),
            },
            _ => EditKind::edit("edit"),
        }
    }

    /// Ctrl+Z: back to the state before the last edit (never in the middle of a drag).
    pub(super) fn undo(&mut self) {
        self.travel(true);
    }

    /// Ctrl+Shift+Z or Ctrl+Y: the edit undone last, again.
    pub(super) fn redo(&mut self) {
        self.travel(false);
    }

    fn travel(&mut self, back: bool) {
        if self.drag.is_some() {
            return;
        }
        let h = &self.edits.history;
        let Some(label) = (if back { h.peek_undo() } else { h.peek_redo() }).map(|s| s.label.clone()) else { return };
        let current = self.snapshot(label);
        let cost = current.cost();
        let h = Rc::make_mut(&mut self.edits.history);
        if let Some(snap) = if back { h.undo(current, cost) } else { h.redo(current, cost) } {
            self.restore(snap);
        }
    }

    fn restore(&mut self, snap: Snapshot) {
        // Another scenario altogether (undoing a load): show all of it.
        let refit = snap.scenario.name != self.scenario.name;
        self.scenario = snap.scenario;
        self.teach.preset = snap.preset;
        self.teach.values = snap.values;
        self.teach.why = None;
        self.config = ConfigDraft::from_scenario(&self.scenario);
        self.selection = self.selection.filter(|i| *i < self.scenario.input.len());
        self.editor = None;
        self.menu = None;
        self.playing = false;
        self.step = snap.step;
        self.commit();
        if refit {
            self.viewport = fit_viewport(&self.layout, self.viewport.width_px);
        }
        self.edits.notice = None;
        self.edits.restored = true;
    }

    /// The initial state: the URL's scenario when it names one (a different autosave is then
    /// one undo away), otherwise the autosave, otherwise the default.
    pub fn from_hash_and_autosave(hash: &str, saved: Result<Option<String>, String>, width_px: f64) -> AppState {
        let params = parse_params(hash);
        let parsed = fragment::parse(hash);
        let link_failed = parsed.is_err();
        let names_scenario = params.preset.is_some() || parsed.map_or(true, |f| f.scenario.is_some());
        let mode = params.mode.unwrap_or_default();
        let mut s = AppState::from_hash("", width_px);
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
        s.open_hash(hash);
        s.edits.history = Rc::new(History::new(MAX_UNDO_STEPS, MAX_UNDO_BYTES));
        s.edits.notice = None;
        if let Some(e) = autosave_problem {
            s.banners.push(format!(
                "Your autosaved scenario could not be restored: {e}. Showing “{}” instead; the autosave is replaced at your next change.",
                s.title()
            ));
        }
        match autosaved {
            Some(saved) if names_scenario && !link_failed && saved.differs_from(&s) => {
                let cost = saved.cost();
                Rc::make_mut(&mut s.edits.history).record(saved, cost, None);
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
        s.revision = 0;
        s
    }

    /// Loads an autosave (the fragment [`super::teach_state::TeachState::autosave_fragment`] wrote).
    fn load_autosave(&mut self, text: &str) -> Result<(), String> {
        if text.len() > MAX_AUTOSAVE_CHARS {
            return Err(format!("it is {} characters long; the limit is {MAX_AUTOSAVE_CHARS}", text.len()));
        }
        let params = parse_params(text);
        let parsed = fragment::parse(text).map_err(|e| e.0)?;
        let preset = match params.preset.as_deref() {
            Some(id) => Some(teach::presets::by_id(id).ok_or_else(|| format!("there is no preset \"{}\"", clip(id)))?),
            None => None,
        };
        match (parsed.scenario, preset) {
            (Some(scenario), preset) => {
                self.apply(Action::Load { scenario: Box::new(scenario), step: parsed.step, banner: None });
                if let Some(p) = preset {
                    self.teach.values = p.value_format;
                    self.teach.preset = Some(Rc::new(PresetInfo::from(&p)));
                }
            }
            (None, Some(p)) => self.load_preset(&p, parsed.step),
            (None, None) => return Err("it names no scenario".into()),
        }
        Ok(())
    }

    /// The outcome of an autosave write (only failures are reported, once).
    pub fn autosave_failed(&mut self, e: String) {
        if self.edits.autosave == AutosaveStatus::On {
            self.banners.push(format!(
                "Autosave stopped: the browser refused to store the scenario ({e}). Your work is still in this tab; \
                 Copy link or JSON keeps it."
            ));
        }
        self.edits.autosave = AutosaveStatus::Off(e);
    }
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// Reads the autosave: `Ok(None)` when there is none, `Err` when the storage is blocked (a
/// sandboxed iframe throws a SecurityError just for asking).
pub fn read_autosave() -> Result<Option<String>, String> {
    let storage = storage()?;
    storage.get_item(AUTOSAVE_KEY).map_err(|e| js_error(&e))
}

/// Writes the autosave; `Err` says why the browser refused (quota, blocked storage).
pub fn write_autosave(text: &str) -> Result<(), String> {
    storage()?.set_item(AUTOSAVE_KEY, text).map_err(|e| js_error(&e))
}

fn storage() -> Result<web_sys::Storage, String> {
    let window = web_sys::window().ok_or("no window")?;
    match window.local_storage() {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err("this browser has no localStorage".into()),
        Err(e) => Err(js_error(&e)),
    }
}

/// A readable name for a thrown DOMException (`SecurityError: …`, `QuotaExceededError: …`).
fn js_error(e: &wasm_bindgen::JsValue) -> String {
    let get = |k: &str| js_sys::Reflect::get(e, &wasm_bindgen::JsValue::from_str(k)).ok().and_then(|v| v.as_string());
    match (get("name"), get("message")) {
        (Some(n), Some(m)) => format!("{n}: {m}"),
        (Some(n), None) => n,
        _ => e.as_string().unwrap_or_else(|| "storage error".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Millis;
    use crate::ui::fragment::Fragment;
    use crate::ui::geometry::Viewport;
    use crate::ui::state::KeyInput;

    const TUMBLING: &str = r#"{"name": "mine", "assigner": {"kind": "tumbling", "size": 60000},
        "input": [{"id": 1, "key": "A", "ts": 50000}, {"id": 2, "key": "A", "ts": 70000}, {"wm": 59999}]}"#;

    fn state() -> AppState {
        let s = Scenario::from_json_str(TUMBLING).unwrap_or_else(|e| panic!("{e}"));
        let mut st = AppState::from_fragment(Ok(Fragment { scenario: None, step: None }), 1200.0);
        st.apply(Action::Load { scenario: Box::new(s), step: None, banner: None });
        st.viewport = Viewport::new(0.0, 120_000.0, 1200.0);
        st
    }

    fn ts(st: &AppState, i: usize) -> Option<Millis> {
        match st.scenario.input.get(i) {
            Some(InputItem::Element(e)) => Some(e.ts),
            _ => None,
        }
    }

    fn ctrl(key: &str, shift: bool) -> Action {
        Action::Key(KeyInput { key: key.into(), ctrl: true, shift, ..KeyInput::default() })
    }

    fn undo_len(st: &AppState) -> usize {
        st.edits.history.undo_len()
    }

    /// A drag is one undo step, however many pointer moves it took; redo replays it.
    #[test]
    fn a_drag_is_one_step() {
        let mut st = state();
        let before = undo_len(&st);
        st.apply(Action::DragStart { what: DragStart::Element(0), px: 500.0, millis: 50_000.0 });
        for i in 1..=30 {
            st.apply(Action::DragMove { px: 500.0 + f64::from(i), millis: 50_000.0 + f64::from(i) * 500.0 });
        }
        st.apply(Action::DragEnd);
        assert_eq!(ts(&st, 0), Some(65_000));
        assert_eq!(undo_len(&st), before + 1);
        assert_eq!(st.edits.history.peek_undo().map(|s| s.label.to_string()).as_deref(), Some("move element 1"));
        st.apply(Action::Undo);
        assert_eq!(ts(&st, 0), Some(50_000));
        assert_eq!(st.edits.history.redo_len(), 1);
        st.apply(Action::Redo);
        assert_eq!(ts(&st, 0), Some(65_000));
        // A pan changes no scenario: nothing to undo for it.
        st.apply(Action::DragStart { what: DragStart::Pan, px: 10.0, millis: 0.0 });
        st.apply(Action::DragMove { px: 60.0, millis: 0.0 });
        st.apply(Action::DragEnd);
        assert_eq!(undo_len(&st), before + 1);
    }

    /// Dragging the watermark where there is none creates the item; undo removes it again.
    #[test]
    fn a_watermark_drag_that_creates_the_item_is_one_step() {
        let mut st = state();
        st.apply(Action::Delete(2));
        let n = undo_len(&st);
        st.apply(Action::DragStart { what: DragStart::Watermark, px: 300.0, millis: 30_000.0 });
        st.apply(Action::DragMove { px: 600.0, millis: 61_000.0 });
        st.apply(Action::DragEnd);
        assert_eq!(st.scenario.input.len(), 3);
        assert_eq!(undo_len(&st), n + 1);
        st.apply(Action::Undo);
        assert_eq!(st.scenario.input.len(), 2);
    }

    /// Typing "30s" into the size field is one step; undo brings back the size and the panel's text.
    #[test]
    fn config_typing_is_one_step() {
        let mut st = state();
        let n = undo_len(&st);
        for text in ["3", "30", "30s"] {
            st.apply(Action::Config(ConfigEdit::Text(Field::Size, text.into())));
        }
        st.apply(Action::Config(ConfigEdit::Text(Field::Lateness, "5s".into())));
        assert_eq!(undo_len(&st), n + 2);
        st.apply(Action::Undo);
        assert_eq!(st.scenario.allowed_lateness.unwrap_or(0), 0);
        assert_eq!(st.config.size, "30000");
        st.apply(Action::Undo);
        assert_eq!(st.scenario.assigner, crate::engine::scenario::AssignerSpec::Tumbling { size: 60_000, offset: 0 });
        assert_eq!(st.config.size, "60000", "the panel shows the restored value");
        // An invalid value changes nothing, so it is not a step.
        st.apply(Action::Config(ConfigEdit::Text(Field::Size, "-1".into())));
        assert_eq!(undo_len(&st), n);
    }

    /// Adding and deleting are steps of their own, undone in reverse order, with the playhead.
    #[test]
    fn add_and_delete_undo() {
        let mut st = state();
        let (input, step) = (st.scenario.input.clone(), st.step);
        st.apply(Action::AddElement { key: Some("B".into()), ts: Some(5_000) });
        st.apply(Action::Delete(0));
        assert_eq!(st.scenario.input.len(), 3);
        st.apply(Action::Undo);
        assert_eq!(st.scenario.input.len(), 4);
        st.apply(Action::Undo);
        assert_eq!(st.scenario.input, input);
        assert_eq!(st.step, step);
        // Keyboard edits too: n adds, Ctrl+Z removes.
        st.apply(Action::Key(KeyInput { key: "n".into(), ..KeyInput::default() }));
        assert_eq!(st.scenario.input.len(), 4);
        st.apply(ctrl("z", false));
        assert_eq!(st.scenario.input, input);
        st.apply(ctrl("Z", true));
        assert_eq!(st.scenario.input.len(), 4, "Ctrl+Shift+Z redoes");
        st.apply(ctrl("z", false));
        st.apply(ctrl("y", false));
        assert_eq!(st.scenario.input.len(), 4, "Ctrl+Y redoes");
    }

    /// Ctrl+Z is ours outside text fields only: in a text field it is the field's own undo.
    #[test]
    fn ctrl_z_keys() {
        let k = |key: &str, shift: bool, in_text: bool| KeyInput {
            key: key.into(),
            ctrl: true,
            shift,
            in_field: in_text,
            in_text,
            ..KeyInput::default()
        };
        assert!(is_shortcut(&k("z", false, false)));
        assert!(is_shortcut(&k("Z", true, false)));
        assert!(is_shortcut(&k("y", false, false)));
        assert!(!is_shortcut(&k("z", false, true)), "native undo in text fields");
        assert!(!is_shortcut(&k("c", false, false)), "Ctrl+C stays the browser's");
        // A focused select (the presets menu just used) is not a text field: Ctrl+Z undoes the load.
        let select = KeyInput { key: "z".into(), ctrl: true, in_field: true, ..KeyInput::default() };
        assert!(is_shortcut(&select));
        let mut st = state();
        st.apply(Action::Teach(TeachAction::LoadPreset("lab-6-2".into())));
        st.apply(Action::Key(select));
        assert_eq!(st.scenario.name, "mine");
        let mut typing = state();
        typing.apply(Action::AddElement { key: None, ts: None });
        typing.apply(Action::Key(k("z", false, true)));
        assert_eq!(typing.scenario.input.len(), 4, "a key in a text field undoes nothing here");
    }

    use crate::ui::state::is_shortcut;

    /// Loading a preset, a link or a file keeps the previous scenario one undo away and says so.
    #[test]
    fn loads_keep_the_previous_scenario_one_undo_away() {
        let mut st = state();
        st.apply(Action::Nudge { direction: 1, fine: true });
        let edited = st.scenario.clone();
        st.apply(Action::Teach(TeachAction::LoadPreset("lab-6-2".into())));
        assert_eq!(st.scenario.name, "lab-6-2");
        let notice = st.edits.notice.clone().unwrap_or_else(|| panic!("a notice after a load"));
        assert!(notice.undo);
        assert!(notice.text.starts_with("Loaded “Lab 6.2"), "{}", notice.text);
        st.apply(Action::Undo);
        assert_eq!(*st.scenario, *edited);
        assert!(st.teach.preset.is_none());
        assert_eq!(st.edits.notice, None);
        st.apply(Action::Redo);
        assert_eq!(st.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"), "redo brings the preset back");
        // An import.
        st.apply(Action::Teach(TeachAction::Import { name: "x.json".into(), text: TUMBLING.into() }));
        assert_eq!(st.scenario.name, "mine");
        assert!(st.edits.notice.is_some());
        st.apply(Action::Undo);
        assert_eq!(st.scenario.name, "lab-6-2");
        // A link pasted into the tab.
        let link = st.teach.share_fragment(&edited, 1, 4);
        st.apply(Action::Teach(TeachAction::OpenHash(format!("#{link}"))));
        assert_eq!(*st.scenario, *edited);
        st.apply(Action::Undo);
        assert_eq!(st.scenario.name, "lab-6-2");
        // The next edit makes the notice stale: it goes.
        st.apply(Action::Teach(TeachAction::LoadPreset("lab-6-1".into())));
        st.apply(Action::Nudge { direction: 1, fine: true });
        st.apply(Action::Select(Some(0)));
        st.apply(Action::Nudge { direction: 1, fine: true });
        assert_eq!(st.edits.notice, None);
    }

    /// A broken link pasted into the tab changes nothing: same scenario, same preset, a banner.
    #[test]
    fn a_broken_link_keeps_the_scenario() {
        let mut st = AppState::from_hash("#preset=lab-6-2&step=3", 1200.0);
        st.apply(Action::Nudge { direction: 1, fine: true });
        let before = st.scenario.clone();
        let n = undo_len(&st);
        for bad in ["#z=not-deflate!!", "#scenario=e30", "#scenario=!!!&preset=lab-6-1"] {
            st.apply(Action::Teach(TeachAction::OpenHash(bad.into())));
            assert_eq!(*st.scenario, *before, "{bad}");
            assert_eq!(st.teach.preset.as_ref().map(|p| p.id.as_str()), Some("lab-6-2"), "{bad}");
            assert!(st.banners.iter().any(|b| b.starts_with("Could not open the link")), "{bad}: {:?}", st.banners);
            assert_eq!(undo_len(&st), n);
        }
    }

    /// Playback, selection and zoom are not edits.
    #[test]
    fn views_are_not_steps() {
        let mut st = state();
        let n = undo_len(&st);
        for a in
            [Action::StepBack, Action::First, Action::Select(Some(1)), Action::ZoomIn, Action::Fit, Action::ToggleTwoD]
        {
            st.apply(a);
        }
        assert_eq!(undo_len(&st), n);
        st.apply(Action::Undo);
        assert_eq!(st.scenario.name, "course_worked_timeline_7", "the load of `state()` is the one step");
    }

    fn saved_of(st: &AppState) -> String {
        st.teach.autosave_fragment(&st.scenario, st.step, st.run.steps)
    }

    /// The autosave restores the scenario, the preset's title and units, and the step.
    #[test]
    fn autosave_round_trips() {
        let mut st = AppState::from_hash("#preset=lab-6-2&step=3", 1200.0);
        assert_eq!(saved_of(&st), "preset=lab-6-2&step=3", "an untouched preset is saved by name");
        st.apply(Action::Nudge { direction: 1, fine: true });
        st.apply(Action::Select(Some(0)));
        st.apply(Action::Nudge { direction: 1, fine: true });
        let saved = saved_of(&st);
        assert!(saved.starts_with("z=") && saved.ends_with("&preset=lab-6-2"), "{saved}");
        let back = AppState::from_hash_and_autosave("", Ok(Some(saved)), 1200.0);
        assert_eq!(*back.scenario, *st.scenario);
        assert_eq!(back.step, st.step);
        assert_eq!(back.teach.values, st.teach.values);
        assert!(back.banners.is_empty(), "{:?}", back.banners);
        assert_eq!(back.edits.notice.as_ref().map(|n| n.undo), Some(false), "says it restored");
        assert_eq!(undo_len(&back), 0);
        // A hash without a scenario (a mode, a step) still restores the autosave.
        let lecture = AppState::from_hash_and_autosave("#mode=lecture", Ok(Some(saved_of(&st))), 1200.0);
        assert_eq!(*lecture.scenario, *st.scenario);
        assert_eq!(lecture.teach.mode, Mode::Lecture);
    }

    /// A link given explicitly wins over the autosave, which stays one undo away.
    #[test]
    fn a_link_wins_and_the_autosave_is_one_undo_away() {
        let mut mine = state();
        mine.apply(Action::Nudge { direction: 1, fine: true });
        let saved = saved_of(&mine);
        let mut st = AppState::from_hash_and_autosave("#preset=lab-6-2&step=3", Ok(Some(saved.clone())), 1200.0);
        assert_eq!(st.scenario.name, "lab-6-2");
        assert_eq!(st.step, 3);
        assert!(st.edits.notice.as_ref().is_some_and(|n| n.undo && n.text.contains("autosaved")));
        assert_eq!(st.revision, 0);
        st.apply(Action::Undo);
        assert_eq!(*st.scenario, *mine.scenario);
        // The same scenario in the link and the autosave (a reload): nothing to undo, no notice.
        let link = mine.teach.url_fragment(&mine.scenario, mine.step, mine.run.steps);
        let same = AppState::from_hash_and_autosave(&format!("#{link}"), Ok(Some(saved.clone())), 1200.0);
        assert_eq!(*same.scenario, *mine.scenario);
        assert_eq!((undo_len(&same), same.edits.notice.clone()), (0, None));
        // A broken link falls back to the autosave, not the default.
        let broken = AppState::from_hash_and_autosave("#z=%%%", Ok(Some(saved)), 1200.0);
        assert_eq!(*broken.scenario, *mine.scenario);
        assert!(
            broken.banners.iter().any(|b| b.contains("Could not open the link") && b.contains("“mine”")),
            "{:?}",
            broken.banners
        );
    }

    /// Corrupt or oversized autosaves give a clear banner and the default; no panic.
    #[test]
    fn corrupt_autosave_falls_back() {
        let cases = [
            ("z=AAAA&step=1".to_string(), "not valid raw DEFLATE"),
            ("garbage".to_string(), "names no scenario"),
            ("preset=nope".to_string(), "no preset \"nope\""),
            (format!("scenario={}", "A".repeat(MAX_AUTOSAVE_CHARS)), "the limit is"),
            (
                format!(
                    "scenario={}",
                    base64::Engine::encode(
                        &base64::engine::general_purpose::URL_SAFE_NO_PAD,
                        br#"{"assigner": {"kind": "tumbling", "size": 99999999999999999999}, "input": []}"#
                    )
                ),
                "assigner.size: 1e+20 is outside the 64-bit integer range",
            ),
        ];
        for (text, why) in cases {
            let st = AppState::from_hash_and_autosave("", Ok(Some(text)), 1200.0);
            assert_eq!(st.scenario.name, "course_worked_timeline_7");
            let b = st.banners.join(" | ");
            assert!(b.contains("Your autosaved scenario could not be restored") && b.contains(why), "{why}: {b}");
        }
    }

    /// Blocked storage (a sandboxed iframe) turns autosave off quietly; embeds neither read nor write it.
    #[test]
    fn blocked_storage_and_embeds() {
        let st = AppState::from_hash_and_autosave("", Err("SecurityError: denied".into()), 1200.0);
        assert_eq!(st.edits.autosave, AutosaveStatus::Off("SecurityError: denied".into()));
        assert!(st.banners.is_empty());
        let mine = state();
        let embed = AppState::from_hash_and_autosave("#preset=lab-6-2&mode=embed", Ok(Some(saved_of(&mine))), 700.0);
        assert_eq!(embed.edits.autosave, AutosaveStatus::Embed);
        assert_eq!((undo_len(&embed), embed.edits.notice.clone()), (0, None));
        // A failing write says so once, then stays quiet.
        let mut s = state();
        s.apply(Action::AutosaveFailed("QuotaExceededError: full".into()));
        s.apply(Action::AutosaveFailed("QuotaExceededError: full".into()));
        assert_eq!(s.banners.iter().filter(|b| b.starts_with("Autosave stopped")).count(), 1);
    }

    /// Snapshot cost and the history bound for a 2,000-element scenario (printed for the README).
    #[test]
    fn history_memory_is_bounded() {
        let input: Vec<String> =
            (0..2000).map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 7, i * 100)).collect();
        let json = format!(r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "input": [{}]}}"#, input.join(","));
        let big = Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}"));
        let mut st = state();
        st.apply(Action::Load { scenario: Box::new(big), step: None, banner: None });
        let cost = st.snapshot("x".into()).cost();
        for _ in 0..MAX_UNDO_STEPS + 20 {
            st.apply(Action::Select(Some(0)));
            st.apply(Action::Nudge { direction: 1, fine: false });
            st.apply(Action::Select(None));
            Rc::make_mut(&mut st.edits.history).close_group();
        }
        println!(
            "snapshot of 2,000 elements: {cost} bytes; history: {} steps, {} bytes",
            undo_len(&st),
            st.edits.history.cost()
        );
        assert!(st.edits.history.cost() <= MAX_UNDO_BYTES);
        assert!(undo_len(&st) <= MAX_UNDO_STEPS);
        assert_eq!(undo_len(&st), MAX_UNDO_STEPS, "a 2,000-element scenario keeps all 200 steps");
    }
}
