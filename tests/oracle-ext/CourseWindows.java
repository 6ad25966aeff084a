// DataStream window jobs that the window oracle (../../shared/flink-oracle, fixed) cannot run, and
// the checkpoint / crash / restore runs. Called by OracleExt.run for every scenario with an
// "assigner" or with "checkpoint" / "crash" items; see README.md ("Course window jobs", "A
// TaskManager dies").
//
// The job has the window oracle's shape and output lines (fire / late, same fields, same order),
// with one difference that does not change what Flink computes: the source is ScriptSource (a
// checkpointed FLIP-27 source) and the stream is reinterpreted as keyed (DataStreamUtils) instead of
// shuffled by keyBy, so that the whole job is one chain in one task; parallelism 1, all key groups in
// that one subtask, as with keyBy. `parity` checks that this shape reproduces every window-oracle
// golden byte for byte.
//
//   ScriptSource(positions) -> map(position -> item) -> assignTimestampsAndWatermarks(the oracle's
//   generator) -> filter(not marker) [-> DropMaxWatermark] -> reinterpretAsKeyedStream(key)
//   -> window(assigner).trigger(Trace(..)).evictor(..).allowedLateness(..).sideOutputLateData(tag)
//   -> process(RecordingPWF) | aggregate(course aggregate, RecordingAggregatePWF) -> record

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.datastream.WindowedStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.GlobalWindows;
import org.apache.flink.streaming.api.windowing.assigners.MergingWindowAssigner;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.evictors.CountEvictor;
import org.apache.flink.streaming.api.windowing.evictors.DeltaEvictor;
import org.apache.flink.streaming.api.windowing.evictors.Evictor;
import org.apache.flink.streaming.api.windowing.evictors.TimeEvictor;
import org.apache.flink.streaming.api.windowing.triggers.ContinuousEventTimeTrigger;
import org.apache.flink.streaming.api.windowing.triggers.CountTrigger;
import org.apache.flink.streaming.api.windowing.triggers.EventTimeTrigger;
import org.apache.flink.streaming.api.windowing.triggers.PurgingTrigger;
import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.triggers.TriggerResult;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.api.windowing.windows.Window;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

public class CourseWindows {

    // ------------------------------------------------------------- recording

    /** Output lines in emission order, each with the thread that recorded it. */
    static final List<String[]> OUT = Collections.synchronizedList(new ArrayList<>());
    static volatile String HARNESS_ERROR = null;
    static final String HARNESS_THREAD = "harness";

    static void record(String line) {
        OUT.add(new String[] {Thread.currentThread().getName(), line});
    }

    static void recordFromHarness(String line) {
        OUT.add(new String[] {HARNESS_THREAD, line});
    }

    static void harnessError(String m) {
        if (HARNESS_ERROR == null) HARNESS_ERROR = m;
    }

    public static class Record implements MapFunction<String, String> {
        @Override
        public String map(String s) {
            record(s);
            return s;
        }
    }

    static String json(ObjectNode o) {
        return OracleExt.json(o);
    }

    static String checkpointLine(long id, long pos) {
        ObjectNode o = OracleExt.MAPPER.createObjectNode();
        o.put("out", "checkpoint");
        o.put("checkpoint", id);
        o.put("item", pos);
        return json(o);
    }

    static String crashLine(long pos) {
        ObjectNode o = OracleExt.MAPPER.createObjectNode();
        o.put("out", "crash");
        o.put("item", pos);
        return json(o);
    }

    static String restoreLine(Long checkpoint, long from) {
        ObjectNode o = OracleExt.MAPPER.createObjectNode();
        o.put("out", "restore");
        if (checkpoint == null) o.putNull("checkpoint");
        else o.put("checkpoint", checkpoint);
        o.put("from_item", from);
        return json(o);
    }

    // ------------------------------------------------------- trigger trace

    /** What made the window operator call the window function (the oracle's "cause"). */
    static final class Cause {
        static volatile String kind = "untraced";
        static volatile long id;
        static volatile long time;

        static ObjectNode toJson() {
            ObjectNode c = OracleExt.MAPPER.createObjectNode();
            c.put("kind", kind);
            if (kind.equals("element")) c.put("id", id);
            else if (kind.equals("timer") || kind.equals("ptimer")) c.put("time", time);
            return c;
        }
    }

    /** Pure delegation; only records which callback is running (as the window oracle's TraceTrigger). */
    public static class TraceTrigger<W extends Window> extends Trigger<Object, W> {
        final Trigger<Object, W> inner;

        TraceTrigger(Trigger<Object, W> inner) {
            this.inner = inner;
        }

        @Override
        public TriggerResult onElement(Object element, long timestamp, W window, TriggerContext ctx) throws Exception {
            Cause.kind = "element";
            Cause.id = ((OracleExt.Item) element).id;
            return inner.onElement(element, timestamp, window, ctx);
        }

        @Override
        public TriggerResult onProcessingTime(long time, W window, TriggerContext ctx) throws Exception {
            Cause.kind = "ptimer";
            Cause.time = time;
            return inner.onProcessingTime(time, window, ctx);
        }

        @Override
        public TriggerResult onEventTime(long time, W window, TriggerContext ctx) throws Exception {
            Cause.kind = "timer";
            Cause.time = time;
            return inner.onEventTime(time, window, ctx);
        }

        @Override
        public boolean canMerge() {
            return inner.canMerge();
        }

        @Override
        public void onMerge(W window, OnMergeContext ctx) throws Exception {
            inner.onMerge(window, ctx);
        }

        @Override
        public void clear(W window, TriggerContext ctx) throws Exception {
            inner.clear(window, ctx);
        }

        @Override
        public String toString() {
            return "Trace(" + inner + ")";
        }
    }

    // ------------------------------------------------------ window functions

    /**
     * The window oracle's recording ProcessWindowFunction (same firing counter "n": windowState() for
     * non-merging assigners; for sessions a per-key MapState "start:end" where a merged window
     * inherits the largest counter of the windows it contains), over any input type.
     */
    public abstract static class RecordingFn<IN> extends ProcessWindowFunction<IN, String, String, Window> {
        static final ValueStateDescriptor<Long> FIRINGS = new ValueStateDescriptor<>("firings", Types.LONG);
        static final MapStateDescriptor<String, Long> MERGING_FIRINGS = new MapStateDescriptor<>("merging-firings", Types.STRING, Types.LONG);
        final boolean merging;

        RecordingFn(boolean merging) {
            this.merging = merging;
        }

        static boolean contained(String k, TimeWindow w) {
            int c = k.indexOf(':');
            return Long.parseLong(k.substring(0, c)) >= w.getStart() && Long.parseLong(k.substring(c + 1)) <= w.getEnd();
        }

        long nextFiring(Context ctx) throws Exception {
            if (!merging) {
                ValueState<Long> st = ctx.windowState().getState(FIRINGS);
                long n = st.value() == null ? 0L : st.value();
                st.update(n + 1);
                return n;
            }
            TimeWindow w = (TimeWindow) ctx.window();
            MapState<String, Long> m = ctx.globalState().getMapState(MERGING_FIRINGS);
            long n = 0;
            List<String> absorbed = new ArrayList<>();
            for (java.util.Map.Entry<String, Long> e : m.entries()) {
                if (contained(e.getKey(), w)) {
                    n = Math.max(n, e.getValue());
                    absorbed.add(e.getKey());
                }
            }
            for (String k : absorbed) m.remove(k);
            m.put(w.getStart() + ":" + w.getEnd(), n + 1);
            return n;
        }

        void emit(String key, Context ctx, List<Long> ids, long sum, long count, String result, Collector<String> out) throws Exception {
            long n = nextFiring(ctx);
            Collections.sort(ids);
            ObjectNode o = OracleExt.MAPPER.createObjectNode();
            o.put("out", "fire");
            o.put("key", key);
            Window w = ctx.window();
            if (w instanceof TimeWindow) {
                o.put("start", ((TimeWindow) w).getStart());
                o.put("end", ((TimeWindow) w).getEnd());
            } else {
                o.putNull("start");
                o.putNull("end");
            }
            ArrayNode a = o.putArray("ids");
            for (Long id : ids) a.add(id);
            o.put("sum", sum);
            o.put("count", count);
            o.put("firing", n == 0 ? "main" : "late");
            o.put("n", n);
            o.put("wm", ctx.currentWatermark());
            o.set("cause", Cause.toJson());
            if (result != null) o.set("result", OracleExt.MAPPER.readTree(result));
            out.collect(json(o));
        }

        @Override
        public void clear(Context ctx) throws Exception {
            if (!merging) {
                ctx.windowState().getState(FIRINGS).clear();
                return;
            }
            TimeWindow w = (TimeWindow) ctx.window();
            MapState<String, Long> m = ctx.globalState().getMapState(MERGING_FIRINGS);
            List<String> gone = new ArrayList<>();
            for (String k : m.keys()) if (contained(k, w)) gone.add(k);
            for (String k : gone) m.remove(k);
        }
    }

    /** ProcessWindowFunction over the buffered elements (the window oracle's). */
    public static class RecordingPWF extends RecordingFn<OracleExt.Item> {
        RecordingPWF(boolean merging) {
            super(merging);
        }

        @Override
        public void process(String key, Context ctx, Iterable<OracleExt.Item> elements, Collector<String> out) throws Exception {
            List<Long> ids = new ArrayList<>();
            long sum = 0, count = 0;
            for (OracleExt.Item it : elements) {
                ids.add(it.id);
                sum += it.value;
                count++;
            }
            emit(key, ctx, ids, sum, count, null, out);
        }
    }

    /** The ProcessWindowFunction of aggregate(agg, pwf): gets exactly one value, the aggregate's result. */
    public static class RecordingAggregatePWF extends RecordingFn<CourseFunctions.AggOut> {
        RecordingAggregatePWF(boolean merging) {
            super(merging);
        }

        @Override
        public void process(String key, Context ctx, Iterable<CourseFunctions.AggOut> results, Collector<String> out) throws Exception {
            java.util.Iterator<CourseFunctions.AggOut> it = results.iterator();
            CourseFunctions.AggOut r = it.next();
            if (it.hasNext()) throw new IllegalStateException("aggregate(agg, pwf) handed more than one value to the ProcessWindowFunction");
            emit(key, ctx, new ArrayList<>(r.trace.ids), r.trace.sum, r.trace.count, r.result, out);
        }
    }

    public static class LateToJson implements MapFunction<OracleExt.Item, String> {
        @Override
        public String map(OracleExt.Item it) {
            ObjectNode o = OracleExt.MAPPER.createObjectNode();
            o.put("out", "late");
            o.put("id", it.id);
            o.put("key", it.key);
            o.put("ts", it.ts);
            ObjectNode c = OracleExt.MAPPER.createObjectNode();
            c.put("kind", "element");
            c.put("id", it.id);
            o.set("cause", c);
            return json(o);
        }
    }

    // ------------------------------------------------------------- parsing

    static OracleExt.ScenarioError bad(String m) {
        return new OracleExt.ScenarioError(m);
    }

    /** True if this harness runs the scenario (OracleExt.run hands it over). */
    static boolean handles(JsonNode sc) {
        if (sc.has("assigner") && !sc.get("assigner").isNull()) return true;
        JsonNode in = sc.get("input");
        if (in != null && in.isArray()) for (JsonNode n : in) if (n.has("checkpoint") || n.has("crash")) return true;
        return false;
    }

    /** The input: kinds per position (ScriptSource) and the items (null at checkpoint / crash). */
    static final class Script {
        final List<OracleExt.Item> items = new ArrayList<>();
        final List<Integer> kinds = new ArrayList<>();
        int crashes;
        int checkpoints;

        int[] kindArray() {
            int[] k = new int[kinds.size()];
            for (int i = 0; i < k.length; i++) k[i] = kinds.get(i);
            return k;
        }
    }

    static boolean flag(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isBoolean() || !v.asBoolean()) throw bad("'" + field + "' must be true: " + n);
        if (n.size() != 1 && !(n.size() == 2 && n.has("arrival"))) throw bad("a '" + field + "' item takes no other field than 'arrival': " + n);
        return true;
    }

    static Script script(JsonNode input) {
        if (input == null || !input.isArray()) throw bad("'input' must be an array");
        Script s = new Script();
        long prevArrival = Long.MIN_VALUE;
        for (JsonNode n : input) {
            long arrival = OracleExt.num(n, "arrival", prevArrival == Long.MIN_VALUE ? 0L : prevArrival + 100);
            if (prevArrival != Long.MIN_VALUE && arrival < prevArrival) throw bad("'arrival' must not decrease: " + n);
            prevArrival = arrival;
            if (n.has("checkpoint")) {
                flag(n, "checkpoint");
                s.kinds.add(ScriptSource.CHECKPOINT);
                s.items.add(null);
                s.checkpoints++;
                continue;
            }
            if (n.has("crash")) {
                flag(n, "crash");
                s.kinds.add(ScriptSource.CRASH);
                s.items.add(null);
                s.crashes++;
                continue;
            }
            if (OracleExt.num(n, "partition", 0L) != 0) throw bad("source partitions are not supported in window / crash jobs: " + n);
            OracleExt.Item it = new OracleExt.Item();
            if (n.has("wm")) {
                it.marker = true;
                it.wm = OracleExt.num(n, "wm", null);
            } else {
                it.id = OracleExt.num(n, "id", null);
                if (!n.has("key") || !n.get("key").isValueNode()) throw bad("element without scalar 'key': " + n);
                it.key = n.get("key").asText();
                if (it.key.equals(OracleExt.MARKER_KEY)) throw bad("reserved key: " + n);
                it.ts = OracleExt.num(n, "ts", null);
                it.value = OracleExt.num(n, "value", 1L);
                it.event = OracleExt.str(n, "event", "");
            }
            it.arrival = arrival;
            s.kinds.add(ScriptSource.ITEM);
            s.items.add(it);
        }
        if (s.items.isEmpty()) throw bad("'input' is empty");
        return s;
    }

    /** {kind, bound}: explicit | bounded_out_of_orderness | monotonous, per-event emission only. */
    static Object[] watermarks(JsonNode sc) {
        JsonNode w = sc.get("watermarks");
        String kind = OracleExt.kind(w, "explicit");
        Long bound = null;
        switch (kind) {
            case "explicit": case "monotonous": break;
            case "bounded_out_of_orderness": bound = OracleExt.num(w, "bound", null); break;
            default: throw bad("unknown watermarks kind " + kind);
        }
        if (w != null && ((w.has("emit") && !w.get("emit").asText().equals("per_event")) || (w.has("idleness") && !w.get("idleness").isNull()))) {
            throw bad("window / crash jobs use per-event watermarks without idleness (the window oracle's generation)");
        }
        if (sc.has("partitions") && OracleExt.num(sc, "partitions", 1L) != 1) throw bad("window / crash jobs have one source partition");
        return new Object[] {kind, bound};
    }

    @SuppressWarnings({"rawtypes"})
    static WindowAssigner assigner(JsonNode a) {
        switch (OracleExt.kind(a, null)) {
            case "tumbling":
                return TumblingEventTimeWindows.of(Duration.ofMillis(OracleExt.num(a, "size", null)), Duration.ofMillis(OracleExt.num(a, "offset", 0L)));
            case "sliding":
                return SlidingEventTimeWindows.of(Duration.ofMillis(OracleExt.num(a, "size", null)), Duration.ofMillis(OracleExt.num(a, "slide", null)),
                        Duration.ofMillis(OracleExt.num(a, "offset", 0L)));
            case "session":
                return EventTimeSessionWindows.withGap(Duration.ofMillis(OracleExt.num(a, "gap", null)));
            case "global":
                return GlobalWindows.create();
            case "global_eos":
                return GlobalWindows.createWithEndOfStreamTrigger();
            default:
                throw bad("unknown assigner " + a);
        }
    }

    /** Null for "default" (the assigner's own trigger). */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static Trigger trigger(JsonNode t) {
        switch (OracleExt.kind(t, "default")) {
            case "default": return null;
            case "event_time": return EventTimeTrigger.create();
            case "purging_event_time": return PurgingTrigger.of(EventTimeTrigger.create());
            case "count": return CountTrigger.of(OracleExt.num(t, "n", null));
            case "purging_count": return PurgingTrigger.of(CountTrigger.of(OracleExt.num(t, "n", null)));
            case "continuous_event_time": return ContinuousEventTimeTrigger.of(Duration.ofMillis(OracleExt.num(t, "interval", null)));
            case "purging_continuous_event_time": return PurgingTrigger.of(ContinuousEventTimeTrigger.of(Duration.ofMillis(OracleExt.num(t, "interval", null))));
            case "early_count_event_time": return new CourseFunctions.EarlyCountEventTimeTrigger(OracleExt.num(t, "n", null));
            case "purging_early_count_event_time": return PurgingTrigger.of(new CourseFunctions.EarlyCountEventTimeTrigger(OracleExt.num(t, "n", null)));
            case "session_max_duration": return new CourseFunctions.SessionMaxDurationTrigger(OracleExt.num(t, "max_duration", null));
            default: throw bad("unknown trigger " + t);
        }
    }

    static double number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isNumber()) throw bad("field '" + field + "' must be a number: " + n);
        return v.asDouble();
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static Evictor evictor(JsonNode e) {
        String k = OracleExt.kind(e, "none");
        boolean hasAfter = e != null && e.has("do_evict_after");
        boolean after = hasAfter && e.get("do_evict_after").asBoolean();
        switch (k) {
            case "none": return null;
            case "count":
                return hasAfter ? CountEvictor.of(OracleExt.num(e, "n", null), after) : CountEvictor.of(OracleExt.num(e, "n", null));
            case "time":
                return hasAfter ? TimeEvictor.of(Duration.ofMillis(OracleExt.num(e, "size", null)), after) : TimeEvictor.of(Duration.ofMillis(OracleExt.num(e, "size", null)));
            case "delta": {
                double threshold = number(e, "threshold");
                String d = OracleExt.str(e, "delta", "value");
                org.apache.flink.streaming.api.functions.windowing.delta.DeltaFunction<OracleExt.Item> f;
                if (d.equals("value")) f = new CourseFunctions.ValueDelta();
                else if (d.equals("ts")) f = new CourseFunctions.TsDelta();
                else throw bad("evictor.delta must be \"value\" or \"ts\": " + e);
                return hasAfter ? DeltaEvictor.of(threshold, f, after) : DeltaEvictor.of(threshold, f);
            }
            default: throw bad("unknown evictor " + e);
        }
    }

    /** The course aggregate of "function": {"kind": "aggregate", ..}, or null (buffering ProcessWindowFunction). */
    @SuppressWarnings({"rawtypes"})
    static Object[] aggregate(JsonNode f) {
        if (f == null || f.isNull() || f.isTextual()) return null; // "process", "sum", ...: labels, the oracle's buffering PWF
        if (!OracleExt.kind(f, null).equals("aggregate")) return null;
        String name = OracleExt.str(f, "aggregate", null);
        switch (name) {
            case "tenant_cost":
                return new Object[] {new CourseFunctions.TenantCost(), TypeInformation.of(CourseFunctions.TenantCostAcc.class)};
            case "latency_sketch": {
                long k = OracleExt.num(f, "k", 1000L);
                if (k <= 0 || k > 1_000_000) throw bad("function.k must be in 1..1000000");
                return new Object[] {new CourseFunctions.LatencySketch((int) k), TypeInformation.of(CourseFunctions.LatencySketchAcc.class)};
            }
            default:
                throw bad("unknown aggregate '" + name + "' (expected tenant_cost or latency_sketch)");
        }
    }

    // ------------------------------------------------------------ building

    static Configuration config(Script s) {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_PORT, "0");
        conf.setString("state.backend.type", OracleExt.ManualTtlClockBackendFactory.class.getName());
        if (s.crashes > 0) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, s.crashes);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ZERO);
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        if (s.checkpoints > 0 || s.crashes > 0) {
            // Checkpoints are triggered by the harness at the scenario's checkpoint items only: the
            // periodic trigger is an hour away (initial delay = min pause = interval).
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofHours(1));
            conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ofHours(1));
        }
        return conf;
    }

    public static class PositionToItem implements MapFunction<Long, OracleExt.Item> {
        @Override
        public OracleExt.Item map(Long pos) {
            OracleExt.Item src = ITEMS.get((int) (long) pos);
            OracleExt.Item c = new OracleExt.Item();
            c.id = src.id; c.key = src.key; c.ts = src.ts; c.value = src.value; c.event = src.event;
            c.marker = src.marker; c.wm = src.wm; c.arrival = src.arrival;
            return c;
        }
    }

    static volatile List<OracleExt.Item> ITEMS = new ArrayList<>();

    static DataStream<OracleExt.Item> source(StreamExecutionEnvironment env, JsonNode sc, Script s, boolean keepMarkers) {
        Object[] wm = watermarks(sc);
        boolean endOfInput = !sc.has("end_of_input") || sc.get("end_of_input").asBoolean();
        TypeInformation<OracleExt.Item> itemType = TypeInformation.of(OracleExt.Item.class);
        WatermarkStrategy<OracleExt.Item> strategy = WatermarkStrategy.<OracleExt.Item>forGenerator(
                new OracleExt.GenSupplier((String) wm[0], (Long) wm[1], true)).withTimestampAssigner(new OracleExt.TsAssigner());
        DataStream<OracleExt.Item> d = env.fromSource(new ScriptSource(s.kinds.size()), WatermarkStrategy.noWatermarks(), "script", Types.LONG)
                .map(new PositionToItem()).returns(itemType).name("item")
                .assignTimestampsAndWatermarks(strategy);
        if (!keepMarkers) d = d.filter(i -> !i.marker).name("not-marker");
        boolean explicitMax = s.items.stream().anyMatch(i -> i != null && i.marker && i.wm == Long.MAX_VALUE);
        if (!endOfInput && !explicitMax) d = d.transform("DropMaxWatermark", itemType, new OracleExt.DropMaxWatermark());
        return d;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static void buildWindow(StreamExecutionEnvironment env, JsonNode sc, Script s) {
        KeyedStream<OracleExt.Item, String> keyed = DataStreamUtils.reinterpretAsKeyedStream(source(env, sc, s, false), new OracleExt.KeyOf(), Types.STRING);
        WindowAssigner wa = assigner(sc.get("assigner"));
        WindowedStream ws = keyed.window(wa);
        Trigger tr = trigger(sc.get("trigger"));
        boolean eos = sc.get("assigner").get("kind").asText().equals("global_eos");
        if (tr == null && !eos) tr = wa.getDefaultTrigger();
        if (tr != null) ws = ws.trigger(new TraceTrigger(tr));
        else Cause.kind = "untraced";
        Evictor ev = evictor(sc.get("evictor"));
        if (ev != null) ws = ws.evictor(ev);
        if (sc.has("allowed_lateness") && !sc.get("allowed_lateness").isNull()) ws = ws.allowedLateness(Duration.ofMillis(OracleExt.num(sc, "allowed_lateness", null)));
        boolean sideOutput = !sc.has("side_output") || sc.get("side_output").asBoolean();
        TypeInformation<OracleExt.Item> itemType = TypeInformation.of(OracleExt.Item.class);
        OutputTag<OracleExt.Item> lateTag = new OutputTag<>("late", itemType);
        if (sideOutput) ws = ws.sideOutputLateData(lateTag);
        boolean merging = wa instanceof MergingWindowAssigner;
        Object[] agg = aggregate(sc.get("function"));
        SingleOutputStreamOperator<String> fired = agg == null
                ? ws.process(new RecordingPWF(merging), Types.STRING)
                : ws.aggregate((AggregateFunction) agg[0], new RecordingAggregatePWF(merging), (TypeInformation) agg[1],
                        TypeInformation.of(CourseFunctions.AggOut.class), Types.STRING);
        fired.map(new Record()).name("record-fire").sinkTo(new DiscardingSink<>());
        if (sideOutput) fired.getSideOutput(lateTag).map(new LateToJson()).name("late-json").map(new Record()).name("record-late").sinkTo(new DiscardingSink<>());
    }

    static void buildProcess(StreamExecutionEnvironment env, JsonNode sc, Script s) {
        JsonNode pf = sc.get("process_function");
        KeyedProcessFunction<String, OracleExt.Item, String> fn;
        switch (OracleExt.kind(pf, null)) {
            case "request_assembler": {
                Long ttl = pf.has("ttl") && !pf.get("ttl").isNull() ? OracleExt.num(pf, "ttl", null) : null;
                fn = new OracleExt.RequestAssembler(OracleExt.num(pf, "timeout", 300_000L), ttl);
                break;
            }
            case "error_rate_alert":
                fn = new OracleExt.ErrorRateAlert(OracleExt.num(pf, "size", 60_000L), OracleExt.num(pf, "threshold_pct", 5L));
                break;
            default:
                throw bad("unknown process_function kind " + pf.get("kind"));
        }
        // markers are kept (as in OracleExt's process job): they carry their arrival time (TTL clock)
        DataStreamUtils.reinterpretAsKeyedStream(source(env, sc, s, true), new OracleExt.KeyOf(), Types.STRING)
                .process(fn, Types.STRING).name("process-function")
                .map(new Record()).name("record")
                .sinkTo(new DiscardingSink<>());
    }

    // ------------------------------------------------------------- running

    static List<String> run(JsonNode sc, boolean plan) throws Exception {
        boolean window = sc.has("assigner") && !sc.get("assigner").isNull();
        boolean process = sc.has("process_function") && !sc.get("process_function").isNull();
        if (window == process) throw bad(window ? "a scenario has either 'assigner' or 'process_function', not both"
                : "checkpoint / crash items need an 'assigner' (window job) or a 'process_function'");
        if (sc.has("tvf") && !sc.get("tvf").isNull()) throw bad("checkpoint / crash items are not supported with 'tvf'");
        Script s = script(sc.get("input"));
        OUT.clear();
        HARNESS_ERROR = null;
        OracleExt.TTL_CLOCK = 0L;
        Cause.kind = "untraced";
        ITEMS = s.items;
        ScriptSource.reset(s.kindArray());

        Configuration conf = config(s);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
        env.setParallelism(1);
        env.getConfig().setAutoWatermarkInterval(0);
        if (window) buildWindow(env, sc, s);
        else buildProcess(env, sc, s);
        StreamGraph sg = env.getStreamGraph();
        sg.setJobName(sc.has("name") ? sc.get("name").asText() : "scenario");
        org.apache.flink.runtime.jobgraph.JobGraph jg = sg.getJobGraph();
        if (plan) for (org.apache.flink.runtime.jobgraph.JobVertex v : jg.getVerticesSortedTopologicallyFromSources()) System.err.println("task: " + v.getName());
        if ((s.checkpoints > 0 || s.crashes > 0) && jg.getNumberOfVertices() != 1) throw new IllegalStateException("harness: the job is not one chain (" + jg.getNumberOfVertices() + " tasks): stops would not be deterministic");

        Throwable failure;
        boolean own = s.checkpoints > 0 || s.crashes > 0 || OracleExt.SHARED_CLUSTER == null;
        MiniCluster cluster = own ? newCluster(conf) : OracleExt.SHARED_CLUSTER;
        try {
            failure = execute(cluster, jg, s);
        } finally {
            if (own) cluster.close();
        }
        if (HARNESS_ERROR != null) throw new IllegalStateException("harness: " + HARNESS_ERROR);
        if (ScriptSource.CRASHED.size() != s.crashes && failure == null) throw new IllegalStateException("harness: " + ScriptSource.CRASHED.size() + " of " + s.crashes + " crashes happened");
        if (ScriptSource.ATTEMPTS != ScriptSource.CRASHED.size() + 1 && failure == null) {
            throw new IllegalStateException("harness: " + ScriptSource.ATTEMPTS + " reader starts for " + ScriptSource.CRASHED.size() + " crashes (an unexpected restart?)");
        }
        List<String> res = lines();
        if (failure != null) {
            String line = OracleExt.errorLine("run", failure);
            if (line.contains(CourseFunctions.ABOVE_K)) throw new IllegalStateException("harness: " + CourseFunctions.ABOVE_K + ": the reservoir is random there, no golden");
            res.add(line);
        }
        return res;
    }

    static MiniCluster newCluster(Configuration conf) throws Exception {
        MiniCluster c = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(1).build());
        c.start();
        return c;
    }

    /** Submits the job, serves the reader's checkpoint / crash requests, returns the job's failure or null. */
    static Throwable execute(MiniCluster cluster, org.apache.flink.runtime.jobgraph.JobGraph jg, Script s) throws Exception {
        JobID id = cluster.submitJob(jg).get(60, TimeUnit.SECONDS).getJobID();
        CompletableFuture<JobResult> result = cluster.requestJobResult(id);
        int tm = 0; // index of the live TaskManager (MiniCluster keeps terminated ones in its list)
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!result.isDone()) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("harness: job did not finish within 5 minutes");
            long[] r = ScriptSource.REQUESTS.poll(20, TimeUnit.MILLISECONDS);
            if (r == null) continue;
            if (r[0] == ScriptSource.CHECKPOINT) {
                cluster.triggerCheckpoint(id).get(60, TimeUnit.SECONDS);
            } else {
                // The reader is parked at the crash item and every earlier item is fully processed:
                // the TaskManager dies now; a new one takes its place and Flink restores the job.
                recordFromHarness(crashLine(r[1]));
                cluster.terminateTaskManager(tm).get(60, TimeUnit.SECONDS);
                cluster.startTaskManager();
                tm++;
            }
        }
        if (!ScriptSource.REQUESTS.isEmpty()) throw new IllegalStateException("harness: unserved request at the end of the job");
        JobResult jr = result.get();
        if (!jr.isSuccess()) {
            return jr.getSerializedThrowable().map(t -> t.deserializeError(CourseWindows.class.getClassLoader())).orElse(new RuntimeException("job failed"));
        }
        return null;
    }

    /**
     * The recorded lines. Every attempt of the job is one task thread; a new thread may only start
     * with the "restore" line of its reader (the harness's own "crash" lines are exempt).
     */
    static List<String> lines() {
        List<String> res = new ArrayList<>();
        String thread = null;
        synchronized (OUT) {
            for (String[] e : OUT) {
                if (!e[0].equals(HARNESS_THREAD)) {
                    if (thread != null && !thread.equals(e[0]) && !e[1].startsWith("{\"out\":\"restore\"")) {
                        throw new IllegalStateException("outputs recorded on several threads (" + thread + ", " + e[0] + "): emission order not reliable");
                    }
                    thread = e[0];
                }
                res.add(e[1]);
            }
        }
        return res;
    }
}
