// Your own stream (issue 15): a file over 1 MB is parsed in a Web Worker, with a progress bar.
// A generated 50,000-row CSV (1.4 MB, two bad rows) through the real file input: the dialog says
// data-parser="worker", a named <progress> with a value shows while it reads, the bad rows come
// back with their lines, and "skip" loads as many elements as `tidemark import --skip-bad` makes of
// the same file. Cancel during the parse (the worker's script held back, so the parse is certainly
// under way) leaves the previous scenario untouched. With the worker blocked, or in a sandboxed
// iframe (no worker can be made), the main thread parses it and loads the very same stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appBrowser, openApp, openPage, until } from './harness.mjs';
import { MINE, sandboxedApp, scenarioPath, shownInput, tidemarkCli } from './fixtures.mjs';
import { sensorCsv } from './stream.mjs';

const ROWS = 50000;
const { text, badLines } = sensorCsv(ROWS, [12345, 37001]);
const FILE = { name: 'sensors_big.csv', mimeType: 'text/csv', buffer: Buffer.from(text) };
const GOOD = ROWS - badLines.length;
/** The import worker's script request (`engine-worker.js?…&task=import`). */
const isImportWorker = (url) => url.pathname.endsWith('/engine-worker.js') && url.searchParams.get('task') === 'import';
/** What the worker's parse loaded (the first test), for the others to compare with. */
let workerLoaded = null;

/** `tidemark import FILE --skip-bad`'s scenario for the same file and mapping. */
function cliImport() {
  const dir = mkdtempSync(join(tmpdir(), 'tidemark-import-'));
  try {
    const file = join(dir, FILE.name);
    writeFileSync(file, text);
    const args = ['import', file, '--key', 'sensor', '--ts', 'event_ms', '--ts-unit', 'ms', '--value', 'reading', '--skip-bad'];
    return JSON.parse(tidemarkCli(args));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * In `frame` (a page or a frame locator): the file chosen, mapped (sensor, event_ms in ms, reading)
 * and started. Resolves to the run-status revision before.
 */
async function startImport(frame) {
  const { revision } = await runStatus(frame);
  await frame.locator('[data-testid="import-file"]').setInputFiles(FILE);
  const dialog = frame.locator('[data-testid="import-dialog"][data-phase="mapping"]');
  await dialog.waitFor({ timeout: 30000 });
  await frame.locator('[data-testid="import-col-key"]').selectOption('1');
  await frame.locator('[data-testid="import-col-event-time"]').selectOption('0');
  await frame.locator('[data-testid="import-unit"]').selectOption('ms');
  await frame.locator('[data-testid="import-col-value"]').selectOption('2');
  assert.match(await dialog.locator('.import-note').textContent(), /The file is 1\.\d MB: it is read in the background, with a progress bar/);
  await frame.locator('[data-testid="import-start"]').click();
  return revision;
}

/** The review of the whole file: the bad rows by line and reason, the counts; then skip. */
async function reviewAndSkip(frame, parser) {
  const review = frame.locator(`[data-testid="import-dialog"][data-phase="review"]`);
  await review.waitFor({ timeout: 120000 });
  assert.equal(await review.getAttribute('data-parser'), parser);
  const bad = frame.locator('[data-testid="import-bad-row"]');
  assert.deepEqual(await bad.evaluateAll((els) => els.map((e) => Number(e.dataset.line))), badLines);
  const reasons = await bad.allTextContents();
  assert.match(reasons[0], new RegExp(`^line ${badLines[0]}: .*event time.*'soon'`));
  assert.match(reasons[1], new RegExp(`^line ${badLines[1]}: .*key`));
  assert.match(await frame.locator('[data-testid="import-bad-count"]').textContent(), new RegExp(`^2 of ${ROWS} rows cannot be read`));
  const skip = frame.locator('[data-testid="import-skip"]');
  assert.equal(await skip.textContent(), `Skip 2 bad rows and load ${GOOD} elements`);
  await skip.click();
  await frame.locator('[data-testid="import-dialog"]').waitFor({ state: 'detached', timeout: 60000 });
}

/** The run-status hook of `frame` (a page or a frame locator). */
const runStatus = async (frame) => {
  const status = frame.locator('[data-testid="run-status"]');
  return { state: await status.getAttribute('data-state'), revision: Number(await status.getAttribute('data-revision')) };
};

/**
 * What `frame` loaded once its run after revision `after` is done (`page` polls once a frame): the
 * element count, the import's summary line, the outputs' digest.
 */
async function loaded(page, frame, after) {
  const done = (s) => s.state === 'done' && s.revision > after;
  await until(page, 'the imported stream has run', () => runStatus(frame), done, 240000);
  return {
    elements: Number(await frame.locator('[data-testid="scene"]').getAttribute('data-elements')),
    summary: await frame.locator('[data-testid="error-banner"]').first().textContent(),
    digest: await frame.locator('[data-testid="outputs"]').getAttribute('data-run-digest'),
  };
}

test('a CSV over 1 MB is parsed in the worker with a progress bar; skip loads what the CLI loads; blocked, the main thread loads the same', {
  timeout: 600000,
}, async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 3) });
  t.after(() => app.close());
  const { page } = app;
  // Every value the progress bar shows, with its accessible name, recorded as the DOM changes.
  await page.evaluate(() => {
    window.__bars = [];
    const record = () =>
      document.querySelectorAll('[data-testid="import-progress"] progress').forEach((p) => {
        window.__bars.push({ value: p.value, max: p.max, name: p.labels[0]?.textContent ?? '' });
      });
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const start = await startImport(page);
  await reviewAndSkip(page, 'worker');
  const bars = await page.evaluate(() => window.__bars);
  const moving = bars.filter((b) => b.value > 0 && b.value < b.max);
  assert.ok(moving.length > 0, `the progress bar showed the parse under way: ${JSON.stringify(bars.slice(0, 5))}`);
  assert.ok(moving.every((b) => b.max === FILE.buffer.length), 'its maximum is the file size in bytes');
  assert.match(moving[0].name, /^Reading \d{1,3}(,\d{3})* rows so far \(\d+ %\)$/, 'it is named by its label');

  const worker = await loaded(page, page, start);
  workerLoaded = worker;
  assert.equal(worker.elements, GOOD);
  assert.match(worker.summary, new RegExp(`^Imported “sensors_big\\.csv”: ${GOOD} elements, 20 keys, 2 bad rows skipped\\.`));
  const cli = cliImport();
  assert.equal(cli.input.filter((i) => 'key' in i).length, worker.elements, 'as many elements as `tidemark import --skip-bad`');
  assert.deepEqual(app.pageErrors, []);

  // The worker's script blocked: the worker fails to load, and the main thread parses the file.
  const blocked = await openPage(app.browser, app.url);
  t.after(() => blocked.close());
  await blocked.page.route((url) => isImportWorker(url), (route) => route.abort('blockedbyclient'));
  await blocked.page.locator('[data-testid="timeline"]').waitFor({ timeout: 30000 });
  const blockedStart = await startImport(blocked.page);
  await reviewAndSkip(blocked.page, 'main-thread');
  const here = await loaded(blocked.page, blocked.page, blockedStart);
  assert.deepEqual(here, worker, 'the main thread loaded the very stream the worker did');
  assert.deepEqual(blocked.pageErrors, []);
});

test('Cancel during the worker parse leaves the previous scenario untouched', { timeout: 300000 }, async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 3) });
  t.after(() => app.close());
  const { page } = app;
  const before = await shownInput(page);
  // Hold the import worker's script until after the cancel: the parse is certainly under way.
  let held;
  let requested;
  const request = new Promise((resolve) => {
    requested = resolve;
  });
  await page.route((url) => isImportWorker(url), (route) => {
    held = route;
    requested();
  });
  await startImport(page);
  const parsing = page.locator('[data-testid="import-dialog"][data-phase="parsing"][data-parser="worker"]');
  await parsing.waitFor({ timeout: 30000 });
  await request;
  const bar = page.getByRole('progressbar', { name: /^Reading 0 rows so far/ });
  assert.equal(await bar.getAttribute('max'), String(FILE.buffer.length));
  // The keyboard's way: the focus went from Import to Cancel reading, and Enter presses it.
  await page.getByRole('button', { name: 'Cancel reading' }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'import-parse-cancel');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="import-dialog"][data-phase="mapping"]').waitFor();
  assert.equal(await page.locator('[data-testid="import-dialog-error"]').count(), 0, 'a cancel is no error');
  await held.abort('blockedbyclient');
  await page.locator('[data-testid="import-cancel"]').click();
  await page.locator('[data-testid="import-dialog"]').waitFor({ state: 'detached' });
  assert.equal(await page.locator('[data-testid="scenario-name"]').textContent(), 'e2e_mine');
  assert.equal(await shownInput(page), before);
  assert.deepEqual(app.pageErrors, []);
});

test('in a sandboxed iframe (no worker can be made) the main thread parses and loads the same', { timeout: 600000 }, async (t) => {
  const { base, browser } = await appBrowser(t);
  const host = await sandboxedApp(browser, base, `index.html${scenarioPath(MINE, 3)}`, [1400, 900]);
  t.after(() => host.close());
  const { frame } = host;
  const start = await startImport(frame);
  await reviewAndSkip(frame, 'main-thread');
  const framed = await loaded(host.page, frame, start);
  assert.ok(workerLoaded, 'the worker test ran first');
  assert.deepEqual(framed, workerLoaded, 'the main thread loaded the very stream the worker did');
  assert.deepEqual(host.pageErrors, []);
});
