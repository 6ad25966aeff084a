//! The course's own aggregates in a PyFlink window job (module 6): `TenantCost` and
//! `LatencySketch` with the `ProcessWindowFunction` that stamps their one result with the window.

use crate::codegen::Text;
use crate::engine::aggregate::CourseAggregate;
use crate::engine::scenario::BaseTrigger;

/// The result row's value fields and their types.
pub(super) fn value_fields(agg: CourseAggregate) -> Vec<(&'static str, &'static str)> {
    match agg {
        CourseAggregate::TenantCost => vec![("usd", "Types.LONG()"), ("requests", "Types.LONG()")],
        CourseAggregate::LatencySketch { .. } => vec![
            ("p50_ms", "Types.LONG()"),
            ("p99_ms", "Types.LONG()"),
            ("n", "Types.LONG()"),
            ("approximate", "Types.BOOLEAN()"),
        ],
    }
}

/// The `.aggregate(..)` call of the window.
pub(super) fn call(agg: CourseAggregate) -> String {
    match agg {
        CourseAggregate::TenantCost => ".aggregate(TenantCost(), window_function=EmitTenantCost(),\n                   accumulator_type=Types.TUPLE([Types.LONG(), Types.LONG()]),\n                   output_type=RESULT_TYPE)".into(),
        CourseAggregate::LatencySketch { k } => format!(
            ".aggregate(LatencySketch({k}), window_function=EmitLatency(),\n                   accumulator_type=Types.PICKLED_BYTE_ARRAY(), output_type=RESULT_TYPE)"
        ),
    }
}

/// The aggregate and its window function; `row` builds the result row from its values.
pub(super) fn aggregate(t: &mut Text, agg: CourseAggregate, window_line: Option<&str>, row: impl Fn(&str) -> String) {
    match agg {
        CourseAggregate::TenantCost => t.lines([
            "class TenantCost(AggregateFunction):",
            "    \"\"\"The course's TenantCost: the window's state is one (usd, requests) accumulator.\"\"\"",
            "",
            "    def create_accumulator(self):",
            "        return 0, 0",
            "",
            "    def add(self, value, accumulator):",
            "        return accumulator[0] + value.value, accumulator[1] + 1",
            "",
            "    def get_result(self, accumulator):",
            "        return accumulator",
            "",
            "    def merge(self, a, b):  # merging session windows",
            "        return a[0] + b[0], a[1] + b[1]",
            "",
            "",
            "class EmitTenantCost(ProcessWindowFunction):",
            "    \"\"\"Emits the window's one (usd, requests) with the key, the window and the watermark.\"\"\"",
            "",
            "    def process(self, key, context, results):",
            "        usd, requests = next(iter(results))  # exactly one",
        ]),
        CourseAggregate::LatencySketch { .. } => t.lines([
            "MASK64 = (1 << 64) - 1",
            "",
            "",
            "def splitmix64(x):",
            "    \"\"\"SplitMix64's output function: the reservoir's one seeded generator.\"\"\"",
            "    z = (x + 0x9E3779B97F4A7C15) & MASK64",
            "    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64",
            "    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64",
            "    return z ^ (z >> 31)",
            "",
            "",
            "class LatencySketch(AggregateFunction):",
            "    \"\"\"The course's LatencySketch: a reservoir of at most K latencies, accumulator (samples, n).",
            "",
            "    The first K are kept; after that the n-th replaces sample j = splitmix64(n) % n when j < K",
            "    (the course draws random.randrange(n); this generator is specified so that every run, and",
            "    Tidemark, gives the same result). Exact while a window holds at most K records.",
            "    \"\"\"",
            "",
            "    def __init__(self, k):",
            "        self.k = k",
            "",
            "    def create_accumulator(self):",
            "        return [], 0",
            "",
            "    def add(self, value, accumulator):",
            "        samples, n = accumulator",
            "        n += 1",
            "        if len(samples) < self.k:",
            "            samples = samples + [value.value]",
            "        else:",
            "            j = splitmix64(n) % n",
            "            if j < self.k:",
            "                samples = samples[:j] + [value.value] + samples[j + 1:]",
            "        return samples, n",
            "",
            "    def get_result(self, accumulator):",
            "        return accumulator",
            "",
            "    def merge(self, a, b):  # merging session windows: the first K of both",
            "        return (a[0] + b[0])[:self.k], a[1] + b[1]",
            "",
            "",
            "class EmitLatency(ProcessWindowFunction):",
            "    \"\"\"p50 and p99 of the window's one sketch: s[int(q * (len(s) - 1))] of the sorted samples.\"\"\"",
            "",
            "    def process(self, key, context, results):",
            "        samples, n = next(iter(results))  # exactly one",
            "        s = sorted(samples)",
            "        p50, p99 = s[int(0.50 * (len(s) - 1))], s[int(0.99 * (len(s) - 1))]",
            "        approximate = n > len(s)  # a reservoir, not every record",
        ]),
    }
    if let Some(w) = window_line {
        t.line(w);
    }
    let values = match agg {
        CourseAggregate::TenantCost => "usd, requests",
        CourseAggregate::LatencySketch { .. } => "p50, p99, n, approximate",
    };
    t.line(format!("        yield {}", row(values)));
    t.blank_lines(2);
}

/// The course's trigger class, when the scenario uses one (followed by two blank lines).
pub(super) fn trigger_class(t: &mut Text, base: BaseTrigger) {
    let (head, tail) = match base {
        BaseTrigger::EarlyCount { .. } => (EARLY_COUNT_HEAD, EARLY_COUNT_TAIL),
        BaseTrigger::SessionMaxDuration { .. } => (SESSION_MAX_DURATION_HEAD, SESSION_MAX_DURATION_TAIL),
        _ => return,
    };
    t.lines(head.iter().chain(TRIGGER_NO_PROCESSING_TIME).chain(tail));
    t.blank_lines(2);
}

const EARLY_COUNT_HEAD: &[&str] = &[
    "class EarlyCountEventTimeTrigger(Trigger):",
    "    \"\"\"The course's early trigger: fire every N elements, then at the watermark (never purges).\"\"\"",
    "",
    "    def __init__(self, n):",
    "        if n <= 0:",
    "            raise ValueError(f\"EarlyCountEventTimeTrigger: n must be > 0, not {n}\")",
    "        self.n = n",
    "        self.count_desc = ReducingStateDescriptor(\"early-count\", lambda a, b: a + b, Types.LONG())",
    "",
    "    def on_element(self, element, timestamp, window, ctx):",
    "        # A late element kept by allowed lateness fires at once; the count is not touched.",
    "        if window.max_timestamp() <= ctx.get_current_watermark():",
    "            return TriggerResult.FIRE",
    "        ctx.register_event_time_timer(window.max_timestamp())",
    "        count = ctx.get_partitioned_state(self.count_desc)",
    "        count.add(1)",
    "        if count.get() >= self.n:",
    "            count.clear()",
    "            return TriggerResult.FIRE",
    "        return TriggerResult.CONTINUE",
    "",
    "    def on_event_time(self, time, window, ctx):",
    "        return TriggerResult.FIRE if time == window.max_timestamp() else TriggerResult.CONTINUE",
    "",
];

const EARLY_COUNT_TAIL: &[&str] = &[
    "    def on_merge(self, window, ctx):",
    "        ctx.merge_partitioned_state(self.count_desc)  # the counts add up",
    "        if window.max_timestamp() > ctx.get_current_watermark():",
    "            ctx.register_event_time_timer(window.max_timestamp())",
    "",
    "    def clear(self, window, ctx):",
    "        ctx.delete_event_time_timer(window.max_timestamp())",
    "        ctx.get_partitioned_state(self.count_desc).clear()",
];

const SESSION_MAX_DURATION_HEAD: &[&str] = &[
    "class SessionMaxDurationTrigger(Trigger):",
    "    \"\"\"The course's capped session: EventTimeTrigger plus FIRE_AND_PURGE at start + max_duration - 1.\"\"\"",
    "",
    "    def __init__(self, max_duration):",
    "        if max_duration <= 0:",
    "            raise ValueError(f\"SessionMaxDurationTrigger: max_duration must be > 0, not {max_duration}\")",
    "        self.max_duration = max_duration",
    "",
    "    def cap(self, window):",
    "        \"\"\"The cap timer of the window, or None if the session ends before its cap.\"\"\"",
    "        c = window.start + self.max_duration - 1",
    "        return c if c < window.max_timestamp() else None",
    "",
    "    def on_element(self, element, timestamp, window, ctx):",
    "        wm = ctx.get_current_watermark()",
    "        if window.max_timestamp() <= wm:",
    "            return TriggerResult.FIRE",
    "        cap = self.cap(window)",
    "        if cap is not None and cap <= wm:",
    "            return TriggerResult.FIRE_AND_PURGE",
    "        ctx.register_event_time_timer(window.max_timestamp())",
    "        if cap is not None:",
    "            ctx.register_event_time_timer(cap)",
    "        return TriggerResult.CONTINUE",
    "",
    "    def on_event_time(self, time, window, ctx):",
    "        if time == self.cap(window):",
    "            return TriggerResult.FIRE_AND_PURGE",
    "        return TriggerResult.FIRE if time == window.max_timestamp() else TriggerResult.CONTINUE",
    "",
];

const SESSION_MAX_DURATION_TAIL: &[&str] = &[
    "    def on_merge(self, window, ctx):",
    "        wm = ctx.get_current_watermark()",
    "        if window.max_timestamp() > wm:",
    "            ctx.register_event_time_timer(window.max_timestamp())",
    "        cap = self.cap(window)",
    "        if cap is not None and cap > wm:",
    "            ctx.register_event_time_timer(cap)",
    "",
    "    def clear(self, window, ctx):",
    "        ctx.delete_event_time_timer(window.max_timestamp())",
    "        cap = self.cap(window)",
    "        if cap is not None:",
    "            ctx.delete_event_time_timer(cap)",
];

/// What both course triggers say about processing time and merging.
const TRIGGER_NO_PROCESSING_TIME: &[&str] = &[
    "    def on_processing_time(self, time, window, ctx):",
    "        return TriggerResult.CONTINUE",
    "",
    "    def can_merge(self):",
    "        return True",
    "",
];
