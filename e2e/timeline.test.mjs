// The timeline (issue 5), end to end with the real mouse and keyboard in headless Chromium:
// dragging elements across window boundaries, dragging the watermark past end - 1 and past the
// cleanup time, merging sessions, the keyboard-only path, and every Flink parity scenario of
// tests/flink loaded through #scenario=...&step=end against real Flink's golden output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT, openApp, runSettled, until } from './harness.mjs';
import { b64url, centre, scenarioPath } from './fixtures.mjs';

/** Event time -> page x, calibrated on two marbles with known timestamps. */
async function timeScale(page, idA, idB) {
  const a = page.locator(`[data-testid="element"][data-id="${idA}"]`);
  const b = page.locator(`[data-testid="element"][data-id="${idB}"]`);
  const [ca, cb] = [await centre(a), await centre(b)];
  const [ta, tb] = [Number(await a.getAttribute('data-ts')), Number(await b.getAttribute('data-ts'))];
  const pxPerMs = (cb.x - ca.x) / (tb - ta);
  return (ts) => ca.x + (ts - ta) * pxPerMs;
}

/** Drags from `from` to `to` with the real mouse, in `steps` moves. */
async function drag(page, from, to, steps = 12) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps });
  await page.mouse.up();
}

async function outputRows(page) {
  return page.locator('[data-testid="output-row"]').evaluateAll((rows) =>
    rows.map((r) => ({
      key: r.dataset.key,
      start: r.dataset.start,
      end: r.dataset.end,
      firing: r.dataset.firing,
      ids: r.dataset.ids,
      sum: r.dataset.sum,
      count: r.dataset.count,
    })),
  );
}

const rowsOf = (rows, start) => rows.filter((r) => r.start === String(start)).map((r) => `${r.firing}:${r.ids}`);

const waitForRows = (page, predicate, what) => until(page, `${what}; output rows`, () => outputRows(page), predicate);

const TUMBLING = {
  name: 'e2e_tumbling_boundary',
  assigner: { kind: 'tumbling', size: 10000 },
  watermarks: { kind: 'explicit' },
  input: [
    { id: 1, key: 'A', ts: 8000 },
    { id: 2, key: 'A', ts: 12000 },
    { id: 3, key: 'A', ts: 24000 },
    { wm: 29999 },
  ],
};

test('dragging an element across a window boundary moves it to the other window (contents and output)', async (t) => {
  // Playhead after the three elements, before the watermark item: the windows hold their contents.
  const app = await openApp({ path: scenarioPath(TUMBLING, 3) });
  t.after(() => app.close());
  const { page } = app;
  const win = (start) => page.locator(`[data-testid="window"][data-start="${start}"]`);
  assert.equal(await win(0).getAttribute('data-count'), '1');
  assert.equal(await win(10000).getAttribute('data-count'), '1');
  assert.deepEqual(await outputRows(page), []);

  const x = await timeScale(page, 1, 3);
  const marble = page.locator('[data-testid="element"][data-id="1"]');
  const from = await centre(marble);
  await drag(page, from, { x: x(13000), y: from.y });

  await page.locator('[data-testid="window"][data-start="10000"][data-count="2"]').waitFor();
  assert.equal(await win(0).count(), 0, 'the old window is gone');
  const ts = Number(await marble.getAttribute('data-ts'));
  assert.ok(ts >= 10000 && ts < 20000, `dropped at ${ts}`);
  assert.equal(ts % 100, 0, `the drop snaps to a whole unit (${ts})`);
  assert.equal(await page.locator('[data-testid="playhead"]').getAttribute('data-step'), '3', 'the playhead keeps its step');

  // One step on, the watermark item fires it: element 1 is in the other window's output.
  await page.locator('[data-testid="step-forward"]').click();
  const rows = await waitForRows(page, (r) => rowsOf(r, 10000).includes('main:1,2'), 'element 1 did not join [10000, 20000)');
  assert.deepEqual(rowsOf(rows, 0), [], 'the old window emits nothing');
  assert.deepEqual(app.pageErrors, []);
});

test('the keyboard alone moves an element across a window boundary', async (t) => {
  const app = await openApp({ path: scenarioPath(TUMBLING, 4) });
  t.after(() => app.close());
  const { page } = app;
  const marble = page.locator('[data-testid="element"][data-id="1"]');
  await page.keyboard.press(']'); // select the first element in event time
  assert.match((await marble.getAttribute('class')) || '', /selected/);
  for (let i = 0; i < 200 && Number(await marble.getAttribute('data-ts')) < 10000; i++) {
    await page.keyboard.press('ArrowRight');
  }
  assert.ok(Number(await marble.getAttribute('data-ts')) >= 10000);
  await waitForRows(page, (r) => rowsOf(r, 10000).includes('main:1,2'), 'element 1 did not join [10000, 20000)');
  // Without a selection the arrows step the playhead.
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('[data-testid="playhead"]').getAttribute('data-step'), '3');
  await page.keyboard.press('End');
  assert.equal(await page.locator('[data-testid="playhead"]').getAttribute('data-step'), '5');
  assert.deepEqual(app.pageErrors, []);
});

const LATE = {
  name: 'e2e_watermark_drag',
  assigner: { kind: 'tumbling', size: 10000 },
  allowed_lateness: 5000,
  side_output: true,
  watermarks: { kind: 'explicit' },
  input: [
    { id: 1, key: 'A', ts: 3000 },
    { id: 2, key: 'A', ts: 17000 },
    { wm: 5000 },
    { id: 3, key: 'A', ts: 4000 },
  ],
};

test('dragging the watermark past end - 1 fires the window, past the cleanup time sends a late element to the side output', async (t) => {
  const app = await openApp({ path: scenarioPath(LATE, 4) });
  t.after(() => app.close());
  const { page } = app;
  assert.deepEqual(await outputRows(page), []);
  const handle = page.locator('[data-testid="watermark"]');
  assert.equal(await handle.getAttribute('data-wm'), '5000');

  const x = await timeScale(page, 1, 2);
  const line = await page.locator('[data-testid="watermark-line"]').boundingBox();
  const lane = await page.locator('[data-testid="lane"]').first().boundingBox();
  const grab = { x: line.x + line.width / 2, y: lane.y + lane.height / 2 };
  await drag(page, grab, { x: x(10400), y: grab.y });

  let rows = await waitForRows(page, (r) => rowsOf(r, 0).includes('main:1'), 'no main firing of [0, 10000)');
  const wm = Number(await handle.getAttribute('data-wm'));
  assert.ok(wm >= 9999 && wm < 14999, `watermark dropped at ${wm}`);
  // Element 3 (ts 4000) arrives after the main firing, within the allowed lateness: a late firing.
  assert.deepEqual(rowsOf(rows, 0), ['main:1', 'late:1,3']);
  assert.equal(await page.locator('[data-testid="side-output-row"]').count(), 0);

  const line2 = await page.locator('[data-testid="watermark-line"]').boundingBox();
  const grab2 = { x: line2.x + line2.width / 2, y: grab.y };
  await drag(page, grab2, { x: x(15600), y: grab.y });
  await page.locator('[data-testid="side-output-row"][data-id="3"]').waitFor();
  await page.locator('[data-testid="side-output-element"][data-id="3"]').waitFor();
  rows = await outputRows(page);
  assert.deepEqual(rowsOf(rows, 0), ['main:1'], 'element 3 is too late now: no late firing');
  assert.ok(Number(await handle.getAttribute('data-wm')) >= 14999);
  assert.equal(await page.locator('[data-testid="element"][data-id="3"]').getAttribute('data-outcome'), 'side-output');
  assert.deepEqual(app.pageErrors, []);
});

test('an element dropping into the side output is drawn under its timestamp while it animates', async (t) => {
  // Stepping forward animates the step: element 3 (ts 4000) drops from its lane into the side
  // output. Regression: the animation's CSS transform replaced the marble's translate, so it
  // sat at x = 0 for the whole step.
  const LATE_NOW = { ...LATE, allowed_lateness: 0, input: [...LATE.input.slice(0, 2), { wm: 20000 }, LATE.input[3]] };
  const app = await openApp({ path: scenarioPath(LATE_NOW, 3) });
  t.after(() => app.close());
  const { page } = app;
  const x = await timeScale(page, 1, 2);
  await page.locator('[data-testid="step-forward"]').click();
  const marble = page.locator('[data-testid="side-output-element"][data-id="3"]');
  await marble.waitFor();
  assert.ok(
    (await marble.evaluate((g) => [...g.querySelectorAll('.drop-in')].length)) <= 1,
    'one animated group at most',
  );
  const c = await centre(marble.locator('.body'));
  assert.ok(Math.abs(c.x - x(4000)) < 3, `side-output marble at x ${c.x}, its timestamp is at ${x(4000)}`);
  assert.deepEqual(app.pageErrors, []);
});

test('two elements dragged within the session gap merge the sessions', async (t) => {
  const SESSIONS = {
    name: 'e2e_session_merge',
    assigner: { kind: 'session', gap: 5000 },
    input: [
      { id: 1, key: 'A', ts: 0 },
      { id: 2, key: 'A', ts: 20000 },
      { id: 3, key: 'A', ts: 40000 },
    ],
  };
  const app = await openApp({ path: scenarioPath(SESSIONS, 3) });
  t.after(() => app.close());
  const { page } = app;
  const live = () =>
    page.locator('[data-testid="window"]').evaluateAll((ws) =>
      ws.filter((w) => !['merged', 'cleaned'].includes(w.dataset.state)).map((w) => `${w.dataset.start}-${w.dataset.end}:${w.dataset.count}`),
    );
  assert.deepEqual(await live(), ['0-5000:1', '20000-25000:1', '40000-45000:1']);
  assert.equal(await page.locator('[data-testid="window"][data-state="merged"]').count(), 0);

  const x = await timeScale(page, 1, 3);
  const e2 = page.locator('[data-testid="element"][data-id="2"]');
  const from2 = await centre(e2);
  await drag(page, from2, { x: x(3000), y: from2.y });
  await page.locator('[data-testid="window"][data-state="merged"]').first().waitFor();
  const e3 = page.locator('[data-testid="element"][data-id="3"]');
  const from3 = await centre(e3);
  await drag(page, from3, { x: x(6500), y: from3.y });

  const windows = await until(page, 'one merged session expected', live, (w) => w.length === 1);
  const [span, count] = windows[0].split(':');
  assert.equal(count, '3');
  assert.ok(span.startsWith('0-'), span);
  assert.ok((await page.locator('[data-testid="window"][data-state="merged"]').count()) >= 2);
  assert.deepEqual(app.pageErrors, []);
});

// Every Flink parity scenario through the URL contract, compared with real Flink's output.
test('every tests/flink scenario loaded via #scenario=...&step=end shows the golden output', async (t) => {
  const dir = join(REPO_ROOT, 'tests/flink/scenarios');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  assert.ok(files.length >= 90, `found ${files.length} scenarios`);
  const app = await openApp();
  t.after(() => app.close());
  const { page } = app;
  const failures = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8');
    const scenario = JSON.parse(text);
    const golden = (await readFile(join(REPO_ROOT, 'tests/flink/golden', file.replace(/\.json$/, '.jsonl')), 'utf8'))
      .split('\n')
      .filter((l) => l.trim())
      // Keep 64-bit integers exact: quote every long number before JSON.parse.
      .map((l) => JSON.parse(l.replace(/([:,[]\s*)(-?\d{16,})/g, '$1"$2"')));
    const steps = scenario.input.length + 1;
    const revision = await runSettled(page);
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, `scenario=${b64url(text)}&step=end`);
    await runSettled(page, revision);
    await page.waitForFunction(
      ([name, steps]) => {
        const n = document.querySelector('[data-testid="scenario-name"]');
        const p = document.querySelector('[data-testid="playhead"]');
        return n && n.textContent === name && p && p.dataset.step === String(steps) && p.dataset.steps === String(steps);
      },
      [scenario.name, steps],
    );
    const seen = await page.evaluate(() => ({
      fires: [...document.querySelectorAll('[data-testid="output-row"]')].map((r) => ({ ...r.dataset })),
      lates: [...document.querySelectorAll('[data-testid="side-output-row"]')].map((r) => r.dataset.id),
      errors: [...document.querySelectorAll('[data-testid="error-row"]')].map((r) => `${r.dataset.phase}:${r.dataset.class}`),
    }));
    // Per window (key, start, end): its firings in order; late ids and errors in order.
    const group = (rows) => {
      const m = new Map();
      for (const r of rows) {
        const k = `${r.key}|${r.start}|${r.end}`;
        if (!m.has(k)) m.set(k, []);
        m.get(k).push(`${r.firing} [${r.ids}] sum=${r.sum} count=${r.count}`);
      }
      return Object.fromEntries([...m.entries()].sort());
    };
    const want = {
      fires: group(
        golden
          .filter((o) => o.out === 'fire')
          .map((o) => ({
            key: String(o.key),
            start: o.start === null ? '' : String(o.start),
            end: o.end === null ? '' : String(o.end),
            firing: o.firing,
            ids: [...o.ids].map(Number).sort((a, b) => a - b).join(','),
            sum: String(o.sum),
            count: String(o.count),
          })),
      ),
      lates: golden.filter((o) => o.out === 'late').map((o) => String(o.id)),
      errors: golden.filter((o) => o.out === 'error').map((o) => `${o.phase}:${o.class}`),
    };
    const got = { fires: group(seen.fires), lates: seen.lates, errors: seen.errors };
    try {
      assert.deepEqual(got, want);
    } catch (e) {
      failures.push(`${file}: ${e.message.split('\n').slice(0, 12).join('\n')}`);
    }
  }
  assert.deepEqual(failures, [], failures.join('\n\n'));
  assert.deepEqual(app.pageErrors, []);
});

test('a bad fragment shows an error banner and the default scenario, never a dead page', async (t) => {
  const app = await openApp({ path: '#z=not-deflate!!&step=end' });
  t.after(() => app.close());
  const banner = app.page.locator('[data-testid="error-banner"]');
  await banner.waitFor();
  assert.match(await banner.textContent(), /Could not open the link/);
  assert.ok((await app.page.locator('[data-testid="element"]').count()) > 0);
  // Text from the URL is shown as text: a scenario name with markup does not become markup.
  const evil = { name: '<img src=x onerror="window.__pwned=1">', assigner: { kind: 'tumbling', size: 1000 }, input: [{ id: 1, key: '<b>k</b>', ts: 5 }] };
  await app.page.evaluate((h) => {
    window.location.hash = h;
  }, scenarioPath(evil, 'end').slice(1));
  await app.page.locator('[data-testid="scenario-name"]', { hasText: '<img' }).waitFor();
  assert.equal(await app.page.evaluate(() => window.__pwned), undefined);
  assert.equal(await app.page.locator('img').count(), 0);
  assert.deepEqual(app.pageErrors, []);
});
