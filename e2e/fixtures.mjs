// Scenario links, page geometry and the command line, shared by the e2e tests.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, openPage } from './harness.mjs';

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

/** Centre of a locator's box, in page coordinates. */
export async function centre(locator) {
  const box = await locator.boundingBox();
  assert.ok(box, 'element not visible');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * `tidemark ARGS…`'s stdout: TIDEMARK_BIN, or the debug build of the native stage, or else
 * `cargo run` (which builds it first). A non-zero exit fails the test with its stderr.
 */
export function tidemarkCli(args) {
  const built = join(process.env.CARGO_TARGET_DIR || join(REPO_ROOT, 'target'), 'debug', 'tidemark');
  const bin = process.env.TIDEMARK_BIN || (existsSync(built) ? built : null);
  const [cmd, argv] = bin ? [bin, args] : ['cargo', ['run', '--quiet', '--offline', '--bin', 'tidemark', '--', ...args]];
  const r = spawnSync(cmd, argv, { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 256 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/**
 * A host page whose iframe (`width`x`height`) shows the app at `path` (relative to the app's URL
 * `base`), sandboxed without allow-same-origin: an opaque origin, where `new Worker` throws. The
 * files are served with CORS, as a host that embeds the app must. Resolves to openPage's result
 * plus `frame` (the iframe's FrameLocator), once the timeline shows in it.
 */
export async function sandboxedApp(browser, base, path, [width, height] = [1200, 800]) {
  const root = base.endsWith('/') ? base : `${base}/`;
  const host = await openPage(browser, 'about:blank');
  await host.page.route(`${root}**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.endsWith('/sandbox-host.html')) {
      return route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>host</title><iframe sandbox="allow-scripts" width="${width}" height="${height}" src="${path}"></iframe>`,
      });
    }
    const response = await route.fetch();
    return route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
  await host.page.goto(new URL('sandbox-host.html', root).href);
  const frame = host.page.frameLocator('iframe');
  await frame.locator('[data-testid="timeline"]').waitFor({ timeout: 30000 });
  return { ...host, frame };
}
