// Differential-test oracle, part two: runs scenario-format-v2 scenarios through real Apache Flink
// 2.3.0 and prints one JSON line per output, in emission order. See README.md next to this file.
//
//   process_function   a real KeyedProcessFunction (RequestAssembler, error-rate PseudoWindow) in a
//                      DataStream job on a MiniCluster; optional processing-time state TTL driven by a
//                      manual TtlTimeProvider (the item's arrival time).
//   tvf                a Flink SQL window TVF aggregation (TUMBLE / HOP / CUMULATE / SESSION) on a
//                      StreamTableEnvironment over the same DataStream (rowtime + SOURCE_WATERMARK()).
//   source side        partitions, periodic emission and idleness: Flink's own
//                      ProgressiveTimestampsAndWatermarks (per-split WatermarksWithIdleness +
//                      WatermarkOutputMultiplexer + WatermarkToDataOutput) driven by a manual clock and
//                      a manual ProcessingTimeService; no job, fully deterministic.
//
// When a process_function / tvf scenario also uses source-side features, the source is simulated
// first and the job is fed the resulting sequence of elements and combined watermarks.

import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.AscendingTimestampsWatermarks;
import org.apache.flink.api.common.eventtime.BoundedOutOfOrdernessWatermarks;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.fs.CloseableRegistry;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.execution.Environment;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.runtime.query.TaskKvStateRegistry;
import org.apache.flink.runtime.state.CheckpointableKeyedStateBackend;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyedStateHandle;
import org.apache.flink.runtime.state.OperatorStateBackend;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.StateBackendFactory;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.runtime.state.ttl.TtlTimeProvider;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.source.ProgressiveTimestampsAndWatermarks;
import org.apache.flink.streaming.api.operators.source.TimestampsAndWatermarks;
import org.apache.flink.streaming.runtime.io.PushingAsyncDataInput;
import org.apache.flink.streaming.runtime.streamrecord.LatencyMarker;
import org.apache.flink.streaming.runtime.streamrecord.RecordAttributes;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;
import org.apache.flink.util.clock.Clock;
import org.apache.flink.util.clock.ManualClock;

public class OracleExt {

    static final ObjectMapper MAPPER = new ObjectMapper();

    // ------------------------------------------------------------------ data

    /** One input item: an element or a watermark marker. Flink POJO. */
    public static class Item {
        public long id;
        public String key = "";
        public long ts;
        public long value;
        public String event = "";
        public boolean marker; // true => watermark marker, only 'wm' is meaningful
        public long wm;
        public int partition;
        public long arrival; // processing time (ms) when the item reaches the source

        public Item() {}

        @Override
        public String toString() {
            return marker ? ("WM(" + wm + "@" + arrival + ")") : ("E(" + id + "," + key + "," + ts + "@" + arrival + ")");
        }
    }

    /** The key used for watermark markers that travel through keyBy (see the process job). */
    static final String MARKER_KEY = "\u0000marker";

    // ------------------------------------------------- output recording

    static final List<String> OUT = Collections.synchronizedList(new ArrayList<>());
    static final Set<String> RECORD_THREADS = Collections.synchronizedSet(new HashSet<>());

    public static class RecordMap implements MapFunction<String, String> {
        @Override
        public String map(String s) {
            RECORD_THREADS.add(Thread.currentThread().getName());
            OUT.add(s);
            return s;
        }
    }

    static String json(ObjectNode o) {
        try {
            return MAPPER.writeValueAsString(o);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------ scenario parsing

    /** A malformed scenario file: reported on stderr, exit code 2; never recorded as output. */
    static class ScenarioError extends RuntimeException {
        ScenarioError(String m) {
            super(m);
        }
    }

    static long num(JsonNode n, String field, Long dflt) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            if (dflt == null) throw new ScenarioError("missing field '" + field + "' in " + n);
            return dflt;
        }
        if (v.isTextual()) {
            switch (v.asText()) {
                case "LONG_MAX": return Long.MAX_VALUE;
                case "LONG_MIN": return Long.MIN_VALUE;
                default: throw new ScenarioError("field '" + field + "' must be an integer, \"LONG_MAX\" or \"LONG_MIN\": " + v);
            }
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) throw new ScenarioError("field '" + field + "' is not a 64-bit integer: " + v);
        return v.longValue();
    }

    static String kind(JsonNode n, String dflt) {
        if (n == null || n.isNull()) {
            if (dflt == null) throw new ScenarioError("missing required object");
            return dflt;
        }
        if (!n.has("kind")) throw new ScenarioError("missing 'kind' in " + n);
        return n.get("kind").asText();
    }

    static String str(JsonNode n, String field, String dflt) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            if (dflt == null) throw new ScenarioError("missing field '" + field + "' in " + n);
            return dflt;
        }
        if (!v.isValueNode()) throw new ScenarioError("field '" + field + "' must be a scalar: " + n);
        return v.asText();
    }

    /** Items in input order; arrival defaults to previous arrival + 100 (first: 0), partition to 0. */
    static List<Item> items(JsonNode input) {
        if (input == null || !input.isArray()) throw new ScenarioError("'input' must be an array");
        List<Item> list = new ArrayList<>();
        long prevArrival = Long.MIN_VALUE;
        for (JsonNode n : input) {
            Item it = new Item();
            if (n.has("wm")) {
                it.marker = true;
                it.wm = num(n, "wm", null);
            } else {
                it.id = num(n, "id", null);
                if (!n.has("key") || !n.get("key").isValueNode()) throw new ScenarioError("element without scalar 'key': " + n);
                it.key = n.get("key").asText();
                if (it.key.equals(MARKER_KEY)) throw new ScenarioError("reserved key: " + n);
                it.ts = num(n, "ts", null);
                it.value = num(n, "value", 1L);
                it.event = str(n, "event", "");
            }
            long p = num(n, "partition", 0L);
            if (p < 0 || p > 10_000) throw new ScenarioError("'partition' must be in 0..10000: " + n);
            it.partition = (int) p;
            long dflt = prevArrival == Long.MIN_VALUE ? 0L : prevArrival + 100;
            it.arrival = num(n, "arrival", dflt);
            if (prevArrival != Long.MIN_VALUE && it.arrival < prevArrival) {
                throw new ScenarioError("'arrival' must not decrease (processing time only moves forward): " + n);
            }
            if (it.arrival < 0) throw new ScenarioError("'arrival' must be >= 0: " + n);
            prevArrival = it.arrival;
            list.add(it);
        }
        if (list.isEmpty()) throw new ScenarioError("'input' is empty");
        return list;
    }

    /** Watermark settings of a scenario (v2 "watermarks" object). */
    static final class WmConfig {
        String kind; // explicit | bounded_out_of_orderness | monotonous
        Long bound; // bounded_out_of_orderness only
        boolean periodic; // emit = periodic
        long interval; // autoWatermarkInterval (ms of processing time)
        Long idleness; // withIdleness, null = none
        int partitions;

        /** True if the source side needs the partition/idleness/periodic simulation. */
        boolean sourceFeatures() {
            return partitions > 1 || periodic || idleness != null;
        }
    }

    static WmConfig wmConfig(JsonNode sc, List<Item> items) {
        JsonNode w = sc.get("watermarks");
        WmConfig c = new WmConfig();
        c.kind = kind(w, "explicit");
        switch (c.kind) {
            case "explicit": c.bound = null; break;
            case "bounded_out_of_orderness": c.bound = num(w, "bound", null); break;
            case "monotonous": c.bound = null; break;
            default: throw new ScenarioError("unknown watermarks kind " + c.kind);
        }
        String emit = str(w, "emit", "per_event");
        if (!emit.equals("per_event") && !emit.equals("periodic")) throw new ScenarioError("watermarks.emit must be per_event or periodic: " + emit);
        c.periodic = emit.equals("periodic");
        c.interval = num(w, "interval", 200L);
        if (c.interval < 0) throw new ScenarioError("watermarks.interval must be >= 0");
        c.idleness = (w != null && w.has("idleness") && !w.get("idleness").isNull()) ? num(w, "idleness", null) : null;
        int maxP = 0;
        for (Item it : items) maxP = Math.max(maxP, it.partition);
        c.partitions = (int) num(sc, "partitions", (long) maxP + 1);
        if (c.partitions <= maxP) throw new ScenarioError("'partitions' = " + c.partitions + " but an item uses partition " + maxP);
        return c;
    }

    // ------------------------------------------------ watermark generation

    /**
     * The oracle's generator (same as ../../shared/flink-oracle/src/Oracle.java): explicit markers
     * emit Watermark(marker.wm) from onEvent. Bounded out-of-orderness / monotonous additionally feed
     * every element to Flink's own BoundedOutOfOrdernessWatermarks / AscendingTimestampsWatermarks;
     * with perEvent its onPeriodicEmit is called right after each element (the oracle's mode),
     * otherwise only from onPeriodicEmit (periodic emission, source simulation).
     */
    public static class ScriptedGenerator implements WatermarkGenerator<Item> {
        private final BoundedOutOfOrdernessWatermarks<Item> boo;
        private final boolean perEvent;

        ScriptedGenerator(String kind, Long boundMs, boolean perEvent) {
            if (kind.equals("bounded_out_of_orderness")) this.boo = new BoundedOutOfOrdernessWatermarks<>(Duration.ofMillis(boundMs));
            else if (kind.equals("monotonous")) this.boo = new AscendingTimestampsWatermarks<>();
            else this.boo = null;
            this.perEvent = perEvent;
        }

        @Override
        public void onEvent(Item item, long ts, WatermarkOutput out) {
            if (item.marker) {
                out.emitWatermark(new Watermark(item.wm));
            } else if (boo != null) {
                boo.onEvent(item, ts, out);
                if (perEvent) boo.onPeriodicEmit(out);
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput out) {
            if (!perEvent && boo != null) boo.onPeriodicEmit(out);
            // perEvent (job mode): never called periodically (autoWatermarkInterval = 0); Flink calls
            // it once from TimestampsAndWatermarksOperator.finish(). Emit nothing, like the oracle.
        }
    }

    public static class GenSupplier implements WatermarkGeneratorSupplier<Item> {
        final String kind;
        final Long bound;
        final boolean perEvent;

        GenSupplier(String kind, Long bound, boolean perEvent) {
            this.kind = kind;
            this.bound = bound;
            this.perEvent = perEvent;
        }

        @Override
        public WatermarkGenerator<Item> createWatermarkGenerator(Context ctx) {
            return new ScriptedGenerator(kind, bound, perEvent);
        }
    }

    public static class TsAssigner implements SerializableTimestampAssigner<Item> {
        @Override
        public long extractTimestamp(Item item, long recordTs) {
            return item.marker ? item.wm : item.ts;
        }
    }

    public static class KeyOf implements KeySelector<Item, String> {
        @Override
        public String getKey(Item item) {
            return item.marker ? MARKER_KEY : item.key;
        }
    }

    /** Same as the oracle's: swallows the end-of-input Long.MAX_VALUE watermark (end_of_input=false). */
    public static class DropMaxWatermark extends AbstractStreamOperator<Item> implements OneInputStreamOperator<Item, Item> {
        @Override
        public void processElement(StreamRecord<Item> element) {
            output.collect(element);
        }

        @Override
        public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
            if (mark.getTimestamp() == Long.MAX_VALUE) return;
            super.processWatermark(mark);
        }
    }

    // ------------------------------------------------ source-side simulation

    /** A ProcessingTimeService whose only job is to hand over the periodic-emission callback. */
    static final class ManualProcessingTimeService implements org.apache.flink.streaming.runtime.tasks.ProcessingTimeService {
        final ManualClock clock;
        ProcessingTimeCallback periodic;
        long period;

        ManualProcessingTimeService(ManualClock clock) {
            this.clock = clock;
        }

        @Override
        public long getCurrentProcessingTime() {
            return clock.absoluteTimeMillis();
        }

        @Override
        public Clock getClock() {
            return clock;
        }

        @Override
        public ScheduledFuture<?> registerTimer(long timestamp, ProcessingTimeCallback target) {
            throw new UnsupportedOperationException("registerTimer");
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(ProcessingTimeCallback callback, long initialDelay, long period) {
            throw new UnsupportedOperationException("scheduleAtFixedRate");
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(ProcessingTimeCallback callback, long initialDelay, long period) {
            if (initialDelay != period) throw new IllegalStateException("unexpected initial delay " + initialDelay + " != " + period);
            this.periodic = callback;
            this.period = period;
            return null; // never cancelled: the simulation just stops calling it
        }

        @Override
        public CompletableFuture<Void> quiesce() {
            return CompletableFuture.completedFuture(null);
        }
    }

    /**
     * Nanosecond origin of the manual clock. Only differences matter to Flink; a non-zero origin avoids
     * IdlenessTimer's "0 = no timer" special value colliding with processing time 0 (with a real clock
     * System.nanoTime() is never 0 in practice).
     */
    static final long CLOCK_ORIGIN_NANOS = 1_000_000_000_000L;

    /** What the simulated source sends downstream, in order: elements and combined watermarks. */
    static final class SimResult {
        final List<String> lines = new ArrayList<>();
        final List<Item> downstream = new ArrayList<>(); // elements + markers (combined watermarks)
    }

    /**
     * Runs the items through Flink's ProgressiveTimestampsAndWatermarks (what SourceOperator uses in
     * streaming mode): one split output per partition (registered at start, in partition order), each
     * with its own generator from the scenario's WatermarkStrategy (+ withIdleness), combined by
     * Flink's WatermarkOutputMultiplexer into a WatermarkToDataOutput. Processing time is a
     * ManualClock; periodic emission runs at k * interval (k >= 1) before any item whose arrival is
     * >= that time; with emit = per_event an extra emission (emitImmediateWatermark) runs right after
     * each element.
     */
    static SimResult simulate(WmConfig c, List<Item> input, boolean endOfInput) throws Exception {
        SimResult res = new SimResult();
        ManualClock clock = new ManualClock(CLOCK_ORIGIN_NANOS);
        final long[] now = {0L};
        ManualProcessingTimeService pts = new ManualProcessingTimeService(clock);

        // per-event and periodic modes use the same generator: the emission is driven from outside
        WatermarkStrategy<Item> strategy = WatermarkStrategy.forGenerator(new GenSupplier(c.kind, c.bound, false));
        if (c.idleness != null) strategy = strategy.withIdleness(Duration.ofMillis(c.idleness));
        TimestampAssigner<Item> assigner = (item, recordTs) -> item.marker ? item.wm : item.ts;

        ProgressiveTimestampsAndWatermarks<Item> tw = new ProgressiveTimestampsAndWatermarks<>(
                assigner,
                strategy,
                new TimestampsAndWatermarks.TimestampsAndWatermarksContextProvider(new UnregisteredMetricsGroup()),
                pts,
                Duration.ofMillis(c.interval),
                clock,
                clock,
                UnregisteredMetricGroups.createUnregisteredTaskMetricGroup().getIOMetricGroup());

        final Boolean[] splitIdle = new Boolean[c.partitions];
        PushingAsyncDataInput.DataOutput<Item> dataOutput = new PushingAsyncDataInput.DataOutput<Item>() {
            @Override
            public void emitRecord(StreamRecord<Item> r) {
                Item src = r.getValue();
                if (src.marker) return; // a partition's scripted watermark: only its effect travels on
                Item copy = new Item();
                copy.id = src.id; copy.key = src.key; copy.ts = src.ts; copy.value = src.value; copy.event = src.event;
                copy.partition = src.partition; copy.arrival = src.arrival;
                res.downstream.add(copy);
            }

            @Override
            public void emitWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) {
                ObjectNode o = MAPPER.createObjectNode();
                o.put("out", "watermark");
                o.put("wm", mark.getTimestamp());
                o.put("at", now[0]);
                res.lines.add(json(o));
                Item m = new Item();
                m.marker = true;
                m.wm = mark.getTimestamp();
                m.arrival = now[0];
                res.downstream.add(m);
            }

            @Override
            public void emitWatermarkStatus(WatermarkStatus status) {
                ObjectNode o = MAPPER.createObjectNode();
                o.put("out", status.isIdle() ? "source_idle" : "source_active");
                o.put("at", now[0]);
                res.lines.add(json(o));
            }

            @Override
            public void emitLatencyMarker(LatencyMarker m) {}

            @Override
            public void emitRecordAttributes(RecordAttributes a) {}

            @Override
            public void emitWatermark(org.apache.flink.runtime.event.WatermarkEvent w) {}
        };
        TimestampsAndWatermarks.WatermarkUpdateListener listener = new TimestampsAndWatermarks.WatermarkUpdateListener() {
            @Override
            public void updateIdle(boolean idle) {} // = emitWatermarkStatus above

            @Override
            public void updateCurrentEffectiveWatermark(long wm) {} // = emitWatermark above

            @Override
            public void updateCurrentSplitWatermark(String splitId, long wm) {
                ObjectNode o = MAPPER.createObjectNode();
                o.put("out", "partition_watermark");
                o.put("partition", Integer.parseInt(splitId));
                o.put("wm", wm);
                o.put("at", now[0]);
                res.lines.add(json(o));
            }

            @Override
            public void updateCurrentSplitIdle(String splitId, boolean idle) {
                // Flink calls this on every PartialWatermark.setIdle, also setIdle(false) from every
                // setWatermark: report changes only (every split starts active).
                int p = Integer.parseInt(splitId);
                boolean before = splitIdle[p] != null && splitIdle[p];
                splitIdle[p] = idle;
                if (before == idle) return;
                ObjectNode o = MAPPER.createObjectNode();
                o.put("out", idle ? "idle" : "active");
                o.put("partition", p);
                o.put("at", now[0]);
                res.lines.add(json(o));
            }

            @Override
            public void splitFinished(String splitId) {}
        };

        ReaderOutput<Item> main = tw.createMainOutput(dataOutput, listener);
        List<SourceOutput<Item>> outs = new ArrayList<>();
        for (int p = 0; p < c.partitions; p++) outs.add(main.createOutputForSplit(Integer.toString(p)));
        tw.startPeriodicWatermarkEmits();
        ProcessingTimeCallback tick = pts.periodic; // null when interval = 0 (periodic emission disabled)

        long nextTick = c.interval;
        long ticks = 0;
        for (Item it : input) {
            if (tick != null) {
                while (nextTick <= it.arrival) {
                    if (++ticks > 5_000_000L) throw new ScenarioError("more than 5 million periodic ticks: raise 'interval'");
                    advance(clock, now, nextTick);
                    tick.onProcessingTime(nextTick);
                    nextTick += c.interval;
                }
            }
            advance(clock, now, it.arrival);
            outs.get(it.partition).collect(it);
            if (!c.periodic && !it.marker) tw.emitImmediateWatermark(now[0]);
            // Processing time moves on even when nothing of this item reaches the job (a marker
            // that does not raise the combined watermark): a clock-only marker (Long.MIN_VALUE,
            // never a watermark advance) carries the arrival to the keyed function's TTL clock,
            // as the wall clock would.
            if (res.downstream.isEmpty() || res.downstream.get(res.downstream.size() - 1).arrival < now[0]) {
                Item clockOnly = new Item();
                clockOnly.marker = true;
                clockOnly.wm = Long.MIN_VALUE;
                clockOnly.arrival = now[0];
                res.downstream.add(clockOnly);
            }
        }
        if (endOfInput) {
            // Not the multiplexer: at the end of a bounded input the source task emits
            // Watermark(Long.MAX_VALUE) (the oracle's end-of-input convention).
            dataOutput.emitWatermark(new org.apache.flink.streaming.api.watermark.Watermark(Long.MAX_VALUE));
            res.downstream.remove(res.downstream.size() - 1); // the job emits its own at end of input
        }
        return res;
    }

    static void advance(ManualClock clock, long[] now, long toMillis) {
        if (toMillis > now[0]) {
            clock.advanceTime(Duration.ofMillis(toMillis - now[0]));
            now[0] = toMillis;
        }
    }

    // ------------------------------------------------ processing-time TTL clock

    /**
     * Processing time as seen by state TTL: set by the keyed process function to the arrival time of
     * the item it is processing (elements and watermark markers both reach it), read by Flink's TTL
     * state wrappers through the TtlTimeProvider below. Same thread (the keyed task) for both.
     */
    static volatile long TTL_CLOCK = 0L;

    /** A StateBackendFactory (state.backend.type = its class name): HashMapStateBackend + manual TTL clock. */
    public static class ManualTtlClockBackendFactory implements StateBackendFactory<ManualTtlClockBackend> {
        @Override
        public ManualTtlClockBackend createFromConfig(ReadableConfig config, ClassLoader classLoader) {
            return new ManualTtlClockBackend();
        }
    }

    public static class ManualTtlClockBackend implements StateBackend {
        private static final long serialVersionUID = 1L;
        private final HashMapStateBackend inner = new HashMapStateBackend();

        @Override
        public String getName() {
            return "hashmap (manual TTL clock)";
        }

        @Override
        public <K> CheckpointableKeyedStateBackend<K> createKeyedStateBackend(KeyedStateBackendParameters<K> p) throws Exception {
            return inner.createKeyedStateBackend(new ManualTtlParameters<>(p));
        }

        @Override
        public OperatorStateBackend createOperatorStateBackend(OperatorStateBackendParameters p) throws Exception {
            return inner.createOperatorStateBackend(p);
        }

        @Override
        public boolean useManagedMemory() {
            return inner.useManagedMemory();
        }
    }

    static final class ManualTtlParameters<K> implements StateBackend.KeyedStateBackendParameters<K> {
        final StateBackend.KeyedStateBackendParameters<K> d;

        ManualTtlParameters(StateBackend.KeyedStateBackendParameters<K> d) {
            this.d = d;
        }

        @Override
        public TtlTimeProvider getTtlTimeProvider() {
            return () -> TTL_CLOCK;
        }

        @Override public Environment getEnv() { return d.getEnv(); }
        @Override public JobID getJobID() { return d.getJobID(); }
        @Override public String getOperatorIdentifier() { return d.getOperatorIdentifier(); }
        @Override public TypeSerializer<K> getKeySerializer() { return d.getKeySerializer(); }
        @Override public int getNumberOfKeyGroups() { return d.getNumberOfKeyGroups(); }
        @Override public KeyGroupRange getKeyGroupRange() { return d.getKeyGroupRange(); }
        @Override public TaskKvStateRegistry getKvStateRegistry() { return d.getKvStateRegistry(); }
        @Override public MetricGroup getMetricGroup() { return d.getMetricGroup(); }
        @Override public Collection<KeyedStateHandle> getStateHandles() { return d.getStateHandles(); }
        @Override public CloseableRegistry getCancelStreamRegistry() { return d.getCancelStreamRegistry(); }
        @Override public double getManagedMemoryFraction() { return d.getManagedMemoryFraction(); }
        @Override public StateBackend.CustomInitializationMetrics getCustomInitializationMetrics() { return d.getCustomInitializationMetrics(); }
    }

    // ------------------------------------------------ keyed process functions

    static ObjectNode processLine(String key, String kind, long ts, long wm) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("out", "process");
        o.put("key", key);
        o.put("kind", kind);
        o.put("ts", ts);
        o.put("wm", wm);
        return o;
    }

    /**
     * The course's RequestAssembler (module 6), keyed by request id. State "open" = (started_ts, id of
     * the RequestStarted element). started: update open, register an event-time timer at started_ts +
     * timeout. completed with open state: emit, delete that timer, clear. completed without: dropped.
     * onTimer(t): if open and t == started_ts + timeout: emit abandoned, clear.
     */
    public static class RequestAssembler extends KeyedProcessFunction<String, Item, String> {
        final long timeout;
        final Long ttl;
        transient ValueState<Tuple2<Long, Long>> open;

        RequestAssembler(long timeout, Long ttl) {
            this.timeout = timeout;
            this.ttl = ttl;
        }

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext ctx) {
            ValueStateDescriptor<Tuple2<Long, Long>> d = new ValueStateDescriptor<>("open", Types.TUPLE(Types.LONG, Types.LONG));
            if (ttl != null) {
                d.enableTimeToLive(StateTtlConfig.newBuilder(Duration.ofMillis(ttl))
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .build());
            }
            open = getRuntimeContext().getState(d);
        }

        @Override
        public void processElement(Item item, Context ctx, Collector<String> out) throws Exception {
            TTL_CLOCK = item.arrival;
            if (item.marker) return; // only carries its arrival time (TTL clock) ahead of its watermark
            Tuple2<Long, Long> cur = open.value();
            if (item.event.equals("started")) {
                open.update(Tuple2.of(item.ts, item.id));
                ctx.timerService().registerEventTimeTimer(item.ts + timeout);
            } else if (item.event.equals("completed")) {
                if (cur != null) {
                    ObjectNode o = processLine(ctx.getCurrentKey(), "completed", item.ts, ctx.timerService().currentWatermark());
                    o.put("id", item.id);
                    out.collect(json(o));
                    ctx.timerService().deleteEventTimeTimer(cur.f0 + timeout);
                    open.clear();
                }
                // else: nothing to join, dropped
            } else {
                throw new IllegalArgumentException("request_assembler: unknown event '" + item.event + "' (id " + item.id + ")");
            }
        }

        @Override
        public void onTimer(long t, OnTimerContext ctx, Collector<String> out) throws Exception {
            Tuple2<Long, Long> cur = open.value();
            if (cur != null && t == cur.f0 + timeout) {
                ObjectNode o = processLine(ctx.getCurrentKey(), "abandoned", t, ctx.timerService().currentWatermark());
                o.put("id", cur.f1);
                out.collect(json(o));
                open.clear();
            }
        }
    }

    /**
     * The course's hand-built per-minute error-rate alert (Flink's PseudoWindow pattern), keyed by
     * model: MapState minute_end -> (errors, requests); a late event (minute_end <= watermark) is
     * dropped; the first event of a minute registers an event-time timer at minute_end; onTimer emits
     * alert (errors * 100 > threshold_pct * requests) or ok and removes the entry.
     */
    public static class ErrorRateAlert extends KeyedProcessFunction<String, Item, String> {
        final long size;
        final long thresholdPct;
        transient MapState<Long, Tuple2<Long, Long>> minutes;

        ErrorRateAlert(long size, long thresholdPct) {
            this.size = size;
            this.thresholdPct = thresholdPct;
        }

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext ctx) {
            minutes = getRuntimeContext().getMapState(new MapStateDescriptor<>("minutes", Types.LONG, Types.TUPLE(Types.LONG, Types.LONG)));
        }

        @Override
        public void processElement(Item item, Context ctx, Collector<String> out) throws Exception {
            TTL_CLOCK = item.arrival;
            if (item.marker) return;
            boolean error;
            if (item.event.equals("error")) error = true;
            else if (item.event.equals("request")) error = false;
            else throw new IllegalArgumentException("error_rate_alert: unknown event '" + item.event + "' (id " + item.id + ")");
            long ts = item.ts;
            long minuteEnd = ts - (ts % size) + size - 1; // PseudoWindow's formula, as in Flink's docs
            if (minuteEnd <= ctx.timerService().currentWatermark()) return; // late: dropped
            Tuple2<Long, Long> v = minutes.get(minuteEnd);
            if (v == null) {
                v = Tuple2.of(0L, 0L);
                ctx.timerService().registerEventTimeTimer(minuteEnd);
            }
            minutes.put(minuteEnd, Tuple2.of(v.f0 + (error ? 1 : 0), v.f1 + 1));
        }

        @Override
        public void onTimer(long t, OnTimerContext ctx, Collector<String> out) throws Exception {
            Tuple2<Long, Long> v = minutes.get(t);
            if (v == null) return;
            boolean alert = v.f0 * 100 > thresholdPct * v.f1;
            ObjectNode o = processLine(ctx.getCurrentKey(), alert ? "alert" : "ok", t, ctx.timerService().currentWatermark());
            o.put("errors", v.f0);
            o.put("requests", v.f1);
            out.collect(json(o));
            minutes.remove(t);
        }
    }

    // ------------------------------------------------------------------ TVF

    /** "INTERVAL 'd hh:mm:ss.fff' DAY TO SECOND(3)" for a duration in ms (>= 0). */
    static String interval(long ms) {
        if (ms < 0) return "INTERVAL '-" + interval(-ms).substring(10);
        long d = ms / 86_400_000L, r = ms % 86_400_000L;
        return String.format("INTERVAL '%d %02d:%02d:%02d.%03d' DAY(9) TO SECOND(3)", d, r / 3_600_000L, (r / 60_000L) % 60, (r / 1000) % 60, r % 1000);
    }

    static String tvfCall(JsonNode t) {
        String k = kind(t, null);
        String offset = t.has("offset") ? ", " + interval(num(t, "offset", null)) : "";
        switch (k) {
            case "tumble":
                return "TUMBLE(TABLE items, DESCRIPTOR(rowtime), " + interval(num(t, "size", null)) + offset + ")";
            case "hop":
                return "HOP(TABLE items, DESCRIPTOR(rowtime), " + interval(num(t, "slide", null)) + ", " + interval(num(t, "size", null)) + offset + ")";
            case "cumulate":
                return "CUMULATE(TABLE items, DESCRIPTOR(rowtime), " + interval(num(t, "step", null)) + ", " + interval(num(t, "size", null)) + offset + ")";
            case "session":
                if (t.has("offset")) throw new ScenarioError("session has no offset");
                return "SESSION(TABLE items PARTITION BY k, DESCRIPTOR(rowtime), " + interval(num(t, "gap", null)) + ")";
            default:
                throw new ScenarioError("unknown tvf kind " + k);
        }
    }

    static String tvfQuery(JsonNode t) {
        return "SELECT k, window_start, window_end, window_time, SUM(v) AS s, COUNT(*) AS c FROM TABLE("
                + tvfCall(t) + ") GROUP BY k, window_start, window_end, window_time";
    }

    public static class ToRow implements MapFunction<Item, Row> {
        @Override
        public Row map(Item i) {
            return Row.of(i.id, i.key, i.ts, i.value);
        }
    }

    /**
     * Chained after the SQL result: turns each row into a line and holds it until the next watermark
     * reaches this operator; that watermark is the one whose advance emitted the row (the window
     * aggregation fires during processWatermark and forwards the watermark afterwards), so it becomes
     * the row's "wm".
     */
    public static class TvfRecorder extends AbstractStreamOperator<String> implements OneInputStreamOperator<Row, String> {
        private transient List<ObjectNode> pending;

        @Override
        public void open() throws Exception {
            super.open();
            pending = new ArrayList<>();
        }

        static long millis(Object o) {
            if (o instanceof LocalDateTime) return ((LocalDateTime) o).toInstant(ZoneOffset.UTC).toEpochMilli();
            if (o instanceof java.time.Instant) return ((java.time.Instant) o).toEpochMilli();
            throw new IllegalStateException("unexpected time type " + (o == null ? "null" : o.getClass()));
        }

        @Override
        public void processElement(StreamRecord<Row> r) {
            Row row = r.getValue();
            ObjectNode o = MAPPER.createObjectNode();
            o.put("out", "tvf");
            if (row.getKind() != org.apache.flink.types.RowKind.INSERT) o.put("row_kind", row.getKind().shortString());
            o.put("key", (String) row.getField(0));
            o.put("window_start", millis(row.getField(1)));
            o.put("window_end", millis(row.getField(2)));
            o.put("window_time", millis(row.getField(3)));
            o.put("sum", (Long) row.getField(4));
            o.put("count", (Long) row.getField(5));
            pending.add(o);
        }

        void flush(Long wm) {
            for (ObjectNode o : pending) {
                if (wm == null) o.putNull("wm");
                else o.put("wm", wm);
                RECORD_THREADS.add(Thread.currentThread().getName());
                OUT.add(json(o));
            }
            pending.clear();
        }

        @Override
        public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
            flush(mark.getTimestamp());
            super.processWatermark(mark);
        }

        @Override
        public void finish() throws Exception {
            flush(null); // rows not followed by any watermark (none seen so far)
            super.finish();
        }
    }

    // ------------------------------------------------------------ running

    static org.apache.flink.runtime.minicluster.MiniCluster SHARED_CLUSTER = null;

    static Configuration baseConfig() {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(org.apache.flink.configuration.RestOptions.BIND_PORT, "0"); // random port, never 8081
        conf.setString("state.backend.type", ManualTtlClockBackendFactory.class.getName());
        return conf;
    }

    static void startSharedCluster() throws Exception {
        org.apache.flink.runtime.minicluster.MiniClusterConfiguration cfg =
                new org.apache.flink.runtime.minicluster.MiniClusterConfiguration.Builder()
                        .setConfiguration(baseConfig())
                        .setNumTaskManagers(1)
                        .setNumSlotsPerTaskManager(2)
                        .build();
        SHARED_CLUSTER = new org.apache.flink.runtime.minicluster.MiniCluster(cfg);
        SHARED_CLUSTER.start();
    }

    static boolean PLAN = false;

    /** Returns the output lines of one scenario. */
    static List<String> run(JsonNode sc) throws Exception {
        boolean hasProcess = sc.has("process_function") && !sc.get("process_function").isNull();
        boolean hasTvf = sc.has("tvf") && !sc.get("tvf").isNull();
        // window jobs ("assigner") and checkpoint / crash runs: CourseWindows.java
        if (CourseWindows.handles(sc)) return CourseWindows.run(sc, PLAN);
        if (hasProcess && hasTvf) throw new ScenarioError("a scenario has either 'process_function' or 'tvf', not both");
        List<Item> input = items(sc.get("input"));
        WmConfig wc = wmConfig(sc, input);
        boolean endOfInput = !sc.has("end_of_input") || sc.get("end_of_input").asBoolean();

        if (!hasProcess && !hasTvf) {
            return simulate(wc, input, endOfInput).lines;
        }
        // The job's watermarks: the oracle's generator (single partition, per-event emission), or,
        // with source-side features, the simulated source's combined watermarks as explicit markers.
        // The source simulation's lines (partition watermarks, idleness, combined watermarks) come
        // first in the output either way, then the job's lines: the two are compared separately.
        SimResult sim = simulate(wc, input, endOfInput);
        List<Item> jobInput = input;
        String genKind = wc.kind;
        Long bound = wc.bound;
        if (wc.sourceFeatures()) {
            jobInput = sim.downstream;
            genKind = "explicit";
            bound = null;
            if (jobInput.isEmpty()) throw new ScenarioError("nothing reaches the job");
        }
        List<String> lines = new ArrayList<>(sim.lines);
        lines.addAll(hasProcess ? runProcess(sc, jobInput, genKind, bound, endOfInput) : runTvf(sc, jobInput, genKind, bound, endOfInput));
        return lines;
    }

    static StreamExecutionEnvironment newEnv() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, baseConfig());
        env.setParallelism(1);
        env.getConfig().setAutoWatermarkInterval(0);
        return env;
    }

    static DataStream<Item> source(StreamExecutionEnvironment env, List<Item> input, String genKind, Long bound, boolean endOfInput) {
        TypeInformation<Item> itemType = TypeInformation.of(Item.class);
        WatermarkStrategy<Item> strategy = WatermarkStrategy.<Item>forGenerator(new GenSupplier(genKind, bound, true))
                .withTimestampAssigner(new TsAssigner());
        boolean explicitMax = input.stream().anyMatch(i -> i.marker && i.wm == Long.MAX_VALUE);
        DataStream<Item> s = env.fromData(input, itemType).assignTimestampsAndWatermarks(strategy);
        if (!endOfInput && !explicitMax) s = s.transform("DropMaxWatermark", itemType, new DropMaxWatermark());
        return s;
    }

    static List<String> runProcess(JsonNode sc, List<Item> input, String genKind, Long bound, boolean endOfInput) throws Exception {
        JsonNode pf = sc.get("process_function");
        KeyedProcessFunction<String, Item, String> fn;
        switch (kind(pf, null)) {
            case "request_assembler": {
                Long ttl = pf.has("ttl") && !pf.get("ttl").isNull() ? num(pf, "ttl", null) : null;
                fn = new RequestAssembler(num(pf, "timeout", 300_000L), ttl);
                break;
            }
            case "error_rate_alert":
                fn = new ErrorRateAlert(num(pf, "size", 60_000L), num(pf, "threshold_pct", 5L));
                break;
            default:
                throw new ScenarioError("unknown process_function kind " + pf.get("kind"));
        }
        StreamExecutionEnvironment env = newEnv();
        // Watermark markers are kept (not filtered) so that they reach the keyed task with their
        // arrival time (the TTL clock); the function ignores them otherwise.
        source(env, input, genKind, bound, endOfInput)
                .keyBy(new KeyOf(), Types.STRING)
                .process(fn, Types.STRING).name("process-function")
                .map(new RecordMap()).name("record")
                .sinkTo(new DiscardingSink<>());
        return execute(env, sc);
    }

    static List<String> runTvf(JsonNode sc, List<Item> input, String genKind, Long bound, boolean endOfInput) throws Exception {
        StreamExecutionEnvironment env = newEnv();
        DataStream<Row> rows = source(env, input, genKind, bound, endOfInput)
                .filter(i -> !i.marker).name("not-marker") // markers removed, their watermarks keep flowing
                .map(new ToRow()).returns(Types.ROW_NAMED(new String[] {"id", "k", "ts", "v"}, Types.LONG, Types.STRING, Types.LONG, Types.LONG));
        StreamTableEnvironment tenv = StreamTableEnvironment.create(env);
        tenv.getConfig().set("table.local-time-zone", "UTC");
        Table t = tenv.fromDataStream(rows, Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("k", DataTypes.STRING())
                .column("ts", DataTypes.BIGINT())
                .column("v", DataTypes.BIGINT())
                .columnByMetadata("rowtime", "TIMESTAMP_LTZ(3)")
                .watermark("rowtime", "SOURCE_WATERMARK()")
                .build());
        tenv.createTemporaryView("items", t);
        String q = tvfQuery(sc.get("tvf"));
        Table r = tenv.sqlQuery(q);
        if (PLAN) System.err.println(q + "\n" + r.explain());
        tenv.toChangelogStream(r)
                .transform("record-tvf", Types.STRING, new TvfRecorder())
                .sinkTo(new DiscardingSink<>());
        return execute(env, sc);
    }

    static List<String> execute(StreamExecutionEnvironment env, JsonNode sc) throws Exception {
        OUT.clear();
        RECORD_THREADS.clear();
        TTL_CLOCK = 0L;
        if (PLAN) {
            for (org.apache.flink.runtime.jobgraph.JobVertex v :
                    env.getStreamGraph(false).getJobGraph().getVerticesSortedTopologicallyFromSources()) {
                System.err.println("task: " + v.getName());
            }
        }
        List<String> res = new ArrayList<>();
        Exception failure = null;
        String jobName = sc.has("name") ? sc.get("name").asText() : "scenario";
        try {
            if (SHARED_CLUSTER != null) {
                org.apache.flink.streaming.api.graph.StreamGraph sg = env.getStreamGraph();
                sg.setJobName(jobName);
                SHARED_CLUSTER.executeJobBlocking(sg.getJobGraph());
            } else {
                env.execute(jobName);
            }
        } catch (Exception ex) {
            failure = ex;
        }
        synchronized (OUT) {
            res.addAll(OUT);
        }
        if (failure != null) res.add(errorLine("run", failure));
        if (RECORD_THREADS.size() > 1) {
            throw new IllegalStateException("outputs recorded on several threads " + RECORD_THREADS + ": emission order not reliable");
        }
        return res;
    }

    static String errorLine(String phase, Throwable ex) {
        Throwable root = ex;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        ObjectNode o = MAPPER.createObjectNode();
        o.put("out", "error");
        o.put("phase", phase);
        o.put("class", root.getClass().getName());
        o.put("message", String.valueOf(root.getMessage()));
        return json(o);
    }

    static List<String> runSafely(JsonNode sc) {
        try {
            return run(sc);
        } catch (ScenarioError ex) {
            throw ex;
        } catch (IllegalStateException ex) {
            String m = String.valueOf(ex.getMessage());
            if (m.startsWith("outputs recorded on several threads") || m.startsWith("harness:")) throw ex;
            List<String> r = new ArrayList<>();
            r.add(errorLine("build", ex));
            return r;
        } catch (Throwable ex) {
            // thrown while building the job / planning the query / in the source simulation
            List<String> r = new ArrayList<>();
            r.add(errorLine("build", ex));
            return r;
        }
    }

    public static void main(String[] args) {
        int rc;
        try {
            rc = realMain(args);
        } catch (Throwable t) {
            System.err.println("[oracle-ext] harness failure:");
            t.printStackTrace();
            rc = 3;
        }
        System.exit(rc); // Flink leaves non-daemon threads behind
    }

    static int realMain(String[] args) throws Exception {
        String outDir = null;
        boolean twice = false;
        boolean fresh = false;
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-o": outDir = args[++i]; break;
                case "--plan": PLAN = true; break;
                case "--twice": twice = true; break;
                case "--fresh-cluster": fresh = true; break;
                default: files.add(args[i]);
            }
        }
        if (files.isEmpty()) {
            System.err.println("usage: OracleExt [--plan] [--twice] [--fresh-cluster] [-o OUTDIR] scenario.json...");
            return 2;
        }
        if (outDir == null && files.size() != 1) {
            System.err.println("several scenarios need -o OUTDIR");
            return 2;
        }
        if ((files.size() > 1 || twice) && !fresh) startSharedCluster();
        for (String f : files) {
            long t0 = System.nanoTime();
            List<String> lines;
            JsonNode sc;
            try {
                sc = MAPPER.readTree(new File(f));
                lines = runSafely(sc);
                if (twice) {
                    List<String> again = runSafely(sc);
                    if (!again.equals(lines)) {
                        System.err.println("[oracle-ext] NOT DETERMINISTIC: " + f + "\n first: " + lines + "\n second: " + again);
                        return 3;
                    }
                }
            } catch (ScenarioError | java.io.IOException ex) {
                System.err.println("[oracle-ext] bad scenario " + f + ": " + ex.getMessage());
                return 2;
            }
            StringBuilder sb = new StringBuilder();
            for (String l : lines) sb.append(l).append('\n');
            if (outDir == null) {
                PrintStream ps = new PrintStream(System.out, true, StandardCharsets.UTF_8);
                ps.print(sb);
                ps.flush();
            } else {
                String name = sc.has("name") ? sc.get("name").asText() : new File(f).getName().replaceAll("\\.json$", "");
                File o = new File(outDir, name + ".jsonl");
                Files.write(o.toPath(), sb.toString().getBytes(StandardCharsets.UTF_8));
                System.err.printf("%s -> %s (%d lines, %.2fs%s)%n", f, o, lines.size(), (System.nanoTime() - t0) / 1e9, twice ? ", ran twice, identical" : "");
            }
        }
        return 0;
    }
}
