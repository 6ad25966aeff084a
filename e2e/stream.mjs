// The "real traffic" stream of issue 15, seeded: n elements over 20 keys, timestamps about 1 s
// apart plus up to 20 s of disorder, bounded out-of-orderness 5 s. Shared by the scale tests,
// `scripts/bench browser` and the whole-process comparison with real Flink. And the same kind of
// stream as a CSV file for the import (`sensorCsv`).
//
//   node e2e/stream.mjs N tumbling|sliding|session [SLIDE_MS] > scenario.json
//
// tumbling: 30 s; sliding: 60 s with a 20 s slide (or SLIDE_MS); session: gap 1.5 s.

export const ASSIGNERS = {
  tumbling: () => ({ kind: 'tumbling', size: 30000 }),
  sliding: (slide = 20000) => ({ kind: 'sliding', size: 60000, slide }),
  session: () => ({ kind: 'session', gap: 1500 }),
};

export function stream(n, kind, slide) {
  let seed = 15;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const input = new Array(n);
  for (let i = 0; i < n; i++) {
    const ts = i * 1000 + Math.floor(rand() * 1000) - Math.floor(rand() * 20000);
    input[i] = { id: i + 1, key: `k${i % 20}`, ts: Math.max(0, ts), value: 1 + (i % 9) };
  }
  return {
    name: `stream_${kind}_${n}`,
    assigner: ASSIGNERS[kind](slide),
    watermarks: { kind: 'bounded_out_of_orderness', bound: 5000 },
    input,
  };
}

/**
 * A sensor table of `n` rows for the import (issue 15, "your own stream"), seeded: 20 sensors,
 * timestamps about 1 s apart from 2024-03-10 with up to 20 s of disorder. The rows at the 0-based
 * indices `bad` are broken, in turn a timestamp that is no time and an empty sensor. `wide`: ISO-8601
 * times with an offset, a partition and a quoted note (about 55 bytes a row, 5 MB at 100,000);
 * else `event_ms,sensor,reading` (about 28 bytes a row). Resolves to { text, badLines } (the bad
 * rows' lines in the file: the header is line 1).
 */
export function sensorCsv(n, bad = [], { wide = false } = {}) {
  let seed = 2024;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const lines = [wide ? 'event_time,sensor,reading,partition,note' : 'event_ms,sensor,reading'];
  const badLines = [];
  for (let i = 0; i < n; i++) {
    const ms = 1710057600000 + i * 1000 + Math.floor(rand() * 1000) - Math.floor(rand() * 20000);
    const sensor = `sensor-${String(i % 20).padStart(2, '0')}`;
    const reading = Math.floor(rand() * 1000);
    // +01:00: the local time is an hour ahead of UTC.
    const ts = wide ? new Date(ms + 3600000).toISOString().replace('Z', '+01:00') : String(ms);
    const which = bad.indexOf(i);
    const [t, k] = which < 0 ? [ts, sensor] : which % 2 === 0 ? ['soon', sensor] : [ts, ''];
    if (which >= 0) badLines.push(i + 2);
    lines.push(wide ? `${t},${k},${reading},${i % 4},"reading ${reading}, nominal"` : `${t},${k},${reading}`);
  }
  return { text: `${lines.join('\n')}\n`, badLines };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [n, kind, slide] = process.argv.slice(2);
  if (!n || !ASSIGNERS[kind]) {
    console.error('usage: node e2e/stream.mjs N tumbling|sliding|session [SLIDE_MS]');
    process.exit(2);
  }
  process.stdout.write(JSON.stringify(stream(Number(n), kind, slide ? Number(slide) : undefined)));
}
