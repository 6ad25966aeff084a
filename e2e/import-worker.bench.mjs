// The import's parse of a large file, measured in headless Chromium, and the dialog's screenshots
// mid-parse. Not a test (no assertions on time): run it after `trunk build --release` and read the
// figures, look at the pictures.
//
//   node e2e/import-worker.bench.mjs [ROWS] [OUT_DIR]      (default 100000 rows, docs/screenshots)
//
// A generated CSV (`sensorCsv` wide: ISO-8601 times with an offset, a quoted note; about 5 MB at
// 100,000 rows, two bad rows) through the file input, mapped in the dialog, parsed (a) in the
// import worker and (b) on the main thread (`new Worker` made to throw for the import worker, the
// dialog's fallback). For each: the time from the Import click to the review of the bad rows (the
// whole parse), the longest main-thread task in that time (PerformanceObserver 'longtask', which
// reports tasks over 50 ms; none: every task under 50 ms), then the same after "skip" until the
// stream has run (the scenario is built, handed to the page as JSON and run in the engine worker).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT, openApp } from './harness.mjs';
import { sensorCsv } from './stream.mjs';
import { MINE, scenarioPath } from './fixtures.mjs';

const rows = Number(process.argv[2] || 100000);
const out = process.argv[3] || join(REPO_ROOT, 'docs/screenshots');
await mkdir(out, { recursive: true });
const { text } = sensorCsv(rows, [1234, rows - 10], { wide: true });
const FILE = { name: 'sensors_wide.csv', mimeType: 'text/csv', buffer: Buffer.from(text) };
console.log(`${rows} rows, ${(FILE.buffer.length / 1048576).toFixed(2)} MB`);

/** Long tasks, recorded from the start; `new Worker` for the import throws when `noWorker`. */
function instrument(noWorker) {
  window.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  if (noWorker) {
    const Real = window.Worker;
    window.Worker = function Worker(url, options) {
      if (String(url).includes('task=import')) throw new DOMException('no worker here', 'SecurityError');
      return new Real(url, options);
    };
  }
}

async function openDialog(page) {
  await page.locator('[data-testid="import-file"]').setInputFiles(FILE);
  await page.locator('[data-testid="import-dialog"][data-phase="mapping"]').waitFor({ timeout: 60000 });
  await page.locator('[data-testid="import-col-key"]').selectOption('1');
  await page.locator('[data-testid="import-col-event-time"]').selectOption('0');
  await page.locator('[data-testid="import-col-value"]').selectOption('2');
}

const now = (page) => page.evaluate(() => performance.now());
const longest = (page, from, to) =>
  page.evaluate(([a, b]) => Math.max(0, ...window.__long.filter((e) => e.start >= a && e.start < b).map((e) => e.duration)), [from, to]);

for (const noWorker of [false, true]) {
  const app = await openApp({ path: scenarioPath(MINE, 3), viewport: { width: 1400, height: 900 } });
  const { page } = app;
  await page.evaluate(instrument, noWorker);
  await openDialog(page);
  const t0 = await now(page);
  await page.locator('[data-testid="import-start"]').click();
  const review = page.locator('[data-testid="import-dialog"][data-phase="review"]');
  await review.waitFor({ timeout: 600000 });
  const t1 = await now(page);
  const parser = await review.getAttribute('data-parser');
  const status = page.locator('[data-testid="run-status"]');
  const revision = Number(await status.getAttribute('data-revision'));
  await page.locator('[data-testid="import-skip"]').click();
  await page.locator('[data-testid="import-dialog"]').waitFor({ state: 'detached', timeout: 600000 });
  const tClosed = await now(page);
  await page.waitForFunction(
    (r) => {
      const s = document.querySelector('[data-testid="run-status"]');
      return s && s.dataset.state === 'done' && Number(s.dataset.revision) > r;
    },
    revision,
    { timeout: 600000, polling: 'raf' },
  );
  const t2 = await now(page);
  console.log(
    `parser ${parser}: parse ${(t1 - t0).toFixed(0)} ms, longest main-thread task during it ${(await longest(page, t0, t1)).toFixed(0)} ms; ` +
      `skip → dialog closed ${(tClosed - t1).toFixed(0)} ms (longest task ${(await longest(page, t1, tClosed)).toFixed(0)} ms), ` +
      `→ run done ${(t2 - tClosed).toFixed(0)} ms more (longest task ${(await longest(page, tClosed, t2)).toFixed(0)} ms)`,
  );
  if (app.pageErrors.length) console.error(app.pageErrors);
  await app.close();
}

// The dialog mid-parse, in the worker, at the projector's and the lab iframe's sizes. The parse is
// quick, so a shot is kept only if the dialog still read "parsing" after it was taken (tried again
// up to 8 times).
for (const [width, height] of [[1920, 1080], [700, 450]]) {
  const file = join(out, `import-progress-${width}x${height}.png`);
  for (let attempt = 1; attempt <= 8; attempt++) {
    const app = await openApp({ path: scenarioPath(MINE, 3), viewport: { width, height } });
    const { page } = app;
    await openDialog(page);
    await page.locator('[data-testid="import-start"]').click();
    await page.waitForFunction(() => {
      const p = document.querySelector('[data-testid="import-progress"] progress');
      return p && p.value > 0.2 * p.max;
    }, null, { timeout: 600000, polling: 'raf' });
    const shot = await page.screenshot();
    const dialog = page.locator('[data-testid="import-dialog"]');
    const [phase, parser] = [await dialog.getAttribute('data-phase'), await dialog.getAttribute('data-parser')];
    await app.close();
    if (phase === 'parsing') {
      await writeFile(file, shot);
      console.log(file, 'parser', parser, 'attempt', attempt);
      break;
    }
  }
}
