// Your own stream (issue 15), end to end: a CSV through the mapping dialog (columns picked in the
// dialog), its bad rows reported with their lines, cancel (nothing loads) and skip (the count is
// said, the previous scenario is one undo away); a unit mistake said before loading, Escape and
// the focus trap, pasted text; the lateness report's point and row button setting the bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp, until, runSettled, REPO_ROOT } from './harness.mjs';
import { MINE, scenarioPath, shownInput } from './fixtures.mjs';

const data = (name) => ({ name, mimeType: 'text/csv', buffer: readFileSync(join(REPO_ROOT, 'tests', 'data', name)) });
const dialog = (page) => page.locator('[data-testid="import-dialog"]');
const scenarioName = (page) => page.locator('[data-testid="scenario-name"]').textContent();
/** The input's element ids on the canvas (a late one is drawn in its lane and the side output). */
const elementIds = (page) =>
  page.locator('[data-testid="element"]').evaluateAll((els) => [...new Set(els.map((e) => Number(e.dataset.id)))].sort((a, b) => a - b));

async function openDialog(page, file) {
  await page.locator('[data-testid="import-file"]').setInputFiles(data(file));
  await dialog(page).and(page.locator('[data-phase="mapping"]')).waitFor();
}

/** The mapping, chosen in the dialog: key = sensor, event time = event_time, value = reading, partition = partition. */
async function mapColumns(page) {
  await page.locator('[data-testid="import-col-key"]').selectOption('1');
  await page.locator('[data-testid="import-col-event-time"]').selectOption('0');
  await page.locator('[data-testid="import-col-value"]').selectOption('2');
  await page.locator('[data-testid="import-col-partition"]').selectOption('3');
}

test('import: a CSV with a mapping; bad rows reported by line; cancel loads nothing, skip loads the rest', async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 3) });
  t.after(() => app.close());
  const { page } = app;
  const before = await shownInput(page);

  await openDialog(page, 'bad_rows.csv');
  await mapColumns(page);
  assert.equal(await page.locator('[data-testid="import-unit"]').inputValue(), 'iso', 'date-times are ISO-8601');
  assert.match(await page.locator('[data-testid="import-preview"] thead').textContent(), /sensor→ key/);
  // The head's bad rows are shown before anything loads, the first at line 4 (2024-03-10T08:00:0x).
  assert.equal(await page.locator('[data-testid="import-trial-bad"]').first().getAttribute('data-line'), '4');

  // The focus stays in the modal: Shift+Tab from the first control goes to the last button.
  await page.locator('[data-testid="import-header"]').focus();
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'import-start');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'import-header');

  await page.locator('[data-testid="import-start"]').click();
  await dialog(page).and(page.locator('[data-phase="review"]')).waitFor();
  const bad = page.locator('[data-testid="import-bad-row"]');
  const lines = await bad.evaluateAll((els) => els.map((e) => Number(e.dataset.line)));
  assert.deepEqual(lines, [4, 7, 9, 12, 17, 22], 'every bad row by its line');
  assert.match(await bad.first().textContent(), /^line 4: .*event time/);
  assert.match(await page.locator('[data-testid="import-bad-count"]').textContent(), /^6 of 20 rows cannot be read/);
  assert.equal(await page.locator('[data-testid="import-skip"]').textContent(), 'Skip 6 bad rows and load 14 elements');

  // Cancel: nothing loaded, the scenario on show untouched.
  await page.locator('[data-testid="import-cancel"]').click();
  await dialog(page).waitFor({ state: 'detached' });
  assert.equal(await scenarioName(page), 'e2e_mine');
  assert.equal(await shownInput(page), before);

  // Again, and skip: the 14 good rows load, the count is said, the previous scenario is one undo away.
  await openDialog(page, 'bad_rows.csv');
  await mapColumns(page);
  await page.locator('[data-testid="import-start"]').click();
  await page.locator('[data-testid="import-skip"]').click();
  await dialog(page).waitFor({ state: 'detached' });
  await runSettled(page);
  assert.equal(await scenarioName(page), 'bad_rows');
  assert.match(await page.locator('[data-testid="error-banner"]').first().textContent(), /Imported “bad_rows\.csv”: 14 elements, 4 keys, 6 bad rows skipped\. Bounded out-of-orderness/);
  assert.match(await page.locator('[data-testid="notice"]').textContent(), /Loaded “bad_rows”\./);
  // The 14 good rows, each element's id its line in the file.
  assert.deepEqual(await elementIds(page), [2, 3, 5, 6, 8, 10, 11, 13, 14, 16, 18, 19, 21, 23]);
  await page.keyboard.press('Control+z');
  await until(page, 'undo brings the previous scenario back', () => scenarioName(page), (v) => v === 'e2e_mine');
  assert.equal(await shownInput(page), before);
  assert.deepEqual(app.pageErrors, []);
});

test('import: a unit mistake is said before loading; Escape cancels; pasted text loads', async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 3) });
  t.after(() => app.close());
  const { page } = app;
  await openDialog(page, 'sensors_seconds.csv');
  const unit = page.locator('[data-testid="import-unit"]');
  assert.equal(await unit.inputValue(), 's', 'epoch seconds are recognised');
  assert.equal(await page.locator('[data-testid="import-warning"]').count(), 0);
  await unit.selectOption('ms');
  const warning = page.locator('[data-testid="import-warning"]');
  await warning.first().waitFor();
  assert.match(await warning.first().textContent(), /read as epoch milliseconds puts the median at 1970-01-20.*are they epoch seconds\?/);
  await unit.selectOption('s');
  await warning.first().waitFor({ state: 'detached' });

  // Escape anywhere in the dialog cancels it; the page's keys did not act on it (no step moved).
  const step = await page.locator('[data-testid="playhead"]').getAttribute('data-step');
  await unit.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await dialog(page).waitFor({ state: 'detached' });
  assert.equal(await page.locator('[data-testid="playhead"]').getAttribute('data-step'), step);
  assert.equal(await scenarioName(page), 'e2e_mine');

  // Pasted text: the same dialog, from a text box.
  await page.locator('[data-testid="import-paste"]').click();
  await dialog(page).and(page.locator('[data-phase="paste"]')).waitFor();
  await page.locator('[data-testid="import-paste-text"]').fill('user\tts\tamount\na\t1000\t5\nb\t2500\t7\na\t1800\t1\n');
  await page.locator('[data-testid="import-read"]').click();
  await dialog(page).and(page.locator('[data-phase="mapping"]')).waitFor();
  assert.match(await page.locator('.import-format').textContent(), /^TSV/);
  await page.locator('[data-testid="import-start"]').click();
  await dialog(page).waitFor({ state: 'detached' });
  await runSettled(page);
  assert.equal(await scenarioName(page), 'pasted text');
  assert.deepEqual((await shownInput(page)).split(',').sort(), ['2@1000', '3@2500', '4@1800'], 'ids are the lines');
  assert.deepEqual(app.pageErrors, []);
});

test('lateness report: a click on a point sets that bound and the outputs follow; a row button does too', async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 3) });
  t.after(() => app.close());
  const { page } = app;
  await openDialog(page, 'sensors.csv');
  // One partition: the quiet partition no longer holds the watermark back, so the bound decides.
  await page.locator('[data-testid="import-col-partition"]').selectOption('');
  await page.locator('[data-testid="import-start"]').click();
  await dialog(page).waitFor({ state: 'detached' });
  await runSettled(page);
  assert.equal(await scenarioName(page), 'sensors');
  const sideRows = () => page.locator('[data-testid="side-output-row"]').count();
  const bound = async () => {
    await page.locator('[data-testid="tab-config"]').click();
    return page.locator('[data-testid="cfg-bound"]').inputValue();
  };
  const suggested = await bound();
  await page.locator('[data-testid="tab-output"]').click();
  const sideBefore = await sideRows();

  await page.locator('[data-testid="tab-lateness"]').click();
  const chart = page.locator('[data-testid="lateness-chart"]');
  const points = await until(page, 'the chart is drawn', () => chart.getAttribute('data-points'), (v) => !!v);
  assert.equal(await page.locator('[data-testid="lateness-suggested"]').getAttribute('data-bound'), suggested);
  const rows = page.locator('[data-testid="lateness-row"]');
  assert.equal(await page.locator('[data-testid="lateness-row"].current').getAttribute('data-bound'), suggested);
  // The first point is bound 0: every out-of-order element is late, most of them dropped.
  const [x, y] = points.split(' ')[0].split(',').map(Number);
  const first = rows.first();
  assert.equal(await first.getAttribute('data-bound'), '0');
  const dropped = Number(await first.locator('[data-col="dropped"]').textContent());
  const box = await chart.boundingBox();
  const rev = await runSettled(page);
  await page.mouse.click(box.x + x, box.y + y);
  await runSettled(page, rev);
  await until(page, 'the report marks the new bound', () => page.locator('[data-testid="lateness-row"].current').getAttribute('data-bound'), (v) => v === '0');
  assert.equal(await bound(), '0', "the configuration's bound is the clicked point's");
  await page.locator('[data-testid="tab-output"]').click();
  const sideAfter = await sideRows();
  assert.ok(sideAfter > sideBefore, `more elements go to the side output at bound 0 (${sideBefore} → ${sideAfter})`);
  assert.equal(sideAfter, dropped, 'as many as the report said');

  // The keyboard's way: the suggested row's button.
  await page.locator('[data-testid="tab-lateness"]').click();
  const use = page.locator(`[data-testid="lateness-row"][data-bound="${suggested}"] [data-testid="lateness-use"]`);
  await use.focus();
  await page.keyboard.press('Enter');
  await until(page, 'the suggested bound is back', () => page.locator('[data-testid="lateness-row"].current').getAttribute('data-bound'), (v) => v === suggested);
  assert.equal(await bound(), suggested);
  await page.locator('[data-testid="tab-output"]').click();
  assert.equal(await sideRows(), sideBefore);
  assert.deepEqual(app.pageErrors, []);
});
