//! The classes of a window job: the input `Event` (a Flink POJO), the window `Result`, and the
//! window function: a `ProcessWindowFunction` that buffers, or an incremental `AggregateFunction`
//! or `ReduceFunction` followed by `EmitResult`, which stamps the one pre-aggregated value with the
//! key, the window and the watermark.

use super::course;
use crate::codegen::Text;
use crate::engine::scenario::{Scenario, WindowFunctionSpec};

pub(super) fn event_class(t: &mut Text, events: bool, markers: bool) {
    t.line("    /** An input record: a Flink POJO (public fields, a no-argument constructor). */");
    t.line("    public static class Event {");
    t.line("        public long id;");
    t.line("        public String key;");
    t.line("        /** Event time, epoch milliseconds. */");
    t.line("        public long ts;");
    t.line("        public long value;");
    if events {
        t.line("        /** What happened: started, completed, request, error (null: a request). */");
        t.line("        public String eventType;");
    }
    if markers {
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
    if events {
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
    if markers {
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
    if events {
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
fn value_fields(function: WindowFunctionSpec) -> Vec<(&'static str, &'static str)> {
    match function {
        WindowFunctionSpec::Process => vec![("long", "sum"), ("long", "count")],
        WindowFunctionSpec::Sum => vec![("long", "sum")],
        WindowFunctionSpec::Count => vec![("long", "count")],
        WindowFunctionSpec::Avg => vec![("double", "avg")],
        WindowFunctionSpec::Min => vec![("long", "min")],
        WindowFunctionSpec::Max => vec![("long", "max")],
        WindowFunctionSpec::Aggregate(agg) => course::value_fields(agg),
    }
}

pub(super) fn result_class(t: &mut Text, s: &Scenario, window_type: &str) {
    let global = s.assigner.is_global();
    t.line("    /** A window result: the key, the window, the value and the watermark at the firing. */");
    t.line("    public static class Result {");
    t.line("        public String key;");
    if !global {
        t.line("        public long windowStart;");
        t.line("        public long windowEnd;");
    }
    for (ty, name) in value_fields(s.function) {
        t.line(format!("        public {ty} {name};"));
    }
    t.line("        /** ctx.currentWatermark() when the window function ran. */");
    t.line("        public long watermark;");
    t.blank();
    t.line("        public Result() {}");
    t.blank();
    let params: Vec<String> = value_fields(s.function).iter().map(|(ty, n)| format!("{ty} {n}")).collect();
    t.line(format!(
        "        public static Result of(String key, {} window, {}, long watermark) {{",
        window_type,
        params.join(", ")
    ));
    t.line("            Result r = new Result();");
    t.line("            r.key = key;");
    if !global {
        t.line("            r.windowStart = window.getStart();");
        t.line("            r.windowEnd = window.getEnd();");
    }
    for (_, name) in value_fields(s.function) {
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
    for (_, name) in value_fields(s.function) {
        parts.push(format!("\", {name}=\" + {name}"));
    }
    parts.push("\", watermark=\" + watermark + \"}\"".into());
    t.line(format!("            return {};", parts.join(" + ")));
    t.line("        }");
    t.line("    }");
}

pub(super) fn functions(t: &mut Text, function: WindowFunctionSpec, window_type: &str) {
    let w = window_type;
    match function {
        WindowFunctionSpec::Aggregate(agg) => {
            course::aggregate(t, agg, w);
            return;
        }
        WindowFunctionSpec::Process => {
            t.line("    /**");
            t.line("     * A ProcessWindowFunction: Flink buffers every element of the window in state and hands");
            t.line("     * them all over when the window fires.");
            t.line("     */");
            t.line(format!(
                "    public static class SumAndCount extends ProcessWindowFunction<Event, Result, String, {w}> {{"
            ));
            t.line("        @Override");
            t.line(
                "        public void process(String key, Context ctx, Iterable<Event> events, Collector<Result> out) {",
            );
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
            let (name, doc, add) = if function == WindowFunctionSpec::Sum {
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
            t.line(
                "    /** Averages the values as they arrive: the window's state is one (sum, count) accumulator. */",
            );
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
            let (name, doc, op) = if function == WindowFunctionSpec::Min {
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
    let (input, field, expr) = match function {
        WindowFunctionSpec::Sum => ("Long", "sum", "results.iterator().next()"),
        WindowFunctionSpec::Count => ("Long", "count", "results.iterator().next()"),
        WindowFunctionSpec::Avg => ("Double", "avg", "results.iterator().next()"),
        WindowFunctionSpec::Min => ("Event", "min", "results.iterator().next().value"),
        WindowFunctionSpec::Max | WindowFunctionSpec::Process | WindowFunctionSpec::Aggregate(_) => {
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
