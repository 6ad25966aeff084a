// Issue 15: a 10,000-element stream, loaded through the file input ("Import…"), is drawn by the
// Canvas 2D backend (TIMELINE_CONTRACT.md §1–2): the scene hook says so, only the overlay's objects
// are DOM nodes, the output lists are virtualised with their totals in data-rows. Dragging an
// element with the real mouse moves it into another window, and the page's run after the drag is
// the command line's run of the dragged scenario, line for line (FNV-1a of `tidemark run FILE`'s
// output against the page's data-run-digest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { join } from 'node:path';
import { openApp, runSettled, until, untilPaused } from './harness.mjs';
import { stream } from './stream.mjs';
import { tidemarkCli } from './fixtures.mjs';

/** `tidemark run FILE`'s stdout for the scenario. */
function cliRun(scenario) {
  const dir = mkdtempSync(join(tmpdir(), 'tidemark-scale-'));
  try {
    const file = join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    return tidemarkCli(['run', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The page's `data-run-digest` of the command line's output lines: FNV-1a (64 bit, decimal) of one
 * line per output, `F|key|start|end|ids|sum|count|n|wm` or `L|id|key|ts` (or `O`). Numbers are
 * read as text: `wm` can be Long.MAX, beyond a double.
 */
function fnv(out) {
  const field = (l, name) => {
    const m = l.match(new RegExp(`"${name}":(null|-?\\d+|"(?:[^"\\\\]|\\\\.)*"|\\[[^\\]]*\\])`));
    const v = m ? m[1] : '';
    if (v === 'null') return '';
    if (v.startsWith('"')) return JSON.parse(v);
    if (v.startsWith('[')) return v.slice(1, -1);
    return v;
  };
  const text = out
    .split('\n')
    .filter((l) => l)
    .map((l) => {
      if (l.startsWith('{"out":"fire"')) {
        return `F|${['key', 'start', 'end', 'ids', 'sum', 'count', 'n', 'wm'].map((f) => field(l, f)).join('|')}\n`;
      }
      if (l.startsWith('{"out":"late"')) return `L|${field(l, 'id')}|${field(l, 'key')}|${field(l, 'ts')}\n`;
      return 'O\n';
    })
    .join('');
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text, 'utf8')) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString();
}

const fires = (out) => out.split('\n').filter((l) => l.startsWith('{"out":"fire"')).map((l) => JSON.parse(l));

export async function loadStream(page, scenario) {
  const before = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  await page.locator('[data-testid="import-file"]').setInputFiles({
    name: `${scenario.name}.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  await runSettled(page, before, 30000);
  const scene = page.locator('[data-testid="scene"]');
  await until(page, 'the scene of the loaded stream', () => scene.getAttribute('data-elements'), (v) => v === String(scenario.input.length), 30000);
  return scene;
}

/**
 * A tumbling stream of `n` elements loaded into a projector-sized page drawn by `backend`; `loaded`
 * checks the page as loaded; then the playhead goes to the end.
 */
async function streamAtTheEnd(t, n, backend, loaded) {
  const sc = stream(n, 'tumbling');
  const app = await openApp({ viewport: { width: 1920, height: 1080 } });
  t.after(() => app.close());
  const { page } = app;
  const scene = await loadStream(page, sc);
  assert.equal(await scene.getAttribute('data-backend'), backend);
  await loaded(scene, page);
  await page.keyboard.press('End');
  await until(page, 'the playhead at the end', () => page.locator('[data-testid="playhead"]').evaluate((e) => e.dataset.step === e.dataset.steps));
  return { sc, app, page, scene };
}

test('10,000 elements: canvas backend, overlay, virtual lists; a drag equals the command line', async (t) => {
  const { sc, app, page } = await streamAtTheEnd(t, 10000, 'canvas', async (scene) => {
    assert.ok(Number(await scene.getAttribute('data-windows')) > 0);
  });
  // Only the overlay's objects are DOM nodes: the Tab entry (and the selection), not 10,000.
  const nodes = await page.locator('[data-testid="element"]').count();
  assert.ok(nodes >= 1 && nodes <= 3, `${nodes} element nodes`);
  // The bulk drawing has pixels (the lanes' marbles are not white), once painted (in the frame
  // after the render: `data-painted` names the build the bitmap shows).
  await until(page, 'the bulk drawing painted', () =>
    page.locator('[data-testid="bulk-canvas"]').evaluate((c) => c.dataset.painted === c.dataset.generation));
  const inked = await page.locator('[data-testid="bulk-canvas"]').evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 120 && d[i + 1] > 100 && d[i + 2] < 120) n++;
    return n;
  });
  assert.ok(inked > 500, `${inked} green (on-time) pixels`);

  const before = cliRun(sc);
  const digest = () => page.locator('[data-testid="outputs"]').getAttribute('data-run-digest');
  assert.equal(await digest(), fnv(before), 'the page ran what the command line runs');
  const rows = page.locator('[data-testid="output-rows"]');
  assert.equal(Number(await rows.getAttribute('data-rows')), fires(before).length);
  assert.ok((await page.locator('[data-testid="output-row"]').count()) < 200, 'the output list is virtualised');

  // Drag the Tab entry (the earliest element) to the right with the real mouse.
  const entry = page.locator('[data-testid="element"][tabindex="0"]');
  const id = Number(await entry.getAttribute('data-id'));
  const key = await entry.getAttribute('data-key');
  const ts0 = Number(await entry.getAttribute('data-ts'));
  const box = await entry.boundingBox();
  const revision = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  // The messages to the engine's worker, by size: the worker keeps the scenario, so the moves go as
  // patches of it (src/ui/runner.rs), and the scenario itself at most once (the press's prime).
  await page.evaluate(() => {
    window.__posts = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, transfer) {
      window.__posts.push(message && message.byteLength !== undefined ? message.byteLength : -1);
      return post.call(this, message, transfer);
    };
  });
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(x + i * 4, y);
  await page.mouse.up();
  await runSettled(page, revision, 30000);
  const posts = await page.evaluate(() => window.__posts);
  const patches = posts.filter((n) => n > 0 && n <= 2000);
  assert.ok(patches.length >= 2, `the moves and the drop went as patches: ${JSON.stringify(posts)}`);
  assert.ok(posts.length - patches.length <= 1, `the whole scenario went at most once: ${JSON.stringify(posts)}`);
  const moved = page.locator(`[data-testid="element"][data-id="${id}"]`);
  const ts1 = Number(await moved.getAttribute('data-ts'));
  assert.ok(ts1 > ts0, `element ${id} moved from ${ts0} to ${ts1}`);

  const dragged = structuredClone(sc);
  dragged.input.find((e) => e.id === id).ts = ts1;
  const after = cliRun(dragged);
  assert.equal(await digest(), fnv(after), "the page's outputs after the drag are the command line's");
  assert.equal(Number(await rows.getAttribute('data-rows')), fires(after).length);
  // The element's window output moved: its old window's firing no longer holds it, a window
  // that holds its new timestamp does.
  const holds = (out, ts) => fires(out).filter((f) => f.key === key && f.start <= ts && ts < f.end);
  assert.notEqual(Math.floor(ts0 / 30000), Math.floor(ts1 / 30000), 'dragged into another 30 s window');
  assert.ok(holds(before, ts0).some((f) => f.ids.includes(id)));
  assert.ok(!holds(after, ts0).some((f) => f.ids.includes(id)), `the window of ${ts0} fires without element ${id}`);
  assert.ok(holds(after, ts1).some((f) => f.ids.includes(id)), `a window of ${ts1} fires with element ${id}`);
  assert.notEqual(fnv(before), fnv(after));

  // Undo brings the element and the outputs back, redo the drag again: the history keeps the step
  // as a patch of the stream (state::undo::Kept), not a copy of it.
  const status = page.locator('[data-testid="run-status"]');
  let rev = Number(await status.getAttribute('data-revision'));
  assert.match(await page.locator('[data-testid="undo"]').getAttribute('title'), /^Undo move element/);
  await page.locator('[data-testid="undo"]').click();
  rev = await runSettled(page, rev, 30000);
  assert.equal(Number(await moved.getAttribute('data-ts')), ts0, 'undo puts the element back');
  assert.equal(await digest(), fnv(before), "after undo the outputs are the stream's before the drag");
  await page.locator('[data-testid="redo"]').click();
  await runSettled(page, rev, 30000);
  assert.equal(Number(await moved.getAttribute('data-ts')), ts1, 'redo moves it again');
  assert.equal(await digest(), fnv(after), 'after redo the outputs are the dragged stream\'s');

  // A stream this large stays out of the address bar (its step does not): the autosave keeps it.
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /^#local=1&step=(\d+|end)$/);
  // Copy link still gives the whole stream, and says the link is too long to share.
  await page.locator('[data-testid="copy-link"]').click();
  const note = page.locator('[data-testid="share-too-long"]');
  await note.waitFor();
  assert.match(await note.textContent(), /This link is [\d,]+ characters long.*Export: JSON/);
  assert.ok((await page.locator('[data-testid="share-text"]').inputValue()).includes('#z='));
  // A reload opens the dragged stream from the autosave, at the same step.
  const step = await page.locator('[data-testid="playhead"]').getAttribute('data-step');
  await page.reload();
  await until(page, 'the stream restored', () => page.locator('[data-testid="scene"]').getAttribute('data-elements'), (v) => v === String(sc.input.length), 30000);
  await until(page, 'its run', () => page.locator('[data-testid="run-status"]').getAttribute('data-state'), (v) => v === 'done', 30000);
  assert.equal(await page.locator('[data-testid="playhead"]').getAttribute('data-step'), step);
  assert.equal(await digest(), fnv(after), 'the reload shows the dragged stream');
  assert.deepEqual(app.pageErrors, []);
});

// A stream whose JSON passes 1 MB has its link text made in slices, a task each, after a commit
// (fragment::ZJob): the autosave is written when it is made, and a page left before that (a reload
// right after a drop) writes it on the way out (pagehide). Nothing is lost either way.
test('30,000 elements: the autosave made in slices after a drop holds the drop, and a reload right after a drop keeps it', { timeout: 120000 }, async (t) => {
  const sc = stream(30000, 'tumbling');
  assert.ok(JSON.stringify(sc).length > 1024 * 1024, 'the JSON passes 1 MB: its link text is made in slices');
  const app = await openApp({ viewport: { width: 1920, height: 1080 } });
  t.after(() => app.close());
  const { page } = app;
  await loadStream(page, sc);
  const saved = async () => {
    const text = await page.evaluate(() => localStorage.getItem('tidemark.autosave.v1'));
    const z = text && text.split('&').find((p) => p.startsWith('z='));
    return z ? JSON.parse(inflateRawSync(Buffer.from(z.slice(2), 'base64url')).toString('utf8')) : null;
  };
  const entry = page.locator('[data-testid="element"][tabindex="0"]');
  const id = Number(await entry.getAttribute('data-id'));
  const ts0 = Number(await entry.getAttribute('data-ts'));
  const drag = async (dx) => {
    const box = await entry.boundingBox();
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(x + (i * dx) / 8, y);
  };
  // A drop: the autosave comes to hold the dropped timestamp, and the whole stream.
  const revision = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  await drag(60);
  await page.mouse.up();
  await runSettled(page, revision, 30000);
  const moved = page.locator(`[data-testid="element"][data-id="${id}"]`);
  const ts1 = Number(await moved.getAttribute('data-ts'));
  assert.ok(ts1 > ts0, `element ${id} moved from ${ts0} to ${ts1}`);
  await until(page, 'the autosave of the drop', async () => (await saved())?.input.find((e) => e.id === id)?.ts, (ts) => ts === ts1, 30000);
  const kept = await saved();
  assert.equal(kept.input.length, sc.input.length, 'the autosave holds the whole stream');
  assert.match(await page.evaluate(() => location.hash), /^#local=1&step=(\d+|end)$/);
  // A second drop, and the page reloaded at once: the reload opens the second drop.
  await drag(60);
  await page.mouse.up();
  await page.reload();
  await until(page, 'the stream restored', () => page.locator('[data-testid="scene"]').getAttribute('data-elements'), (v) => v === String(sc.input.length), 30000);
  const restored = await saved();
  const ts2 = restored.input.find((e) => e.id === id).ts;
  assert.ok(ts2 > ts1, `the second drop is kept: element ${id} at ${ts2}, after ${ts1}`);
  await until(page, 'its run', () => page.locator('[data-testid="run-status"]').getAttribute('data-state'), (v) => v === 'done', 30000);
  await page.keyboard.press('End');
  await until(page, 'the playhead at the end', () => page.locator('[data-testid="playhead"]').evaluate((e) => e.dataset.step === e.dataset.steps));
  const dragged = structuredClone(sc);
  dragged.input.find((e) => e.id === id).ts = ts2;
  assert.equal(await page.locator('[data-testid="outputs"]').getAttribute('data-run-digest'), fnv(cliRun(dragged)), 'the page shows the second drop');
  assert.deepEqual(app.pageErrors, []);
});

// A link that carries a stream too long for the address bar (more than 64 KB of link) is kept there
// as opened until the first commit: the autosave does not hold that stream before it, so the short
// form (`local=1`) would open something else on a reload. Its link text, made in slices at the
// start, writes nothing when it is made; a step writes nothing either; the first commit writes the
// autosave and then the short form.
test('a link with a stream too long for the address bar stays as opened until the first commit, then the autosave keeps it', { timeout: 120000 }, async (t) => {
  const sc = stream(30000, 'tumbling');
  const z = deflateRawSync(Buffer.from(JSON.stringify(sc))).toString('base64url');
  assert.ok(z.length > 64 * 1024, `a link of ${z.length} characters`);
  const app = await openApp({ viewport: { width: 1920, height: 1080 }, path: `#z=${z}&step=5`, timeout: 30000 });
  t.after(() => app.close());
  const { page } = app;
  await until(page, 'the linked stream', () => page.locator('[data-testid="scene"]').getAttribute('data-elements'), (v) => v === String(sc.input.length), 30000);
  await until(page, 'its run', () => page.locator('[data-testid="run-status"]').getAttribute('data-state'), (v) => v === 'done', 30000);
  const hash = () => page.evaluate(() => location.hash);
  const opened = await hash();
  assert.ok(opened.startsWith('#z=') && opened.length > 64 * 1024, 'the link as opened');
  // The link text made in the background (in slices: the app says when), and a step (the address
  // bar is written in the render's effects, before the step shows): the address bar keeps the link.
  const linkText = () => page.locator('[data-testid="app"]').getAttribute('data-link-text');
  await until(page, 'the link text made', linkText, (v) => v === 'made', 30000);
  assert.equal(await hash(), opened, 'the link text made at the start writes nothing');
  await page.locator('[data-testid="step-forward"]').click();
  await until(page, 'the step', () => page.locator('[data-testid="playhead"]').getAttribute('data-step'), (v) => v === '6');
  assert.equal(await linkText(), 'made');
  assert.equal(await hash(), opened, 'a step keeps the link');
  assert.equal(await page.evaluate(() => localStorage.getItem('tidemark.autosave.v1')), null, 'nothing autosaved before a commit');
  // The first commit (an element nudged with the keyboard): the autosave holds it, then the short form.
  await page.keyboard.press(']'); // onto the canvas: its first element
  const id = Number(await page.evaluate(() => document.activeElement.dataset.id));
  await page.keyboard.press('ArrowRight');
  await until(page, 'the short form', hash, (h) => /^#local=1&step=\d+$/.test(h), 30000);
  const saved = await page.evaluate(() => localStorage.getItem('tidemark.autosave.v1'));
  const kept = JSON.parse(inflateRawSync(Buffer.from(saved.split('&').find((p) => p.startsWith('z=')).slice(2), 'base64url')).toString('utf8'));
  assert.equal(kept.input.length, sc.input.length);
  assert.ok(kept.input.find((e) => e.id === id).ts > sc.input.find((e) => e.id === id).ts, 'the nudge is kept');
  assert.deepEqual(app.pageErrors, []);
});

test('10,000 elements: arrow keys queued faster than the steps are drawn move the playhead, and the scene is built once for them', async (t) => {
  const { app, page } = await streamAtTheEnd(t, 10000, 'canvas', async () => {});
  const playhead = page.locator('[data-testid="playhead"]');
  const canvas = page.locator('[data-testid="bulk-canvas"]');
  await until(page, 'the bulk drawing painted', () => canvas.evaluate((c) => c.dataset.painted === c.dataset.generation));
  const end = Number(await playhead.getAttribute('data-step'));
  const built = Number(await canvas.getAttribute('data-generation'));
  // Ten ArrowLefts in one task, as a held key's repeats queue while a step is drawn
  // (state/step_later.rs): each moves the playhead, the fold and scene wait for the show after them.
  await page.evaluate(() => {
    for (let i = 0; i < 10; i++) {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true }));
    }
  });
  await until(page, 'the playhead ten steps back', () => playhead.getAttribute('data-step'), (v) => Number(v) === end - 10);
  await until(page, 'the bulk drawing painted', () => canvas.evaluate((c) => c.dataset.painted === c.dataset.generation));
  assert.equal(Number(await canvas.getAttribute('data-generation')), built + 1, 'one scene built for the ten moves');
  // A key pressed alone is one move and one build, as ever.
  await page.keyboard.press('ArrowRight');
  await until(page, 'one step forward', () => playhead.getAttribute('data-step'), (v) => Number(v) === end - 9);
  await until(page, 'its scene', () => canvas.getAttribute('data-generation'), (v) => Number(v) === built + 2);
  assert.deepEqual(app.pageErrors, []);
});

test('after a large run the press primes the fresh worker: the scenario goes once, before the moves, which go as patches', async (t) => {
  // 30,000 elements: the load's answer (≈ 13 MB) is over RECYCLE_ANSWER_BYTES, so the worker is
  // replaced after it and holds nothing when the drag starts.
  const { sc, page } = await streamAtTheEnd(t, 30000, 'canvas', async () => {});
  await page.evaluate(() => {
    window.__posts = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, transfer) {
      if (message && message.byteLength !== undefined) {
        window.__posts.push({ bytes: message.byteLength, kind: new Uint8Array(message)[9] });
      }
      return post.call(this, message, transfer);
    };
  });
  const entry = page.locator('[data-testid="element"][tabindex="0"]');
  const id = Number(await entry.getAttribute('data-id'));
  const box = await entry.boundingBox();
  const revision = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  // The prime goes in a task of its own right after the press.
  await until(page, 'the prime after the press', () => page.evaluate(() => window.__posts.length), (n) => n >= 1);
  for (let i = 1; i <= 8; i++) await page.mouse.move(x + i * 5, y);
  await page.mouse.up();
  await runSettled(page, revision, 60000);
  const posts = await page.evaluate(() => window.__posts);
  assert.equal(posts[0].kind, 2, `the first message is the prime: ${JSON.stringify(posts)}`);
  assert.ok(posts[0].bytes > 500000, `the prime carries the whole scenario: ${posts[0].bytes} bytes`);
  const rest = posts.slice(1);
  assert.ok(rest.length >= 2, `the moves and the drop: ${JSON.stringify(posts)}`);
  assert.ok(rest.every((p) => p.kind === 1 && p.bytes <= 2000), `every move and the drop a patch: ${JSON.stringify(posts)}`);
  // And the patches ran on the primed scenario: the page's outputs are the command line's.
  const ts1 = Number(await page.locator(`[data-testid="element"][data-id="${id}"]`).getAttribute('data-ts'));
  const dragged = structuredClone(sc);
  dragged.input.find((e) => e.id === id).ts = ts1;
  const digest = await page.locator('[data-testid="outputs"]').getAttribute('data-run-digest');
  assert.equal(digest, fnv(cliRun(dragged)), "the page's outputs after the drag are the command line's");
});

test('1,000 elements on SVG: the dragged marble follows the pointer while its runs are out, and the run shows once the pointer rests', { timeout: 120000 }, async (t) => {
  const { sc, app, page } = await streamAtTheEnd(t, 1000, 'svg', async (_, page) => {
    const runner = await page.locator('[data-testid="run-status"]').getAttribute('data-runner');
    assert.equal(runner, 'main-thread', 'a load of 1,000 elements runs at once');
  });
  const status = page.locator('[data-testid="run-status"]');
  // The engine worker counts the requests it took and the answers it posted, so that the test
  // knows when every answer of the drag is back in the page (no waiting on time).
  const [worker] = page.workers();
  assert.ok(worker, 'the engine worker is running');
  await worker.evaluate(() => {
    self.__took = 0;
    self.__posted = 0;
    self.addEventListener('message', () => { self.__took++; });
    const post = self.postMessage.bind(self);
    self.postMessage = (...a) => { self.__posted++; return post(...a); };
  });
  // The page's clock stands still: the 100 ms rest before a move's answer is installed does not
  // pass until the test says so. Frames (the canvas hands pointer moves over once a frame) run
  // when the test moves the clock on by one.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 60000);

  const entry = page.locator('[data-testid="element"][tabindex="0"]');
  const id = Number(await entry.getAttribute('data-id'));
  const key = await entry.getAttribute('data-key');
  const ts0 = Number(await entry.getAttribute('data-ts'));
  const box = await entry.boundingBox();
  const revision = Number(await status.getAttribute('data-revision'));
  const digest = () => page.locator('[data-testid="outputs"]').getAttribute('data-run-digest');
  assert.equal(await digest(), fnv(cliRun(sc)));
  // The ids of the element's window's firing (tumbling 30 s) in the output list. Read with
  // evaluate: locators wait on frames, and the page's clock is about to stand still.
  const start0 = Math.floor(ts0 / 30000) * 30000;
  const firedWith = () => page.evaluate(([k, s]) => {
    const row = document.querySelector(`[data-testid="output-row"][data-key="${k}"][data-start="${s}"]`);
    return row ? row.dataset.ids.split(',').map(Number) : [];
  }, [key, start0]);
  assert.ok((await firedWith()).includes(id), `the window at ${start0} fires with element ${id}`);
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.clock.runFor(17);
  for (let i = 1; i <= 10; i++) {
    await page.mouse.move(x + i * 8, y);
    await page.clock.runFor(17);
  }
  const marbleTs = () => page.evaluate((i) => Number(document.querySelector(`[data-testid="element"][data-id="${i}"]`)?.dataset.ts), id);
  const statusOf = () => page.evaluate(() => ({ ...document.querySelector('[data-testid="run-status"]').dataset }));
  const ts1 = await untilPaused(page, 'the marble following the pointer', marbleTs, (v) => v > ts0);
  await untilPaused(page, 'every answer of the drag back in the page', () => worker.evaluate(() => [self.__took, self.__posted]), ([took, posted]) => took > 0 && took === posted);
  const during = await statusOf();
  assert.equal(during.runner, 'worker', 'the moves ran in the worker');
  assert.equal(during.state, 'running', 'the answer waits for the pointer to rest');
  assert.notEqual(Math.floor(ts1 / 30000), Math.floor(ts0 / 30000), `dragged from ${ts0} into another window (${ts1})`);
  assert.ok((await firedWith()).includes(id), 'the outputs on show are still those of the run before the drag');
  assert.equal(await page.evaluate(() => document.querySelectorAll('[data-testid="run-progress"]').length), 0, 'no progress toast during a drag');
  // Where the marble is drawn: from the press to the drop a copy with the element's test id follows
  // the pointer in an <svg> of its own on top, so that a move repaints only that, and the marble in
  // the scene's <svg> stays where the run on show placed it (test id element-origin), its node
  // and its focus untouched. After the drop it is the scene's alone again.
  const whereDrawn = () => page.evaluate((i) => {
    const m = document.querySelectorAll(`[data-testid="element"][data-id="${i}"]`);
    const o = document.querySelectorAll(`[data-testid="element-origin"][data-id="${i}"]`);
    return {
      count: m.length, lifted: !!m[0]?.closest('svg.lifted'), inCanvas: !!m[0]?.closest('[data-testid="canvas"]'),
      origins: o.length, originTs: o[0] ? Number(o[0].dataset.ts) : null, originInCanvas: !!o[0]?.closest('[data-testid="canvas"]'),
      copyFocusable: m[0]?.hasAttribute('tabindex') ?? null,
    };
  }, id);
  assert.deepEqual(await whereDrawn(), { count: 1, lifted: true, inCanvas: false, origins: 1, originTs: ts0, originInCanvas: true, copyFocusable: false },
    'lifted while its run is out, its origin where it was');
  // The dragged element keeps the keyboard focus: its marble in the scene has it all along.
  const focused = () => page.evaluate(() => `${document.activeElement?.getAttribute('data-testid')}:${document.activeElement?.getAttribute('data-id')}`);
  assert.equal(await focused(), `element-origin:${id}`, 'the dragged marble has the focus');

  // The pointer rests (still pressed): the last move's run is installed.
  await page.clock.runFor(150);
  const rested = await untilPaused(page, 'the run of the last move on show', statusOf, (v) => v.state === 'done');
  assert.ok(Number(rested.revision) > revision);
  assert.equal(await marbleTs(), ts1);
  assert.deepEqual(await whereDrawn(), { count: 1, lifted: true, inCanvas: false, origins: 1, originTs: ts1, originInCanvas: true, copyFocusable: false },
    'the run placed it: the origin is where the copy is');
  assert.equal(await focused(), `element-origin:${id}`, 'and the focus stays');
  assert.ok(!(await firedWith()).includes(id), `the window at ${start0} fires without element ${id} now`);

  // The drop is not a move: its run is installed without a rest. It runs where the moves ran,
  // in the worker: the release's own task only places the copy at the dropped (snapped) time,
  // and the scene's <svg>s are left as they are until the answer is installed (in stages, each a
  // task of its own: timers, which the paused clock holds back).
  const tookBefore = await worker.evaluate(() => self.__took);
  await page.mouse.up();
  await untilPaused(page, 'the answer of the drop posted', () => worker.evaluate(() => [self.__took, self.__posted]), ([took, posted]) => took > tookBefore && took === posted);
  const released = await statusOf();
  assert.equal(released.state, 'running', 'the drop\'s answer is installed in stages');
  const placed = await marbleTs();
  assert.ok(placed % 1000 === 0 && Math.abs(placed - ts1) <= 5000, `the copy at the dropped time ${placed}, snapped from ${ts1}`);
  assert.deepEqual(await whereDrawn(), { count: 1, lifted: true, inCanvas: false, origins: 1, originTs: ts1, originInCanvas: true, copyFocusable: false },
    'the copy placed, the scene as the rest left it');
  // (The clock moves on between reads: the answer's message may come after the first.)
  const installed = await until(page, 'the run of the drop', statusOf, (v) => v.state === 'done' && v.revision !== rested.revision,
    8000, (p) => p.clock.runFor(17));
  assert.equal(installed.runner, 'worker', 'the drop ran where its moves did');
  await page.clock.resume();
  const dropped = await marbleTs();
  assert.equal(dropped, placed, 'the run placed it where the drop did');
  assert.deepEqual(await whereDrawn(), { count: 1, lifted: false, inCanvas: true, origins: 0, originTs: null, originInCanvas: false, copyFocusable: true },
    'back in the scene alone after the drop');
  assert.equal(await page.evaluate(() => document.querySelectorAll('svg.lifted').length), 0);
  assert.equal(await focused(), `element:${id}`, 'with the focus');
  const final = structuredClone(sc);
  final.input.find((e) => e.id === id).ts = dropped;
  assert.equal(await digest(), fnv(cliRun(final)), "the page's outputs after the drop are the command line's");
  assert.deepEqual(app.pageErrors, []);
});

test('2,000 elements on SVG: an id is drawn on a marble only where it has room, and a press beside a marble still grabs it', { timeout: 120000 }, async (t) => {
  const { page } = await streamAtTheEnd(t, 2000, 'svg', async () => {});
  // Every id drawn, by lane: the text's box as Chromium laid it out (the rule's width per
  // character is an estimate of the font's; this checks it against the real one).
  const seen = await page.evaluate(() => {
    const marbles = [...document.querySelectorAll('[data-testid="element"]')];
    const ids = marbles.flatMap((m) => [...m.querySelectorAll('.marble-text')].map((e) => {
      const r = e.getBoundingClientRect();
      return { key: m.dataset.key, id: e.textContent, left: r.left, right: r.right, cy: (r.top + r.bottom) / 2 };
    }));
    const named = marbles.every((m) => m.querySelector('title')?.textContent.startsWith(`Element ${m.dataset.id},`));
    // Screen pixels per unit of the scene (it is drawn to the page's width).
    const svg = document.querySelector('[data-testid="canvas"] > svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return { marbles: marbles.length, ids, named, scale };
  });
  assert.equal(seen.marbles, 2000);
  assert.equal(await page.locator('[data-testid="legend-density"]').count(), 0, 'no density bars on SVG, nor their legend');
  assert.ok(seen.named, 'every marble keeps its name');
  assert.ok(seen.ids.length > 200 && seen.ids.length < 1600, `${seen.ids.length} ids drawn of 2,000: crowded ones left out, the others kept`);
  // On one line: 10 units of the scene apart or less (the stacking rows are 11 apart, the text
  // 10 high; its box is taller, by the font's ascent and descent).
  const line = 10 * seen.scale;
  for (const a of seen.ids) {
    const touching = seen.ids.find((b) => b !== a && b.key === a.key && Math.abs(b.cy - a.cy) < line && b.left < a.right && a.left < b.right);
    assert.ok(!touching, `id ${a.id} (${a.left.toFixed(1)}-${a.right.toFixed(1)}) overlaps id ${touching?.id} (${touching?.left.toFixed(1)}-${touching?.right.toFixed(1)}) in key ${a.key}`);
  }
  // A marble pressed 12 units right of its centre (outside its body, 9 units and its stroke,
  // inside the 14 the scene's hit test gives it), where no other marble is within 16 units, is
  // dragged by a real mouse.
  const beside = 12 * seen.scale;
  const lone = await page.evaluate(([beside, apart]) => {
    const at = [...document.querySelectorAll('[data-testid="element"]')].map((m) => {
      const r = m.querySelector('.body').getBoundingClientRect();
      return { id: m.dataset.id, ts: Number(m.dataset.ts), x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
    });
    return at.find((a) => a.y < 900 && a.x < 1200 && at.every((b) => b === a || Math.hypot(b.x - a.x - beside, b.y - a.y) >= apart));
  }, [beside, 16 * seen.scale]);
  assert.ok(lone, 'a marble on its own');
  assert.equal(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid="element"]') ?? null, [lone.x + beside, lone.y]), null, 'the press is beside the marble\'s drawing');
  // The cursor says a press there drags (no hit ring above 500 elements: the scene's `data-hover`),
  // and over the lane left of every element it says a pan.
  // The cursor of what is under the pointer (the scene's drawing is in several <svg>s).
  const cursor = (x, y) => () => page.evaluate(([x, y]) => getComputedStyle(document.elementFromPoint(x, y)).cursor, [x, y]);
  await page.mouse.move(10, lone.y);
  await until(page, 'the pan cursor left of the elements', cursor(10, lone.y), (c) => c === 'grab', 5000);
  await page.mouse.move(lone.x + beside, lone.y);
  await until(page, 'the drag cursor beside the marble', cursor(lone.x + beside, lone.y), (c) => c === 'ew-resize', 5000);
  const before = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  await page.mouse.down();
  for (let dx = 10; dx <= 60; dx += 10) await page.mouse.move(lone.x + beside + dx, lone.y);
  await page.mouse.up();
  await runSettled(page, before, 30000);
  const moved = page.locator(`[data-testid="element"][data-id="${lone.id}"]`);
  await until(page, 'the element pressed beside its body moved later', async () => Number(await moved.getAttribute('data-ts')), (ts) => ts > lone.ts, 30000);
  // The mouse stays still and the view zooms in by the keys: the cursor follows what is now under
  // it (it was read only as the mouse moved, and stayed what it had been before the press).
  const at = [lone.x + beside + 60, lone.y];
  const zoomedFrom = await moved.evaluate((m) => m.querySelector('.body').getBoundingClientRect().left);
  for (let k = 0; k < 4; k++) await page.keyboard.press('+');
  await until(page, 'the view zoomed in', () => moved.evaluate((m) => m.querySelector('.body').getBoundingClientRect().left), (x) => Math.abs(x - zoomedFrom) > 100, 10000);
  // What a press there would grab: a marble whose body's centre is within its hit circle (14 units).
  const expected = () => page.evaluate(([x, y, r]) => {
    const near = [...document.querySelectorAll('[data-testid="element"] .body, [data-testid="element-origin"] .body')].some((b) => {
      const q = b.getBoundingClientRect();
      return Math.hypot((q.left + q.right) / 2 - x, (q.top + q.bottom) / 2 - y) <= r;
    });
    return near ? 'ew-resize' : 'grab';
  }, [...at, 14 * seen.scale]);
  const want = await expected();
  await until(page, `the cursor after the zoom (${want})`, cursor(...at), (c) => c === want, 5000);
  assert.equal(want, 'grab', 'the zoom took the marbles away from under the mouse (else this shows nothing)');
});

// The output lists hold only the rows near their visible part: every row in the DOM is laid out,
// painted and rendered again when a run changes it (a rest mid-drag that moved the watermark
// changed 80 window results and 190 late elements at 2,000 elements, most of its frame).
test('2,000 elements: both output lists are virtual, and scrolled anywhere they show the command line\'s rows in view', { timeout: 120000 }, async (t) => {
  const { sc, page } = await streamAtTheEnd(t, 2000, 'svg', async () => {});
  const out = cliRun(sc);
  const lates = out.split('\n').filter((l) => l.startsWith('{"out":"late"')).map((l) => JSON.parse(l));
  const lists = [
    { testid: 'output-rows', row: 'output-row', want: fires(out).map((f) => `${f.key}|${f.start}|${f.end}|${f.ids.join(',')}`), fires: fires(out),
      got: (d) => `${d.key}|${d.start}|${d.end}|${d.ids}` },
    { testid: 'side-output-rows', row: 'side-output-row', want: lates.map((l) => `${l.id}|${l.key}|${l.ts}`), got: (d) => `${d.id}|${d.key}|${d.ts}` },
  ];
  for (const list of lists) {
    assert.ok(list.want.length > 100, `${list.testid}: ${list.want.length} rows, enough to be virtual`);
    const box = page.locator(`[data-testid="${list.testid}"]`);
    assert.equal(Number(await box.getAttribute('data-rows')), list.want.length);
    const rowPx = 24;
    const ends = [0, 37, Math.floor(list.want.length / 2) * rowPx + 5, list.want.length * rowPx];
    for (const to of ends) {
      // Scrolled; the rows follow on the scroll event's render: read once they cover the view.
      const seen = await until(page, `${list.testid} scrolled to ${to}`, () => box.evaluate((el, [to, row]) => {
        el.scrollTop = to;
        const top = el.scrollTop;
        const rows = [...el.querySelectorAll(`[data-testid="${row}"]`)];
        const base = el.querySelector('ol').getBoundingClientRect().top;
        // A part of a row is shown when its box is inside the row's (a virtual row is one line,
        // clipped): a window result's value and watermark.
        const inside = (r, sel) => {
          const part = r.querySelector(sel);
          if (!part) return null;
          const [a, b] = [r.getBoundingClientRect(), part.getBoundingClientRect()];
          return b.width > 0 && b.left >= a.left && b.right <= a.right + 0.5 && b.top >= a.top && b.bottom <= a.bottom + 0.5
            ? part.textContent : `clipped: ${part.textContent}`;
        };
        return {
          top, height: el.clientHeight,
          rows: rows.map((r) => ({
            at: Math.round((r.getBoundingClientRect().top - base) / 24), data: { ...r.dataset },
            result: inside(r, '.row-result'), wm: inside(r, '.row-wm'), title: r.title,
          })),
        };
      }, [to, list.row]), (v) => {
        const first = Math.floor(v.top / rowPx);
        const last = Math.min(list.want.length, Math.ceil((v.top + v.height) / rowPx)) - 1;
        const at = new Set(v.rows.map((r) => r.at));
        for (let n = first; n <= last; n++) if (!at.has(n)) return false;
        return true;
      });
      assert.ok(seen.rows.length <= 40, `${list.testid} at ${to}: ${seen.rows.length} rows in the DOM, not ${list.want.length}`);
      for (const r of seen.rows) assert.equal(list.got(r.data), list.want[r.at], `${list.testid} row ${r.at}`);
      if (list.testid !== 'output-rows') continue;
      // A virtual window result is one line that still shows its value and watermark, and its
      // title is the whole row (the narrow panel clips the elements' list first).
      for (const r of seen.rows) {
        const f = { ...list.fires[r.at] };
        // The end of input's watermark, Long.MAX_VALUE (as the page writes it; JSON's number is rounded).
        if (f.wm > 9.2e18) f.wm = 'Long.MAX';
        assert.equal(r.result, `sum ${f.sum}`, `output-rows row ${r.at}: the value shown`);
        assert.equal(r.wm, `wm ${f.wm}`, `output-rows row ${r.at}: the watermark shown`);
        assert.ok(r.title.startsWith(`${f.key} [${f.start}, ${f.end}) `) && r.title.includes(`sum ${f.sum} · `) && r.title.endsWith(` · wm ${f.wm}`),
          `output-rows row ${r.at}: the whole row in its title (${r.title})`);
      }
    }
  }
});

test('2,000 elements: during a drag the Sinks tab and "why?" keep the scenario from before it, and are made again at the drop', { timeout: 120000 }, async (t) => {
  const { page } = await streamAtTheEnd(t, 2000, 'svg', async () => {});
  const entry = page.locator('[data-testid="element"][tabindex="0"]');
  const centre = async () => {
    const box = await entry.boundingBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  // "why?" on the Tab entry (element 21, late), and the Sinks tab on show (a wider panel: the
  // timeline narrows, and the entry moves).
  let [x, y] = await centre();
  await page.mouse.click(x, y);
  const summary = page.locator('[data-testid="why-summary"]');
  await summary.waitFor();
  const before = await summary.textContent();
  await page.locator('[data-testid="tab-sinks"]').click();
  const host = page.locator('.sinks-host');
  await until(page, 'the sinks drawn', () => host.locator('[data-testid="sink-append"]').count(), (n) => n === 1);
  [x, y] = await until(page, 'the entry placed in the narrower timeline', centre, (v) => v[0] !== x);
  // The sinks' DOM changes, counted from here.
  await host.evaluate((el) => {
    window.__sinkMutations = 0;
    new MutationObserver((l) => { window.__sinkMutations += l.length; }).observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const held = () => page.evaluate(() => ({
    note: document.querySelectorAll('[data-testid="panel-held"]').length,
    host: document.querySelector('.sinks-host').dataset.held,
    why: document.querySelector('[data-testid="why-before"]')?.textContent ?? null,
    mutations: window.__sinkMutations,
  }));
  await page.mouse.move(x, y);
  await page.mouse.down();
  // Later by ~240 s (fitted: ≈ 2 s a pixel): element 21 is no longer late.
  for (let k = 1; k <= 12; k++) await page.mouse.move(x + 10 * k, y);
  // Over 500 elements a drag's moves change neither the sinks nor the explanation: both say so.
  await until(page, 'a move run', () => page.locator('[data-testid="run-status"]').getAttribute('data-state'), (v) => v === 'done');
  const during = await held();
  assert.equal(during.host, 'true');
  assert.equal(during.note, 1, 'the sinks say they are from before the drag');
  assert.match(during.why ?? '', /before this drag/);
  assert.equal(await summary.textContent(), before);
  const mutationsDuring = (await held()).mutations;
  // (Its own data-held, set once when the drag began, is the only change.)
  assert.ok(mutationsDuring <= 1, `${mutationsDuring} changes to the sinks during the drag`);
  await page.mouse.up();
  await until(page, 'the drop shown', () => page.locator('[data-testid="run-status"]').getAttribute('data-state'), (v) => v === 'done');
  await until(page, 'the sinks made again at the drop', held, (v) => v.host === 'false' && v.note === 0 && v.why === null && v.mutations > mutationsDuring + 10);
  await until(page, 'the explanation made again at the drop', () => summary.textContent(), (v) => v !== before);
  assert.match(await summary.textContent(), /^Element 21 arrived on time/);
  assert.notEqual(await entry.getAttribute('data-ts'), '5384', 'the drop moved it');
  // The sinks' tables show their 200 most recent rows, and say how many they leave out.
  const main = await page.locator('[data-testid="main-output"]').evaluate((el) => ({
    title: el.querySelector('h3').textContent,
    rows: [...el.querySelectorAll('tbody tr')].map((r) => r.cells[0].textContent),
    leftOut: el.querySelector('[data-testid="rows-left-out"]')?.dataset.count,
  }));
  const results = Number(main.title.match(/\((\d+) results\)/)?.[1]);
  assert.ok(results > 1000, main.title);
  assert.equal(main.rows.length, 200);
  assert.deepEqual([main.rows[0], main.rows[199]], [`#${results - 199}`, `#${results}`]);
  assert.equal(Number(main.leftOut), results - 200);
  for (const sink of ['sink-append', 'sink-upsert', 'sink-changelog']) {
    const shown = await page.locator(`[data-testid="${sink}"] tbody tr`).count();
    const note = page.locator(`[data-testid="${sink}"] [data-testid="rows-left-out"]`);
    // (The changelog's first row shown is never a +U without its −U: one more then.)
    assert.ok(shown === 200 || (sink === 'sink-changelog' && shown === 201), `${sink}: ${shown} rows`);
    assert.ok(Number(await note.getAttribute('data-count')) > 0, sink);
    assert.match(await note.textContent(), new RegExp(`^The ${shown} most recent rows; the ${await note.getAttribute('data-count')} before them`));
  }
  // The changelog starts at a whole change.
  assert.notEqual(await page.locator('[data-testid="sink-changelog"] tbody tr').first().getAttribute('data-kind'), '+U');
  // The upsert sink shows the last written rows: its newest window (the last main output row's)
  // among them, wherever it falls in key order.
  const lastMain = await page.locator('[data-testid="main-output"] tbody tr').last().evaluate((r) => [r.cells[1].textContent, r.cells[2].textContent]);
  const upsert = await page.locator('[data-testid="sink-upsert"] tbody tr').evaluateAll((rows) => rows.map((r) => [r.cells[0].textContent, r.cells[1].textContent]));
  const end = lastMain[1].match(/, (.*)\)$/)?.[1];
  assert.ok(upsert.some(([k, e]) => k === lastMain[0] && e === end), `the newest write (${lastMain}) among the upsert rows shown`);
});

test('10,000 elements on the canvas: zoomed in, the lanes draw each element with its id where it has room, as SVG does', { timeout: 120000 }, async (t) => {
  const { page } = await streamAtTheEnd(t, 10000, 'canvas', async () => {});
  // The overlay's few marbles keep their hit ring (the drag cursor wherever a press grabs them).
  assert.equal(await page.locator('[data-testid="element"][tabindex="0"] .hit').count(), 1, 'the Tab entry has its ring');
  const canvas = page.locator('[data-testid="bulk-canvas"]');
  const painted = () => until(page, 'the bulk canvas painted', () => canvas.evaluate((c) => c.dataset.painted === c.dataset.generation), (v) => v === true, 30000);
  // Pure black pixels: only the ids are drawn in black (`.marble-text`'s ink); the window counts,
  // the timers and the lane titles are dark greys and blues, the marbles colours.
  const black = () => canvas.evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] === 255 && d[i] < 13 && d[i + 1] < 13 && d[i + 2] < 13) n++;
    return n;
  });
  await painted();
  assert.equal(await black(), 0, 'fitted, 500 marbles a lane are drawn as density: no ids');
  // The density bars' marks: a shape outlined in the timers' ink (#263041, not a bar's) wherever an
  // element was late (key k0 has side output elements), in the middle of the marble row. Counted
  // in the bitmap's rows at the Tab entry's height (the entry, k0's first element, is drawn by the
  // overlay; its lane's row in the bitmap is bars and marks, boxes of whole pixels: no blending).
  const entry = await page.locator('[data-testid="element"][tabindex="0"]').boundingBox();
  const cbox = await canvas.boundingBox();
  const outlined = await canvas.evaluate((c, mid) => {
    const ratio = c.height / c.getBoundingClientRect().height;
    const y0 = Math.max(0, Math.round((mid - 3) * ratio));
    const d = c.getContext('2d').getImageData(0, y0, c.width, Math.round(6 * ratio)).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 38 && d[i + 1] === 48 && d[i + 2] === 65 && d[i + 3] === 255) n++;
    return n;
  }, entry.y + entry.height / 2 - cbox.y);
  assert.ok(outlined > 20, `the late elements' marks over k0's density bars (${outlined} outline pixels)`);
  // Over the bulk drawing, the cursor says where a press grabs an element (k0's row of density
  // bars, an element about every pixel) and where it pans (the windows' row above it).
  const cursor = () => page.evaluate(() => getComputedStyle(document.querySelector('svg.canvas.overlay')).cursor);
  await page.mouse.move(entry.x + entry.width / 2 + 300, entry.y + entry.height / 2);
  await until(page, 'the drag cursor over the density bars', cursor, (c) => c === 'ew-resize', 5000);
  await page.mouse.move(entry.x + entry.width / 2 + 300, entry.y + entry.height / 2 - 45);
  await until(page, 'the pan cursor over the windows', cursor, (c) => c === 'grab', 5000);
  await page.locator('[data-testid="legend-density"]').waitFor();
  assert.match(await page.locator('[data-testid="legend-density"]').textContent(), /dotted: not arrived, open: in state.*◆ ▼ ■/);
  let clicks = 0;
  let seen = 0;
  while (seen === 0 && clicks < 8) {
    const before = await canvas.getAttribute('data-generation');
    await page.locator('[data-testid="zoom-in"]').click();
    clicks++;
    await until(page, 'a new drawing', () => canvas.getAttribute('data-generation'), (g) => g !== before, 30000);
    await painted();
    seen = await black();
  }
  assert.ok(seen > 200, `ids drawn once the lanes have room for their marbles (${seen} black pixels after ${clicks} zoom steps)`);
  await page.screenshot({ path: join(tmpdir(), 'tidemark-canvas-ids.png') });
});

test('1,000 elements: the arrival strip renders the chips in view, keeps the room of the others, and follows the keys', async (t) => {
  const { page } = await streamAtTheEnd(t, 1000, 'svg', async () => {});
  const strip = page.locator('[data-testid="arrival-strip"]');
  const chips = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="arrival-item"]')].map((c) => Number(c.dataset.index)));
  // At the end: the last chip (the playhead's) is rendered and in the strip's view, with about a
  // view's worth of chips around it, not all 1,000; the spacers keep the strip's scroll width.
  await until(page, 'the last chip in the strip\'s view', () => page.evaluate(() => {
    const s = document.querySelector('[data-testid="arrival-strip"]').getBoundingClientRect();
    const c = document.querySelector('[data-testid="arrival-item"][data-index="999"]')?.getBoundingClientRect();
    return c && c.left >= s.left - 1 && c.right <= s.right + 1;
  }));
  const atEnd = await chips();
  assert.ok(atEnd.length >= 20 && atEnd.length <= 150, `${atEnd.length} chips rendered`);
  assert.ok(atEnd.includes(999) && !atEnd.includes(0));
  const { scrollWidth } = await strip.evaluate((e) => ({ scrollWidth: e.scrollWidth }));
  assert.ok(scrollWidth >= 1000 * 56, `scroll width ${scrollWidth}`);
  // Scrolled to its start, the first chips are rendered (and the playhead's stays).
  await strip.evaluate((e) => { e.scrollLeft = 0; });
  await until(page, 'chip 0 rendered after the scroll', chips, (c) => c.includes(0) && !c.includes(950) && c.length < 150);
  // The keys: Home puts the playhead at the start; → on the strip chooses the next item, whose
  // chip is the listbox's active descendant and rendered, selected.
  await page.keyboard.press('Home');
  await strip.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await until(page, 'item 2 chosen', () => strip.getAttribute('aria-activedescendant'), (a) => a === 'arrival-chip-1');
  assert.equal(await page.locator('#arrival-chip-1').getAttribute('aria-selected'), 'true');
  // End (the playhead to the end of input, the step after the last item): the strip scrolls to
  // the last chip, and the chosen one stays rendered.
  await page.keyboard.press('End');
  await until(page, 'the strip at its end', chips, (c) => c.includes(950) && c.includes(999) && c.includes(1));
});

// A wheel or pan over a large scene: a build per step fell far behind it (at 2,000 elements 240 ms
// a step; at 100,000, 200). The drawing made when the gesture began is shown moved (a transform of
// `.scene-view`) at once, and is built at the view when the gesture rests or ends. Read from a
// MutationObserver, in the microtask after each render: what the page showed while moved. A moved
// drawing is the last one built (a slow machine may rest, and build, between two steps).
test('a wheel and a pan over a large scene move its drawing at once, and build it where it moved to when they rest', { timeout: 120000 }, async (t) => {
  for (const [n, backend] of [[1000, 'svg'], [3000, 'canvas']]) {
    const app = await openApp({ viewport: { width: 1920, height: 1080 } });
    t.after(() => app.close());
    const { page } = app;
    const scene = await loadStream(page, stream(n, 'tumbling'));
    assert.equal(await scene.getAttribute('data-backend'), backend);
    await page.evaluate(() => {
      const view = document.querySelector('.scene-view');
      window.__look = () => {
        const r = document.querySelector('[data-testid="element"][tabindex="0"]').getBoundingClientRect();
        return {
          moved: view.classList.contains('previewing'),
          style: view.getAttribute('style') || '',
          entryX: r.left + r.width / 2,
          ticks: [...document.querySelectorAll('[data-testid="axis"] text')].map((e) => e.textContent).join(' '),
        };
      };
      window.__seen = [];
      new MutationObserver(() => window.__seen.push(window.__look())).observe(view, { attributes: true, subtree: true, childList: true });
    });
    const look = () => page.evaluate(() => window.__look());
    const seen = () => page.evaluate(() => window.__seen.splice(0));
    const at = await look();
    assert.equal(at.moved, false);
    const box = await page.locator('[data-testid="timeline"]').boundingBox();

    // Wheel: zoom out around a point right of the entry (the Tab entry, the earliest element).
    const px = box.x + box.width * 0.6;
    await page.mouse.move(px, box.y + 60);
    for (let i = 0; i < 3; i++) await page.mouse.wheel(0, 120);
    await until(page, `${backend}: the zoom built once the wheel rested`, look, (v) => !v.moved && v.ticks !== at.ticks);
    /** The moved samples of `looks`, each checked against the drawing last built before it. */
    const movedOnly = (looks, from) => {
      let drawn = from.ticks;
      return looks.filter((v) => {
        if (v.moved) assert.equal(v.ticks, drawn, `${backend}: shown moved, not built again`);
        else drawn = v.ticks;
        return v.moved;
      });
    };
    const scaleOf = (v) => Number(v.style.match(/scaleX\(([-\d.]+)\)/)?.[1]);
    const zooming = movedOnly(await seen(), at);
    assert.ok(zooming.length >= 1, `${backend}: the drawing was shown moved while the wheel turned`);
    for (const v of zooming) assert.ok(scaleOf(v) > 0.3 && scaleOf(v) < 1, `${backend}: zoomed out: ${v.style}`);
    const zoomed = zooming.at(-1);
    assert.ok(zoomed.entryX > at.entryX + 50, `${backend}: the entry moved toward the wheel's point: ${at.entryX} → ${zoomed.entryX}`);
    const built = await look();
    assert.ok(Math.abs(built.entryX - zoomed.entryX) < 1.5, `${backend}: built where it was moved to: ${zoomed.entryX} → ${built.entryX}`);

    // Pan: pressed on the background (the axis), moved 150 px to the left and held.
    await page.mouse.move(box.x + box.width * 0.5, box.y + 12);
    await page.mouse.down();
    for (let i = 1; i <= 6; i++) await page.mouse.move(box.x + box.width * 0.5 - 25 * i, box.y + 12);
    // (A move is sent at the next frame: waited for by where the entry ends up, built.)
    const held = await until(page, `${backend}: the pan built once held still, the entry 150 px to the left`, look,
      (v) => !v.moved && Math.abs(v.entryX - (built.entryX - 150)) < 1.5);
    const panning = movedOnly(await seen(), built);
    assert.ok(panning.length >= 1, `${backend}: the drawing followed the pointer`);
    for (const v of panning) assert.equal(scaleOf(v), 1, `${backend}: a pan does not zoom: ${v.style}`);
    assert.ok(Math.abs(held.entryX - panning.at(-1).entryX) < 1.5, `${backend}: built where it was moved to`);
    await page.mouse.up();
    assert.equal((await look()).moved, false);
    assert.deepEqual(app.pageErrors, []);
  }
});

test('a scenario over the page limit is refused with a clear message, and nothing changes', async (t) => {
  const app = await openApp({ viewport: { width: 1400, height: 900 } });
  t.after(() => app.close());
  const { page } = app;
  const elements = () => page.locator('[data-testid="scene"]').getAttribute('data-elements');
  const shown = await elements();
  const big = stream(100001, 'session');
  await page.locator('[data-testid="import-file"]').setInputFiles({
    name: 'big.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(big)),
  });
  const error = page.locator('[data-testid="import-error"]');
  await error.waitFor({ timeout: 30000 });
  assert.match(await error.textContent(), /has 100001 items; the limit of the page is 100000 \(the command line takes more: tidemark run FILE\)/);
  assert.equal(await elements(), shown);
  assert.deepEqual(app.pageErrors, []);
});

// Issue 15's memory goal, kept: the page under 300 MB (its wasm memory, a high-water mark, plus the
// live JS heap, and its worker's, though the worker is ended after the drop's large answer and read
// fresh) at 100,000 elements, through a load, a drag of a fixed 40 moves and its drop, for each
// assigner. (`scripts/bench browser` measures the same after a 2-s drag, without a collection
// first, and reports it in the README.)
test('100,000 elements: the page stays under 300 MB through a load, a drag and its drop, and three more drags that rest', { timeout: 300000 }, async (t) => {
  for (const kind of ['tumbling', 'sliding', 'session']) {
    const app = await openApp({
      viewport: { width: 1920, height: 1080 },
      initScript: () => {
        addEventListener('TrunkApplicationStarted', (e) => {
          window.__tidemarkWasmBytes = () => e.detail.wasm.memory.buffer.byteLength;
        });
      },
    });
    try {
      await dragAndMeasure(t, app, kind);
    } finally {
      await app.close();
    }
  }
});

/** Loads the 100,000-element stream of `kind`, drags and drops an element, and asserts the memory. */
async function dragAndMeasure(t, app, kind) {
  const { page } = app;
  await loadStream(page, stream(100000, kind));
  const entry = page.locator('[data-testid="element"][tabindex="0"]');
  const box = await entry.boundingBox();
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const revision = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 40; i++) await page.mouse.move(x + Math.round(200 * Math.sin(i / 12)), y);
  await page.mouse.up();
  await runSettled(page, revision, 60000);
  await underLimit(t, app, kind, 'after a drag');
  // Wasm memory never shrinks: three more drags, each resting mid-drag (the held run installed)
  // and dropped elsewhere, must not take it over the limit either.
  for (let c = 0; c < 3; c++) {
    const b = await page.locator('[data-testid="element"][tabindex="0"]').boundingBox();
    const [ex, ey] = [b.x + b.width / 2, b.y + b.height / 2];
    const rev = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
    await page.mouse.move(ex, ey);
    await page.mouse.down();
    for (let i = 1; i <= 20; i++) await page.mouse.move(ex + Math.round(120 * Math.sin(i / 6)), ey);
    // The pointer rests until the held run is on show.
    await runSettled(page, rev, 60000);
    await page.mouse.move(ex + 30 + 10 * c, ey);
    const held = Number(await page.locator('[data-testid="run-status"]').getAttribute('data-revision'));
    await page.mouse.up();
    await runSettled(page, held, 60000);
  }
  await underLimit(t, app, kind, 'after four drags');
}

/** The page's and its workers' memory, asserted under 300 MB. */
async function underLimit(t, app, kind, when) {
  const { page } = app;
  const mb = (b) => Math.round((b / 1048576) * 10) / 10;
  // The JS heap's live size: garbage collected first (what is read otherwise depends on when the
  // collector last ran; the wasm memory is a high-water mark and needs none).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const inPage = await page.evaluate(() => ({ wasm: window.__tidemarkWasmBytes(), js: performance.memory.usedJSHeapSize }));
  let workers = 0;
  for (const w of page.workers()) {
    // (A worker ended since it was listed holds nothing.)
    workers += await w
      .evaluate(() => (self.__tidemarkWasmBytes ? self.__tidemarkWasmBytes() : 0) + (performance.memory ? performance.memory.usedJSHeapSize : 0))
      .catch(() => 0);
  }
  const total = inPage.wasm + inPage.js + workers;
  t.diagnostic(`${kind} ${when}: ${mb(total)} MB (page wasm ${mb(inPage.wasm)}, JS ${mb(inPage.js)}; workers ${mb(workers)})`);
  assert.ok(inPage.wasm > 50 * 1048576, `the page's wasm memory is read: ${mb(inPage.wasm)} MB`);
  assert.ok(total < 300 * 1048576, `${kind} ${when}: ${mb(total)} MB, over 300 MB (page wasm ${mb(inPage.wasm)}, JS ${mb(inPage.js)}; workers ${mb(workers)})`);
  assert.deepEqual(app.pageErrors, []);
}
