// A lab page talks to Tidemark (issue 18; README, "Embedding: talking to a lab page"): a host page
// on another origin (a server of its own on another port) embeds the app in an iframe and
// records every message the app sends it. The resize messages in their three formats, the round
// trip of every request and event, the example lab page sizing its embeds and showing the quiz
// score, and hostile messages (another window, the wrong origin, huge, broken, markup in strings,
// __proto__ keys): nothing executes, nothing but a height is sent to "*", the page keeps working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { VIEWPORTS, launchBrowser, openApp, startServer, until } from './harness.mjs';

const ROW = (d) => JSON.stringify(d);

/** Serves `page.body` on 127.0.0.1 at a free port: another origin than the app's. */
async function hostServer(page) {
  const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.body));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((ok) => server.close(ok)) };
}

/**
 * A host page on another origin (127.0.0.1, another port) embedding the app at `hash` (where
 * `{HOST}` stands for the host's origin), with `attrs` on the iframe, and a same-origin sibling
 * iframe. `window.__got` records what the app sends to the host.
 */
async function openHost(hash, { attrs = '', viewport = { width: 1000, height: 900 } } = {}) {
  const server = process.env.TIDEMARK_URL ? null : await startServer();
  const appBase = new URL(process.env.TIDEMARK_URL || server.url);
  const hosted = { body: '' };
  const host = await hostServer(hosted);
  const appUrl = new URL(`index.html${hash.replace('{HOST}', encodeURIComponent(host.origin))}`, appBase).href;
  hosted.body = `<!doctype html><html lang="en"><head><title>host</title></head><body>
<script>
  window.__got = [];
  window.__others = 0;
  addEventListener('message', (e) => {
    const app = document.getElementById('app');
    if (app && e.source === app.contentWindow) window.__got.push({ origin: e.origin, data: e.data });
    else window.__others += 1;
  });
  window.send = (msg, origin) => document.getElementById('app').contentWindow.postMessage(msg, origin || '${appBase.origin}');
</script>
<iframe id="app" name="app" src="${appUrl}" width="700" height="450" title="Tidemark" ${attrs}></iframe>
<iframe id="sibling" title="another frame" srcdoc="<p>another frame of the lab page</p>"></iframe>
</body></html>`;
  const browser = await launchBrowser();
  const close = async () => {
    await browser.close();
    await host.close();
    if (server) await server.close();
  };
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${host.origin}/__host.html`);
  const app = page.frameLocator('#app');
  await app.locator('[data-testid="timeline"]').waitFor({ state: 'visible', timeout: 15000 }).catch(async (e) => {
    await close();
    throw e;
  });
  const frame = page.frames().find((f) => f.url().startsWith(appBase.origin));
  const got = () => page.evaluate(() => window.__got);
  /** Waits for a message the app sent that `match` accepts (after the first `after` messages). */
  const message = (what, match, after = 0) =>
    until(page, `the host got ${what}`, async () => (await got()).slice(after).find((m) => match(m.data)) ?? null, (m) => m !== null);
  const send = (msg) => page.evaluate((m) => window.send(m), msg);
  return { page, app, frame, got, message, send, pageErrors, appOrigin: appBase.origin, hostOrigin: host.origin, close };
}

const step = (h) => h.app.locator('[data-testid="playhead"]').getAttribute('data-step');
const element = (h, id) => h.app.locator(`[data-testid="element"][data-id="${id}"]`);
/**
 * Drags `el` (in the app's frame) by `dx` px with the real mouse: scrolled into view first, as a
 * student would (in a 700x450 frame in normal mode the canvas is a short scrolling box, and the
 * element may sit below its visible part, under the narration), and only once its centre shows
 * the canvas rather than whatever covers it (otherwise the drag would silently miss).
 */
async function dragX(h, el, dx) {
  await el.scrollIntoViewIfNeeded();
  const onCanvas = await el.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && hit.closest('.canvas-box') === e.closest('.canvas-box');
  });
  assert.ok(onCanvas, 'the element to drag is covered: the mouse would not reach it');
  const box = await el.boundingBox();
  await h.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await h.page.mouse.down();
  await h.page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2, { steps: 6 });
  await h.page.mouse.up();
}
const isResize = (d) => d?.type === 'tidemark:resize' || d?.subject === 'lti.frameResize' || d?.context === 'iframe.resize';

/** Twelve keys: twelve lanes, more than fit in 450 px. */
const TALL = {
  name: 'e2e_tall',
  assigner: { kind: 'tumbling', size: 10000 },
  input: [...'ABCDEFGHIJKL'].map((key, i) => ({ id: i + 1, key, ts: 1000 * (i + 1) })),
};

test('resize: three formats with the same height, to the parent origin; the height follows the content', async (t) => {
  const h = await openHost('#preset=lab-6-2&mode=embed&step=3');
  t.after(() => h.close());
  const first = await h.message('a tidemark:resize', (d) => d?.type === 'tidemark:resize');
  const resizes = (await h.got()).filter((m) => isResize(m.data));
  const height = first.data.height;
  assert.ok(Number.isInteger(height) && height >= 300, `height ${height}`);
  for (const d of [{ subject: 'lti.frameResize', height }, { context: 'iframe.resize', height }, { type: 'tidemark:resize', v: 1, height }]) {
    assert.ok(resizes.some((m) => isDeepStrictEqual(m.data, d)), `no ${ROW(d)} in ${ROW(resizes.map((m) => m.data))}`);
  }
  // The referrer named the host's origin: the messages went to it alone.
  assert.ok(resizes.every((m) => m.origin === h.appOrigin));
  // Twelve lanes do not fit: the announced height grows.
  const seen = (await h.got()).length;
  await h.send({ type: 'tidemark:load', v: 1, scenario: TALL });
  await until(h.page, 'twelve elements', async () => (await h.app.locator('[data-testid="element"]').count()) === 12);
  const taller = await h.message('a taller height', (d) => d?.type === 'tidemark:resize' && d.height > height, seen);
  assert.ok(taller.data.height > height + 100, `${taller.data.height} after ${height}`);
  assert.deepEqual(h.pageErrors, []);
});

test('no origin known (no referrer, no origin=): only height-only resize messages leave, to "*"', async (t) => {
  const h = await openHost('#preset=lab-6-2&mode=embed&step=3&quiz=1', { attrs: 'referrerpolicy="no-referrer"' });
  t.after(() => h.close());
  await h.message('a tidemark:resize', (d) => d?.type === 'tidemark:resize');
  // The parent is still heard: a step, then a request that would be answered, a drag, a quiz answer.
  await h.send({ type: 'tidemark:go-to-step', v: 1, step: 2 });
  await until(h.page, 'step 2', async () => (await step(h)) === '2');
  await h.send({ type: 'tidemark:get-scenario', v: 1 });
  await h.send({ type: 'tidemark:go-to-step', v: 1, step: 'x' });
  const el = element(h, '1');
  const before = await el.getAttribute('data-ts');
  await dragX(h, el, 40);
  await until(h.page, 'the drag moved element 1', async () => (await el.getAttribute('data-ts')) !== before);
  // A message to "*" would have arrived by now: the app frame answers the host's next round trip.
  await h.send({ type: 'tidemark:go-to-step', v: 1, step: 3 });
  await until(h.page, 'step 3', async () => (await step(h)) === '3');
  const got = await h.got();
  assert.ok(got.length >= 3, `only ${got.length} messages`);
  for (const m of got) {
    assert.ok(isResize(m.data), `not a resize message sent to "*": ${ROW(m.data).slice(0, 200)}`);
    const keys = Object.keys(m.data).sort();
    assert.ok(keys.every((k) => ['type', 'v', 'subject', 'context', 'height'].includes(k)), ROW(keys));
  }
  assert.deepEqual(h.pageErrors, []);
});

test('round trip: load a preset, quiz answered, go to a step, set the mode, lock, get the scenario, errors', async (t) => {
  // The origin named in the link (the referrer would name the same one).
  const h = await openHost('#preset=lab-6-1&mode=embed&step=2&quiz=1&origin={HOST}');
  t.after(() => h.close());
  const ready = await h.message('tidemark:ready', (d) => d?.type === 'tidemark:ready');
  assert.deepEqual(ready.data, { type: 'tidemark:ready', v: 1, step: 2, steps: 4, mode: 'embed', locked: false, preset: 'lab-6-1' });
  // Load a preset at a step: the scenario changed, the step changed.
  let n = (await h.got()).length;
  await h.send({ type: 'tidemark:load-preset', v: 1, preset: 'lab-6-2', step: 3 });
  const edited = await h.message('tidemark:scenario-edited', (d) => d?.type === 'tidemark:scenario-edited', n);
  assert.equal(edited.data.preset, 'lab-6-2');
  assert.equal(edited.data.scenario.name, 'lab-6-2');
  await h.message('step-changed 3', (d) => d?.type === 'tidemark:step-changed' && d.step === 3, n);
  assert.equal(await step(h), '3');
  // The quiz (on from the link): a step forward asks, the answer is checked and sent to the host.
  n = (await h.got()).length;
  await h.app.locator('[data-testid="step-forward"]').click();
  await h.app.locator('[data-testid="quiz-panel"]').waitFor();
  await h.app.locator('[data-testid="quiz-option"]', { hasText: 'fires at once' }).click();
  await h.app.locator('[data-testid="quiz-submit"]').click();
  const answered = await h.message('tidemark:quiz-answered', (d) => d?.type === 'tidemark:quiz-answered', n);
  assert.equal(answered.data.correct, true);
  assert.match(answered.data.prompt, /element 4/i);
  assert.equal(typeof answered.data.question, 'string');
  assert.deepEqual({ ...answered.data.score, questions: 0 }, { correct: 1, answered: 1, questions: 0 });
  assert.ok(answered.data.score.questions >= 1);
  await h.app.locator('[data-testid="quiz-reveal"]').click();
  await h.message('step-changed 4', (d) => d?.type === 'tidemark:step-changed' && d.step === 4, n);
  // Go to a step; set the mode.
  n = (await h.got()).length;
  await h.send({ type: 'tidemark:go-to-step', v: 1, step: 'end' });
  const end = await h.message('step-changed end', (d) => d?.type === 'tidemark:step-changed' && d.step === d.steps, n);
  assert.equal(await step(h), String(end.data.steps));
  await h.send({ type: 'tidemark:go-to-step', v: 1, step: 2 });
  await until(h.page, 'step 2', async () => (await step(h)) === '2');
  await h.send({ type: 'tidemark:set-mode', v: 1, mode: 'normal' });
  await until(h.page, 'normal mode', async () => (await h.app.locator('[data-testid="app"]').getAttribute('data-mode')) === 'normal');
  // Lock: read-only, visibly; a drag does not move the element; the configuration is disabled.
  await h.send({ type: 'tidemark:lock', v: 1, locked: true });
  await h.app.locator('[data-testid="locked"]').waitFor();
  assert.match(await h.app.locator('[data-testid="locked"]').textContent(), /Read-only/);
  await h.app.locator('[data-testid="tab-config"]').click();
  await h.app.locator('[data-testid="config-locked"]').waitFor();
  assert.equal(await h.app.locator('[data-testid="config-locked"] select').first().isDisabled(), true);
  const el = element(h, '1');
  const ts = await el.getAttribute('data-ts');
  await dragX(h, el, 60);
  await h.send({ type: 'tidemark:get-scenario', v: 1 });
  const locked = await h.message('tidemark:scenario', (d) => d?.type === 'tidemark:scenario');
  assert.equal(await el.getAttribute('data-ts'), ts, 'a drag moved an element while locked');
  assert.equal(String(locked.data.scenario.input[0].ts), ts);
  // Unlock: the same drag edits, and the host hears of it.
  n = (await h.got()).length;
  await h.send({ type: 'tidemark:lock', v: 1, locked: false });
  await h.app.locator('[data-testid="locked"]').waitFor({ state: 'detached' });
  await dragX(h, el, 60);
  const moved = await h.message('a scenario edit', (d) => d?.type === 'tidemark:scenario-edited', n);
  const newTs = await el.getAttribute('data-ts');
  assert.notEqual(newTs, ts);
  assert.equal(String(moved.data.scenario.input[0].ts), newTs);
  // Every committed edit is heard, not only a drag: the arrow key nudges the dragged (focused)
  // element, and an undo takes the nudge back.
  n = (await h.got()).length;
  await h.page.keyboard.press('ArrowRight');
  const nudged = await h.message('the nudge', (d) => d?.type === 'tidemark:scenario-edited', n);
  assert.ok(BigInt(nudged.data.scenario.input[0].ts) > BigInt(newTs), `${nudged.data.scenario.input[0].ts} after ${newTs}`);
  assert.equal(await el.getAttribute('data-ts'), String(nudged.data.scenario.input[0].ts));
  n = (await h.got()).length;
  await h.app.locator('[data-testid="undo"]').click();
  const undone = await h.message('the undo', (d) => d?.type === 'tidemark:scenario-edited', n);
  assert.equal(String(undone.data.scenario.input[0].ts), newTs);
  await until(h.page, 'the undo on the canvas', async () => (await el.getAttribute('data-ts')) === newTs);
  // Get the scenario: what the canvas shows.
  n = (await h.got()).length;
  await h.send({ type: 'tidemark:get-scenario', v: 1 });
  const reply = await h.message('tidemark:scenario', (d) => d?.type === 'tidemark:scenario', n);
  assert.equal(reply.data.step, 2);
  assert.equal(reply.data.preset, 'lab-6-2');
  const shown = await h.app.locator('[data-testid="element"]').evaluateAll((els) => els.map((e) => `${e.dataset.id}@${e.dataset.ts}`).sort().join());
  const sent = reply.data.scenario.input.filter((i) => 'id' in i).map((i) => `${i.id}@${i.ts}`).sort().join();
  assert.equal(sent, shown);
  // A bad scenario: the link's message, answered and shown; the scenario stays.
  n = (await h.got()).length;
  await h.send({ type: 'tidemark:load', v: 1, scenario: { assigner: { kind: 'tumbling', size: 1 }, input: [{ id: 1 }] } });
  const error = await h.message('tidemark:error', (d) => d?.type === 'tidemark:error', n);
  assert.equal(error.data.request, 'tidemark:load');
  assert.ok(error.data.message.startsWith('the scenario in the message is not valid: input[0].key: is missing ('), error.data.message);
  await until(h.page, 'the banner', async () => (await h.app.locator('[data-testid="error-banner"]').allTextContents()).join(' ').includes('input[0].key: is missing'));
  assert.equal(await el.getAttribute('data-ts'), newTs);
  // Every message went to the host's origin.
  assert.ok((await h.got()).every((m) => m.origin === h.appOrigin));
  assert.deepEqual(h.pageErrors, []);
});

test('hostile messages: other windows, the wrong origin, huge, broken, markup, __proto__: nothing runs, a drag still works', async (t) => {
  const h = await openHost('#preset=lab-6-2&mode=embed&step=3');
  t.after(() => h.close());
  await h.message('tidemark:ready', (d) => d?.type === 'tidemark:ready');
  // Not the parent: a sibling frame of the lab page (same origin as the parent), and the app itself.
  await h.page.frameLocator('#sibling').locator('p').evaluate(() =>
    parent.document.getElementById('app').contentWindow.postMessage({ type: 'tidemark:go-to-step', v: 1, step: 0 }, '*'),
  );
  await h.frame.evaluate(() => window.postMessage({ type: 'tidemark:go-to-step', v: 1, step: 0 }, '*'));
  await h.send({ type: 'tidemark:get-scenario', v: 1 });
  await h.message('the scenario', (d) => d?.type === 'tidemark:scenario');
  assert.equal(await step(h), '3', 'a window other than the parent moved the playhead');
  // Huge (13 MB), broken JSON, wrong types, an unknown request, a cycle-free but odd object.
  const n = (await h.got()).length;
  await h.page.evaluate(() => window.send('x'.repeat(13 * 1024 * 1024)));
  await h.send('{"type": "tidemark:load", "v": 1, "scenario": {');
  await h.send({ type: { toString: 'tidemark:load' }, v: 1 });
  await h.send({ type: 'tidemark:go-to-step', v: '1', step: 1 });
  await h.send({ type: 'tidemark:eval', v: 1, code: 'parent.__pwned = 1' });
  await h.send(null);
  await h.send(42);
  // Markup in strings: as text, never as HTML.
  const markup = '<img src=x onerror="window.__pwned=1;parent.__pwned=1">';
  await h.send({ type: 'tidemark:set-mode', v: 1, mode: markup });
  await h.send({ type: 'tidemark:load-preset', v: 1, preset: '<script>window.__pwned=1</script>' });
  await h.send({
    type: 'tidemark:load', v: 1, step: 'end',
    scenario: { name: markup, description: markup, assigner: { kind: 'tumbling', size: 10000 }, input: [{ id: 1, key: markup, ts: 1000 }, { id: 2, key: 'B', ts: 2000 }] },
  });
  await until(h.page, 'the markup scenario loaded', async () => (await h.app.locator('[data-testid="element"]').count()) === 2);
  assert.equal(await h.app.locator('.embed-title').textContent(), markup);
  // __proto__ keys are data (JSON.parse makes them own properties): no prototype is polluted.
  await h.page.evaluate(() =>
    window.send(JSON.parse('{"__proto__": {"polluted": "yes"}, "type": "tidemark:go-to-step", "v": 1, "step": 1, "constructor": {"prototype": {"polluted": "yes"}}}')),
  );
  await until(h.page, 'step 1 from the __proto__ message', async () => (await step(h)) === '1');
  await h.message('the last error', (d) => d?.type === 'tidemark:error' && d.request === 'tidemark:load-preset', n);
  const replies = (await h.got()).slice(n).map((m) => m.data).filter((d) => d?.type === 'tidemark:error');
  assert.deepEqual(replies.map((d) => d.request), ['', 'tidemark:go-to-step', 'tidemark:eval', 'tidemark:set-mode', 'tidemark:load-preset']);
  assert.equal(replies[0].message, 'the message is 13631488 characters long; that is too long');
  assert.equal(replies[1].message, `v must be 1 (the protocol's version), not "1"`);
  assert.equal(replies[2].message, 'there is no request "tidemark:eval"');
  assert.equal(replies[3].message, `mode must be embed, lecture or normal, not "${markup.slice(0, 40)}"`);
  assert.ok(replies[4].message.startsWith('There is no preset "<script>window.__pwned=1</script>" (presets: lab-'), replies[4].message);
  // Nothing ran, nothing was polluted, nobody else was answered, and the step came only from the parent.
  for (const f of [h.page.mainFrame(), h.frame]) {
    assert.equal(await f.evaluate(() => window.__pwned), undefined);
    assert.equal(await f.evaluate(() => ({}).polluted), undefined);
  }
  assert.equal(await h.page.evaluate(() => window.__others), 0);
  assert.equal(await h.app.locator('[data-testid="panic-banner"]').count(), 0);
  // The page keeps working: a drag with the real mouse moves an element.
  const el = element(h, '2');
  const before = await el.getAttribute('data-ts');
  await dragX(h, el, 50);
  await until(h.page, 'the drag moved element 2', async () => (await el.getAttribute('data-ts')) !== before);
  assert.deepEqual(h.pageErrors, []);
});

test('the wrong origin named in the link: the parent is not heard and nothing reaches it', async (t) => {
  const h = await openHost('#preset=lab-6-2&mode=embed&step=3&origin=https%3A%2F%2Flab.example.edu');
  t.after(() => h.close());
  await h.send({ type: 'tidemark:go-to-step', v: 1, step: 1 });
  await h.send({ type: 'tidemark:get-scenario', v: 1 });
  // The app's own clock goes on: a click steps it, and still nothing reaches the host.
  await h.app.locator('[data-testid="step-forward"]').click();
  await until(h.page, 'step 4', async () => (await step(h)) === '4');
  assert.deepEqual(await h.got(), []);
  assert.equal(await h.page.evaluate(() => window.__others), 0);
  assert.deepEqual(h.pageErrors, []);
});

test('the example lab page sizes its embeds from their messages and shows the quiz score', async (t) => {
  const { page, pageErrors, close } = await openApp({ path: 'lab-example.html', viewport: VIEWPORTS.projector, waitFor: 'iframe' });
  t.after(close);
  const frames = page.locator('iframe');
  assert.ok((await frames.count()) >= 3);
  // Every embed is sized to what it announced: nothing inside scrolls any more.
  for (let i = 0; i < 3; i += 1) {
    await until(page, `iframe ${i} sized`, async () => /^\d+px$/.test(await frames.nth(i).evaluate((f) => f.style.height)));
    const inner = page.frameLocator('iframe').nth(i);
    await inner.locator('[data-testid="timeline"]').waitFor();
    const hidden = async () =>
      inner.locator('body').evaluate(() =>
        ['.canvas-box', '.narration'].map((s) => document.querySelector(s)).map((e) => e.scrollHeight - e.clientHeight),
      );
    await until(page, `embed ${i} shows everything`, async () => (await hidden()).every((d) => d <= 1), (v) => v === true);
  }
  // The quiz embed (Lab 6.1): answer the question; the page shows the score next to it.
  const quiz = page.frameLocator('iframe').first();
  await quiz.locator('[data-testid="step-forward"]').click();
  await quiz.locator('[data-testid="quiz-panel"]').waitFor();
  await quiz.locator('[data-testid="quiz-option"]').first().click();
  await quiz.locator('[data-testid="quiz-submit"]').click();
  const verdict = await quiz.locator('[data-testid="quiz-verdict"]').getAttribute('data-correct');
  const score = page.locator('[data-quiz-score]').first();
  await until(page, 'the score on the lab page', async () => (await score.getAttribute('data-answered')) === '1');
  assert.equal(await score.getAttribute('data-correct'), verdict === 'true' ? '1' : '0');
  assert.match(await score.textContent(), /^Quiz: [01] of 1 right/);
  assert.deepEqual(pageErrors, []);
});
