//! Timestamps of imported rows: epoch seconds, milliseconds, microseconds or nanoseconds (whole or
//! decimal), or ISO-8601 date-times. An offset written in the text (`Z`, `+02:00`, `-0500`) is
//! always honoured; a naive date-time needs the fixed offset the user gives ([`UtcOffset`]). No
//! time-zone database: a zone name such as `Europe/Paris` is not understood, by design.
//!
//! Every conversion is exact integer arithmetic and rounds toward negative infinity
//! (`floor`), so `1.9999` s is 1999 ms and `-1` µs is -1 ms, the way `Math.floorDiv` would.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, FixedOffset, NaiveDateTime};

use crate::engine::Millis;

/// How a timestamp column is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    Seconds,
    Millis,
    Micros,
    Nanos,
    /// ISO-8601 / RFC 3339 date-times (`2024-03-10T12:00:00.250+01:00`).
    Iso,
}

impl TimeUnit {
    pub const ALL: [TimeUnit; 5] =
        [TimeUnit::Seconds, TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos, TimeUnit::Iso];
    /// The epoch units, in increasing resolution.
    pub const EPOCH: [TimeUnit; 4] = [TimeUnit::Seconds, TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos];

    /// The command line's name (`s`, `ms`, `us`, `ns`, `iso`).
    pub fn id(&self) -> &'static str {
        match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Millis => "ms",
            TimeUnit::Micros => "us",
            TimeUnit::Nanos => "ns",
            TimeUnit::Iso => "iso",
        }
    }

    /// Words for messages.
    pub fn label(&self) -> &'static str {
        match self {
            TimeUnit::Seconds => "epoch seconds",
            TimeUnit::Millis => "epoch milliseconds",
            TimeUnit::Micros => "epoch microseconds",
            TimeUnit::Nanos => "epoch nanoseconds",
            TimeUnit::Iso => "ISO-8601 date-times",
        }
    }

    /// `s`, `ms`, `us` (or `µs`), `ns`, `iso`.
    pub fn parse(text: &str) -> Option<TimeUnit> {
        match text.trim() {
            "s" | "sec" | "seconds" => Some(TimeUnit::Seconds),
            "ms" | "millis" | "milliseconds" => Some(TimeUnit::Millis),
            "us" | "µs" | "micros" | "microseconds" => Some(TimeUnit::Micros),
            "ns" | "nanos" | "nanoseconds" => Some(TimeUnit::Nanos),
            "iso" | "iso8601" | "iso-8601" | "rfc3339" => Some(TimeUnit::Iso),
            _ => None,
        }
    }

    /// Milliseconds per unit as a fraction `(numerator, denominator)`.
    fn millis_ratio(&self) -> (i128, i128) {
        match self {
            TimeUnit::Seconds => (1000, 1),
            TimeUnit::Millis | TimeUnit::Iso => (1, 1),
            TimeUnit::Micros => (1, 1000),
            TimeUnit::Nanos => (1, 1_000_000),
        }
    }
}

/// A fixed offset from UTC, in minutes (`+02:00` is 120).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UtcOffset {
    pub minutes: i32,
}

impl UtcOffset {
    pub const UTC: UtcOffset = UtcOffset { minutes: 0 };

    /// `Z`, `UTC`, `+HH:MM`, `-HH:MM`, `+HHMM` or `+HH`; at most ±23:59 (the range of an
    /// ISO-8601 offset).
    pub fn parse(text: &str) -> Option<UtcOffset> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("z") || t.eq_ignore_ascii_case("utc") {
            return Some(UtcOffset::UTC);
        }
        let (sign, rest) = match t.as_bytes().first()? {
            b'+' => (1, &t[1..]),
            b'-' => (-1, &t[1..]),
            _ => return None,
        };
        let digits = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
        let (h, m) = match rest.len() {
            2 if digits(rest) => (rest, "00"),
            4 if digits(&rest[..2]) && digits(&rest[2..]) => (&rest[..2], &rest[2..]),
            5 if rest.as_bytes()[2] == b':' && digits(&rest[..2]) && digits(&rest[3..]) => (&rest[..2], &rest[3..]),
            _ => return None,
        };
        let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
        (h < 24 && m < 60).then_some(UtcOffset { minutes: sign * (h * 60 + m) })
    }

    pub fn millis(&self) -> i64 {
        i64::from(self.minutes) * 60_000
    }
}

impl fmt::Display for UtcOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.minutes < 0 { '-' } else { '+' };
        let m = self.minutes.unsigned_abs();
        write!(f, "{sign}{:02}:{:02}", m / 60, m % 60)
    }
}

/// A timestamp cell that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimestampError {
    /// Not a number (epoch units) or not an ISO-8601 date-time; the text says what was expected.
    Invalid(String),
    /// A date-time without an offset, and the user gave none.
    NeedsOffset,
}

/// Reads one cell as epoch milliseconds. `offset` applies to naive ISO date-times only.
/// Returns the milliseconds and whether the text was a naive date-time.
pub fn parse_timestamp(
    text: &str,
    unit: TimeUnit,
    offset: Option<UtcOffset>,
) -> Result<(Millis, bool), TimestampError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(TimestampError::Invalid("is empty".into()));
    }
    match unit {
        TimeUnit::Iso => parse_iso(t, offset),
        epoch => {
            let (num, den) = epoch.millis_ratio();
            match parse_decimal(t, num, den) {
                Some(ms) if ms != i64::MIN => Ok((ms, false)),
                // Long.MIN_VALUE is Flink's "no timestamp" marker: its assigners reject it.
                Some(_) => Err(TimestampError::Invalid("is Long.MIN_VALUE, Flink's \"no timestamp\" marker".into())),
                None if parse_iso(t, offset).is_ok() => Err(TimestampError::Invalid(format!(
                    "is a date-time, not {} (choose ISO-8601 for this column)",
                    epoch.label()
                ))),
                None => Err(TimestampError::Invalid(format!("is not a number of {}", epoch.label()))),
            }
        }
    }
}

/// `[+-]digits[.digits]` times `num / den` milliseconds, floored; `None` if it is not such a
/// number or does not fit in 64 bits.
pub fn parse_decimal(text: &str, num: i128, den: i128) -> Option<i64> {
    let (negative, body) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (int_part, frac_part) = body.split_once('.').unwrap_or((body, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    if !int_part.bytes().chain(frac_part.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    // 19 digits before the point fit in i128 with room for the scaling below; more cannot fit
    // in a 64-bit millisecond count anyway. Fraction digits beyond 12 cannot change a floored
    // millisecond of a nanosecond value... except by carrying, so they only set a "rest" flag.
    let int_digits = int_part.trim_start_matches('0');
    if int_digits.len() > 19 {
        return None;
    }
    let kept = &frac_part[..frac_part.len().min(12)];
    let rest_nonzero = frac_part[kept.len()..].bytes().any(|b| b != b'0');
    let mut mantissa: i128 = 0;
    for b in int_digits.bytes().chain(kept.bytes()) {
        mantissa = mantissa * 10 + i128::from(b - b'0');
    }
    let scale = 10i128.pow(kept.len() as u32);
    // value = mantissa / scale (+ a sliver when rest_nonzero); millis = value * num / den.
    let numer = mantissa * num;
    let denom = scale * den;
    let millis = if negative {
        // floor(-x) = -ceil(x); a non-zero rest makes x strictly larger than mantissa/scale.
        let q = numer / denom;
        let exact = numer % denom == 0 && !rest_nonzero;
        -(q + i128::from(!exact))
    } else {
        numer / denom
    };
    i64::try_from(millis).ok()
}

fn parse_iso(t: &str, offset: Option<UtcOffset>) -> Result<(Millis, bool), TimestampError> {
    if let Ok(dt) = DateTime::<FixedOffset>::from_str(t) {
        return Ok((dt.timestamp_millis(), false));
    }
    // Naive: `2024-03-10T12:00:00[.fff]`, with `T`, `t` or a space, seconds optional.
    let normalized: String =
        t.char_indices().map(|(i, c)| if i == 10 && (c == ' ' || c == 't') { 'T' } else { c }).collect();
    let naive = NaiveDateTime::from_str(&normalized)
        .or_else(|_| NaiveDateTime::parse_from_str(&normalized, "%Y-%m-%dT%H:%M"))
        .map_err(|_| {
            TimestampError::Invalid(
                "is not an ISO-8601 date-time (like 2024-03-10T12:00:00Z or 2024-03-10 12:00:00.250+01:00)".into(),
            )
        })?;
    let Some(offset) = offset else { return Err(TimestampError::NeedsOffset) };
    let utc = naive.and_utc().timestamp_millis();
    Ok((utc - offset.millis(), true))
}

/// Epoch milliseconds as `2024-03-10 12:00:00.250 UTC` (for messages), or the number.
pub fn format_utc(ms: Millis) -> String {
    match DateTime::from_timestamp_millis(ms) {
        Some(dt) => format!("{} UTC", dt.naive_utc()),
        None => format!("{ms} ms"),
    }
}

/// Epoch milliseconds from 1990-01-01 to 2100-01-01: where real event times of today's systems
/// fall. A median outside it under the chosen unit and inside under another is a unit mistake.
const PLAUSIBLE_MILLIS: std::ops::Range<i128> = 631_152_000_000..4_102_444_800_000;

/// The epoch unit under which `median` (epoch milliseconds as read with `chosen`) would be a
/// plausible date when `chosen` is not, or `None`.
pub fn likely_unit(chosen: TimeUnit, median: Millis) -> Option<(TimeUnit, Millis)> {
    if chosen == TimeUnit::Iso || PLAUSIBLE_MILLIS.contains(&i128::from(median)) {
        return None;
    }
    let (cn, cd) = chosen.millis_ratio();
    TimeUnit::EPOCH.into_iter().filter(|u| *u != chosen).find_map(|u| {
        let (n, d) = u.millis_ratio();
        // The raw number is median * cd / cn; read as `u` it is raw * n / d milliseconds.
        let as_u = i128::from(median) * cd * n / (cn * d);
        (PLAUSIBLE_MILLIS.contains(&as_u)).then_some((u, as_u as i64))
    })
}

/// The epoch unit that makes a raw number a plausible date (1990 to 2100), if any.
pub fn plausible_epoch_unit(raw: &str) -> Option<TimeUnit> {
    let ms = parse_decimal(raw.trim(), 1, 1)?;
    if PLAUSIBLE_MILLIS.contains(&i128::from(ms)) {
        return Some(TimeUnit::Millis);
    }
    likely_unit(TimeUnit::Millis, ms).map(|(u, _)| u)
}

/// The guessed epoch unit of a raw number: the one that makes it a plausible date, else
/// milliseconds (small numbers are event times relative to a start, as in the course).
pub fn guess_epoch_unit(raw: &str) -> Option<TimeUnit> {
    parse_decimal(raw.trim(), 1, 1)?;
    Some(plausible_epoch_unit(raw).unwrap_or(TimeUnit::Millis))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(text: &str, unit: TimeUnit) -> Result<Millis, TimestampError> {
        parse_timestamp(text, unit, None).map(|(m, _)| m)
    }

    /// Epoch numbers in every unit, decimals floored, signs and limits.
    #[test]
    fn epoch_units_are_exact_and_floored() {
        assert_eq!(ms("1710072000", TimeUnit::Seconds), Ok(1_710_072_000_000));
        assert_eq!(ms("1710072000.1239", TimeUnit::Seconds), Ok(1_710_072_000_123));
        assert_eq!(ms(" 1710072000123 ", TimeUnit::Millis), Ok(1_710_072_000_123));
        assert_eq!(ms("1710072000123.9", TimeUnit::Millis), Ok(1_710_072_000_123));
        assert_eq!(ms("1710072000123999", TimeUnit::Micros), Ok(1_710_072_000_123));
        assert_eq!(ms("1710072000123999999", TimeUnit::Nanos), Ok(1_710_072_000_123));
        assert_eq!(ms("-1", TimeUnit::Micros), Ok(-1));
        assert_eq!(ms("-1.5", TimeUnit::Millis), Ok(-2));
        assert_eq!(ms("-2.000", TimeUnit::Millis), Ok(-2));
        assert_eq!(ms("-0.0000000000001", TimeUnit::Millis), Ok(-1));
        assert_eq!(ms("+7", TimeUnit::Seconds), Ok(7000));
        assert_eq!(ms(".5", TimeUnit::Seconds), Ok(500));
        assert_eq!(ms("9223372036854775807", TimeUnit::Millis), Ok(i64::MAX));
        assert!(ms("9223372036854775808", TimeUnit::Millis).is_err());
        assert!(ms("9223372036854776", TimeUnit::Seconds).is_err());
        assert!(ms("-9223372036854775808", TimeUnit::Millis).is_err(), "Long.MIN is Flink's no-timestamp marker");
        for bad in ["", "1e9", "12:00", "0x10", "1.2.3", "-", ".", "١٢"] {
            assert!(ms(bad, TimeUnit::Millis).is_err(), "{bad:?}");
        }
        assert_eq!(
            ms("2024-03-10T12:00:00Z", TimeUnit::Millis),
            Err(TimestampError::Invalid(
                "is a date-time, not epoch milliseconds (choose ISO-8601 for this column)".into()
            ))
        );
    }

    /// ISO-8601: the written offset always wins; naive date-times take the user's offset or ask
    /// for one.
    #[test]
    fn iso_offsets_are_honoured() {
        let noon_utc = 1_710_072_000_000;
        for text in [
            "2024-03-10T12:00:00Z",
            "2024-03-10T12:00:00.000Z",
            "2024-03-10 12:00:00Z",
            "2024-03-10T13:00:00+01:00",
            "2024-03-10T13:00:00+0100",
            "2024-03-10T07:00:00-05:00",
            "2024-03-10t12:00:00z",
            "2024-03-10T12:00:00 UTC",
        ] {
            assert_eq!(
                parse_timestamp(text, TimeUnit::Iso, Some(UtcOffset { minutes: 600 })),
                Ok((noon_utc, false)),
                "{text}"
            );
        }
        assert_eq!(ms("2024-03-10T12:00:00.2509+00:00", TimeUnit::Iso), Ok(noon_utc + 250));
        let plus2 = UtcOffset::parse("+02:00");
        for naive in ["2024-03-10T14:00:00", "2024-03-10 14:00:00", "2024-03-10T14:00", "2024-03-10 14:00:00.000"] {
            assert_eq!(parse_timestamp(naive, TimeUnit::Iso, plus2), Ok((noon_utc, true)), "{naive}");
            assert_eq!(parse_timestamp(naive, TimeUnit::Iso, None), Err(TimestampError::NeedsOffset));
        }
        for bad in
            ["2024-03-10", "2024-13-10T00:00:00Z", "10/03/2024 12:00", "2024-03-10T12:00:00 Europe/Paris", "soon"]
        {
            assert!(matches!(ms(bad, TimeUnit::Iso), Err(TimestampError::Invalid(_))), "{bad}");
        }
    }

    #[test]
    fn offsets_parse_and_print() {
        assert_eq!(UtcOffset::parse("+02:00"), Some(UtcOffset { minutes: 120 }));
        assert_eq!(UtcOffset::parse("-0530"), Some(UtcOffset { minutes: -330 }));
        assert_eq!(UtcOffset::parse("+09"), Some(UtcOffset { minutes: 540 }));
        assert_eq!(UtcOffset::parse("Z"), Some(UtcOffset::UTC));
        for bad in ["02:00", "+24:00", "+02:60", "+2:00", "CET", "+02:00:00", ""] {
            assert_eq!(UtcOffset::parse(bad), None, "{bad}");
        }
        assert_eq!(UtcOffset { minutes: -330 }.to_string(), "-05:30");
        assert_eq!(UtcOffset::UTC.to_string(), "+00:00");
    }

    /// "Timestamps in seconds read as milliseconds" (the course's failure mode) and its
    /// relatives are recognised from the median; relative event times are left alone.
    #[test]
    fn unit_mistakes_are_recognised() {
        // 2024-03-10 in seconds, read as milliseconds: 1970-01-20.
        assert_eq!(likely_unit(TimeUnit::Millis, 1_710_072_000), Some((TimeUnit::Seconds, 1_710_072_000_000)));
        // Milliseconds read as seconds.
        assert_eq!(likely_unit(TimeUnit::Seconds, 1_710_072_000_123_000), Some((TimeUnit::Millis, 1_710_072_000_123)));
        // Microseconds read as milliseconds.
        assert_eq!(likely_unit(TimeUnit::Millis, 1_710_072_000_123_456), Some((TimeUnit::Micros, 1_710_072_000_123)));
        assert_eq!(likely_unit(TimeUnit::Millis, 1_710_072_000_123), None);
        assert_eq!(likely_unit(TimeUnit::Millis, 65_000), None, "relative times in ms");
        assert_eq!(likely_unit(TimeUnit::Iso, 5), None);
        assert_eq!(guess_epoch_unit("1710072000"), Some(TimeUnit::Seconds));
        assert_eq!(guess_epoch_unit("1710072000123"), Some(TimeUnit::Millis));
        assert_eq!(guess_epoch_unit("1710072000123456789"), Some(TimeUnit::Nanos));
        assert_eq!(guess_epoch_unit("4500"), Some(TimeUnit::Millis));
        assert_eq!(guess_epoch_unit("2024-03-10"), None);
        assert_eq!(format_utc(1_710_072_000_250), "2024-03-10 12:00:00.250 UTC");
    }
}
