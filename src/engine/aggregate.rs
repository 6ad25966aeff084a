//! The course's `AggregateFunction`s for `aggregate(agg, processWindowFunction)` (module 6):
//! `TenantCost`, one `(usd, requests)` accumulator per window, and `LatencySketch`, a reservoir of
//! at most K latencies with p50/p99 (`ModelLatencyWindow`). As `tests/oracle-ext`'s
//! `CourseFunctions.java` runs them inside Flink's `WindowOperator` (recorded goldens:
//! `tests/flink-ext/golden/course_tenant_cost_*`, `course_latency_sketch_*`,
//! `course_model_latency_*`).
//!
//! The window state of the aggregate form is one accumulator per window; the engine still keeps
//! the elements a window took (the oracle's `ids` / `sum` / `count` trace names them), and the
//! accumulator is their fold in the order the window's `add` and `merge` calls saw them.

use std::fmt;

/// The course aggregate a window runs (`"function": {"kind": "aggregate", "aggregate": ..}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CourseAggregate {
    /// `TenantCost`: `(usd + value, requests + 1)`; merge: field-wise sums.
    TenantCost,
    /// `LatencySketch(K)`: the first K latencies, then reservoir sampling; `n` counts them all.
    LatencySketch { k: u32 },
}

/// The course's K for `LatencySketch`.
pub const DEFAULT_K: u32 = 1000;

impl CourseAggregate {
    /// The scenario's `aggregate` name.
    pub fn name(&self) -> &'static str {
        match self {
            CourseAggregate::TenantCost => "tenant_cost",
            CourseAggregate::LatencySketch { .. } => "latency_sketch",
        }
    }

    /// The course's class name (generated code, narration).
    pub fn class_name(&self) -> &'static str {
        match self {
            CourseAggregate::TenantCost => "TenantCost",
            CourseAggregate::LatencySketch { .. } => "LatencySketch",
        }
    }

    /// `getResult` of the accumulator built by `add`-ing `values` in order.
    pub fn result(&self, values: impl IntoIterator<Item = i64>) -> AggregateResult {
        match *self {
            CourseAggregate::TenantCost => {
                let (usd, requests) = values.into_iter().fold((0i64, 0u64), |(u, r), v| (u.wrapping_add(v), r + 1));
                AggregateResult::TenantCost { usd, requests }
            }
            CourseAggregate::LatencySketch { k } => {
                let mut sketch = Reservoir::new(k);
                for v in values {
                    sketch.add(v);
                }
                sketch.result()
            }
        }
    }
}

/// What the aggregate returns and the `ProcessWindowFunction` emits (the oracle's `result`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggregateResult {
    TenantCost {
        usd: i64,
        requests: u64,
    },
    /// `p50_ms` / `p99_ms` of the samples; `approximate`: the window held more than K latencies,
    /// so the samples are a reservoir (no golden backs these values).
    Latency {
        n: u64,
        p50: Option<i64>,
        p99: Option<i64>,
        approximate: bool,
    },
}

impl AggregateResult {
    /// The oracle's `result` object, fields in name order (`approximate` only when true).
    pub fn to_json(&self) -> serde_json::Value {
        match *self {
            AggregateResult::TenantCost { usd, requests } => serde_json::json!({"requests": requests, "usd": usd}),
            AggregateResult::Latency { n, p50, p99, approximate } => {
                let mut o = serde_json::Map::new();
                if approximate {
                    o.insert("approximate".into(), serde_json::json!(true));
                }
                o.insert("n".into(), serde_json::json!(n));
                o.insert("p50_ms".into(), serde_json::json!(p50));
                o.insert("p99_ms".into(), serde_json::json!(p99));
                serde_json::Value::Object(o)
            }
        }
    }
}

impl fmt::Display for AggregateResult {
    /// `usd 410 · requests 2`, `p50 95 ms · p99 120 ms · n 4` (`≈` before p50 when approximate).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AggregateResult::TenantCost { usd, requests } => write!(f, "usd {usd} · requests {requests}"),
            AggregateResult::Latency { n, p50, p99, approximate } => {
                let ms = |v: Option<i64>| v.map_or_else(|| "—".to_string(), |v| format!("{v} ms"));
                let approx = if approximate { "≈ " } else { "" };
                write!(f, "{approx}p50 {} · p99 {} · n {n}", ms(p50), ms(p99))
            }
        }
    }
}

/// SplitMix64's output function (Steele, Lea, Flood 2014) of `x`: the one seeded generator the
/// reservoir uses, chosen because it is stateless and a few lines in Java (`long` with `>>>`)
/// and Python (`& 0xFFFFFFFFFFFFFFFF`), so generated programs draw the same numbers.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `LatencySketch`'s accumulator: `(samples, n)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reservoir {
    k: u32,
    pub samples: Vec<i64>,
    pub n: u64,
}

impl Reservoir {
    pub fn new(k: u32) -> Self {
        Reservoir { k, samples: Vec::new(), n: 0 }
    }

    /// `add`: the first K latencies are kept; the n-th one after that (Algorithm R) replaces
    /// sample `j = splitmix64(n) mod n` when `j < K` (the course draws `random.randrange(n)`;
    /// Tidemark specifies the draw so that results above K are reproducible).
    pub fn add(&mut self, value: i64) {
        self.n += 1;
        if self.samples.len() < self.k as usize {
            self.samples.push(value);
        } else {
            let j = splitmix64(self.n) % self.n;
            if let Some(slot) = usize::try_from(j).ok().and_then(|j| self.samples.get_mut(j)) {
                *slot = value;
            }
        }
    }

    /// `getResult`: `s = sorted(samples)`, `p50 = s[int(0.50 * (len - 1))]`,
    /// `p99 = s[int(0.99 * (len - 1))]` (a double product truncated toward zero).
    pub fn result(&self) -> AggregateResult {
        let mut s = self.samples.clone();
        s.sort_unstable();
        let at = |q: f64| {
            if s.is_empty() {
                return None;
            }
            let i = (q * (s.len() - 1) as f64) as usize;
            s.get(i).copied()
        };
        AggregateResult::Latency { n: self.n, p50: at(0.50), p99: at(0.99), approximate: self.n > u64::from(self.k) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn latency(values: &[i64]) -> AggregateResult {
        CourseAggregate::LatencySketch { k: DEFAULT_K }.result(values.iter().copied())
    }

    /// The documented index rule: with 2 samples both percentiles are the smaller one; with 2..100
    /// samples p99 is the second largest; n = 1 gives the value twice.
    #[test]
    fn percentile_indexes_at_small_n() {
        assert_eq!(latency(&[42]), AggregateResult::Latency { n: 1, p50: Some(42), p99: Some(42), approximate: false });
        assert_eq!(
            latency(&[300, 100]),
            AggregateResult::Latency { n: 2, p50: Some(100), p99: Some(100), approximate: false }
        );
        for len in 2..=100i64 {
            let values: Vec<i64> = (0..len).rev().collect();
            let AggregateResult::Latency { p99, .. } = latency(&values) else { unreachable!() };
            assert_eq!(p99, Some(len - 2), "len {len}");
        }
    }

    /// The double product truncated equals `floor(99 (len - 1) / 100)` for every len up to K, as
    /// the scenario format says.
    #[test]
    fn p99_index_is_the_integer_floor_up_to_k() {
        for len in 1..=1000usize {
            assert_eq!((0.99 * (len - 1) as f64) as usize, 99 * (len - 1) / 100, "len {len}");
        }
    }

    /// Above K the result is marked approximate, n still counts every latency, and the same input
    /// gives the same samples (the generator is specified).
    #[test]
    fn above_k_is_reproducible_and_approximate() {
        let values: Vec<i64> = (0..50).collect();
        let sketch = CourseAggregate::LatencySketch { k: 10 };
        let a = sketch.result(values.iter().copied());
        assert_eq!(a, sketch.result(values.iter().copied()));
        let AggregateResult::Latency { n, approximate, .. } = a else { unreachable!() };
        assert_eq!((n, approximate), (50, true));
        let mut r = Reservoir::new(10);
        values.iter().for_each(|v| r.add(*v));
        assert_eq!(r.samples.len(), 10);
        // Exactly K is still exact.
        let exact = CourseAggregate::LatencySketch { k: 50 }.result(values.iter().copied());
        assert!(matches!(exact, AggregateResult::Latency { approximate: false, p50: Some(24), p99: Some(48), .. }));
    }

    /// SplitMix64 reference values (the first outputs of the generator seeded with 0, which are
    /// splitmix64(0), splitmix64(0x9E3779B97F4A7C15), ...).
    #[test]
    fn splitmix64_reference() {
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(0x9E37_79B9_7F4A_7C15), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn tenant_cost_sums_usd_and_counts_requests() {
        assert_eq!(
            CourseAggregate::TenantCost.result([150, 260, 21]),
            AggregateResult::TenantCost { usd: 431, requests: 3 }
        );
        assert_eq!(CourseAggregate::TenantCost.result([]), AggregateResult::TenantCost { usd: 0, requests: 0 });
    }
}
