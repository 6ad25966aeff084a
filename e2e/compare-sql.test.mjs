// Compare mode and the SQL view (issue 16), end to end in headless Chromium: every SQL TVF scenario
// of tests/flink-ext, loaded by #scenario=, shows real Flink's rows as `tvf-row` items; the SQL tab
// turns a sliding window into HOP with the same rows and puts it beside the DataStream window;
// compare mode with bounds 5 s and 20 s marks the differences on both canvases, one playhead moves
// both, the link carries both configurations, and undo covers both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { openApp, runSettled, until, REPO_ROOT, VIEWPORTS } from './harness.mjs';
import { scenarioPath } from './fixtures.mjs';

const EXT = join(REPO_ROOT, 'tests', 'flink-ext');
const TVF_NAMES = readdirSync(join(EXT, 'scenarios')).filter((f) => f.startsWith('tvf_')).map((f) => f.replace(/\.json$/, ''));
const scenarioOf = (name) => JSON.parse(readFileSync(join(EXT, 'scenarios', `${name}.json`), 'utf8'));

/** A row as `key [start, end) time sum count`, every integer in full decimal. */
const rowText = (r) => `${r.key} [${r.window_start}, ${r.window_end}) ${r.window_time} ${r.sum} ${r.count}`;
/** Real Flink's rows, in emission order (rows of one watermark across keys: Flink leaves their order open). */
const goldenRows = (name) =>
  readFileSync(join(EXT, 'golden', `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"out":"tvf"'))
    .map((l) => JSON.parse(l.replace(/:(-?\d{16,})/g, ':"$1"')))
    .map(rowText);
/** The `tvf-row` items under `root`, in document (emission) order. */
const shownRows = (page, root = '[data-testid="scene"]') =>
  page.locator(`${root} [data-testid="tvf-row"]`).evaluateAll((els) =>
    els.map((e) => `${e.dataset.key} [${e.dataset.windowStart}, ${e.dataset.windowEnd}) ${e.dataset.windowTime} ${e.dataset.sum} ${e.dataset.count}`),
  );
const byWindowTime = (rows) => [...rows].sort((a, b) => a.split(' ')[3] - b.split(' ')[3] || (a < b ? -1 : a > b ? 1 : 0));

test('SQL view: every TVF scenario of tests/flink-ext shows real Flink 2.3 rows as tvf-row items', async (t) => {
  assert.ok(TVF_NAMES.length >= 9, `TVF scenarios: ${TVF_NAMES}`);
  const app = await openApp({ path: scenarioPath(scenarioOf(TVF_NAMES[0]), 'end') });
  t.after(() => app.close());
  const { page } = app;
  for (const name of TVF_NAMES) {
    await page.goto(new URL(scenarioPath(scenarioOf(name), 'end'), app.url).href);
    await until(page, `${name} loaded`, () => page.locator('[data-testid="scenario-name"]').textContent(), (n) => n === name);
    await runSettled(page);
    const golden = goldenRows(name);
    assert.ok(golden.length > 0, name);
    assert.deepEqual(byWindowTime(await shownRows(page)), byWindowTime(golden), name);
  }
  assert.deepEqual(app.pageErrors, []);
});

test('SQL view of a HOP: a sliding window becomes HOP(20 s, 1 min) with Flink\'s rows, the query, and the DataStream window beside it', async (t) => {
  // tvf_hop_basic as a DataStream job: the same input with a sliding window and 30 s allowed lateness.
  const hop = scenarioOf('tvf_hop_basic');
  const { tvf: _, ...rest } = hop;
  const datastream = { ...rest, name: 'hop_as_datastream', assigner: { kind: 'sliding', size: 60000, slide: 20000 }, allowed_lateness: 30000 };
  const app = await openApp({ path: scenarioPath(datastream, 'end'), viewport: VIEWPORTS.projector });
  t.after(() => app.close());
  const { page } = app;
  assert.equal(await page.locator('[data-testid="tvf-row"]').count(), 0, 'a DataStream window has no TVF rows');
  await page.locator('[data-testid="tab-sql"]').click();
  const before = await runSettled(page);
  await page.locator('[data-testid="sql-tvf"]').selectOption('HOP');
  await runSettled(page, before);
  assert.match(await page.locator('[data-testid="sql-query"]').textContent(), /HOP\(TABLE events, DESCRIPTOR\(ts\), INTERVAL '20' SECOND, INTERVAL '1' MINUTE\)/);
  assert.deepEqual(await shownRows(page), goldenRows('tvf_hop_basic'), 'the rows of real Flink\'s HOP, in emission order');
  assert.equal(await page.locator('[data-testid="sql-rows"] tbody tr').count(), 4);
  // Side by side with the DataStream window: the late firings and element 5 differ.
  const sql = await runSettled(page);
  await page.locator('[data-testid="sql-compare"]').click();
  await runSettled(page, sql);
  assert.match(await page.locator('[data-testid="compare-label-a"]').textContent(), /DataStream sliding 1 min every 20 s/);
  assert.match(await page.locator('[data-testid="compare-label-b"]').textContent(), /SQL HOP 1 min every 20 s/);
  assert.deepEqual(await shownRows(page, '[data-testid="scene-b"]'), goldenRows('tvf_hop_basic'));
  const diffs = await page.locator('[data-testid="diff-row"]').evaluateAll((r) => r.map((x) => `${x.dataset.kind}: ${x.textContent}`));
  assert.ok(diffs.some((d) => /^firing: .*late firing 1: A sum \d+ count \d+, B none/.test(d)), diffs.join('\n'));
  assert.ok(diffs.some((d) => /^append: .*append-only sink: A \d+ row\(s\), B 4 row\(s\)/.test(d)), diffs.join('\n'));
  assert.deepEqual(app.pageErrors, []);
});

/** Bound 5 s: element 3 (ts 50 s) comes after the watermark passed the window's end and goes to the side output; with 20 s it counts. */
const OUT_OF_ORDER = {
  name: 'e2e_out_of_order',
  assigner: { kind: 'tumbling', size: 60000 },
  watermarks: { kind: 'bounded_out_of_orderness', bound: 5000 },
  input: [{ id: 1, key: 'A', ts: 1000, value: 1 }, { id: 2, key: 'A', ts: 70000, value: 2 }, { id: 3, key: 'A', ts: 50000, value: 4 }],
};

const windowsOf = (page, root) =>
  page.locator(`${root} [data-testid="window"]`).evaluateAll((w) => w.map((x) => `${x.dataset.start}:${x.dataset.state}`).join());
const step = (page) => page.locator('[data-testid="playhead"]').getAttribute('data-step');

test('compare mode, bounds 5 s and 20 s: differences marked on both canvases, one playhead, link round trip, undo', async (t) => {
  const app = await openApp({ path: scenarioPath(OUT_OF_ORDER, 3) });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-compare"]').click();
  const before = await runSettled(page);
  await page.locator('[data-testid="compare-bounds"]').click();
  await runSettled(page, before);
  assert.match(await page.locator('[data-testid="compare-label-a"]').textContent(), /bound 5 s/);
  assert.match(await page.locator('[data-testid="compare-label-b"]').textContent(), /bound 20 s/);

  // At step 3 A has fired (and, lateness 0, cleaned up) [0, 60 s) and sent element 3 to the side
  // output; B holds it in the open window.
  assert.equal(await windowsOf(page, '[data-testid="scene"]'), '0:cleaned,60000:open');
  assert.equal(await windowsOf(page, '[data-testid="scene-b"]'), '0:open,60000:open');
  const kinds = () => page.locator('[data-testid="diff-row"]').evaluateAll((r) => r.map((x) => x.dataset.kind).join());
  assert.match(await kinds(), /firing/);
  assert.match(await kinds(), /late/);
  const marks = (root) => page.locator(`${root} [data-testid="diff-mark"]`).evaluateAll((m) => m.map((x) => x.dataset.kind).sort().join());
  // Elements 1 (emitted in A, pending in B) and 3, and A's fired window.
  assert.equal(await marks('[data-testid="scene"]'), 'element,element,window');
  assert.equal(await marks('[data-testid="scene-b"]'), 'element,element');
  assert.match(await page.locator('[data-testid="scene"] [data-testid="diff-mark"] title').first().textContent(), /differs/);

  // One playhead: back to the start and forward again move both canvases.
  await page.locator('[data-testid="first"]').click();
  await until(page, 'step 0', () => step(page), (s) => s === '0');
  assert.equal(await windowsOf(page, '[data-testid="scene-b"]'), '');
  assert.equal(await page.locator('[data-testid="compare-diff"]').getAttribute('data-count'), '0');
  await page.locator('[data-testid="step-forward"]').click();
  await until(page, 'step 1 on both', () => windowsOf(page, '[data-testid="scene-b"]'), (w) => w === '0:open');
  assert.equal(await windowsOf(page, '[data-testid="scene"]'), '0:open');
  await page.locator('[data-testid="last"]').click();
  await until(page, 'the end on both', () => windowsOf(page, '[data-testid="scene-b"]'), (w) => w === '0:cleaned,60000:cleaned');
  assert.equal(await windowsOf(page, '[data-testid="scene"]'), '0:cleaned,60000:cleaned');
  const atEnd = await page.locator('[data-testid="diff-row"]').evaluateAll((r) => r.map((x) => x.textContent));
  assert.ok(atEnd.some((d) => /A sum 1 count 1, B sum 5 count 2/.test(d)), atEnd.join('\n'));

  // The link carries both: a fresh page opens both configurations at the same step.
  const hash = await until(page, 'the address bar has the comparison', () => page.evaluate(() => location.hash), (h) => h.includes('&cmp='));
  const copy = await openApp({ path: hash });
  t.after(() => copy.close());
  assert.match(await copy.page.locator('[data-testid="compare-label-b"]').textContent(), /bound 20 s/);
  assert.equal(await windowsOf(copy.page, '[data-testid="scene-b"]'), '0:cleaned,60000:cleaned');
  assert.equal(await copy.page.locator('[data-testid="diff-row"]').count(), atEnd.length);

  // Undo covers both: B's bound edited, then undone; the comparison itself undone and redone.
  const edited = await runSettled(page);
  await page.locator('[data-testid="compare-b-bound"]').fill('2000');
  await page.locator('[data-testid="compare-b-bound"]').press('Enter');
  await runSettled(page, edited);
  await until(page, 'B bound 2 s', () => page.locator('[data-testid="compare-label-b"]').textContent(), (l) => /bound 2 s/.test(l));
  await page.locator('[data-testid="undo"]').click();
  await until(page, 'B bound 20 s again', () => page.locator('[data-testid="compare-label-b"]').textContent(), (l) => /bound 20 s/.test(l));
  await page.locator('[data-testid="undo"]').click();
  await page.locator('[data-testid="compare-b"]').waitFor({ state: 'detached' });
  await page.locator('[data-testid="redo"]').click();
  await page.locator('[data-testid="compare-b"]').waitFor();
  assert.deepEqual(app.pageErrors, []);
  assert.deepEqual(copy.pageErrors, []);
});

test('compare mode at 700x450: the two canvases stack with half the height each', async (t) => {
  // The embed has no side panel: the comparison comes with the link.
  const b = { ...OUT_OF_ORDER, watermarks: { kind: 'bounded_out_of_orderness', bound: 20000 }, input: [] };
  const cmp = deflateRawSync(Buffer.from(JSON.stringify(b))).toString('base64url');
  const app = await openApp({ path: `${scenarioPath(OUT_OF_ORDER, 3)}&mode=embed&cmp=${cmp}`, viewport: VIEWPORTS.embed });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="compare-b"]').waitFor();
  await runSettled(page);
  const boxA = await page.locator('.canvas-box').first().boundingBox();
  const boxB = await page.locator('[data-testid="compare-b"]').boundingBox();
  assert.ok(boxA && boxB);
  assert.ok(boxB.y >= boxA.y + boxA.height - 1, 'B is under A');
  assert.ok(Math.abs(boxA.height - boxB.height) <= 2, `half the height each: ${boxA.height} / ${boxB.height}`);
  assert.ok(boxA.height >= 60, `each canvas keeps room: ${boxA.height}`);
  assert.deepEqual(app.pageErrors, []);
});
