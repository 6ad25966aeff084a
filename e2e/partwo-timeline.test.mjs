// Part two on the timeline (issue 16), end to end: a second source partition added and made idle
// in the configuration panel, its track saying IDLE and the combined watermark released after the
// idleness timeout; the track on the keyboard with "why?"; the RequestAssembler's timer lane (a
// timer deleted on completion, a stale timer ignored, a TTL expiry); a source-only scenario loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openApp, REPO_ROOT, runSettled, until } from './harness.mjs';
import { b64url, scenarioPath } from './fixtures.mjs';

const LONG_MIN = '-9223372036854775808';

/** One partition, per-event bounded watermarks, an element every 500 ms of processing time. */
const STEADY = {
  name: 'e2e_one_partition',
  assigner: { kind: 'tumbling', size: 10000 },
  watermarks: { kind: 'bounded_out_of_orderness', bound: 0 },
  input: [
    { id: 1, key: 'A', ts: 1000, arrival: 0 },
    { id: 2, key: 'A', ts: 5000, arrival: 500 },
    { id: 3, key: 'A', ts: 12000, arrival: 1000 },
    { id: 4, key: 'A', ts: 15000, arrival: 1500 },
    { id: 5, key: 'A', ts: 25000, arrival: 2000 },
  ],
};

const flinkExt = (name) => readFileSync(path.join(REPO_ROOT, 'tests/flink-ext/scenarios', `${name}.json`), 'utf8');
const linkOf = (text, step) => `#scenario=${b64url(Buffer.from(text, 'utf8'))}&step=${step}`;

/** Each partition's (wm, idle, holds), and the combined watermark. */
const source = (page) =>
  page.evaluate(() => ({
    combined: document.querySelector('[data-testid="watermark"]')?.dataset.wm,
    partitions: [...document.querySelectorAll('[data-testid="partition-watermark"]')].map((e) => [e.dataset.partition, e.dataset.wm, e.dataset.idle, e.dataset.holds]),
    step: document.querySelector('[data-testid="playhead"]')?.dataset.step,
    steps: document.querySelector('[data-testid="playhead"]')?.dataset.steps,
  }));

async function goto(page, step) {
  await page.evaluate((h) => {
    location.hash = h;
  }, `#step=${step}`);
  return until(page, `step ${step}`, () => source(page), (v) => v.step === (step === 'end' ? v.steps : String(step)));
}

async function typeField(page, testid, text) {
  const before = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  const field = page.locator(`[data-testid="${testid}"]`);
  await field.fill(text);
  return runSettled(page, before);
}

test('a second partition added in the panel holds the watermark at Long.MIN; withIdleness releases it after the timeout', async (t) => {
  const app = await openApp({ path: scenarioPath(STEADY, 3) });
  t.after(() => app.close());
  const { page } = app;
  await runSettled(page);
  // One partition emitting per event: no track, its node carries the operator's watermark.
  let s = await source(page);
  assert.deepEqual(s.partitions, [['0', '11999', 'false', 'false']]);
  assert.equal(s.combined, '11999');
  await page.locator('[data-testid="tab-config"]').click();
  await typeField(page, 'cfg-partitions', '2');
  s = await goto(page, 3);
  // Partition 1 never sends: the minimum over the partitions is its Long.MIN.
  assert.deepEqual(s.partitions, [['0', '11999', 'false', 'false'], ['1', LONG_MIN, 'false', 'true']]);
  assert.equal(s.combined, LONG_MIN);
  assert.match(await page.locator('[data-testid="narration-source"]').textContent(), /partition 1 holds the watermark at none yet: nothing emitted yet/);
  // The tracks are drawn, the holder says so in words.
  const track1 = page.locator('[data-testid="partition-watermark"][data-partition="1"]');
  assert.match(await track1.textContent(), /partition 1 · wm none yet\s*◀ holds the watermark back/);

  await typeField(page, 'cfg-idleness', '1s');
  s = await goto(page, 3);
  assert.equal(s.combined, LONG_MIN, 'at processing time 1000 the idleness timeout (1 s after the clock started at 0) has not passed');
  // The first check more than 1 s after partition 1's inactivity clock started (at 0) is the
  // tick at 1200, before the arrival at 1500: partition 1 is idle, the watermark follows partition 0.
  s = await goto(page, 4);
  assert.deepEqual(s.partitions, [['0', '14999', 'false', 'true'], ['1', LONG_MIN, 'true', 'false']]);
  assert.equal(s.combined, '14999');
  assert.match(await track1.textContent(), /IDLE · idle since 1200/);
  assert.match(await page.locator('[data-testid="narration-source"]').textContent(), /partition 1 is idle since 1200/);
  // The window [0, 10000) fired once the watermark was released.
  await page.locator('[data-testid="tab-output"]').click();
  assert.deepEqual(await page.locator('[data-testid="output-row"]').evaluateAll((r) => r.map((x) => `${x.dataset.start}-${x.dataset.end}`)), ['0-10000']);

  // The keyboard: Tab enters the canvas on the first element; ↑ from its key lane reaches the
  // partition tracks; W explains the idle one.
  await page.locator('body').focus();
  let focus = null;
  for (let i = 0; i < 80 && !focus; i++) {
    await page.keyboard.press('Tab');
    focus = await page.evaluate(() => (document.activeElement?.closest('[data-testid="canvas"]') ? document.activeElement.getAttribute('data-focus') : null));
  }
  assert.equal(focus, 'e:0', 'Tab enters the canvas on the first element');
  await page.keyboard.press('ArrowUp');
  focus = await page.evaluate(() => document.activeElement?.getAttribute('data-focus'));
  assert.equal(focus, 'p:1', 'the track nearest the key lane');
  const name = await page.evaluate(() => document.activeElement?.querySelector(':scope > title')?.textContent);
  assert.equal(name, 'Source partition 1, its own watermark Long.MIN: idle since 1200');
  await page.keyboard.press('w');
  const why = page.locator('[data-testid="why-popover"][data-kind="partition"]');
  await why.waitFor();
  assert.match(await why.locator('[data-testid="why-summary"]').textContent(), /Partition 1 is idle since processing time 1200: it is left out of the combined watermark/);
  assert.match(await why.textContent(), /withIdleness\(1 s\)/);
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowUp');
  focus = await page.evaluate(() => document.activeElement?.getAttribute('data-focus'));
  assert.equal(focus, 'p:0');
  assert.deepEqual(app.pageErrors, []);
});

test('the arrival strip shows each item\'s partition and arrival, and the editor changes them', async (t) => {
  const text = flinkExt('src_idleness_releases_watermark');
  const app = await openApp({ path: linkOf(text, 3) });
  t.after(() => app.close());
  const { page } = app;
  let revision = await runSettled(page);
  const chip = page.locator('[data-testid="arrival-item"][data-index="1"]');
  assert.deepEqual([await chip.getAttribute('data-partition'), await chip.getAttribute('data-arrival')], ['1', '100']);
  assert.match(await chip.textContent(), /p1 @100/);
  await chip.dblclick();
  await page.locator('[data-testid="editor"]').waitFor();
  await page.locator('[data-testid="edit-partition"]').fill('0');
  await page.locator('[data-testid="edit-arrival"]').fill('250');
  await page.locator('[data-testid="edit-save"]').click();
  revision = await runSettled(page, revision);
  assert.deepEqual([await chip.getAttribute('data-partition'), await chip.getAttribute('data-arrival')], ['0', '250']);
  // Partition 1 now never sends: it holds the watermark at Long.MIN until it is idle.
  const s = await goto(page, 3);
  assert.deepEqual(s.partitions[1], ['1', LONG_MIN, 'false', 'true']);
  // A partition beyond the declared two is refused with the rule, nothing lost.
  await chip.dblclick();
  await page.locator('[data-testid="edit-partition"]').fill('5');
  await page.locator('[data-testid="edit-save"]').click();
  assert.match(await page.locator('[data-testid="edit-error"]').textContent(), /Partition must be from 0 to 1 \(the scenario declares 2 partitions/);
  assert.deepEqual(app.pageErrors, []);
});

test('a source-only scenario loads and shows its partitions and watermarks', async (t) => {
  const app = await openApp({ path: linkOf(flinkExt('src_all_partitions_idle_max_watermark'), 'end') });
  t.after(() => app.close());
  const { page } = app;
  await runSettled(page);
  const s = await source(page);
  assert.deepEqual(s.partitions, [['0', '5999', 'false', 'false'], ['1', '999', 'true', 'false']]);
  assert.equal(s.combined, '9223372036854775807');
  assert.equal(await page.locator('[data-testid="error-row"]').count(), 0);
  assert.deepEqual(app.pageErrors, []);
});

test('the RequestAssembler\'s timer lane: deleted on completion, a stale timer ignored, a TTL expiry', async (t) => {
  const app = await openApp({ path: linkOf(flinkExt('ra_completed_before_timeout'), 4) });
  t.after(() => app.close());
  const { page } = app;
  let revision = await runSettled(page);
  const timers = () =>
    page.locator('[data-testid="timer"]').evaluateAll((ts) => ts.map((x) => `${x.dataset.key}@${x.dataset.time}:${x.dataset.status}${x.dataset.ignored === 'true' ? ':ignored' : ''}`).sort());
  // Step 4: r1's completion deleted its timer at 300000; r2's is still registered.
  assert.deepEqual(await timers(), ['r1@300000:deleted', 'r2@300000:registered']);
  const r1 = page.locator('[data-testid="timer"][data-key="r1"]');
  assert.equal(await r1.locator(':scope > title').textContent(), 'Timer of the process function at 300000, key r1: deleted (the request completed first)');
  await page.locator('[data-testid="tab-output"]').click();
  const rows = () => page.locator('[data-testid="process-row"]').evaluateAll((r) => r.map((x) => `${x.dataset.key} ${x.dataset.kind} ts ${x.dataset.ts} id ${x.dataset.id}`));
  assert.deepEqual(await rows(), ['r1 completed ts 120000 id 2']);
  await goto(page, 'end');
  assert.deepEqual(await timers(), ['r1@300000:deleted', 'r2@300000:fired']);
  assert.deepEqual(await rows(), ['r1 completed ts 120000 id 2', 'r2 abandoned ts 300000 id 3']);

  // A restarted request: the first timer fires but onTimer ignores it (stale).
  await page.evaluate((h) => {
    location.hash = h;
  }, linkOf(flinkExt('ra_restarted_stale_timer_ignored'), 'end'));
  revision = await runSettled(page, revision);
  assert.deepEqual(await timers(), ['r1@300000:fired:ignored', 'r1@360000:fired']);
  assert.deepEqual(await rows(), ['r1 abandoned ts 360000 id 2']);

  // The state TTL expires the open request while the watermark stalls.
  await page.evaluate((h) => {
    location.hash = h;
  }, linkOf(flinkExt('ra_ttl_expires_during_watermark_stall'), 'end'));
  await runSettled(page, revision);
  const expired = await page.locator('[data-testid="ttl-expired"]').evaluateAll((e) => e.map((x) => `${x.dataset.key} at ${x.dataset.at}`));
  assert.ok(expired.length >= 1, 'a TTL expiry is drawn');
  assert.deepEqual(app.pageErrors, []);
});

test('the processing-time axis: lab 6.4\'s TTL expiry at its processing time, elements at their arrivals, the note that no run was recorded', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-4&step=end' });
  t.after(() => app.close());
  const { page } = app;
  await runSettled(page);
  const axis = page.locator('[data-testid="axis-title"]');
  assert.equal(await axis.getAttribute('data-domain'), 'event');
  assert.equal(await page.locator('[data-testid="axis-domain-note"]').count(), 0);
  const toggle = page.locator('[data-testid="toggle-processing-axis"]');
  await toggle.click();
  await until(page, 'the processing-time axis', async () => axis.getAttribute('data-domain'), (d) => d === 'processing');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  assert.match(await page.locator('[data-testid="axis-domain-note"]').textContent(), /Flink's rules, not a recorded run/);
  // r1's state expired by its 10 min TTL when its completion arrived at 600000 ms of processing
  // time: the badge is at that processing time, where element 4 (arriving then) is drawn too.
  const badge = page.locator('[data-testid="ttl-expired"][data-key="r1"]');
  assert.equal(await badge.getAttribute('data-at'), '600000');
  const xOf = (loc) => loc.evaluate((e) => e.getBoundingClientRect().left);
  const e4 = page.locator('[data-testid="element"][data-id="4"]');
  const e1 = page.locator('[data-testid="element"][data-id="1"]');
  assert.ok(Math.abs((await xOf(badge)) - (await e4.evaluate((e) => e.getBoundingClientRect().left + e.getBoundingClientRect().width / 2))) < 12, 'the badge sits at the arrival of element 4');
  assert.ok((await xOf(e4)) > (await xOf(e1)) + 50, 'element 4 arrives 10 min after element 1 (same event time)');
  // Dragging an element on this axis moves its arrival, not its timestamp.
  const before = await e1.getAttribute('data-ts');
  const revision = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  const box = await e1.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width / 2 + i * 6, box.y + box.height / 2);
  await page.mouse.up();
  await runSettled(page, revision);
  assert.equal(await e1.getAttribute('data-ts'), before);
  assert.notEqual(await page.locator('[data-testid="arrival-item"][data-index="0"]').getAttribute('data-arrival'), '0');
  await toggle.click();
  await until(page, 'the event-time axis', async () => axis.getAttribute('data-domain'), (d) => d === 'event');
  assert.deepEqual(app.pageErrors, []);
});

test('a dynamic session gap per key, edited in the panel', async (t) => {
  const scenario = {
    name: 'e2e_dynamic_gap',
    assigner: { kind: 'dynamic_session', default_gap: 5000 },
    watermarks: { kind: 'explicit' },
    input: [{ id: 1, key: 'A', ts: 1000 }, { id: 2, key: 'A', ts: 9000 }, { id: 3, key: 'B', ts: 1000 }, { wm: 60000 }],
  };
  const app = await openApp({ path: scenarioPath(scenario, 'end') });
  t.after(() => app.close());
  const { page } = app;
  let revision = await runSettled(page);
  const windows = () => page.locator('[data-testid="output-row"]').evaluateAll((r) => r.map((x) => `${x.dataset.key}:${x.dataset.start}-${x.dataset.end}`).sort());
  assert.deepEqual(await windows(), ['A:1000-6000', 'A:9000-14000', 'B:1000-6000']);
  await page.locator('[data-testid="tab-config"]').click();
  const gapA = page.locator('[data-testid="cfg-key-gap"][data-key="A"]');
  assert.equal(await gapA.inputValue(), '');
  await gapA.fill('10s');
  revision = await runSettled(page, revision);
  await page.locator('[data-testid="tab-output"]').click();
  // A's gap of 10 s bridges 1000 and 9000: one session [1000, 19000); B keeps the default.
  assert.deepEqual(await windows(), ['A:1000-19000', 'B:1000-6000']);
  await page.locator('[data-testid="tab-config"]').click();
  await gapA.fill('0');
  assert.match(await page.locator('[data-testid="field-error"][data-field="key-gaps"]').textContent(), /key A: 0 is not a gap/);
  assert.deepEqual(app.pageErrors, []);
});
