// Colour is never the only signal (WCAG 1.4.1, 1.4.11): every outcome and window state has a shape
// or pattern of its own (src/ui/scene/glyph.rs), the palette stays apart for a deuteranope
// (Okabe–Ito), and Windows high contrast (`forced-colors: active`) keeps every object visible.
// Writes deuteranopia-1920x1080.png and forced-colors-1920x1080.png into $SHOT_DIR (default: the
// system's temporary directory) to be looked at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appBrowser, openPage, VIEWPORTS } from './harness.mjs';
import { scenarioPath } from './fixtures.mjs';

const SHOT_DIR = process.env.SHOT_DIR || tmpdir();

/** Every outcome at once: on time, a late firing, the side output, still in state (and not arrived). */
const OUTCOMES = {
  name: 'e2e_outcomes',
  assigner: { kind: 'tumbling', size: 10000 },
  allowed_lateness: 5000,
  side_output: true,
  watermarks: { kind: 'explicit' },
  input: [
    { id: 1, key: 'A', ts: 1000 },
    { wm: 12000 },
    { id: 2, key: 'A', ts: 2000 },
    { wm: 16000 },
    { id: 3, key: 'A', ts: 3000 },
    { id: 4, key: 'B', ts: 21000 },
    { id: 5, key: 'B', ts: 4000 },
  ],
};
/** The same without a side output: the late element is dropped. */
const DROPPED = { ...OUTCOMES, name: 'e2e_dropped', side_output: false };

/** Deuteranopia (Machado, Oliveira & Fernandes 2009, severity 1), on linear RGB. */
const DEUTERANOPIA = [
  [0.367322, 0.860646, -0.227968],
  [0.280085, 0.672501, 0.047413],
  [-0.01182, 0.04294, 0.968881],
];
const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const srgb = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
const parse = (css) => css.match(/[\d.]+/g).slice(0, 3).map(Number);
function deuteranope(css) {
  const l = parse(css).map((v) => lin(v / 255));
  return DEUTERANOPIA.map((row) => 255 * srgb(Math.min(1, Math.max(0, row[0] * l[0] + row[1] * l[1] + row[2] * l[2]))));
}
const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** The commands of the glyphs' paths (src/ui/scene/glyph.rs). */
const [CIRCLE, DIAMOND, TRIANGLE, SQUARE] = ['MaaZ', 'MlllZ', 'MhlZ', 'MhvhZ'];

/** Per outcome on the canvas: the body's shape, the commands of its path, its fill and stroke. */
const glyphs = (page) =>
  page.locator('[data-testid="element"], [data-testid="side-output-element"]').evaluateAll((els) =>
    els.map((e) => {
      const body = e.querySelector('.body');
      const cs = getComputedStyle(body);
      return {
        outcome: e.dataset.outcome ?? 'side-output-lane',
        commands: (body.getAttribute('d') || body.tagName).replace(/[^A-Za-z]/g, ''),
        fill: cs.fill,
        stroke: cs.stroke,
      };
    }),
  );

async function open(t, { forcedColors } = {}) {
  const { base, browser } = await appBrowser(t);
  const app = await openPage(browser, 'about:blank', { viewport: VIEWPORTS.projector });
  if (forcedColors) await app.page.emulateMedia({ forcedColors });
  // Step 7 by default: after the input, before the end of input fires what is still in state.
  const go = async (scenario, step = 7) => {
    await app.page.goto('about:blank');
    await app.page.goto(new URL(scenarioPath(scenario, step), base).href);
    await app.page.locator('[data-testid="run-status"][data-state="done"]').waitFor({ state: 'attached' });
    await app.page.locator('[data-testid="element"]').first().waitFor();
  };
  return { ...app, go };
}

test('outcome glyphs differ in shape, not only in fill; window states carry a mark', async (t) => {
  const { page, go, pageErrors } = await open(t);
  await go(OUTCOMES);
  const byOutcome = new Map();
  for (const g of await glyphs(page)) byOutcome.set(g.outcome, g);
  await go(DROPPED);
  for (const g of await glyphs(page)) if (g.outcome === 'dropped') byOutcome.set(g.outcome, g);
  const four = ['on-time', 'late-firing', 'side-output', 'dropped'].map((o) => {
    assert.ok(byOutcome.has(o), `no ${o} element in ${[...byOutcome.keys()]}`);
    return byOutcome.get(o);
  });
  // Four outcomes, four geometries: the paths' commands differ (circle: two arcs, diamond: three
  // lines, triangle: a side and a line, square: three sides).
  assert.deepEqual(four.map((g) => g.commands), [CIRCLE, DIAMOND, TRIANGLE, SQUARE], JSON.stringify(four));
  assert.equal(byOutcome.get('side-output-lane').commands, TRIANGLE, 'the side output lane draws them as triangles too');
  // In state: a hollow ring; not arrived: a dashed one (a pattern, not a colour).
  await go(OUTCOMES);
  const pending = (await glyphs(page)).find((g) => g.outcome === 'pending');
  assert.ok(pending, 'an element in state');
  assert.equal(pending.fill, 'rgb(255, 255, 255)');
  // A fired window is marked with a circle, a late-fired one with a diamond, an open one not at
  // all; a cleaned-up one is dashed. (Steps 2, 3 and 7: fired, fired late, cleaned up.)
  const marks = {};
  for (const step of [2, 3, 7]) {
    await go(OUTCOMES, step);
    const seen = await page.locator('[data-testid="window"]').evaluateAll((ws) =>
      ws.map((w) => [w.dataset.state, w.querySelector('.state-mark')?.getAttribute('d').replace(/[^A-Za-z]/g, '') ?? getComputedStyle(w.querySelector('.band')).strokeDasharray]),
    );
    Object.assign(marks, Object.fromEntries(seen));
  }
  assert.equal(marks.fired, CIRCLE, JSON.stringify(marks));
  assert.equal(marks['late-fired'], DIAMOND, JSON.stringify(marks));
  assert.equal(marks.open, 'none', 'an open window is plain');
  assert.notEqual(marks.cleaned, 'none', 'a cleaned-up window is dashed');
  assert.deepEqual(pageErrors, []);
});

test('the outcome colours stay apart for a deuteranope (screenshot in a simulation)', async (t) => {
  const { page, go, pageErrors } = await open(t);
  await go(OUTCOMES);
  const g = new Map((await glyphs(page)).map((x) => [x.outcome, x]));
  const colours = {
    'on-time': g.get('on-time').fill,
    'late-firing': g.get('late-firing').fill,
    'side-output': g.get('side-output').fill,
    pending: g.get('pending').stroke,
  };
  const names = Object.keys(colours);
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const d = distance(deuteranope(colours[names[i]]), deuteranope(colours[names[j]]));
      assert.ok(d > 60, `${names[i]} ${colours[names[i]]} and ${names[j]} ${colours[names[j]]} are ${d.toFixed(0)} apart for a deuteranope`);
    }
  }
  // The whole page through the same matrix (an SVG filter on <html>), for a person to look at.
  await page.goto(page.url().replace(/#.*/, '') + '#preset=lab-6-2&step=end');
  await page.locator('[data-testid="element"]').first().waitFor();
  await page.evaluate((m) => {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('width', '0');
    svg.setAttribute('height', '0');
    svg.style.position = 'absolute';
    const filter = document.createElementNS(ns, 'filter');
    filter.id = 'deuteranopia';
    const matrix = document.createElementNS(ns, 'feColorMatrix');
    matrix.setAttribute('type', 'matrix');
    matrix.setAttribute('values', m.map((r) => `${r.join(' ')} 0 0`).join(' ') + ' 0 0 0 1 0');
    filter.append(matrix);
    svg.append(filter);
    document.body.append(svg);
    document.documentElement.style.filter = 'url(#deuteranopia)';
  }, DEUTERANOPIA);
  await page.screenshot({ path: join(SHOT_DIR, 'deuteranopia-1920x1080.png') });
  assert.deepEqual(pageErrors, []);
});

test('forced colors (Windows high contrast): marbles, windows, timers and the watermark stay visible', async (t) => {
  const { page, go, pageErrors } = await open(t, { forcedColors: 'active' });
  await go(OUTCOMES);
  assert.equal(await page.evaluate(() => matchMedia('(forced-colors: active)').matches), true);
  await page.screenshot({ path: join(SHOT_DIR, 'forced-colors-1920x1080.png') });
  const seen = await page.evaluate(() => {
    const bg = getComputedStyle(document.querySelector('.canvas-box')).backgroundColor;
    const paints = (el) => {
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.opacity === '0' || cs.display === 'none') return [];
      return [cs.fill, cs.stroke].filter((c) => c && c !== 'none' && !/rgba\(.*, 0\)$/.test(c));
    };
    // Drawn in a colour other than what is under it: the canvas, or for a label its shape.
    const visible = (el, under) => {
      const back = under ? getComputedStyle(under).fill : bg;
      return paints(el).some((c) => c !== back);
    };
    const pick = (sel) => [...document.querySelectorAll(sel)];
    return {
      bg,
      marbles: pick('[data-testid="element"] .body, [data-testid="side-output-element"] .body').map((e) => visible(e)),
      bands: pick('[data-testid="window"] .band').map((e) => visible(e)),
      timers: pick('[data-testid="timer"] > :first-child').map((e) => visible(e)),
      watermark: pick('.wm-line, .wm-flag').map((e) => visible(e)),
      'marble labels': pick('.marble-text').map((e) => visible(e, e.parentElement.querySelector('.body'))),
      'watermark label': pick('.wm-text').map((e) => visible(e, e.parentElement.querySelector('.wm-flag'))),
      'band labels': pick('.band-label').map((e) => visible(e, e.parentElement.querySelector('.band'))),
    };
  });
  for (const [what, list] of Object.entries(seen)) {
    if (what === 'bg') continue;
    assert.ok(list.length > 0, `no ${what}`);
    assert.ok(list.every(Boolean), `${what}: ${JSON.stringify(list)} (background ${seen.bg})`);
  }
  assert.deepEqual(pageErrors, []);
});
