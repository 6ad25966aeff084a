// Scenario links, page geometry and the command line, shared by the e2e tests.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './harness.mjs';

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
