//! The PyFlink program, in the course's style: records as `Row`s, `key_by`, `window`,
//! `allowed_lateness`, `side_output_late_data` (the OutputTag `late-request-records`), then
//! `aggregate`/`reduce`/`process` with the operator's `uid`. The watermarks are those Tidemark
//! shows, after every element, from a Table API watermark expression (`source.rs`: PyFlink has
//! no custom WatermarkGenerator). What PyFlink lacks (evictors, the end-of-stream trigger) is said
//! in a comment. Scenarios that run a window TVF get the same query through PyFlink's Table API;
//! those that run a keyed process function get it in the course's RequestAssembler shape.

mod course;
mod functions;
mod source;
pub(crate) mod syntax;

pub(crate) use syntax::{grouped, string_lit, time};

use super::{
    Dialect, Job, PYTHON_COMMENTS, Program, Text, ValueUnit, assigner_of, build_error, has_events, has_watermark_items,
    human_duration, job, process_fn, snake_name, source_caveats, sql, without_recovery,
};
use crate::engine::scenario::{
    AssignerSpec, BaseTrigger, EvictorKind, ProcessFunctionSpec, Scenario, WindowFunctionSpec,
};
use source::Watermarks;

pub fn program(scenario: &Scenario) -> Program {
    program_with(scenario, ValueUnit::Plain)
}

/// The program, its values shown as `unit`.
pub fn program_with(scenario: &Scenario, unit: ValueUnit) -> Program {
    let (job, recovery) = without_recovery(scenario);
    let mut g = Gen::new(&job, unit);
    g.caveats.extend(recovery);
    let text = g.render();
    Program {
        dialect: Dialect::PyFlink,
        file_name: format!("{}.py", snake_name(&scenario.name)),
        text,
        caveats: g.caveats,
    }
}

/// The uid of the job's stateful operator: the course gives each one (`.uid("tenant-cost")`), so
/// that its state can be restored from a savepoint after the job changes. Here: the scenario's
/// name in kebab case, or the process function's.
fn operator_uid(s: &Scenario, job: Job) -> String {
    match job {
        Job::Process(ProcessFunctionSpec::RequestAssembler { .. }) => "request-assembler".into(),
        Job::Process(ProcessFunctionSpec::ErrorRateAlert { .. }) => "error-rate-alert".into(),
        Job::Window | Job::Tvf(_) => snake_name(&s.name).replace('_', "-"),
    }
}

/// Whether some window's max timestamp + the allowed lateness is past Long.MAX_VALUE (an event-
/// time window reaches at most its span beyond an element's timestamp).
fn lateness_overflows(s: &Scenario) -> bool {
    let span = match &s.assigner {
        AssignerSpec::Tumbling { size, .. } | AssignerSpec::Sliding { size, .. } => *size,
        AssignerSpec::Session { gap } => *gap,
        AssignerSpec::DynamicSession { default_gap, gaps } => gaps.values().copied().fold(*default_gap, i64::max),
        AssignerSpec::Global
        | AssignerSpec::GlobalEos
        | AssignerSpec::TumblingProcessing { .. }
        | AssignerSpec::SlidingProcessing { .. } => return false,
    };
    let lateness = s.allowed_lateness.unwrap_or(0);
    lateness > 0 && s.elements().any(|e| e.ts.checked_add(span.max(0)).and_then(|m| m.checked_add(lateness)).is_none())
}

struct Gen<'a> {
    s: &'a Scenario,
    job: Job,
    /// The elements carry an event type (`started`, `completed`, `error`, ...).
    events: bool,
    markers: bool,
    watermarks: Watermarks,
    unit: ValueUnit,
    caveats: Vec<String>,
}

impl<'a> Gen<'a> {
    fn new(s: &'a Scenario, unit: ValueUnit) -> Self {
        let markers = has_watermark_items(s);
        let mut caveats = Vec::new();
        if let Some(e) = build_error(s) {
            caveats.push(format!("Flink refuses to build this job: {e}"));
        }
        caveats.extend(source::caveats(s, markers));
        let job = job(s);
        if let (Job::Window, Some(e)) = (job, s.evictor) {
            let what = match e.kind {
                EvictorKind::Count { n } => format!("CountEvictor.of({n})"),
                EvictorKind::Time { size } => format!("TimeEvictor.of({})", human_duration(size)),
                EvictorKind::Delta { threshold, delta } => {
                    format!("DeltaEvictor.of({:?}, {} delta)", threshold.0, delta.name())
                }
            };
            caveats.push(format!(
                "The evictor ({what}) is left out: \"Evictor is still not supported in Python DataStream API\"; the Java program has it."
            ));
        }
        if job == Job::Window && matches!(s.trigger.base, BaseTrigger::ContinuousEventTime { .. }) {
            // Seen on PyFlink 2.3: its window operator gets the timers a trigger registers while
            // a watermark is processed only after that watermark's timers have fired.
            caveats.push(
                "PyFlink fires a timer that the trigger registers while a watermark is being processed (ContinuousEventTimeTrigger's next interval) only at the next watermark, where Flink's Java operator, and Tidemark, fire it in the same advance: where one watermark passes several intervals, this job fires once per later watermark instead of several times at once.".into(),
            );
        }
        if job == Job::Window && s.assigner.is_global() && matches!(s.trigger.base, BaseTrigger::EventTime) {
            caveats.push(
                "Flink's Java EventTimeTrigger is declared for TimeWindow and fails on GlobalWindows with a ClassCastException, as Tidemark shows; PyFlink's trigger is Python, takes the GlobalWindow and fires it at its max timestamp (Long.MAX_VALUE), at the end of input.".into(),
            );
        }
        let merging = matches!(s.assigner, AssignerSpec::Session { .. } | AssignerSpec::DynamicSession { .. });
        if job == Job::Window && merging && matches!(s.trigger.base, BaseTrigger::Count { .. }) {
            // Seen on PyFlink 2.3: session_count_trigger fired once, with 4 elements, where
            // Flink's Java job fires with 3 and then with 6.
            caveats.push(
                "PyFlink 2.3 does not add up the CountTrigger counts of the sessions a merge joins as Flink's Java CountTrigger.onMerge does, so after a merge this job can fire at other elements than Tidemark shows.".into(),
            );
        }
        if job == Job::Window && lateness_overflows(s) {
            caveats.push(format!(
                "An allowed lateness of {} takes a window's cleanup time (its max timestamp + the lateness) past Long.MAX_VALUE: Flink's Java operator wraps and caps it, as Tidemark shows; PyFlink's Python window operator adds them as unbounded Python ints and fails when it registers the cleanup timer (OverflowError: Python int too large to convert to C long).",
                human_duration(s.allowed_lateness.unwrap_or(0))
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
        let watermarks = Watermarks::of(s, markers);
        Gen { s, job, events: has_events(s), markers, watermarks, unit, caveats }
    }

    fn global(&self) -> bool {
        self.s.assigner.is_global()
    }

    /// The result row's value fields and their types.
    fn value_fields(&self) -> Vec<(&'static str, &'static str)> {
        let mut fields = self.function_fields();
        if functions::has_usd(self.s.function, self.unit) {
            fields.push(("usd", "Types.BIG_DEC()"));
        }
        fields
    }

    fn function_fields(&self) -> Vec<(&'static str, &'static str)> {
        match self.s.function {
            WindowFunctionSpec::Process => vec![("sum", "Types.LONG()"), ("count", "Types.LONG()")],
            WindowFunctionSpec::Sum => vec![("sum", "Types.LONG()")],
            WindowFunctionSpec::Count => vec![("count", "Types.LONG()")],
            WindowFunctionSpec::Avg => vec![("avg", "Types.DOUBLE()")],
            WindowFunctionSpec::Min => vec![("min", "Types.LONG()")],
            WindowFunctionSpec::Max => vec![("max", "Types.LONG()")],
            WindowFunctionSpec::Aggregate(agg) => course::value_fields(agg),
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
        let marker_rows = self.markers && self.watermarks == Watermarks::PerEvent;
        source::event_type(t, self.events, marker_rows);
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
                t.line(if functions::has_usd(s.function, self.unit) {
                    "# A window result: the key, the window, the value (usd: in dollars) and the watermark at the firing."
                } else {
                    "# A window result: the key, the window, the value and the watermark at the firing."
                });
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
        source::elements(t, s, self.events, marker_rows);
        t.blank_lines(2);
        if self.watermarks != Watermarks::PerEvent {
            t.line("class EventTimestamps(TimestampAssigner):");
            t.line("    def extract_timestamp(self, value, record_timestamp):");
            t.line("        return value.ts");
            t.blank_lines(2);
        }
        match self.job {
            Job::Window => {
                functions::functions(t, s.function, self.global(), self.unit);
                course::trigger_class(t, s.trigger.base);
            }
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
            BaseTrigger::EarlyCount { n } => format!("EarlyCountEventTimeTrigger({n})"),
            BaseTrigger::SessionMaxDuration { max_duration } => format!("SessionMaxDurationTrigger({max_duration})"),
        };
        Some(if self.s.trigger.purging { format!("PurgingTrigger.of({base})") } else { base })
    }

    fn main(&self, t: &mut Text) {
        let s = self.s;
        t.line("def main():");
        t.line("    # One element per bundle: PyFlink holds a watermark back until the bundle of elements in");
        t.line("    # progress is finished, so with larger bundles the elements behind it overtake it and");
        t.line("    # nothing is ever late.");
        t.line("    config = Configuration()");
        t.line("    config.set_string(\"python.fn-execution.bundle.size\", \"1\")");
        t.line("    env = StreamExecutionEnvironment.get_execution_environment(config)");
        t.line("    env.set_parallelism(1)  # results in the order Tidemark shows them");
        t.blank();
        source::read_input(t, s, self.job, self.markers);
        t.blank();
        match self.job {
            Job::Window => self.window_job(t),
            Job::Tvf(_) => {
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
                t.line(format!("        .process({function}(), output_type=RECORD_TYPE) \\"));
                t.line(format!("        .uid({})", string_lit(&operator_uid(s, self.job))));
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
        if s.side_output {
            t.line("    # The late records travel pickled, as in the course: in PyFlink 2.3 an OutputTag typed");
            t.line("    # with a named row cannot be pickled with the window (TypeError: cannot pickle RLock).");
            t.line("    late_tag = OutputTag(\"late-request-records\", Types.PICKLED_BYTE_ARRAY())");
            t.blank();
        }
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
                EvictorKind::Delta { threshold, delta } if e.do_evict_after => {
                    format!("DeltaEvictor.of({:?}, {}_delta, True)", threshold.0, delta.name())
                }
                EvictorKind::Delta { threshold, delta } => {
                    format!("DeltaEvictor.of({:?}, {}_delta)", threshold.0, delta.name())
                }
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
            WindowFunctionSpec::Aggregate(agg) => course::call(agg),
        };
        t.line(format!("        {call}"));
        t.line(format!("        .uid({})", string_lit(&operator_uid(s, self.job))));
        t.line("    )");
        t.blank();
        t.line("    results.print()");
        if s.side_output {
            t.line("    # get_side_output must be called: otherwise PyFlink sends the late records into the");
            t.line("    # main stream. One line per late record, as the course's lab prints them.");
            t.line("    results.get_side_output(late_tag) \\");
            t.line("        .map(lambda r: f\"LATE {r.id}\", output_type=Types.STRING()) \\");
            t.line("        .print()");
        } else {
            t.line("    # No side output: late elements are dropped and counted in numLateRecordsDropped.");
        }
        t.blank();
        t.line(format!("    env.execute({})", string_lit(&s.name)));
    }
}
