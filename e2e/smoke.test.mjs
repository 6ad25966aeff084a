// Smoke test: the release bundle loads, the app renders its timeline, nothing goes wrong on the way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VIEWPORTS, openApp } from './harness.mjs';

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`the app renders its timeline at ${name} size (${viewport.width}x${viewport.height}), offline and without errors`, async (t) => {
    const app = await openApp({ viewport });
    t.after(() => app.close());

    assert.ok((await app.page.locator('[data-testid="timeline"]').count()) > 0, 'no data-testid="timeline"');
    assert.deepEqual(app.pageErrors, [], 'uncaught errors (a Rust panic shows up here)');
    assert.deepEqual(app.externalRequests, [], 'requests to a host other than localhost');
    assert.deepEqual(app.consoleErrors, [], 'console errors');
  });
}
