//! The course's back-of-envelope state estimate for any scenario: "active keys times live
//! windows per key times bytes per window" (Flink Windowing, in depth: State sizing;
//! 2,000,000 × 60 × 48 bytes ≈ 5.8 GB for a one-hour window sliding every minute).
//!
//! The live windows per key come from the course's rule for a key with steady traffic
//! ([`super::state::course_live_windows`]: the windows an element is in plus those held open by
//! allowed lateness) where the assigner fixes them, else from the run (sessions: the most live
//! windows any key has at the playhead). A window holds one accumulator for an incremental
//! function and all of its records for a buffering one; the records per window are the run's
//! own at the playhead. The active keys and the bytes per state entry are the reader's.

use super::state::{CourseLiveWindows, StateSample, StateSeries};

/// The reader's numbers: how many keys are active, and how large one state entry is (one
/// accumulator, or one buffered record).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EstimateParams {
    pub active_keys: u64,
    pub bytes_per_entry: u64,
}

impl Default for EstimateParams {
    /// The course's example: two million active users, a 48-byte accumulator.
    fn default() -> Self {
        EstimateParams { active_keys: 2_000_000, bytes_per_entry: 48 }
    }
}

/// Where the live windows per key come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowsPerKey {
    /// The course's rule for a key with steady traffic.
    CourseRule(CourseLiveWindows),
    /// The run's own: the most live windows any key has at the playhead (at least 1).
    Measured,
}

/// The estimate at one playhead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateEstimate {
    pub params: EstimateParams,
    pub windows_per_key: u64,
    pub source: WindowsPerKey,
    /// Whether the scenario's function buffers its records (a `ProcessWindowFunction`, or any
    /// function behind an evictor).
    pub buffering: bool,
    /// Records per window with contents at the playhead, rounded up (at least 1).
    pub records_per_window: u64,
    /// What the scenario's function keeps: one accumulator per window, or its records.
    pub bytes: u128,
    /// The other form, for contrast: the buffering form's bytes for an incremental function,
    /// the aggregate form's for a buffering one.
    pub other_form_bytes: u128,
}

impl StateEstimate {
    /// State entries per window for the scenario's function.
    pub fn entries_per_window(&self) -> u64 {
        if self.buffering { self.records_per_window } else { 1 }
    }
}

fn product(factors: [u64; 4]) -> u128 {
    factors.iter().fold(1u128, |p, f| p.saturating_mul(u128::from(*f)))
}

/// The course's estimate for the scenario behind `series`, at `playhead`.
pub fn estimate(series: &StateSeries, playhead: usize, params: EstimateParams) -> StateEstimate {
    estimate_from(&series.at(playhead), series.course_windows, series.buffering, params)
}

/// The estimate from one state sample, the scenario's course rule and whether its function
/// buffers (what [`estimate`] reads from a series).
pub fn estimate_from(
    now: &StateSample,
    course_windows: Option<CourseLiveWindows>,
    buffering: bool,
    params: EstimateParams,
) -> StateEstimate {
    let (windows_per_key, source) = match course_windows {
        Some(rule) => (rule.total().max(1), WindowsPerKey::CourseRule(rule)),
        None => (now.max_windows_per_key.max(1), WindowsPerKey::Measured),
    };
    let records_per_window =
        if now.accumulators == 0 { 1 } else { now.stored_elements.div_ceil(now.accumulators).max(1) };
    let with = |entries: u64| product([params.active_keys, windows_per_key, entries, params.bytes_per_entry]);
    let (aggregate, buffered) = (with(1), with(records_per_window));
    StateEstimate {
        params,
        windows_per_key,
        source,
        buffering,
        records_per_window,
        bytes: if buffering { buffered } else { aggregate },
        other_form_bytes: if buffering { aggregate } else { buffered },
    }
}

/// Bytes as the course writes them: decimal units, one decimal below 10 of a unit, whole above
/// (`5,760,000,000` → "5.8 GB", `57,600,000,000` → "58 GB"), whole bytes below 1 kB.
pub fn bytes_text(bytes: u128) -> String {
    const UNITS: [&str; 9] = ["B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut unit = 0;
    let mut scaled = bytes as f64;
    while scaled >= 999.5 && unit + 1 < UNITS.len() {
        scaled /= 1000.0;
        unit += 1;
    }
    let text = if scaled >= 9.95 { format!("{scaled:.0}") } else { format!("{scaled:.1}") };
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text };
    format!("{text} {}", UNITS[unit])
}

/// A whole number with thousands separators: `2,000,000`.
pub fn grouped(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A whole number the reader typed: digits with optional `,`, `_`, `'` or space separators,
/// from `min` to `max`. The error says what is accepted.
pub fn parse_count(text: &str, what: &str, min: u64, max: u64) -> Result<u64, String> {
    let digits: String = text.trim().chars().filter(|c| !matches!(c, ',' | '_' | ' ' | '\'')).collect();
    let bad = || format!("{what} must be a whole number from {} to {}.", grouped(min.into()), grouped(max.into()));
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    match digits.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_written_as_the_course_does() {
        assert_eq!(bytes_text(5_760_000_000), "5.8 GB");
        assert_eq!(bytes_text(57_600_000_000), "58 GB");
        assert_eq!(bytes_text(5_800_000_000), "5.8 GB");
        assert_eq!(bytes_text(999), "999 B");
        assert_eq!(bytes_text(1_000), "1 kB");
        assert_eq!(bytes_text(144), "144 B");
        assert_eq!(bytes_text(9_216_000_000), "9.2 GB");
        assert_eq!(bytes_text(9_960_000_000), "10 GB");
        assert_eq!(bytes_text(999_600), "1 MB");
        assert!(bytes_text(u128::MAX).ends_with(" YB"), "the largest estimate is still written");
        assert_eq!(grouped(2_000_000), "2,000,000");
        assert_eq!(grouped(48), "48");
        assert_eq!(grouped(5_760_000_000), "5,760,000,000");
    }

    #[test]
    fn typed_counts() {
        assert_eq!(parse_count("2,000,000", "Active keys", 1, 1_000_000_000_000), Ok(2_000_000));
        assert_eq!(parse_count(" 48 ", "Bytes", 1, 1_000_000), Ok(48));
        assert_eq!(parse_count("2_000 000", "Active keys", 1, 10_000_000), Ok(2_000_000));
        let e = Err("Active keys must be a whole number from 1 to 1,000,000,000,000.".to_string());
        assert_eq!(parse_count("-5", "Active keys", 1, 1_000_000_000_000), e);
        assert_eq!(parse_count("1e6", "Active keys", 1, 1_000_000_000_000), e);
        assert_eq!(parse_count("", "Active keys", 1, 1_000_000_000_000), e);
        assert_eq!(parse_count("0", "Active keys", 1, 1_000_000_000_000), e);
        assert_eq!(parse_count("99999999999999999999999", "Active keys", 1, 1_000_000_000_000), e);
    }
}
