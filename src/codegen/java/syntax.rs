//! Java's syntax for the generator: literals (`long`, `Duration`, strings), and the imports a
//! class body needs.

use crate::codegen::{Unit, short_escape, split_duration};
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};

/// A Java `long` literal.
pub(crate) fn long_lit(v: i64) -> String {
    match v {
        LONG_MAX => "Long.MAX_VALUE".into(),
        LONG_MIN => "Long.MIN_VALUE".into(),
        v if i32::try_from(v).is_ok() => v.to_string(),
        v => format!("{v}L"),
    }
}

/// `Duration.ofMinutes(2)`, `Duration.ofMillis(1500)`, `Duration.ZERO`.
pub(crate) fn duration(ms: Millis) -> String {
    if ms == 0 {
        return "Duration.ZERO".into();
    }
    let (n, unit) = split_duration(ms);
    let f = match unit {
        Unit::Days => "ofDays",
        Unit::Hours => "ofHours",
        Unit::Minutes => "ofMinutes",
        Unit::Seconds => "ofSeconds",
        Unit::Millis => "ofMillis",
    };
    format!("Duration.{f}({})", long_lit(n))
}

/// A Java string literal, ASCII only: `\uXXXX` for everything else. Why not the character
/// itself: javac reads sources in the platform encoding unless told `-encoding UTF-8`.
pub(crate) fn string_lit(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if let Some(escape) = short_escape(c) {
            out.push_str(escape);
            continue;
        }
        match c {
            // Octal escapes for other control characters: a `\u000a` would be turned into a
            // real line break before the string is even lexed.
            c if (c as u32) < 0x20 => out.push_str(&format!("\\{:03o}", c as u32)),
            c if c.is_ascii() => out.push(c),
            c => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
    out
}

/// Percent-encodes a key for the compact input lines (every byte but ASCII letters and digits).
pub(super) fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Classes the program may use: (simple name, import).
const IMPORTS: &[(&str, &str)] = &[
    ("Duration", "java.time.Duration"),
    ("ArrayList", "java.util.ArrayList"),
    ("List", "java.util.List"),
    ("ByteArrayOutputStream", "java.io.ByteArrayOutputStream"),
    ("StandardCharsets", "java.nio.charset.StandardCharsets"),
    ("BoundedOutOfOrdernessWatermarks", "org.apache.flink.api.common.eventtime.BoundedOutOfOrdernessWatermarks"),
    ("Watermark", "org.apache.flink.api.common.eventtime.Watermark"),
    ("WatermarkGenerator", "org.apache.flink.api.common.eventtime.WatermarkGenerator"),
    ("WatermarkOutput", "org.apache.flink.api.common.eventtime.WatermarkOutput"),
    ("WatermarkStrategy", "org.apache.flink.api.common.eventtime.WatermarkStrategy"),
    ("AggregateFunction", "org.apache.flink.api.common.functions.AggregateFunction"),
    ("ReduceFunction", "org.apache.flink.api.common.functions.ReduceFunction"),
    ("TypeInformation", "org.apache.flink.api.common.typeinfo.TypeInformation"),
    ("Tuple2", "org.apache.flink.api.java.tuple.Tuple2"),
    ("DataStream", "org.apache.flink.streaming.api.datastream.DataStream"),
    ("SingleOutputStreamOperator", "org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator"),
    ("StreamExecutionEnvironment", "org.apache.flink.streaming.api.environment.StreamExecutionEnvironment"),
    ("ProcessWindowFunction", "org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction"),
    ("EventTimeSessionWindows", "org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows"),
    ("GlobalWindows", "org.apache.flink.streaming.api.windowing.assigners.GlobalWindows"),
    (
        "SessionWindowTimeGapExtractor",
        "org.apache.flink.streaming.api.windowing.assigners.SessionWindowTimeGapExtractor",
    ),
    ("SlidingEventTimeWindows", "org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows"),
    ("TumblingEventTimeWindows", "org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows"),
    ("CountEvictor", "org.apache.flink.streaming.api.windowing.evictors.CountEvictor"),
    ("TimeEvictor", "org.apache.flink.streaming.api.windowing.evictors.TimeEvictor"),
    ("DeltaEvictor", "org.apache.flink.streaming.api.windowing.evictors.DeltaEvictor"),
    ("DeltaFunction", "org.apache.flink.streaming.api.functions.windowing.delta.DeltaFunction"),
    ("ContinuousEventTimeTrigger", "org.apache.flink.streaming.api.windowing.triggers.ContinuousEventTimeTrigger"),
    ("CountTrigger", "org.apache.flink.streaming.api.windowing.triggers.CountTrigger"),
    ("EventTimeTrigger", "org.apache.flink.streaming.api.windowing.triggers.EventTimeTrigger"),
    ("PurgingTrigger", "org.apache.flink.streaming.api.windowing.triggers.PurgingTrigger"),
    ("Trigger", "org.apache.flink.streaming.api.windowing.triggers.Trigger"),
    ("TriggerResult", "org.apache.flink.streaming.api.windowing.triggers.TriggerResult"),
    ("ReducingState", "org.apache.flink.api.common.state.ReducingState"),
    ("ReducingStateDescriptor", "org.apache.flink.api.common.state.ReducingStateDescriptor"),
    ("GlobalWindow", "org.apache.flink.streaming.api.windowing.windows.GlobalWindow"),
    ("TimeWindow", "org.apache.flink.streaming.api.windowing.windows.TimeWindow"),
    (
        "TumblingProcessingTimeWindows",
        "org.apache.flink.streaming.api.windowing.assigners.TumblingProcessingTimeWindows",
    ),
    ("SlidingProcessingTimeWindows", "org.apache.flink.streaming.api.windowing.assigners.SlidingProcessingTimeWindows"),
    ("Locale", "java.util.Locale"),
    ("OpenContext", "org.apache.flink.api.common.functions.OpenContext"),
    ("MapState", "org.apache.flink.api.common.state.MapState"),
    ("MapStateDescriptor", "org.apache.flink.api.common.state.MapStateDescriptor"),
    ("StateTtlConfig", "org.apache.flink.api.common.state.StateTtlConfig"),
    ("ValueState", "org.apache.flink.api.common.state.ValueState"),
    ("ValueStateDescriptor", "org.apache.flink.api.common.state.ValueStateDescriptor"),
    ("Types", "org.apache.flink.api.common.typeinfo.Types"),
    ("KeyedProcessFunction", "org.apache.flink.streaming.api.functions.KeyedProcessFunction"),
    ("Schema", "org.apache.flink.table.api.Schema"),
    ("StreamTableEnvironment", "org.apache.flink.table.api.bridge.java.StreamTableEnvironment"),
    ("Collector", "org.apache.flink.util.Collector"),
    ("OutputTag", "org.apache.flink.util.OutputTag"),
];

/// Whether `name` occurs in `code` as a whole identifier outside comments.
fn mentions(code: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    code.lines().any(|line| {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") || trimmed.starts_with('*') || trimmed.starts_with("/*") {
            return false;
        }
        let code_part = line.split(" // ").next().unwrap_or(line);
        code_part.match_indices(name).any(|(i, _)| {
            let before = code_part[..i].chars().next_back();
            let after = code_part[i + name.len()..].chars().next();
            !before.is_some_and(ident) && !after.is_some_and(ident)
        })
    })
}

/// The imports a class body needs: every known class it mentions as a word.
pub(super) fn imports(body: &str) -> Vec<&'static str> {
    let mut imports: Vec<&'static str> =
        IMPORTS.iter().filter(|(name, _)| mentions(body, name)).map(|(_, fqcn)| *fqcn).collect();
    imports.sort_by_key(|i| (!i.starts_with("java."), *i));
    imports.dedup();
    imports
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings stay ASCII and cannot end the literal or the line.
    #[test]
    fn string_literals_escape_everything() {
        assert_eq!(string_lit("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(string_lit("x\ny\u{1}"), r#""x\ny\001""#);
        assert_eq!(string_lit("é😀"), r#""\u00e9\ud83d\ude00""#);
        assert_eq!(string_lit("\\u000a"), r#""\\u000a""#);
    }

    /// Longs: plain ints, `L` beyond int range, named extremes.
    #[test]
    fn long_literals() {
        assert_eq!(long_lit(150), "150");
        assert_eq!(long_lit(1_767_261_605_000), "1767261605000L");
        assert_eq!(long_lit(i64::MIN), "Long.MIN_VALUE");
        assert_eq!(duration(120_000), "Duration.ofMinutes(2)");
        assert_eq!(duration(0), "Duration.ZERO");
        assert_eq!(duration(i64::MAX), "Duration.ofMillis(Long.MAX_VALUE)");
        assert_eq!(percent_encode("a,b é"), "a%2Cb%20%C3%A9");
    }
}
