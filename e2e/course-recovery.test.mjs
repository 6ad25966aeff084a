// The course's triggers, DeltaEvictor and a TaskManager crash (issue 17), end to end:
// - the Configure tab shows a loaded DeltaEvictor, the early trigger "every N elements, then at
//   the watermark" and the capped session, and an edit elsewhere keeps them (it used to drop them);
// - the Lab 6.2 recovery preset: checkpoint and crash markers in the arrival strip, the restore and
//   the replay drawn there, recovery duplicates marked in the outputs and the append sink and
//   absorbed by the upsert sink, a narration line per step with what backs it (golden or rule);
// - compare mode: the late correction and the recovery duplicate side by side, marked differently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp, until, REPO_ROOT } from './harness.mjs';
import { scenarioPath } from './fixtures.mjs';

const corpus = (name) => JSON.parse(readFileSync(join(REPO_ROOT, 'tests/flink-ext/scenarios', `${name}.json`), 'utf8'));
const ids = (page) => page.locator('[data-testid="output-row"]').evaluateAll((r) => r.map((x) => x.dataset.ids));

test('Configure: DeltaEvictor and the early trigger round-trip through an edit of another field', async (t) => {
  const app = await openApp({ path: scenarioPath(corpus('course_delta_evictor_value_before'), 'end') });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-output"]').click();
  await until(page, 'two firings', async () => (await page.locator('[data-testid="output-row"]').count()) === 2);
  // The golden's contents after DeltaEvictor.of(50, |a.value − b.value|).
  assert.deepEqual(await ids(page), ['2,3,4', '5']);
  await page.locator('[data-testid="tab-config"]').click();
  assert.equal(await page.locator('[data-testid="cfg-evictor"]').inputValue(), 'delta');
  assert.equal(await page.locator('[data-testid="cfg-evictor-threshold"]').inputValue(), '50');
  assert.equal(await page.locator('[data-testid="cfg-evictor-delta"]').inputValue(), 'value');
  // The threshold and delta function are named controls.
  await page.getByLabel('evict when delta ≥ threshold').waitFor();
  await page.getByLabel('delta function').waitFor();
  // An edit of another field: the lateness 30 s -> 40 s -> 30 s. The evictor stays.
  const lateness = page.locator('[data-testid="cfg-lateness"]');
  await lateness.fill('40000');
  await lateness.fill('30000');
  await page.locator('[data-testid="cfg-side-output"]').uncheck();
  await page.locator('[data-testid="cfg-side-output"]').check();
  assert.equal(await page.locator('[data-testid="cfg-evictor"]').inputValue(), 'delta');
  await page.locator('[data-testid="tab-output"]').click();
  await until(page, 'same contents after the edits', async () => JSON.stringify(await ids(page)) === JSON.stringify(['2,3,4', '5']));
  // A new threshold through the form: 1000 keeps everything (no delta reaches it).
  await page.locator('[data-testid="tab-config"]').click();
  await page.locator('[data-testid="cfg-evictor-threshold"]').fill('1000');
  await page.locator('[data-testid="tab-output"]').click();
  await until(page, 'nothing evicted', async () => JSON.stringify(await ids(page)) === JSON.stringify(['1,2,3,4', '1,2,3,4,5']));
  assert.deepEqual(app.pageErrors, []);
});

test('Configure: the early trigger and the capped session are offered and kept', async (t) => {
  const app = await openApp({ path: scenarioPath(corpus('course_early_count_every_2_then_watermark'), 'end') });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-config"]').click();
  assert.equal(await page.locator('[data-testid="cfg-trigger"]').inputValue(), 'early_count_event_time');
  assert.equal(await page.locator('[data-testid="cfg-trigger-n"]').inputValue(), '2');
  await page.locator('[data-testid="cfg-side-output"]').uncheck();
  assert.equal(await page.locator('[data-testid="cfg-trigger"]').inputValue(), 'early_count_event_time');
  await page.locator('[data-testid="tab-output"]').click();
  await until(page, 'early firings kept', async () => JSON.stringify(await ids(page)) === JSON.stringify(['1,2', '1,2,3,4', '1,2,3,4,5']));
  // Every 3 elements instead: one early firing, then the watermark.
  await page.locator('[data-testid="tab-config"]').click();
  await page.locator('[data-testid="cfg-trigger-n"]').fill('3');
  await page.locator('[data-testid="tab-output"]').click();
  await until(page, 'every 3', async () => JSON.stringify(await ids(page)) === JSON.stringify(['1,2,3', '1,2,3,4,5']));
  // The capped session is in the menu, with its maximum duration.
  await page.locator('[data-testid="tab-config"]').click();
  await page.locator('[data-testid="cfg-assigner"]').selectOption('session');
  await page.locator('[data-testid="cfg-trigger"]').selectOption('session_max_duration');
  await page.getByLabel('maximum session duration').waitFor();
  assert.equal(await page.locator('[data-testid="cfg-trigger"]').inputValue(), 'session_max_duration');
  assert.deepEqual(app.pageErrors, []);
});

test('Lab 6.2 recovery: checkpoint, crash, restore and replay; duplicates in the append sink, not in the upsert sink', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2-recovery&step=5' });
  t.after(() => app.close());
  const { page } = app;
  const chips = page.locator('[data-testid="arrival-item"]');
  await until(page, 'eight items', async () => (await chips.count()) === 8);
  assert.match(await chips.nth(2).textContent(), /checkpoint/);
  assert.match(await chips.nth(5).textContent(), /crash/);
  // Before the crash step: no restore drawn yet.
  assert.equal(await page.locator('[data-testid="restore-marker"]').count(), 0);
  await page.locator('[data-testid="tab-output"]').click();
  await page.locator('[data-testid="step-forward"]').click();
  await until(page, 'step 6', async () => (await page.locator('[data-testid="playhead"]').getAttribute('data-step')) === '6');
  const marker = page.locator('[data-testid="restore-marker"]');
  await marker.waitFor();
  assert.equal(await marker.getAttribute('data-checkpoint'), '1');
  assert.equal(await marker.getAttribute('data-from-item'), '3');
  assert.match(await marker.textContent(), /checkpoint 1 · replay #4–#5/);
  const replayed = await chips.evaluateAll((c) => c.map((x) => x.classList.contains('replayed')));
  assert.deepEqual(replayed, [false, false, false, true, true, false, false, false]);
  // The outputs: the late correction, then the two duplicates, each marked as such.
  const rows = await page.locator('[data-testid="output-row"]').evaluateAll((r) =>
    r.map((x) => [x.dataset.firing, x.dataset.recoveryDuplicate ?? '', x.querySelector('.badge').textContent.trim()]),
  );
  assert.deepEqual(rows, [
    ['main', '', 'main'],
    ['late', '', 'late · updated result'],
    // data-recovery-duplicate: the output it repeats (outputs 1 and 2, after the checkpoint line 0).
    ['main', '1', 'recovery duplicate'],
    ['late', '2', 'recovery duplicate'],
  ]);
  const lines = await page.locator('[data-testid="recovery-row"]').evaluateAll((r) => r.map((x) => x.dataset.kind));
  assert.deepEqual(lines, ['checkpoint', 'crash', 'restore']);
  // Narration: the restore step, golden-backed.
  assert.match(await page.locator('[data-testid="narration"]').textContent(), /checkpoint 1/);
  assert.equal(await page.locator('[data-testid="recovery-basis"]').getAttribute('data-basis'), 'golden');
  // Sinks: the append sink holds the duplicates ($16.82 for the minute), the upsert sink $4.31.
  await page.locator('[data-testid="tab-sinks"]').click();
  await page.locator('[data-testid="sinks-panel"]').waitFor();
  assert.equal(await page.locator('[data-testid="sink-append-total"]').getAttribute('data-amount'), '1682');
  assert.equal(await page.locator('[data-testid="sink-upsert-total"]').getAttribute('data-amount'), '431');
  const append = await page.locator('[data-testid="append-row"]').evaluateAll((r) => r.map((x) => x.dataset.recoveryDuplicate ?? ''));
  assert.deepEqual(append, ['', '', 'true', 'true']);
  const upsert = page.locator('[data-testid="upsert-row"]');
  assert.equal(await upsert.count(), 1);
  assert.equal(await upsert.getAttribute('data-duplicates'), '2');
  assert.match(await upsert.textContent(), /2 recovery duplicates absorbed/);
  assert.deepEqual(app.pageErrors, []);
});

test('a processing-time timer due at the restore: the step says it follows the documented rule only', async (t) => {
  // The one event kind no golden can pin (tests/teach_narrate.rs, PTIMER_AT_RESTORE): r1's
  // processing-time timer (due at 1000) is in checkpoint 1 and due when the job restarts at 1500.
  const s = {
    name: 'ptimer_due_at_restore',
    process_function: { kind: 'request_assembler', timeout: 1000, timer: 'processing_time' },
    input: [
      { id: 1, key: 'r1', ts: 0, event: 'started', arrival: 0 },
      { checkpoint: true },
      { id: 2, key: 'r2', ts: 10, event: 'started', arrival: 500 },
      { crash: true, arrival: 1500 },
    ],
  };
  const app = await openApp({ path: scenarioPath(s, 2) });
  t.after(() => app.close());
  const { page } = app;
  const basis = page.locator('[data-testid="recovery-basis"]');
  await basis.waitFor();
  assert.equal(await basis.getAttribute('data-basis'), 'golden', 'the checkpoint is golden-backed');
  assert.match(await basis.textContent(), /^Golden-backed/);
  await page.locator('[data-testid="step-forward"]').click();
  await page.locator('[data-testid="step-forward"]').click();
  await until(page, 'the crash step', async () => (await page.locator('[data-testid="playhead"]').getAttribute('data-step')) === '4');
  await until(page, 'rule only', async () => (await basis.getAttribute('data-basis')) === 'rule-only');
  assert.match(await basis.textContent(), /^Documented rule only/);
  assert.match(await page.locator('[data-testid="narration"]').textContent(), /documented rule, not a recorded golden/);
  assert.deepEqual(app.pageErrors, []);
});

test('Lab 6.2 compare: the late correction (A) beside the recovery duplicate (B), marked differently', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2-recovery&step=6' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="compare-b"]').waitFor();
  assert.match(await page.locator('[data-testid="compare-label-b"]').textContent(), /lateness 0/);
  await page.locator('[data-testid="tab-output"]').click();
  const late = page.locator('[data-testid="output-row"][data-firing="late"]:not([data-recovery-duplicate])');
  const dup = page.locator('[data-testid="output-row"][data-recovery-duplicate]');
  await late.first().waitFor();
  assert.equal(await late.count(), 1);
  assert.match(await late.textContent(), /\$4\.31/);
  assert.match(await late.locator('.badge').textContent(), /late · updated result/);
  assert.equal(await dup.count(), 2);
  assert.match(await dup.first().locator('.badge').textContent(), /recovery duplicate/);
  assert.ok(await late.isVisible() && (await dup.first().isVisible()));
  // The two marks differ in words and in class, not only in colour.
  const classes = [await late.getAttribute('class'), await dup.first().getAttribute('class')];
  assert.ok(!classes[0].includes('recovery-dup') && classes[1].includes('recovery-dup'), classes.join(' | '));
  // The differences under the canvases: A's late correction, and the duplicates of both sides.
  const diff = await page.locator('[data-testid="diff-row"]').evaluateAll((r) => r.map((x) => [x.dataset.kind, x.textContent]));
  const firing = diff.find(([k, text]) => k === 'firing' && /late firing 1/.test(text));
  assert.ok(firing, JSON.stringify(diff));
  const recovery = diff.find(([k]) => k === 'recovery');
  assert.ok(recovery, JSON.stringify(diff));
  assert.match(recovery[1], /A 2, B 1/);
  assert.deepEqual(app.pageErrors, []);
});
