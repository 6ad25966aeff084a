// The described timeline (TIMELINE_CONTRACT.md §4) for a keyboard and a screen-reader user: every
// object of a preset is reached with the keys alone and has an accessible name of its own; the
// accessibility tree of the canvas says what a screen reader reads; with the keyboard only, a
// student moves an element across a window boundary and the narration (a live region) says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';
import { scenarioPath } from './fixtures.mjs';

/** The focused node: its focus key, whether it is on the canvas, its accessible name (<title>). */
const focused = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return {
      key: a?.getAttribute('data-focus') ?? null,
      inCanvas: !!a?.closest('[data-testid="canvas"]'),
      name: a?.querySelector(':scope > title')?.textContent ?? '',
    };
  });

/** Tab from the top of the page until the focus is on the canvas; resolves to the presses it took. */
async function tabIntoCanvas(page) {
  await page.locator('body').focus();
  for (let i = 1; i <= 80; i++) {
    await page.keyboard.press('Tab');
    if ((await focused(page)).inCanvas) return i;
  }
  assert.fail('Tab never reached the canvas');
}

/** Presses `key` until the focus stops moving; resolves to the focus keys and names seen. */
async function walk(page, key, seen) {
  for (let i = 0; i < 400; i++) {
    const before = (await focused(page)).key;
    await page.keyboard.press(key);
    const f = await focused(page);
    seen.set(f.key, f.name);
    if (f.key === before) return;
  }
  assert.fail(`${key} never reached the end of the lane`);
}

/**
 * Lab 6.3 at its end, in the course's numbers: elements 1 and 2 ($1.50, $2.60) in the main firing
 * of 10:00–10:01 ($4.10), element 4 ($0.21) in its late firing ($4.31), element 3 in 10:01–10:02,
 * element 5 in 10:04–10:05 (fired by the end of input), and element 6, "the record at 10:03:40"
 * (event time 10:00:50), too late for 10:00–10:01: the side output.
 */
const LAB_6_3_NAMES = [
  'Element 1, key acme, event time 10:00:05, value $1.50: main firing of window 10:00–10:01',
  'Element 2, key acme, event time 10:00:40, value $2.60: main firing of window 10:00–10:01',
  'Element 3, key acme, event time 10:01:21, value $1.00: main firing of window 10:01–10:02',
  'Element 4, key acme, event time 10:00:45, value $0.21: late firing of window 10:00–10:01',
  'Element 5, key acme, event time 10:04, value $0.75: main firing of window 10:04–10:05',
  'Element 6, key acme, event time 10:00:50, value $0.30: side output: too late for window 10:00–10:01',
  'Element 6, event time 10:00:50, in the side output lane: too late for window 10:00–10:01',
];

for (const [preset, unit, expected] of [
  ['lab-6-3', /value \$\d+\.\d\d:/, LAB_6_3_NAMES],
  // Sliding windows: an element's name lists each of its windows.
  ['model-latency-sliding', /value \d+ ms: main firing of windows \S+–\S+, \S+–\S+/, []],
  ['slowest-partition', /value \d+:/, []],
]) {
  test(`every object of ${preset} is reached by the keys alone and has a name of its own`, async (t) => {
    const app = await openApp({ path: `#preset=${preset}&step=end` });
    t.after(() => app.close());
    const { page } = app;
    await tabIntoCanvas(page);
    const seen = new Map();
    const first = await focused(page);
    seen.set(first.key, first.name);
    // Up to the top lane (the partition tracks, when there are), then each lane from its first
    // object to its last, then ↓ to the next lane, until the last lane.
    for (let up = 0; up < 20; up++) {
      const before = (await focused(page)).key;
      await page.keyboard.press('ArrowUp');
      const f = await focused(page);
      seen.set(f.key, f.name);
      if (f.key === before) break;
    }
    for (let lane = 0; lane < 20; lane++) {
      await walk(page, '[', seen);
      await walk(page, ']', seen);
      const before = await focused(page);
      await page.keyboard.press('ArrowDown');
      const after = await focused(page);
      seen.set(after.key, after.name);
      if (after.key === before.key) break;
    }
    const all = await page.locator('[data-testid="canvas"] [data-focus]').evaluateAll((els) =>
      els.map((e) => ({ key: e.getAttribute('data-focus'), name: e.querySelector(':scope > title')?.textContent ?? '' })),
    );
    assert.ok(all.length >= 10, `${all.length} focusable objects`);
    const missed = all.filter((o) => !seen.has(o.key)).map((o) => o.key);
    assert.deepEqual(missed, [], 'objects the keys never reach');
    // Each name says its kind and is its own (no two objects read the same).
    const names = all.map((o) => o.name);
    for (const n of names) assert.match(n, /^(Element \d+|Window |Trigger |Cleanup |Watermark |Source partition )\S.{12,}/, n);
    assert.equal(new Set(names).size, names.length, `duplicate names: ${names.filter((n, i) => names.indexOf(n) !== i).join(' | ')}`);
    // Values in the scenario's unit, as the narration and the sinks write them ($4.31, not 431).
    assert.ok(names.some((n) => unit.test(n)), names.join('\n'));
    // Each element's name says its outcome with its window(s), as the keys reach it.
    for (const n of names.filter((x) => /^Element \d+, key /.test(x))) {
      assert.match(n, /: (main firing|early firing|late firing|side output|dropped|not yet fired|not arrived yet|discarded|evicted before firing|purged without firing|cleaned up without firing)\b.*(window|GlobalWindow)/, n);
    }
    for (const n of names.filter((x) => /^Element \d+, event time /.test(x))) {
      assert.match(n, /, in the side output lane: too late for .*window/, n);
    }
    const reached = new Set(seen.values());
    for (const n of expected) assert.ok(reached.has(n), `no object reached by the keys is named "${n}":\n${[...reached].join('\n')}`);
    assert.deepEqual(app.pageErrors, []);
  });
}

test('Lab 6.2 as the lab leaves it: the names say on time, late firing and not yet fired, with the course minute', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&step=end' });
  t.after(() => app.close());
  const { page } = app;
  const names = await page.locator('[data-testid="canvas"] [data-testid="element"]').evaluateAll((els) =>
    els.map((e) => e.querySelector(':scope > title')?.textContent ?? ''),
  );
  // The job keeps running: the watermark is 10:01:00.999, so 10:01–10:02 has not fired yet.
  assert.deepEqual(names.sort(), [
    'Element 1, key acme, event time 10:00:05, value $1.50: main firing of window 10:00–10:01',
    'Element 2, key acme, event time 10:00:40, value $2.60: main firing of window 10:00–10:01',
    'Element 3, key acme, event time 10:01:21, value $1.00: not yet fired: window 10:01–10:02',
    'Element 4, key acme, event time 10:00:45, value $0.21: late firing of window 10:00–10:01',
  ]);
  // At step 3, before element 4 arrived: its name says so.
  await page.evaluate(() => {
    location.hash = '#step=3';
  });
  await page.locator('[data-testid="element"][data-id="4"][data-outcome="not-arrived"]').waitFor({ state: 'attached' });
  assert.match(await page.locator('[data-testid="element"][data-id="4"] > title').textContent(), /: not arrived yet$/);
  assert.deepEqual(app.pageErrors, []);
});

test('the accessibility tree of a preset: the canvas is an application of named objects', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-2&step=3' });
  t.after(() => app.close());
  const { page } = app;
  const tree = await page.locator('[data-testid="canvas"]').ariaSnapshot();
  const lines = tree.split('\n').map((l) => l.trim());
  assert.match(lines[0], /^- '?application "Event-time canvas: .*Tab enters.*"/, tree);
  // One node per object, named by kind, key, times, value (in dollars) and outcome.
  const elements = lines.filter((l) => /"Element \d+, key \S+, event time [\d:.]+, value \$\d+\.\d\d: .+"/.test(l));
  const count = await page.locator('[data-testid="element"]').count();
  assert.equal(elements.length, count, tree);
  assert.ok(lines.some((l) => /"Window \[[\d:.]+, [\d:.]+\), key \S+: (open|fired|late-fired|purged)/.test(l)), tree);
  assert.ok(lines.some((l) => /"Watermark [\d:.]+/.test(l)), tree);
  // What a screen reader gets from Chromium: each object's name, and a description of its keys.
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const text = ['StaticText', 'InlineTextBox'];
  const objects = nodes.filter((n) => !n.ignored && !text.includes(n.role?.value) && /^(Element \d+, key|Window \[|Watermark [\d:])/.test(n.name?.value ?? ''));
  assert.ok(objects.length >= count + 2, `${objects.length} named objects`);
  for (const n of objects) {
    assert.ok(['button', 'image'].includes(n.role?.value), `${n.name.value}: role ${n.role?.value}`);
    assert.match(n.description?.value ?? '', /W explains|Enter edits/, `${n.name.value}: no description`);
  }
  // The step's narration is a live region next to it, with the preset's numbers in dollars.
  const narration = page.locator('[data-testid="narration"]');
  assert.equal(await narration.getAttribute('aria-live'), 'polite');
  const story = await narration.ariaSnapshot();
  assert.match(story, /region "What this step did"/);
  assert.match(story, /Step 3\//);
  assert.deepEqual(app.pageErrors, []);
});

/** Element 1 just before the end of its 10 s window, the playhead on its step. */
const EDGE = {
  name: 'e2e_edge',
  assigner: { kind: 'tumbling', size: 10000 },
  input: [{ id: 1, key: 'A', ts: 8000 }, { id: 2, key: 'A', ts: 14000 }, { wm: 30000 }],
};

test('keyboard only: Tab into the canvas, move an element across a window boundary, the narration says so', async (t) => {
  const app = await openApp({ path: scenarioPath(EDGE, 1) });
  t.after(() => app.close());
  const { page } = app;
  const headline = page.locator('[data-testid="narration"]');
  const before = await headline.textContent();
  assert.match(before, /\[0, 10000\)/, before);
  await tabIntoCanvas(page);
  let f = await focused(page);
  assert.equal(f.key, 'e:0', 'Tab enters on the first element');
  assert.match(f.name, /^Element 1, key A, event time 8000/);
  const marble = page.locator('[data-testid="element"][data-id="1"]');
  // → moves the focused element by one unit, until it is past the window's end.
  for (let i = 0; i < 40 && Number(await marble.getAttribute('data-ts')) < 10000; i++) {
    await page.keyboard.press('ArrowRight');
  }
  const ts = Number(await marble.getAttribute('data-ts'));
  assert.ok(ts >= 10000 && ts < 20000, `moved to ${ts}`);
  f = await focused(page);
  assert.equal(f.key, 'e:0', 'the focus stays on the element it moved');
  // The live region now tells the new story: the element goes to the next window.
  await page.waitForFunction(() => /\[10000, 20000\)/.test(document.querySelector('[data-testid="narration"]').textContent));
  const after = await headline.textContent();
  assert.notEqual(after, before);
  assert.doesNotMatch(after, /\[0, 10000\)/, after);
  assert.match(f.name, new RegExp(`^Element 1, key A, event time ${ts}`), 'its name says its new time');
  assert.deepEqual(app.pageErrors, []);
});
