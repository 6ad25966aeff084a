// Engine runs in a Web Worker (TIMELINE_CONTRACT.md §3, issue 15): the page uses the worker when it
// can (run-status says data-runner="worker", and the page has a worker); in a sandboxed iframe,
// where no worker can be made, the main-thread runner gives the same outputs; a long run shows its
// progress and can be cancelled with a named button, the previous result staying on show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appBrowser, openApp, openPage, runSettled, until } from './harness.mjs';
import { stream } from './stream.mjs';
import { sandboxedApp } from './fixtures.mjs';

const status = (frame) => frame.locator('[data-testid="run-status"]');
const digest = (frame) => frame.locator('[data-testid="outputs"]').getAttribute('data-run-digest');
const b64url = (s) => Buffer.from(s, 'utf8').toString('base64url');

/** A scenario of n elements small enough for a URL. */
const linkTo = (sc) => `index.html#scenario=${b64url(JSON.stringify(sc))}&step=end`;

test('the engine runs in a Web Worker: run-status says so, and the outputs are the run', async (t) => {
  const sc = stream(2500, 'sliding'); // above worker_runner::RUN_HERE_MAX (2,000)
  const app = await openApp({ path: linkTo(sc) });
  t.after(() => app.close());
  const { page } = app;
  await runSettled(page, 0, 30000);
  assert.equal(await status(page).getAttribute('data-runner'), 'worker');
  assert.ok(page.workers().length >= 1, 'the page started a worker');
  assert.equal(await page.locator('[data-testid="scene"]').getAttribute('data-elements'), '2500');
  assert.ok((await page.locator('[data-testid="output-row"]').count()) > 0, 'the worker answered with outputs');
  // An edit goes to the worker too: step to the start, nudge the first element, its run comes back.
  const revision = Number(await status(page).getAttribute('data-revision'));
  const before = await digest(page);
  const entry = page.locator('[data-testid="canvas"] [tabindex="0"]');
  await entry.focus();
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  await runSettled(page, revision, 30000);
  assert.equal(await status(page).getAttribute('data-runner'), 'worker');
  assert.notEqual(await digest(page), before, 'the moved element changed the outputs');
  assert.deepEqual(app.pageErrors, []);
});

test('in a sandboxed iframe (no worker) the main-thread runner gives the same outputs', async (t) => {
  const { base, browser } = await appBrowser(t);
  const sc = stream(2500, 'session');
  const root = base.endsWith('/') ? base : `${base}/`;
  // The top-level page, on the worker.
  const top = await openPage(browser, new URL(linkTo(sc), root).href);
  await top.page.waitForSelector('[data-testid="timeline"]', { timeout: 30000 });
  await runSettled(top.page, 0, 30000);
  assert.equal(await status(top.page).getAttribute('data-runner'), 'worker');
  const expected = await digest(top.page);

  // A host page whose iframe is sandboxed (no worker can be made there).
  const host = await sandboxedApp(browser, base, linkTo(sc));
  const { frame } = host;
  await until(host.page, 'the framed run', () => status(frame).getAttribute('data-state'), (v) => v === 'done', 30000);
  assert.equal(await status(frame).getAttribute('data-runner'), 'main-thread');
  assert.equal(await frame.locator('[data-testid="scene"]').getAttribute('data-elements'), '2500');
  assert.equal(await digest(frame), expected, 'the main thread ran what the worker ran');
  assert.deepEqual(host.pageErrors, []);
});

// A run in flight for certain: the engine worker is told to hold its answers (a test hook of
// assets/engine-worker.js, set through Playwright's worker.evaluate), so the progress and the
// Cancel button show however fast the machine is. (Quarantined until 2026-12-03: with a real
// 100,000-element run, the run could end between the button showing and the click.)
test('a long run shows its progress and can be cancelled; the previous result stays', { timeout: 120000 }, async (t) => {
  const app = await openApp({ viewport: { width: 1400, height: 900 } });
  t.after(() => app.close());
  const { page } = app;
  await runSettled(page, -1, 30000);
  const elements = () => page.locator('[data-testid="scene"]').getAttribute('data-elements');
  const shown = await elements();
  const before = await digest(page);
  const step = () => page.locator('[data-testid="playhead"]').getAttribute('data-step');
  const stepBefore = await step();
  const revision = Number(await status(page).getAttribute('data-revision'));
  const engine = await until(page, 'the engine worker', () => page.workers().find((w) => /engine-worker\.js/.test(w.url()) && !/task=import/.test(w.url())), (w) => !!w, 30000);
  await engine.evaluate(() => { self.__tidemarkHoldRuns = new Promise(() => {}); });
  // More than the 2,000 elements that run on the main thread: this run goes to the worker.
  const big = stream(2500, 'sliding', 10000);
  await page.locator('[data-testid="import-file"]').setInputFiles({
    name: 'big.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(big)),
  });
  const cancel = page.getByRole('button', { name: 'Cancel run' });
  // The progress shows 0.4 s after the run started.
  await cancel.waitFor({ state: 'visible', timeout: 60000 });
  assert.equal(await status(page).getAttribute('data-state'), 'running');
  assert.equal(await page.locator('[data-testid="run-progress"] progress').count(), 1, 'a progress bar');
  assert.match(await page.locator('[data-testid="run-progress"]').textContent(), /Running the engine on 2,500 input items/);
  // Keyboard: the button takes the focus and Enter presses it.
  await cancel.focus();
  await page.keyboard.press('Enter');
  const after = await runSettled(page, revision, 30000);
  assert.ok(after > revision, 'the cancel is a new revision');
  assert.equal(await elements(), shown, 'the previous scenario is on show');
  assert.equal(await step(), stepBefore, 'at its step');
  assert.equal(await digest(page), before, 'with its outputs');
  assert.equal(await page.locator('[data-testid="run-progress"]').count(), 0);
  assert.match(await page.locator('.banner').allTextContents().then((t) => t.join(' ')), /cancelled/);
  // A new worker (without the hold) runs: an undo brings the cancelled load back, and it runs to the end.
  await page.locator('[data-testid="undo"]').click();
  await runSettled(page, after, 60000);
  assert.equal(await elements(), '2500', 'the cancelled load is back and ran');
  assert.equal(await status(page).getAttribute('data-runner'), 'worker');
  assert.deepEqual(app.pageErrors, []);
});

// wasm memory never shrinks: after an answer of more than 8 MB with nothing waiting
// (src/ui/worker_runner.rs, RECYCLE_ANSWER_BYTES: a run of about 20,000 elements or more), the page
// ends the engine worker, and its memory with it, and starts a fresh one. A small run keeps its
// worker; the fresh one answers as the first did.
test('the engine worker is replaced after a large run, and the new one answers the same', { timeout: 180000 }, async (t) => {
  const app = await openApp({ viewport: { width: 1400, height: 900 } });
  t.after(() => app.close());
  const { page } = app;
  await runSettled(page, -1, 30000);
  const isEngine = (w) => /engine-worker\.js/.test(w.url()) && !/task=import/.test(w.url());
  const engine = () => until(page, 'the engine worker', () => page.workers().find(isEngine), (w) => !!w, 30000);
  const load = async (sc) => {
    const revision = Number(await status(page).getAttribute('data-revision'));
    await page.locator('[data-testid="import-file"]').setInputFiles({ name: 's.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(sc)) });
    await runSettled(page, revision, 120000);
    assert.equal(await status(page).getAttribute('data-runner'), 'worker');
    // run-status is done before the timeline and the output list have drawn the new run (they
    // render after it): the digest is read once the scene has the new stream.
    const scene = page.locator('[data-testid="scene"]');
    await until(page, 'the loaded stream drawn', () => scene.getAttribute('data-elements'), (v) => v === String(sc.input.length), 30000);
    return digest(page);
  };
  const closed = (w) => new Promise((resolve) => w.once('close', () => resolve(true)));
  const first = await engine();
  let firstClosed = false;
  closed(first).then(() => { firstClosed = true; });
  await load(stream(2500, 'tumbling'));
  // Another round trip to the same worker after the first answer: had it been ended, its close
  // would have come by now.
  await load(stream(2500, 'session'));
  assert.equal(firstClosed, false, 'a small run keeps its worker');
  assert.equal(page.workers().filter(isEngine)[0], first);
  const large = stream(30000, 'sliding');
  const digestLarge = await load(large);
  await until(page, 'the worker that ran 30,000 elements ended', () => firstClosed, (v) => v === true, 30000);
  const fresh = await until(page, 'a fresh engine worker', () => page.workers().find((w) => isEngine(w) && w !== first), (w) => !!w, 30000);
  assert.equal(page.workers().filter(isEngine).length, 1, 'one engine worker');
  // It answers: a small stream, then the large one again, with the same outputs.
  await load(stream(2500, 'tumbling'));
  assert.equal(page.workers().filter(isEngine)[0], fresh, 'a small run keeps the fresh worker');
  assert.equal(await load(large), digestLarge, 'the fresh worker runs what the first one ran');
  assert.deepEqual(app.pageErrors, []);
});
