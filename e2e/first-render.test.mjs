// Time to first render on localhost (issue 8), reported: from navigation start (the Performance API's
// time origin) to the first SVG axis in the DOM, seen by a MutationObserver installed before any of
// the page's scripts, next to first contentful paint and when the main .wasm finished downloading.
// Printed as JSON (`first render: {...}`, read by scripts/bench); asserted only against a sanity bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startServer } from './harness.mjs';

test('time to first render: navigation start to the first SVG axis', async (t) => {
  const server = process.env.TIDEMARK_URL ? null : await startServer();
  const base = process.env.TIDEMARK_URL || server.url;
  const browser = await launchBrowser();
  t.after(async () => {
    await browser.close();
    if (server) await server.close();
  });
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript(() => {
      const seen = () => {
        if (!window.__axisAt && document.querySelector('svg [data-testid="axis"]')) {
          window.__axisAt = performance.now();
          performance.mark('tidemark-first-axis');
        }
      };
      new MutationObserver(seen).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(base, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__axisAt, null, { timeout: 15000 });
    const m = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      const wasm = performance.getEntriesByType('resource').find((r) => /tidemark-web-[0-9a-f]+_bg\.wasm$/.test(r.name));
      return {
        axisMs: window.__axisAt,
        fcpMs: fcp ? fcp.startTime : null,
        domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : null,
        wasmLoadedMs: wasm ? wasm.responseEnd : null,
      };
    });
    assert.deepEqual(errors, []);
    runs.push(m);
    await context.close();
  }
  const r = (v) => (v === null ? null : Math.round(v));
  const median = (k) => r([...runs.map((x) => x[k])].sort((a, b) => a - b)[1]);
  const result = {
    runs: runs.length,
    axisMs: median('axisMs'),
    fcpMs: median('fcpMs'),
    domContentLoadedMs: median('domContentLoadedMs'),
    wasmLoadedMs: median('wasmLoadedMs'),
    axisMsEach: runs.map((x) => r(x.axisMs)),
  };
  console.log(`first render: ${JSON.stringify(result)}`);
  assert.ok(result.axisMs > 0 && result.axisMs < 15000, `first axis at ${result.axisMs} ms`);
});
