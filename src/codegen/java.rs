//! The Java DataStream program (Flink 2.x API): one public class with a `main()` that builds the
//! scenario's job over `env.fromData(...)` of its elements and prints the results.

use super::{
    COMPLETED_EVENTS, Dialect, ERROR_EVENTS, Job, Program, REQUEST_EVENTS, STARTED_EVENTS, Text, Unit, build_error,
    has_events, has_watermark_items, human_duration, java_class_name, job, source_caveats, split_duration, sql,
    time_suffix, wrap_comment,
};
use crate::engine::scenario::{
    AssignerSpec, BaseTrigger, EvictorKind, InputItem, ProcessFunctionSpec, Scenario, TvfSpec, WatermarkSpec,
    WindowFunctionSpec,
};
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};

/// Above this many input items the data moves from a `fromData(...)` argument list (one
/// constant per number, and Java limits a class to 65535 constants and a method to 64 KB of
/// bytecode) into compact strings parsed at start-up.
const INLINE_ITEMS_MAX: usize = 400;
/// Characters per string constant of the compact input (a Java string constant holds at most
/// 65535 bytes of modified UTF-8; the encoding below is ASCII).
const CHUNK_CHARS: usize = 30_000;

/// The program, its class named after the scenario.
pub fn program(scenario: &Scenario) -> Program {
    program_with_class(scenario, &java_class_name(&scenario.name))
}

/// The program with a given public class name (a valid Java identifier; the file must be named
/// after it).
pub fn program_with_class(scenario: &Scenario, class_name: &str) -> Program {
    let g = Gen::new(scenario);
    let text = g.render(class_name);
    Program { dialect: Dialect::Java, file_name: format!("{class_name}.java"), text, caveats: g.caveats }
}

/// A Java `long` literal.
fn long_lit(v: i64) -> String {
    match v {
        LONG_MAX => "Long.MAX_VALUE".into(),
        LONG_MIN => "Long.MIN_VALUE".into(),
        v if i32::try_from(v).is_ok() => v.to_string(),
        v => format!("{v}L"),
    }
}

/// `Duration.ofMinutes(2)`, `Duration.ofMillis(1500)`, `Duration.ZERO`.
fn duration(ms: Millis) -> String {
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
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
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

/// Comment lines. Backslashes are doubled: javac turns `\u000a` into a line break even inside a
/// comment, which would let a description end the comment; `\\u000a` is not an escape.
fn comment(prefix: &str, text: &str) -> Vec<String> {
    wrap_comment(prefix, &text.replace('\\', "\\\\"), 96)
}

/// Percent-encodes a key for the compact input lines (every byte but ASCII letters and digits).
fn percent_encode(s: &str) -> String {
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
    ("ContinuousEventTimeTrigger", "org.apache.flink.streaming.api.windowing.triggers.ContinuousEventTimeTrigger"),
    ("CountTrigger", "org.apache.flink.streaming.api.windowing.triggers.CountTrigger"),
    ("EventTimeTrigger", "org.apache.flink.streaming.api.windowing.triggers.EventTimeTrigger"),
    ("PurgingTrigger", "org.apache.flink.streaming.api.windowing.triggers.PurgingTrigger"),
    ("Trigger", "org.apache.flink.streaming.api.windowing.triggers.Trigger"),
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

struct Gen<'a> {
    s: &'a Scenario,
    job: Job,
    /// The elements carry an event type (`started`, `completed`, `error`, ...).
    events: bool,
    /// The program needs watermark items in its input (explicit markers).
    markers: bool,
    /// The window type parameter: `TimeWindow` or `GlobalWindow`.
    window_type: &'static str,
    caveats: Vec<String>,
}

impl<'a> Gen<'a> {
    fn new(s: &'a Scenario) -> Self {
        let markers = has_watermark_items(s);
        let window_type = if s.assigner.is_global() { "GlobalWindow" } else { "TimeWindow" };
        let job = job(s);
        let mut caveats = source_caveats(s);
        if let Some(e) = build_error(s) {
            caveats.insert(0, format!("Flink refuses to build this job: {e}"));
        }
        if !s.end_of_input {
            caveats.push(
                "The scenario pauses the input (end_of_input: false), so Tidemark never sends the final Long.MAX_VALUE watermark; a bounded fromData source always does, so this job also fires the windows Tidemark leaves pending.".into(),
            );
        }
        if job == Job::Window && s.assigner.is_global() && matches!(s.trigger.base, BaseTrigger::EventTime) {
            caveats.push(
                "EventTimeTrigger is declared for TimeWindow: on GlobalWindows it needs a raw cast to compile, and Flink then fails at run time with a ClassCastException.".into(),
            );
        }
        if job == Job::Window && s.assigner.is_global() && s.trigger.base == BaseTrigger::Default && s.trigger.purging {
            caveats.push(
                "A PurgingTrigger around the default trigger of GlobalWindows cannot be written: its default triggers are not public classes; this job keeps the unpurged default.".into(),
            );
        }
        Gen { s, job, events: has_events(s), markers, window_type, caveats }
    }

    fn render(&self, class_name: &str) -> String {
        let s = self.s;
        let mut t = Text::default();
        let what = match self.job {
            Job::Window => "an Apache Flink 2.3 DataStream job",
            Job::Tvf(_) => "an Apache Flink 2.3 job: a DataStream source and a SQL window TVF",
            Job::Process(_) => "an Apache Flink 2.3 DataStream job with a KeyedProcessFunction",
        };
        t.line(format!("// Tidemark scenario {}, as {what}.", string_lit(&s.name)));
        if !s.description.is_empty() {
            t.line("//");
            t.lines(comment("// ", &s.description));
        }
        t.line("//");
        t.line("// Compile and run against Flink 2.3's jars, e.g. those of `pip install apache-flink==2.3.0`");
        t.line("// (LIB=<venv>/lib/python3.*/site-packages/pyflink/lib):");
        t.line(format!(
            "//   javac -encoding UTF-8 -cp \"$LIB/*\" {class_name}.java && java -cp \"$LIB/*:.\" {class_name}"
        ));
        if !self.caveats.is_empty() {
            t.line("//");
            t.line("// Differences from what Tidemark shows:");
            for c in &self.caveats {
                let mut lines = comment("//   ", c);
                if let Some(first) = lines.first_mut() {
                    *first = first.replacen("//   ", "// - ", 1);
                }
                t.lines(lines);
            }
        }
        t.blank();
        let mut body = Text::default();
        self.body(&mut body);
        let body = body.finish();
        for i in Self::imports(&body) {
            t.line(format!("import {i};"));
        }
        t.blank();
        t.line(format!("public class {class_name} {{"));
        t.blank();
        t.raw(&body);
        t.line("}");
        t.finish()
    }

    fn body(&self, t: &mut Text) {
        let s = self.s;
        self.event_class(t);
        t.blank();
        match self.job {
            Job::Window => {
                self.result_class(t);
                t.blank();
                self.functions(t);
            }
            Job::Tvf(_) => {}
            Job::Process(spec) => self.process_function(t, spec),
        }
        if let (Job::Window, AssignerSpec::DynamicSession { default_gap, gaps }) = (self.job, &s.assigner) {
            t.blank();
            t.line("    /** The session gap of each key: EventTimeSessionWindows.withDynamicGap. */");
            t.line("    public static class GapPerKey implements SessionWindowTimeGapExtractor<Event> {");
            t.line("        @Override");
            t.line("        public long extract(Event event) {");
            t.line("            switch (event.key) {");
            for (key, gap) in gaps {
                t.line(format!(
                    "                case {}: return {}L; // {}",
                    string_lit(key),
                    gap,
                    human_duration(*gap)
                ));
            }
            t.line(format!("                default: return {}L; // {}", default_gap, human_duration(*default_gap)));
            t.line("            }");
            t.line("        }");
            t.line("    }");
        }
        if self.uses_generator() {
            t.blank();
            self.generator(t);
        }
        if s.input.len() > INLINE_ITEMS_MAX {
            t.blank();
            self.compact_input(t);
        }
        t.blank();
        self.main(t);
    }

    /// Scripted watermark items and per-element emission need the custom generator.
    fn uses_generator(&self) -> bool {
        self.markers || (self.s.watermarks != WatermarkSpec::Explicit && !self.s.source.periodic)
    }

    /// The imports the class body needs: every known class it mentions as a word.
    fn imports(body: &str) -> Vec<&'static str> {
        let mut imports: Vec<&'static str> =
            IMPORTS.iter().filter(|(name, _)| mentions(body, name)).map(|(_, fqcn)| *fqcn).collect();
        imports.sort_by_key(|i| (!i.starts_with("java."), *i));
        imports.dedup();
        imports
    }

    fn event_class(&self, t: &mut Text) {
        t.line("    /** An input record: a Flink POJO (public fields, a no-argument constructor). */");
        t.line("    public static class Event {");
        t.line("        public long id;");
        t.line("        public String key;");
        t.line("        /** Event time, epoch milliseconds. */");
        t.line("        public long ts;");
        t.line("        public long value;");
        if self.events {
            t.line("        /** What happened: started, completed, request, error (null: a request). */");
            t.line("        public String eventType;");
        }
        if self.markers {
            t.line("        /** A scripted watermark at `ts` instead of an element (see TidemarkWatermarks). */");
            t.line("        public boolean isWatermark;");
        }
        t.blank();
        t.line("        public Event() {}");
        t.blank();
        t.line("        public static Event of(long id, String key, long ts, long value) {");
        t.line("            Event e = new Event();");
        t.line("            e.id = id;");
        t.line("            e.key = key;");
        t.line("            e.ts = ts;");
        t.line("            e.value = value;");
        t.line("            return e;");
        t.line("        }");
        if self.events {
            t.blank();
            t.line("        public static Event of(long id, String key, long ts, long value, String eventType) {");
            t.line("            Event e = of(id, key, ts, value);");
            t.line("            e.eventType = eventType;");
            t.line("            return e;");
            t.line("        }");
            t.blank();
            t.line("        /** Whether the event type is one of `names` (ignoring case). */");
            t.line("        public boolean is(String... names) {");
            t.line("            String type = eventType == null ? \"\" : eventType.toLowerCase(Locale.ROOT);");
            t.line("            for (String name : names) {");
            t.line("                if (type.equals(name)) {");
            t.line("                    return true;");
            t.line("                }");
            t.line("            }");
            t.line("            return false;");
            t.line("        }");
        }
        if self.markers {
            t.blank();
            t.line("        public static Event watermark(long ts) {");
            t.line("            Event e = new Event();");
            t.line("            e.key = \"\";");
            t.line("            e.ts = ts;");
            t.line("            e.isWatermark = true;");
            t.line("            return e;");
            t.line("        }");
        }
        t.blank();
        t.line("        @Override");
        t.line("        public String toString() {");
        if self.events {
            t.line("            return \"Event{id=\" + id + \", key=\" + key + \", ts=\" + ts + \", value=\" + value");
            t.line("                    + (eventType == null ? \"\" : \", event=\" + eventType) + \"}\";");
        } else {
            t.line(
                "            return \"Event{id=\" + id + \", key=\" + key + \", ts=\" + ts + \", value=\" + value + \"}\";",
            );
        }
        t.line("        }");
        t.line("    }");
    }

    /// The value fields of the result: (Java type, name).
    fn value_fields(&self) -> Vec<(&'static str, &'static str)> {
        match self.s.function {
            WindowFunctionSpec::Process => vec![("long", "sum"), ("long", "count")],
            WindowFunctionSpec::Sum => vec![("long", "sum")],
            WindowFunctionSpec::Count => vec![("long", "count")],
            WindowFunctionSpec::Avg => vec![("double", "avg")],
            WindowFunctionSpec::Min => vec![("long", "min")],
            WindowFunctionSpec::Max => vec![("long", "max")],
        }
    }

    fn result_class(&self, t: &mut Text) {
        let global = self.s.assigner.is_global();
        t.line("    /** A window result: the key, the window, the value and the watermark at the firing. */");
        t.line("    public static class Result {");
        t.line("        public String key;");
        if !global {
            t.line("        public long windowStart;");
            t.line("        public long windowEnd;");
        }
        for (ty, name) in self.value_fields() {
            t.line(format!("        public {ty} {name};"));
        }
        t.line("        /** ctx.currentWatermark() when the window function ran. */");
        t.line("        public long watermark;");
        t.blank();
        t.line("        public Result() {}");
        t.blank();
        let params: Vec<String> = self.value_fields().iter().map(|(ty, n)| format!("{ty} {n}")).collect();
        t.line(format!(
            "        public static Result of(String key, {} window, {}, long watermark) {{",
            self.window_type,
            params.join(", ")
        ));
        t.line("            Result r = new Result();");
        t.line("            r.key = key;");
        if !global {
            t.line("            r.windowStart = window.getStart();");
            t.line("            r.windowEnd = window.getEnd();");
        }
        for (_, name) in self.value_fields() {
            t.line(format!("            r.{name} = {name};"));
        }
        t.line("            r.watermark = watermark;");
        t.line("            return r;");
        t.line("        }");
        t.blank();
        t.line("        @Override");
        t.line("        public String toString() {");
        let mut parts = vec!["\"Result{key=\" + key".to_string()];
        if !global {
            parts.push("\", window=[\" + windowStart + \", \" + windowEnd + \")\"".into());
        }
        for (_, name) in self.value_fields() {
            parts.push(format!("\", {name}=\" + {name}"));
        }
        parts.push("\", watermark=\" + watermark + \"}\"".into());
        t.line(format!("            return {};", parts.join(" + ")));
        t.line("        }");
        t.line("    }");
    }

    fn functions(&self, t: &mut Text) {
        let w = self.window_type;
        match self.s.function {
            WindowFunctionSpec::Process => {
                t.line("    /**");
                t.line("     * A ProcessWindowFunction: Flink buffers every element of the window in state and hands");
                t.line("     * them all over when the window fires.");
                t.line("     */");
                t.line(format!(
                    "    public static class SumAndCount extends ProcessWindowFunction<Event, Result, String, {w}> {{"
                ));
                t.line("        @Override");
                t.line("        public void process(String key, Context ctx, Iterable<Event> events, Collector<Result> out) {");
                t.line("            long sum = 0;");
                t.line("            long count = 0;");
                t.line("            for (Event e : events) {");
                t.line("                sum += e.value;");
                t.line("                count++;");
                t.line("            }");
                t.line("            out.collect(Result.of(key, ctx.window(), sum, count, ctx.currentWatermark()));");
                t.line("        }");
                t.line("    }");
                return;
            }
            WindowFunctionSpec::Sum | WindowFunctionSpec::Count => {
                let (name, doc, add) = if self.s.function == WindowFunctionSpec::Sum {
                    ("SumOfValues", "Sums the values", "acc + event.value")
                } else {
                    ("CountOfEvents", "Counts the elements", "acc + 1")
                };
                t.line(format!("    /** {doc} as they arrive: the window's state is one accumulator. */"));
                t.line(format!("    public static class {name} implements AggregateFunction<Event, Long, Long> {{"));
                t.line("        @Override");
                t.line("        public Long createAccumulator() {");
                t.line("            return 0L;");
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public Long add(Event event, Long acc) {");
                t.line(format!("            return {add};"));
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public Long getResult(Long acc) {");
                t.line("            return acc;");
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public Long merge(Long a, Long b) { // merging session windows");
                t.line("            return a + b;");
                t.line("        }");
                t.line("    }");
            }
            WindowFunctionSpec::Avg => {
                t.line("    /** Averages the values as they arrive: the window's state is one (sum, count) accumulator. */");
                t.line("    public static class AverageOfValues implements AggregateFunction<Event, Tuple2<Long, Long>, Double> {");
                t.line("        @Override");
                t.line("        public Tuple2<Long, Long> createAccumulator() {");
                t.line("            return Tuple2.of(0L, 0L);");
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public Tuple2<Long, Long> add(Event event, Tuple2<Long, Long> acc) {");
                t.line("            return Tuple2.of(acc.f0 + event.value, acc.f1 + 1);");
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public Double getResult(Tuple2<Long, Long> acc) {");
                t.line("            return (double) acc.f0 / acc.f1;");
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public Tuple2<Long, Long> merge(Tuple2<Long, Long> a, Tuple2<Long, Long> b) { // merging session windows");
                t.line("            return Tuple2.of(a.f0 + b.f0, a.f1 + b.f1);");
                t.line("        }");
                t.line("    }");
            }
            WindowFunctionSpec::Min | WindowFunctionSpec::Max => {
                let (name, doc, op) = if self.s.function == WindowFunctionSpec::Min {
                    ("MinOfValues", "the smallest", "<=")
                } else {
                    ("MaxOfValues", "the largest", ">=")
                };
                t.line(format!("    /** Keeps the element with {doc} value: the window's state is one element. */"));
                t.line(format!("    public static class {name} implements ReduceFunction<Event> {{"));
                t.line("        @Override");
                t.line("        public Event reduce(Event a, Event b) {");
                t.line(format!("            return a.value {op} b.value ? a : b;"));
                t.line("        }");
                t.line("    }");
            }
        }
        let (input, field, expr) = match self.s.function {
            WindowFunctionSpec::Sum => ("Long", "sum", "results.iterator().next()"),
            WindowFunctionSpec::Count => ("Long", "count", "results.iterator().next()"),
            WindowFunctionSpec::Avg => ("Double", "avg", "results.iterator().next()"),
            WindowFunctionSpec::Min => ("Event", "min", "results.iterator().next().value"),
            WindowFunctionSpec::Max | WindowFunctionSpec::Process => {
                ("Event", "max", "results.iterator().next().value")
            }
        };
        t.blank();
        t.line("    /** Stamps the one pre-aggregated value with the key, the window and the watermark. */");
        t.line(format!(
            "    public static class EmitResult extends ProcessWindowFunction<{input}, Result, String, {w}> {{"
        ));
        t.line("        @Override");
        t.line(format!(
            "        public void process(String key, Context ctx, Iterable<{input}> results, Collector<Result> out) {{"
        ));
        t.line(format!(
            "            {} {field} = {expr}; // exactly one",
            if input == "Double" { "double" } else { "long" }
        ));
        t.line(format!("            out.collect(Result.of(key, ctx.window(), {field}, ctx.currentWatermark()));"));
        t.line("        }");
        t.line("    }");
    }

    /// The course's keyed process functions, with their output record.
    fn process_function(&self, t: &mut Text, spec: ProcessFunctionSpec) {
        let names = |list: &[&str]| list.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ");
        t.line("    /** What the process function emits: the facts of the course's output record. */");
        t.line("    public static class Record {");
        t.line("        public String key;");
        t.line("        /** completed, abandoned, alert or ok. */");
        t.line("        public String kind;");
        t.line("        public long ts;");
        t.line("        /** ctx.timerService().currentWatermark() when it was emitted. */");
        t.line("        public long watermark;");
        let request = matches!(spec, ProcessFunctionSpec::RequestAssembler { .. });
        if request {
            t.line("        /** The element: the completion, or the RequestStarted held in state. */");
            t.line("        public long id;");
        } else {
            t.line("        public long errors;");
            t.line("        public long requests;");
        }
        t.blank();
        t.line("        public Record() {}");
        t.blank();
        let (extra_params, extra_fields, extra_text) = if request {
            ("long id", vec!["id"], "\", id=\" + id")
        } else {
            (
                "long errors, long requests",
                vec!["errors", "requests"],
                "\", errors=\" + errors + \", requests=\" + requests",
            )
        };
        t.line(format!(
            "        public static Record of(String key, String kind, long ts, long watermark, {extra_params}) {{"
        ));
        t.line("            Record r = new Record();");
        t.line("            r.key = key;");
        t.line("            r.kind = kind;");
        t.line("            r.ts = ts;");
        t.line("            r.watermark = watermark;");
        for f in extra_fields {
            t.line(format!("            r.{f} = {f};"));
        }
        t.line("            return r;");
        t.line("        }");
        t.blank();
        t.line("        @Override");
        t.line("        public String toString() {");
        t.line(format!(
            "            return \"Record{{key=\" + key + \", kind=\" + kind + \", ts=\" + ts + \", watermark=\" + watermark + {extra_text} + \"}}\";"
        ));
        t.line("        }");
        t.line("    }");
        t.blank();
        match spec {
            ProcessFunctionSpec::RequestAssembler { timeout, ttl, .. } => {
                t.line("    /** The open request kept in state: the RequestStarted element's id and timestamp. */");
                t.line("    public static class OpenRequest {");
                t.line("        public long startedId;");
                t.line("        public long startedTs;");
                t.blank();
                t.line("        public OpenRequest() {}");
                t.blank();
                t.line("        public OpenRequest(long startedId, long startedTs) {");
                t.line("            this.startedId = startedId;");
                t.line("            this.startedTs = startedTs;");
                t.line("        }");
                t.line("    }");
                t.blank();
                t.line("    /**");
                t.line("     * Module 6's RequestAssembler: on RequestStarted keep the open request and register an");
                t.line(
                    "     * event-time timer at started + the timeout; on RequestCompleted emit, delete the timer and",
                );
                t.line("     * clear; in onTimer, if the request is still open, emit it as abandoned and clear.");
                t.line("     */");
                t.line(
                    "    public static class RequestAssembler extends KeyedProcessFunction<String, Event, Record> {",
                );
                t.line(format!(
                    "        static final long ABANDON_MS = {}; // {}",
                    long_lit(timeout),
                    human_duration(timeout)
                ));
                t.line(format!("        static final String[] STARTED = {{{}}};", names(&STARTED_EVENTS)));
                t.line(format!("        static final String[] COMPLETED = {{{}}};", names(&COMPLETED_EVENTS)));
                t.blank();
                t.line("        private transient ValueState<OpenRequest> openState;");
                t.blank();
                t.line("        @Override");
                t.line("        public void open(OpenContext openContext) {");
                t.line("            ValueStateDescriptor<OpenRequest> descriptor = new ValueStateDescriptor<>(\"open\", OpenRequest.class);");
                if let Some(ttl) = ttl {
                    t.line(format!(
                        "            // Module 3's backstop: a processing-time TTL of {} on the open request.",
                        human_duration(ttl)
                    ));
                    t.line(format!(
                        "            descriptor.enableTimeToLive(StateTtlConfig.newBuilder({})",
                        duration(ttl)
                    ));
                    t.line("                    .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)");
                    t.line(
                        "                    .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)",
                    );
                    t.line("                    .build());");
                }
                t.line("            openState = getRuntimeContext().getState(descriptor);");
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public void processElement(Event event, Context ctx, Collector<Record> out) throws Exception {");
                t.line("            OpenRequest cur = openState.value();");
                t.line("            if (event.is(STARTED)) {");
                t.line("                openState.update(new OpenRequest(event.id, event.ts));");
                t.line("                ctx.timerService().registerEventTimeTimer(event.ts + ABANDON_MS);");
                t.line("            } else if (event.is(COMPLETED) && cur != null) {");
                t.line("                out.collect(Record.of(ctx.getCurrentKey(), \"completed\", event.ts,");
                t.line("                        ctx.timerService().currentWatermark(), event.id));");
                t.line("                ctx.timerService().deleteEventTimeTimer(cur.startedTs + ABANDON_MS);");
                t.line("                openState.clear();");
                t.line("            }");
                t.line("            // A completion without an open request has nothing to join: it is dropped.");
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Record> out) throws Exception {");
                t.line("            OpenRequest cur = openState.value();");
                t.line("            // Upstream's pattern: a timer for an earlier request of this key is stale.");
                t.line("            if (cur != null && timestamp == cur.startedTs + ABANDON_MS) {");
                t.line("                out.collect(Record.of(ctx.getCurrentKey(), \"abandoned\", timestamp,");
                t.line("                        ctx.timerService().currentWatermark(), cur.startedId));");
                t.line("                openState.clear();");
                t.line("            }");
                t.line("        }");
                t.line("    }");
            }
            ProcessFunctionSpec::ErrorRateAlert { size, threshold_pct } => {
                t.line("    /**");
                t.line("     * The error-rate alert built by hand (upstream's PseudoWindow): per key a map from minute end");
                t.line("     * to (errors, requests) and an event-time timer at each minute end; onTimer emits alert or ok");
                t.line("     * and removes the entry, so a late error is dropped (as with zero allowed lateness).");
                t.line("     */");
                t.line("    public static class ErrorRateAlert extends KeyedProcessFunction<String, Event, Record> {");
                t.line(format!(
                    "        static final long MINUTE_MS = {}; // {}",
                    long_lit(size),
                    human_duration(size)
                ));
                t.line(format!("        static final long THRESHOLD_PCT = {};", long_lit(threshold_pct)));
                t.line(format!("        static final String[] ERROR = {{{}}};", names(&ERROR_EVENTS)));
                t.line(format!("        static final String[] REQUEST = {{{}}};", names(&REQUEST_EVENTS)));
                t.blank();
                t.line("        private transient MapState<Long, Tuple2<Long, Long>> minutes;");
                t.blank();
                t.line("        @Override");
                t.line("        public void open(OpenContext openContext) {");
                t.line("            minutes = getRuntimeContext().getMapState(");
                t.line("                    new MapStateDescriptor<>(\"minutes\", Types.LONG, Types.TUPLE(Types.LONG, Types.LONG)));");
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public void processElement(Event event, Context ctx, Collector<Record> out) throws Exception {");
                t.line("            boolean error = event.is(ERROR);");
                t.line("            if (!error && event.eventType != null && !event.is(REQUEST)) {");
                t.line("                return; // neither a request nor an error");
                t.line("            }");
                t.line("            long minuteEnd = event.ts - (event.ts % MINUTE_MS) + MINUTE_MS - 1;");
                t.line("            if (minuteEnd <= ctx.timerService().currentWatermark()) {");
                t.line("                return; // late: its minute has already been reported");
                t.line("            }");
                t.line("            Tuple2<Long, Long> counts = minutes.get(minuteEnd);");
                t.line("            if (counts == null) {");
                t.line("                counts = Tuple2.of(0L, 0L);");
                t.line("                ctx.timerService().registerEventTimeTimer(minuteEnd);");
                t.line("            }");
                t.line("            minutes.put(minuteEnd, Tuple2.of(counts.f0 + (error ? 1 : 0), counts.f1 + 1));");
                t.line("        }");
                t.blank();
                t.line("        @Override");
                t.line("        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Record> out) throws Exception {");
                t.line("            Tuple2<Long, Long> counts = minutes.get(timestamp);");
                t.line("            if (counts == null) {");
                t.line("                return;");
                t.line("            }");
                t.line("            minutes.remove(timestamp);");
                t.line("            boolean alert = counts.f0 * 100 > THRESHOLD_PCT * counts.f1;");
                t.line("            out.collect(Record.of(ctx.getCurrentKey(), alert ? \"alert\" : \"ok\", timestamp,");
                t.line("                    ctx.timerService().currentWatermark(), counts.f0, counts.f1));");
                t.line("        }");
                t.line("    }");
            }
        }
    }

    /// The generator behind the strategy: scripted items, and/or Flink's own generator with its
    /// watermark emitted after every element instead of periodically (unless the scenario emits
    /// periodically itself).
    fn generator(&self, t: &mut Text) {
        let generated = self.s.watermarks != WatermarkSpec::Explicit;
        let per_event = generated && !self.s.source.periodic;
        t.line("    /**");
        if self.markers && per_event {
            t.line("     * Emits the watermarks Tidemark shows: Watermark(ts) when the input reaches an");
            t.line("     * Event.watermark(ts) item (scripted), and the wrapped strategy's watermark right after");
            t.line("     * every element.");
        } else if self.markers && generated {
            t.line("     * Emits Watermark(ts) when the input reaches an Event.watermark(ts) item (scripted), and");
            t.line("     * the wrapped strategy's watermark periodically, as Flink does.");
        } else if self.markers {
            t.line("     * Emits the scenario's scripted watermarks: Watermark(ts) when the input reaches an");
            t.line("     * Event.watermark(ts) item, and nothing periodically.");
        } else {
            t.line("     * Emits the wrapped strategy's watermark right after every element, as Tidemark shows it.");
        }
        if per_event {
            t.line("     * Flink itself emits it periodically (every 200 ms, pipeline.auto-watermark-interval), and");
            t.line("     * this small bounded input is read faster than that: every window would fire only at the");
            t.line("     * end of input. In production, use the strategy directly.");
        }
        t.line("     */");
        t.line("    public static class TidemarkWatermarks implements WatermarkGenerator<Event> {");
        if generated {
            t.line("        private final WatermarkGenerator<Event> strategy;");
            t.blank();
            t.line("        public TidemarkWatermarks(WatermarkGenerator<Event> strategy) {");
            t.line("            this.strategy = strategy;");
            t.line("        }");
            t.blank();
        }
        t.line("        @Override");
        t.line("        public void onEvent(Event event, long eventTimestamp, WatermarkOutput output) {");
        let emit_after_event = |t: &mut Text, indent: &str| {
            t.line(format!("{indent}strategy.onEvent(event, eventTimestamp, output);"));
            if per_event {
                t.line(format!("{indent}strategy.onPeriodicEmit(output);"));
            }
        };
        match (self.markers, generated) {
            (true, true) => {
                t.line("            if (event.isWatermark) {");
                t.line("                output.emitWatermark(new Watermark(event.ts));");
                t.line("            } else {");
                emit_after_event(t, "                ");
                t.line("            }");
            }
            (true, false) => {
                t.line("            if (event.isWatermark) {");
                t.line("                output.emitWatermark(new Watermark(event.ts));");
                t.line("            }");
            }
            (false, _) => emit_after_event(t, "            "),
        }
        t.line("        }");
        t.blank();
        t.line("        @Override");
        t.line("        public void onPeriodicEmit(WatermarkOutput output) {");
        if generated && !per_event {
            t.line("            strategy.onPeriodicEmit(output);");
        } else {
            t.line("            // nothing periodic: every watermark was emitted in onEvent");
        }
        t.line("        }");
        t.line("    }");
    }

    /// Large inputs: ASCII lines `E,id,ts,value,key%XX` / `W,ts` in string chunks.
    fn compact_input(&self, t: &mut Text) {
        let mut chunks: Vec<String> = vec![String::new()];
        for item in &self.s.input {
            let line = match item {
                InputItem::Element(e) => format!(
                    "E,{},{},{},{},{}\n",
                    e.id,
                    e.ts,
                    e.value,
                    // `~` never comes out of percent_encode: it stands for "no event type".
                    e.event.as_deref().map_or_else(|| "~".to_string(), percent_encode),
                    percent_encode(&e.key)
                ),
                InputItem::Watermark(_) | InputItem::SourceWatermark(_) => {
                    format!("W,{}\n", item.watermark().unwrap_or(i64::MIN))
                }
            };
            if chunks.last().is_some_and(|c| c.len() + line.len() > CHUNK_CHARS) {
                chunks.push(String::new());
            }
            if let Some(c) = chunks.last_mut() {
                c.push_str(&line);
            }
        }
        t.line(format!(
            "    /** The scenario's {} input items, one per line: E,id,ts,value,event,key (percent-encoded; ~: no event) or W,ts. */",
            self.s.input.len()
        ));
        t.line("    static final String[] INPUT = {");
        for c in &chunks {
            t.line(format!("        {},", string_lit(c)));
        }
        t.line("    };");
        t.blank();
        t.line("    static List<Event> input() {");
        t.line("        List<Event> events = new ArrayList<>();");
        t.line("        for (String chunk : INPUT) {");
        t.line("            for (String line : chunk.split(\"\\n\")) {");
        t.line("                String[] f = line.split(\",\", 6);");
        if self.markers {
            t.line("                if (f[0].equals(\"W\")) {");
            t.line("                    events.add(Event.watermark(Long.parseLong(f[1])));");
            t.line("                    continue;");
            t.line("                }");
        }
        if self.events {
            t.line("                String eventType = f[4].equals(\"~\") ? null : decode(f[4]);");
            t.line("                events.add(Event.of(Long.parseLong(f[1]), decode(f[5]), Long.parseLong(f[2]), Long.parseLong(f[3]), eventType));");
        } else {
            t.line("                events.add(Event.of(Long.parseLong(f[1]), decode(f[5]), Long.parseLong(f[2]), Long.parseLong(f[3])));");
        }
        t.line("            }");
        t.line("        }");
        t.line("        return events;");
        t.line("    }");
        t.blank();
        t.line("    static String decode(String s) {");
        t.line("        ByteArrayOutputStream bytes = new ByteArrayOutputStream();");
        t.line("        for (int i = 0; i < s.length(); i++) {");
        t.line("            char c = s.charAt(i);");
        t.line("            if (c == '%') {");
        t.line("                bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));");
        t.line("                i += 2;");
        t.line("            } else {");
        t.line("                bytes.write(c);");
        t.line("            }");
        t.line("        }");
        t.line("        return new String(bytes.toByteArray(), StandardCharsets.UTF_8);");
        t.line("    }");
    }

    fn assigner(&self) -> String {
        match &self.s.assigner {
            AssignerSpec::Tumbling { size, offset: 0 } => format!("TumblingEventTimeWindows.of({})", duration(*size)),
            AssignerSpec::Tumbling { size, offset } => {
                format!("TumblingEventTimeWindows.of({}, {})", duration(*size), duration(*offset))
            }
            AssignerSpec::Sliding { size, slide, offset: 0 } => {
                format!("SlidingEventTimeWindows.of({}, {})", duration(*size), duration(*slide))
            }
            AssignerSpec::Sliding { size, slide, offset } => {
                format!("SlidingEventTimeWindows.of({}, {}, {})", duration(*size), duration(*slide), duration(*offset))
            }
            AssignerSpec::Session { gap } => format!("EventTimeSessionWindows.withGap({})", duration(*gap)),
            AssignerSpec::DynamicSession { .. } => "EventTimeSessionWindows.withDynamicGap(new GapPerKey())".into(),
            AssignerSpec::Global => "GlobalWindows.create()".into(),
            AssignerSpec::GlobalEos => "GlobalWindows.createWithEndOfStreamTrigger()".into(),
            AssignerSpec::TumblingProcessing { size, offset: 0 } => {
                format!("TumblingProcessingTimeWindows.of({})", duration(*size))
            }
            AssignerSpec::TumblingProcessing { size, offset } => {
                format!("TumblingProcessingTimeWindows.of({}, {})", duration(*size), duration(*offset))
            }
            AssignerSpec::SlidingProcessing { size, slide, offset } => format!(
                "SlidingProcessingTimeWindows.of({}, {}, {})",
                duration(*size),
                duration(*slide),
                duration(*offset)
            ),
        }
    }

    fn trigger(&self) -> Option<String> {
        let base = match self.s.trigger.base {
            // A purging default trigger wraps the assigner's default: EventTimeTrigger for time
            // windows. (GlobalWindows' default triggers are not public classes.)
            BaseTrigger::Default if self.s.trigger.purging && !self.s.assigner.is_global() => {
                "EventTimeTrigger.create()".to_string()
            }
            BaseTrigger::Default => return None,
            BaseTrigger::EventTime => "EventTimeTrigger.create()".to_string(),
            BaseTrigger::Count { n } => format!("CountTrigger.of({})", long_lit(n)),
            BaseTrigger::ContinuousEventTime { interval } => {
                format!("ContinuousEventTimeTrigger.of({})", duration(interval))
            }
        };
        let t = if self.s.trigger.purging { format!("PurgingTrigger.of({base})") } else { base };
        if self.s.assigner.is_global() && matches!(self.s.trigger.base, BaseTrigger::EventTime) {
            return Some(format!("(Trigger) {t}"));
        }
        Some(t)
    }

    fn main(&self, t: &mut Text) {
        let s = self.s;
        let global_event_time =
            self.job == Job::Window && s.assigner.is_global() && matches!(s.trigger.base, BaseTrigger::EventTime);
        if global_event_time {
            t.line("    @SuppressWarnings({\"unchecked\", \"rawtypes\"})");
        }
        t.line("    public static void main(String[] args) throws Exception {");
        t.line("        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();");
        t.line("        // One parallel instance: results come out in the order Tidemark shows them.");
        t.line("        env.setParallelism(1);");
        t.blank();
        if s.input.len() > INLINE_ITEMS_MAX {
            t.line("        DataStream<Event> input = env.fromData(input(), TypeInformation.of(Event.class));");
        } else if s.input.is_empty() {
            t.line("        // The scenario has no input; fromData needs at least one item.");
            t.line("        DataStream<Event> input = env.fromData(new ArrayList<Event>(), TypeInformation.of(Event.class));");
        } else {
            t.line("        DataStream<Event> input = env.fromData(");
            let n = s.input.len();
            for (i, item) in s.input.iter().enumerate() {
                let sep = if i + 1 == n { ");" } else { "," };
                match item {
                    InputItem::Element(e) => t.line(format!(
                        "                Event.of({}, {}, {}, {}{}){sep}{}",
                        long_lit(e.id),
                        string_lit(&e.key),
                        long_lit(e.ts),
                        long_lit(e.value),
                        match (&e.event, self.events) {
                            (Some(ev), true) => format!(", {}", string_lit(ev)),
                            (None, true) => ", null".to_string(),
                            _ => String::new(),
                        },
                        time_suffix("//", e.ts)
                    )),
                    InputItem::Watermark(_) | InputItem::SourceWatermark(_) => {
                        let wm = item.watermark().unwrap_or(i64::MIN);
                        t.line(format!(
                            "                Event.watermark({}){sep}{}",
                            long_lit(wm),
                            time_suffix("//", wm)
                        ))
                    }
                }
            }
        }
        t.blank();
        if s.source.periodic && (s.watermarks != WatermarkSpec::Explicit || s.source.interval != 200) {
            t.line(format!(
                "        // Periodic emission every {} of processing time (autoWatermarkInterval).",
                human_duration(s.source.interval)
            ));
            t.line(format!("        env.getConfig().setAutoWatermarkInterval({}); // ms", long_lit(s.source.interval)));
        }
        if self.markers {
            t.line("        // The scenario scripts watermarks: Event.watermark(ts) items in the input.");
        }
        let strategy = match s.watermarks {
            WatermarkSpec::Explicit => None,
            WatermarkSpec::BoundedOutOfOrderness { bound } => {
                t.line(format!(
                    "        // Bounded out-of-orderness {}: the watermark trails the largest timestamp seen by",
                    human_duration(bound)
                ));
                t.line("        // the bound (minus 1 ms).");
                Some(format!("WatermarkStrategy.<Event>forBoundedOutOfOrderness({})", duration(bound)))
            }
            WatermarkSpec::Monotonous => {
                t.line("        // Ascending timestamps: the watermark is the largest timestamp seen minus 1 ms.");
                Some("WatermarkStrategy.<Event>forMonotonousTimestamps()".to_string())
            }
        };
        match (&strategy, self.markers) {
            (None, false) => {
                t.line(
                    "        // The scenario scripts no watermark: only the end of input's Long.MAX_VALUE watermark",
                );
                t.line("        // fires windows.");
                t.line("        WatermarkStrategy<Event> watermarks = WatermarkStrategy");
                t.line("                .<Event>noWatermarks()");
            }
            (None, true) => {
                t.line("        WatermarkStrategy<Event> watermarks = WatermarkStrategy");
                t.line("                .<Event>forGenerator(ctx -> new TidemarkWatermarks())");
            }
            (Some(strategy), _) if !self.uses_generator() => {
                t.line(format!("        WatermarkStrategy<Event> watermarks = {strategy}"));
            }
            (Some(strategy), _) => {
                t.line(format!("        WatermarkStrategy<Event> strategy = {strategy};"));
                t.line("        WatermarkStrategy<Event> watermarks = WatermarkStrategy");
                t.line("                .<Event>forGenerator(ctx -> new TidemarkWatermarks(strategy.createWatermarkGenerator(ctx)))");
            }
        }
        if let Some(d) = s.source.idleness {
            t.line(format!(
                "                .withIdleness({}) // no events for this long (processing time): idle",
                duration(d)
            ));
        }
        t.line("                .withTimestampAssigner((event, previousTimestamp) -> event.ts);");
        t.blank();
        match self.job {
            Job::Window => self.window_job(t),
            Job::Tvf(spec) => self.tvf_job(t, spec),
            Job::Process(spec) => self.process_job(t, spec),
        }
        t.line("    }");
    }

    /// keyBy → window → trigger, evictor, lateness, side output → the window function → print.
    fn window_job(&self, t: &mut Text) {
        let s = self.s;
        if s.side_output {
            t.line("        // Elements too late for every window (past end + allowed lateness) go here.");
            t.line("        OutputTag<Event> lateTag = new OutputTag<Event>(\"late-events\") {};");
            t.blank();
        }
        t.line("        SingleOutputStreamOperator<Result> results = input");
        t.line("                .assignTimestampsAndWatermarks(watermarks)");
        if self.markers {
            t.line("                .filter(event -> !event.isWatermark) // the items go, their watermarks stay");
        }
        t.line("                .keyBy(event -> event.key)");
        let mut window = format!("                .window({})", self.assigner());
        if s.assigner == AssignerSpec::Global && s.trigger.base == BaseTrigger::Default {
            window.push_str(" // its default NeverTrigger never fires");
        }
        t.line(window);
        if let Some(trigger) = self.trigger() {
            t.line(format!("                .trigger({trigger})"));
        }
        if let Some(e) = s.evictor {
            let ev = match e.kind {
                EvictorKind::Count { n } if e.do_evict_after => format!("CountEvictor.of({}, true)", long_lit(n)),
                EvictorKind::Count { n } => format!("CountEvictor.of({})", long_lit(n)),
                EvictorKind::Time { size } if e.do_evict_after => format!("TimeEvictor.of({}, true)", duration(size)),
                EvictorKind::Time { size } => format!("TimeEvictor.of({})", duration(size)),
            };
            let when = if e.do_evict_after { "after" } else { "before" };
            t.line(format!("                .evictor({ev}) // {when} the window function; buffers every element"));
        }
        if let Some(l) = s.allowed_lateness {
            t.line(format!("                .allowedLateness({})", duration(l)));
        }
        if s.side_output {
            t.line("                .sideOutputLateData(lateTag)");
        }
        let call = match s.function {
            WindowFunctionSpec::Process => "process(new SumAndCount())",
            WindowFunctionSpec::Sum => "aggregate(new SumOfValues(), new EmitResult())",
            WindowFunctionSpec::Count => "aggregate(new CountOfEvents(), new EmitResult())",
            WindowFunctionSpec::Avg => "aggregate(new AverageOfValues(), new EmitResult())",
            WindowFunctionSpec::Min => "reduce(new MinOfValues(), new EmitResult())",
            WindowFunctionSpec::Max => "reduce(new MaxOfValues(), new EmitResult())",
        };
        t.line(format!("                .{call};"));
        t.blank();
        t.line("        results.print();");
        if s.side_output {
            t.line("        results.getSideOutput(lateTag).print(\"late\");");
        } else {
            t.line("        // No side output: late elements are dropped and counted in the window operator's");
            t.line("        // numLateRecordsDropped metric.");
        }
        t.blank();
        t.line(format!("        env.execute({});", string_lit(&s.name)));
    }

    /// The source as a table with a rowtime attribute, then the scenario's window TVF query.
    fn tvf_job(&self, t: &mut Text, spec: TvfSpec) {
        t.line("        DataStream<Event> events = input");
        if self.markers {
            t.line("                .assignTimestampsAndWatermarks(watermarks)");
            t.line("                .filter(event -> !event.isWatermark); // the items go, their watermarks stay");
        } else {
            t.line("                .assignTimestampsAndWatermarks(watermarks);");
        }
        t.blank();
        t.line("        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);");
        t.line("        tableEnv.getConfig().set(\"table.local-time-zone\", \"UTC\");");
        t.line("        // The stream's timestamps and watermarks become the table's rowtime attribute.");
        t.line("        tableEnv.createTemporaryView(\"events\", events, Schema.newBuilder()");
        t.line("                .columnByMetadata(\"rowtime\", \"TIMESTAMP_LTZ(3)\")");
        t.line("                .watermark(\"rowtime\", \"SOURCE_WATERMARK()\")");
        t.line("                .build());");
        t.line("        // One final row per window when the watermark passes window_end - 1; no allowed lateness.");
        let query = sql::tvf_query(self.s, spec, "rowtime");
        t.line("        tableEnv.executeSql(String.join(\"\\n\",");
        let n = query.len();
        for (i, line) in query.iter().enumerate() {
            t.line(format!("                {}{}", string_lit(line), if i + 1 == n { ")).print();" } else { "," }));
        }
    }

    /// keyBy → the keyed process function → print.
    fn process_job(&self, t: &mut Text, spec: ProcessFunctionSpec) {
        let s = self.s;
        let function = match spec {
            ProcessFunctionSpec::RequestAssembler { .. } => "RequestAssembler",
            ProcessFunctionSpec::ErrorRateAlert { .. } => "ErrorRateAlert",
        };
        t.line("        DataStream<Record> records = input");
        t.line("                .assignTimestampsAndWatermarks(watermarks)");
        if self.markers {
            t.line("                .filter(event -> !event.isWatermark) // the items go, their watermarks stay");
        }
        t.line("                .keyBy(event -> event.key)");
        t.line(format!("                .process(new {function}());"));
        t.blank();
        t.line("        records.print();");
        t.blank();
        t.line(format!("        env.execute({});", string_lit(&s.name)));
    }
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
