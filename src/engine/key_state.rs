//! The window operator's keyed state for one key: each window's contents (Flink's list state
//! per namespace), its trigger state, the oracle function's firing counter, and which windows
//! are live (the [`MergingWindowSet`] for sessions, a map for the other assigners).

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use super::merging::{MergingWindowSet, WindowMeta};
use super::time::Window;
use super::trace::ElemIdx;
use super::trigger::TriggerState;

/// Why hash maps (Fx, no random seed) except the merging window set: these are point lookups
/// on every element, and nothing iterates them in an order that reaches the output
/// (`WindowOperator::live_windows` sorts); the merging window set needs range scans, so it
/// stays ordered.
#[derive(Clone, Debug, Default)]
pub struct KeyState {
    /// Window contents (list state) per state namespace, in arrival order.
    pub contents: FxHashMap<Window, Vec<ElemIdx>>,
    /// Trigger state per (actual) window.
    pub trigger_state: FxHashMap<Window, TriggerState>,
    /// The oracle's firing counter `n`: per window for non-merging assigners (cleared with the
    /// window); for sessions a per-key map keyed by window, see [`KeyState::next_firing`].
    pub firings: FxHashMap<Window, u64>,
    /// `MergingWindowSet`: the in-flight windows of a merging assigner, with their state
    /// windows and Tidemark's bookkeeping.
    pub windows: MergingWindowSet,
    /// Live windows (created, not yet cleaned up) of non-merging assigners. For merging ones
    /// the in-flight windows of `windows` are the live windows: keeping a second map in step
    /// with it cost four hash operations per session element.
    pub live: FxHashMap<Window, WindowMeta>,
}

impl KeyState {
    /// The live window's bookkeeping, if the window is live.
    pub fn meta_mut(&mut self, merging: bool, window: Window) -> Option<&mut WindowMeta> {
        match (merging, window) {
            (true, Window::Time(tw)) => self.windows.get_mut(&tw).map(|f| &mut f.meta),
            (true, Window::Global) => None,
            (false, _) => self.live.get_mut(&window),
        }
    }

    pub fn is_live(&self, merging: bool, window: Window) -> bool {
        match (merging, window) {
            (true, Window::Time(tw)) => self.windows.contains(&tw),
            (true, Window::Global) => false,
            (false, _) => self.live.contains_key(&window),
        }
    }

    /// A non-merging assigner's window is live from its first element on; true if it was not
    /// live before.
    pub fn make_live(&mut self, window: Window) -> bool {
        match self.live.entry(window) {
            Entry::Occupied(_) => false,
            Entry::Vacant(slot) => {
                slot.insert(WindowMeta::default());
                true
            }
        }
    }

    /// The elements stored for a state window.
    pub fn stored(&self, state_window: &Window) -> usize {
        self.contents.get(state_window).map_or(0, Vec::len)
    }

    /// The oracle's firing counter (its `RecordingPWF`): per-window `ValueState` for
    /// non-merging windows; for sessions (where Flink forbids per-window state) a per-key map
    /// keyed by window, and a window inherits the largest counter of the windows it contains.
    pub fn next_firing(&mut self, merging: bool, window: Window) -> u64 {
        if !merging {
            let n = self.firings.entry(window).or_insert(0);
            let previous = *n;
            *n += 1;
            return previous;
        }
        let Window::Time(w) = window else { return 0 };
        // The counters of every window this one contains (itself included) fold into it.
        let mut n = 0;
        self.firings.retain(|k, count| {
            let absorbed = k.time_window().is_some_and(|kw| w.contains_window(&kw));
            if absorbed {
                n = n.max(*count);
            }
            !absorbed
        });
        self.firings.insert(window, n + 1);
        n
    }

    /// `ProcessWindowFunction.clear` of the oracle's function.
    pub fn clear_firings(&mut self, merging: bool, window: Window) {
        match (merging, window) {
            (true, Window::Time(w)) => {
                self.firings.retain(|k, _| !k.time_window().is_some_and(|kw| w.contains_window(&kw)))
            }
            _ => {
                self.firings.remove(&window);
            }
        }
    }
}
