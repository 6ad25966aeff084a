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

/// Lists of every element in one buffer: element `e`'s are `items[at[e]..at[e + 1]]`.
#[derive(Clone, Debug, PartialEq)]
struct Lists<T> {
    at: Vec<u32>,
    items: Vec<T>,
}

impl<T> Default for Lists<T> {
    fn default() -> Self {
        Lists { at: Vec::new(), items: Vec::new() }
    }
}

impl<T: Copy> Lists<T> {
    fn of(&self, elem: usize) -> &[T] {
        match (self.at.get(elem), self.at.get(elem + 1)) {
            (Some(&a), Some(&b)) => self.items.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// No item: the end of a chain.
const NONE: u32 = u32::MAX;

/// Each element's list as a chain through one buffer, in the order its items came (the trace's),
/// then packed into [`Lists`]. Only the items kept take room: counting each element's entries
/// beforehand would take room for every firing that emitted it, and a trigger that fires a window
/// again and again (a continuous or non-purging count trigger, late firings) emits its elements
/// many times over.
struct Chains<T> {
    /// Each item and the next of its element's (or [`NONE`]).
    items: Vec<(T, u32)>,
    first: Vec<u32>,
    last: Vec<u32>,
}

impl<T: Copy> Chains<T> {
    fn new(elements: usize) -> Chains<T> {
        Chains { items: Vec::new(), first: vec![NONE; elements], last: vec![NONE; elements] }
    }

    /// `elem`'s items so far.
    fn of(&self, elem: usize) -> impl Iterator<Item = T> + '_ {
        let mut at = self.first.get(elem).copied().unwrap_or(NONE);
        std::iter::from_fn(move || {
            let (item, next) = *self.items.get(at as usize)?;
            at = next;
            Some(item)
        })
    }

    fn push(&mut self, elem: usize, item: T) {
        let Some(last) = self.last.get(elem).copied() else { return };
        let i = self.items.len() as u32;
        self.items.push((item, NONE));
        match self.items.get_mut(last as usize) {
            Some(before) => before.1 = i,
            None => self.first[elem] = i,
        }
        self.last[elem] = i;
    }

    /// The lists, each element's in one run.
    fn done(self) -> Lists<T> {
        let mut at = Vec::with_capacity(self.first.len() + 1);
        let mut items = Vec::with_capacity(self.items.len());
        at.push(0);
        for e in 0..self.first.len() {
            items.extend(self.of(e));
            at.push(items.len() as u32);
        }
        Lists { at, items }
    }
}

/// What the trace says of one element, for [`FateTable`].
#[derive(Clone, Copy)]
enum Entry<'a> {
    Added(u32, &'a Window),
    Late(u32, &'a Window),
    Fired(u32, usize, &'a Window, FiringKind),
    Lost(u32, usize, &'a Window, Lost),
}

/// Every [`Entry`] of `run`, in the trace's order.
fn entries<'a>(run: &'a Run, mut f: impl FnMut(Entry<'a>)) {
    for ev in &run.trace {
        let mut lose = |elems: &[crate::engine::trace::ElemIdx], window: &'a Window, how: Lost| {
            elems.iter().for_each(|e| f(Entry::Lost(*e, ev.step, window, how)))
        };
        match &ev.kind {
            TraceKind::ElementAdded { elem, window, .. } => f(Entry::Added(*elem, window)),
            TraceKind::WindowLate { elem, window, .. } => f(Entry::Late(*elem, window)),
            TraceKind::Fired { output, .. } => {
                let Some(firing) = run.firing(*output) else { continue };
                for elem in &firing.elems {
                    f(Entry::Fired(*elem, ev.step, &firing.window, firing.kind));
                }
            }
            TraceKind::Evicted { window, elems, after_function: false, .. } => lose(elems, window, Lost::Evicted),
            TraceKind::Purged { window, elems, .. } => lose(elems, window, Lost::Purged),
            TraceKind::CleanedUp { window, elems, .. } => lose(elems, window, Lost::CleanedUp),
            _ => {}
        }
    }
}

/// Every element's windows and firings over the whole run, by element ordinal, in a few flat
/// buffers: the windows by number, each kind's lists in one buffer. A `Vec` per element and list
/// (an [`ElemFate`] each) held about 25 MB of a 100,000-element sliding page, in 200,000 small
/// blocks made anew at every install, where they scattered through the heap and made it grow.
#[derive(Debug, Default)]
pub struct FateTable {
    windows: Vec<Window>,
    added: Lists<u32>,
    late: Lists<u32>,
    /// (input step, window, kind).
    firings: Lists<(u32, u32, FiringKind)>,
    /// (input step, window, how).
    lost: Lists<(u32, u32, Lost)>,
}

/// Every element's fate, by element ordinal. Compared by identity: one table per run.
#[derive(Clone, Debug, Default)]
pub struct Fates(Rc<FateTable>);

impl PartialEq for Fates {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// An input step as kept (the limits keep steps far below 4 billion).
fn step32(step: usize) -> u32 {
    u32::try_from(step).unwrap_or(u32::MAX)
}

impl Fates {
    /// One pass over the trace and the firings, keeping an element's window once per list, a
    /// firing once per window, and a loss only of a window that no firing so far emitted it from.
    pub fn new(run: &Run) -> Fates {
        let n = run.elements.len();
        let (mut added, mut late) = (Chains::new(n), Chains::new(n));
        let (mut firings, mut lost) = (Chains::new(n), Chains::new(n));
        let mut windows: Vec<Window> = Vec::new();
        // `u64` numbers: the engine's `FxHashMap<Window, u64>` (`KeyState::firings`) is in the
        // page's wasm already, and another map type there costs its code again.
        let mut numbers: rustc_hash::FxHashMap<Window, u64> = Default::default();
        let mut number = |w: &Window| {
            let n = numbers.entry(*w).or_insert(windows.len() as u64);
            if *n == windows.len() as u64 {
                windows.push(*w);
            }
            *n as u32
        };
        entries(run, |e| match e {
            Entry::Added(el, w) | Entry::Late(el, w) if (el as usize) < n => {
                let list = if matches!(e, Entry::Added(..)) { &mut added } else { &mut late };
                let w = number(w);
                if !list.of(el as usize).any(|x| x == w) {
                    list.push(el as usize, w);
                }
            }
            Entry::Fired(el, step, w, kind) if (el as usize) < n => {
                let w = number(w);
                if !firings.of(el as usize).any(|(_, fw, _)| fw == w) {
                    firings.push(el as usize, (step32(step), w, kind));
                }
            }
            Entry::Lost(el, step, w, how) if (el as usize) < n => {
                let (e, w) = (el as usize, number(w));
                if !firings.of(e).any(|(_, fw, _): (u32, u32, FiringKind)| fw == w)
                    && !lost.of(e).any(|(_, lw, _): (u32, u32, Lost)| lw == w)
                {
                    lost.push(e, (step32(step), w, how));
                }
            }
            _ => {}
        });
        drop(numbers);
        windows.shrink_to_fit();
        Fates(Rc::new(FateTable {
            windows,
            added: added.done(),
            late: late.done(),
            firings: firings.done(),
            lost: lost.done(),
        }))
    }

    /// A table of these elements' fates (tests).
    #[cfg(test)]
    pub fn from_elems(elems: &[ElemFate]) -> Fates {
        let mut windows: Vec<Window> = Vec::new();
        let mut number = |w: &Window| match windows.iter().position(|x| x == w) {
            Some(i) => i as u32,
            None => {
                windows.push(*w);
                (windows.len() - 1) as u32
            }
        };
        let mut t = FateTable::default();
        for at in [&mut t.added.at, &mut t.late.at, &mut t.firings.at, &mut t.lost.at] {
            at.push(0);
        }
        for f in elems {
            t.added.items.extend(f.added.iter().map(&mut number));
            t.late.items.extend(f.late.iter().map(&mut number));
            t.firings.items.extend(f.firings.iter().map(|(s, w, k)| (step32(*s), number(w), *k)));
            t.lost.items.extend(f.lost.iter().map(|(s, w, h)| (step32(*s), number(w), *h)));
            t.added.at.push(t.added.items.len() as u32);
            t.late.at.push(t.late.items.len() as u32);
            t.firings.at.push(t.firings.items.len() as u32);
            t.lost.at.push(t.lost.items.len() as u32);
        }
        t.windows = windows;
        Fates(Rc::new(t))
    }

    /// How many elements the table has (tests).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.0.added.at.len().saturating_sub(1)
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `elem`'s fate, in lists of its own (no windows: an element the table does not have).
    pub fn elem(&self, elem: usize) -> ElemFate {
        let v = self.view(elem);
        ElemFate {
            added: v.added().collect(),
            late: v.late().collect(),
            firings: v.firings().collect(),
            lost: v.lost().collect(),
        }
    }

    fn view(&self, elem: usize) -> FateView<'_> {
        let t = &*self.0;
        FateView {
            t,
            added: t.added.of(elem),
            late: t.late.of(elem),
            firings: t.firings.of(elem),
            lost: t.lost.of(elem),
        }
    }

    /// How many of `elem`'s firings happened before `step` (the playhead).
    pub fn fired_before(&self, elem: usize, step: usize) -> u16 {
        self.0.firings.of(elem).iter().take_while(|(s, _, _)| (*s as usize) < step).count() as u16
    }

    pub fn handle(&self, elem: usize, step: usize) -> Fate {
        let lost = self.0.lost.of(elem).iter().take_while(|(s, _, _)| (*s as usize) < step).count() as u16;
        Fate { fates: self.clone(), elem: elem as u32, fired: self.fired_before(elem, step), lost }
    }
}

/// One element's lists in a [`FateTable`], its windows by number.
struct FateView<'a> {
    t: &'a FateTable,
    added: &'a [u32],
    late: &'a [u32],
    firings: &'a [(u32, u32, FiringKind)],
    lost: &'a [(u32, u32, Lost)],
}

impl FateView<'_> {
    fn window(&self, w: u32) -> Window {
        self.t.windows.get(w as usize).copied().unwrap_or(Window::Global)
    }

    fn added(&self) -> impl Iterator<Item = Window> + '_ {
        self.added.iter().map(|w| self.window(*w))
    }

    fn late(&self) -> impl Iterator<Item = Window> + '_ {
        self.late.iter().map(|w| self.window(*w))
    }

    fn firings(&self) -> impl Iterator<Item = (usize, Window, FiringKind)> + '_ {
        self.firings.iter().map(|(s, w, k)| (*s as usize, self.window(*w), *k))
    }

    fn lost(&self) -> impl Iterator<Item = (usize, Window, Lost)> + '_ {
        self.lost.iter().map(|(s, w, h)| (*s as usize, self.window(*w), *h))
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
        let (a, b) = (self.fates.view(self.elem as usize), other.fates.view(other.elem as usize));
        let fired = |f: &FateView, n: u16| f.firings().take(usize::from(n)).map(|(_, w, k)| (w, k)).collect::<Vec<_>>();
        let lost = |f: &FateView, n: u16| f.lost().take(usize::from(n)).map(|(_, w, how)| (w, how)).collect::<Vec<_>>();
        a.added().eq(b.added())
            && a.late().eq(b.late())
            && fired(&a, self.fired) == fired(&b, other.fired)
            && lost(&a, self.lost) == lost(&b, other.lost)
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

impl Fate {
    /// Its element's windows and firings over the whole run.
    fn elem_fate(&self) -> ElemFate {
        self.fates.elem(self.elem as usize)
    }

    /// The outcome with its window(s): "main firing of window 10:00–10:01", "late firing of …",
    /// "side output: too late for window …", "dropped: …", "cleaned up without firing: window …",
    /// "not yet fired: window …".
    pub fn describe(&self, outcome: Option<ElementOutcome>) -> String {
        let f = &self.elem_fate();
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

    /// The table as it was made before it was flat (a `Vec` per element and list): the flat one
    /// must say the same of every element.
    fn per_element(run: &Run) -> Vec<ElemFate> {
        fn lose(all: &mut [ElemFate], elems: &[u32], window: &Window, step: usize, how: Lost) {
            for elem in elems {
                if let Some(f) = all.get_mut(*elem as usize)
                    && !f.firings.iter().any(|(_, w, _)| w == window)
                    && !f.lost.iter().any(|(_, w, _)| w == window)
                {
                    f.lost.push((step, *window, how));
                }
            }
        }
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
        all
    }

    fn same_as_per_element(r: &Run) -> Result<(), String> {
        let (flat, each) = (Fates::new(r), per_element(r));
        if flat.len() != each.len() {
            return Err(format!("{} elements, not {}", flat.len(), each.len()));
        }
        for (e, want) in each.iter().enumerate() {
            if flat.elem(e) != *want {
                return Err(format!("element {e}: {:?}, not {want:?}", flat.elem(e)));
            }
            // And a table made from the lists says the same.
            if Fates::from_elems(&each).elem(e) != *want {
                return Err(format!("element {e} from its lists"));
            }
        }
        Ok(())
    }

    /// Every course preset (tumbling, sliding, sessions that merge, count triggers, evictors,
    /// purges, late and dropped elements, lateness) and its compare configuration.
    #[test]
    fn the_flat_table_says_what_lists_per_element_said_for_every_preset() {
        let presets = crate::teach::presets::all();
        assert!(presets.len() > 20);
        for p in presets {
            for s in std::iter::once(&p.scenario).chain(p.compare.as_ref().filter(|c| !c.input.is_empty())) {
                let r = run(s);
                if let Err(e) = same_as_per_element(&r) {
                    panic!("preset {}: {e}", p.id);
                }
            }
        }
        // An element the table does not have: no windows.
        let f = Fates::new(&run(&Scenario::default()));
        assert_eq!((f.len(), f.elem(3), f.fired_before(3, 9)), (0, ElemFate::default(), 0));
    }

    mod random {
        use proptest::prelude::*;

        use super::*;
        use crate::engine::scenario::{
            AssignerSpec, BaseTrigger, Element, EvictorKind, EvictorSpec, InputItem, TriggerSpec,
        };

        fn scenario() -> impl Strategy<Value = Scenario> {
            let assigner = prop_oneof![
                (1i64..=6).prop_map(|s| AssignerSpec::Tumbling { size: s * 10, offset: 0 }),
                (1i64..=4, 1i64..=3).prop_map(|(n, s)| AssignerSpec::Sliding {
                    size: s * 10 * n,
                    slide: s * 10,
                    offset: 0
                }),
                (1i64..=4).prop_map(|g| AssignerSpec::Session { gap: g * 10 }),
            ];
            let trigger = prop_oneof![
                Just(TriggerSpec::DEFAULT),
                Just(TriggerSpec { base: BaseTrigger::EventTime, purging: true }),
                (1i64..=3, any::<bool>())
                    .prop_map(|(n, purging)| TriggerSpec { base: BaseTrigger::Count { n }, purging }),
            ];
            let evictor = prop_oneof![
                Just(None),
                (1i64..=3, any::<bool>())
                    .prop_map(|(n, after)| Some(EvictorSpec { kind: EvictorKind::Count { n }, do_evict_after: after })),
            ];
            let input = prop::collection::vec(
                prop_oneof![
                    4 => (0usize..3, 0i64..200).prop_map(|(k, ts)| Some((k, ts))),
                    1 => Just(None),
                ],
                0..40,
            );
            (assigner, trigger, evictor, prop::option::of(0i64..=5), any::<bool>(), input).prop_map(
                |(assigner, trigger, evictor, lateness, side_output, items)| Scenario {
                    assigner,
                    trigger,
                    evictor,
                    allowed_lateness: lateness.map(|l| l * 10),
                    side_output,
                    input: items
                        .into_iter()
                        .enumerate()
                        .map(|(i, e)| match e {
                            Some((k, ts)) => InputItem::Element(Element {
                                id: i as i64,
                                key: ["A", "B", "C"][k].into(),
                                ts,
                                value: 1,
                                ..Element::default()
                            }),
                            None => InputItem::Watermark(i as i64 * 10),
                        })
                        .collect(),
                    ..Scenario::default()
                },
            )
        }

        proptest! {
            /// Random streams through tumbling, sliding and session windows, event-time and count
            /// triggers (purging or not), count evictors, lateness and the side output.
            #[test]
            fn the_flat_table_says_what_lists_per_element_said(s in scenario()) {
                let r = run(&s);
                prop_assert_eq!(same_as_per_element(&r), Ok(()));
            }
        }
    }
}
