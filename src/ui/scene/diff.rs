//! Compare mode's differences (`state::compare`): two runs on the same input, each folded at the
//! one playhead, compared on what downstream would see up to it.
//!
//! ```text
//!  side A: (run, StepView) ─┐                    rows: firing | late | dropped | counted | sink | append
//!                           ├─ Diff::new ──▶     marks: A's and B's windows and elements that differ
//!  side B: (run, StepView) ─┘                    Diff::mark(scene, side) ──▶ Scene::marks (≠ glyphs)
//! ```
//!
//! - **Firings**: a window function call is named by (key, window, how many calls before it); a
//!   call of one side that the other does not make, or makes with another sum or count, differs.
//! - **Elements** (by input position; compared only where both sides hold the same element):
//!   where they ended up (in a firing, a late firing, the side output, dropped, pending) differs.
//! - **Sinks**: the upsert sink's last value per (key, window), and the number of rows an
//!   append-only sink received (a late firing appends a second row for its window).
//!
//! Every mark is a dashed outline with a `≠` glyph and a title that says the difference, so that
//! colour is never the only signal.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::engine::time::format_millis;
use crate::engine::view::{ElementOutcome, StepView};
use crate::engine::{Output, Run, Window};
use crate::teach::ValueFormat;

use super::{DiffMark, Scene};

pub use crate::ui::action::Side;

/// One difference, as the list under the canvases says it.
#[derive(Clone, Debug, PartialEq)]
pub struct DiffRow {
    /// `firing`, `late`, `dropped`, `counted`, `sink`, `append` or `recovery`.
    pub kind: &'static str,
    pub text: String,
}

/// The differences between the two sides at the playhead.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diff {
    /// In emission order: A's, then what only B has.
    pub rows: Vec<DiffRow>,
    /// (key, window) of each side's firings that differ.
    windows: [Vec<(String, Window)>; 2],
    /// Input positions of the elements whose outcome differs, ascending.
    elements: Vec<usize>,
}

/// One side's run folded at the playhead, with where its elements came from.
#[derive(Clone, Copy)]
pub struct SideRun<'a> {
    pub run: &'a Run,
    pub view: &'a StepView,
    /// Input position of each element ordinal.
    pub input_of_elem: &'a [usize],
}

/// A window function call: (key, window, earlier calls of the window).
type Call<'a> = (&'a str, Window, u64);
/// Its sum and count.
type Value = (i64, u64);

/// Every window function call up to the playhead, in emission order.
fn calls<'a>(side: &SideRun<'a>) -> Vec<(Call<'a>, Value)> {
    side.run.outputs[..side.view.outputs.min(side.run.outputs.len())]
        .iter()
        .filter_map(Output::firing)
        .map(|f| ((side.run.key_name(f.key), f.window, f.n), (f.sum, f.count)))
        .collect()
}

/// How many of a side's results up to the playhead are recovery duplicates.
fn recovery_duplicates(side: &SideRun) -> usize {
    let outputs = &side.run.outputs[..side.view.outputs.min(side.run.outputs.len())];
    if !outputs.iter().any(|o| matches!(o, Output::Recovery(_))) {
        return 0;
    }
    (0..outputs.len()).filter(|i| crate::engine::recovery::duplicate_of(outputs, *i).is_some()).count()
}

/// Calls by identity (a later one replaces an earlier one of the same identity).
fn index<'a>(calls: impl Iterator<Item = (Call<'a>, Value)>) -> FxHashMap<Call<'a>, Value> {
    calls.collect()
}

/// A call as the upsert sink keys it: by (key, window) only.
fn per_window<'a>(c: &(Call<'a>, Value)) -> (Call<'a>, Value) {
    ((c.0.0, c.0.1, 0), c.1)
}

fn window_text(w: &Window) -> String {
    match w {
        Window::Global => "the global window".into(),
        Window::Time(t) => format!("[{}, {})", format_millis(t.start), format_millis(t.end)),
    }
}

fn outcome_text(o: Option<ElementOutcome>) -> &'static str {
    match o {
        None => "not arrived",
        Some(ElementOutcome::Pending) => "pending in a window",
        Some(ElementOutcome::OnTime) => "in a firing",
        Some(ElementOutcome::InLateFiring) => "in a late firing",
        Some(ElementOutcome::SideOutput) => "late, to the side output",
        Some(ElementOutcome::Dropped { .. }) => "late, dropped",
        Some(ElementOutcome::Discarded) => "discarded",
    }
}

fn counts(o: Option<ElementOutcome>) -> bool {
    matches!(o, Some(ElementOutcome::Pending | ElementOutcome::OnTime | ElementOutcome::InLateFiring))
}

impl Diff {
    pub fn new(a: SideRun, b: SideRun, values: ValueFormat) -> Diff {
        let mut d = Diff::default();
        let say = |v: Option<&Value>, none: &str| {
            v.map_or(none.to_string(), |v| format!("sum {} count {}", values.value(v.0), v.1))
        };
        let (ca, cb) = (calls(&a), calls(&b));
        let (ia, ib) = (index(ca.iter().copied()), index(cb.iter().copied()));
        // Calls: A's in emission order, then those only B makes.
        let only_b = cb.iter().filter(|(c, _)| !ia.contains_key(c));
        // A call repeated by a replay after a restore (same identity) is said once.
        let mut said = Vec::new();
        for (c, _) in ca.iter().filter(|(c, v)| ib.get(c) != Some(v)).chain(only_b) {
            if said.contains(c) {
                continue;
            }
            said.push(*c);
            let (va, vb) = (ia.get(c), ib.get(c));
            let call = if c.2 == 0 { "main firing".to_string() } else { format!("late firing {}", c.2) };
            d.rows.push(DiffRow {
                kind: "firing",
                text: format!("{} {} {call}: A {}, B {}", c.0, window_text(&c.1), say(va, "none"), say(vb, "none")),
            });
            for (side, v) in [(0, va), (1, vb)] {
                if v.is_some() && !d.windows[side].iter().any(|(k, w)| k == c.0 && *w == c.1) {
                    d.windows[side].push((c.0.to_string(), c.1));
                }
            }
        }
        // Elements, by input position where both sides hold the same element.
        let mut b_at_input = Vec::new();
        for (ord, input) in b.input_of_elem.iter().enumerate() {
            if b_at_input.len() <= *input {
                b_at_input.resize(input + 1, None);
            }
            b_at_input[*input] = Some(ord);
        }
        for (oa, input) in a.input_of_elem.iter().enumerate() {
            let Some(ob) = b_at_input.get(*input).copied().flatten() else { continue };
            let (Some(ea), Some(eb)) = (a.run.elements.get(oa), b.run.elements.get(ob)) else { continue };
            if (ea.id, ea.ts, a.run.key_name(ea.key)) != (eb.id, eb.ts, b.run.key_name(eb.key)) {
                continue;
            }
            let outcome = |s: &SideRun, o: usize| s.view.elements.get(o).copied().flatten();
            let (xa, xb) = (outcome(&a, oa), outcome(&b, ob));
            let dropped = |o| matches!(o, Some(ElementOutcome::Dropped { .. }));
            // Counted or not is the difference; which kind of drop is a detail.
            if xa == xb || (dropped(xa) && dropped(xb)) {
                continue;
            }
            let kind = if dropped(xa) || dropped(xb) {
                "dropped"
            } else if xa == Some(ElementOutcome::SideOutput) || xb == Some(ElementOutcome::SideOutput) {
                "late"
            } else {
                "counted"
            };
            let counted = match (counts(xa), counts(xb)) {
                (true, false) => " (counted in A only)",
                (false, true) => " (counted in B only)",
                _ => "",
            };
            d.rows.push(DiffRow {
                kind,
                text: format!(
                    "element {} (key {}, ts {}): A {}, B {}{counted}",
                    ea.id,
                    a.run.key_name(ea.key),
                    format_millis(ea.ts),
                    outcome_text(xa),
                    outcome_text(xb)
                ),
            });
            d.elements.push(*input);
        }
        // Sinks: the upsert sink's last value per (key, window), once per window (at its first
        // call); the append-only sink's rows.
        let (la, lb) = (index(ca.iter().map(per_window)), index(cb.iter().map(per_window)));
        let only_b = cb.iter().filter(|(c, _)| c.2 == 0 && !la.contains_key(&(c.0, c.1, 0)));
        for w in ca.iter().filter(|(c, _)| c.2 == 0).chain(only_b).map(|c| per_window(c).0) {
            let (va, vb) = (la.get(&w), lb.get(&w));
            if va != vb {
                d.rows.push(DiffRow {
                    kind: "sink",
                    text: format!(
                        "upsert sink, {} {}: A {}, B {}",
                        w.0,
                        window_text(&w.1),
                        say(va, "no row"),
                        say(vb, "no row")
                    ),
                });
            }
        }
        if ca.len() != cb.len() {
            d.rows.push(DiffRow {
                kind: "append",
                text: format!("append-only sink: A {} row(s), B {} row(s)", ca.len(), cb.len()),
            });
        }
        // Recovery duplicates: results a replay after a restore repeated, identical.
        let (da, db) = (recovery_duplicates(&a), recovery_duplicates(&b));
        if da != db || da > 0 {
            d.rows.push(DiffRow {
                kind: "recovery",
                text: format!("recovery duplicates (repeated by the replay): A {da}, B {db}"),
            });
        }
        d
    }

    /// The marks of `side` on its scene: its differing windows and elements.
    pub fn mark(&self, scene: &mut Scene, side: Side) {
        let windows = &self.windows[side as usize];
        let mut marks = Vec::new();
        for w in scene.windows.iter().flat_map(|g| g.items.iter()).filter(|w| !w.merged) {
            let window = match w.bounds {
                Some((start, end)) => Window::Time(crate::engine::time::TimeWindow { start, end }),
                None => Window::Global,
            };
            if windows.iter().any(|(k, x)| **k == *w.key_name && *x == window) {
                marks.push(DiffMark {
                    kind: "window",
                    x: w.x0,
                    y: w.y,
                    width: w.width.max(4.0),
                    height: w.height,
                    title: Rc::from(format!("differs: {} {}", w.key_name, window_text(&window))),
                });
            }
        }
        for m in scene.marbles.iter().flat_map(|g| g.items.iter()) {
            if self.elements.binary_search(&m.index).is_ok() {
                let r = super::layout::dims::MARBLE_R + 3.0;
                marks.push(DiffMark {
                    kind: "element",
                    x: m.x - r,
                    y: m.y - r,
                    width: 2.0 * r,
                    height: 2.0 * r,
                    title: Rc::from(format!("differs: element {}", m.elem_id)),
                });
            }
        }
        scene.marks = marks;
    }
}
