//! One shared sort for the teaching layer and the UI, for size: each `sort`/`sort_by_key` of a new
//! element type instantiates the standard library's stable sort again (3–5 KB of wasm each), and
//! these layers sort many short lists of many types (windows, keys, quiz candidates, marbles).
//! [`stable_by`] sorts the indices `0..n` with one instance of the standard sort, comparing through
//! a `dyn Fn`, then moves the elements into that order by swaps. The result is exactly that of
//! `slice::sort_by` (stable); it is not for the engine's hot paths.

use std::cmp::Ordering;

/// Sorts `v` stably by `cmp`, like `v.sort_by(cmp)`.
pub fn stable_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let order = sorted_indices(v.len(), &|a, b| cmp(&v[a], &v[b]));
    permute(v, order);
}

/// Sorts `v` stably, like `v.sort()`.
pub fn stable<T: Ord>(v: &mut [T]) {
    stable_by(v, T::cmp);
}

/// Sorts `v` stably by `key`, like `v.sort_by_key(key)`.
pub fn stable_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    stable_by(v, |a, b| key(a).cmp(&key(b)));
}

/// The indices `0..n` in the stable order of `cmp`: the one instance of the standard sort.
#[inline(never)]
fn sorted_indices(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| cmp(a, b));
    idx
}

/// Rearranges `v` so that `new[i] == old[order[i]]`, following each cycle of the permutation.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    debug_assert_eq!(v.len(), order.len(), "one index per element");
    for start in 0..order.len() {
        if order[start] == usize::MAX {
            continue;
        }
        // Position `cur` takes the element at `order[cur]`; the displaced one travels along the
        // cycle until it reaches the position that wants it.
        let mut cur = start;
        loop {
            let next = std::mem::replace(&mut order[cur], usize::MAX);
            if next == start {
                break;
            }
            v.swap(cur, next);
            cur = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *seed >> 33
    }

    /// Same result as the standard stable sort, equal keys included, for many lengths and inputs.
    #[test]
    fn matches_the_standard_stable_sort() {
        let mut seed = 7;
        for n in 0..200 {
            let v: Vec<(u64, usize)> = (0..n).map(|i| (lcg(&mut seed) % 7, i)).collect();
            let mut expected = v.clone();
            expected.sort_by_key(|e| e.0);
            let mut got = v.clone();
            stable_by_key(&mut got, |e| e.0);
            assert_eq!(got, expected, "n = {n}");
            let mut all = v.clone();
            stable(&mut all);
            let mut all_std = v;
            all_std.sort();
            assert_eq!(all, all_std);
        }
    }

    /// Elements that are not `Clone` are moved, not copied.
    #[test]
    fn moves_owned_elements() {
        let mut v: Vec<String> = ["c", "a", "b", "a"].iter().map(|s| s.to_string()).collect();
        stable_by(&mut v, |a, b| b.cmp(a));
        assert_eq!(v, ["c", "b", "a", "a"]);
    }
}
