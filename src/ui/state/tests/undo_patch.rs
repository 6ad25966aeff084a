//! The undo history keeps each step as a patch of the step nearer the present (`undo::Kept`):
//! undo and redo must give back exactly what whole snapshots would, over any edits, groups, undos
//! and redos; and a large stream keeps all its steps for the cost of what they changed.

use std::rc::Rc;

use proptest::prelude::*;

use crate::engine::Scenario;
use crate::engine::scenario::{Element, InputItem};
use crate::ui::history::History;
use crate::ui::state::undo::{EditGroup, EditKind, Edits, MAX_UNDO_BYTES, MAX_UNDO_STEPS, ScenarioPatch, Snapshot};

fn element(id: i64, ts: i64) -> InputItem {
    InputItem::Element(Element { id, key: format!("k{}", id % 3).as_str().into(), ts, value: 1, ..Element::default() })
}

fn stream(n: usize) -> Scenario {
    Scenario { name: "s".into(), input: (0..n as i64).map(|i| element(i, i * 1000)).collect(), ..Scenario::default() }
}

fn snapshot(s: &Rc<Scenario>, step: usize, label: &str) -> Snapshot {
    Snapshot {
        scenario: s.clone(),
        compare: None,
        preset: None,
        values: Default::default(),
        step,
        label: label.to_string().into(),
    }
}

/// What an edit does to the scenario.
#[derive(Clone, Debug)]
enum Change {
    /// The item at (index % len) gets this time (a drag, a nudge).
    Move(usize, i64),
    Insert(usize, i64),
    Remove(usize),
    /// Several items at once (a sort, a shift of all times).
    ShiftAll(i64),
    /// The configuration, not the input.
    Lateness(i64),
    /// Another scenario altogether.
    Load(usize),
    /// Nothing changes (not a step).
    Nothing,
}

impl Change {
    fn apply(&self, s: &Scenario) -> Scenario {
        let mut s = s.clone();
        let len = s.input.len();
        match *self {
            Change::Move(i, ts) if len > 0 => s.input[i % len] = element(i as i64, ts),
            Change::Insert(i, ts) => s.input.insert(i % (len + 1), element(1000 + i as i64, ts)),
            Change::Remove(i) if len > 0 => {
                s.input.remove(i % len);
            }
            Change::ShiftAll(d) => {
                for item in &mut s.input {
                    if let InputItem::Element(e) = item {
                        e.ts += d;
                    }
                }
            }
            Change::Lateness(l) => s.allowed_lateness = Some(l),
            Change::Load(n) => s = stream(n),
            _ => {}
        }
        s
    }
}

#[derive(Clone, Debug)]
enum Op {
    /// A change, in an undo group (`Nudge(g)`) or none.
    Edit(Change, Option<usize>),
    Undo,
    Redo,
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        4 => (0..40usize, 0..60_000i64).prop_map(|(i, t)| Change::Move(i, t)),
        2 => (0..40usize, 0..60_000i64).prop_map(|(i, t)| Change::Insert(i, t)),
        2 => (0..40usize).prop_map(Change::Remove),
        1 => (-5_000..5_000i64).prop_map(Change::ShiftAll),
        1 => (0..10_000i64).prop_map(Change::Lateness),
        1 => (0..12usize).prop_map(Change::Load),
        1 => Just(Change::Nothing),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (change(), prop::option::of(0..2usize)).prop_map(|(c, g)| Op::Edit(c, g)),
        3 => Just(Op::Undo),
        2 => Just(Op::Redo),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Over random edits (grouped or not, of items, of the configuration, loads), undos and
    /// redos: the patches give back the same scenarios, steps and labels as whole snapshots do
    /// (the history before patches, `History<Snapshot>`), and the same numbers of steps.
    #[test]
    fn patched_history_equals_whole_snapshots(start in 0..12usize, ops in prop::collection::vec(op(), 1..60)) {
        let mut edits = Edits::default();
        let mut whole: History<Snapshot, EditGroup> = History::new(MAX_UNDO_STEPS, MAX_UNDO_BYTES);
        let mut cur = Rc::new(stream(start));
        for (n, op) in ops.into_iter().enumerate() {
            match op {
                Op::Edit(change, group) => {
                    let label = format!("edit {n}");
                    let before = edits.before(snapshot(&cur, n, &label));
                    let now = Rc::new(change.apply(&cur));
                    let group = group.map(EditGroup::Nudge);
                    let kind = EditKind { group, ..EditKind::edit(label) };
                    if before.differs_from(&now, None, None) {
                        let cost = before.cost();
                        whole.record(before.clone(), cost, group);
                    }
                    edits.after(before, kind, false, (&now, None, None), String::new);
                    cur = now;
                }
                Op::Undo | Op::Redo => {
                    let back = matches!(op, Op::Undo);
                    let label = edits.peek(back);
                    let expected = if back { whole.peek_undo() } else { whole.peek_redo() }.map(|s| s.label.clone());
                    prop_assert_eq!(&label, &expected);
                    let Some(label) = label else { continue };
                    let current = snapshot(&cur, n, &label);
                    let cost = current.cost();
                    let got = edits.travel(back, current.clone());
                    let want = if back { whole.undo(current, cost) } else { whole.redo(current, cost) };
                    let (Some(got), Some(want)) = (got, want) else {
                        return Err(TestCaseError::fail("both histories travel"));
                    };
                    prop_assert_eq!(&*got.scenario, &*want.scenario);
                    prop_assert_eq!((got.step, &got.label), (want.step, &want.label));
                    cur = got.scenario;
                }
            }
            prop_assert_eq!(
                (edits.history.undo_len(), edits.history.redo_len()),
                (whole.undo_len(), whole.redo_len())
            );
        }
    }

    /// A patch makes its scenario from its neighbour, whatever the two inputs are.
    #[test]
    fn a_patch_makes_its_scenario(a in prop::collection::vec((0..5i64, 0..50i64), 0..30),
                                  b in prop::collection::vec((0..5i64, 0..50i64), 0..30)) {
        let make = |v: &[(i64, i64)]| Scenario { input: v.iter().map(|&(id, ts)| element(id, ts)).collect(), ..Scenario::default() };
        let (this, neighbour) = (make(&a), make(&b));
        prop_assert_eq!(ScenarioPatch::between(&this, &neighbour).apply(&neighbour), this);
    }
}

/// 200 drags of one element of a 100,000-element stream: all 200 steps kept (whole snapshots
/// kept four), for under 256 KB (a whole snapshot: over 8 MB), and undone all the way back to the stream as it was.
#[test]
fn a_large_stream_keeps_every_step_for_what_it_changed() {
    let first = Rc::new(stream(100_000));
    let mut cur = first.clone();
    let mut edits = Edits::default();
    for n in 0..MAX_UNDO_STEPS {
        let before = edits.before(snapshot(&cur, n, "move"));
        let now = Rc::new(Change::Move(50_000 + n, 7 + n as i64).apply(&cur));
        edits.after(before, EditKind::edit("move"), false, (&now, None, None), String::new);
        cur = now;
    }
    assert_eq!(edits.history.undo_len(), MAX_UNDO_STEPS);
    let whole = snapshot(&cur, 0, "x").cost();
    assert!(edits.history.cost() < 256 << 10, "{} bytes for 200 one-item steps", edits.history.cost());
    assert!(whole > 8 << 20, "a whole snapshot is {whole} bytes");
    while let Some(snap) = edits.travel(true, snapshot(&cur, 0, "move")) {
        cur = snap.scenario;
    }
    assert_eq!(*cur, *first);
    assert_eq!(edits.history.redo_len(), MAX_UNDO_STEPS);
}

/// Every step keeps the configuration's texts: a long description counts against the bound, so a
/// scenario with a 1 MB description keeps fewer than 60 steps of one-item edits, not 60 copies.
#[test]
fn a_long_description_counts_against_the_bound() {
    let mut cur = Rc::new(Scenario { description: "x".repeat(1 << 20), ..stream(10) });
    let mut edits = Edits::default();
    for n in 0..60 {
        let before = edits.before(snapshot(&cur, n, "move"));
        let now = Rc::new(Change::Move(n, 7 + n as i64).apply(&cur));
        edits.after(before, EditKind::edit("move"), false, (&now, None, None), String::new);
        cur = now;
    }
    assert!(edits.history.cost() <= MAX_UNDO_BYTES, "{} bytes", edits.history.cost());
    assert!(edits.history.undo_len() < 60, "{} steps of a 1 MB description kept", edits.history.undo_len());
    assert!(edits.history.undo_len() >= 40);
}
