//! What a window function emits for one firing, and the numbers the sinks add up.

use std::fmt;
use std::ops::{Add, Sub};

use crate::engine::aggregate::AggregateResult;
use crate::engine::scenario::WindowFunctionSpec;

/// One result of the scenario's window function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ResultValue {
    /// A `ProcessWindowFunction` over the buffered elements, emitting their sum and count (the
    /// oracle's `sum` and `count` fields).
    SumCount { sum: i64, count: u64 },
    /// `AggregateFunction` summing the values (Java `long`, wrapping on overflow).
    Sum(i64),
    /// `AggregateFunction` counting the elements.
    Count(u64),
    /// `AggregateFunction` averaging the values; `None` when the function saw no element (an
    /// evictor removed all of them).
    Avg(Option<f64>),
    /// `ReduceFunction` keeping the smallest value; `None` for no element.
    Min(Option<i64>),
    /// `ReduceFunction` keeping the largest value; `None` for no element.
    Max(Option<i64>),
    /// A course `AggregateFunction` (`aggregate(agg, pwf)`): TenantCost's `(usd, requests)` or
    /// LatencySketch's p50/p99.
    Aggregate(AggregateResult),
}

impl ResultValue {
    /// The result of `function` over the values the window function saw (`sum` wraps like
    /// Java's `long`, as the engine's oracle `sum` does).
    pub fn of(function: WindowFunctionSpec, values: &[i64]) -> ResultValue {
        let sum = values.iter().fold(0i64, |acc, v| acc.wrapping_add(*v));
        let count = values.len() as u64;
        match function {
            WindowFunctionSpec::Process => ResultValue::SumCount { sum, count },
            WindowFunctionSpec::Sum => ResultValue::Sum(sum),
            WindowFunctionSpec::Count => ResultValue::Count(count),
            WindowFunctionSpec::Avg => ResultValue::Avg(if values.is_empty() {
                None
            } else {
                // Exact in i128, then one rounding to f64 (as Java's `(double) sum / count`
                // would be for sums that do not overflow).
                let exact: i128 = values.iter().map(|v| i128::from(*v)).sum();
                Some(exact as f64 / count as f64)
            }),
            WindowFunctionSpec::Min => ResultValue::Min(values.iter().copied().min()),
            WindowFunctionSpec::Max => ResultValue::Max(values.iter().copied().max()),
            WindowFunctionSpec::Aggregate(agg) => ResultValue::Aggregate(agg.result(values.iter().copied())),
        }
    }

    /// The column a downstream table adds up: the sum (for the process function and `sum`),
    /// the count, the average, the minimum or the maximum. `None`: the result has no value.
    pub fn amount(&self) -> Option<Amount> {
        match *self {
            ResultValue::SumCount { sum, .. } | ResultValue::Sum(sum) => Some(Amount::Int(i128::from(sum))),
            ResultValue::Count(c) => Some(Amount::Int(i128::from(c))),
            ResultValue::Avg(a) => a.map(Amount::Real),
            ResultValue::Min(m) | ResultValue::Max(m) => m.map(|v| Amount::Int(i128::from(v))),
            ResultValue::Aggregate(AggregateResult::TenantCost { usd, .. }) => Some(Amount::Int(i128::from(usd))),
            ResultValue::Aggregate(AggregateResult::Latency { p99, .. }) => p99.map(|v| Amount::Int(i128::from(v))),
        }
    }

    /// The name of the column [`ResultValue::amount`] reads.
    pub fn column(&self) -> &'static str {
        match self {
            ResultValue::SumCount { .. } | ResultValue::Sum(_) => "sum",
            ResultValue::Count(_) => "count",
            ResultValue::Avg(_) => "avg",
            ResultValue::Min(_) => "min",
            ResultValue::Max(_) => "max",
            ResultValue::Aggregate(AggregateResult::TenantCost { .. }) => "usd",
            ResultValue::Aggregate(AggregateResult::Latency { .. }) => "p99",
        }
    }
}

impl fmt::Display for ResultValue {
    /// `sum 410 · count 2`, `avg 143.33`, `min —` (no element).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<Amount>| v.map_or_else(|| "—".to_string(), |a| a.to_string());
        match self {
            ResultValue::SumCount { sum, count } => write!(f, "sum {sum} · count {count}"),
            ResultValue::Aggregate(r) => write!(f, "{r}"),
            other => write!(f, "{} {}", other.column(), opt(other.amount())),
        }
    }
}

/// A number a sink adds up: exact for integer columns, a float once an average is involved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Amount {
    Int(i128),
    Real(f64),
}

impl Amount {
    pub const ZERO: Amount = Amount::Int(0);

    pub fn as_f64(&self) -> f64 {
        match *self {
            Amount::Int(i) => i as f64,
            Amount::Real(r) => r,
        }
    }

    pub fn is_zero(&self) -> bool {
        match *self {
            Amount::Int(i) => i == 0,
            // Sums of averages carry rounding noise; closer than this to zero is a match.
            Amount::Real(r) => r.abs() < 1e-9,
        }
    }
}

impl Add for Amount {
    type Output = Amount;
    fn add(self, other: Amount) -> Amount {
        match (self, other) {
            (Amount::Int(a), Amount::Int(b)) => {
                a.checked_add(b).map_or_else(|| Amount::Real(a as f64 + b as f64), Amount::Int)
            }
            (a, b) => Amount::Real(a.as_f64() + b.as_f64()),
        }
    }
}

impl Sub for Amount {
    type Output = Amount;
    fn sub(self, other: Amount) -> Amount {
        match (self, other) {
            (Amount::Int(a), Amount::Int(b)) => {
                a.checked_sub(b).map_or_else(|| Amount::Real(a as f64 - b as f64), Amount::Int)
            }
            (a, b) => Amount::Real(a.as_f64() - b.as_f64()),
        }
    }
}

impl std::iter::Sum for Amount {
    fn sum<I: Iterator<Item = Amount>>(iter: I) -> Amount {
        iter.fold(Amount::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Amount {
    /// Integers as they are; reals with at most two decimals, trailing zeros dropped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Amount::Int(i) => write!(f, "{i}"),
            Amount::Real(r) if !r.is_finite() => write!(f, "{r}"),
            Amount::Real(r) => {
                let s = format!("{r:.2}");
                let s = s.trim_end_matches('0').trim_end_matches('.');
                f.write_str(if s == "-0" { "0" } else { s })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each window function gives its own value; the sinks add up one column of it.
    #[test]
    fn values_per_function() {
        let v = [150, 260, 21];
        assert_eq!(ResultValue::of(WindowFunctionSpec::Process, &v), ResultValue::SumCount { sum: 431, count: 3 });
        assert_eq!(ResultValue::of(WindowFunctionSpec::Sum, &v).amount(), Some(Amount::Int(431)));
        assert_eq!(ResultValue::of(WindowFunctionSpec::Count, &v).amount(), Some(Amount::Int(3)));
        assert_eq!(ResultValue::of(WindowFunctionSpec::Min, &v).amount(), Some(Amount::Int(21)));
        assert_eq!(ResultValue::of(WindowFunctionSpec::Max, &v).amount(), Some(Amount::Int(260)));
        assert_eq!(ResultValue::of(WindowFunctionSpec::Avg, &v).to_string(), "avg 143.67");
        assert_eq!(ResultValue::of(WindowFunctionSpec::Min, &[]).to_string(), "min —");
        assert_eq!(ResultValue::of(WindowFunctionSpec::Process, &v).to_string(), "sum 431 · count 3");
    }

    /// Integer totals stay exact beyond i64; a real turns the total real.
    #[test]
    fn amounts_add_exactly() {
        let big = Amount::Int(i128::from(i64::MAX));
        assert_eq!(big + big, Amount::Int(2 * i128::from(i64::MAX)));
        assert_eq!(Amount::Int(1) + Amount::Real(0.5), Amount::Real(1.5));
        assert_eq!(Amount::Real(2.0).to_string(), "2");
        assert_eq!(Amount::Real(-0.001).to_string(), "0");
        assert_eq!((Amount::Int(841) - Amount::Int(431)).to_string(), "410");
    }
}
