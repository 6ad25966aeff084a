//! The PyFlink program, in the course's style: records as `Row`s, `key_by`, `window`,
//! `allowed_lateness`, `side_output_late_data`, then `aggregate`/`reduce`/`process`. What PyFlink
//! lacks (evictors, custom watermark generators, the end-of-stream trigger) is said in a comment.
//! Scenarios that run a window TVF get the same query through PyFlink's Table API; those that run
//! a keyed process function get it in the course's RequestAssembler shape.

mod functions;
mod syntax;

pub(crate) use syntax::{grouped, string_lit, time};

use super::{
    Dialect, Job, PYTHON_COMMENTS, Program, Text, assigner_of, build_error, has_events, has_watermark_items,
    human_duration, job, process_fn, snake_name, source_caveats, sql, time_comment, time_suffix,
};
use crate::engine::scenario::{
    AssignerSpec, BaseTrigger, EvictorKind, InputItem, ProcessFunctionSpec, Scenario, WatermarkSpec, WindowFunctionSpec,
};
use syntax::duration;

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
        let run = [
            format!("Run: pip install apache-flink==2.3.0 && python {}.py", snake_name(&s.name)),
            "(in the virtualenv that has apache-flink: Flink starts its Python workers with the `python`".to_string(),
            "found on PATH)".to_string(),
        ];
        let title = format!("Tidemark scenario {}, as {what}.", string_lit(&s.name));
        PYTHON_COMMENTS.header(&mut t, &title, &s.description, &run, &self.caveats);
        t.blank();
        let mut body = Text::default();
        self.body(&mut body);
        let body = body.finish();
        syntax::imports(&mut t, &body);
        t.blank();
        t.raw(&body);
        t.finish()
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
            Job::Window => functions::functions(t, s.function, self.global()),
            Job::Tvf(_) => {}
            Job::Process(spec) => process_fn::python(t, spec),
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

    fn assigner(&self) -> String {
        let name = self.s.assigner.flink_name();
        match &self.s.assigner {
            AssignerSpec::Tumbling { size, offset } | AssignerSpec::TumblingProcessing { size, offset } => {
                assigner_of(name, &[*size], *offset, time)
            }
            AssignerSpec::Sliding { size, slide, offset } | AssignerSpec::SlidingProcessing { size, slide, offset } => {
                assigner_of(name, &[*size, *slide], *offset, time)
            }
            AssignerSpec::Session { gap } => format!("EventTimeSessionWindows.with_gap({})", time(*gap)),
            AssignerSpec::DynamicSession { .. } => {
                "DynamicEventTimeSessionWindows.with_dynamic_gap(GapPerKey())".into()
            }
            AssignerSpec::Global | AssignerSpec::GlobalEos => "GlobalWindows.create()".into(),
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
