//! Saved fold states (TIMELINE_CONTRACT.md §3): the view at the playhead is folded on from where
//! the playhead was, and a step back starts from the nearest saved state before it instead of
//! from step 0, so stepping either way costs at most `every` steps of folding at any size.

use super::{SettledOrder, StepView, at_step};
use crate::engine::run::Run;

/// The fold of one run at any playhead, with a saved state every `every` steps (at most
/// [`FoldCache::MAX_SAVED`] of them, fewer for a long trace: [`FoldCache::SAVED_EVENTS`]; saved
/// as the playhead first passes them). A cache belongs to one run: make a new one for a new run.
#[derive(Clone, Debug)]
pub struct FoldCache {
    every: usize,
    /// `saved[i]`: the unsettled view after `i * every` steps.
    saved: Vec<StepView>,
    /// The unsettled view at the last playhead asked for.
    current: StepView,
    /// The settled order of the views' lists, kept from step to step.
    order: SettledOrder,
}

impl FoldCache {
    /// Saved states are at most this many (each holds a whole view, and wasm memory never
    /// shrinks); they are never closer than [`FoldCache::MIN_EVERY`] steps.
    pub const MAX_SAVED: usize = 32;
    pub const MIN_EVERY: usize = 64;
    /// A saved state holds everything the trace made up to it (windows, timers, contents): at
    /// 100,000 elements (660,000 trace events) the view at the end is about 11 MB of wasm memory,
    /// and 32 states held 150 MB. So the states saved, times the trace, stay under this many events
    /// (at least [`FoldCache::MIN_SAVED`] states): 7 at 100,000 elements, 40 MB; a step back then folds
    /// at most 14,000 steps (about 20 ms), and 32 states are kept up to 150,000 trace events.
    pub const SAVED_EVENTS: usize = 5_000_000;
    pub const MIN_SAVED: usize = 4;

    /// How many states a cache of `run` saves at most.
    pub fn max_saved(run: &Run) -> usize {
        (Self::SAVED_EVENTS / run.trace.len().max(1)).clamp(Self::MIN_SAVED, Self::MAX_SAVED)
    }

    pub fn new(run: &Run) -> FoldCache {
        let every = run.steps.div_ceil(Self::max_saved(run)).max(Self::MIN_EVERY);
        let start = StepView::untracked(run);
        FoldCache { every, saved: vec![start.clone()], current: start, order: SettledOrder::default() }
    }

    /// The steps between saved states.
    pub fn every(&self) -> usize {
        self.every
    }

    /// How many fold states are saved now.
    pub fn saved(&self) -> usize {
        self.saved.len()
    }

    /// The settled view after `step` steps of `run` (the cache's run): equal to
    /// [`at_step`]`(run, step)`.
    pub fn at(&mut self, run: &Run, step: usize) -> StepView {
        let step = step.min(run.steps);
        if step < self.current.step {
            let i = (step / self.every).min(self.saved.len().saturating_sub(1));
            match self.saved.get(i) {
                Some(view) => self.current = view.clone(),
                None => return at_step(run, step),
            }
        }
        while self.current.step < step {
            let mark = (self.current.step / self.every + 1) * self.every;
            let to = mark.min(step);
            self.current.advance(run, to);
            if to == mark && self.saved.len() == mark / self.every {
                self.saved.push(self.current.clone());
            }
        }
        let mut view = self.current.shown_copy_in(&mut self.order);
        view.step = step;
        view
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::engine::run;
    use crate::engine::scenario::{AssignerSpec, Element, InputItem, WatermarkSpec};
    use crate::engine::{Scenario, time::Millis};

    fn stream(n: usize, assigner: AssignerSpec) -> Scenario {
        let input = (0..n as i64)
            .map(|i| {
                InputItem::Element(Element {
                    id: i,
                    key: format!("k{}", i % 7).into(),
                    ts: i * 300 + (i * 7919) % 4_000 as Millis,
                    value: i % 11,
                    ..Element::default()
                })
            })
            .collect();
        Scenario {
            assigner,
            allowed_lateness: Some(1_000),
            watermarks: WatermarkSpec::BoundedOutOfOrderness { bound: 1_500 },
            input,
            ..Scenario::default()
        }
    }

    fn assigner(i: usize) -> AssignerSpec {
        match i % 3 {
            0 => AssignerSpec::Tumbling { size: 5_000, offset: 0 },
            1 => AssignerSpec::Sliding { size: 6_000, slide: 2_000, offset: 0 },
            _ => AssignerSpec::Session { gap: 700 },
        }
    }

    /// A long trace saves fewer states (each holds everything up to it), and never fewer than
    /// `MIN_SAVED`: the states are spread over the whole run.
    #[test]
    fn long_traces_save_fewer_states() {
        let short = run(&stream(300, assigner(0)));
        assert_eq!(FoldCache::max_saved(&short), FoldCache::MAX_SAVED);
        let long = run(&stream(40_000, assigner(1)));
        let events = long.trace.len();
        assert!(events > FoldCache::SAVED_EVENTS / FoldCache::MAX_SAVED, "{events} events");
        let saved = FoldCache::max_saved(&long);
        assert!((FoldCache::MIN_SAVED..FoldCache::MAX_SAVED).contains(&saved), "{saved} states for {events} events");
        assert!(saved * events <= FoldCache::SAVED_EVENTS.max(FoldCache::MIN_SAVED * events));
        let mut cache = FoldCache::new(&long);
        assert_eq!(cache.at(&long, long.steps), at_step(&long, long.steps));
        assert!(cache.saved() <= saved, "{} saved, at most {saved}", cache.saved());
        assert!(cache.every() * saved >= long.steps, "the saved states reach the end");
        let back = long.steps / 3;
        assert_eq!(cache.at(&long, back), at_step(&long, back), "a step back folds from a saved state");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

        /// Folding to step s through saved states equals folding from zero, for a random walk
        /// of playheads (forward, back, jumps) over tumbling, sliding and session streams.
        #[test]
        fn saved_states_fold_like_from_zero(which in 0usize..3, n in 100usize..400, walk in prop::collection::vec(0usize..420, 1..12)) {
            let r = run(&stream(n, assigner(which)));
            let mut cache = FoldCache::new(&r);
            for s in walk {
                prop_assert_eq!(cache.at(&r, s), at_step(&r, s));
            }
        }
    }
}
