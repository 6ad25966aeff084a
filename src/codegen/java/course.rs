//! The course's own classes in a Java window job (module 6): the `TenantCost` and `LatencySketch`
//! aggregates with their `ProcessWindowFunction`s, as `tests/oracle-ext/CourseFunctions.java`
//! runs them.

use crate::codegen::Text;
use crate::engine::aggregate::CourseAggregate;
use crate::engine::scenario::{BaseTrigger, DeltaFn};

/// The `Result` fields of a course aggregate: (Java type, name).
pub(super) fn value_fields(agg: CourseAggregate) -> Vec<(&'static str, &'static str)> {
    match agg {
        CourseAggregate::TenantCost => vec![("long", "usd"), ("long", "requests")],
        CourseAggregate::LatencySketch { .. } => {
            vec![("long", "p50Ms"), ("long", "p99Ms"), ("long", "n"), ("boolean", "approximate")]
        }
    }
}

/// The `.aggregate(..)` call of the window.
pub(super) fn call(agg: CourseAggregate) -> String {
    match agg {
        CourseAggregate::TenantCost => "aggregate(new TenantCost(), new EmitTenantCost())".into(),
        CourseAggregate::LatencySketch { k } => format!("aggregate(new LatencySketch({k}), new EmitLatency())"),
    }
}

/// The aggregate and the `ProcessWindowFunction` that stamps its one result with the window.
pub(super) fn aggregate(t: &mut Text, agg: CourseAggregate, w: &str) {
    match agg {
        CourseAggregate::TenantCost => tenant_cost(t, w),
        CourseAggregate::LatencySketch { .. } => latency_sketch(t, w),
    }
}

fn tenant_cost(t: &mut Text, w: &str) {
    t.lines([
        "    /**",
        "     * The course's TenantCost: the window's state is one (usd, requests) accumulator, not the",
        "     * records (a bare ProcessWindowFunction would hold every one of them).",
        "     */",
        "    public static class TenantCost implements AggregateFunction<Event, Tuple2<Long, Long>, Tuple2<Long, Long>> {",
        "        @Override",
        "        public Tuple2<Long, Long> createAccumulator() {",
        "            return Tuple2.of(0L, 0L);",
        "        }",
        "",
        "        @Override",
        "        public Tuple2<Long, Long> add(Event event, Tuple2<Long, Long> acc) {",
        "            return Tuple2.of(acc.f0 + event.value, acc.f1 + 1);",
        "        }",
        "",
        "        @Override",
        "        public Tuple2<Long, Long> getResult(Tuple2<Long, Long> acc) {",
        "            return acc;",
        "        }",
        "",
        "        @Override",
        "        public Tuple2<Long, Long> merge(Tuple2<Long, Long> a, Tuple2<Long, Long> b) { // merging session windows",
        "            return Tuple2.of(a.f0 + b.f0, a.f1 + b.f1);",
        "        }",
        "    }",
        "",
    ]);
    t.line("    /** Emits the window's one (usd, requests) with the key, the window and the watermark. */");
    t.line(format!(
        "    public static class EmitTenantCost extends ProcessWindowFunction<Tuple2<Long, Long>, Result, String, {w}> {{"
    ));
    t.lines([
        "        @Override",
        "        public void process(String key, Context ctx, Iterable<Tuple2<Long, Long>> results, Collector<Result> out) {",
        "            Tuple2<Long, Long> acc = results.iterator().next(); // exactly one",
        "            out.collect(Result.of(key, ctx.window(), acc.f0, acc.f1, ctx.currentWatermark()));",
        "        }",
        "    }",
    ]);
}

fn latency_sketch(t: &mut Text, w: &str) {
    t.lines([
        "    /** LatencySketch's accumulator: the course's (samples, n). */",
        "    public static class Sketch {",
        "        public ArrayList<Long> samples = new ArrayList<>();",
        "        public long n;",
        "",
        "        public Sketch() {}",
        "    }",
        "",
        "    /**",
        "     * The course's LatencySketch (ModelLatencyWindow): a reservoir of at most K latencies. The",
        "     * first K are kept; after that the n-th replaces sample j = splitmix64(n) mod n when j < K",
        "     * (the course draws random.randrange(n); this generator is specified so that every run, and",
        "     * Tidemark, gives the same result). Exact while a window holds at most K records.",
        "     */",
        "    public static class LatencySketch implements AggregateFunction<Event, Sketch, Sketch> {",
        "        private final int k;",
        "",
        "        public LatencySketch(int k) {",
        "            this.k = k;",
        "        }",
        "",
        "        /** SplitMix64's output function: the reservoir's one seeded generator. */",
        "        static long splitmix64(long x) {",
        "            long z = x + 0x9E3779B97F4A7C15L;",
        "            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;",
        "            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;",
        "            return z ^ (z >>> 31);",
        "        }",
        "",
        "        @Override",
        "        public Sketch createAccumulator() {",
        "            return new Sketch();",
        "        }",
        "",
        "        @Override",
        "        public Sketch add(Event event, Sketch acc) {",
        "            acc.n += 1;",
        "            if (acc.samples.size() < k) {",
        "                acc.samples.add(event.value);",
        "            } else {",
        "                long j = Long.remainderUnsigned(splitmix64(acc.n), acc.n);",
        "                if (j < k) acc.samples.set((int) j, event.value);",
        "            }",
        "            return acc;",
        "        }",
        "",
        "        @Override",
        "        public Sketch getResult(Sketch acc) {",
        "            return acc;",
        "        }",
        "",
        "        @Override",
        "        public Sketch merge(Sketch a, Sketch b) { // merging session windows: the first K of both",
        "            Sketch r = new Sketch();",
        "            r.samples.addAll(a.samples);",
        "            r.samples.addAll(b.samples);",
        "            while (r.samples.size() > k) r.samples.remove(r.samples.size() - 1);",
        "            r.n = a.n + b.n;",
        "            return r;",
        "        }",
        "    }",
        "",
        "    /** p50 and p99 of the window's one sketch: s[int(q * (len - 1))] of the sorted samples. */",
    ]);
    t.line(format!(
        "    public static class EmitLatency extends ProcessWindowFunction<Sketch, Result, String, {w}> {{"
    ));
    t.lines([
        "        @Override",
        "        public void process(String key, Context ctx, Iterable<Sketch> results, Collector<Result> out) {",
        "            Sketch acc = results.iterator().next(); // exactly one",
        "            List<Long> s = new ArrayList<>(acc.samples);",
        "            s.sort(null);",
        "            long p50 = s.get((int) (0.50 * (s.size() - 1)));",
        "            long p99 = s.get((int) (0.99 * (s.size() - 1)));",
        "            boolean approximate = acc.n > s.size(); // a reservoir, not every record",
        "            out.collect(Result.of(key, ctx.window(), p50, p99, acc.n, approximate, ctx.currentWatermark()));",
        "        }",
        "    }",
    ]);
}

/// `DeltaEvictor.of(threshold, deltaFunction[, doEvictAfter])`.
pub(super) fn delta_evictor(threshold: f64, delta: DeltaFn, after: bool) -> String {
    let class = delta_class(delta);
    if after {
        format!("DeltaEvictor.of({threshold:?}, new {class}(), true)")
    } else {
        format!("DeltaEvictor.of({threshold:?}, new {class}())")
    }
}

fn delta_class(delta: DeltaFn) -> &'static str {
    match delta {
        DeltaFn::Value => "ValueDelta",
        DeltaFn::Ts => "TsDelta",
    }
}

/// The `DeltaFunction` the `DeltaEvictor` measures with.
pub(super) fn delta_function(t: &mut Text, delta: DeltaFn) {
    let field = delta.name();
    t.line(format!(
        "    /** DeltaEvictor's distance: |a.{field} - b.{field}| as a double; the reference is the last element. */"
    ));
    t.line(format!("    public static class {} implements DeltaFunction<Event> {{", delta_class(delta)));
    t.line("        @Override");
    t.line("        public double getDelta(Event a, Event b) {");
    t.line(format!("            return Math.abs((double) a.{field} - (double) b.{field});"));
    t.line("        }");
    t.line("    }");
}

/// The course's trigger class, when the scenario uses one (after a blank line).
pub(super) fn trigger_class(t: &mut Text, base: BaseTrigger) {
    match base {
        BaseTrigger::EarlyCount { .. } => {
            t.blank();
            t.lines(EARLY_COUNT_HEAD.iter().chain(TRIGGER_NO_PROCESSING_TIME).chain(EARLY_COUNT_TAIL));
        }
        BaseTrigger::SessionMaxDuration { .. } => {
            t.blank();
            t.lines(
                SESSION_MAX_DURATION_HEAD.iter().chain(TRIGGER_NO_PROCESSING_TIME).chain(SESSION_MAX_DURATION_TAIL),
            );
        }
        _ => {}
    }
}

const EARLY_COUNT_HEAD: &[&str] = &[
    "    /**",
    "     * The course's early trigger, \"fire every N elements, then at the watermark\": CountTrigger's",
    "     * counting and EventTimeTrigger's end-of-window timer in one class. Never purges, so each early",
    "     * firing is a running total.",
    "     */",
    "    public static class EarlyCountEventTimeTrigger extends Trigger<Object, TimeWindow> {",
    "        private final long n;",
    "        private final ReducingStateDescriptor<Long> countDesc =",
    "                new ReducingStateDescriptor<>(\"early-count\", (a, b) -> a + b, Types.LONG);",
    "",
    "        public EarlyCountEventTimeTrigger(long n) {",
    "            if (n <= 0) throw new IllegalArgumentException(\"EarlyCountEventTimeTrigger: n must be > 0, not \" + n);",
    "            this.n = n;",
    "        }",
    "",
    "        @Override",
    "        public TriggerResult onElement(Object element, long timestamp, TimeWindow window, TriggerContext ctx) throws Exception {",
    "            // A late element kept by allowed lateness fires at once; the count is not touched.",
    "            if (window.maxTimestamp() <= ctx.getCurrentWatermark()) return TriggerResult.FIRE;",
    "            ctx.registerEventTimeTimer(window.maxTimestamp());",
    "            ReducingState<Long> count = ctx.getPartitionedState(countDesc);",
    "            count.add(1L);",
    "            if (count.get() >= n) {",
    "                count.clear();",
    "                return TriggerResult.FIRE;",
    "            }",
    "            return TriggerResult.CONTINUE;",
    "        }",
    "",
    "        @Override",
    "        public TriggerResult onEventTime(long time, TimeWindow window, TriggerContext ctx) {",
    "            return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;",
    "        }",
    "",
];

const EARLY_COUNT_TAIL: &[&str] = &[
    "        @Override",
    "        public void onMerge(TimeWindow window, OnMergeContext ctx) throws Exception {",
    "            ctx.mergePartitionedState(countDesc); // the counts add up",
    "            if (window.maxTimestamp() > ctx.getCurrentWatermark()) ctx.registerEventTimeTimer(window.maxTimestamp());",
    "        }",
    "",
    "        @Override",
    "        public void clear(TimeWindow window, TriggerContext ctx) throws Exception {",
    "            ctx.deleteEventTimeTimer(window.maxTimestamp());",
    "            ctx.getPartitionedState(countDesc).clear();",
    "        }",
    "    }",
];

const SESSION_MAX_DURATION_HEAD: &[&str] = &[
    "    /**",
    "     * The course's capped session: EventTimeTrigger plus a timer at start + maxDuration - 1 that",
    "     * fires and purges. A purged session stays one window: later elements still merge into it.",
    "     */",
    "    public static class SessionMaxDurationTrigger extends Trigger<Object, TimeWindow> {",
    "        private final long maxDuration;",
    "",
    "        public SessionMaxDurationTrigger(long maxDuration) {",
    "            if (maxDuration <= 0) throw new IllegalArgumentException(\"SessionMaxDurationTrigger: max_duration must be > 0, not \" + maxDuration);",
    "            this.maxDuration = maxDuration;",
    "        }",
    "",
    "        /** The cap timer of the window, or Long.MIN_VALUE if the session ends before its cap. */",
    "        long cap(TimeWindow w) {",
    "            long c = w.getStart() + maxDuration - 1;",
    "            return (c < w.getStart() || c >= w.maxTimestamp()) ? Long.MIN_VALUE : c;",
    "        }",
    "",
    "        @Override",
    "        public TriggerResult onElement(Object element, long timestamp, TimeWindow window, TriggerContext ctx) {",
    "            long wm = ctx.getCurrentWatermark();",
    "            if (window.maxTimestamp() <= wm) return TriggerResult.FIRE;",
    "            long cap = cap(window);",
    "            if (cap != Long.MIN_VALUE && cap <= wm) return TriggerResult.FIRE_AND_PURGE;",
    "            ctx.registerEventTimeTimer(window.maxTimestamp());",
    "            if (cap != Long.MIN_VALUE) ctx.registerEventTimeTimer(cap);",
    "            return TriggerResult.CONTINUE;",
    "        }",
    "",
    "        @Override",
    "        public TriggerResult onEventTime(long time, TimeWindow window, TriggerContext ctx) {",
    "            long cap = cap(window);",
    "            if (cap != Long.MIN_VALUE && time == cap) return TriggerResult.FIRE_AND_PURGE;",
    "            return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;",
    "        }",
    "",
];

const SESSION_MAX_DURATION_TAIL: &[&str] = &[
    "        @Override",
    "        public void onMerge(TimeWindow window, OnMergeContext ctx) {",
    "            long wm = ctx.getCurrentWatermark();",
    "            if (window.maxTimestamp() > wm) ctx.registerEventTimeTimer(window.maxTimestamp());",
    "            long cap = cap(window);",
    "            if (cap != Long.MIN_VALUE && cap > wm) ctx.registerEventTimeTimer(cap);",
    "        }",
    "",
    "        @Override",
    "        public void clear(TimeWindow window, TriggerContext ctx) {",
    "            ctx.deleteEventTimeTimer(window.maxTimestamp());",
    "            long cap = cap(window);",
    "            if (cap != Long.MIN_VALUE) ctx.deleteEventTimeTimer(cap);",
    "        }",
    "    }",
];

/// What both course triggers say about processing time and merging.
const TRIGGER_NO_PROCESSING_TIME: &[&str] = &[
    "        @Override",
    "        public TriggerResult onProcessingTime(long time, TimeWindow window, TriggerContext ctx) {",
    "            return TriggerResult.CONTINUE;",
    "        }",
    "",
    "        @Override",
    "        public boolean canMerge() {",
    "            return true;",
    "        }",
    "",
];
