// The "real traffic" stream of issue 15, seeded: n elements over 20 keys, timestamps about 1 s
// apart plus up to 20 s of disorder, bounded out-of-orderness 5 s. Shared by the scale tests,
// `scripts/bench browser` and the whole-process comparison with real Flink.
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const [n, kind, slide] = process.argv.slice(2);
  if (!n || !ASSIGNERS[kind]) {
    console.error('usage: node e2e/stream.mjs N tumbling|sliding|session [SLIDE_MS]');
    process.exit(2);
  }
  process.stdout.write(JSON.stringify(stream(Number(n), kind, slide ? Number(slide) : undefined)));
}
