// Sound cues (issue 18, "Beyond the anchors: sound"): a toggle in the playback bar, off by default,
// focusable and named, kept across reloads; the `sound-cues` hook lists the cues of the step at the
// playhead (main firing, late firing, side output); with sound on, each step the playhead lands on
// plays its cue set once through Web Audio. The oscillators are counted by a wrapper around
// AudioContext installed before the app starts, so nothing depends on hearing anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, runSettled, startServer, until } from './harness.mjs';

async function open(hash) {
  const server = process.env.TIDEMARK_URL ? null : await startServer();
  const base = process.env.TIDEMARK_URL || server.url;
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 700, height: 450 } });
  await context.addInitScript(() => {
    window.__tones = [];
    const Base = window.AudioContext;
    window.AudioContext = class extends Base {
      createOscillator() {
        const osc = super.createOscillator();
        const start = osc.start.bind(osc);
        osc.start = (when) => {
          window.__tones.push(`${osc.type} ${osc.frequency.value}`);
          return start(when);
        };
        return osc;
      }
    };
  });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(new URL(hash, base).href);
  await page.locator('[data-testid="timeline"]').waitFor();
  const close = async () => {
    await browser.close();
    if (server) await server.close();
  };
  return { page, pageErrors, close };
}

const cues = (page) => page.locator('[data-testid="sound-cues"]');
const tones = (page) => page.evaluate(() => window.__tones.splice(0));
async function atStep(page, n) {
  await until(page, `step ${n}`, async () => (await cues(page).getAttribute('data-step')) === String(n));
  return cues(page).getAttribute('data-cues');
}

test('sound: off by default, a named toggle kept across reloads; one cue set per step, from the trace', async (t) => {
  const { page, pageErrors, close } = await open('#preset=lab-6-1&mode=embed&step=2');
  t.after(close);
  const toggle = page.locator('[data-testid="sound-toggle"]');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  // The name carries the visible state word (WCAG 2.5.3, label in name); aria-pressed carries it too.
  assert.equal(await toggle.getAttribute('aria-label'), 'Sound cues off');
  assert.equal(await cues(page).getAttribute('data-sound'), 'off');
  // Off: the cues are listed, nothing plays.
  await page.locator('[data-testid="step-forward"]').click();
  assert.equal(await atStep(page, 3), 'main');
  assert.deepEqual(await tones(page), []);
  // The keyboard reaches the toggle and turns it on.
  await toggle.focus();
  await page.keyboard.press('Space');
  await until(page, 'sound on', async () => (await toggle.getAttribute('aria-pressed')) === 'true');
  assert.match(await toggle.textContent(), /on/);
  assert.equal(await toggle.getAttribute('aria-label'), 'Sound cues on');
  // Lab 6.1, step 3: the watermark passes 10:00:59.999, the main firing's tone plays once.
  await page.locator('[data-testid="step-back"]').click();
  assert.equal(await atStep(page, 2), '');
  await page.locator('[data-testid="step-forward"]').click();
  assert.equal(await atStep(page, 3), 'main');
  await until(page, 'the main tone', async () => (await page.evaluate(() => window.__tones.length)) > 0);
  assert.deepEqual(await tones(page), ['sine 880']);
  // Lab 6.2, step 4: a late firing; Lab 6.3, step 6: the late side output. Distinct tones.
  await page.evaluate(() => (location.hash = '#preset=lab-6-2&mode=embed&step=3'));
  await atStep(page, 3);
  await runSettled(page);
  await tones(page);
  await page.locator('[data-testid="step-forward"]').click();
  assert.equal(await atStep(page, 4), 'late');
  await until(page, 'the late tone', async () => (await page.evaluate(() => window.__tones.length)) >= 2);
  assert.deepEqual(await tones(page), ['triangle 660', 'triangle 495']);
  await page.evaluate(() => (location.hash = '#preset=lab-6-3&mode=embed&step=5'));
  await atStep(page, 5);
  await runSettled(page);
  await tones(page);
  await page.locator('[data-testid="step-forward"]').click();
  assert.equal(await atStep(page, 6), 'side-output');
  await until(page, 'the side-output tone', async () => (await page.evaluate(() => window.__tones.length)) > 0);
  assert.deepEqual(await tones(page), ['square 220']);
  // A jump is one step landed on: End plays the last step's cues only.
  await page.locator('[data-testid="first"]').click();
  await atStep(page, 0);
  await tones(page);
  await page.locator('[data-testid="last"]').click();
  const endCues = await atStep(page, 7);
  const expected = { main: ['sine 880'], late: ['triangle 660', 'triangle 495'], 'side-output': ['square 220'], dropped: ['sawtooth 130'] };
  const want = endCues.split(' ').filter(Boolean).flatMap((c) => expected[c]);
  await until(page, 'the end tones', async () => (await page.evaluate(() => window.__tones.length)) >= want.length);
  assert.deepEqual(await tones(page), want);
  // Kept across a reload.
  await page.reload();
  await page.locator('[data-testid="timeline"]').waitFor();
  assert.equal(await page.locator('[data-testid="sound-toggle"]').getAttribute('aria-pressed'), 'true');
  assert.deepEqual(pageErrors, []);
});
