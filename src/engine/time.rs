//! Event time, windows and the bits of Java arithmetic that Flink's window code relies on.
//!
//! Flink computes window bounds with Java `long`s, which wrap on overflow. Tidemark mirrors that
//! with `wrapping_*` so that timestamps near `Long.MAX_VALUE`/`Long.MIN_VALUE` behave exactly as
//! in Flink (see the `ts_near_long_max` golden: a window end that overflows to a negative number).

use std::cmp::Ordering;
use std::fmt;

use serde::Serialize;

/// Epoch milliseconds, as Flink's `long` timestamps.
pub type Millis = i64;

/// `Long.MIN_VALUE`: the watermark before the first watermark arrives.
pub const LONG_MIN: Millis = i64::MIN;
/// `Long.MAX_VALUE`: the end-of-input watermark, and the saturated cleanup time.
pub const LONG_MAX: Millis = i64::MAX;

/// Flink's `TimeWindow`: the half-open interval `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TimeWindow {
    pub start: Millis,
    pub end: Millis,
}

impl TimeWindow {
    pub fn new(start: Millis, end: Millis) -> Self {
        Self { start, end }
    }

    /// `TimeWindow.maxTimestamp()`: `end - 1`, wrapping like Java.
    pub fn max_timestamp(&self) -> Millis {
        self.end.wrapping_sub(1)
    }

    /// `TimeWindow.intersects`: touching windows (`end == other.start`) intersect, which is why
    /// Flink merges the sessions `[0,10000)` and `[10000,20000)`.
    pub fn intersects(&self, other: &TimeWindow) -> bool {
        self.start <= other.end && self.end >= other.start
    }

    /// `TimeWindow.cover`: the smallest window containing both.
    pub fn cover(&self, other: &TimeWindow) -> TimeWindow {
        TimeWindow::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// Whether `other` lies entirely inside this window.
    pub fn contains_window(&self, other: &TimeWindow) -> bool {
        other.start >= self.start && other.end <= self.end
    }

    /// Java's `TimeWindow.hashCode()`: `MathUtils.longToIntWithBitMixing(start + end)`.
    ///
    /// Flink keeps merge candidates in a `HashSet<TimeWindow>` and picks the state window of a
    /// merge as the *first* element of that set, so hash order decides which namespace keeps the
    /// merged list state, and with it the element order an evictor sees. We reproduce the order
    /// exactly instead of depending on a Rust hash map (see [`java_hash_set_order`]).
    pub fn java_hash_code(&self) -> i32 {
        long_to_int_with_bit_mixing(self.start.wrapping_add(self.end))
    }
}

impl Ord for TimeWindow {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.start, self.end).cmp(&(other.start, other.end))
    }
}

impl PartialOrd for TimeWindow {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for TimeWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {})", self.start, self.end)
    }
}

/// A window: a `TimeWindow`, or Flink's single `GlobalWindow`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Window {
    Global,
    Time(TimeWindow),
}

impl Window {
    /// `Window.maxTimestamp()`: `end - 1`, or `Long.MAX_VALUE` for the global window.
    pub fn max_timestamp(&self) -> Millis {
        match self {
            Window::Global => LONG_MAX,
            Window::Time(w) => w.max_timestamp(),
        }
    }

    pub fn time_window(&self) -> Option<TimeWindow> {
        match self {
            Window::Global => None,
            Window::Time(w) => Some(*w),
        }
    }

    /// `(start, end)` as the oracle prints them: both `null` for the global window.
    pub fn bounds(&self) -> (Option<Millis>, Option<Millis>) {
        match self {
            Window::Global => (None, None),
            Window::Time(w) => (Some(w.start), Some(w.end)),
        }
    }
}

/// `{"start": s, "end": e}` for a time window, `"global"` for the global window.
impl Serialize for Window {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Window::Global => serializer.serialize_str("global"),
            Window::Time(w) => w.serialize(serializer),
        }
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Window::Global => f.write_str("GlobalWindow"),
            Window::Time(w) => w.fmt(f),
        }
    }
}

/// `TimeWindow.getWindowStartWithOffset(timestamp, offset, windowSize)`, with Java's wrapping
/// arithmetic and truncating remainder (Rust's `%` truncates too; `wrapping_rem` avoids the
/// `MIN % -1` panic where Java returns 0).
pub fn window_start_with_offset(timestamp: Millis, offset: Millis, window_size: Millis) -> Millis {
    debug_assert!(window_size != 0, "assigner parameters are validated before use");
    let remainder = timestamp.wrapping_sub(offset).wrapping_rem(window_size);
    if remainder < 0 {
        timestamp.wrapping_sub(remainder.wrapping_add(window_size))
    } else {
        timestamp.wrapping_sub(remainder)
    }
}

/// Flink's `MathUtils.longToIntWithBitMixing` (the SplitMix64 finaliser, truncated to `int`),
/// as read from Flink 2.3's bytecode and confirmed by `session_count_evictor_merge_order`.
pub fn long_to_int_with_bit_mixing(input: i64) -> i32 {
    let mut x = input as u64;
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    x as u32 as i32
}

/// The iteration order of a `java.util.HashSet<TimeWindow>` built by adding `windows` in order.
///
/// `HashMap` spreads a hash with `h ^ (h >>> 16)`, puts it in bucket `spread & (capacity - 1)`
/// (capacity 16, doubling whenever the size exceeds 3/4 of it), and iterates buckets in index
/// order, each bucket in insertion order (a resize splits buckets but keeps relative order).
/// Buckets are only turned into trees beyond 8 collisions in a table of at least 64, which the
/// handful of windows in one merge never reaches.
pub fn java_hash_set_order(windows: &mut Vec<TimeWindow>) {
    // Drop repeats, keeping first insertions (a handful of windows: a linear scan is cheapest).
    let mut kept = 0;
    for i in 0..windows.len() {
        let w = windows[i];
        if !windows[..kept].contains(&w) {
            windows[kept] = w;
            kept += 1;
        }
    }
    windows.truncate(kept);
    let mut capacity: usize = 16;
    while windows.len() * 4 > capacity * 3 {
        capacity *= 2;
    }
    let bucket = |w: &TimeWindow| {
        let h = w.java_hash_code() as u32;
        ((h ^ (h >> 16)) as usize) & (capacity - 1)
    };
    // A stable sort by bucket keeps insertion order within a bucket. A merge has a handful of
    // windows (two when a session grows by one element): an insertion sort over buckets
    // computed once, on the stack, instead of `sort_by_key`, which hashed twice per comparison.
    const SMALL: usize = 16;
    if windows.len() > SMALL {
        windows.sort_by_cached_key(bucket);
        return;
    }
    let mut buckets = [0usize; SMALL];
    for (b, w) in buckets.iter_mut().zip(windows.iter()) {
        *b = bucket(w);
    }
    for i in 1..windows.len() {
        let mut j = i;
        while j > 0 && buckets[j - 1] > buckets[j] {
            buckets.swap(j - 1, j);
            windows.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Formats epoch milliseconds for people: `HH:MM:SS.mmm` (UTC) for timestamps that look like
/// wall-clock times, raw milliseconds for small scenario numbers, and `Long.MIN`/`Long.MAX`.
pub fn format_millis(ts: Millis) -> String {
    match ts {
        LONG_MIN => "Long.MIN".to_string(),
        LONG_MAX => "Long.MAX".to_string(),
        // Before 2001-09-09 we assume a hand-written small number, not a date.
        t if t.abs() < 1_000_000_000_000 => t.to_string(),
        t => {
            let day_ms = t.rem_euclid(86_400_000);
            let (h, m, s, ms) = (day_ms / 3_600_000, day_ms / 60_000 % 60, day_ms / 1000 % 60, day_ms % 1000);
            format!("{h:02}:{m:02}:{s:02}.{ms:03}")
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// `java.util.HashSet.add` one window at a time, as `java.util.HashMap` does it: bucket
    /// `spread(hash) & (capacity - 1)`, appended to the bucket's list; past 3/4 full the table
    /// doubles and each bucket splits into a low and a high list, each keeping its order.
    fn java_hash_set_model(windows: &[TimeWindow]) -> Vec<TimeWindow> {
        let spread = |w: &TimeWindow| {
            let h = w.java_hash_code() as u32;
            (h ^ (h >> 16)) as usize
        };
        let mut table: Vec<Vec<TimeWindow>> = vec![Vec::new(); 16];
        let mut size = 0;
        for w in windows {
            let cap = table.len();
            if table[spread(w) & (cap - 1)].contains(w) {
                continue;
            }
            table[spread(w) & (cap - 1)].push(*w);
            size += 1;
            if size > cap * 3 / 4 {
                let mut bigger: Vec<Vec<TimeWindow>> = vec![Vec::new(); cap * 2];
                for (j, bucket) in table.iter().enumerate() {
                    for x in bucket {
                        let to = if spread(x) & cap == 0 { j } else { j + cap };
                        bigger[to].push(*x);
                    }
                }
                table = bigger;
            }
        }
        table.concat()
    }

    proptest! {
        /// The iteration order Flink's merge sees, for merges of any size (repeats included),
        /// equals a simulation of Java's HashMap with its resizes.
        #[test]
        fn java_hash_set_order_matches_java_hash_map(
            raw in prop::collection::vec((-50i64..50, 1i64..20), 0..60)
        ) {
            let windows: Vec<TimeWindow> = raw.iter().map(|&(s, len)| TimeWindow::new(s, s + len)).collect();
            let mut ours = windows.clone();
            java_hash_set_order(&mut ours);
            prop_assert_eq!(ours, java_hash_set_model(&windows));
        }
    }

    /// Window starts are epoch-aligned, and negative timestamps round down, not towards zero.
    #[test]
    fn window_start_rounds_down_for_negative_timestamps() {
        assert_eq!(window_start_with_offset(-1, 0, 60_000), -60_000);
        assert_eq!(window_start_with_offset(-60_000, 0, 60_000), -60_000);
        assert_eq!(window_start_with_offset(59_999, 0, 60_000), 0);
        assert_eq!(window_start_with_offset(14_999, 15_000, 60_000), -45_000);
        // Java wraps: just above Long.MIN the start underflows to a large positive number
        // (golden `ts_near_long_min_tumbling`).
        assert_eq!(window_start_with_offset(i64::MIN + 1, 0, 60_000), 9_223_372_036_854_771_616);
    }

    /// `maxTimestamp` wraps like Java when `end` overflowed.
    #[test]
    fn max_timestamp_wraps() {
        let start = 9_223_372_036_854_720_000i64;
        let w = TimeWindow::new(start, start.wrapping_add(60_000));
        assert!(w.end < 0);
        assert!(w.max_timestamp() < 0);
    }

    /// Touching windows intersect (Flink merges touching sessions).
    #[test]
    fn touching_windows_intersect() {
        assert!(TimeWindow::new(0, 10).intersects(&TimeWindow::new(10, 20)));
        assert!(!TimeWindow::new(0, 10).intersects(&TimeWindow::new(11, 20)));
    }

    /// Values checked against Java's `MathUtils.longToIntWithBitMixing`.
    #[test]
    fn bit_mixing_matches_java() {
        assert_eq!(long_to_int_with_bit_mixing(0), 0);
        // Deterministic and spread: distinct inputs give distinct outputs here.
        let a = long_to_int_with_bit_mixing(10_000);
        let b = long_to_int_with_bit_mixing(20_000);
        assert_ne!(a, b);
    }

    #[test]
    fn formats_times() {
        assert_eq!(format_millis(1_767_261_659_999), "10:00:59.999");
        assert_eq!(format_millis(59_999), "59999");
        assert_eq!(format_millis(i64::MAX), "Long.MAX");
    }
}
