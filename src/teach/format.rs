//! How teaching text writes numbers: values in the preset's unit (`$4.10`), times of day in the
//! shortest exact form (`10:01`, `10:00:45`, `10:00:59.999`), durations (`20 s`, `2 min`) and
//! windows (`[10:00, 10:01)`). Every function is exact: nothing is rounded away.

use serde::Serialize;

use crate::engine::time::{Millis, format_millis};
use crate::engine::{TimeWindow, Window};

/// What an element's `value` means, so narration can write `$4.10` rather than `410`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueFormat {
    /// US cents, written as dollars: 410 → `$4.10`.
    UsdCents,
    /// A number of things (each element usually counts 1): `3`.
    Count,
    /// Milliseconds (a latency): `120 ms`.
    Ms,
    /// The bare number.
    #[default]
    Plain,
}

impl ValueFormat {
    pub const ALL: [ValueFormat; 4] = [ValueFormat::UsdCents, ValueFormat::Count, ValueFormat::Ms, ValueFormat::Plain];

    /// The preset file's spelling: `usd_cents`, `count`, `ms` or `plain`.
    pub fn as_str(&self) -> &'static str {
        match self {
            ValueFormat::UsdCents => "usd_cents",
            ValueFormat::Count => "count",
            ValueFormat::Ms => "ms",
            ValueFormat::Plain => "plain",
        }
    }

    pub fn parse(s: &str) -> Option<ValueFormat> {
        ValueFormat::ALL.into_iter().find(|f| f.as_str() == s)
    }

    /// Formats a value (an element's value or a window result) in this unit.
    pub fn value(&self, v: i64) -> String {
        match self {
            ValueFormat::UsdCents => {
                let sign = if v < 0 { "-" } else { "" };
                let cents = v.unsigned_abs();
                format!("{sign}${}.{:02}", cents / 100, cents % 100)
            }
            ValueFormat::Ms => format!("{v} ms"),
            ValueFormat::Count | ValueFormat::Plain => v.to_string(),
        }
    }
}

/// A time of day without its trailing zero parts: `10:01`, `10:00:45`, `10:00:59.999`.
/// Small hand-written numbers stay raw milliseconds, as in [`format_millis`].
pub fn time(ts: Millis) -> String {
    let full = format_millis(ts);
    if !full.contains(':') {
        return full;
    }
    let without_ms = full.strip_suffix(".000").unwrap_or(&full);
    if without_ms.len() < full.len() {
        // `HH:MM:SS` → `HH:MM` when the seconds are zero too.
        return without_ms.strip_suffix(":00").unwrap_or(without_ms).to_string();
    }
    full
}

/// A duration: `1 ms`, `20 s`, `1.5 s`, `2 min`, `1 min 30 s`, `1 h`, `24 h`.
pub fn duration(ms: Millis) -> String {
    if ms == Millis::MAX {
        return "Long.MAX ms".into();
    }
    if ms < 0 {
        return format!("{ms} ms");
    }
    const S: i64 = 1000;
    const MIN: i64 = 60 * S;
    const H: i64 = 60 * MIN;
    if ms == 0 {
        return "0".into();
    }
    if ms % H == 0 {
        return format!("{} h", ms / H);
    }
    if ms % MIN == 0 {
        return format!("{} min", ms / MIN);
    }
    if ms > MIN && ms % S == 0 {
        let (m, s) = (ms / MIN, ms % MIN / S);
        return format!("{m} min {s} s");
    }
    if ms % S == 0 {
        return format!("{} s", ms / S);
    }
    if ms >= S && ms % 100 == 0 && ms < MIN {
        return format!("{}.{} s", ms / S, ms % S / 100);
    }
    format!("{ms} ms")
}

/// A time window as a half-open interval: `[10:00, 10:01)`; the global window by name.
pub fn window(w: &Window) -> String {
    match w {
        Window::Global => "the GlobalWindow".into(),
        Window::Time(tw) => time_window(tw),
    }
}

pub fn time_window(tw: &TimeWindow) -> String {
    format!("[{}, {})", time(tw.start), time(tw.end))
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
pub fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `1 element`, `3 elements`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// `a`, `a and b`, `a, b and c`.
pub fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The text with its first letter in upper case: a label that starts a sentence.
pub fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

/// The text with its first letter in lower case: a sentence that continues another.
pub fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().collect::<String>() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The course's money: cents written as dollars, exactly.
    #[test]
    fn usd_cents() {
        assert_eq!(ValueFormat::UsdCents.value(410), "$4.10");
        assert_eq!(ValueFormat::UsdCents.value(431), "$4.31");
        assert_eq!(ValueFormat::UsdCents.value(21), "$0.21");
        assert_eq!(ValueFormat::UsdCents.value(-5), "-$0.05");
        assert_eq!(ValueFormat::UsdCents.value(i64::MIN), "-$92233720368547758.08");
        assert_eq!(ValueFormat::Ms.value(120), "120 ms");
        assert_eq!(ValueFormat::parse("usd_cents"), Some(ValueFormat::UsdCents));
        assert_eq!(ValueFormat::parse("euros"), None);
    }

    /// Times drop only trailing zero parts; watermarks keep their milliseconds.
    #[test]
    fn times_are_short_and_exact() {
        assert_eq!(time(1_767_261_600_000), "10:00");
        assert_eq!(time(1_767_261_645_000), "10:00:45");
        assert_eq!(time(1_767_261_659_999), "10:00:59.999");
        assert_eq!(time(1_767_261_660_999), "10:01:00.999");
        assert_eq!(time(1_767_261_660_500), "10:01:00.500");
        assert_eq!(time(59_999), "59999");
        assert_eq!(time(i64::MAX), "Long.MAX");
        assert_eq!(time(i64::MIN), "Long.MIN");
    }

    #[test]
    fn durations() {
        assert_eq!(duration(120_000), "2 min");
        assert_eq!(duration(20_000), "20 s");
        assert_eq!(duration(90_000), "1 min 30 s");
        assert_eq!(duration(1_500), "1.5 s");
        assert_eq!(duration(1), "1 ms");
        assert_eq!(duration(3_600_000), "1 h");
        assert_eq!(duration(0), "0");
    }

    #[test]
    fn windows_and_words() {
        let w = Window::Time(TimeWindow::new(1_767_261_600_000, 1_767_261_660_000));
        assert_eq!(window(&w), "[10:00, 10:01)");
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
        assert_eq!(list(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    }

    /// A sentence's first letter, up or down; the rest and the empty text stay as they are.
    #[test]
    fn first_letters() {
        assert_eq!(capitalize("[10:00, 10:01) (key A) is created"), "[10:00, 10:01) (key A) is created");
        assert_eq!(capitalize("element 3 arrives"), "Element 3 arrives");
        assert_eq!(capitalize("élan"), "Élan");
        assert_eq!(lower_first("Watermark 10:01 ≥ 10:00"), "watermark 10:01 ≥ 10:00");
        assert_eq!(capitalize(""), "");
        assert_eq!(lower_first(""), "");
    }
}
