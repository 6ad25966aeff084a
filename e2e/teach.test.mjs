// The teaching layer (issue 6), end to end in headless Chromium with the real mouse and keyboard:
// every course preset reaches the course's outcome, a quiz answer is checked by the engine,
// lecture keys step the playhead, an embed fits 700x450, a copied link restores scenario, step and
// mode, the example lab page loads its three iframes, "why?" explains a click, import errors keep
// the scenario, and the exported SVG is a valid image.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { VIEWPORTS, openApp, openPage, until } from './harness.mjs';

const step = (page) => page.locator('[data-testid="playhead"]').getAttribute('data-step');

async function resultRows(page) {
  return page.locator('[data-testid="result-row"]').evaluateAll((rows) =>
    rows.map((r) => ({
      key: r.dataset.key,
      end: r.dataset.end,
      kind: r.dataset.kind,
      value: r.dataset.value,
      text: r.querySelector('.value')?.textContent,
      note: r.querySelector('.note')?.textContent,
    })),
  );
}

const lateIds = (page) =>
  page.locator('[data-testid="late-record"]').evaluateAll((rows) => rows.map((r) => r.dataset.id));

/** Opens a hash in the running app (a link pasted into the same tab) and waits for its step. */
async function openHash(page, hash, wantTitle) {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
  await until(page, `${hash} opens`, async () => {
    const title = await page.locator('[data-testid="course-title"]').textContent();
    return title.includes(wantTitle) || title;
  });
}

// The course's numbers (assets/presets/*.json goals, ../shared/course texts), at the end of input.
// `rows`: kind:value of every main-output row in emission order; `late`: side-output element ids.
const T = (h, m, s = 0) => String(Date.UTC(2026, 0, 1, h, m, s));
const OUTCOMES = [
  { id: 'lab-6-1', title: 'Lab 6.1', rows: ['main:410'], texts: ['$4.10 (2 elements)'], ends: [T(10, 1)], late: [] },
  { id: 'lab-6-2', title: 'Lab 6.2', rows: ['main:410', 'late:431'], texts: ['$4.10 (2 elements)', '$4.31 (3 elements)'], late: [] },
  { id: 'lab-6-3', title: 'Lab 6.3', rows: ['main:410', 'late:431', 'main:100', 'main:75'], late: ['6'] },
  {
    id: 'model-latency-sliding',
    title: 'ModelLatency',
    rows: ['main:120', 'main:340', 'main:200', 'main:340', 'main:200', 'main:340', 'main:200', 'main:340', 'main:200', 'main:340', 'main:80'],
    texts: ['120 ms (1 element)'],
    late: [],
  },
  { id: 'worked-timeline', title: 'worked timeline', rows: ['main:3', 'late:19', 'main:44'], late: ['7'] },
  { id: 'one-hour-sliding', title: 'one-hour window', rows: Array(60).fill('main:1'), late: [] },
  { id: 'sliding-96-copies', title: '96 copies', rows: Array(96).fill('main:2'), late: [] },
  { id: 'session-bridge', title: 'bridges two sessions', rows: ['main:2', 'main:1', 'late:4'], notes: ['', '', 'replaces #1, #2'], late: ['5'] },
  { id: 'time-windows-events-1-7', title: 'Events 1-7', rows: ['main:3', 'late:4', 'main:2'], late: ['7'] },
  { id: 'count-trigger', title: 'CountTrigger', rows: ['main:3'], ends: [T(10, 1)], late: ['7'] },
  { id: 'early-firing-duplicates', title: 'early-firing', rows: ['early:2', 'early:2', 'early:3', 'main:3'], late: [] },
  { id: 'quiet-night-stall', title: 'quiet night', rows: [], late: [] },
  { id: 'quiet-night-idleness', title: 'withIdleness', rows: ['main:14', 'main:12'], ends: [T(22, 1), T(22, 2)], late: [] },
  { id: 'slowest-partition', title: 'slowest partition', rows: ['main:9', 'main:5', 'main:2'], late: [] },
];

test('each course preset reaches its documented outcome (main output, side output, units)', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-1&step=end' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-sinks"]').click();
  for (const c of OUTCOMES) {
    await openHash(page, `#preset=${c.id}&step=end`, c.title);
    const want = c.rows.join(' ');
    await until(page, `${c.id}: rows ${want}`, async () => {
      const rows = await resultRows(page);
      const got = rows.map((r) => `${r.kind}:${r.value}`).join(' ');
      return got === want || got;
    });
    const rows = await resultRows(page);
    if (c.texts) c.texts.forEach((text, i) => assert.equal(rows[i].text, text, `${c.id} row ${i}`));
    if (c.ends) c.ends.forEach((end, i) => assert.equal(rows[i].end, end, `${c.id} row ${i} window end`));
    if (c.notes) assert.deepEqual(rows.map((r) => r.note), c.notes, `${c.id} notes`);
    assert.deepEqual(await lateIds(page), c.late, `${c.id} side output`);
  }
  // The process-function labs: RequestAssembler's records (Output tab).
  await page.locator('[data-testid="tab-output"]').click();
  for (const [id, title, want] of [
    ['lab-6-4', 'Lab 6.4:', 'r2:completed r3:abandoned'],
    ['lab-6-4-no-ttl', 'the fix', 'r2:completed r1:completed r3:abandoned'],
  ]) {
    await openHash(page, `#preset=${id}&step=end`, title);
    await until(page, `${id}: ${want}`, async () => {
      const got = (
        await page.locator('[data-testid="process-row"]').evaluateAll((rs) => rs.map((r) => `${r.dataset.key}:${r.dataset.kind}`))
      ).join(' ');
      return got === want || got;
    });
  }
  // The sliding preset: each record lands in five windows (after the first element).
  await openHash(page, '#preset=model-latency-sliding&step=1', 'ModelLatency');
  await until(page, 'five windows for the first record', async () => {
    const n = await page.locator('[data-testid="window"][data-key="gpt"]').count();
    return n === 5 || n;
  });
  // Lab 6.2's narration states the rule and the course's numbers.
  await openHash(page, '#preset=lab-6-2&step=4', 'Lab 6.2');
  await until(page, 'narration of the late firing', async () => {
    const text = await page.locator('[data-testid="narration-headline"]').textContent();
    return (text.includes('late firing') && text.includes('$4.31')) || text;
  });
  assert.deepEqual(app.pageErrors, []);
  assert.deepEqual(app.externalRequests, []);
});

test('quiz: the playhead stops before a deciding step, the engine checks the answer, the score counts it', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&step=3&quiz=1' });
  t.after(() => app.close());
  const { page } = app;
  const quiz = page.locator('[data-testid="quiz-panel"]');
  await quiz.waitFor();
  assert.match(await page.locator('[data-testid="quiz-prompt"]').textContent(), /element 4/i);
  // Step forward is held until an answer is given.
  await page.keyboard.press('ArrowRight');
  assert.equal(await step(page), '3');
  // Element 4 is within the allowed lateness: added, and its window fires at once.
  await page.locator('[data-testid="quiz-option"]', { hasText: 'fires at once' }).click();
  await page.locator('[data-testid="quiz-submit"]').click();
  const verdict = page.locator('[data-testid="quiz-verdict"]');
  await verdict.waitFor();
  assert.equal(await verdict.getAttribute('data-correct'), 'true');
  const score = page.locator('[data-testid="quiz-score"]');
  assert.equal(await score.getAttribute('data-correct'), '1');
  assert.equal(await score.getAttribute('data-answered'), '1');
  // Reveal: the step is taken and the narration explains it.
  await page.locator('[data-testid="quiz-reveal"]').click();
  await until(page, 'revealed step 4', async () => (await step(page)) === '4' || (await step(page)));
  assert.match(await page.locator('[data-testid="narration-headline"]').textContent(), /late firing/);
  // A wrong answer is checked too (worked timeline, element 3 fires nothing).
  await page.evaluate(() => {
    window.location.hash = '#preset=worked-timeline&step=2&quiz=1';
  });
  // Asked at playhead 2: the question about element 3 (step 3 in the text's numbering).
  await until(page, 'a new question', async () => {
    const prompt = await page.locator('[data-testid="quiz-prompt"]').textContent();
    return /element 3/i.test(prompt) || prompt;
  });
  const options = page.locator('[data-testid="quiz-option"]');
  const labels = await options.allTextContents();
  const wrong = labels.findIndex((l) => /fires at once|side output|dropped/.test(l));
  if (wrong >= 0) {
    await options.nth(wrong).click();
    await page.locator('[data-testid="quiz-submit"]').click();
    await verdict.waitFor();
    assert.equal(await verdict.getAttribute('data-correct'), 'false');
  }
  assert.deepEqual(app.pageErrors, []);
});

test('lecture mode: large type, no configuration; PageDown/PageUp and space step, B blacks out', async (t) => {
  const app = await openApp({ path: '#preset=worked-timeline&mode=lecture&step=2', viewport: VIEWPORTS.projector });
  t.after(() => app.close());
  const { page } = app;
  assert.equal(await page.locator('[data-testid="app"]').getAttribute('data-mode'), 'lecture');
  assert.equal(await page.locator('[data-testid="config"]').count(), 0);
  assert.equal(await page.locator('[data-testid="tab-config"]').count(), 0, 'the side panel is closed');
  const size = await page.locator('[data-testid="narration-headline"]').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok(size >= 24, `narration font ${size}px`);
  await page.keyboard.press('PageDown');
  await until(page, 'PageDown steps', async () => (await step(page)) === '3' || (await step(page)));
  await page.keyboard.press('PageUp');
  await until(page, 'PageUp steps back', async () => (await step(page)) === '2' || (await step(page)));
  await page.keyboard.press(' ');
  await until(page, 'space steps', async () => (await step(page)) === '3' || (await step(page)));
  assert.equal(await page.locator('[data-testid="play"]').getAttribute('aria-pressed'), 'false');
  await page.keyboard.press('b');
  await page.locator('[data-testid="blackout"]').waitFor();
  // A clicker still steps behind the blackout.
  await page.keyboard.press('PageDown');
  await until(page, 'PageDown behind the blackout', async () => (await step(page)) === '4' || (await step(page)));
  await page.keyboard.press('b');
  await page.locator('[data-testid="blackout"]').waitFor({ state: 'detached' });
  assert.deepEqual(app.pageErrors, []);
});

test('an embed at 700x450 shows the canvas, the narration and playback without scrolling', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&mode=embed&step=3', viewport: VIEWPORTS.embed });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="narration"]').waitFor();
  const fits = await page.evaluate(() => {
    const inside = (sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r && r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
    };
    const se = document.scrollingElement;
    return {
      noScroll: se.scrollHeight <= innerHeight && se.scrollWidth <= innerWidth,
      canvas: inside('[data-testid="canvas"]'),
      narration: inside('[data-testid="narration-headline"]'),
      playback: inside('[data-testid="play"]'),
      config: document.querySelectorAll('[data-testid="config"], [data-testid="course-bar"]').length,
    };
  });
  assert.deepEqual(fits, { noScroll: true, canvas: true, narration: true, playback: true, config: 0 });
  assert.equal(await step(page), '3');
  assert.match(await page.locator('[data-testid="narration-headline"]').textContent(), /\$4\.10/);
  assert.deepEqual(app.pageErrors, []);
  assert.deepEqual(app.externalRequests, []);
});

test('a copied link, opened again, restores the scenario, the step and the mode', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&step=3' });
  t.after(() => app.close());
  const { page } = app;
  // Edit (drag element 2 later), step, and switch to lecture mode.
  const el = page.locator('[data-testid="element"][data-id="2"]');
  const box = await el.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  const ts = await el.getAttribute('data-ts');
  assert.notEqual(ts, '1767261640000');
  await page.keyboard.press('Escape'); // deselect: arrows then step instead of nudging
  await page.keyboard.press('ArrowLeft');
  await until(page, 'stepped back', async () => (await step(page)) === '2' || (await step(page)));
  await page.locator('[data-testid="mode-lecture"]').click();
  await page.locator('[data-testid="copy-link"]').click();
  const link = await page.locator('[data-testid="share-text"]').inputValue();
  assert.match(link, /#z=[A-Za-z0-9_-]+&step=2&preset=lab-6-2&mode=lecture$/);
  const again = await openPage(app.browser, link, { viewport: VIEWPORTS.projector });
  t.after(() => again.close());
  await again.page.locator('[data-testid="timeline"]').waitFor();
  assert.equal(await again.page.locator('[data-testid="app"]').getAttribute('data-mode'), 'lecture');
  assert.equal(await step(again.page), '2');
  assert.equal(await again.page.locator('[data-testid="element"][data-id="2"]').getAttribute('data-ts'), ts);
  assert.equal(await again.page.locator('[data-testid="element"]').count(), 4);
  // The preset's units came along: dollars in the narration.
  assert.match(await again.page.locator('[data-testid="narration"]').textContent(), /\$/);
  // The embed code is an iframe in embed mode (copied from the normal view).
  await page.locator('[data-testid="mode-normal"]').click();
  await page.locator('[data-testid="copy-embed"]').click();
  await until(page, 'embed code', async () => (await page.locator('[data-testid="share-box"]').getAttribute('data-what')) === 'embed');
  const code = await page.locator('[data-testid="share-text"]').inputValue();
  assert.match(code, /^<iframe src="[^"]+#z=[^"]+&amp;mode=embed" width="700" height="450"/);
  assert.deepEqual(app.pageErrors, []);
  assert.deepEqual(again.pageErrors, []);
});

test('the example lab page loads its four iframes, each at its preset and step in embed mode', async (t) => {
  const app = await openApp({ path: 'lab-example.html', waitFor: 'iframe', viewport: { width: 900, height: 1000 } });
  t.after(() => app.close());
  const { page } = app;
  const frames = page.locator('iframe');
  const want = [
    ['Lab 6.1', '2'],
    ['Lab 6.2', '3'],
    ['Lab 6.3', '4'],
    ['Lab 6.4', '5'],
  ];
  assert.equal(await frames.count(), want.length);
  for (let i = 0; i < want.length; i += 1) {
    const frame = page.frameLocator('iframe').nth(i);
    await frame.locator('[data-testid="narration"]').waitFor({ timeout: 15000 });
    assert.equal(await frame.locator('[data-testid="app"]').getAttribute('data-mode'), 'embed');
    assert.match(await frame.locator('[data-testid="embed-bar"]').textContent(), new RegExp(want[i][0]));
    assert.equal(await frame.locator('[data-testid="playhead"]').getAttribute('data-step'), want[i][1]);
    assert.ok((await frame.locator('[data-testid="element"]').count()) > 0);
  }
  assert.deepEqual(app.pageErrors, []);
  assert.deepEqual(app.externalRequests, []);
});

test('"why?": a click on an element, a window or a timer explains its state', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-3&step=end' });
  t.after(() => app.close());
  const { page } = app;
  const click = async (locator) => {
    const b = await locator.boundingBox();
    await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  };
  const pop = page.locator('[data-testid="why-popover"]');
  // Element 6 (10:00:50) went to the side output: the two tests Flink applies.
  await click(page.locator('[data-testid="element"][data-id="6"]'));
  await pop.waitFor();
  assert.equal(await pop.getAttribute('data-kind'), 'element');
  assert.match(await page.locator('[data-testid="why-summary"]').textContent(), /side output/);
  assert.ok((await page.locator('[data-testid="why-reasons"] li').count()) >= 2);
  await page.keyboard.press('Escape');
  await pop.waitFor({ state: 'detached' });
  // A window.
  await click(page.locator('[data-testid="window"]').first());
  await pop.waitFor();
  assert.equal(await pop.getAttribute('data-kind'), 'window');
  assert.ok((await page.locator('[data-testid="why-summary"]').textContent()).length > 20);
  await page.locator('[data-testid="why-close"]').click();
  await pop.waitFor({ state: 'detached' });
  // A timer (lab 6.2 at step 3: the pending cleanup timer).
  await openHash(page, '#preset=lab-6-2&step=3', 'Lab 6.2');
  // The trigger timer of [10:01, 10:02) at 10:01:59.999, away from the watermark line.
  await click(page.locator('[data-testid="timer"][data-time="1767261719999"]'));
  await pop.waitFor();
  assert.equal(await pop.getAttribute('data-kind'), 'timer');
  assert.match(await page.locator('[data-testid="why-summary"]').textContent(), /timer/i);
  assert.deepEqual(app.pageErrors, []);
});

test('"why?" explains the scenario being edited: it follows a drag of a small scenario, and is made again after the drop and a nudge', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-3&step=end' });
  t.after(() => app.close());
  const { page } = app;
  const pop = page.locator('[data-testid="why-popover"]');
  const summary = page.locator('[data-testid="why-summary"]');
  const before = page.locator('[data-testid="why-before"]');
  const six = page.locator('[data-testid="element"][data-id="6"]');
  const centre = async () => {
    const b = await six.boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  // What a fresh "why?" on element 6 says: closed, and asked again by a click.
  const fresh = async () => {
    await page.keyboard.press('Escape');
    await pop.waitFor({ state: 'detached' });
    const [x, y] = await centre();
    await page.mouse.click(x, y);
    await pop.waitFor();
    return summary.textContent();
  };
  let [x, y] = await centre();
  await page.mouse.click(x, y);
  await pop.waitFor();
  const late = await summary.textContent();
  assert.match(late, /side output/);
  assert.equal(await before.count(), 0, 'made of the scenario on show');
  // Dragged later, past the watermark: a small scenario's explanation follows the pointer (a
  // drag of more than 500 elements keeps the one from before it: scale.test.mjs).
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let k = 1; k <= 10; k++) await page.mouse.move(x + 30 * k, y);
  await until(page, 'the explanation follows the drag', () => summary.textContent(), (v) => !/side output/.test(v));
  assert.equal(await before.count(), 0);
  await page.mouse.up();
  // Let go: of the dropped element, as a fresh "why?" explains it.
  await until(page, 'the drop run', () => page.locator('[data-testid="run-status"]').getAttribute('data-state'), (v) => v === 'done');
  const dropped = await summary.textContent();
  assert.doesNotMatch(dropped, /side output/);
  assert.equal(await fresh(), dropped);
  // A nudge by the arrow keys (on the focused element) with the popover open: explained again.
  await six.focus();
  await page.keyboard.press('ArrowLeft');
  await until(page, 'the explanation made again after the nudge', () => summary.textContent(), (v) => v !== dropped);
  const nudged = await summary.textContent();
  assert.equal(await fresh(), nudged);
  assert.deepEqual(app.pageErrors, []);
});

test('import: a broken file is reported next to the control and nothing is lost; a good one loads', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&step=3' });
  t.after(() => app.close());
  const { page } = app;
  const before = await page.locator('[data-testid="element"]').evaluateAll((e) => e.map((x) => x.dataset.ts).join());
  await page.locator('[data-testid="import-file"]').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"assigner": {"kind": "tumbling"}, "input": []}'),
  });
  const err = page.locator('[data-testid="import-error"]');
  await err.waitFor();
  assert.match(await err.textContent(), /broken\.json: .*size/);
  assert.equal(await page.locator('[data-testid="element"]').evaluateAll((e) => e.map((x) => x.dataset.ts).join()), before);
  assert.equal(await step(page), '3');
  // Export the scenario as JSON, then import it back.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-json"]').click()]);
  const json = await readFile(await download.path(), 'utf8');
  assert.equal(JSON.parse(json).input.length, 4);
  await page.locator('[data-testid="import-file"]').setInputFiles({ name: 'lab.json', mimeType: 'application/json', buffer: Buffer.from(json) });
  await err.waitFor({ state: 'detached' });
  assert.equal(await page.locator('[data-testid="element"]').count(), 4);
  assert.deepEqual(app.pageErrors, []);
});

test('the canvas exported as SVG opens as a valid image, and as PNG', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&step=4' });
  t.after(() => app.close());
  const { page } = app;
  const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-svg"]').click()]);
  assert.match(svgDownload.suggestedFilename(), /^lab-6-2-step-4\.svg$/);
  const svg = await readFile(await svgDownload.path(), 'utf8');
  const checked = await page.evaluate(async (text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const parseError = doc.getElementsByTagName('parsererror').length;
    const img = new Image();
    img.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    await img.decode();
    // The page draws the scene in several <svg>s (backend.rs: tiles); the export is one, with
    // every element, window and timer, in the page's draw order: bands under marbles, the
    // watermark over both.
    const all = [...doc.documentElement.querySelectorAll('*')];
    const first = (id) => all.findIndex((e) => e.getAttribute('data-testid') === id);
    const count = (root, id) => root.querySelectorAll(`[data-testid="${id}"]`).length;
    const page = document.querySelector('[data-testid="canvas"]');
    return {
      root: doc.documentElement.nodeName, parseError, width: img.naturalWidth, height: img.naturalHeight,
      counts: ['element', 'window', 'timer', 'watermark'].map((id) => [count(doc, id), count(page, id)]),
      order: [first('window'), first('element'), first('watermark')],
      nested: doc.documentElement.querySelectorAll('svg').length,
    };
  }, svg);
  for (const [inFile, onPage] of checked.counts) assert.ok(inFile === onPage && inFile > 0, JSON.stringify(checked.counts));
  const [band, marble, watermark] = checked.order;
  assert.ok(band < marble && marble < watermark, `draw order ${checked.order}`);
  assert.equal(checked.nested, 0, "one <svg>, its layers' children put together");
  assert.equal(checked.root, 'svg');
  assert.equal(checked.parseError, 0);
  assert.ok(checked.width > 300 && checked.height > 100, JSON.stringify(checked));
  assert.match(svg, /data-testid="element"/);
  const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-png"]').click()]);
  const png = await readFile(await pngDownload.path());
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
  assert.ok(png.length > 5000);
  assert.deepEqual(app.pageErrors, []);
});
