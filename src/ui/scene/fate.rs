//! Which windows an element went into and which firings emitted it, once per run, so that its
//! accessible name can say its outcome *with* the window: "late firing of window 10:00–10:01"
//! (TIMELINE_CONTRACT.md §4). A marble carries a cheap handle (the run's table, its element, how
//! many of its firings the playhead has passed); the words are made when the node is drawn.

use std::rc::Rc;

use crate::engine::trace::FiringKind;
use crate::engine::view::ElementOutcome;
use crate::engine::{Run, TraceKind, Window};
use crate::teach::format;

/// One element's windows over the whole run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ElemFate {
    /// The windows it went into (`ElementAdded`), in the trace's order.
    pub added: Vec<Window>,
    /// The windows that were already late for it (`isWindowLate`).
    pub late: Vec<Window>,
    /// The first firing of each window that emitted it: (input step, window, kind), by step.
    pub firings: Vec<(usize, Window, FiringKind)>,
}

/// Every element's [`ElemFate`], by element ordinal. Compared by identity: one table per run.
#[derive(Clone, Debug, Default)]
pub struct Fates(pub Rc<[ElemFate]>);

impl PartialEq for Fates {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Fates {
    /// One pass over the trace and the firings.
    pub fn new(run: &Run) -> Fates {
        let mut all = vec![ElemFate::default(); run.elements.len()];
        for ev in &run.trace {
            match &ev.kind {
                TraceKind::ElementAdded { elem, window, .. } => {
                    if let Some(f) = all.get_mut(*elem as usize)
                        && !f.added.contains(window)
                    {
                        f.added.push(*window);
                    }
                }
                TraceKind::WindowLate { elem, window, .. } => {
                    if let Some(f) = all.get_mut(*elem as usize)
                        && !f.late.contains(window)
                    {
                        f.late.push(*window);
                    }
                }
                TraceKind::Fired { output, .. } => {
                    let Some(firing) = run.firing(*output) else { continue };
                    for elem in &firing.elems {
                        if let Some(f) = all.get_mut(*elem as usize)
                            && !f.firings.iter().any(|(_, w, _)| *w == firing.window)
                        {
                            f.firings.push((ev.step, firing.window, firing.kind));
                        }
                    }
                }
                _ => {}
            }
        }
        Fates(Rc::from(all))
    }

    /// How many of `elem`'s firings happened before `step` (the playhead).
    pub fn fired_before(&self, elem: usize, step: usize) -> u16 {
        self.0.get(elem).map_or(0, |f| f.firings.iter().take_while(|(s, _, _)| *s < step).count() as u16)
    }

    pub fn handle(&self, elem: usize, step: usize) -> Fate {
        Fate { fates: self.clone(), elem: elem as u32, fired: self.fired_before(elem, step) }
    }
}

/// A marble's handle on its element's windows at the playhead.
#[derive(Clone, Debug, Default)]
pub struct Fate {
    pub fates: Fates,
    pub elem: u32,
    /// How many of its firings the playhead has passed.
    pub fired: u16,
}

/// Equal when [`Fate::describe`] says the same: every run has a table of its own, and a drag
/// re-runs per pointer move, so comparing tables by identity would redraw every marble's node
/// (its name) per move; compared by what the name says, only the marbles whose windows changed.
impl PartialEq for Fate {
    fn eq(&self, other: &Self) -> bool {
        if self.fates == other.fates && self.elem == other.elem {
            return self.fired == other.fired;
        }
        let (a, b) = (self.elem_fate(), other.elem_fate());
        let fired = |f: &ElemFate, n: u16| {
            let n = usize::from(n).min(f.firings.len());
            f.firings[..n].iter().map(|(_, w, k)| (*w, *k)).collect::<Vec<_>>()
        };
        a.added == b.added && a.late == b.late && fired(a, self.fired) == fired(b, other.fired)
    }
}

/// `10:00–10:01`, in the scenario's time format; the global window by name.
pub fn span(w: &Window) -> String {
    match w {
        Window::Global => "the GlobalWindow".into(),
        Window::Time(tw) => format!("{}–{}", format::time(tw.start), format::time(tw.end)),
    }
}

/// "window 10:00–10:01", "windows 10:00–10:01, 10:00:30–10:01:30", or for many sliding copies
/// "96 windows, 09:00–10:00 to 10:35–11:35".
fn windows(ws: &[Window]) -> String {
    let spans: Vec<String> = ws.iter().map(span).collect();
    match spans.len() {
        0 => "no window".into(),
        1 => format!("window {}", spans[0]),
        2..=6 => format!("windows {}", spans.join(", ")),
        // A sliding window of many copies: the first and the last (the name stays readable).
        n => format!("{n} windows, {} to {}", spans[0], spans[n - 1]),
    }
}

/// The fate of an element the table does not have: no windows.
static NO_FATE: ElemFate = ElemFate { added: Vec::new(), late: Vec::new(), firings: Vec::new() };

impl Fate {
    /// Its element's windows and firings over the whole run.
    fn elem_fate(&self) -> &ElemFate {
        self.fates.0.get(self.elem as usize).unwrap_or(&NO_FATE)
    }

    /// The outcome with its window(s): "main firing of window 10:00–10:01", "late firing of …",
    /// "side output: too late for window …", "dropped: …", "not yet fired: window …".
    pub fn describe(&self, outcome: Option<ElementOutcome>) -> String {
        let f = self.elem_fate();
        let fired = &f.firings[..(self.fired as usize).min(f.firings.len())];
        let of_kind =
            |k: FiringKind| -> Vec<Window> { fired.iter().filter(|(_, _, x)| *x == k).map(|(_, w, _)| *w).collect() };
        let unfired: Vec<Window> =
            f.added.iter().filter(|w| !fired.iter().any(|(_, fw, _)| fw == *w)).copied().collect();
        let mut parts = Vec::new();
        for (kind, word) in [(FiringKind::Main, "main"), (FiringKind::Early, "early"), (FiringKind::Late, "late")] {
            let ws = of_kind(kind);
            if !ws.is_empty() {
                parts.push(format!("{word} firing of {}", windows(&ws)));
            }
        }
        match outcome {
            None => "not arrived yet".into(),
            Some(ElementOutcome::SideOutput) => format!("side output: too late for {}", windows(&f.late)),
            Some(ElementOutcome::Dropped { counted: true }) => {
                format!("dropped (numLateRecordsDropped): too late for {}", windows(&f.late))
            }
            Some(ElementOutcome::Dropped { counted: false }) => {
                format!("dropped silently: {} already late", windows(&f.late))
            }
            Some(ElementOutcome::Discarded) if parts.is_empty() => {
                format!("discarded unemitted from {}", windows(&f.added))
            }
            Some(_) => {
                if !unfired.is_empty() && !matches!(outcome, Some(ElementOutcome::Discarded)) {
                    parts.push(format!("not yet fired: {}", windows(&unfired)));
                }
                if parts.is_empty() {
                    parts.push(format!("not yet fired: {}", windows(&f.added)));
                }
                parts.join("; ")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Scenario, run};

    /// Two runs of the same scenario have tables of their own, yet a marble's handle is equal
    /// (its node is not drawn again); after another firing it is not.
    #[test]
    fn handles_compare_by_what_they_say() {
        let s = Scenario::from_json_str(
            r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 10000,
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 59999}, {"id": 2, "key": "A", "ts": 2000}]}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let (a, b) = (Fates::new(&run(&s)), Fates::new(&run(&s)));
        assert_ne!(a, b, "tables compare by identity");
        assert_eq!(a.handle(0, 3), b.handle(0, 3));
        assert_eq!(a.handle(0, 3).describe(None), b.handle(0, 3).describe(None));
        assert_ne!(a.handle(0, 1), b.handle(0, 3), "the late firing passed");
        assert_ne!(a.handle(0, 3), b.handle(1, 3), "element 2 went into no main firing");
    }
}
