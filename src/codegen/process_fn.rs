//! The course's keyed process functions as programs: module 6's `RequestAssembler` (an open
//! request in `ValueState`, an event-time timer at started + the timeout, module 3's TTL as the
//! backstop) and the hand-built error-rate alert (upstream's `PseudoWindow`), in Java and in
//! PyFlink, as `src/engine/process_fn.rs` runs them. The SQL form of the alert is a TUMBLE query
//! (`sql.rs`); the RequestAssembler has none.

// The literal writers come from each dialect's syntax module, not from the dialect's generator
// (java/mod.rs and pyflink/mod.rs call this file: importing them here would be a circle).
use super::java::syntax as java;
use super::pyflink::syntax as pyflink;
use super::{COMPLETED_EVENTS, ERROR_EVENTS, REQUEST_EVENTS, STARTED_EVENTS, Text, human_duration};
use crate::engine::scenario::ProcessFunctionSpec;

/// The course's keyed process functions, with their output record.
pub(crate) fn java(t: &mut Text, spec: ProcessFunctionSpec) {
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
            t.line("     * event-time timer at started + the timeout; on RequestCompleted emit, delete the timer and");
            t.line("     * clear; in onTimer, if the request is still open, emit it as abandoned and clear.");
            t.line("     */");
            t.line("    public static class RequestAssembler extends KeyedProcessFunction<String, Event, Record> {");
            t.line(format!(
                "        static final long ABANDON_MS = {}; // {}",
                java::long_lit(timeout),
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
                    java::duration(ttl)
                ));
                t.line("                    .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)");
                t.line("                    .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)");
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
            t.line(
                "     * The error-rate alert built by hand (upstream's PseudoWindow): per key a map from minute end",
            );
            t.line(
                "     * to (errors, requests) and an event-time timer at each minute end; onTimer emits alert or ok",
            );
            t.line("     * and removes the entry, so a late error is dropped (as with zero allowed lateness).");
            t.line("     */");
            t.line("    public static class ErrorRateAlert extends KeyedProcessFunction<String, Event, Record> {");
            t.line(format!(
                "        static final long MINUTE_MS = {}; // {}",
                java::long_lit(size),
                human_duration(size)
            ));
            t.line(format!("        static final long THRESHOLD_PCT = {};", java::long_lit(threshold_pct)));
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

/// The course's keyed process functions (module 6's RequestAssembler, in the course's own
/// shape, and the hand-built error-rate alert).
pub(crate) fn python(t: &mut Text, spec: ProcessFunctionSpec) {
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
            t.line(format!("ABANDON_MS = {}  # {}", pyflink::grouped(timeout), human_duration(timeout)));
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
                t.line(format!(
                    "        descriptor.enable_time_to_live(StateTtlConfig.new_builder({})",
                    pyflink::time(ttl)
                ));
                t.line("                                       .set_update_type(StateTtlConfig.UpdateType.OnCreateAndWrite)");
                t.line("                                       .set_state_visibility(");
                t.line("                                           StateTtlConfig.StateVisibility.NeverReturnExpired)");
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
            t.line(format!("MINUTE_MS = {}  # {}", pyflink::grouped(size), human_duration(size)));
            t.line(format!("THRESHOLD_PCT = {threshold_pct}"));
            t.blank_lines(2);
            t.line("class ErrorRateAlert(KeyedProcessFunction):  # keyed by model");
            t.line(
                "    \"\"\"A window built by hand (upstream's PseudoWindow): minute end -> (errors, requests).\"\"\"",
            );
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
            t.line(
                "        yield Row(ctx.get_current_key(), kind, timestamp, ctx.timer_service().current_watermark(),",
            );
            t.line("                  errors, requests)");
        }
    }
    t.blank_lines(2);
}
