// Above 2,000 elements the Canvas 2D backend draws the scene in bulk and the focused object lives
// in the DOM overlay (TIMELINE_CONTRACT.md §1, §4): a 3,000-element stream, loaded through the
// file input, is still one Tab stop; Tab enters on the first element, `]` moves the focus to the
// next object (a new overlay node), the focused node has an accessible name and a description,
// and ← / → move the focused element by one unit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, runSettled, until } from './harness.mjs';
import { stream } from './stream.mjs';

/** The focused node: its focus key, whether it is in the overlay, its name and description. */
const focused = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    const described = (a?.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim();
    return {
      key: a?.getAttribute('data-focus') ?? null,
      inCanvas: !!a?.closest('[data-testid="canvas"]'),
      ts: a?.getAttribute('data-ts') ?? null,
      name: a?.querySelector(':scope > title')?.textContent ?? '',
      described,
    };
  });

test('3,000 elements (canvas backend): Tab enters the overlay, ] moves, the focused object is named and described, ← → move it', async (t) => {
  const sc = stream(3000, 'tumbling');
  const app = await openApp({ viewport: { width: 1400, height: 900 } });
  t.after(() => app.close());
  const { page } = app;
  const before = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  await page.locator('[data-testid="import-file"]').setInputFiles({
    name: `${sc.name}.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(sc)),
  });
  await runSettled(page, before, 30000);
  const scene = page.locator('[data-testid="scene"]');
  await until(page, 'the scene of the loaded stream', () => scene.getAttribute('data-elements'), (v) => v === '3000', 30000);
  assert.equal(await scene.getAttribute('data-backend'), 'canvas');
  await page.keyboard.press('End');
  await until(page, 'the playhead at the end', () => page.locator('[data-testid="playhead"]').evaluate((e) => e.dataset.step === e.dataset.steps));

  // Only a few overlay nodes, one of them the canvas's single Tab stop.
  assert.ok((await page.locator('[data-testid="element"]').count()) <= 3);
  assert.equal(await page.locator('[data-testid="canvas"] [tabindex="0"]').count(), 1);

  // Tab from the top of the page reaches the canvas, on the first element in event time.
  await page.locator('body').focus();
  let f;
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    f = await focused(page);
    if (f.inCanvas) break;
  }
  assert.ok(f.inCanvas, 'Tab reaches the canvas');
  const first = Math.min(...sc.input.map((e) => e.ts));
  assert.match(f.key, /^e:\d+$/);
  assert.equal(Number(f.ts), first, 'Tab enters on the first element in event time');
  assert.match(f.name, /^Element \d+, key k\d+, event time \d+, value \d+: (main|late) firing of window \d+–\d+/, f.name);
  assert.match(f.described, /← → move it one unit.*W explains it/, f.described);

  // ] moves the focus to the next object of the lane: a new node in the overlay, named too.
  const entry = f;
  await page.keyboard.press(']');
  f = await focused(page);
  assert.ok(f.inCanvas && f.key && f.key !== entry.key, `] moved from ${entry.key} to ${f.key}`);
  assert.match(f.name, /^(Element \d+|Window |Trigger |Cleanup |Watermark )\S.{12,}/, f.name);
  assert.ok(f.described.length > 20, `${f.key} has a description: ${f.described}`);
  assert.equal(await page.locator('[data-testid="canvas"] [tabindex="0"]').count(), 1, 'still one Tab stop');
  await page.keyboard.press('[');
  f = await focused(page);
  assert.equal(f.key, entry.key, '[ comes back');

  // → and ← move the focused element by one unit; the focus stays on it.
  const ts0 = Number(f.ts);
  let revision = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  await page.keyboard.press('ArrowRight');
  await runSettled(page, revision, 30000);
  f = await focused(page);
  assert.equal(f.key, entry.key, 'the focus stays on the element it moved');
  const ts1 = Number(f.ts);
  assert.ok(ts1 > ts0, `→ moved it from ${ts0} to ${ts1}`);
  revision = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  await page.keyboard.press('ArrowLeft');
  await runSettled(page, revision, 30000);
  f = await focused(page);
  assert.equal(f.key, entry.key);
  assert.equal(Number(f.ts), ts0, '← moved it back');
  assert.match(f.name, new RegExp(`event time ${ts0},`));
  assert.deepEqual(app.pageErrors, []);
});
