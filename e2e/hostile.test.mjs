// Hostile links (issue 8), in headless Chromium: markup in keys, ids, names, preset and mode
// names; numbers beyond i64 and 1e400; broken base64 and DEFLATE; non-UTF-8; deep nesting; a
// decompression bomb and scenarios over the loader's limits. For each: nothing executes (no
// script, no dialog, no <img>), a message names the field or the rule, the scenario on show stays,
// and afterwards a drag still re-runs the engine. (timeline.test.mjs covers a bad link at start-up.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { openApp, dragBy, until, VIEWPORTS } from './harness.mjs';
import { MINE, b64url, scenarioPath, shownInput } from './fixtures.mjs';

const plain = (json) => `scenario=${b64url(Buffer.from(json, 'utf8'))}`;
const z = (json) => `z=${b64url(deflateRawSync(Buffer.from(json, 'utf8')))}`;
const PWN = 'window.__pwned=(window.__pwned||0)+1';

const tumbling = (input, extra = '') => `{"assigner": {"kind": "tumbling", "size": 1000}${extra}, "input": ${input}}`;
const many = (n, item) => `[${Array.from({ length: n }, (_, i) => item(i)).join(',')}]`;

// [what, fragment (without #), the message must match]
const REFUSED = [
  ['<img onerror> in an id', plain(tumbling(`[{"id": "<img src=x onerror=${PWN}>", "key": "a", "ts": 1}]`)), /input\[0\]\.id: must be an integer.*not "<img src=x onerror=/],
  ['<script> as a timestamp', plain(tumbling(`[{"id": 1, "key": "a", "ts": "<script>${PWN}</script>"}]`)), /input\[0\]\.ts: must be an integer.*not "<script>/],
  ['a number beyond i64', plain(tumbling('[{"id": 1, "key": "a", "ts": 99999999999999999999}]')), /input\[0\]\.ts: 1e\+20 is outside the 64-bit integer range/],
  ['1e400', z(tumbling('[{"id": 1, "key": "a", "ts": 1e400}]')), /not valid JSON: number out of range/],
  ['a size beyond i64', plain('{"assigner": {"kind": "tumbling", "size": -99999999999999999999}, "input": []}'), /assigner\.size: .*outside the 64-bit integer range/],
  ['broken base64', 'scenario=%%%<script>', /the scenario value is not valid base64url/],
  ['broken DEFLATE', `z=${b64url(Buffer.from('not deflate at all'))}`, /the z value is not valid raw DEFLATE data/],
  ['non-UTF-8 bytes', `scenario=${b64url([0x7b, 0x22, 0xff, 0xfe])}`, /scenario is not UTF-8 text/],
  ['deep nesting', z(`{"name": ${'['.repeat(50000)}${']'.repeat(50000)}}`), /not valid JSON: recursion limit exceeded/],
  ['a decompression bomb', z(' '.repeat(17 * 1024 * 1024)), /the z value unpacks to more than 16777216 bytes, the limit of a scenario/],
  ['too many input items', z(tumbling(many(100001, () => '{"wm": 1}'))), /input: has 100001 items; the limit of the page is 100000 \(the command line takes more: tidemark run FILE\)/],
  ['too many keys', z(tumbling(many(10001, (i) => `{"id": ${i}, "key": "k${i}", "ts": 1}`))), /beyond the limit of 10000 distinct keys of the page/],
  ['too many windows per element', plain('{"assigner": {"kind": "sliding", "size": 100000, "slide": 1}, "input": []}'), /assigner\.slide: .*more than 10000 windows/],
  ['an unknown kind', plain('{"assigner": {"kind": "<script>x</script>", "size": 1}, "input": []}'), /assigner\.kind: unknown kind "<script>x<\/script>"/],
  ['a missing field', plain('{"assigner": {"kind": "tumbling"}, "input": []}'), /assigner\.size: is missing/],
  ['markup in a preset name', `preset=%3Cimg%20src%3Dx%20onerror%3D${encodeURIComponent(PWN)}%3E`, /There is no preset "(%3C|<)img/],
  ['markup in a mode', 'mode=<img src=x onerror=alert(1)>', /Could not read the link: mode must be embed, lecture or normal/],
];

test('hostile links: nothing executes, the message names the rule, the scenario stays, the page still works', async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 2) });
  t.after(() => app.close());
  const { page } = app;
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  const shown = () => shownInput(page);
  const before = await shown();
  const banner = page.locator('[data-testid="error-banner"]');
  const failures = [];
  for (const [what, fragment, want] of REFUSED) {
    await page.evaluate(() => {
      window.location.hash = '';
    });
    await page.evaluate((h) => {
      window.location.hash = h;
    }, fragment);
    await banner.first().waitFor();
    const text = (await banner.allTextContents()).join(' | ');
    if (!want.test(text)) failures.push(`${what}: ${text.slice(0, 300)}`);
    const still = await shown();
    if (still !== before) failures.push(`${what}: the scenario changed (${still})`);
    for (const b of await banner.all()) await b.getByRole('button', { name: 'Dismiss' }).click();
  }
  assert.deepEqual(failures, [], failures.join('\n'));

  // Valid but hostile: markup in keys and the name loads, as text.
  const evil = {
    name: `<script>${PWN}</script>`,
    assigner: { kind: 'tumbling', size: 10000 },
    input: [
      { id: 1, key: `<img src=x onerror="${PWN}">`, ts: 1000 },
      { id: 2, key: `<script>${PWN}</script>`, ts: 2000 },
    ],
  };
  await page.evaluate((h) => {
    window.location.hash = h;
  }, plain(JSON.stringify(evil)));
  await page.locator('[data-testid="lane"]', { hasText: '<img src=x' }).waitFor();
  assert.equal(await page.locator('[data-testid="scenario-name"]').textContent(), evil.name);
  assert.equal(await page.locator('img').count(), 0, 'no <img> was made from text');
  assert.equal(await page.locator('#app script, .app script, body > div script').count(), 0, 'no <script> was made from text');
  // Undo brings the scenario from before the link back.
  await page.keyboard.press('Control+z');
  await page.waitForFunction((want) => [...document.querySelectorAll('[data-testid="element"]')].map((e) => `${e.dataset.id}@${e.dataset.ts}`).join() === want, before);

  // Nothing ran.
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(dialogs, []);
  // The page still works: a drag re-runs the engine.
  const marble = page.locator('[data-testid="element"][data-id="1"]');
  const ts = await marble.getAttribute('data-ts');
  await dragBy(page, marble, 50, 0);
  await page.waitForFunction((old) => document.querySelector('[data-testid="element"][data-id="1"]')?.dataset.ts !== old, ts);
  assert.deepEqual(app.pageErrors, []);
});

test('a configuration error is shown next to its field, which points to it; the scenario stays', async (t) => {
  const app = await openApp({ path: scenarioPath(MINE, 'end') });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-config"]').click();
  const before = await page.locator('[data-testid="window"]').count();
  for (const [field, value, want] of [
    ['size', '99999999999999999999', /is outside the 64-bit range/],
    ['size', '-5', /Flink refuses it: .*abs\(offset\) < size/],
    ['lateness', '<img src=x onerror=alert(1)>', /"<img src=x onerror=a" is not a whole number of milliseconds/],
  ]) {
    const input = page.locator(`[data-testid="cfg-${field}"]`);
    await input.fill(value);
    const err = page.locator(`[data-testid="field-error"][data-field="${field}"]`);
    await err.waitFor();
    assert.match(await err.textContent(), want);
    assert.equal(await input.getAttribute('aria-invalid'), 'true');
    assert.equal(await input.getAttribute('aria-describedby'), await err.getAttribute('id'));
    // Next to it: in the same field row, just below the input, in the same column.
    assert.equal(await err.evaluate((e, i) => e.closest('.field') === document.querySelector(i).closest('.field'), `[data-testid="cfg-${field}"]`), true);
    const [ib, eb] = [await input.boundingBox(), await err.boundingBox()];
    assert.ok(eb.y >= ib.y + ib.height - 1 && eb.y - (ib.y + ib.height) < 12, `${field}: error ${JSON.stringify(eb)} right under input ${JSON.stringify(ib)}`);
    assert.ok(Math.abs(eb.x - ib.x) < 2, `${field}: error aligned with the input`);
    assert.equal(await page.locator('[data-testid="window"]').count(), before, 'the scenario is unchanged');
    await input.fill(field === 'size' ? '10000' : '0');
    await err.waitFor({ state: 'detached' });
  }
  assert.equal(await page.locator('img').count(), 0);
  assert.deepEqual(app.pageErrors, []);
});

test('at 700x450 a configuration error scrolls into view under its field', async (t) => {
  const app = await openApp({ viewport: VIEWPORTS.embed, path: scenarioPath(MINE, 'end') });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-config"]').click();
  await page.locator('[data-testid="cfg-size"]').fill('-5');
  const err = page.locator('[data-testid="field-error"][data-field="size"]');
  await err.waitFor();
  const panel = await page.locator('.tab-body').boundingBox();
  const box = await until(page, 'the error is inside the visible panel', () => err.boundingBox(), (b) => b && b.y >= panel.y - 1 && b.y + b.height <= panel.y + panel.height + 1);
  assert.ok(box.y + box.height <= VIEWPORTS.embed.height);
  assert.deepEqual(app.pageErrors, []);
});
