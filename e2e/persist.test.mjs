// Nothing lost (issue 8), end to end in headless Chromium: the autosave survives a reload and
// falls back with a message when it is corrupt or the storage is blocked; undo and redo (keys and
// buttons) of a real-mouse drag, a configuration change, adding and deleting; an import, a link
// and a preset keep the previous scenario one undo away and say so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, dragBy, until, VIEWPORTS } from './harness.mjs';
import { MINE, scenarioPath, shownInput } from './fixtures.mjs';

const AUTOSAVE_KEY = 'tidemark.autosave.v1';

const marble = (page, id) => page.locator(`[data-testid="element"][data-id="${id}"]`);
const tsOf = (page, id) => marble(page, id).getAttribute('data-ts');
const scenarioName = (page) => page.locator('[data-testid="scenario-name"]').textContent();
const changed = (page, read, old, what) => until(page, `${what} did not change`, read, (v) => v !== old);
const becomes = (page, read, want, what) => until(page, what, read, (v) => v === want);

/** Opens MINE and drags element 1 with the real mouse: resolves to { app, page, original, moved } (its ts). */
async function openAndDrag(t, dx = 60) {
  const app = await openApp({ path: scenarioPath(MINE, 3) });
  t.after(() => app.close());
  const { page } = app;
  const original = await tsOf(page, 1);
  await dragBy(page, marble(page, 1), dx, 0);
  const moved = await changed(page, () => tsOf(page, 1), original, 'element 1');
  return { app, page, original, moved };
}

/** A full page load of the app at `hash` ('' for none), in the same browser context (same storage). */
async function reload(app, hash) {
  await app.page.goto('about:blank');
  await app.page.goto(new URL(hash, app.url).href, { waitUntil: 'load' });
  await app.page.locator('[data-testid="timeline"]').waitFor();
}

test('autosave: a drag survives a reload; a link wins and the autosave is one undo away; a corrupt one is reported', async (t) => {
  const { app, page, moved } = await openAndDrag(t);
  await page.waitForFunction((k) => (localStorage.getItem(k) || '').startsWith('z='), AUTOSAVE_KEY);

  // Reload without a fragment: the autosave comes back, with a notice that says so.
  await reload(app, '');
  assert.equal(await scenarioName(page), 'e2e_mine');
  assert.equal(await tsOf(page, 1), moved);
  assert.match(await page.locator('[data-testid="notice"]').textContent(), /Restored “e2e_mine”/);

  // A link given explicitly wins; the autosaved work is one undo away.
  await reload(app, '#preset=lab-6-2&step=3');
  assert.equal(await scenarioName(page), 'lab-6-2');
  const notice = page.locator('[data-testid="notice"]');
  assert.match(await notice.textContent(), /instead of your autosaved one.*brings back your previous scenario/);
  await page.locator('[data-testid="notice-undo"]').click();
  await becomes(page, () => scenarioName(page), 'e2e_mine', 'undo brings the autosave back');
  assert.equal(await tsOf(page, 1), moved);
  await notice.waitFor({ state: 'detached' });

  // A corrupt autosave: a clear message, the default scenario, a working page.
  await page.evaluate((k) => localStorage.setItem(k, 'z=AAAA&step=2'), AUTOSAVE_KEY);
  await reload(app, '');
  const banner = page.locator('[data-testid="error-banner"]');
  assert.match(await banner.textContent(), /Your autosaved scenario could not be restored: the z value is not valid raw DEFLATE/);
  assert.equal(await scenarioName(page), 'course_worked_timeline_7');
  assert.deepEqual(app.pageErrors, []);
});

test('blocked or full storage: the page works, autosave is off, a refused write is reported once', async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 3), waitFor: null });
  t.after(() => app.close());
  const { page, context } = app;
  // What a sandboxed iframe sees: touching localStorage throws a SecurityError.
  await context.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('The document is sandboxed', 'SecurityError');
      },
    });
  });
  await reload(app, scenarioPath(MINE, 3));
  const blocked = await page.evaluate(() => {
    try {
      return typeof window.localStorage;
    } catch (e) {
      return e.name;
    }
  });
  assert.equal(blocked, 'SecurityError');
  const before = await tsOf(page, 1);
  await dragBy(page, marble(page, 1), 60, 0);
  await changed(page, () => tsOf(page, 1), before, 'element 1 (blocked storage)');
  assert.equal(await page.locator('[data-testid="error-banner"]').count(), 0, 'blocked storage is not an error to show');
  assert.equal(await page.locator('[data-testid="undo"]').isEnabled(), true);

  // Full storage: the first refused write says so, once.
  const full = await app.browser.newContext({ viewport: VIEWPORTS.laptop });
  t.after(() => full.close());
  await full.addInitScript(() => {
    Storage.prototype.setItem = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
  });
  const p2 = await full.newPage();
  const errors = [];
  p2.on('pageerror', (e) => errors.push(String(e)));
  await p2.goto(new URL(scenarioPath(MINE, 3), app.url).href);
  await p2.locator('[data-testid="timeline"]').waitFor();
  for (const dx of [60, -40]) {
    const old = await tsOf(p2, 1);
    await dragBy(p2, marble(p2, 1), dx, 0);
    await changed(p2, () => tsOf(p2, 1), old, 'element 1 (full storage)');
  }
  const banner = p2.locator('[data-testid="error-banner"]');
  assert.equal(await banner.count(), 1);
  assert.match(await banner.textContent(), /Autosave stopped: the browser refused to store the scenario \(QuotaExceededError/);
  assert.deepEqual(errors, []);
  assert.deepEqual(app.pageErrors, []);
});

test('undo/redo of a real-mouse drag: one step per drag, with the keys and the buttons', async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 3) });
  t.after(() => app.close());
  const { page } = app;
  const undo = page.locator('[data-testid="undo"]');
  const redo = page.locator('[data-testid="redo"]');
  assert.equal(await undo.isDisabled(), true, 'nothing to undo after opening a link');
  assert.equal(await undo.getAttribute('title'), 'Nothing to undo');
  const original = await tsOf(page, 1);
  await dragBy(page, marble(page, 1), 70, 0, { steps: 25 });
  const moved = await changed(page, () => tsOf(page, 1), original, 'element 1');
  assert.match(await undo.getAttribute('title'), /^Undo move element 1 \((Ctrl\+Z|⌘Z)\)$/);
  assert.equal(await undo.getAttribute('aria-label'), await undo.getAttribute('title'));
  assert.equal(await page.locator('.undo-redo').getAttribute('data-undo'), '1', '25 pointer moves, one step');

  await page.keyboard.press('Control+z');
  await becomes(page, () => tsOf(page, 1), original, 'Ctrl+Z undoes the drag');
  await page.keyboard.press('Control+Shift+Z');
  await becomes(page, () => tsOf(page, 1), moved, 'Ctrl+Shift+Z redoes it');
  await undo.click();
  await becomes(page, () => tsOf(page, 1), original, 'the undo button');
  assert.match(await redo.getAttribute('title'), /^Redo move element 1/);
  await redo.click();
  await becomes(page, () => tsOf(page, 1), moved, 'the redo button');
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+y');
  await becomes(page, () => tsOf(page, 1), moved, 'Ctrl+Y redoes');
  await page.keyboard.press('Meta+z');
  await becomes(page, () => tsOf(page, 1), original, 'Cmd+Z (macOS) undoes');

  // In a text field Ctrl+Z is the field's own: the drag stays.
  await page.keyboard.press('Control+Shift+Z');
  await becomes(page, () => tsOf(page, 1), moved, 'redo again');
  await page.locator('[data-testid="tab-config"]').click();
  const lateness = page.locator('[data-testid="cfg-lateness"]');
  await lateness.click();
  await page.keyboard.press('Control+z');
  assert.equal(await tsOf(page, 1), moved, 'Ctrl+Z in a text field does not undo the drag');
  assert.deepEqual(app.pageErrors, []);
});

test('undo/redo of configuration changes, and of adding and deleting elements', async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 3) });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-config"]').click();
  const size = page.locator('[data-testid="cfg-size"]');
  const sizeText = await size.inputValue();
  // Typing into one field is one step (not one per key).
  await size.fill('');
  await size.pressSequentially('5s');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="window"][data-start="5000"]').length > 0);
  await page.locator('[data-testid="cfg-assigner"]').selectOption('sliding');
  await page.locator('[data-testid="cfg-slide"]').waitFor();
  const undo = page.locator('[data-testid="undo"]');
  assert.match(await undo.getAttribute('title'), /^Undo change the assigner/);
  await undo.click();
  await page.locator('[data-testid="cfg-slide"]').waitFor({ state: 'detached' });
  assert.equal(await page.locator('[data-testid="cfg-assigner"]').inputValue(), 'tumbling');
  assert.match(await undo.getAttribute('title'), /^Undo change the size/);
  await undo.click();
  await becomes(page, () => size.inputValue(), sizeText, 'the size and its text come back in one step');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="window"][data-start="5000"]').length === 0);

  // Add (header button), delete (keyboard), then undo both.
  const ids = await shownInput(page);
  await page.locator('[data-testid="add-element"]').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="element"]').length === 4);
  await page.keyboard.press('Delete');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="element"]').length === 3);
  await page.keyboard.press('Delete'); // nothing selected: no change, no step
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="element"]').length === 4);
  await page.keyboard.press('Control+z');
  await becomes(page, () => shownInput(page), ids, 'the input as it was');
  assert.deepEqual(app.pageErrors, []);
});

test('an import, a link and a preset keep the previous scenario one undo away, with a notice', async (t) => {
  const { app, page, moved } = await openAndDrag(t);
  const notice = page.locator('[data-testid="notice"]');

  // Import a file.
  const other = { ...MINE, name: 'e2e_imported', input: [{ id: 7, key: 'B', ts: 1000 }] };
  await page.locator('[data-testid="import-file"]').setInputFiles({
    name: 'other.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(other)),
  });
  await becomes(page, () => scenarioName(page), 'e2e_imported', 'the import loads');
  assert.match(await notice.textContent(), /Loaded “e2e_imported”\..*(Ctrl\+Z|⌘Z) brings back your previous scenario/);
  assert.equal(await page.locator('.notice-hint').isVisible(), true, 'the hint shows at 1400 px');
  await page.keyboard.press('Control+z');
  await becomes(page, () => scenarioName(page), 'e2e_mine', 'Ctrl+Z after an import');
  assert.equal(await tsOf(page, 1), moved, 'with the drag');
  await notice.waitFor({ state: 'detached' });

  // A link pasted into the same tab.
  await page.evaluate((h) => {
    window.location.hash = h;
  }, scenarioPath(other, 'end').slice(1));
  await becomes(page, () => scenarioName(page), 'e2e_imported', 'the link loads');
  await notice.waitFor();
  await page.locator('[data-testid="notice-undo"]').click();
  await becomes(page, () => scenarioName(page), 'e2e_mine', 'undo after a link');
  assert.equal(await tsOf(page, 1), moved);

  // A preset from the menu; focus stays on the menu, and Ctrl+Z still undoes the load.
  await page.locator('[data-testid="presets"]').selectOption('course:lab-6-2');
  await becomes(page, () => scenarioName(page), 'lab-6-2', 'the preset loads');
  assert.match(await notice.textContent(), /Loaded “Lab 6\.2/);
  await page.keyboard.press('Control+z');
  await becomes(page, () => scenarioName(page), 'e2e_mine', 'Ctrl+Z on the focused menu');
  assert.equal(await tsOf(page, 1), moved);
  await page.keyboard.press('Control+Shift+Z');
  await becomes(page, () => scenarioName(page), 'lab-6-2', 'redo the preset load');
  assert.deepEqual(app.pageErrors, []);
});

test('undo and redo fit the 700x450 embed and the 1920x1080 projector', async (t) => {
  for (const [viewport, path] of [
    [VIEWPORTS.embed, '#preset=lab-6-2&mode=embed&step=3'],
    [VIEWPORTS.projector, '#preset=lab-6-2&mode=lecture&step=3'],
  ]) {
    const app = await openApp({ viewport, path });
    t.after(() => app.close());
    for (const id of ['undo', 'redo']) {
      const box = await app.page.locator(`[data-testid="${id}"]`).boundingBox();
      assert.ok(box, `${id} visible at ${viewport.width}x${viewport.height}`);
      assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height, `${id} inside the viewport: ${JSON.stringify(box)}`);
      assert.ok(box.height >= (viewport.width > 1000 ? 30 : 20), `${id} is big enough to hit: ${box.height}px`);
    }
    assert.deepEqual(app.pageErrors, []);
  }
});
