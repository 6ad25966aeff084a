//! Which windows an element went into and which firings emitted it, once per run, so that its
//! accessible name can say its outcome *with* the window: "late firing of window 10:00–10:01"
//! (TIMELINE_CONTRACT.md §4). A marble carries a cheap handle (the run's table, its element, how
//! many of its firings and losses the playhead has passed); the words are made when the node is
//! drawn.
//!
//! Each of an element's windows is named by what happened to it: a firing that emitted the element,
//! or a loss without one (evicted before the function, purged, or cleaned up at the cleanup time
//! with the element still unemitted: a count trigger that never reached its count), or "not yet
//! fired" while neither has happened. A session window is the element's window once merged: the
//! window that fired or was cleaned up contains the one the element was added to.

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
    /// Each window that let go of it before any firing of that window emitted it: (input step,
    /// window, how), by step.
    pub lost: Vec<(usize, Window, Lost)>,
}

/// How a window let go of an element without emitting it (the trace's events).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lost {
    /// `Evicted` before the window function.
    Evicted,
    /// `Purged`: the trigger said PURGE.
    Purged,
    /// `CleanedUp`: `clearAllState` at the window's cleanup time.
    CleanedUp,
}

impl Lost {
    fn words(self) -> &'static str {
        match self {
            Lost::Evicted => "evicted before firing",
            Lost::Purged => "purged without firing",
            Lost::CleanedUp => "cleaned up without firing",
        }
    }
}

/// `big` is `w` or, for merged sessions, a window that grew out of it.
fn covers(big: &Window, w: &Window) -> bool {
    match (big, w) {
        (Window::Time(b), Window::Time(x)) => b.start <= x.start && x.end <= b.end,
        _ => big == w,
    }
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
                TraceKind::Evicted { window, elems, after_function: false, .. } => {
                    lose(&mut all, elems, window, ev.step, Lost::Evicted)
                }
                TraceKind::Purged { window, elems, .. } => lose(&mut all, elems, window, ev.step, Lost::Purged),
                TraceKind::CleanedUp { window, elems, .. } => lose(&mut all, elems, window, ev.step, Lost::CleanedUp),
                _ => {}
            }
        }
        // Most lists hold one to three entries, and a list that grew holds room for four: at
        // 100,000 elements that room was 20 MB of the page's memory (twice over while a new run
        // is installed beside the old one).
        // (`lost` is rare: only elements no firing emitted have one.)
        for f in &mut all {
            f.added.shrink_to_fit();
            f.late.shrink_to_fit();
            f.firings.shrink_to_fit();
        }
        Fates(Rc::from(all))
    }

    /// How many of `elem`'s firings happened before `step` (the playhead).
    pub fn fired_before(&self, elem: usize, step: usize) -> u16 {
        self.0.get(elem).map_or(0, |f| f.firings.iter().take_while(|(s, _, _)| *s < step).count() as u16)
    }

    pub fn handle(&self, elem: usize, step: usize) -> Fate {
        let lost = self.0.get(elem).map_or(0, |f| f.lost.iter().take_while(|(s, _, _)| *s < step).count() as u16);
        Fate { fates: self.clone(), elem: elem as u32, fired: self.fired_before(elem, step), lost }
    }
}

/// `window` let go of `elems`: a loss for each of them that no firing of it has emitted.
fn lose(all: &mut [ElemFate], elems: &[crate::engine::trace::ElemIdx], window: &Window, step: usize, how: Lost) {
    for elem in elems {
        if let Some(f) = all.get_mut(*elem as usize)
            && !f.firings.iter().any(|(_, w, _)| w == window)
            && !f.lost.iter().any(|(_, w, _)| w == window)
        {
            f.lost.push((step, *window, how));
        }
    }
}

/// A marble's handle on its element's windows at the playhead.
#[derive(Clone, Debug, Default)]
pub struct Fate {
    pub fates: Fates,
    pub elem: u32,
    /// How many of its firings the playhead has passed.
    pub fired: u16,
    /// How many of its losses ([`ElemFate::lost`]) the playhead has passed.
    pub lost: u16,
}

/// Equal when [`Fate::describe`] says the same: every run has a table of its own, and a drag
/// re-runs per pointer move, so comparing tables by identity would redraw every marble's node
/// (its name) per move; compared by what the name says, only the marbles whose windows changed.
impl PartialEq for Fate {
    fn eq(&self, other: &Self) -> bool {
        if self.fates == other.fates && self.elem == other.elem {
            return self.fired == other.fired && self.lost == other.lost;
        }
        let (a, b) = (self.elem_fate(), other.elem_fate());
        let fired = |f: &ElemFate, n: u16| {
            let n = usize::from(n).min(f.firings.len());
            f.firings[..n].iter().map(|(_, w, k)| (*w, *k)).collect::<Vec<_>>()
        };
        let lost = |f: &ElemFate, n: u16| {
            let n = usize::from(n).min(f.lost.len());
            f.lost[..n].iter().map(|(_, w, how)| (*w, *how)).collect::<Vec<_>>()
        };
        a.added == b.added
            && a.late == b.late
            && fired(a, self.fired) == fired(b, other.fired)
            && lost(a, self.lost) == lost(b, other.lost)
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
static NO_FATE: ElemFate = ElemFate { added: Vec::new(), late: Vec::new(), firings: Vec::new(), lost: Vec::new() };

impl Fate {
    /// Its element's windows and firings over the whole run.
    fn elem_fate(&self) -> &ElemFate {
        self.fates.0.get(self.elem as usize).unwrap_or(&NO_FATE)
    }

    /// The outcome with its window(s): "main firing of window 10:00–10:01", "late firing of …",
    /// "side output: too late for window …", "dropped: …", "cleaned up without firing: window …",
    /// "not yet fired: window …".
    pub fn describe(&self, outcome: Option<ElementOutcome>) -> String {
        let f = self.elem_fate();
        let fired = &f.firings[..(self.fired as usize).min(f.firings.len())];
        let of_kind =
            |k: FiringKind| -> Vec<Window> { fired.iter().filter(|(_, _, x)| *x == k).map(|(_, w, _)| *w).collect() };
        let lost = &f.lost[..(self.lost as usize).min(f.lost.len())];
        let unfired: Vec<Window> =
            f.added.iter().filter(|w| !fired.iter().any(|(_, fw, _)| covers(fw, w))).copied().collect();
        let lost_how = |w: &Window| lost.iter().find(|(_, lw, _)| covers(lw, w)).map(|(_, _, how)| *how);
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
                for how in [Lost::Evicted, Lost::Purged, Lost::CleanedUp] {
                    let ws: Vec<Window> = unfired.iter().filter(|w| lost_how(w) == Some(how)).copied().collect();
                    if !ws.is_empty() {
                        parts.push(format!("{}: {}", how.words(), windows(&ws)));
                    }
                }
                let waiting: Vec<Window> = unfired.iter().filter(|w| lost_how(w).is_none()).copied().collect();
                if !waiting.is_empty() && !matches!(outcome, Some(ElementOutcome::Discarded)) {
                    parts.push(format!("not yet fired: {}", windows(&waiting)));
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
    use crate::engine::view::at_step;
    use crate::engine::{Scenario, TimeWindow, run};

    /// The name of the element `id` with the playhead at the end, and the run.
    fn names(json: &str) -> (Run, Vec<String>) {
        let s = Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"));
        let r = run(&s);
        let fates = Fates::new(&r);
        let view = at_step(&r, r.steps);
        let names = (0..r.elements.len()).map(|i| fates.handle(i, r.steps).describe(view.elements[i])).collect();
        (r, names)
    }

    fn win(start: i64, end: i64) -> Window {
        Window::Time(TimeWindow { start, end })
    }

    /// Sliding windows under `CountTrigger.of(2)`: element 1 is in 0–10 s, which reaches two
    /// elements and fires (an early firing: before the window's end), and in 5–15 s, which never
    /// reaches two and is cleaned up at its cleanup time with element 1 still in it. The name
    /// said "not yet fired: window 5000–15000" at the end of the run.
    #[test]
    fn a_window_cleaned_up_without_firing_says_so_beside_the_one_that_fired() {
        let (r, names) = names(
            r#"{"assigner": {"kind": "sliding", "size": 10000, "slide": 5000},
                "trigger": {"kind": "count", "n": 2},
                "input": [{"id": 1, "key": "A", "ts": 7000}, {"id": 2, "key": "A", "ts": 3000}]}"#,
        );
        // What Flink did, in the engine's trace: 5–15 s never fired, and its cleanup cleared it
        // with element 1 inside.
        assert!(
            !r.trace.iter().any(|e| matches!(&e.kind, TraceKind::Fired { window, .. } if *window == win(5000, 15000)))
        );
        assert!(r.trace.iter().any(|e| matches!(&e.kind,
            TraceKind::CleanedUp { window, elems, .. } if *window == win(5000, 15000) && elems.contains(&0))));
        assert!(!names[0].contains("not yet fired"), "{}", names[0]);
        assert!(names[0].contains("firing of window"), "{}", names[0]);
        assert_eq!(names[0], "early firing of window 0–10000; cleaned up without firing: window 5000–15000");
        assert!(names[1].ends_with("; cleaned up without firing: window -5000–5000"), "{}", names[1]);
    }

    /// Before its cleanup the same window is waiting: "not yet fired".
    #[test]
    fn before_the_cleanup_the_window_has_not_fired_yet() {
        let s = Scenario::from_json_str(
            r#"{"assigner": {"kind": "sliding", "size": 10000, "slide": 5000},
                "trigger": {"kind": "count", "n": 2},
                "input": [{"id": 1, "key": "A", "ts": 7000}, {"id": 2, "key": "A", "ts": 3000}]}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let r = run(&s);
        let name = Fates::new(&r).handle(0, 2).describe(at_step(&r, 2).elements[0]);
        assert_eq!(name, "early firing of window 0–10000; not yet fired: window 5000–15000");
        // Handles of two runs' tables compare by what they say: the cleanup changes the name.
        let other = Fates::new(&run(&s));
        assert_ne!(Fates::new(&r).handle(0, 2), other.handle(0, r.steps), "the cleanup passed");
        assert_eq!(Fates::new(&r).handle(0, r.steps), other.handle(0, r.steps));
    }

    /// `CountEvictor.of(1)` on sliding windows: 0–10 s evicts element 1 before its function and
    /// emits element 2; 5–15 s emits element 1.
    #[test]
    fn an_evicted_element_names_the_window_that_evicted_it() {
        let (r, names) = names(
            r#"{"assigner": {"kind": "sliding", "size": 10000, "slide": 5000},
                "evictor": {"kind": "count", "n": 1},
                "input": [{"id": 1, "key": "A", "ts": 7000}, {"id": 2, "key": "A", "ts": 3000}]}"#,
        );
        assert!(r.trace.iter().any(|e| matches!(&e.kind,
            TraceKind::Evicted { window, elems, after_function: false, .. } if *window == win(0, 10000) && elems.contains(&0))));
        assert_eq!(names[0], "main firing of window 5000–15000; evicted before firing: window 0–10000");
    }

    /// A session that merged: the window that fired contains the one the element was added to.
    #[test]
    fn a_merged_session_is_the_elements_window() {
        let (_, names) = names(
            r#"{"assigner": {"kind": "session", "gap": 5000},
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"id": 2, "key": "A", "ts": 4000}]}"#,
        );
        for n in &names {
            assert!(!n.contains("not yet fired"), "{n}");
            assert!(n.contains("main firing of window"), "{n}");
        }
    }

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
