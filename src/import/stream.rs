//! From parsed rows to a scenario: arrival order, element ids, the window, and bounded
//! out-of-orderness with the bound suggested from the data ([`super::lateness::suggest_bound`]).

use super::lateness::{BoundSuggestion, suggest_bound};
use super::parse::Parsed;
use super::timestamp::parse_decimal;
use super::{BadRowPolicy, ImportError, Warning};
use crate::engine::scenario::{AssignerSpec, Element, InputItem, Key, WatermarkSpec};
use crate::engine::{Millis, Scenario};

/// Bad rows listed in [`ImportError::BadRows`].
const BAD_ROWS_LISTED: usize = 20;
const HOUR_MILLIS: Millis = 3_600_000;

/// The scenario around the imported elements (the configuration panel's starting point).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioOptions {
    pub name: String,
    pub assigner: AssignerSpec,
    pub allowed_lateness: Option<Millis>,
    /// The out-of-orderness bound; `None`: the suggested one.
    pub bound: Option<Millis>,
    pub side_output: bool,
}

impl Default for ScenarioOptions {
    fn default() -> Self {
        ScenarioOptions {
            name: "imported".into(),
            assigner: AssignerSpec::Tumbling { size: 60_000, offset: 0 },
            allowed_lateness: None,
            bound: None,
            side_output: true,
        }
    }
}

/// A loaded import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    pub scenario: Scenario,
    pub suggestion: BoundSuggestion,
    /// Bad rows left out (only with [`BadRowPolicy::Skip`]).
    pub skipped: u64,
    /// The arrival column's values were shifted back by this many milliseconds (whole hours),
    /// so that processing time starts within the first hour.
    pub arrival_shift: Millis,
    pub warnings: Vec<Warning>,
}

/// Builds the scenario: elements in arrival order (file order without an arrival column; with
/// one, sorted by arrival, ties in file order), each element's id its line in the file.
pub fn build_scenario(
    parsed: &Parsed,
    policy: BadRowPolicy,
    options: &ScenarioOptions,
) -> Result<Imported, ImportError> {
    if parsed.bad_row_count > 0 && policy == BadRowPolicy::Cancel {
        return Err(ImportError::BadRows {
            count: parsed.bad_row_count,
            first: parsed.bad_rows.iter().take(BAD_ROWS_LISTED).cloned().collect(),
        });
    }
    if parsed.elements.is_empty() {
        return Err(ImportError::Empty);
    }
    let mut order: Vec<usize> = (0..parsed.elements.len()).collect();
    // Arrivals as processing time from the start of the first arrival's hour: the engine ticks
    // from 0, and a whole-hour shift keeps periodic ticks and processing-time windows of up to
    // an hour on the same grid.
    let first_arrival = parsed.elements.iter().filter_map(|e| e.arrival).min();
    let arrival_shift = first_arrival.map_or(0, |a| a.div_euclid(HOUR_MILLIS) * HOUR_MILLIS);
    if first_arrival.is_some() {
        // By arrival, ties in file order (the index makes every key distinct).
        order.sort_unstable_by_key(|&i| (parsed.elements[i].arrival, i));
    }
    let mut keys = std::collections::BTreeSet::new();
    let input: Vec<InputItem> = order
        .iter()
        .map(|&i| {
            let e = &parsed.elements[i];
            InputItem::Element(Element {
                id: e.line as i64,
                key: Key::interned(&mut keys, &e.key),
                ts: e.ts,
                value: e.value,
                partition: e.partition,
                arrival: e.arrival.map(|a| a - arrival_shift),
                event: None,
            })
        })
        .collect();
    let skipped = parsed.bad_row_count;
    let mut description = format!("Imported: {} elements, {} keys", input.len(), parsed.keys);
    if skipped > 0 {
        description.push_str(&format!(", {skipped} bad rows skipped"));
    }
    let mut scenario = Scenario {
        name: options.name.clone(),
        description,
        assigner: options.assigner.clone(),
        allowed_lateness: options.allowed_lateness,
        side_output: options.side_output,
        input,
        ..Scenario::default()
    };
    let suggestion = suggest_bound(&scenario);
    scenario.watermarks = WatermarkSpec::BoundedOutOfOrderness { bound: options.bound.unwrap_or(suggestion.bound) };
    scenario.check_limits().map_err(ImportError::Scenario)?;
    let mut warnings = parsed.warnings.clone();
    let window = match scenario.assigner {
        AssignerSpec::Tumbling { size, .. } | AssignerSpec::Sliding { size, .. } => Some(size),
        AssignerSpec::Session { gap } => Some(gap),
        _ => None,
    };
    let (lo, hi) = parsed.elements.iter().fold((Millis::MAX, Millis::MIN), |(lo, hi), e| (lo.min(e.ts), hi.max(e.ts)));
    let span = hi.saturating_sub(lo);
    if let Some(window) = window
        && parsed.elements.len() > 1
        && span < window
    {
        warnings.push(Warning::SpanWithinOneWindow { elements: parsed.elements.len() as u64, span, window });
    }
    Ok(Imported { scenario, suggestion, skipped, arrival_shift, warnings })
}

/// A duration: a number (decimals allowed) and a unit, `ms`, `s`, `m`/`min`, `h` or `d`; a bare
/// number is milliseconds. `1.5s` is 1500.
pub fn parse_duration(text: &str) -> Result<Millis, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!("'{t}': a duration cannot be negative"));
    }
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let factor = match unit.trim() {
        "" | "ms" => 1,
        "s" | "sec" => 1000,
        "m" | "min" => 60_000,
        "h" => HOUR_MILLIS,
        "d" => 24 * HOUR_MILLIS,
        other => return Err(format!("unknown unit '{other}' in duration '{t}' (use ms, s, min, h or d)")),
    };
    match parse_decimal(number, i128::from(factor), 1) {
        Some(ms) if !number.is_empty() => Ok(ms),
        _ => Err(format!("'{t}' is not a duration (like 250ms, 5s, 1.5min, 2h)")),
    }
}

/// A window: `tumbling:SIZE[:OFFSET]`, `sliding:SIZE:SLIDE[:OFFSET]` or `session:GAP`.
pub fn parse_window(text: &str) -> Result<AssignerSpec, String> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    let d = |i: usize| -> Result<Millis, String> { parts.get(i).map_or(Ok(0), |p| parse_duration(p)) };
    let spec = match (parts[0], parts.len()) {
        ("tumbling", 2 | 3) => AssignerSpec::Tumbling { size: d(1)?, offset: d(2)? },
        ("sliding", 3 | 4) => AssignerSpec::Sliding { size: d(1)?, slide: d(2)?, offset: d(3)? },
        ("session", 2) => AssignerSpec::Session { gap: d(1)? },
        _ => {
            return Err(format!(
                "'{text}' is not a window (tumbling:60s, tumbling:1h:15min, sliding:60s:10s or session:5m)"
            ));
        }
    };
    Ok(spec)
}

/// `60 s`, `5 min`, `1.5 s`, `250 ms`, `2 h`.
pub fn format_duration(ms: Millis) -> String {
    match ms {
        0 => "0 ms".into(),
        ms if ms % HOUR_MILLIS == 0 => format!("{} h", ms / HOUR_MILLIS),
        ms if ms % 60_000 == 0 => format!("{} min", ms / 60_000),
        ms if ms % 1000 == 0 => format!("{} s", ms / 1000),
        ms if ms.abs() > 1000 => {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            format!("{} s", s.trim_end_matches('0').trim_end_matches('.'))
        }
        ms => format!("{ms} ms"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_windows() {
        assert_eq!(parse_duration("60s"), Ok(60_000));
        assert_eq!(parse_duration("1.5s"), Ok(1500));
        assert_eq!(parse_duration("5m"), Ok(300_000));
        assert_eq!(parse_duration("2 h"), Ok(7_200_000));
        assert_eq!(parse_duration("250"), Ok(250));
        assert!(parse_duration("-5s").is_err());
        assert!(parse_duration("5 weeks").is_err());
        assert!(parse_duration("s").is_err());
        assert_eq!(parse_window("tumbling:60s"), Ok(AssignerSpec::Tumbling { size: 60_000, offset: 0 }));
        assert_eq!(parse_window("tumbling:1h:15min"), Ok(AssignerSpec::Tumbling { size: 3_600_000, offset: 900_000 }));
        assert_eq!(
            parse_window("sliding:60s:10s"),
            Ok(AssignerSpec::Sliding { size: 60_000, slide: 10_000, offset: 0 })
        );
        assert_eq!(parse_window("session:5m"), Ok(AssignerSpec::Session { gap: 300_000 }));
        for bad in ["hopping:5s", "sliding:60s", "session", "tumbling:x"] {
            assert!(parse_window(bad).is_err(), "{bad}");
        }
        assert_eq!(format_duration(60_000), "1 min");
        assert_eq!(format_duration(4800), "4.8 s");
        assert_eq!(format_duration(250), "250 ms");
        assert_eq!(format_duration(7_200_000), "2 h");
    }
}
