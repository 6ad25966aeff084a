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

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::engine::time::format_millis;
use crate::engine::view::{ElementOutcome, StepView};
use crate::engine::{Output, Run, Window};
use crate::teach::ValueFormat;

use super::{DiffMark, Scene};

pub use crate::ui::action::Side;

/// One difference, as the list under the canvases says it.
#[derive(Clone, Debug, PartialEq)]
pub struct DiffRow {
    /// `firing`, `late`, `dropped`, `counted`, `sink` or `append`.
    pub kind: &'static str,
    pub text: String,
}

/// The differences between the two sides at the playhead.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diff {
    pub rows: Vec<DiffRow>,
    /// (key, window) of each side's firings that differ.
    windows: [BTreeSet<(String, Window)>; 2],
    /// Input positions of the elements whose outcome differs.
    elements: BTreeSet<usize>,
}

/// One side's run folded at the playhead, with where its elements came from.
#[derive(Clone, Copy)]
pub struct SideRun<'a> {
    pub run: &'a Run,
    pub view: &'a StepView,
    /// Input position of each element ordinal.
    pub input_of_elem: &'a [usize],
}

/// (key, window, earlier calls) → (sum, count) of every window function call up to the playhead.
type Calls = BTreeMap<(String, Window, u64), (i64, u64)>;

fn calls(side: &SideRun) -> Calls {
    side.run.outputs[..side.view.outputs.min(side.run.outputs.len())]
        .iter()
        .filter_map(Output::firing)
        .map(|f| ((side.run.key_name(f.key).to_string(), f.window, f.n), (f.sum, f.count)))
        .collect()
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
        let value = |v: (i64, u64)| format!("sum {} count {}", values.value(v.0), v.1);
        let (ca, cb) = (calls(&a), calls(&b));
        let keys: BTreeSet<&(String, Window, u64)> = ca.keys().chain(cb.keys()).collect();
        for k in keys {
            let (va, vb) = (ca.get(k), cb.get(k));
            if va == vb {
                continue;
            }
            let call = if k.2 == 0 { "main firing".to_string() } else { format!("late firing {}", k.2) };
            let say = |v: Option<&(i64, u64)>| v.map_or("none".to_string(), |v| value(*v));
            d.rows.push(DiffRow {
                kind: "firing",
                text: format!("{} {} {call}: A {}, B {}", k.0, window_text(&k.1), say(va), say(vb)),
            });
            for (side, v) in [(0, va), (1, vb)] {
                if v.is_some() {
                    d.windows[side].insert((k.0.clone(), k.1));
                }
            }
        }
        // Elements, by input position where both sides hold the same element.
        let mut by_input: BTreeMap<usize, [Option<usize>; 2]> = BTreeMap::new();
        for (side, s) in [(0, &a), (1, &b)] {
            for (ord, input) in s.input_of_elem.iter().enumerate() {
                by_input.entry(*input).or_default()[side] = Some(ord);
            }
        }
        for (input, [oa, ob]) in by_input {
            let (Some(oa), Some(ob)) = (oa, ob) else { continue };
            let (Some(ea), Some(eb)) = (a.run.elements.get(oa), b.run.elements.get(ob)) else { continue };
            if (ea.id, ea.ts, a.run.key_name(ea.key)) != (eb.id, eb.ts, b.run.key_name(eb.key)) {
                continue;
            }
            let outcome = |s: &SideRun, o: usize| s.view.elements.get(o).copied().flatten();
            let (xa, xb) = (outcome(&a, oa), outcome(&b, ob));
            let same = match (xa, xb) {
                // Counted or not is the difference; which kind of drop is a detail.
                (Some(ElementOutcome::Dropped { .. }), Some(ElementOutcome::Dropped { .. })) => true,
                _ => xa == xb,
            };
            if same {
                continue;
            }
            let dropped = |o| matches!(o, Some(ElementOutcome::Dropped { .. }));
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
            d.elements.insert(input);
        }
        // Sinks: the upsert sink's last value per (key, window), the append-only sink's rows.
        let last = |c: &Calls| -> BTreeMap<(String, Window), (i64, u64)> {
            c.iter().map(|((k, w, _), v)| ((k.clone(), *w), *v)).collect()
        };
        let (la, lb) = (last(&ca), last(&cb));
        let windows: BTreeSet<&(String, Window)> = la.keys().chain(lb.keys()).collect();
        for w in windows {
            let (va, vb) = (la.get(w), lb.get(w));
            if va != vb {
                let say = |v: Option<&(i64, u64)>| v.map_or("no row".to_string(), |v| value(*v));
                d.rows.push(DiffRow {
                    kind: "sink",
                    text: format!("upsert sink, {} {}: A {}, B {}", w.0, window_text(&w.1), say(va), say(vb)),
                });
            }
        }
        if ca.len() != cb.len() {
            d.rows.push(DiffRow {
                kind: "append",
                text: format!("append-only sink: A {} row(s), B {} row(s)", ca.len(), cb.len()),
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
            if windows.contains(&(w.key_name.to_string(), window)) {
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
            if self.elements.contains(&m.index) {
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
