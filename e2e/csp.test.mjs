// Security for embedding (issue 8): the Content-Security-Policy in index.html is in force, the app
// boots and works under it without a single violation, and no request leaves the page's origin
// during a whole session (load, drag, every tab, the charts and the code, the "why?" popover, the
// quiz, copy link, export SVG/PNG/JSON).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startServer, until } from './harness.mjs';

/** A page with a `securitypolicyviolation` recorder installed before any of the app's scripts. */
async function openRecorded(path) {
  const server = process.env.TIDEMARK_URL ? null : await startServer();
  const base = process.env.TIDEMARK_URL || server.url;
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.origin });
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  const page = await context.newPage();
  const requests = [];
  const consoleErrors = [];
  const pageErrors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(url.href, { waitUntil: 'load' });
  await page.locator('[data-testid="timeline"]').waitFor({ state: 'visible', timeout: 15000 });
  const close = async () => {
    await browser.close();
    if (server) await server.close();
  };
  return { page, origin: url.origin, requests, consoleErrors, pageErrors, close };
}

/** Requests to anything but the page's own origin (data: and same-origin blob: URLs stay in the page). */
function leaving(requests, origin) {
  return requests.filter((u) => {
    if (u.startsWith('data:')) return false;
    if (u.startsWith('blob:')) return !u.startsWith(`blob:${origin}/`);
    return new URL(u).origin !== origin;
  });
}

test('the CSP meta tag is in force: no inline script, wasm allowed, injected inline script blocked', async (t) => {
  const app = await openRecorded('#preset=lab-6-2&step=3');
  t.after(() => app.close());
  const { page } = app;
  const csp = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content);
  assert.ok(csp, 'no Content-Security-Policy meta tag');
  for (const part of ["default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self'", "object-src 'none'", "base-uri 'none'"]) {
    assert.ok(csp.includes(part), `the CSP lacks ${part}: ${csp}`);
  }
  assert.ok(!/unsafe-eval'|unsafe-inline'\s*;?\s*(script|$)/.test(csp.replace("'wasm-unsafe-eval'", '')), csp);
  assert.equal(await page.evaluate(() => document.querySelectorAll('script:not([src])').length), 0, 'an inline <script>');
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'violations while booting');
  // The policy is enforced, not just present: an injected inline script does not run.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true;';
    document.head.append(s);
  });
  await until(page, 'the violation is reported', async () => (await page.evaluate(() => window.__violations.length)) > 0);
  assert.equal(await page.evaluate(() => window.__injected), undefined);
  assert.match((await page.evaluate(() => window.__violations))[0], /^script-src/);
  assert.deepEqual(app.pageErrors, []);
});

test('a whole session under the CSP: no violation, no request leaves the origin', async (t) => {
  const app = await openRecorded('#preset=lab-6-2&step=3');
  t.after(() => app.close());
  const { page } = app;
  // Drag an element with the real mouse.
  const el = page.locator('[data-testid="element"][data-id="2"]');
  const before = await el.getAttribute('data-ts');
  const box = await el.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 50, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  assert.notEqual(await el.getAttribute('data-ts'), before);
  await page.keyboard.press('Escape');
  // Every tab of the side panel.
  for (const tab of ['output', 'sinks', 'charts', 'code', 'config', 'log']) {
    await page.locator(`[data-testid="tab-${tab}"]`).click();
    if (tab === 'sinks') await page.locator('[data-testid="sinks-panel"]').waitFor();
    if (tab === 'charts') {
      await until(page, 'charts drawn', async () => (await page.locator('canvas[data-chart="state"]').getAttribute('data-drawn-step')) === '3');
    }
    if (tab === 'code') {
      await page.locator('[data-testid="code-text"]').waitFor();
      await page.locator('[data-testid="code-tab-sql"]').click();
      await until(page, 'sql', async () => (await page.locator('[data-testid="code-text"]').getAttribute('data-dialect')) === 'sql');
      await page.locator('[data-testid="copy-code"]').click();
    }
    if (tab === 'config') await page.locator('[data-testid="config"]').waitFor();
    if (tab === 'log') await page.locator('[data-testid="step-log"]').waitFor();
  }
  // "Why?" on a window, the quiz, the 2-D view, a copied link.
  await page.locator('[data-testid="window"]').first().click();
  await page.locator('[data-testid="why-popover"]').waitFor();
  await page.locator('[data-testid="why-close"]').click();
  await page.locator('[data-testid="quiz-toggle"]').click();
  await page.locator('[data-testid="quiz-toggle"]').click();
  await page.locator('[data-testid="toggle-2d"]').click();
  await page.locator('[data-testid="two-d"]').waitFor();
  await page.locator('[data-testid="toggle-2d"]').click();
  await page.locator('[data-testid="copy-link"]').click();
  assert.match(await page.locator('[data-testid="share-text"]').inputValue(), /#z=/);
  // Exports: the canvas as SVG and PNG (an <img> from a blob: URL drawn on a canvas), the scenario as JSON.
  for (const what of ['svg', 'png', 'json']) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-testid="export-${what}"]`).click()]);
    assert.ok(download.suggestedFilename().endsWith(`.${what}`), download.suggestedFilename());
  }
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'CSP violations');
  assert.deepEqual(leaving(app.requests, app.origin), [], 'requests that left the origin');
  assert.ok(app.requests.some((u) => /tidemark-web-[0-9a-f]+_bg\.wasm$/.test(u)), 'the main .wasm request was not seen');
  // The Code and Charts tabs loaded the second module, from the same origin.
  assert.ok(app.requests.some((u) => /tidemark-extras-[0-9a-f]+_bg\.wasm$/.test(u)), 'the extras .wasm request was not seen');
  assert.deepEqual(app.consoleErrors, []);
  assert.deepEqual(app.pageErrors, []);
});
