// End-to-end harness for Tidemark: a static server over dist/, Debian's Chromium driven by
// playwright-core, and a page that records console errors and non-local requests.
// API and examples: e2e/README.md. Never `playwright install`: the browser is /usr/bin/chromium.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';

export const REPO_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const DIST_DIR = join(REPO_ROOT, 'dist');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
/** The lab-page iframe, a laptop, a projector. */
export const VIEWPORTS = {
  embed: { width: 700, height: 450 },
  laptop: { width: 1400, height: 900 },
  projector: { width: 1920, height: 1080 },
};

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `root` (default dist/) over HTTP on `host` (default 127.0.0.1) and `port` (default 0: a
 * free port). Resolves to { url, port, close }, where url ends with '/'.
 */
export async function startServer({ root = DIST_DIR, host = '127.0.0.1', port = 0 } = {}) {
  const base = resolve(root);
  await stat(join(base, 'index.html')).catch(() => {
    throw new Error(`${base}/index.html is missing: build the bundle first (trunk build --release)`);
  });
  const server = createServer(async (req, res) => {
    try {
      const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(base, pathname));
      if (file !== base && !file.startsWith(base + sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if (pathname.endsWith('/')) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': MIME[extname(file)] || 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, ok);
  });
  const actual = server.address().port;
  const url = `http://${host}:${actual}/`;
  return {
    url,
    port: actual,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

/** Launches headless Debian Chromium with the flags this machine needs. */
export function launchBrowser(options = {}) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    ...options,
  });
}

function isLocal(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return true;
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol)) return true; // data:, blob:, about:
  return ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
}

/**
 * Opens `url` in a fresh context of `browser` with `viewport` ({width, height}, default laptop).
 * Every non-local request is recorded and aborted, so a test can assert the app is offline-clean.
 * Resolves to { page, context, consoleErrors, pageErrors, externalRequests, close }.
 */
export async function openPage(browser, url, { viewport = VIEWPORTS.laptop, deviceScaleFactor = 1, initScript } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  // A script run in the page before its own (Playwright's addInitScript), e.g. to catch the wasm
  // instance as it starts.
  if (initScript) await context.addInitScript(initScript);
  const consoleErrors = [];
  const pageErrors = [];
  const externalRequests = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (isLocal(u)) return route.continue();
    externalRequests.push(u);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  await page.goto(url, { waitUntil: 'load' });
  return { page, context, consoleErrors, pageErrors, externalRequests, close: () => context.close() };
}

/**
 * The one-call setup for a test: the app's URL (TIDEMARK_URL if scripts/test set it, else a
 * server of our own over dist/), a browser, and a page opened at `path` with `viewport`. When
 * `waitFor` is a selector (default the timeline), resolves once it is visible.
 * Resolves to openPage's result plus { browser, url }; close() tears everything down.
 */
export async function openApp({
  viewport = VIEWPORTS.laptop,
  path = '',
  waitFor = '[data-testid="timeline"]',
  timeout = 15000,
  initScript,
} = {}) {
  const server = process.env.TIDEMARK_URL ? null : await startServer();
  const base = process.env.TIDEMARK_URL || server.url;
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`).href;
  const browser = await launchBrowser();
  const close = async () => {
    await browser.close();
    if (server) await server.close();
  };
  try {
    const opened = await openPage(browser, url, { viewport, initScript });
    if (waitFor) {
      await opened.page.waitForSelector(waitFor, { state: 'visible', timeout }).catch((err) => {
        const seen = [...opened.pageErrors, ...opened.consoleErrors];
        throw new Error(
          `${waitFor} was not visible within ${timeout} ms at ${url}` +
            (seen.length ? `; the page reported:\n  ${seen.join('\n  ')}` : ` (${err.message.split('\n')[0]})`),
        );
      });
    }
    return { ...opened, browser, url, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * For a test that opens several pages or contexts itself: the app's URL (TIDEMARK_URL, or a server
 * of our own over dist/) and a browser, both closed after the test `t`. Resolves to { base, browser }.
 */
export async function appBrowser(t) {
  const server = process.env.TIDEMARK_URL ? null : await startServer();
  const base = process.env.TIDEMARK_URL || server.url;
  const browser = await launchBrowser();
  t.after(async () => {
    await browser.close();
    if (server) await server.close();
  });
  return { base, browser };
}

/**
 * Drags the centre of `locator` (a Playwright Locator) by (dx, dy) CSS pixels with the real mouse:
 * move, press, `steps` intermediate moves, release. Resolves to the start point {x, y}.
 */
export async function dragBy(page, locator, dx, dy, { steps = 10 } = {}) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('dragBy: the element is not visible');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps });
  await page.mouse.up();
  return { x, y };
}

/**
 * Polls `read()` (in the test) once per animation frame of `page` until `done(value)` holds (by
 * default: the value is `true`); resolves to that value, or fails with `what` and the last value
 * seen after `timeout` ms. The one polling helper of the e2e tests. `tick` waits between reads:
 * a frame, or (a page whose clock is paused by `page.clock`, where frames do not run) a round trip
 * to the page (`untilPaused`).
 */
export async function until(page, what, read, done = (v) => v === true, timeout = 8000, tick = frame) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await read();
    if (done(last)) return last;
    await tick(page);
  }
  assert.fail(`${what}; last seen: ${JSON.stringify(last)?.slice(0, 300)}`);
}

const frame = (page) => page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));

/** [`until`] on a page whose clock `page.clock` has paused: no frames run there. */
export const untilPaused = (page, what, read, done, timeout = 8000) =>
  until(page, what, read, done, timeout, (p) => p.evaluate(() => 0));

/**
 * The run-status test hook (TIMELINE_CONTRACT.md §2): waits until the run on show is the newest
 * one asked for, of a revision after `after` (or any), and resolves to that revision.
 */
export async function runSettled(page, after = -1, timeout = 8000) {
  const status = page.locator('[data-testid="run-status"]');
  const read = async () => ({ state: await status.getAttribute('data-state'), revision: Number(await status.getAttribute('data-revision')) });
  const s = await until(page, `a run after revision ${after}`, read, (v) => v.state !== 'running' && v.revision > after, timeout);
  assert.equal(s.state, 'done', 'the runner failed');
  return s.revision;
}
