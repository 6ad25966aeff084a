// Experiment, not a golden: does a checkpointed processing-time timer that is already due when the
// job is restored fire at once, and in a deterministic place? (README.md, "A TaskManager dies").
//
// A KeyedProcessFunction registers a processing-time timer 1.5 s ahead (wall clock) at item 1;
// checkpoint 1 holds it; the TaskManager dies at item 3 and the harness keeps it dead until the
// timer is 0.5 s overdue, then starts a new one. Prints every run's lines and, at the end, in how
// many runs the timer fired before the first replayed element and before the reader's first poll.
// Usage: tests/oracle-ext/experiments/ptimer-at-restore [RUNS]

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;

public class PtimerAtRestore {
    static volatile long DUE;

    public static class Fn extends KeyedProcessFunction<String, OracleExt.Item, String> {
        @Override
        public void processElement(OracleExt.Item it, Context ctx, Collector<String> out) {
            if (it.id == 1) {
                DUE = ctx.timerService().currentProcessingTime() + 1500;
                ctx.timerService().registerProcessingTimeTimer(DUE);
                out.collect("element 1: processing-time timer registered, due in 1.5 s");
            } else {
                out.collect("element " + it.id);
            }
        }

        @Override
        public void onTimer(long t, OnTimerContext ctx, Collector<String> out) {
            out.collect("PTIMER fired " + (ctx.timerService().currentProcessingTime() - t) + " ms after it was due");
        }
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int n = 8;
        int[] kinds = new int[n];
        List<OracleExt.Item> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            OracleExt.Item it = new OracleExt.Item();
            it.id = i;
            it.key = "k";
            it.ts = i;
            items.add(it);
        }
        kinds[2] = ScriptSource.CHECKPOINT;
        kinds[3] = ScriptSource.CRASH;
        int beforeElements = 0, beforePoll = 0;
        for (int run = 0; run < runs; run++) {
            CourseWindows.OUT.clear();
            CourseWindows.ITEMS = items;
            ScriptSource.reset(kinds);
            Configuration conf = new Configuration();
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, java.time.Duration.ZERO);
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, java.time.Duration.ofHours(1));
            conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, java.time.Duration.ofHours(1));
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
            DataStreamUtils.reinterpretAsKeyedStream(
                            env.fromSource(new ScriptSource(n), WatermarkStrategy.noWatermarks(), "script", Types.LONG)
                                    .map(new CourseWindows.PositionToItem()).returns(TypeInformation.of(OracleExt.Item.class)),
                            new OracleExt.KeyOf(), Types.STRING)
                    .process(new Fn(), Types.STRING).map(new CourseWindows.Record()).sinkTo(new DiscardingSink<>());
            MiniCluster c = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(1).build());
            c.start();
            try {
                JobID id = c.submitJob(env.getStreamGraph().getJobGraph()).get().getJobID();
                CompletableFuture<JobResult> res = c.requestJobResult(id);
                while (!res.isDone()) {
                    long[] r = ScriptSource.REQUESTS.poll(20, TimeUnit.MILLISECONDS);
                    if (r == null) continue;
                    if (r[0] == ScriptSource.CHECKPOINT) {
                        c.triggerCheckpoint(id).get();
                    } else {
                        CourseWindows.recordFromHarness("crash: the TaskManager stays dead until the timer is 0.5 s overdue");
                        c.terminateTaskManager(0).get();
                        while (System.currentTimeMillis() < DUE + 500) Thread.sleep(20); // the outage lasts past the timer
                        c.startTaskManager();
                    }
                }
                System.out.println("run " + run + ": job " + (res.get().isSuccess() ? "finished" : "FAILED"));
            } finally {
                c.close();
            }
            List<String> lines = new ArrayList<>();
            synchronized (CourseWindows.OUT) {
                for (String[] l : CourseWindows.OUT) lines.add(l[1]);
            }
            for (String l : lines) System.out.println("  " + l);
            int timer = -1, firstReplayed = -1, restore = -1;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith("PTIMER")) timer = i;
                if (lines.get(i).equals("element 4") && firstReplayed < 0) firstReplayed = i;
                if (lines.get(i).contains("\"restore\"")) restore = i;
            }
            if (timer >= 0 && timer < firstReplayed) beforeElements++;
            if (timer >= 0 && timer < restore) beforePoll++;
        }
        System.out.printf("%d runs: the due timer fired before the first replayed element in %d, before the reader's first poll in %d%n", runs, beforeElements, beforePoll);
        System.exit(0);
    }
}
