//! Nothing lost: undo/redo over every edit, the notice after a load, the autosave's status.
//!
//! ```text
//!  dispatch(action) ──▶ snapshot before ──▶ reduce + run ──▶ scenario or preset changed?
//!                           │                                  ├─ drag still going: keep the snapshot for its end
//!                           │                                  └─ yes: History::record(before) (+ notice if a load)
//!  Ctrl+Z ──Undo──▶ History::undo(current) ──▶ restore the snapshot (scenario, preset, step)
//!  every commit ──▶ the autosave fragment ──▶ storage (hooks::use_autosave; not in embeds)
//!  start-up: URL names a scenario? ── yes ─▶ the URL's; a different autosave is one undo away
//!                                   └─ no ──▶ the autosave (or the default)       (state::open)
//! ```

use std::borrow::Cow;
use std::rc::Rc;

use crate::engine::Scenario;
use crate::engine::scenario::InputItem;
use crate::teach::ValueFormat;
use crate::ui::action::Field;
use crate::ui::history::History;

use super::teach::PresetInfo;

/// Undo steps kept.
pub const MAX_UNDO_STEPS: usize = 200;
/// Bytes of scenario snapshots kept for undo (an estimate, see [`Snapshot::cost`]): 200 steps of a
/// 2,000-element scenario (about 220 KB each) fit; of a 100,000-item one, four.
pub const MAX_UNDO_BYTES: usize = 48 << 20;

/// Compare mode's second configuration as kept: the scenario, and whether it follows the first's input.
pub type KeptCompare = (Rc<Scenario>, bool);

/// What an undo step restores: the scenario, the preset it came from (title and units), and
/// the playhead.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub scenario: Rc<Scenario>,
    /// Compare mode's second configuration and whether it follows the scenario's input.
    pub compare: Option<KeptCompare>,
    pub preset: Option<Rc<PresetInfo>>,
    pub values: ValueFormat,
    pub step: usize,
    /// The edit that led away from this state ("move element 3"), for the buttons' titles.
    pub label: Cow<'static, str>,
}

impl Snapshot {
    /// Approximate bytes held: the input items dominate (keys are short).
    pub fn cost(&self) -> usize {
        let items = |s: &Scenario| s.input.len() * (std::mem::size_of::<InputItem>() + 16);
        std::mem::size_of::<Scenario>()
            + items(&self.scenario)
            + self.compare.as_ref().map_or(0, |(b, _)| std::mem::size_of::<Scenario>() + items(b))
    }

    /// Whether `scenario` with `preset` (and compare mode's `compare`) is another document than
    /// this snapshot.
    pub fn differs_from(&self, scenario: &Rc<Scenario>, preset: Option<&str>, compare: Option<&KeptCompare>) -> bool {
        let differs = |a: &Rc<Scenario>, b: &Rc<Scenario>| !Rc::ptr_eq(a, b) && **a != **b;
        let other_compare = match (&self.compare, compare) {
            (None, None) => false,
            (Some((a, fa)), Some((b, fb))) => fa != fb || differs(a, b),
            _ => true,
        };
        differs(&self.scenario, scenario) || other_compare || self.preset.as_ref().map(|p| p.id.as_str()) != preset
    }
}

/// Edits that are one undo step together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditGroup {
    /// Typing into one field of the configuration panel.
    Config(Field),
    /// Arrow keys on one input item.
    Nudge(usize),
    /// Arrow keys on the watermark handle (bounded out-of-orderness: the bound).
    Bound,
}

/// What an action does to the document, for the history: its label, its group, whether it
/// replaces the scenario (a load, which gets a notice), and whether it is recorded at all (an
/// undo or redo is not).
#[derive(Clone, Debug)]
pub struct EditKind {
    pub label: Cow<'static, str>,
    pub group: Option<EditGroup>,
    pub load: bool,
    pub record: bool,
}

impl EditKind {
    pub fn edit(label: impl Into<Cow<'static, str>>) -> EditKind {
        EditKind { label: label.into(), group: None, load: false, record: true }
    }

    pub fn load(label: impl Into<Cow<'static, str>>) -> EditKind {
        EditKind { load: true, ..EditKind::edit(label) }
    }

    pub fn grouped(label: impl Into<Cow<'static, str>>, group: EditGroup) -> EditKind {
        EditKind { group: Some(group), ..EditKind::edit(label) }
    }

    /// Undo and redo move through the history; they are not steps of it.
    pub fn travel() -> EditKind {
        EditKind { record: false, ..EditKind::edit("") }
    }
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

/// Undo history, the snapshot of a drag in progress, the notice and the autosave status. Kept
/// across loads.
#[derive(Clone, Debug)]
pub struct Edits {
    pub history: Rc<History<Snapshot, EditGroup>>,
    /// The state before the drag in progress: the whole drag is one step.
    pending: Option<Snapshot>,
    pub notice: Option<Notice>,
    pub autosave: AutosaveStatus,
}

impl Default for Edits {
    fn default() -> Self {
        Edits { history: Rc::new(Self::empty_history()), pending: None, notice: None, autosave: AutosaveStatus::On }
    }
}

impl Edits {
    pub fn empty_history() -> History<Snapshot, EditGroup> {
        History::new(MAX_UNDO_STEPS, MAX_UNDO_BYTES)
    }

    /// The document before an action (labelled with the action): the drag's when one is going, else `now`.
    pub fn before(&mut self, now: Snapshot) -> Snapshot {
        self.pending.take().unwrap_or(now)
    }

    /// After an action: while a drag goes on, keep `before` for its end; else record it when the
    /// document changed. `title` names what is on show now (for a load's notice).
    pub fn after(
        &mut self,
        before: Snapshot,
        kind: EditKind,
        dragging: bool,
        now: (&Rc<Scenario>, Option<&str>, Option<&KeptCompare>),
        title: impl FnOnce() -> String,
    ) {
        if !kind.record {
            return;
        }
        if dragging {
            self.pending = Some(before);
            return;
        }
        if !before.differs_from(now.0, now.1, now.2) {
            return;
        }
        let cost = before.cost();
        Rc::make_mut(&mut self.history).record(before, cost, kind.group);
        self.notice = kind.load.then(|| Notice { text: format!("Loaded “{}”.", title()), undo: true });
    }

    /// Records `saved` as the step before the start-up document (the autosave a link replaced).
    pub fn record_start(&mut self, saved: Snapshot) {
        let cost = saved.cost();
        Rc::make_mut(&mut self.history).record(saved, cost, None);
    }

    /// The label of what undo (`back`) or redo would bring back, if anything.
    pub fn peek(&self, back: bool) -> Option<Cow<'static, str>> {
        let h = &self.history;
        (if back { h.peek_undo() } else { h.peek_redo() }).map(|s| s.label.clone())
    }

    /// Steps through the history: `current` goes to the other side, the snapshot to restore comes back.
    pub fn travel(&mut self, back: bool, current: Snapshot) -> Option<Snapshot> {
        let cost = current.cost();
        let h = Rc::make_mut(&mut self.history);
        if back { h.undo(current, cost) } else { h.redo(current, cost) }
    }
}
