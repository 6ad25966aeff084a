//! Python's syntax for the generator: literals (strings, `Time`, `Duration`, grouped ints) and
//! the imports a program body needs.

use crate::codegen::{Text, Unit, short_escape, split_duration};
use crate::engine::time::Millis;

/// A Python string literal (double quotes; backslashes, quotes and control characters escaped).
pub(crate) fn string_lit(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if let Some(escape) = short_escape(c) {
            out.push_str(escape);
            continue;
        }
        match c {
            c if c.is_control() => {
                let code = c as u32;
                if code <= 0xff {
                    out.push_str(&format!("\\x{code:02x}"));
                } else {
                    out.push_str(&format!("\\u{code:04x}"));
                }
            }
            // Line and paragraph separators are fine inside a Python string, but editors show
            // them as line breaks; escape them too.
            '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `Time.minutes(1)` (window sizes, offsets, intervals).
pub(crate) fn time(ms: Millis) -> String {
    let (n, unit) = split_duration(ms);
    let f = match unit {
        Unit::Days => "days",
        Unit::Hours => "hours",
        Unit::Minutes => "minutes",
        Unit::Seconds => "seconds",
        Unit::Millis => "milliseconds",
    };
    format!("Time.{f}({n})")
}

/// `Duration.of_seconds(20)` (watermark bounds).
pub(crate) fn duration(ms: Millis) -> String {
    let (n, unit) = split_duration(ms);
    let f = match unit {
        Unit::Days => "of_days",
        Unit::Hours => "of_hours",
        Unit::Minutes => "of_minutes",
        Unit::Seconds => "of_seconds",
        Unit::Millis => "of_millis",
    };
    format!("Duration.{f}({n})")
}

/// `120_000`: a Python int literal with digit groups.
pub(crate) fn grouped(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

/// The imports of a program whose body (below the imports) is `body`: every PyFlink name it uses.
pub(super) fn imports(t: &mut Text, body: &str) {
    // The code, without comment lines and trailing comments: a name in a comment needs no import.
    let code: String = body
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| l.split(" # ").next().unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let used = |name: &str| {
        code.match_indices(name).any(|(i, _)| {
            let before = code[..i].chars().next_back();
            let after = code[i + name.len()..].chars().next();
            let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
            !before.is_some_and(ident) && !after.is_some_and(ident)
        })
    };
    if used("Decimal") {
        t.line("from decimal import Decimal");
        t.blank();
    }
    let common: Vec<&str> =
        ["Configuration", "Duration", "Row", "Types", "WatermarkStrategy"].into_iter().filter(|n| used(n)).collect();
    t.line(format!("from pyflink.common import {}", common.join(", ")));
    if used("Time") {
        t.line("from pyflink.common.time import Time");
    }
    if used("TimestampAssigner") {
        t.line("from pyflink.common.watermark_strategy import TimestampAssigner");
    }
    let datastream: Vec<&str> = [
        "AggregateFunction",
        "KeyedProcessFunction",
        "OutputTag",
        "ProcessWindowFunction",
        "ReduceFunction",
        "RuntimeContext",
        "StreamExecutionEnvironment",
    ]
    .into_iter()
    .filter(|n| used(n))
    .collect();
    t.line(format!("from pyflink.datastream import {}", datastream.join(", ")));
    let state: Vec<&str> = ["MapStateDescriptor", "ReducingStateDescriptor", "StateTtlConfig", "ValueStateDescriptor"]
        .into_iter()
        .filter(|n| used(n))
        .collect();
    if !state.is_empty() {
        t.line(format!("from pyflink.datastream.state import {}", state.join(", ")));
    }
    let window: Vec<&str> = [
        "ContinuousEventTimeTrigger",
        "CountTrigger",
        "DynamicEventTimeSessionWindows",
        "EventTimeSessionWindows",
        "EventTimeTrigger",
        "GlobalWindows",
        "PurgingTrigger",
        "SessionWindowTimeGapExtractor",
        "SlidingEventTimeWindows",
        "SlidingProcessingTimeWindows",
        "TumblingEventTimeWindows",
        "TumblingProcessingTimeWindows",
        "Trigger",
        "TriggerResult",
    ]
    .into_iter()
    .filter(|n| used(n))
    .collect();
    if !window.is_empty() {
        t.line(format!("from pyflink.datastream.window import {}", window.join(", ")));
    }
    let table: Vec<&str> = ["Schema", "StreamTableEnvironment"].into_iter().filter(|n| used(n)).collect();
    if !table.is_empty() {
        t.line(format!("from pyflink.table import {}", table.join(", ")));
    }
    let expressions: Vec<&str> = ["col", "lit"].into_iter().filter(|n| used(n)).collect();
    if !expressions.is_empty() {
        t.line(format!("from pyflink.table.expressions import {}", expressions.join(", ")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python literals escape what would end them.
    #[test]
    fn string_literals() {
        assert_eq!(string_lit("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(string_lit("x\ny\u{1}é"), "\"x\\ny\\x01é\"");
        assert_eq!(time(60_000), "Time.minutes(1)");
        assert_eq!(duration(20_000), "Duration.of_seconds(20)");
        assert_eq!(time(1_500), "Time.milliseconds(1500)");
        assert_eq!(grouped(120_000), "120_000");
        assert_eq!(grouped(-1_000), "-1_000");
        assert_eq!(grouped(999), "999");
    }
}
