// Part two, edited on the page (issue 16): an arrival chip dragged to another source partition
// with the real mouse (and the keyboard alternative), the engine's partition watermarks and
// outputs following; the two process-function presets on the timer lane and in the output
// panel; compare mode without and with idleness; the SQL view's TVF sizes edited, its rows
// those real Flink recorded for the edited sizes (tests/flink-ext goldens).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp, runSettled, until, REPO_ROOT } from './harness.mjs';
import { scenarioPath } from './fixtures.mjs';

const LONG_MIN = '-9223372036854775808';
const EXT = join(REPO_ROOT, 'tests', 'flink-ext');
const scenarioOf = (name) => JSON.parse(readFileSync(join(EXT, 'scenarios', `${name}.json`), 'utf8'));

/** Two partitions, per-event bounded watermarks (bound 0), every element on partition 0: partition 1 never sends. */
const TWO = {
  name: 'e2e_two_partitions',
  assigner: { kind: 'tumbling', size: 10000 },
  watermarks: { kind: 'bounded_out_of_orderness', bound: 0 },
  partitions: 2,
  end_of_input: false,
  input: [
    { id: 1, key: 'A', ts: 1000, arrival: 0 },
    { id: 2, key: 'A', ts: 5000, arrival: 500 },
    { id: 3, key: 'A', ts: 12000, arrival: 1000 },
    { id: 4, key: 'A', ts: 15000, arrival: 1500 },
    { id: 5, key: 'A', ts: 25000, arrival: 2000 },
  ],
};

/** Each partition's (partition, wm), the combined watermark, the window results, the chips. */
const state = (page) =>
  page.evaluate(() => ({
    combined: document.querySelector('[data-testid="watermark"]')?.dataset.wm,
    partitions: [...document.querySelectorAll('[data-testid="partition-watermark"]')].map((e) => `${e.dataset.partition}:${e.dataset.wm}`),
    outputs: [...document.querySelectorAll('[data-testid="output-row"]')].map((r) => `${r.dataset.start}-${r.dataset.end}`),
    chips: [...document.querySelectorAll('[data-testid="arrival-item"]')].map((c) => `${c.dataset.index}:${c.textContent.match(/e(\d+)/)?.[1]}:p${c.dataset.partition}@${c.dataset.arrival}`),
  }));

const centreOf = async (locator) => {
  const b = await locator.boundingBox();
  assert.ok(b, 'on screen');
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
};

test('arrival strip: a chip dragged with the mouse to partition 1 (and one place earlier) moves the partition watermarks and fires the window; Alt+↑/↓ do the same from the keyboard', async (t) => {
  const app = await openApp({ path: scenarioPath(TWO, 'end') });
  t.after(() => app.close());
  const { page } = app;
  let revision = await runSettled(page);
  await page.locator('[data-testid="tab-output"]').click();
  let s = await state(page);
  // Partition 1 never sent: the combined watermark is its Long.MIN, nothing fires.
  assert.deepEqual(s.partitions, ['0:24999', `1:${LONG_MIN}`]);
  assert.equal(s.combined, LONG_MIN);
  assert.deepEqual(s.outputs, []);
  assert.deepEqual(s.chips, ['0:1:p0@0', '1:2:p0@500', '2:3:p0@1000', '3:4:p0@1500', '4:5:p0@2000']);

  // The strip has a row per partition; drag element 5 down to partition 1's row, one column left.
  const chip = page.locator('[data-testid="arrival-item"][data-index="4"]');
  const from = await centreOf(chip);
  const column = await centreOf(page.locator('[data-testid="arrival-item"][data-index="3"]'));
  const row1 = await centreOf(page.locator('[data-partition-row="1"]'));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(column.x, row1.y, { steps: 10 });
  await until(page, 'partition 1 marked as the drop row', () => page.locator('[data-partition-row="1"]').getAttribute('class'), (c) => /drop-row/.test(c));
  await page.mouse.up();
  revision = await runSettled(page, revision);
  await page.locator('[data-testid="output-row"]').first().waitFor();
  s = await state(page);
  // Element 5 is now read from partition 1, before element 4, its arrival kept between its
  // neighbours' (1000 and 1500). Engine: after element 5 partition 1's watermark is
  // 25000 - 0 - 1 = 24999 and the combined minimum partition 0's 11999, past [0, 10 s)'s
  // end - 1: it fires; element 4 then lifts partition 0 (and the minimum) to 14999.
  assert.deepEqual(s.chips, ['0:1:p0@0', '1:2:p0@500', '2:3:p0@1000', '3:5:p1@1500', '4:4:p0@1500']);
  assert.deepEqual(s.partitions, ['0:14999', '1:24999']);
  assert.equal(s.combined, '14999');
  assert.deepEqual(s.outputs, ['0-10000']);
  assert.equal(await page.locator('[data-testid="output-row"]').getAttribute('data-count'), '2');
  const moved = page.locator('[data-testid="arrival-item"][data-index="3"]');
  assert.equal(await moved.getAttribute('aria-selected'), 'true', 'the dropped item is the selection');
  assert.match(await moved.getAttribute('title'), /read from partition 1, arrives at processing time 1500/);

  // The keyboard alternative: on the strip, Alt+↑ moves the selected item to partition 0.
  await page.locator('[data-testid="arrival-strip"]').focus();
  assert.equal(await page.locator('[data-testid="arrival-strip"]').getAttribute('aria-activedescendant'), 'arrival-chip-3');
  await page.keyboard.press('Alt+ArrowUp');
  revision = await runSettled(page, revision);
  s = await state(page);
  assert.equal(s.chips[3], '3:5:p0@1500');
  assert.deepEqual(s.partitions, ['0:24999', `1:${LONG_MIN}`]);
  assert.equal(s.combined, LONG_MIN);
  assert.deepEqual(s.outputs, []);
  // Alt+↓ back to partition 1, Alt+→ one place later in arrival order (after element 4).
  await page.keyboard.press('Alt+ArrowDown');
  revision = await runSettled(page, revision);
  await page.keyboard.press('Alt+ArrowRight');
  revision = await runSettled(page, revision);
  s = await state(page);
  assert.deepEqual(s.chips.slice(3), ['3:4:p0@1500', '4:5:p1@1500']);
  assert.deepEqual(s.partitions, ['0:14999', '1:24999']);
  assert.deepEqual(s.outputs, ['0-10000']);
  // ←/→ choose an item (the playhead follows), Enter opens the editor on it.
  await page.keyboard.press('ArrowLeft');
  await until(page, 'item 4 chosen', () => page.locator('[data-testid="arrival-strip"]').getAttribute('aria-activedescendant'), (a) => a === 'arrival-chip-3');
  assert.equal(await page.locator('[data-testid="playhead"]').getAttribute('data-step'), '4');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="editor"]').waitFor();
  assert.equal(await page.locator('[data-testid="edit-partition"]').inputValue(), '0');
  await page.keyboard.press('Escape');
  assert.deepEqual(app.pageErrors, []);
});

const timers = (page) =>
  page.locator('[data-testid="timer"]').evaluateAll((ts) => ts.map((x) => `${x.dataset.key}@${x.dataset.time}:${x.dataset.status}${x.dataset.ignored === 'true' ? ':ignored' : ''}`).sort());
const processRows = (page) =>
  page.locator('[data-testid="process-row"]').evaluateAll((r) => r.map((x) => `${x.dataset.key} ${x.dataset.kind} ts ${x.dataset.ts}${x.dataset.id ? ` id ${x.dataset.id}` : ''}${x.dataset.errors ? ` ${x.dataset.errors}/${x.dataset.requests}` : ''}`));
const T10 = 1767261600000;

test('course presets of both process functions: the timer lane (registered, deleted, fired, stale ignored), the TTL expiry, the records', async (t) => {
  const app = await openApp({ path: '#preset=request-assembler-timers&step=6' });
  t.after(() => app.close());
  const { page } = app;
  let revision = await runSettled(page);
  await page.locator('[data-testid="tab-output"]').click();
  // Step 6 (the watermark at 10:05): r2's timer deleted, r1's first timer fired but stale, r1's
  // second and r3's still registered.
  assert.deepEqual(await timers(page), [
    `r1@${T10 + 300000}:fired:ignored`,
    `r1@${T10 + 360000}:registered`,
    `r2@${T10 + 330000}:deleted`,
    `r3@${T10 + 420000}:registered`,
  ]);
  assert.deepEqual(await processRows(page), [`r2 completed ts ${T10 + 120000} id 3`]);
  await page.evaluate(() => { location.hash = '#preset=request-assembler-timers&step=end'; });
  await until(page, 'the end', () => page.locator('[data-testid="playhead"]').evaluate((p) => p.dataset.step === p.dataset.steps));
  assert.deepEqual(await timers(page), [
    `r1@${T10 + 300000}:fired:ignored`,
    `r1@${T10 + 360000}:fired`,
    `r2@${T10 + 330000}:deleted`,
    `r3@${T10 + 420000}:fired:ignored`,
  ]);
  assert.deepEqual(await processRows(page), [`r2 completed ts ${T10 + 120000} id 3`, `r1 abandoned ts ${T10 + 360000} id 4`]);
  assert.deepEqual(await page.locator('[data-testid="ttl-expired"]').evaluateAll((e) => e.map((x) => x.dataset.key)), ['r3']);

  await page.evaluate(() => { location.hash = '#preset=error-rate-alert&step=14'; });
  revision = await runSettled(page, revision);
  await until(page, 'the error-rate alert at step 14', () => page.locator('[data-testid="scenario-name"]').textContent(), (n) => n === 'error-rate-alert');
  const m1 = T10 + 59999;
  const m2 = m1 + 60000;
  // The watermark reached 10:00:59.999: both models' minute timers fired, each emitted.
  assert.deepEqual(await timers(page), [`model-a@${m1}:fired`, `model-b@${m1}:fired`]);
  assert.deepEqual(await processRows(page), [`model-a alert ts ${m1} 1/10`, `model-b ok ts ${m1} 0/3`]);
  await page.evaluate(() => { location.hash = '#preset=error-rate-alert&step=end'; });
  await until(page, 'the end', () => page.locator('[data-testid="playhead"]').evaluate((p) => p.dataset.step === p.dataset.steps));
  assert.deepEqual(await timers(page), [`model-a@${m1}:fired`, `model-a@${m2}:fired`, `model-b@${m1}:fired`, `model-b@${m2}:fired`]);
  assert.deepEqual(await processRows(page), [`model-a alert ts ${m1} 1/10`, `model-b ok ts ${m1} 0/3`, `model-a ok ts ${m2} 0/1`, `model-b alert ts ${m2} 1/2`]);
  // model-a's late error (element 14) is dropped: its minute's entry was removed.
  assert.match(await page.locator('[data-testid="element"][data-id="14"]').getAttribute('data-outcome'), /^dropped/);
  assert.deepEqual(app.pageErrors, []);
});

const windowsOf = (page, root) =>
  page.locator(`${root} [data-testid="window"]`).evaluateAll((w) => w.map((x) => `${x.dataset.start}:${x.dataset.state}`).sort().join());

test('compare mode, without and with idleness: the idle configuration fires where the other does not, marked on both canvases', async (t) => {
  const app = await openApp({ path: '#preset=quiet-night-stall&step=end' });
  t.after(() => app.close());
  const { page } = app;
  const before = await runSettled(page);
  await page.locator('[data-testid="tab-compare"]').click();
  await page.locator('[data-testid="compare-idleness"]').click();
  await runSettled(page, before);
  await page.locator('[data-testid="compare-b"]').waitFor();
  assert.doesNotMatch(await page.locator('[data-testid="compare-label-a"]').textContent(), /idleness/);
  assert.match(await page.locator('[data-testid="compare-label-b"]').textContent(), /idleness 10 s/);
  const T22 = 1767304800000;
  // A: apac's one sale pins the watermark, every minute stays open. B: apac idle, both fire.
  await until(page, 'B fired', () => windowsOf(page, '[data-testid="scene-b"]'), (w) => w.includes(`${T22}:cleaned`));
  const a = await windowsOf(page, '[data-testid="scene"]');
  assert.ok(!/fired|cleaned/.test(a), `A fires nothing: ${a}`);
  const b = await windowsOf(page, '[data-testid="scene-b"]');
  assert.match(b, new RegExp(`${T22}:cleaned`));
  assert.match(b, new RegExp(`${T22 + 60000}:cleaned`));
  const diffs = await page.locator('[data-testid="diff-row"]').evaluateAll((r) => r.map((x) => `${x.dataset.kind}: ${x.textContent}`));
  assert.ok(diffs.filter((d) => d.startsWith('firing:')).length >= 2, diffs.join('\n'));
  const marks = (root) => page.locator(`${root} [data-testid="diff-mark"]`).evaluateAll((m) => m.map((x) => x.dataset.kind));
  assert.ok((await marks('[data-testid="scene-b"]')).includes('window'), 'B\'s fired windows are marked');
  assert.ok((await marks('[data-testid="scene"]')).length > 0, 'A is marked too');
  // B's partition 1 is idle; A's holds the watermark.
  assert.equal(await page.locator('[data-testid="scene-b"] [data-testid="partition-watermark"][data-partition="1"]').getAttribute('data-idle'), 'true');
  assert.equal(await page.locator('[data-testid="scene"] [data-testid="partition-watermark"][data-partition="1"]').getAttribute('data-idle'), 'false');

  // The course preset opens the same comparison by itself.
  await page.evaluate(() => { location.hash = '#preset=quiet-night-compare&step=end'; });
  await until(page, 'the preset', () => page.locator('[data-testid="scenario-name"]').textContent(), (n) => n === 'quiet-night-compare');
  await until(page, 'B fired', () => windowsOf(page, '[data-testid="scene-b"]'), (w) => w === b);
  assert.equal(await windowsOf(page, '[data-testid="scene"]'), a);
  assert.deepEqual(app.pageErrors, []);
});

/** Real Flink's rows for a scenario, as `key [start, end) time sum count`. */
const goldenRows = (name) =>
  readFileSync(join(EXT, 'golden', `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"out":"tvf"'))
    .map((l) => JSON.parse(l))
    .map((r) => `${r.key} [${r.window_start}, ${r.window_end}) ${r.window_time} ${r.sum} ${r.count}`)
    .sort();
const shownRows = (page) =>
  page.locator('[data-testid="scene"] [data-testid="tvf-row"]').evaluateAll((els) =>
    els.map((e) => `${e.dataset.key} [${e.dataset.windowStart}, ${e.dataset.windowEnd}) ${e.dataset.windowTime} ${e.dataset.sum} ${e.dataset.count}`).sort());

test('SQL view: the TVF sizes are named fields; a bad size is explained, an accepted one gives real Flink\'s rows for it', async (t) => {
  const app = await openApp({ path: scenarioPath(scenarioOf('tvf_hop_basic'), 'end') });
  t.after(() => app.close());
  const { page } = app;
  let revision = await runSettled(page);
  await page.locator('[data-testid="tab-sql"]').click();
  assert.deepEqual(await shownRows(page), goldenRows('tvf_hop_basic'));
  const size = page.getByLabel('Size', { exact: true });
  assert.equal(await size.getAttribute('data-testid'), 'sql-size');
  assert.equal(await size.inputValue(), '60000');
  assert.equal(await page.getByLabel('Slide', { exact: true }).inputValue(), '20000');
  // 50 s is not a multiple of the 20 s slide: Flink SQL refuses it, so does the page.
  await size.fill('50s');
  const error = page.locator('[data-testid="field-error"][data-field="sql-size"]');
  assert.match(await error.textContent(), /HOP window size must be an integral multiple of the slide/);
  assert.equal(await size.getAttribute('aria-invalid'), 'true');
  await size.press('Enter');
  assert.deepEqual(await shownRows(page), goldenRows('tvf_hop_basic'), 'a refused size runs nothing');
  await size.fill('ten');
  assert.match(await error.textContent(), /Size "ten" is not a whole number of milliseconds/);
  // 40 s: real Flink's rows for HOP(20 s, 40 s) on the same input.
  await size.fill('40s');
  assert.equal(await error.count(), 0);
  await size.press('Enter');
  revision = await runSettled(page, revision);
  assert.match(await page.locator('[data-testid="sql-query"]').textContent(), /INTERVAL '20' SECOND, INTERVAL '40' SECOND/);
  assert.deepEqual(await shownRows(page), goldenRows('tvf_hop_basic_size_40s'));

  // SESSION's gap: 10 s to 3 s splits A's first session (real Flink: tvf_session_basic_gap_3s).
  await page.goto(new URL(scenarioPath(scenarioOf('tvf_session_basic'), 'end'), app.url).href);
  await until(page, 'the session scenario', () => page.locator('[data-testid="scenario-name"]').textContent(), (n) => n === 'tvf_session_basic');
  revision = await runSettled(page);
  await page.locator('[data-testid="tab-sql"]').click();
  const gap = page.getByLabel('Gap', { exact: true });
  assert.equal(await gap.inputValue(), '10000');
  await gap.fill('0');
  assert.match(await page.locator('[data-testid="field-error"][data-field="sql-gap"]').textContent(), /Gap must be greater than 0/);
  await gap.fill('3000');
  await gap.press('Enter');
  revision = await runSettled(page, revision);
  assert.deepEqual(await shownRows(page), goldenRows('tvf_session_basic_gap_3s'));
  // One undo step restores the 10 s gap and its rows.
  await page.locator('[data-testid="undo"]').click();
  await runSettled(page, revision);
  await until(page, 'gap 10 s again', () => gap.inputValue(), (v) => v === '10000');
  assert.deepEqual(await shownRows(page), goldenRows('tvf_session_basic'));
  assert.deepEqual(app.pageErrors, []);
});
