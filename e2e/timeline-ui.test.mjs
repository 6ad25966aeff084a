// The rest of the timeline screen, end to end: the arrival strip (reorder by dragging, insert a
// watermark, the 2-D view), playback (play to the end, step back, speed, reduced motion), the
// configuration panel (Flink's reasons next to the field, nothing typed is lost), the context
// menu and the editor, and the share link written into the URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';
import { b64url, centre, scenarioPath } from './fixtures.mjs';

const TUMBLING = {
  name: 'e2e_ui',
  assigner: { kind: 'tumbling', size: 10000 },
  watermarks: { kind: 'explicit' },
  input: [
    { id: 1, key: 'A', ts: 8000 },
    { id: 2, key: 'A', ts: 12000 },
    { id: 3, key: 'B', ts: 24000 },
    { wm: 29999 },
  ],
};

const attrs = (page, testid, name) =>
  page.locator(`[data-testid="${testid}"]`).evaluateAll((els, n) => els.map((e) => e.getAttribute(n)), name);

test('dragging an arrival chip reorders the input: a watermark moved first makes every element late', async (t) => {
  const app = await openApp({ path: scenarioPath(TUMBLING, 'end') });
  t.after(() => app.close());
  const { page } = app;
  assert.equal(await page.locator('[data-testid="output-row"]').count(), 3);
  const chips = page.locator('[data-testid="arrival-item"]');
  assert.equal(await chips.count(), 4);
  const from = await centre(chips.nth(3));
  const to = await centre(chips.nth(0));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x - 10, to.y, { steps: 8 });
  await page.mouse.up();
  await page.locator('[data-testid="side-output-row"]').nth(2).waitFor();
  assert.match(await chips.nth(0).textContent(), /WM/);
  assert.equal(await page.locator('[data-testid="output-row"]').count(), 0);
  assert.deepEqual(await attrs(page, 'side-output-row', 'data-id'), ['1', '2', '3']);
  assert.deepEqual(app.pageErrors, []);
});

test('insert a watermark at the playhead, and the 2-D view of event time x processing time', async (t) => {
  const app = await openApp({ path: scenarioPath(TUMBLING, 2) });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="insert-watermark"]').click();
  await page.locator('[data-testid="arrival-item"]').nth(4).waitFor();
  // Inserted at the playhead (after step 2) with the largest timestamp seen (12000): the
  // window [0, 10000) fires.
  assert.match(await page.locator('[data-testid="arrival-item"]').nth(2).textContent(), /WM/);
  assert.equal(await page.locator('[data-testid="playhead"]').getAttribute('data-step'), '3');
  await page.locator('[data-testid="output-row"][data-start="0"]').waitFor();
  await page.locator('[data-testid="toggle-2d"]').click();
  await page.locator('[data-testid="two-d"]').waitFor();
  assert.equal(await page.locator('[data-testid="element"]').count(), 3);
  await page.keyboard.press('t');
  await page.locator('[data-testid="lane"]').first().waitFor();
  assert.deepEqual(app.pageErrors, []);
});

test('processing-time windows are drawn on the processing-time axis, with the note that no run was recorded; event-time ones are not', async (t) => {
  const PROCESSING = {
    name: 'e2e_processing_time',
    assigner: { kind: 'tumbling_processing', size: 10000 },
    input: [
      { id: 1, key: 'A', ts: 1000, arrival: 12000 },
      { id: 2, key: 'A', ts: 25000, arrival: 14000 },
      // Processing time passes 19999: the window [10000, 20000) fires (pending processing-time
      // timers do not fire at the end of input).
      { id: 3, key: 'A', ts: 3000, arrival: 26000 },
    ],
  };
  const app = await openApp({ path: scenarioPath(PROCESSING, 'end') });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="output-row"][data-start="10000"]').waitFor();
  assert.equal(await page.locator('[data-testid="axis-title"]').getAttribute('data-domain'), 'processing');
  assert.match(await page.locator('[data-testid="axis-domain-note"]').textContent(), /Flink's rules, not a recorded run/);
  // The marbles sit at their arrivals, like the windows' bounds: element 1 (ts 1000, arrival
  // 12000) right of the window start 10000, element 3 (ts 3000, arrival 26000) the rightmost.
  const cx = (id) => page.locator(`[data-testid="element"][data-id="${id}"]`).evaluate((e) => e.getBoundingClientRect().left);
  const [x1, x2, x3] = [await cx(1), await cx(2), await cx(3)];
  assert.ok(x1 < x2 && x2 < x3, `${x1} ${x2} ${x3}`);
  await page.goto(page.url().replace(/#.*/, `#scenario=${b64url(JSON.stringify(TUMBLING))}&step=end`));
  await page.locator('[data-testid="axis"]').waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid="axis-domain-note"]'));
  assert.equal(await page.locator('[data-testid="axis-title"]').getAttribute('data-domain'), 'event');
  assert.deepEqual(app.pageErrors, []);
});

test('the label of a watermark item near the right edge stays on the canvas', async (t) => {
  // session-bridge ends with Watermark(10:25) as the last explicit item, right at the canvas's
  // right edge once the end of input moved the line to Long.MAX: its label ran off the canvas.
  const app = await openApp({ path: '#preset=session-bridge&step=end' });
  t.after(() => app.close());
  const { page } = app;
  const label = page.locator('[data-testid="watermark-item"] text');
  await label.waitFor();
  assert.match(await label.textContent(), /^item #6 wm 10:25:00\.000$/);
  const canvas = await page.locator('[data-testid="canvas"]').boundingBox();
  const box = await label.boundingBox();
  assert.ok(canvas && box, 'canvas and label are visible');
  assert.ok(box.x >= canvas.x, `label starts at ${box.x}, left of the canvas at ${canvas.x}`);
  assert.ok(
    box.x + box.width <= canvas.x + canvas.width,
    `label ends at ${box.x + box.width}, past the canvas's right edge at ${canvas.x + canvas.width}`,
  );
  assert.deepEqual(app.pageErrors, []);
});

test('playback: play runs to the end, step back replays, keys work, reduced motion has no animation', async (t) => {
  const app = await openApp({ path: scenarioPath(TUMBLING, 0) });
  t.after(() => app.close());
  const { page } = app;
  const playhead = page.locator('[data-testid="playhead"]');
  assert.equal(await playhead.getAttribute('data-step'), '0');
  assert.equal(await playhead.getAttribute('data-steps'), '5');
  await page.locator('[data-testid="speed"]').selectOption('4');
  await page.locator('[data-testid="play"]').click();
  assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'true');
  await page.waitForFunction(() => document.querySelector('[data-testid="playhead"]').dataset.step === '5', null, {
    timeout: 10000,
  });
  await page.waitForFunction(() => document.querySelector('[data-testid="play"]').getAttribute('aria-pressed') === 'false');
  assert.equal(await page.locator('[data-testid="output-row"]').count(), 3);
  await page.locator('[data-testid="step-back"]').click();
  await page.locator('[data-testid="step-back"]').click();
  assert.equal(await playhead.getAttribute('data-step'), '3');
  assert.equal(await page.locator('[data-testid="output-row"]').count(), 0, 'before the watermark item nothing fired');
  await page.keyboard.press('Home');
  assert.equal(await playhead.getAttribute('data-step'), '0');
  await page.keyboard.press('ArrowRight');
  assert.equal(await playhead.getAttribute('data-step'), '1');
  // A single step forward animates; with prefers-reduced-motion nothing does.
  const animation = () =>
    page.evaluate(() => {
      const el = document.querySelector('[data-testid="window"]');
      return el ? getComputedStyle(el).animationName : 'missing';
    });
  assert.equal(await animation(), 'tm-fade-in');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  assert.equal(await animation(), 'none');
  await page.keyboard.press(' ');
  assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'true');
  await page.keyboard.press(' ');
  assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'false');
  assert.deepEqual(app.pageErrors, []);
});

test('the configuration panel refuses invalid values next to the field with Flink\'s reason and keeps the text', async (t) => {
  const app = await openApp({ path: scenarioPath(TUMBLING, 'end') });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-config"]').click();
  const lateness = page.locator('[data-testid="cfg-lateness"]');
  await lateness.fill('-1');
  const err = page.locator('[data-testid="field-error"][data-field="lateness"]');
  await err.waitFor();
  assert.match(await err.textContent(), /The allowed lateness cannot be negative/);
  assert.equal(await lateness.inputValue(), '-1', 'nothing entered is lost');
  await page.locator('[data-testid="cfg-offset"]').fill('10000');
  assert.match(
    await page.locator('[data-testid="field-error"][data-field="offset"]').textContent(),
    /abs\(offset\) < size/,
  );
  await page.locator('[data-testid="cfg-offset"]').fill('0');
  await lateness.fill('5s');
  await page.waitForFunction(() => !document.querySelector('[data-testid="field-error"]'));
  await page.locator('[data-testid="cfg-assigner"]').selectOption('sliding');
  await page.locator('[data-testid="cfg-slide"]').fill('5000');
  await page.locator('[data-testid="tab-output"]').click();
  // Sliding 10 s / 5 s: every element in two windows; A's share [5000, 15000): five results.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="output-row"]').length === 5);
  await page.locator('[data-testid="tab-config"]').click();
  await page.locator('[data-testid="cfg-function"]').selectOption('max');
  await page.locator('[data-testid="cfg-assigner"]').selectOption('session');
  await page.locator('[data-testid="cfg-gap"]').fill('0');
  assert.match(
    await page.locator('[data-testid="field-error"][data-field="gap"]').textContent(),
    /EventTimeSessionWindows parameters must satisfy 0 < size/,
  );
  assert.deepEqual(app.pageErrors, []);
});

test('context menu and editor: add, edit and delete elements; the URL becomes a share link', async (t) => {
  const app = await openApp({ path: scenarioPath(TUMBLING, 'end') });
  t.after(() => app.close());
  const { page } = app;
  const count = () => page.locator('[data-testid="element"]').count();
  assert.equal(await count(), 3);
  // Right-click the background of lane A: add an element there.
  const lane = await page.locator('[data-testid="lane"][data-key="A"]').boundingBox();
  const e2 = await centre(page.locator('[data-testid="element"][data-id="2"]'));
  await page.mouse.click(e2.x + 40, lane.y + 30, { button: 'right' });
  await page.locator('[data-testid="menu-add"]').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="element"]').length === 4);
  assert.equal(await page.locator('[data-testid="element"][data-id="4"]').getAttribute('data-key'), 'A');
  // Edit it: key B, value 7.
  const added = page.locator('[data-testid="element"][data-id="4"]');
  const c = await centre(added);
  await page.mouse.click(c.x, c.y, { button: 'right' });
  await page.locator('[data-testid="menu-edit"]').click();
  await page.locator('[data-testid="edit-key"]').fill('B');
  await page.locator('[data-testid="edit-value"]').fill('x7');
  await page.locator('[data-testid="edit-save"]').click();
  assert.match(await page.locator('[data-testid="edit-error"]').textContent(), /not a whole number/);
  await page.locator('[data-testid="edit-value"]').fill('7');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="editor"]').waitFor({ state: 'detached' });
  assert.equal(await added.getAttribute('data-key'), 'B');
  // Delete with the keyboard (it is selected).
  await page.keyboard.press('Delete');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="element"]').length === 3);
  // n adds an element, and every change is written to the URL as a #z= share link.
  await page.keyboard.press('n');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="element"]').length === 4);
  const hash = await page.evaluate(() => window.location.hash);
  assert.match(hash, /^#z=[A-Za-z0-9_-]+&step=(end|\d+)$/);
  // The share link reloads the same scenario.
  const again = await openApp({ path: hash });
  t.after(() => again.close());
  assert.equal(await again.page.locator('[data-testid="element"]').count(), 4);
  assert.deepEqual(app.pageErrors, []);
  assert.deepEqual(again.pageErrors, []);
});
