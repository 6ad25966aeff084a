// Outputs, sinks and charts (issue 7), end to end in headless Chromium: the sinks side by side
// against the correct answer (lab 6.2: $8.41 appended, $4.31 upserted), the SQL changelog's -U/+U
// for a late firing, the side output and numLateRecordsDropped, each chart drawn on its canvas and
// redrawn when the playhead moves, and the code tab.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, until } from './harness.mjs';
import { stream } from './stream.mjs';

const total = async (page, sink) => {
  const el = page.locator(`[data-testid="sink-${sink}-total"]`);
  return {
    amount: await el.getAttribute('data-amount'),
    correct: await el.getAttribute('data-correct'),
    text: (await el.locator('.total-value').textContent()).trim(),
  };
};

test('lab 6.2 sinks: append-only bills $8.41, upsert by (key, window_end) $4.31, the changelog retracts with -U/+U', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&step=3' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-sinks"]').click();
  await page.locator('[data-testid="sinks-panel"]').waitFor();
  // After the main firing every sink holds $4.10: short of the window's final value $4.31.
  for (const sink of ['append', 'upsert', 'changelog']) {
    assert.deepEqual(await total(page, sink), { amount: '410', correct: 'false', text: '$4.10' }, sink);
  }
  assert.match(await page.locator('[data-testid="sink-upsert-total"]').textContent(), /\$0\.21 less than the final \$4\.31/);
  assert.deepEqual(await page.locator('[data-testid="changelog-row"]').evaluateAll((r) => r.map((x) => x.dataset.kind)), ['+I']);
  // The late completion (step 4): a second result for the same minute.
  await page.keyboard.press('ArrowRight');
  await until(page, 'step 4 in the sinks', async () => (await page.locator('[data-testid="sinks-panel"]').getAttribute('data-step')) === '4');
  assert.deepEqual(await total(page, 'append'), { amount: '841', correct: 'false', text: '$8.41' });
  assert.match(await page.locator('[data-testid="sink-append-total"]').textContent(), /\$4\.10 more than the correct \$4\.31/);
  assert.deepEqual(await total(page, 'upsert'), { amount: '431', correct: 'true', text: '$4.31' });
  assert.deepEqual(await total(page, 'changelog'), { amount: '431', correct: 'true', text: '$4.31' });
  assert.equal(await page.locator('[data-testid="sink-correct"]').getAttribute('data-amount'), '431');
  assert.deepEqual(
    await page.locator('[data-testid="changelog-row"]').evaluateAll((r) => r.map((x) => `${x.dataset.kind} ${x.querySelector('.value').textContent}`)),
    ['+I $4.10', '-U $4.10', '+U $4.31'],
  );
  assert.deepEqual(await page.locator('[data-testid="upsert-row"]').evaluateAll((r) => r.map((x) => x.dataset.writes)), ['2']);
  // The main output marks the late firing as an update of the first row; record ts = end - 1.
  const rows = await page.locator('[data-testid="result-row"]').evaluateAll((r) =>
    r.map((x) => [x.dataset.kind, x.dataset.updates, x.dataset.recordTs, x.querySelector('.note').textContent]),
  );
  assert.deepEqual(rows, [
    ['main', '', '1767261659999', ''],
    ['late', '0', '1767261659999', 'updates #1'],
  ]);
  assert.deepEqual(app.pageErrors, []);
});

test('side output in its input type, and numLateRecordsDropped when it is off', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-3&step=end' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-sinks"]').click();
  const late = page.locator('[data-testid="late-record"]');
  await late.first().waitFor();
  assert.equal(await late.count(), 1);
  assert.match(await late.first().textContent(), /10:00:50.*\$0\.30/);
  // The lab's line for it (Lab 6.3: "Find its LATE <request_id> side-output line").
  assert.equal(await page.locator('[data-testid="late-lines"]').textContent(), 'LATE 6');
  // Side output off: the record is dropped and counted.
  await page.locator('[data-testid="tab-config"]').click();
  await page.locator('[data-testid="cfg-side-output"]').uncheck();
  await page.locator('[data-testid="tab-sinks"]').click();
  const counter = page.locator('[data-testid="late-dropped"]');
  await counter.waitFor();
  assert.equal(await counter.getAttribute('data-count'), '1');
  assert.match(await counter.textContent(), /numLateRecordsDropped = 1/);
  assert.deepEqual(app.pageErrors, []);
});

/** Non-white pixels of a chart canvas, and a fingerprint of its pixels. */
const pixels = (page, chart) =>
  page.locator(`canvas[data-chart="${chart}"]`).evaluate((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    let hash = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) ink += 1;
      hash = (hash * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) | 0;
    }
    return { ink, total: d.length / 4, hash, w: c.width, h: c.height };
  });

test('each chart renders on its canvas and changes when the playhead moves; a resize redraws', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&step=2' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-charts"]').click();
  const charts = ['state', 'lag', 'results'];
  const drawnAt = async (s) => {
    for (const c of charts) {
      await until(page, `${c} drawn at step ${s}`, async () => (await page.locator(`canvas[data-chart="${c}"]`).getAttribute('data-drawn-step')) === String(s));
    }
  };
  await drawnAt(2);
  const before = {};
  for (const c of charts) {
    before[c] = await pixels(page, c);
    assert.ok(before[c].ink > before[c].total * 0.02, `${c}: ${before[c].ink} of ${before[c].total} pixels inked`);
  }
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await drawnAt(4);
  for (const c of charts) {
    const after = await pixels(page, c);
    assert.notEqual(after.hash, before[c].hash, `${c} changed with the playhead`);
  }
  // A narrower window redraws at the new width.
  const w0 = before.state.w;
  await page.setViewportSize({ width: 1000, height: 800 });
  await until(page, 'state chart redrawn narrower', async () => {
    const p = await pixels(page, 'state');
    return (p.w < w0 && p.ink > 0) || p.w;
  });
  assert.deepEqual(app.pageErrors, []);
});

test('the partitions chart: each partition and the minimum (the quiet night), only where there are partitions', async (t) => {
  const app = await openApp({ path: '#preset=quiet-night-stall&step=10' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-charts"]').click();
  const canvas = page.locator('canvas[data-chart="partitions"]');
  await until(page, 'partitions chart drawn', async () => (await canvas.getAttribute('data-drawn-step')) === '10');
  const before = await pixels(page, 'partitions');
  assert.ok(before.ink > before.total * 0.02, `${before.ink} of ${before.total} pixels inked`);
  await page.keyboard.press('End');
  const steps = await page.locator('[data-testid="playhead"]').getAttribute('data-steps');
  await until(page, 'redrawn at the end', async () => (await canvas.getAttribute('data-drawn-step')) === steps);
  assert.notEqual((await pixels(page, 'partitions')).hash, before.hash);
  // One partition: no such chart.
  await page.evaluate(() => {
    window.location.hash = '#preset=lab-6-2&step=3';
  });
  await until(page, 'lab 6.2 charts', async () => (await page.locator('canvas[data-chart="state"]').getAttribute('data-drawn-step')) === '3');
  assert.equal(await canvas.count(), 0);
  assert.deepEqual(app.pageErrors, []);
});

test('ModelLatency state chart: five window copies per record', async (t) => {
  const app = await openApp({ path: '#preset=model-latency-sliding&step=0' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-charts"]').click();
  await until(page, 'state chart drawn', async () => (await page.locator('canvas[data-chart="state"]').getAttribute('data-drawn-step')) === '0');
  // The chart's data is the engine's: five live windows after the first record, ten after two.
  for (const [s, n] of [
    [1, 5],
    [2, 10],
  ]) {
    await page.keyboard.press('ArrowRight');
    await until(page, `step ${s}`, async () => (await page.locator('canvas[data-chart="state"]').getAttribute('data-drawn-step')) === String(s));
    assert.equal(await page.locator('[data-testid="window"][data-state="open"]').count(), n);
  }
  assert.deepEqual(app.pageErrors, []);
});

test('code tab: Java, PyFlink and SQL for the scenario, with copy and save', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&step=3' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-code"]').click();
  const code = page.locator('[data-testid="code-text"]');
  await code.waitFor();
  assert.equal(await code.getAttribute('data-dialect'), 'java');
  assert.match(await code.textContent(), /allowedLateness\(Duration\.ofMinutes\(2\)\)|allowedLateness\(Duration\.ofSeconds\(120\)\)/);
  await page.locator('[data-testid="code-tab-pyflink"]').click();
  await until(page, 'pyflink', async () => (await code.getAttribute('data-dialect')) === 'pyflink');
  assert.match(await code.textContent(), /from pyflink/);
  await page.locator('[data-testid="code-tab-sql"]').click();
  await until(page, 'sql', async () => (await code.getAttribute('data-dialect')) === 'sql');
  assert.match(await code.textContent(), /TUMBLE/);
  // What the TVF cannot express is said.
  assert.match(await page.locator('[data-testid="code-caveats"]').textContent(), /lateness/i);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="save-code"]').click()]);
  assert.match(download.suggestedFilename(), /\.sql$/);
  assert.deepEqual(app.pageErrors, []);
});

/** How much of a screenshot `png` is in the colour `rgb` (each channel within 40): a share 0..1. */
async function shareOf(page, png, rgb) {
  return page.evaluate(async ([b64, [r, g, b]]) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const ctx = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const px = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    let near = 0;
    for (let k = 0; k < px.length; k += 4) {
      if (Math.abs(px[k] - r) <= 40 && Math.abs(px[k + 1] - g) <= 40 && Math.abs(px[k + 2] - b) <= 40) near++;
    }
    return near / (px.length / 4);
  }, [png.toString('base64'), rgb]);
}

test('the output tab and the tabs keep their whole focus rings with the keyboard focus, rows scrolled under them', async (t) => {
  // The output lists are on a compositing layer of their own (a drag's frames at 100,000
  // elements). While the tab's body has the keyboard focus they are not: its ring, drawn inside
  // its edges, would be painted under the rows scrolled there. The tabs above are lifted over the
  // layer: a tab's ring reaches into the body.
  const app = await openApp();
  t.after(() => app.close());
  const { page } = app;
  const sc = stream(250, 'sliding');
  await page.locator('[data-testid="import-file"]').setInputFiles({
    name: 'stream.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(sc)),
  });
  await until(page, 'the stream on show', async () => (await page.locator('[data-testid="output-row"]').count()) > 20);
  const layer = () => page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="outputs"]')).willChange);
  assert.equal(await layer(), 'transform', 'a layer of its own while the body is not focused');
  const focus = [0xf0, 0xb4, 0x00]; // --focus
  // One row of pixels across a box, at a whole pixel (a fractional clip straddles two rows).
  const row = async (x0, x1, y) => shareOf(page, await page.screenshot({ clip: { x: Math.round(x0), y: Math.round(y), width: Math.round(x1 - x0), height: 1 } }), focus);
  await page.keyboard.press('Shift');
  const box = await page.evaluate(() => {
    const body = document.querySelector('.tab-body');
    body.focus();
    body.scrollTop = 37;
    const r = body.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height, visible: body.matches(':focus-visible') };
  });
  assert.equal(box.visible, true, 'the body shows its focus ring');
  await until(page, 'the layer dropped', async () => (await layer()) === 'auto');
  // The ring is 3 px inside the body's edges: its top edge's middle row, where the rows scroll.
  const top = await row(box.x + 24, box.x + box.width - 24, Math.ceil(box.y) + 1);
  assert.ok(top > 0.9, `the body ring's top edge in the focus colour: ${top}`);
  // A tab in the tabs' last row, focused: the layer is back, and the ring's bottom edge (1-4 px
  // below the tab, over the body's top) shows above the rows.
  const tab = await page.evaluate(() => {
    const last = [...document.querySelectorAll('.tabs .tab')].sort((a, b) => b.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom)[0];
    last.focus();
    const r = last.getBoundingClientRect();
    return { x: r.x, width: r.width, bottom: r.bottom, visible: last.matches(':focus-visible') };
  });
  assert.equal(tab.visible, true, 'the tab shows its focus ring');
  await until(page, 'the layer back', async () => (await layer()) === 'transform');
  const under = await row(tab.x + 4, tab.x + tab.width - 4, Math.ceil(tab.bottom) + 2);
  assert.ok(under > 0.9, `the tab ring's bottom edge in the focus colour: ${under}`);
  assert.deepEqual(app.pageErrors, []);
});
