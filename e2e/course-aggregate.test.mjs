// The course's aggregate forms (issue 17), end to end: ModelLatency's percentiles have their own
// output contract (data-p50 / data-p99 on output-row, ms), exact up to K = 1000 samples and
// marked "approximate" above K (a seeded reservoir, the same in the engine and the generated code);
// TenantCost's (usd, requests) accumulator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, until } from './harness.mjs';
import { scenarioPath } from './fixtures.mjs';

const rows = (page) =>
  page.locator('[data-testid="output-row"]').evaluateAll((r) =>
    r.map((x) => ({ end: x.dataset.end, p50: x.dataset.p50, p99: x.dataset.p99, approximate: x.dataset.approximate, text: x.textContent })),
  );

test('ModelLatency: p50 and p99 per window in data-p50 / data-p99, exact up to K', async (t) => {
  const app = await openApp({ path: '#preset=model-latency-p50-p99&step=8' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-output"]').click();
  await until(page, 'three windows fired at step 8', async () => (await page.locator('[data-testid="output-row"]').count()) === 3);
  const fired = await rows(page);
  // The window ending 10:03 (1767261780000): 6 samples, p50 95 ms, p99 120 ms.
  const w = fired.find((r) => r.end === '1767261780000');
  assert.ok(w, JSON.stringify(fired));
  assert.deepEqual([w.p50, w.p99, w.approximate], ['95', '120', 'false']);
  assert.match(w.text, /p50 95 ms · p99 120 ms · n 6/);
  assert.doesNotMatch(w.text, /approximate/);
  assert.equal(await page.locator('[data-testid="approximate"]').count(), 0);
  // A TenantCost row carries no percentiles.
  assert.deepEqual(app.pageErrors, []);
});

test('more than K = 1000 latencies in a window: the result says approximate', async (t) => {
  // One model, one minute: 1,001 latencies 1..1001 ms, then a second minute with 3.
  const input = [];
  for (let i = 1; i <= 1001; i++) input.push({ id: i, key: 'gpt', ts: 1767261600000 + i * 50, value: i });
  input.push({ id: 2001, key: 'gpt', ts: 1767261660000, value: 10 }, { id: 2002, key: 'gpt', ts: 1767261661000, value: 20 }, { id: 2003, key: 'gpt', ts: 1767261662000, value: 30 });
  const scenario = {
    name: 'over-k',
    assigner: { kind: 'tumbling', size: 60000 },
    function: { kind: 'aggregate', aggregate: 'latency_sketch', k: 1000 },
    watermarks: { kind: 'bounded_out_of_orderness', bound: 0 },
    input,
  };
  const app = await openApp({ path: scenarioPath(scenario, 'end') });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-output"]').click();
  await until(page, 'two windows fired', async () => (await page.locator('[data-testid="output-row"]').count()) === 2);
  const [big, small] = await rows(page);
  assert.equal(big.approximate, 'true');
  assert.match(big.text, /approximate/);
  assert.match(big.text, /n 1001/);
  // The reservoir's p50 is a sample near the middle of 1..1001, not necessarily 501.
  assert.ok(Number(big.p50) > 300 && Number(big.p50) < 700, big.p50);
  assert.ok(Number(big.p99) >= Number(big.p50), big.p99);
  assert.deepEqual([small.p50, small.p99, small.approximate], ['20', '20', 'false']);
  const badge = page.locator('[data-testid="approximate"]');
  assert.equal(await badge.count(), 1);
  assert.match(await badge.getAttribute('title'), /K = 1000/);
  assert.deepEqual(app.pageErrors, []);
});

test('TenantCost as an AggregateFunction: usd and requests of the one accumulator', async (t) => {
  const app = await openApp({ path: '#preset=tenant-cost-aggregate&step=4' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-output"]').click();
  await until(page, 'main and late firing', async () => (await page.locator('[data-testid="output-row"]').count()) === 2);
  const fired = await rows(page);
  assert.match(fired[0].text, /usd \$4\.10 · requests 2/);
  assert.match(fired[1].text, /usd \$4\.31 · requests 3/);
  assert.deepEqual([fired[0].p50, fired[0].p99], [undefined, undefined]);
  assert.deepEqual(app.pageErrors, []);
});
