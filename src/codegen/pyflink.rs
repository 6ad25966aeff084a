//! The PyFlink program, in the course's style: records as `Row`s, `key_by`, `window`,
//! `allowed_lateness`, `side_output_late_data`, then `aggregate`/`reduce`/`process`. What PyFlink
//! lacks (evictors, custom watermark generators, the end-of-stream trigger) is said in a comment.
//! Scenarios that run a window TVF get the same query through PyFlink's Table API; those that run
//! a keyed process function get it in the course's RequestAssembler shape.

use super::{
    COMPLETED_EVENTS, Dialect, ERROR_EVENTS, Job, Program, REQUEST_EVENTS, STARTED_EVENTS, Text, Unit, build_error,
    has_events, has_watermark_items, human_duration, job, snake_name, source_caveats, split_duration, sql,
    time_comment, time_suffix, wrap_comment,
};
use crate::engine::scenario::{
    AssignerSpec, BaseTrigger, EvictorKind, InputItem, ProcessFunctionSpec, Scenario, WatermarkSpec, WindowFunctionSpec,
};
use crate::engine::time::Millis;

pub fn program(scenario: &Scenario) -> Program {
    let g = Gen::new(scenario);
    let text = g.render();
    Program {
        dialect: Dialect::PyFlink,
        file_name: format!("{}.py", snake_name(&scenario.name)),
        text,
        caveats: g.caveats,
    }
}

/// A Python string literal (double quotes; backslashes, quotes and control characters escaped).
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
fn time(ms: Millis) -> String {
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
fn duration(ms: Millis) -> String {
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
fn grouped(n: i64) -> String {
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

fn comment(prefix: &str, text: &str) -> Vec<String> {
    wrap_comment(prefix, text, 96)
}

struct Gen<'a> {
    s: &'a Scenario,
    job: Job,
    /// The elements carry an event type (`started`, `completed`, `error`, ...).
    events: bool,
    markers: bool,
    caveats: Vec<String>,
}

impl<'a> Gen<'a> {
    fn new(s: &'a Scenario) -> Self {
        let markers = has_watermark_items(s);
        let mut caveats = Vec::new();
        if let Some(e) = build_error(s) {
            caveats.push(format!("Flink refuses to build this job: {e}"));
        }
        match s.watermarks {
            WatermarkSpec::Explicit if markers => caveats.push(
                "PyFlink has no custom WatermarkGenerator, so the scenario's scripted watermarks (the comments in ELEMENTS) cannot be emitted; this job uses for_monotonous_timestamps(), whose periodic watermark this small input outruns: event time only advances at the end of input.".into(),
            ),
            WatermarkSpec::Explicit => {}
            WatermarkSpec::BoundedOutOfOrderness { .. } | WatermarkSpec::Monotonous if s.source.periodic => {}
            WatermarkSpec::BoundedOutOfOrderness { .. } | WatermarkSpec::Monotonous => caveats.push(
                "Tidemark emits the watermark after every element, as the course's timelines do; PyFlink's strategy emits it periodically (every 200 ms), which this small input outruns: event time only advances at the end of input (no late data, no late firings). The Java program emits them as Tidemark does.".into(),
            ),
        }
        if markers && s.watermarks != WatermarkSpec::Explicit {
            caveats.push(
                "The scenario's scripted watermarks (the comments in ELEMENTS) cannot be emitted: PyFlink has no custom WatermarkGenerator.".into(),
            );
        }
        let job = job(s);
        if let (Job::Window, Some(e)) = (job, s.evictor) {
            let what = match e.kind {
                EvictorKind::Count { n } => format!("CountEvictor.of({n})"),
                EvictorKind::Time { size } => format!("TimeEvictor.of({})", human_duration(size)),
            };
            caveats.push(format!(
                "The evictor ({what}) is left out: \"Evictor is still not supported in Python DataStream API\"; the Java program has it."
            ));
        }
        if job == Job::Window && s.assigner == AssignerSpec::GlobalEos {
            caveats.push(
                "PyFlink's GlobalWindows has no create_with_end_of_stream_trigger(): GlobalWindows.create() with its default NeverTrigger never fires; the Java program has the end-of-stream trigger.".into(),
            );
        }
        if job == Job::Window && s.assigner.is_global() && s.trigger.base == BaseTrigger::Default && s.trigger.purging {
            caveats.push(
                "A PurgingTrigger around the default trigger of GlobalWindows cannot be written; this job keeps the unpurged default.".into(),
            );
        }
        if !s.end_of_input {
            caveats.push(
                "The scenario pauses the input (end_of_input: false), so Tidemark never sends the final Long.MAX_VALUE watermark; a bounded collection source always does, so this job also fires the windows Tidemark leaves pending.".into(),
            );
        }
        caveats.extend(source_caveats(s));
        Gen { s, job, events: has_events(s), markers, caveats }
    }

    fn global(&self) -> bool {
        self.s.assigner.is_global()
    }

    /// The result row's value fields and their types.
    fn value_fields(&self) -> Vec<(&'static str, &'static str)> {
        match self.s.function {
            WindowFunctionSpec::Process => vec![("sum", "Types.LONG()"), ("count", "Types.LONG()")],
            WindowFunctionSpec::Sum => vec![("sum", "Types.LONG()")],
            WindowFunctionSpec::Count => vec![("count", "Types.LONG()")],
            WindowFunctionSpec::Avg => vec![("avg", "Types.DOUBLE()")],
            WindowFunctionSpec::Min => vec![("min", "Types.LONG()")],
            WindowFunctionSpec::Max => vec![("max", "Types.LONG()")],
        }
    }

    fn render(&self) -> String {
        let s = self.s;
        let mut t = Text::default();
        let what = match self.job {
            Job::Window => "a PyFlink 2.3 job in the style of the course",
            Job::Tvf(_) => "a PyFlink 2.3 job: a DataStream source and a SQL window TVF",
            Job::Process(_) => "a PyFlink 2.3 job with a KeyedProcessFunction, in the style of the course",
        };
        t.line(format!("# Tidemark scenario {}, as {what}.", string_lit(&s.name)));
        if !s.description.is_empty() {
            t.line("#");
            t.lines(comment("# ", &s.description));
        }
        t.line("#");
        t.line(format!("# Run: pip install apache-flink==2.3.0 && python {}.py", snake_name(&s.name)));
        t.line("# (in the virtualenv that has apache-flink: Flink starts its Python workers with the `python`");
        t.line("# found on PATH)");
        if !self.caveats.is_empty() {
            t.line("#");
            t.line("# Differences from what Tidemark shows:");
            for c in &self.caveats {
                let mut lines = comment("#   ", c);
                if let Some(first) = lines.first_mut() {
                    *first = first.replacen("#   ", "# - ", 1);
                }
                t.lines(lines);
            }
        }
        t.blank();
        let mut body = Text::default();
        self.body(&mut body);
        let body = body.finish();
        self.imports(&mut t, &body);
        t.blank();
        t.raw(&body);
        t.finish()
    }

    fn imports(&self, t: &mut Text, body: &str) {
        let used = |name: &str| {
            body.match_indices(name).any(|(i, _)| {
                let before = body[..i].chars().next_back();
                let after = body[i + name.len()..].chars().next();
                let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
                !before.is_some_and(ident) && !after.is_some_and(ident)
            })
        };
        let common: Vec<&str> =
            ["Duration", "Row", "Types", "WatermarkStrategy"].into_iter().filter(|n| used(n)).collect();
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
        let state: Vec<&str> =
            ["MapStateDescriptor", "StateTtlConfig", "ValueStateDescriptor"].into_iter().filter(|n| used(n)).collect();
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
    }

    fn body(&self, t: &mut Text) {
        let s = self.s;
        let mut fields = vec!["\"id\"", "\"key\"", "\"ts\"", "\"value\""];
        let mut field_types = vec!["Types.LONG()", "Types.STRING()", "Types.LONG()", "Types.LONG()"];
        if self.events {
            fields.push("\"event\"");
            field_types.push("Types.STRING()");
        }
        t.line("# An input record: what the scenario's elements carry.");
        t.line(format!("Event = Row({})", fields.join(", ")));
        t.line("EVENT_TYPE = Types.ROW_NAMED(");
        t.line(format!("    [{}], [{}])", fields.join(", "), field_types.join(", ")));
        t.blank();
        match self.job {
            Job::Window => {
                let mut names = vec!["\"key\"".to_string()];
                let mut types = vec!["Types.STRING()".to_string()];
                if !self.global() {
                    names.extend(["\"window_start\"".into(), "\"window_end\"".into()]);
                    types.extend(["Types.LONG()".into(), "Types.LONG()".into()]);
                }
                for (n, ty) in self.value_fields() {
                    names.push(format!("\"{n}\""));
                    types.push(ty.into());
                }
                names.push("\"watermark\"".into());
                types.push("Types.LONG()".into());
                t.line("# A window result: the key, the window, the value and the watermark at the firing.");
                t.line("RESULT_TYPE = Types.ROW_NAMED(");
                t.line(format!("    [{}],", names.join(", ")));
                t.line(format!("    [{}])", types.join(", ")));
                t.blank();
            }
            Job::Process(spec) => {
                let (extra, extra_types) = match spec {
                    ProcessFunctionSpec::RequestAssembler { .. } => ("\"id\"", "Types.LONG()"),
                    ProcessFunctionSpec::ErrorRateAlert { .. } => {
                        ("\"errors\", \"requests\"", "Types.LONG(), Types.LONG()")
                    }
                };
                t.line("# What the process function emits: completed, abandoned, alert or ok, and its facts.");
                t.line("RECORD_TYPE = Types.ROW_NAMED(");
                t.line(format!("    [\"key\", \"kind\", \"ts\", \"watermark\", {extra}],"));
                t.line(format!("    [Types.STRING(), Types.STRING(), Types.LONG(), Types.LONG(), {extra_types}])"));
                t.blank();
            }
            Job::Tvf(spec) => {
                t.line("# The window TVF query over the stream (rowtime: the stream's timestamps and watermarks).");
                t.line("QUERY = \"\"\"");
                for line in sql::tvf_query(s, spec, "rowtime") {
                    t.line(line);
                }
                t.line("\"\"\"");
                t.blank();
            }
        }
        t.line("# The scenario's input, in arrival order.");
        t.line("ELEMENTS = [");
        for item in &s.input {
            match item {
                InputItem::Element(e) => t.line(format!(
                    "    Event({}, {}, {}, {}{}),{}",
                    e.id,
                    string_lit(&e.key),
                    e.ts,
                    e.value,
                    match (&e.event, self.events) {
                        (Some(ev), true) => format!(", {}", string_lit(ev)),
                        (None, true) => ", None".to_string(),
                        _ => String::new(),
                    },
                    time_suffix(" #", e.ts)
                )),
                InputItem::Watermark(_) | InputItem::SourceWatermark(_) => t.line(format!(
                    "    # watermark {} (scripted; PyFlink cannot emit it)",
                    time_comment(item.watermark().unwrap_or(i64::MIN))
                )),
            }
        }
        t.line("]");
        t.blank_lines(2);
        t.line("class EventTimestamps(TimestampAssigner):");
        t.line("    def extract_timestamp(self, value, record_timestamp):");
        t.line("        return value.ts");
        t.blank_lines(2);
        match self.job {
            Job::Window => self.functions(t),
            Job::Tvf(_) => {}
            Job::Process(spec) => self.process_function(t, spec),
        }
        if let (Job::Window, AssignerSpec::DynamicSession { default_gap, gaps }) = (self.job, &s.assigner) {
            t.line("class GapPerKey(SessionWindowTimeGapExtractor):");
            t.line("    \"\"\"The session gap of each key, in milliseconds.\"\"\"");
            t.line("    GAPS = {");
            for (k, g) in gaps {
                t.line(format!("        {}: {g},  # {}", string_lit(k), human_duration(*g)));
            }
            t.line("    }");
            t.blank();
            t.line("    def extract(self, element):");
            t.line(format!(
                "        return self.GAPS.get(element.key, {default_gap})  # {}",
                human_duration(*default_gap)
            ));
            t.blank_lines(2);
        }
        self.main(t);
        t.blank_lines(2);
        t.line("if __name__ == \"__main__\":");
        t.line("    main()");
    }

    /// The course's keyed process functions (module 6's RequestAssembler, in the course's own
    /// shape, and the hand-built error-rate alert).
    fn process_function(&self, t: &mut Text, spec: ProcessFunctionSpec) {
        let tuple =
            |names: &[&str]| format!("({})", names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", "));
        t.line("def is_event(event, names):");
        t.line("    \"\"\"Whether the element's event type is one of `names` (ignoring case).\"\"\"");
        t.line("    return (event.event or \"\").lower() in names");
        t.blank_lines(2);
        match spec {
            ProcessFunctionSpec::RequestAssembler { timeout, ttl, .. } => {
                t.line(format!("STARTED = {}", tuple(&STARTED_EVENTS)));
                t.line(format!("COMPLETED = {}", tuple(&COMPLETED_EVENTS)));
                t.line(format!("ABANDON_MS = {}  # {}", grouped(timeout), human_duration(timeout)));
                t.blank_lines(2);
                t.line("class RequestAssembler(KeyedProcessFunction):  # keyed by request id");
                t.blank();
                t.line("    def open(self, runtime_context: RuntimeContext):");
                t.line("        # state name \"open\"; the attribute cannot be self.open");
                t.line("        descriptor = ValueStateDescriptor(\"open\", Types.PICKLED_BYTE_ARRAY())");
                if let Some(ttl) = ttl {
                    t.line(format!(
                        "        # Module 3's backstop: a processing-time TTL of {} on the open request.",
                        human_duration(ttl)
                    ));
                    t.line(format!("        descriptor.enable_time_to_live(StateTtlConfig.new_builder({})", time(ttl)));
                    t.line("                                       .set_update_type(StateTtlConfig.UpdateType.OnCreateAndWrite)");
                    t.line("                                       .set_state_visibility(");
                    t.line(
                        "                                           StateTtlConfig.StateVisibility.NeverReturnExpired)",
                    );
                    t.line("                                       .build())");
                }
                t.line("        self.open_state = runtime_context.get_state(descriptor)");
                t.blank();
                t.line("    def process_element(self, event, ctx):");
                t.line("        cur = self.open_state.value()  # (started id, started ts) or None");
                t.line("        if is_event(event, STARTED):");
                t.line("            self.open_state.update((event.id, event.ts))");
                t.line("            ctx.timer_service().register_event_time_timer(event.ts + ABANDON_MS)");
                t.line("        elif is_event(event, COMPLETED) and cur is not None:");
                t.line("            yield Row(ctx.get_current_key(), \"completed\", event.ts,");
                t.line("                      ctx.timer_service().current_watermark(), event.id)");
                t.line("            ctx.timer_service().delete_event_time_timer(cur[1] + ABANDON_MS)");
                t.line("            self.open_state.clear()");
                t.line("        # a completion without an open request has nothing to join: dropped");
                t.blank();
                t.line("    def on_timer(self, timestamp, ctx):");
                t.line("        cur = self.open_state.value()");
                t.line("        if cur is not None and timestamp == cur[1] + ABANDON_MS:  # not a stale timer");
                t.line("            yield Row(ctx.get_current_key(), \"abandoned\", timestamp,");
                t.line("                      ctx.timer_service().current_watermark(), cur[0])");
                t.line("            self.open_state.clear()");
            }
            ProcessFunctionSpec::ErrorRateAlert { size, threshold_pct } => {
                t.line(format!("ERROR = {}", tuple(&ERROR_EVENTS)));
                t.line(format!("REQUEST = {}", tuple(&REQUEST_EVENTS)));
                t.line(format!("MINUTE_MS = {}  # {}", grouped(size), human_duration(size)));
                t.line(format!("THRESHOLD_PCT = {threshold_pct}"));
                t.blank_lines(2);
                t.line("class ErrorRateAlert(KeyedProcessFunction):  # keyed by model");
                t.line("    \"\"\"A window built by hand (upstream's PseudoWindow): minute end -> (errors, requests).\"\"\"");
                t.blank();
                t.line("    def open(self, runtime_context: RuntimeContext):");
                t.line("        self.minutes = runtime_context.get_map_state(MapStateDescriptor(");
                t.line("            \"minutes\", Types.LONG(), Types.TUPLE([Types.LONG(), Types.LONG()])))");
                t.blank();
                t.line("    def process_element(self, event, ctx):");
                t.line("        error = is_event(event, ERROR)");
                t.line("        if not error and event.event is not None and not is_event(event, REQUEST):");
                t.line("            return  # neither a request nor an error");
                t.line("        minute_end = event.ts - event.ts % MINUTE_MS + MINUTE_MS - 1");
                t.line("        if minute_end <= ctx.timer_service().current_watermark():");
                t.line("            return  # late: its minute has already been reported");
                t.line("        counts = self.minutes.get(minute_end)");
                t.line("        if counts is None:");
                t.line("            counts = (0, 0)");
                t.line("            ctx.timer_service().register_event_time_timer(minute_end)");
                t.line("        self.minutes.put(minute_end, (counts[0] + (1 if error else 0), counts[1] + 1))");
                t.blank();
                t.line("    def on_timer(self, timestamp, ctx):");
                t.line("        counts = self.minutes.get(timestamp)");
                t.line("        if counts is None:");
                t.line("            return");
                t.line("        self.minutes.remove(timestamp)");
                t.line("        errors, requests = counts");
                t.line("        kind = \"alert\" if errors * 100 > THRESHOLD_PCT * requests else \"ok\"");
                t.line("        yield Row(ctx.get_current_key(), kind, timestamp, ctx.timer_service().current_watermark(),");
                t.line("                  errors, requests)");
            }
        }
        t.blank_lines(2);
    }

    fn result_row(&self, value: &str) -> String {
        if self.global() {
            format!("Row(key, {value}, context.current_watermark())")
        } else {
            format!("Row(key, window.start, window.end, {value}, context.current_watermark())")
        }
    }

    fn functions(&self, t: &mut Text) {
        let window_line = |t: &mut Text| {
            if !self.global() {
                t.line("        window = context.window()");
            }
        };
        match self.s.function {
            WindowFunctionSpec::Process => {
                t.line("class SumAndCount(ProcessWindowFunction):");
                t.line("    \"\"\"A ProcessWindowFunction: Flink buffers every element of the window in state.\"\"\"");
                t.blank();
                t.line("    def process(self, key, context, elements):");
                t.line("        total, count = 0, 0");
                t.line("        for e in elements:");
                t.line("            total += e.value");
                t.line("            count += 1");
                window_line(t);
                t.line(format!("        yield {}", self.result_row("total, count")));
                t.blank_lines(2);
                return;
            }
            WindowFunctionSpec::Sum | WindowFunctionSpec::Count => {
                let (name, doc, add) = if self.s.function == WindowFunctionSpec::Sum {
                    ("SumOfValues", "Sums the values", "accumulator + value.value")
                } else {
                    ("CountOfEvents", "Counts the elements", "accumulator + 1")
                };
                t.line(format!("class {name}(AggregateFunction):"));
                t.line(format!("    \"\"\"{doc} as they arrive: the window's state is one accumulator.\"\"\""));
                t.blank();
                t.line("    def create_accumulator(self):");
                t.line("        return 0");
                t.blank();
                t.line("    def add(self, value, accumulator):");
                t.line(format!("        return {add}"));
                t.blank();
                t.line("    def get_result(self, accumulator):");
                t.line("        return accumulator");
                t.blank();
                t.line("    def merge(self, a, b):  # merging session windows");
                t.line("        return a + b");
            }
            WindowFunctionSpec::Avg => {
                t.line("class AverageOfValues(AggregateFunction):");
                t.line(
                    "    \"\"\"Averages the values as they arrive: the state is one (sum, count) accumulator.\"\"\"",
                );
                t.blank();
                t.line("    def create_accumulator(self):");
                t.line("        return 0, 0");
                t.blank();
                t.line("    def add(self, value, accumulator):");
                t.line("        return accumulator[0] + value.value, accumulator[1] + 1");
                t.blank();
                t.line("    def get_result(self, accumulator):");
                t.line("        total, count = accumulator");
                t.line("        return total / count if count else float(\"nan\")");
                t.blank();
                t.line("    def merge(self, a, b):  # merging session windows");
                t.line("        return a[0] + b[0], a[1] + b[1]");
            }
            WindowFunctionSpec::Min | WindowFunctionSpec::Max => {
                let (name, doc, op) = if self.s.function == WindowFunctionSpec::Min {
                    ("MinOfValues", "the smallest", "<=")
                } else {
                    ("MaxOfValues", "the largest", ">=")
                };
                t.line(format!("class {name}(ReduceFunction):"));
                t.line(format!(
                    "    \"\"\"Keeps the element with {doc} value: the window's state is one element.\"\"\""
                ));
                t.blank();
                t.line("    def reduce(self, a, b):");
                t.line(format!("        return a if a.value {op} b.value else b"));
            }
        }
        let value = match self.s.function {
            WindowFunctionSpec::Min | WindowFunctionSpec::Max => "next(iter(results)).value",
            _ => "next(iter(results))",
        };
        t.blank_lines(2);
        t.line("class EmitResult(ProcessWindowFunction):");
        t.line("    \"\"\"Stamps the one pre-aggregated value with the key, the window and the watermark.\"\"\"");
        t.blank();
        t.line("    def process(self, key, context, results):");
        t.line(format!("        value = {value}  # exactly one"));
        window_line(t);
        t.line(format!("        yield {}", self.result_row("value")));
        t.blank_lines(2);
    }

    fn assigner(&self) -> String {
        match &self.s.assigner {
            AssignerSpec::Tumbling { size, offset: 0 } => format!("TumblingEventTimeWindows.of({})", time(*size)),
            AssignerSpec::Tumbling { size, offset } => {
                format!("TumblingEventTimeWindows.of({}, {})", time(*size), time(*offset))
            }
            AssignerSpec::Sliding { size, slide, offset: 0 } => {
                format!("SlidingEventTimeWindows.of({}, {})", time(*size), time(*slide))
            }
            AssignerSpec::Sliding { size, slide, offset } => {
                format!("SlidingEventTimeWindows.of({}, {}, {})", time(*size), time(*slide), time(*offset))
            }
            AssignerSpec::Session { gap } => format!("EventTimeSessionWindows.with_gap({})", time(*gap)),
            AssignerSpec::DynamicSession { .. } => {
                "DynamicEventTimeSessionWindows.with_dynamic_gap(GapPerKey())".into()
            }
            AssignerSpec::Global | AssignerSpec::GlobalEos => "GlobalWindows.create()".into(),
            AssignerSpec::TumblingProcessing { size, offset: 0 } => {
                format!("TumblingProcessingTimeWindows.of({})", time(*size))
            }
            AssignerSpec::TumblingProcessing { size, offset } => {
                format!("TumblingProcessingTimeWindows.of({}, {})", time(*size), time(*offset))
            }
            AssignerSpec::SlidingProcessing { size, slide, offset: 0 } => {
                format!("SlidingProcessingTimeWindows.of({}, {})", time(*size), time(*slide))
            }
            AssignerSpec::SlidingProcessing { size, slide, offset } => {
                format!("SlidingProcessingTimeWindows.of({}, {}, {})", time(*size), time(*slide), time(*offset))
            }
        }
    }

    fn trigger(&self) -> Option<String> {
        let base = match self.s.trigger.base {
            BaseTrigger::Default if self.s.trigger.purging && !self.global() => "EventTimeTrigger.create()".to_string(),
            BaseTrigger::Default => return None,
            BaseTrigger::EventTime => "EventTimeTrigger.create()".to_string(),
            BaseTrigger::Count { n } => format!("CountTrigger.of({n})"),
            BaseTrigger::ContinuousEventTime { interval } => {
                format!("ContinuousEventTimeTrigger.of({})", time(interval))
            }
        };
        Some(if self.s.trigger.purging { format!("PurgingTrigger.of({base})") } else { base })
    }

    fn main(&self, t: &mut Text) {
        let s = self.s;
        t.line("def main():");
        t.line("    env = StreamExecutionEnvironment.get_execution_environment()");
        t.line("    env.set_parallelism(1)  # results in the order Tidemark shows them");
        t.blank();
        let strategy = match s.watermarks {
            WatermarkSpec::Explicit if self.markers => {
                "WatermarkStrategy.for_monotonous_timestamps()  # not the scripted watermarks: see above".to_string()
            }
            WatermarkSpec::Explicit => "WatermarkStrategy.no_watermarks()  # only the end of input's watermark".into(),
            WatermarkSpec::BoundedOutOfOrderness { bound } => {
                format!("WatermarkStrategy.for_bounded_out_of_orderness({})", duration(bound))
            }
            WatermarkSpec::Monotonous => "WatermarkStrategy.for_monotonous_timestamps()".into(),
        };
        if s.source.periodic && s.source.interval != 200 {
            t.line(format!(
                "    env.get_config().set_auto_watermark_interval({})  # milliseconds of processing time",
                s.source.interval
            ));
        }
        t.line("    watermarks = (");
        t.line(format!("        {strategy}"));
        if let Some(d) = s.source.idleness {
            t.line(format!(
                "        .with_idleness({})  # no events for this long (processing time): idle",
                duration(d)
            ));
        }
        t.line("        .with_timestamp_assigner(EventTimestamps())");
        t.line("    )");
        if self.job == Job::Window && s.side_output {
            t.line("    # The late records travel pickled, as in the course: in PyFlink 2.3 an OutputTag typed");
            t.line("    # with a named row cannot be pickled with the window (TypeError: cannot pickle RLock).");
            t.line("    late_tag = OutputTag(\"late-events\", Types.PICKLED_BYTE_ARRAY())");
        }
        t.blank();
        t.line("    records = env.from_collection(ELEMENTS, type_info=EVENT_TYPE) \\");
        t.line("        .assign_timestamps_and_watermarks(watermarks)");
        t.blank();
        match self.job {
            Job::Window => self.window_job(t),
            Job::Tvf(_) => {
                t.line("    t_env = StreamTableEnvironment.create(env)");
                t.line("    t_env.get_config().set(\"table.local-time-zone\", \"UTC\")");
                t.line("    # The stream's timestamps and watermarks become the table's rowtime attribute.");
                t.line("    t_env.create_temporary_view(\"events\", records, Schema.new_builder()");
                t.line("                                .column_by_metadata(\"rowtime\", \"TIMESTAMP_LTZ(3)\")");
                t.line("                                .watermark(\"rowtime\", \"SOURCE_WATERMARK()\")");
                t.line("                                .build())");
                t.line("    # One final row per window when the watermark passes window_end - 1.");
                t.line("    t_env.execute_sql(QUERY).print()");
            }
            Job::Process(spec) => {
                let function = match spec {
                    ProcessFunctionSpec::RequestAssembler { .. } => "RequestAssembler",
                    ProcessFunctionSpec::ErrorRateAlert { .. } => "ErrorRateAlert",
                };
                t.line("    results = records \\");
                t.line("        .key_by(lambda r: r.key, key_type=Types.STRING()) \\");
                t.line(format!("        .process({function}(), output_type=RECORD_TYPE)"));
                t.blank();
                t.line("    results.print()");
                t.blank();
                t.line(format!("    env.execute({})", string_lit(&s.name)));
            }
        }
    }

    /// key_by → window → trigger, lateness, side output → the window function → print.
    fn window_job(&self, t: &mut Text) {
        let s = self.s;
        t.line("    results = (");
        t.line("        records");
        t.line("        .key_by(lambda r: r.key, key_type=Types.STRING())");
        let mut window = format!("        .window({})", self.assigner());
        if s.assigner == AssignerSpec::Global && s.trigger.base == BaseTrigger::Default {
            window.push_str("  # its default NeverTrigger never fires");
        }
        if s.assigner == AssignerSpec::GlobalEos {
            window.push_str("  # not the end-of-stream trigger: see above");
        }
        t.line(window);
        if let Some(trigger) = self.trigger() {
            t.line(format!("        .trigger({trigger})"));
        }
        if let Some(e) = s.evictor {
            let ev = match e.kind {
                EvictorKind::Count { n } if e.do_evict_after => format!("CountEvictor.of({n}, True)"),
                EvictorKind::Count { n } => format!("CountEvictor.of({n})"),
                EvictorKind::Time { size } if e.do_evict_after => format!("TimeEvictor.of({}, True)", time(size)),
                EvictorKind::Time { size } => format!("TimeEvictor.of({})", time(size)),
            };
            t.line(format!(
                "        # .evictor({ev})  Java only: \"Evictor is still not supported in Python DataStream API\""
            ));
        }
        if let Some(l) = s.allowed_lateness {
            t.line(format!("        .allowed_lateness({})  # milliseconds: {}", grouped(l), human_duration(l)));
        }
        if s.side_output {
            t.line("        .side_output_late_data(late_tag)");
        }
        let call = match s.function {
            WindowFunctionSpec::Process => ".process(SumAndCount(), output_type=RESULT_TYPE)".to_string(),
            WindowFunctionSpec::Sum => {
                ".aggregate(SumOfValues(), window_function=EmitResult(),\n                   accumulator_type=Types.LONG(), output_type=RESULT_TYPE)".into()
            }
            WindowFunctionSpec::Count => {
                ".aggregate(CountOfEvents(), window_function=EmitResult(),\n                   accumulator_type=Types.LONG(), output_type=RESULT_TYPE)".into()
            }
            WindowFunctionSpec::Avg => {
                ".aggregate(AverageOfValues(), window_function=EmitResult(),\n                   accumulator_type=Types.TUPLE([Types.LONG(), Types.LONG()]),\n                   output_type=RESULT_TYPE)".into()
            }
            WindowFunctionSpec::Min => {
                ".reduce(MinOfValues(), window_function=EmitResult(), output_type=RESULT_TYPE)".into()
            }
            WindowFunctionSpec::Max => {
                ".reduce(MaxOfValues(), window_function=EmitResult(), output_type=RESULT_TYPE)".into()
            }
        };
        t.line(format!("        {call}"));
        t.line("    )");
        t.blank();
        t.line("    results.print()");
        if s.side_output {
            t.line("    # get_side_output must be called: otherwise PyFlink sends the late records into the");
            t.line("    # main stream.");
            t.line("    results.get_side_output(late_tag).print()");
        } else {
            t.line("    # No side output: late elements are dropped and counted in numLateRecordsDropped.");
        }
        t.blank();
        t.line(format!("    env.execute({})", string_lit(&s.name)));
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
