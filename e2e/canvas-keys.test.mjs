// The canvas and the keyboard (TIMELINE_CONTRACT.md §4) and the run-status hook (§2), end to end:
// the canvas is one Tab stop with roving focus; on it ] [ and the arrows move between objects and
// move a movable one; W explains, Escape leaves; every object has a name; engine runs report
// their revision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, dragBy, runSettled } from './harness.mjs';
import { centre, scenarioPath } from './fixtures.mjs';

const TWO_KEYS = {
  name: 'e2e_keys',
  assigner: { kind: 'tumbling', size: 10000 },
  side_output: true,
  watermarks: { kind: 'explicit' },
  input: [
    { id: 1, key: 'A', ts: 1000 },
    { id: 2, key: 'B', ts: 3000 },
    { id: 3, key: 'A', ts: 12000 },
    { wm: 15000 },
    { id: 4, key: 'A', ts: 2000 },
  ],
};

/** The focused element's `data-focus`, and whether it is inside the canvas. */
const focused = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return { key: a?.getAttribute('data-focus') ?? null, inCanvas: !!a?.closest('[data-testid="canvas"]'), name: a?.querySelector(':scope > title')?.textContent ?? null };
  });

/** Tab from the top of the page until the focus is on the canvas; resolves to the focus there. */
async function tabIntoCanvas(page) {
  await page.locator('body').focus();
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.inCanvas) return f;
  }
  assert.fail('Tab never reached the canvas');
}

test('the canvas is one Tab stop: Tab enters on the first element, the keys move the focus, Tab leaves', async (t) => {
  const app = await openApp({ path: scenarioPath(TWO_KEYS, 'end') });
  t.after(() => app.close());
  const { page } = app;
  // Tab through the page's controls: the first stop on the canvas is its first element.
  let f = await tabIntoCanvas(page);
  assert.deepEqual([f.key, f.inCanvas], ['e:0', true], 'Tab enters on the first element in event time');
  assert.match(f.name, /^Element 1, key A, event time 1000, value 1: main firing of window 0–10000$/);
  // Exactly one object is a Tab stop.
  assert.equal(await page.locator('[data-testid="canvas"] [tabindex="0"]').count(), 1);
  // ] walks lane A in event time: elements, windows, timers, the watermark; never lane B's element.
  const seen = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press(']');
    seen.push((await focused(page)).key);
  }
  assert.ok(seen.includes('e:2') && seen.some((k) => k.startsWith('w:0:')) && seen.includes('wm'), seen.join(' '));
  assert.ok(!seen.includes('e:1'), `element 2 is in lane B: ${seen.join(' ')}`);
  // ↓ from element 1 goes to lane B, then to the side output (element 4 is late). (Escape leaves
  // the canvas, a second one on the page deselects: Tab enters on the first element again.)
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  f = await tabIntoCanvas(page);
  assert.equal(f.key, 'e:0', 'after deselecting, Tab enters on the first element again');
  await page.keyboard.press('ArrowDown');
  f = await focused(page);
  assert.ok(f.key === 'e:1' || f.key.startsWith('w:1:') || f.key.startsWith('t:1:'), `lane B: ${f.key}`);
  await page.keyboard.press('ArrowDown');
  f = await focused(page);
  assert.equal(f.key, 'l:4');
  assert.match(f.name, /^Element 4, event time 2000, in the side output lane: too late for window 0–10000$/);
  // Every focusable object is named by its <title>: kind, key, time, state.
  const names = await page.locator('[data-testid="canvas"] [data-focus]').evaluateAll((els) =>
    els.map((e) => e.querySelector(':scope > title')?.textContent || ''),
  );
  assert.ok(names.length >= 10, `${names.length} focusable objects`);
  for (const n of names) assert.match(n, /^(Element|Window|Trigger|Cleanup|Watermark) /, n);
  // Tab again leaves the canvas; Shift+Tab comes back, on the selected object (the side output's).
  await page.keyboard.press('Tab');
  assert.equal((await focused(page)).inCanvas, false, 'Tab again leaves the canvas');
  await page.keyboard.press('Shift+Tab');
  f = await focused(page);
  assert.deepEqual([f.key, f.inCanvas], ['l:4', true], 'Tab enters on the selected object');
  // Escape leaves the canvas.
  await page.keyboard.press('Escape');
  assert.equal((await focused(page)).inCanvas, false);
  assert.deepEqual(app.pageErrors, []);
});

test('on the canvas the arrows move the focused element, W explains it; outside they step', async (t) => {
  const app = await openApp({ path: scenarioPath(TWO_KEYS, 3) });
  t.after(() => app.close());
  const { page } = app;
  const marble = page.locator('[data-testid="element"][data-id="1"]');
  const before = Number(await marble.getAttribute('data-ts'));
  const revision = await runSettled(page);
  await page.keyboard.press(']'); // from the page: onto the canvas
  assert.equal((await focused(page)).key, 'e:0');
  await page.keyboard.press('ArrowRight');
  const after = Number(await marble.getAttribute('data-ts'));
  assert.ok(after > before, `moved from ${before} to ${after}`);
  await runSettled(page, revision);
  await page.keyboard.press('Shift+ArrowLeft');
  assert.equal(Number(await marble.getAttribute('data-ts')), after - 1, 'shift: 1 ms');
  // W: "why?" at the element.
  await page.keyboard.press('w');
  const pop = page.locator('[data-testid="why-popover"]');
  await pop.waitFor();
  assert.equal(await pop.getAttribute('data-kind'), 'element');
  const box = await pop.boundingBox();
  const c = await centre(marble);
  assert.ok(Math.abs(box.x - (c.x + 12)) < 40, `the popover opens at the element (${box.x} vs ${c.x})`);
  await page.keyboard.press('Escape');
  await pop.waitFor({ state: 'detached' });
  // Escape leaves; outside the canvas the arrows step.
  await page.keyboard.press('Escape');
  const step = await page.locator('[data-testid="playhead"]').getAttribute('data-step');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('[data-testid="playhead"]').getAttribute('data-step'), String(Number(step) + 1));
  // The help lists the canvas's keys.
  await page.keyboard.press('?');
  const help = await page.locator('[data-testid="help-dialog"]').textContent();
  for (const k of ['Tab', '] [', '↑ ↓', 'W', 'Esc', 'PageUp PageDown']) assert.ok(help.includes(k), `${k} is not in the help`);
  assert.deepEqual(app.pageErrors, []);
});

test('run-status: every edit asks for a run of a new revision, and says when it is done', async (t) => {
  const app = await openApp({ path: scenarioPath(TWO_KEYS, 3) });
  t.after(() => app.close());
  const { page } = app;
  const status = page.locator('[data-testid="run-status"]');
  const first = await runSettled(page);
  // A small scenario runs on the main thread even with a worker (worker_runner::RUN_HERE_MAX);
  // e2e/worker.test.mjs tests the worker with 2,500 elements.
  assert.equal(await status.getAttribute('data-runner'), 'main-thread');
  await dragBy(page, page.locator('[data-testid="element"][data-id="3"]'), 60, 0);
  const next = await runSettled(page, first);
  assert.ok(next > first, `revision ${first} → ${next}`);
  // A link pasted into the tab is another run too.
  await page.evaluate((h) => {
    window.location.hash = h;
  }, scenarioPath({ ...TWO_KEYS, name: 'e2e_keys_2' }, 'end').slice(1));
  assert.ok((await runSettled(page, next)) > next);
  assert.equal(await page.locator('[data-testid="scenario-name"]').textContent(), 'e2e_keys_2');
  assert.deepEqual(app.pageErrors, []);
});

test('the help dialog (?) lists every key of the key map, ↑ ↓ reaching the partition tracks and the side output', async (t) => {
  const app = await openApp({ path: scenarioPath(TWO_KEYS, 'end') });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('body').focus();
  await page.keyboard.press('?');
  const dialog = page.locator('[data-testid="help-dialog"]');
  await dialog.waitFor();
  const rows = await dialog.locator('tr').evaluateAll((trs) => trs.map((r) => [r.querySelector('th').textContent, r.querySelector('td').textContent]));
  const tokens = new Set(rows.flatMap(([k]) => k.split(/[\s,]+/).filter(Boolean)));
  // Contract §4: outside the canvas, and on it; and the page's other shortcuts.
  for (const k of ['←', '→', 'Home', 'End', 'space', 'PageUp', 'PageDown', '?', 'Tab', '[', ']', '↑', '↓', 'Enter', 'W', 'Delete', 'Backspace', 'Esc', 'n', 'w', 'e', '+', '−', 'f', 't', 'q', 'b', '1–9', 'Ctrl+Z']) {
    assert.ok(tokens.has(k), `the help does not list ${k}: ${[...tokens].join(' ')}`);
  }
  const row = (k) => rows.find(([key]) => key === k)?.[1] ?? '';
  assert.match(row('↑ ↓'), /partition tracks.*key lanes.*side output/);
  assert.match(row('] ['), /elements, windows, timers, the watermark/);
  assert.match(row('W'), /why\?/);
  // Escape closes it, and it is a dialog with a name.
  assert.equal(await dialog.getAttribute('role'), 'dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.deepEqual(app.pageErrors, []);
});
