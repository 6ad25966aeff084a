//! Flink's `MergingWindowSet` for one key of a merging assigner (sessions): the windows in
//! flight, each with the *state window* that holds its contents. When a new window overlaps
//! in-flight ones they merge into their cover; the merged windows' state windows are folded into
//! one ("pick any of the merged windows and choose that window's state window"), so the
//! contents never move in Flink's state backend, only the mapping changes.
//!
//! `add_window` does the bookkeeping and reports the merge; the operator then runs its
//! `MergeFunction` (trigger `onMerge`, timers, contents), as Flink's `addWindow` calls back.

use std::collections::{BTreeMap, btree_map};

use super::output::FlinkError;
use super::time::{TimeWindow, java_hash_set_order};

/// Tidemark's bookkeeping for a live window (not Flink state; drives the firing kind).
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowMeta {
    /// A firing happened at or after the watermark passed `max_timestamp`.
    pub had_on_time_firing: bool,
}

/// A `mapping` entry: the state window, and the in-flight window's [`WindowMeta`].
#[derive(Clone, Copy, Debug)]
pub struct InFlight {
    pub state: TimeWindow,
    pub meta: WindowMeta,
}

impl InFlight {
    fn new(state: TimeWindow) -> Self {
        InFlight { state, meta: WindowMeta::default() }
    }
}

/// `MergingWindowSet.mapping`: in-flight window -> state window, with Tidemark's bookkeeping
/// for the window beside it. Ordered, because finding the windows a new one overlaps is a
/// range scan.
#[derive(Clone, Debug, Default)]
pub struct MergingWindowSet {
    mapping: BTreeMap<TimeWindow, InFlight>,
}

/// Buffers for the windows a merge absorbed, reused by every `add_window` of an operator: this
/// runs for every element of a session window, and an allocation per call was a tenth of the
/// time.
#[derive(Clone, Debug, Default)]
pub struct MergeScratch {
    /// The in-flight windows the merge absorbed (the new window left out), in Java `HashSet`
    /// order.
    pub merged: Vec<TimeWindow>,
    /// Their state windows other than the one that holds the result, in the same order.
    pub merged_state: Vec<TimeWindow>,
}

/// What `add_window` did with a new window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Added {
    /// The window the element now belongs to: the merge result, or the new window itself.
    pub window: TimeWindow,
    /// Its state window (`getStateWindow`, answered here because `addWindow` has just looked it up).
    pub state_window: TimeWindow,
    /// The window is newly in flight.
    pub created: bool,
    /// The merge that happened, if any; the absorbed windows are in the [`MergeScratch`].
    pub merge: Option<Merge>,
}

/// A merge of in-flight windows (and usually the new one) into their cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merge {
    pub into: TimeWindow,
    /// The state window the merged contents live in.
    pub state_window: TimeWindow,
    /// The `MergeFunction` runs: not when the new window only fell inside one in-flight window.
    pub callback: bool,
}

impl MergingWindowSet {
    pub fn get(&self, window: &TimeWindow) -> Option<&InFlight> {
        self.mapping.get(window)
    }

    pub fn get_mut(&mut self, window: &TimeWindow) -> Option<&mut InFlight> {
        self.mapping.get_mut(window)
    }

    pub fn contains(&self, window: &TimeWindow) -> bool {
        self.mapping.contains_key(window)
    }

    /// `retireWindow`: the window leaves the set (cleaned up, or late after a merge).
    pub fn retire_window(&mut self, window: &TimeWindow) -> Option<InFlight> {
        self.mapping.remove(window)
    }

    /// The in-flight windows in window order.
    pub fn iter(&self) -> impl Iterator<Item = (&TimeWindow, &InFlight)> {
        self.mapping.iter()
    }

    /// `mapping.put(window, window)`: the window is its own state window. True if it was not in
    /// flight before (an in-flight one keeps its bookkeeping).
    fn put_own_state_window(&mut self, window: TimeWindow) -> bool {
        match self.mapping.entry(window) {
            btree_map::Entry::Vacant(slot) => {
                slot.insert(InFlight::new(window));
                true
            }
            btree_map::Entry::Occupied(mut existing) => {
                existing.get_mut().state = window;
                false
            }
        }
    }

    /// `MergingWindowSet.addWindow`, up to the `MergeFunction` call, which is the caller's when
    /// [`Added::merge`] asks for it (nothing the callback does reads the mapping, so running it
    /// after the last `mapping.put` changes nothing). Debug builds check every merge against
    /// [`merge_candidates_slow`], the sweep Flink runs.
    pub fn add_window(&mut self, new_window: TimeWindow, scratch: &mut MergeScratch) -> Result<Added, FlinkError> {
        let MergeScratch { merged, merged_state } = scratch;
        let merge = merge_candidates(&self.mapping, new_window, merged);
        #[cfg(debug_assertions)]
        {
            let slow = merge_candidates_slow(&self.mapping, new_window);
            debug_assert_eq!(
                merge.map(|cover| (cover, merged.clone())).into_iter().collect::<Merges>(),
                slow,
                "the range-scan merge must equal TimeWindow.mergeWindows"
            );
        }

        // At most one merge: the in-flight windows never intersect each other.
        let Some(merge_result) = merge else {
            // `mapping.put(newWindow, newWindow)`; a window equal to an in-flight one (which
            // has never merged, being one gap long) stays the same live window.
            let created = self.put_own_state_window(new_window);
            return Ok(Added { window: new_window, state_window: new_window, created, merge: None });
        };
        let mut result_window = new_window;
        let mut merged_new_window = false;
        if let Some(pos) = merged.iter().position(|w| *w == new_window) {
            merged.remove(pos);
            merged_new_window = true;
            result_window = merge_result;
        }
        // Every merged window other than the new one is in flight, so each removal finds its
        // state window, in the HashSet's iteration order. The merged windows live on as the
        // merge result (Tidemark's lifecycle: their bookkeeping folds into it).
        merged_state.clear();
        let mut meta = WindowMeta::default();
        for w in merged.iter() {
            if let Some(f) = self.mapping.remove(w) {
                merged_state.push(f.state);
                meta.had_on_time_firing |= f.meta.had_on_time_firing;
            }
        }
        // "pick any of the merged windows and choose that window's state window": the first
        // in the HashSet's iteration order.
        let Some(merged_state_window) = merged_state.first().copied() else {
            return Err(FlinkError::run(
                "java.lang.IllegalStateException",
                "a merge without an in-flight window (Tidemark bug: please report the scenario)",
            ));
        };
        self.mapping.insert(merge_result, InFlight { state: merged_state_window, meta });
        merged_state.remove(0);
        // No merge callback when the new window only fell inside one existing window.
        let callback = !(merged.contains(&merge_result) && merged.len() == 1);
        let (state_window, created) = if result_window == new_window && !merged_new_window {
            // A merge of in-flight windows that left the new window out (it cannot happen with
            // session windows, which always touch what they merge with, but addWindow allows it).
            (new_window, self.put_own_state_window(new_window))
        } else {
            (merged_state_window, false)
        };
        let merge = Merge { into: merge_result, state_window: merged_state_window, callback };
        Ok(Added { window: result_window, state_window, created, merge: Some(merge) })
    }
}

/// Merges: the cover of each run of intersecting windows and its members (in Java `HashSet` order).
#[cfg(debug_assertions)]
type Merges = Vec<(TimeWindow, Vec<TimeWindow>)>;

/// `TimeWindow.mergeWindows` over the in-flight windows plus the new one, as Flink runs it:
/// sort by start (stable), sweep, collect each run of intersecting windows; Flink keeps the
/// members of a run in a `HashSet`, so they come back in Java's hash order. Only runs of more
/// than one window are merges. O(windows of the key) per element: kept as the reference.
#[cfg(debug_assertions)]
fn merge_candidates_slow(mapping: &BTreeMap<TimeWindow, InFlight>, new_window: TimeWindow) -> Merges {
    let mut windows: Vec<TimeWindow> = mapping.keys().copied().collect();
    windows.push(new_window);
    windows.sort_by_key(|w| w.start);
    let mut runs: Vec<(TimeWindow, Vec<TimeWindow>)> = Vec::new();
    for candidate in windows {
        match runs.last_mut() {
            Some((cover, members)) if cover.intersects(&candidate) => {
                *cover = cover.cover(&candidate);
                members.push(candidate);
            }
            _ => runs.push((candidate, vec![candidate])),
        }
    }
    runs.into_iter()
        .map(|(cover, mut members)| {
            java_hash_set_order(&mut members);
            (cover, members)
        })
        .filter(|(_, members)| members.len() > 1)
        .collect()
}

/// The same result in O(log n + merged windows): the in-flight windows never intersect one
/// another (every earlier addition merged them), so the only run with more than one member is
/// the new window plus the in-flight windows that intersect it. Debug builds check every call
/// against [`merge_candidates_slow`].
fn merge_candidates(
    mapping: &BTreeMap<TimeWindow, InFlight>,
    new_window: TimeWindow,
    members: &mut Vec<TimeWindow>,
) -> Option<TimeWindow> {
    // The result goes into the caller's buffer (one per operator): this runs for every element
    // of a session window, and an allocation per call was a tenth of the time.
    members.clear();
    // In-flight windows with `start <= new.end`, from the right, while `end >= new.start`
    // (disjoint windows sorted by start have sorted ends too).
    members.extend(
        mapping
            .range(..=TimeWindow::new(new_window.end, i64::MAX))
            .rev()
            .map(|(w, _)| *w)
            .take_while(|w| w.end >= new_window.start)
            .filter(|w| w.intersects(&new_window)),
    );
    if members.is_empty() {
        return None;
    }
    members.reverse();
    // The sweep's order: by start, the new window after in-flight windows with the same start.
    let at = members.partition_point(|w| w.start <= new_window.start);
    members.insert(at, new_window);
    let cover = members.iter().fold(new_window, |c, w| c.cover(w));
    java_hash_set_order(members);
    (members.len() > 1).then_some(cover)
}
