//! The Java DataStream program (Flink 2.x API): one public class with a `main()` that builds the
//! scenario's job over `env.fromData(...)` of its elements and prints the results.

mod classes;
mod course;
mod input;
pub(crate) mod syntax;

pub(crate) use syntax::{duration, long_lit, string_lit};

use super::{
    Dialect, JAVA_COMMENTS, Job, Program, Text, assigner_of, build_error, element_fields, has_events,
    has_watermark_items, human_duration, java_class_name, job, process_fn, source_caveats, sql, time_suffix,
    without_recovery,
};
use crate::engine::scenario::{
    AssignerSpec, BaseTrigger, EvictorKind, InputItem, ProcessFunctionSpec, Scenario, TvfSpec, WatermarkSpec,
    WindowFunctionSpec,
};
use input::INLINE_ITEMS_MAX;

/// The program, its class named after the scenario.
pub fn program(scenario: &Scenario) -> Program {
    program_with_class(scenario, &java_class_name(&scenario.name))
}

/// The program with a given public class name (a valid Java identifier; the file must be named
/// after it).
pub fn program_with_class(scenario: &Scenario, class_name: &str) -> Program {
    let (job, recovery) = without_recovery(scenario);
    let mut g = Gen::new(&job);
    g.caveats.extend(recovery);
    let text = g.render(class_name);
    Program { dialect: Dialect::Java, file_name: format!("{class_name}.java"), text, caveats: g.caveats }
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
        let run = [
            "Compile and run against Flink 2.3's jars, e.g. those of `pip install apache-flink==2.3.0`".to_string(),
            "(LIB=<venv>/lib/python3.*/site-packages/pyflink/lib):".to_string(),
            format!("  javac -encoding UTF-8 -cp \"$LIB/*\" {class_name}.java && java -cp \"$LIB/*:.\" {class_name}"),
        ];
        let title = format!("Tidemark scenario {}, as {what}.", string_lit(&s.name));
        JAVA_COMMENTS.header(&mut t, &title, &s.description, &run, &self.caveats);
        t.blank();
        let mut body = Text::default();
        self.body(&mut body);
        let body = body.finish();
        for i in syntax::imports(&body) {
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
        classes::event_class(t, self.events, self.markers);
        t.blank();
        match self.job {
            Job::Window => {
                classes::result_class(t, s, self.window_type);
                t.blank();
                classes::functions(t, s.function, self.window_type);
                course::trigger_class(t, s.trigger.base);
                if let Some(EvictorKind::Delta { delta, .. }) = s.evictor.map(|e| e.kind) {
                    t.blank();
                    course::delta_function(t, delta);
                }
            }
            Job::Tvf(_) => {}
            Job::Process(spec) => process_fn::java(t, spec),
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
            input::generator(t, s, self.markers);
        }
        if s.input.len() > INLINE_ITEMS_MAX {
            t.blank();
            input::compact_input(t, s, self.markers, self.events);
        }
        t.blank();
        self.main(t);
    }

    /// Scripted watermark items and per-element emission need the custom generator.
    fn uses_generator(&self) -> bool {
        self.markers || (self.s.watermarks != WatermarkSpec::Explicit && !self.s.source.periodic)
    }

    fn assigner(&self) -> String {
        let name = self.s.assigner.flink_name();
        match &self.s.assigner {
            AssignerSpec::Tumbling { size, offset } | AssignerSpec::TumblingProcessing { size, offset } => {
                assigner_of(name, &[*size], *offset, duration)
            }
            AssignerSpec::Sliding { size, slide, offset } => assigner_of(name, &[*size, *slide], *offset, duration),
            // Written with its offset even when that is 0.
            AssignerSpec::SlidingProcessing { size, slide, offset } => {
                assigner_of(name, &[*size, *slide, *offset], 0, duration)
            }
            AssignerSpec::Session { gap } => format!("EventTimeSessionWindows.withGap({})", duration(*gap)),
            AssignerSpec::DynamicSession { .. } => "EventTimeSessionWindows.withDynamicGap(new GapPerKey())".into(),
            AssignerSpec::Global => "GlobalWindows.create()".into(),
            AssignerSpec::GlobalEos => "GlobalWindows.createWithEndOfStreamTrigger()".into(),
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
            BaseTrigger::EarlyCount { n } => format!("new EarlyCountEventTimeTrigger({})", long_lit(n)),
            BaseTrigger::SessionMaxDuration { max_duration } => {
                format!("new SessionMaxDurationTrigger({})", long_lit(max_duration))
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
                        "                Event.of({}){sep}{}",
                        element_fields(e, self.events, long_lit, string_lit, "null"),
                        time_suffix("//", e.ts)
                    )),
                    // Not input a job reads (`without_recovery` left them out).
                    InputItem::Control(c) => t.line(format!("                // {}", c.kind.name())),
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
                EvictorKind::Delta { threshold, delta } => course::delta_evictor(threshold.0, delta, e.do_evict_after),
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
            WindowFunctionSpec::Process => "process(new SumAndCount())".to_string(),
            WindowFunctionSpec::Sum => "aggregate(new SumOfValues(), new EmitResult())".into(),
            WindowFunctionSpec::Count => "aggregate(new CountOfEvents(), new EmitResult())".into(),
            WindowFunctionSpec::Avg => "aggregate(new AverageOfValues(), new EmitResult())".into(),
            WindowFunctionSpec::Min => "reduce(new MinOfValues(), new EmitResult())".into(),
            WindowFunctionSpec::Max => "reduce(new MaxOfValues(), new EmitResult())".into(),
            WindowFunctionSpec::Aggregate(agg) => course::call(agg),
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
