//! A bounded undo/redo history, independent of what it stores (the app stores [`super::state`]'s
//! scenario snapshots in it).
//!
//! ```text
//!   record(before) ──▶ past: [.., before]   future: []        (a new edit forgets the redo side)
//!   undo(current)  ──▶ past: [..]           future: [current] ──▶ returns `before`
//!   redo(current)  ──▶ past: [.., current]  future: []        ──▶ returns what undo put aside
//! ```
//!
//! Two bounds: at most `max_steps` entries on the undo side, and at most `max_cost` in total
//! (each entry's cost is given by the caller, e.g. an estimate of its bytes). The oldest
//! entries go first, but the newest one is always kept, however costly, so the last edit can
//! always be undone. Consecutive edits of the same `group` (typing into one field) are one
//! step: the entry from the group's first edit stays, the later ones are not recorded.

use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct History<T, G = ()> {
    past: VecDeque<(T, usize)>,
    future: VecDeque<(T, usize)>,
    max_steps: usize,
    max_cost: usize,
    /// Total cost of `past` and `future`.
    cost: usize,
    /// The group of the last recorded edit, while it may still absorb the next one.
    open_group: Option<G>,
}

impl<T, G: PartialEq> History<T, G> {
    /// An empty history of at most `max_steps` undo steps (at least 1) and `max_cost` in total.
    pub fn new(max_steps: usize, max_cost: usize) -> Self {
        History {
            past: VecDeque::new(),
            future: VecDeque::new(),
            max_steps: max_steps.max(1),
            max_cost,
            cost: 0,
            open_group: None,
        }
    }

    /// Records the state from before an edit. Returns `false` when the edit was absorbed into the
    /// open group (same non-`None` group as the previous record, with no undo or redo between).
    pub fn record(&mut self, before: T, cost: usize, group: Option<G>) -> bool {
        self.cost -= self.future.drain(..).map(|(_, c)| c).sum::<usize>();
        if group.is_some() && group == self.open_group && !self.past.is_empty() {
            return false;
        }
        self.open_group = group;
        self.past.push_back((before, cost));
        self.cost = self.cost.saturating_add(cost);
        self.trim();
        true
    }

    /// Whether [`History::record`] would absorb an edit of `group` into the open group.
    pub fn absorbs(&self, group: Option<&G>) -> bool {
        group.is_some() && group == self.open_group.as_ref() && !self.past.is_empty()
    }

    /// Replaces the newest undo entry by what `f` makes of it, with its new cost (entries kept
    /// relative to the state after them are rebased when that state changes: an absorbed edit).
    pub fn rebase_newest(&mut self, f: impl FnOnce(&T) -> (T, usize)) {
        if let Some((entry, cost)) = self.past.back_mut() {
            let (rebased, new_cost) = f(entry);
            self.cost = self.cost.saturating_sub(*cost).saturating_add(new_cost);
            *entry = rebased;
            *cost = new_cost;
            self.trim();
        }
    }

    /// Steps back: `current` goes to the redo side, the previous state is returned.
    pub fn undo(&mut self, current: T, cost: usize) -> Option<T> {
        self.undo_with(|before| (before, current, cost))
    }

    /// Steps forward again: `current` goes to the undo side, the undone state is returned.
    pub fn redo(&mut self, current: T, cost: usize) -> Option<T> {
        self.redo_with(|after| (after, current, cost))
    }

    /// Steps back, for entries that need the one taken out to be made into the state to return,
    /// and the current state into an entry (kept relative to that state): `f` gets the newest undo
    /// entry and gives back (the state to return, the current state's entry, that entry's cost).
    pub fn undo_with<R>(&mut self, f: impl FnOnce(T) -> (R, T, usize)) -> Option<R> {
        let before = travel(&mut self.past, &mut self.future, f, &mut self.cost)?;
        self.open_group = None;
        self.trim();
        Some(before)
    }

    /// Steps forward again, as [`History::undo_with`] steps back.
    pub fn redo_with<R>(&mut self, f: impl FnOnce(T) -> (R, T, usize)) -> Option<R> {
        let after = travel(&mut self.future, &mut self.past, f, &mut self.cost)?;
        self.open_group = None;
        self.trim();
        Some(after)
    }

    /// Ends the open group: the next edit is a step of its own even in the same group.
    pub fn close_group(&mut self) {
        self.open_group = None;
    }

    /// What `undo` would return.
    pub fn peek_undo(&self) -> Option<&T> {
        self.past.back().map(|(t, _)| t)
    }

    /// What `redo` would return.
    pub fn peek_redo(&self) -> Option<&T> {
        self.future.back().map(|(t, _)| t)
    }

    pub fn undo_len(&self) -> usize {
        self.past.len()
    }

    pub fn redo_len(&self) -> usize {
        self.future.len()
    }

    /// The total cost held (undo and redo sides).
    pub fn cost(&self) -> usize {
        self.cost
    }

    /// Drops the oldest undo entries over the bounds, keeping the newest entry of each side.
    fn trim(&mut self) {
        while self.past.len() > self.max_steps || (self.cost > self.max_cost && self.past.len() > 1) {
            let Some((_, c)) = self.past.pop_front() else { break };
            self.cost -= c;
        }
        // The redo side only grows by undoing, which the undo side paid for; past one entry it
        // can still go over the cost bound (a long undo of huge scenarios): drop its far end.
        while self.cost > self.max_cost && self.future.len() > 1 {
            let Some((_, c)) = self.future.pop_front() else { break };
            self.cost -= c;
        }
    }
}

/// Moves the newest entry of `from` out (made into what is returned by `f`) and the current
/// state's entry (made by `f`) onto `to`, keeping `total` the cost of both sides.
fn travel<T, R>(
    from: &mut VecDeque<(T, usize)>,
    to: &mut VecDeque<(T, usize)>,
    f: impl FnOnce(T) -> (R, T, usize),
    total: &mut usize,
) -> Option<R> {
    let (entry, entry_cost) = from.pop_back()?;
    let (state, current, cost) = f(entry);
    to.push_back((current, cost));
    *total = total.saturating_sub(entry_cost).saturating_add(cost);
    Some(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(steps: usize, cost: usize) -> History<i32, &'static str> {
        History::new(steps, cost)
    }

    /// Undo returns the states in reverse order and redo replays them; a new edit clears redo.
    #[test]
    fn undo_redo_round_trip() {
        let mut h = h(10, 1000);
        // States 0 → 1 → 2 → 3: each edit records the state before it.
        for before in 0..3 {
            assert!(h.record(before, 1, None));
        }
        assert_eq!(h.undo(3, 1), Some(2));
        assert_eq!(h.undo(2, 1), Some(1));
        assert_eq!((h.undo_len(), h.redo_len()), (1, 2));
        assert_eq!(h.redo(1, 1), Some(2));
        assert_eq!(h.redo(2, 1), Some(3));
        assert_eq!(h.redo(3, 1), None, "nothing left to redo");
        assert_eq!(h.undo(3, 1), Some(2));
        // A new edit from state 2 forgets the redo side.
        assert!(h.record(2, 1, None));
        assert_eq!(h.redo_len(), 0);
        assert_eq!(h.peek_undo(), Some(&2));
        assert_eq!(h.cost(), 3);
    }

    /// Nothing to undo or redo on an empty history: `None`, never a panic.
    #[test]
    fn empty_history_is_harmless() {
        let mut h = h(10, 1000);
        assert_eq!(h.undo(0, 1), None);
        assert_eq!(h.redo(0, 1), None);
        assert_eq!((h.undo_len(), h.redo_len(), h.cost()), (0, 0, 0));
    }

    /// At most `max_steps` undo steps: the oldest go first.
    #[test]
    fn bounded_by_steps() {
        let mut h = h(200, usize::MAX);
        for before in 0..500 {
            h.record(before, 1, None);
        }
        assert_eq!(h.undo_len(), 200);
        let mut cur = 500;
        while let Some(prev) = h.undo(cur, 1) {
            cur = prev;
        }
        assert_eq!(cur, 300, "the 200 newest states are kept");
    }

    /// The cost bound drops old entries but always keeps the newest one.
    #[test]
    fn bounded_by_cost_keeping_the_newest() {
        let mut h = h(200, 100);
        for before in 0..10 {
            h.record(before, 30, None);
        }
        assert_eq!(h.undo_len(), 3);
        assert_eq!(h.cost(), 90);
        h.record(10, 1000, None);
        assert_eq!(h.undo_len(), 1, "one huge entry alone");
        assert_eq!(h.peek_undo(), Some(&10));
        // Undoing it keeps the current state on the redo side even though it is over budget.
        assert_eq!(h.undo(11, 1000), Some(10));
        assert_eq!(h.peek_redo(), Some(&11));
    }

    /// Edits of one group are one step; another group, an ungrouped edit or an undo ends it.
    #[test]
    fn groups_coalesce() {
        let mut h = h(10, 1000);
        assert!(h.record(0, 1, Some("size")));
        assert!(!h.record(1, 1, Some("size")), "typing on in the same field");
        assert!(!h.record(2, 1, Some("size")));
        assert!(h.record(3, 1, Some("gap")));
        assert!(h.record(4, 1, Some("size")));
        assert_eq!(h.undo_len(), 3);
        assert_eq!(h.undo(5, 1), Some(4));
        assert!(h.record(4, 1, Some("size")), "after an undo the group starts again");
        h.close_group();
        assert!(h.record(5, 1, Some("size")));
        assert!(h.record(6, 1, None));
        assert!(h.record(7, 1, None), "ungrouped edits never coalesce");
        assert_eq!(h.undo(8, 1), Some(7));
        assert_eq!(h.undo(7, 1), Some(6));
        assert_eq!(h.undo(6, 1), Some(5));
        assert_eq!(h.undo(5, 1), Some(4));
        assert_eq!(h.undo(4, 1), Some(3));
        assert_eq!(h.undo(3, 1), Some(0), "0, 1, 2 were one step");
    }

    /// `absorbs` says what `record` will do; `rebase_newest` replaces the newest entry and its cost.
    #[test]
    fn absorbs_foretells_record_and_the_newest_entry_can_be_rebased() {
        let mut h = h(10, 1000);
        for (before, group) in [(0, None), (1, Some("a")), (2, Some("a")), (3, Some("b")), (4, None), (5, Some("b"))] {
            let absorbs = h.absorbs(group.as_ref());
            assert_eq!(h.record(before, 1, group), !absorbs, "edit from {before}");
        }
        assert_eq!(h.undo(6, 1), Some(5));
        assert!(!h.absorbs(Some(&"b")), "an undo closes the group");
        h.rebase_newest(|e| (e * 10, 7));
        assert_eq!((h.peek_undo(), h.cost()), (Some(&40), 5 - 1 + 7));
        assert_eq!(h.undo_with(|e| (e + 1, 99, 2)), Some(41));
        assert_eq!((h.peek_redo(), h.cost()), (Some(&99), 11 - 7 + 2));
    }
}
