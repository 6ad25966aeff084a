//! Flink's evictors (`CountEvictor`, `TimeEvictor`) as `EvictingWindowOperator` runs them:
//! before or after the window function, on the window's contents in arrival order.

use super::scenario::{EvictorKind, EvictorSpec};
use super::time::Millis;
use super::trace::ElemIdx;

/// `Evictor.evictBefore` / `evictAfter` on the contents, in arrival order.
pub fn evict(
    evictor: Option<EvictorSpec>,
    contents: &mut Vec<ElemIdx>,
    ts_of: impl Fn(ElemIdx) -> Millis,
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
            let Some(max_ts) = contents.iter().map(|&e| ts_of(e)).max() else {
                return Vec::new();
            };
            let cutoff = max_ts.wrapping_sub(window_size);
            let (gone, kept): (Vec<ElemIdx>, Vec<ElemIdx>) = contents.iter().partition(|&&e| ts_of(e) <= cutoff);
            *contents = kept;
            gone
        }
    }
}
