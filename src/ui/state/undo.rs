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
/// Bytes of scenario changes kept for undo (an estimate, see [`Kept::cost`]). A step keeps only
/// what its edit changed ([`ScenarioPatch`]): 200 drags of one element cost a few KB at any size;
/// loads keep the whole scenario they replaced, so this bounds a run of large loads (a
/// 100,000-item scenario is about 10 MB).
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

/// Approximate bytes of `n` input items held (keys are shared).
fn items_cost(n: usize) -> usize {
    n * (std::mem::size_of::<InputItem>() + 16)
}

impl Snapshot {
    /// Approximate bytes held, were it kept whole: the input items dominate.
    pub fn cost(&self) -> usize {
        std::mem::size_of::<Scenario>()
            + items_cost(self.scenario.input.len())
            + self.compare.as_ref().map_or(0, |(b, _)| std::mem::size_of::<Scenario>() + items_cost(b.input.len()))
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

/// How to make a scenario from its neighbour in the history (the state one step nearer the
/// present): that one's input with one run of items replaced, and its own configuration. A drag
/// or a nudge keeps one item, not the 100,000 of a large stream (which a whole snapshot would,
/// and which a page at 100,000 elements cannot keep many of under its memory goal).
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioPatch {
    /// The scenario with no input.
    head: Scenario,
    /// Where the two inputs first differ.
    at: usize,
    /// The neighbour's items taken out there.
    remove: usize,
    /// This scenario's items put in their place.
    insert: Vec<InputItem>,
}

impl ScenarioPatch {
    /// What makes `this` from `neighbour`: the common start and end of the two inputs are kept.
    pub fn between(this: &Scenario, neighbour: &Scenario) -> ScenarioPatch {
        let (a, b) = (&this.input, &neighbour.input);
        let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let tail = a[at..].iter().rev().zip(b[at..].iter().rev()).take_while(|(x, y)| x == y).count();
        ScenarioPatch { head: head(this), at, remove: b.len() - at - tail, insert: a[at..a.len() - tail].to_vec() }
    }

    /// The scenario this patch was made for, from the same `neighbour`.
    pub fn apply(&self, neighbour: &Scenario) -> Scenario {
        let b = &neighbour.input;
        // A patch applied to another neighbour than its own (never, but a panic would kill the page).
        let at = self.at.min(b.len());
        let rest = (at + self.remove).min(b.len());
        let mut input = Vec::with_capacity(b.len() - (rest - at) + self.insert.len());
        input.extend_from_slice(&b[..at]);
        input.extend_from_slice(&self.insert);
        input.extend_from_slice(&b[rest..]);
        Scenario { input, ..self.head.clone() }
    }

    /// The items and the configuration's texts (a long description is kept by every step).
    fn cost(&self) -> usize {
        std::mem::size_of::<ScenarioPatch>()
            + self.head.name.len()
            + self.head.description.len()
            + items_cost(self.insert.len())
    }
}

/// `s` with no input (every other field listed: a new one must be thought about here).
fn head(s: &Scenario) -> Scenario {
    let Scenario {
        name,
        description,
        assigner,
        allowed_lateness,
        trigger,
        evictor,
        watermarks,
        side_output,
        end_of_input,
        function,
        source,
        process_function,
        tvf,
        input: _,
    } = s;
    Scenario {
        name: name.clone(),
        description: description.clone(),
        assigner: assigner.clone(),
        allowed_lateness: *allowed_lateness,
        trigger: *trigger,
        evictor: *evictor,
        watermarks: *watermarks,
        side_output: *side_output,
        end_of_input: *end_of_input,
        function: *function,
        source: *source,
        process_function: *process_function,
        tvf: *tvf,
        input: Vec::new(),
    }
}

/// An undo step as the history keeps it: a [`Snapshot`] whose scenario is kept as a patch of the
/// step nearer the present (of the document on show, for the newest step of either side).
#[derive(Clone, Debug)]
pub struct Kept {
    scenario: ScenarioPatch,
    compare: Option<KeptCompare>,
    preset: Option<Rc<PresetInfo>>,
    values: ValueFormat,
    step: usize,
    /// The edit that led away from this state ("move element 3"), for the buttons' titles.
    pub label: Cow<'static, str>,
}

impl Kept {
    /// `snap` kept relative to `neighbour`, the scenario of the step after it (toward the present).
    fn new(snap: Snapshot, neighbour: &Scenario) -> Kept {
        let Snapshot { scenario, compare, preset, values, step, label } = snap;
        Kept { scenario: ScenarioPatch::between(&scenario, neighbour), compare, preset, values, step, label }
    }

    /// The snapshot again, from the scenario of the step after it.
    fn restore(&self, neighbour: &Scenario) -> Snapshot {
        Snapshot {
            scenario: Rc::new(self.scenario.apply(neighbour)),
            compare: self.compare.clone(),
            preset: self.preset.clone(),
            values: self.values,
            step: self.step,
            label: self.label.clone(),
        }
    }

    /// Approximate bytes held.
    pub fn cost(&self) -> usize {
        self.scenario.cost()
            + self.compare.as_ref().map_or(0, |(b, _)| std::mem::size_of::<Scenario>() + items_cost(b.input.len()))
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
    pub history: Rc<History<Kept, EditGroup>>,
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
    pub fn empty_history() -> History<Kept, EditGroup> {
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
            // An undo or redo mid-drag does nothing; the drag's start stays for its end.
            if dragging {
                self.pending = Some(before);
            }
            return;
        }
        if dragging {
            self.pending = Some(before);
            return;
        }
        if !before.differs_from(now.0, now.1, now.2) {
            return;
        }
        let h = Rc::make_mut(&mut self.history);
        if h.absorbs(kind.group.as_ref()) {
            // The group's first step stays, kept relative to `before`: relative to `now` from here.
            h.rebase_newest(|first| {
                let first = Kept::new(first.restore(&before.scenario), now.0);
                let cost = first.cost();
                (first, cost)
            });
            return;
        }
        let kept = Kept::new(before, now.0);
        let cost = kept.cost();
        h.record(kept, cost, kind.group);
        self.notice = kind.load.then(|| Notice { text: format!("Loaded “{}”.", title()), undo: true });
    }

    /// Records `saved` as the step before the start-up document `now` (the autosave a link replaced).
    pub fn record_start(&mut self, saved: Snapshot, now: &Scenario) {
        let kept = Kept::new(saved, now);
        let cost = kept.cost();
        Rc::make_mut(&mut self.history).record(kept, cost, None);
    }

    /// The label of what undo (`back`) or redo would bring back, if anything.
    pub fn peek(&self, back: bool) -> Option<Cow<'static, str>> {
        let h = &self.history;
        (if back { h.peek_undo() } else { h.peek_redo() }).map(|s| s.label.clone())
    }

    /// Steps through the history: `current` goes to the other side, the snapshot to restore comes back.
    pub fn travel(&mut self, back: bool, current: Snapshot) -> Option<Snapshot> {
        // The step taken out is made from `current`, and `current` is kept relative to it.
        let step = |kept: Kept| {
            let snap = kept.restore(&current.scenario);
            let current = Kept::new(current, &snap.scenario);
            let cost = current.cost();
            (snap, current, cost)
        };
        let h = Rc::make_mut(&mut self.history);
        if back { h.undo_with(step) } else { h.redo_with(step) }
    }
}
