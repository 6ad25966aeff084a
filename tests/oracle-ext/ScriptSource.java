// A checkpointed FLIP-27 source that plays a scenario's input in order and stops at its
// `checkpoint` and `crash` items, so that a real checkpoint (and a real TaskManager death) happens
// at exactly that place in the input. See README.md, "A TaskManager dies".
//
// The source emits input positions (Long); CourseWindows maps them to the scenario's items. Its
// split is Flink's NumberSequenceSplit [next, last]: the reader's checkpointed state is the position
// of the next item to read (Flink's own split serializer and enumerator, from NumberSequenceSource).
//
//   checkpoint item i: the reader asks the harness for a checkpoint and waits (NOTHING_AVAILABLE)
//                      until Flink calls notifyCheckpointComplete; its snapshot says "next = i + 1".
//   crash item j:      the first time, the reader asks the harness to kill the TaskManager and waits
//                      forever; the harness terminates it and starts a new one. After the restart
//                      (from the last completed checkpoint) the replay passes j without stopping.
// Everything the job does for the items before a stop is finished when the reader is polled again:
// the whole job is one chain in one task (CourseWindows reinterprets the stream as keyed instead of
// shuffling), so the stops are deterministic.

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.core.io.InputStatus;

public class ScriptSource extends NumberSequenceSource {
    private static final long serialVersionUID = 1L;

    /** What the input position holds. Set by CourseWindows before the job starts (same JVM). */
    static volatile int[] KINDS = new int[0];
    static final int ITEM = 0, CHECKPOINT = 1, CRASH = 2;

    /** Requests from the reader to the harness: {CHECKPOINT | CRASH, position}. */
    static final LinkedBlockingQueue<long[]> REQUESTS = new LinkedBlockingQueue<>();
    /** Crash positions already performed (a TaskManager dies once). */
    static final Set<Integer> CRASHED = java.util.Collections.synchronizedSet(new HashSet<>());
    /** Number of reader starts in this run (1 + restores). */
    static volatile int ATTEMPTS = 0;
    /** The last completed checkpoint: {flink checkpoint id, position of its checkpoint item}, or null. */
    static volatile long[] LAST_COMPLETED = null;

    static void reset(int[] kinds) {
        KINDS = kinds;
        REQUESTS.clear();
        CRASHED.clear();
        ATTEMPTS = 0;
        LAST_COMPLETED = null;
    }

    public ScriptSource(int steps) {
        super(0, steps - 1);
    }

    @Override
    public SourceReader<Long, NumberSequenceSplit> createReader(SourceReaderContext ctx) {
        return new Reader(ctx);
    }

    static final class Reader implements SourceReader<Long, NumberSequenceSplit> {
        final SourceReaderContext ctx;
        final ArrayDeque<NumberSequenceSplit> splits = new ArrayDeque<>();
        NumberSequenceSplit cur;
        long next;
        boolean noMoreSplits;
        CompletableFuture<Void> available = new CompletableFuture<>();
        long waitingForCheckpointAt = -1; // position of the checkpoint item being waited for
        boolean crashing;
        int attempt;
        boolean restoreReported;

        Reader(SourceReaderContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void start() {
            attempt = ATTEMPTS++;
            restoreReported = attempt == 0;
            if (splits.isEmpty()) ctx.sendSplitRequest();
        }

        /** The "restore" line, once per restarted reader, when it knows where it replays from. */
        void reportRestore(long from) {
            if (restoreReported) return;
            restoreReported = true;
            long[] cp = LAST_COMPLETED;
            if (cp == null ? from != 0 : from != cp[1] + 1) {
                CourseWindows.harnessError("restored at position " + from + " but the last completed checkpoint is "
                        + (cp == null ? "none" : "#" + cp[0] + " at position " + cp[1]));
            }
            CourseWindows.record(CourseWindows.restoreLine(cp == null ? null : cp[0], from));
        }

        @Override
        public InputStatus pollNext(ReaderOutput<Long> out) {
            if (waitingForCheckpointAt >= 0 || crashing) return InputStatus.NOTHING_AVAILABLE;
            if (cur == null) {
                cur = splits.poll();
                if (cur == null) {
                    if (noMoreSplits) {
                        reportRestore(KINDS.length); // restored from a checkpoint taken after the last item
                        return InputStatus.END_OF_INPUT;
                    }
                    if (available.isDone()) available = new CompletableFuture<>();
                    return InputStatus.NOTHING_AVAILABLE;
                }
                next = cur.from();
                reportRestore(next);
            }
            if (next > cur.to()) {
                cur = null;
                if (splits.isEmpty() && !noMoreSplits) ctx.sendSplitRequest();
                if (available.isDone()) available = new CompletableFuture<>();
                return InputStatus.NOTHING_AVAILABLE;
            }
            int pos = (int) next;
            switch (KINDS[pos]) {
                case CHECKPOINT:
                    next++; // the checkpoint holds "continue after this item"
                    waitingForCheckpointAt = pos;
                    available = new CompletableFuture<>();
                    REQUESTS.add(new long[] {CHECKPOINT, pos});
                    return InputStatus.NOTHING_AVAILABLE;
                case CRASH:
                    if (CRASHED.add(pos)) {
                        crashing = true; // never resumed: the harness kills this TaskManager
                        available = new CompletableFuture<>();
                        REQUESTS.add(new long[] {CRASH, pos});
                        return InputStatus.NOTHING_AVAILABLE;
                    }
                    next++; // replay after the restart: the TaskManager died here once already
                    return InputStatus.MORE_AVAILABLE;
                default:
                    out.collect(next);
                    next++;
                    return InputStatus.MORE_AVAILABLE;
            }
        }

        @Override
        public List<NumberSequenceSplit> snapshotState(long checkpointId) {
            List<NumberSequenceSplit> state = new ArrayList<>();
            if (cur != null && next <= cur.to()) state.add(new NumberSequenceSplit(cur.splitId(), next, cur.to()));
            state.addAll(splits);
            return state;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            if (waitingForCheckpointAt < 0) return;
            LAST_COMPLETED = new long[] {checkpointId, waitingForCheckpointAt};
            CourseWindows.record(CourseWindows.checkpointLine(checkpointId, waitingForCheckpointAt));
            waitingForCheckpointAt = -1;
            available.complete(null);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void addSplits(List<NumberSequenceSplit> s) {
            splits.addAll(s);
            if (waitingForCheckpointAt < 0 && !crashing) available.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {
            noMoreSplits = true;
            if (waitingForCheckpointAt < 0 && !crashing) available.complete(null);
        }

        @Override
        public void close() {}
    }
}
