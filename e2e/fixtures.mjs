// Scenario links and small waits shared by persist.test.mjs and hostile.test.mjs.
import assert from 'node:assert/strict';

export const b64url = (bytes) => Buffer.from(bytes).toString('base64url');
/** `#scenario=<base64url JSON>&step=…` for a scenario object. */
export const scenarioPath = (scenario, step) => `#scenario=${b64url(Buffer.from(JSON.stringify(scenario), 'utf8'))}&step=${step}`;

/** A user's own scenario: 10 s tumbling windows, three elements of key A, a watermark item. */
export const MINE = {
  name: 'e2e_mine',
  assigner: { kind: 'tumbling', size: 10000 },
  input: [{ id: 1, key: 'A', ts: 8000 }, { id: 2, key: 'A', ts: 12000 }, { id: 3, key: 'A', ts: 24000 }, { wm: 29999 }],
};

/** The marbles as `id@ts,…` (what the canvas shows of the input). */
export const shownInput = (page) =>
  page.locator('[data-testid="element"]').evaluateAll((els) => els.map((e) => `${e.dataset.id}@${e.dataset.ts}`).join());

/** Polls `read()` once per animation frame until `done(value)`, for up to 5 s; returns the value. */
export async function until(page, read, done, what) {
  const deadline = Date.now() + 5000;
  let now = await read();
  while (!done(now) && Date.now() < deadline) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    now = await read();
  }
  assert.ok(done(now), `${what} (last seen: ${String(now).slice(0, 200)})`);
  return now;
}
