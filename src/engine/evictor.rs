//! Flink's evictors (`CountEvictor`, `TimeEvictor`, `DeltaEvictor`) as `EvictingWindowOperator` runs them:
//! before or after the window function, on the window's contents in arrival order.

use super::scenario::{EvictorKind, EvictorSpec};
use super::time::Millis;
use super::trace::ElemIdx;

/// `Evictor.evictBefore` / `evictAfter` on the contents, in arrival order.
pub fn evict(
    evictor: Option<EvictorSpec>,
    contents: &mut Vec<ElemIdx>,
    rec_of: impl Fn(ElemIdx) -> (Millis, i64),
    after_function: bool,
) -> Vec<ElemIdx> {
    let Some(ev) = evictor else { return Vec::new() };
    if ev.do_evict_after != after_function {
        return Vec::new();
    }
    let size = contents.len() as i64;
    match ev.kind {
        EvictorKind::Count { n } => {
            // `CountEvictor.evict`: drops the first `size - maxCount` in arrival order.
            if size <= n {
                return Vec::new();
            }
            let drop = size.saturating_sub(n).min(size) as usize;
            contents.drain(..drop).collect()
        }
        EvictorKind::Time { size: window_size } => {
            // `TimeEvictor.evict`: cutoff = max timestamp in the contents - size; removes
            // every element with `ts <= cutoff`.
            let Some(max_ts) = contents.iter().map(|&e| rec_of(e).0).max() else {
                return Vec::new();
            };
            let cutoff = max_ts.wrapping_sub(window_size);
            let (gone, kept): (Vec<ElemIdx>, Vec<ElemIdx>) = contents.iter().partition(|&&e| rec_of(e).0 <= cutoff);
            *contents = kept;
            gone
        }
        EvictorKind::Delta { threshold, delta } => {
            // `DeltaEvictor.evict`: the reference is `Iterables.getLast(elements)`, the last
            // element in arrival order (not the latest timestamp); every element, the reference
            // included, with `getDelta(element, last) >= threshold` is removed.
            let Some(&last) = contents.last() else { return Vec::new() };
            let reference = rec_of(last);
            let (gone, kept): (Vec<ElemIdx>, Vec<ElemIdx>) =
                contents.iter().partition(|&&e| delta.delta(rec_of(e), reference) >= threshold.0);
            *contents = kept;
            gone
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{DeltaFn, Threshold};

    /// Elements as (ts, value), indexed by position.
    fn delta(threshold: f64, delta: DeltaFn, after: bool) -> Option<EvictorSpec> {
        Some(EvictorSpec { kind: EvictorKind::Delta { threshold: Threshold(threshold), delta }, do_evict_after: after })
    }

    fn run(ev: Option<EvictorSpec>, recs: &[(Millis, i64)], after: bool) -> (Vec<ElemIdx>, Vec<ElemIdx>) {
        let mut contents: Vec<ElemIdx> = (0..recs.len() as ElemIdx).collect();
        let gone = evict(ev, &mut contents, |e| recs[e as usize], after);
        (contents, gone)
    }

    /// DeltaEvictor: the reference is the last element in arrival order; a delta equal to the
    /// threshold is evicted, one below it is kept.
    #[test]
    fn delta_threshold_is_inclusive_and_the_reference_is_the_last() {
        let recs = [(0, 10), (1, 100), (2, 40), (3, 70)];
        assert_eq!(run(delta(50.0, DeltaFn::Value, false), &recs, false), (vec![1, 2, 3], vec![0]));
        assert_eq!(run(delta(60.0, DeltaFn::Value, false), &recs, false), (vec![1, 2, 3], vec![0]));
        assert_eq!(run(delta(60.5, DeltaFn::Value, false), &recs, false), (vec![0, 1, 2, 3], vec![]));
        // 100 and 40 are both exactly 30 from 70: evicted at 30, kept just above it.
        assert_eq!(run(delta(30.0, DeltaFn::Value, false), &recs, false), (vec![3], vec![0, 1, 2]));
        assert_eq!(run(delta(30.5, DeltaFn::Value, false), &recs, false), (vec![1, 2, 3], vec![0]));
        // Timestamps: the last arrived (20 s) is the reference, not the latest timestamp.
        let ts = [(50_000, 1), (5_000, 1), (58_000, 1), (20_000, 1)];
        assert_eq!(run(delta(10_000.0, DeltaFn::Ts, false), &ts, false), (vec![3], vec![0, 1, 2]));
    }

    /// A threshold of 0 (or below) evicts everything, the reference included; an empty window
    /// has no reference and loses nothing.
    #[test]
    fn delta_threshold_zero_evicts_all() {
        let recs = [(0, 5), (1, 5)];
        assert_eq!(run(delta(0.0, DeltaFn::Value, false), &recs, false), (vec![], vec![0, 1]));
        assert_eq!(run(delta(-1.0, DeltaFn::Ts, false), &recs, false), (vec![], vec![0, 1]));
        assert_eq!(run(delta(0.0, DeltaFn::Value, false), &[], false), (vec![], vec![]));
    }

    /// Before or after: the evictor runs only at its own side of the function.
    #[test]
    fn delta_runs_on_its_side_only() {
        let recs = [(0, 0), (1, 100)];
        assert_eq!(run(delta(50.0, DeltaFn::Value, true), &recs, false), (vec![0, 1], vec![]));
        assert_eq!(run(delta(50.0, DeltaFn::Value, true), &recs, true), (vec![1], vec![0]));
    }

    /// The delta is computed in doubles, as the Java functions do: far apart longs lose
    /// precision but never panic or overflow.
    #[test]
    fn delta_of_extreme_values_is_a_double() {
        assert_eq!(DeltaFn::Value.delta((0, i64::MIN), (0, i64::MAX)), 2f64.powi(64));
        assert_eq!(DeltaFn::Ts.delta((i64::MAX, 0), (i64::MAX - 1, 0)), 0.0);
    }

    proptest::proptest! {
        /// Whatever the contents and threshold: the survivors keep their order, every survivor is
        /// closer than the threshold to the reference, every evicted element is not, and nothing
        /// is lost or invented.
        #[test]
        fn delta_partitions_the_contents(
            values in proptest::collection::vec(-1000i64..1000, 0..20),
            threshold in -10.0f64..500.0,
        ) {
            let recs: Vec<(Millis, i64)> = values.iter().enumerate().map(|(i, v)| (i as Millis, *v)).collect();
            let (kept, gone) = run(delta(threshold, DeltaFn::Value, false), &recs, false);
            let reference = recs.last().map(|r| r.1);
            for &e in &kept {
                let r = reference.map_or(0.0, |r| (recs[e as usize].1 as f64 - r as f64).abs());
                proptest::prop_assert!(r < threshold);
            }
            for &e in &gone {
                let r = reference.map_or(0.0, |r| (recs[e as usize].1 as f64 - r as f64).abs());
                proptest::prop_assert!(r >= threshold);
            }
            let mut all: Vec<ElemIdx> = kept.iter().chain(&gone).copied().collect();
            all.sort_unstable();
            proptest::prop_assert_eq!(all, (0..recs.len() as ElemIdx).collect::<Vec<_>>());
            proptest::prop_assert!(kept.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
