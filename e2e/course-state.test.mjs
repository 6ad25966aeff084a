// The course's state view and rounded rules (issue 17), end to end: the Sinks tab's state estimate
// with the course's numbers (2,000,000 keys × 60 windows × 48 B ≈ 5.8 GB), its two inputs typed
// with the real keyboard (a bad value says what it takes and keeps the estimate), the live
// windows per key ("with two minutes, three are"), and the narration's line beside the course's
// "fires when the watermark reaches 10:01:00".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, until } from './harness.mjs';

const estimate = (page) => page.locator('[data-testid="state-estimate"]');

test('the state estimate: the course numbers, editable keys and bytes per entry', async (t) => {
  const app = await openApp({ path: '#preset=one-hour-sliding&step=1' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-sinks"]').click();
  await estimate(page).waitFor();
  assert.equal(await estimate(page).getAttribute('data-bytes'), '5760000000');
  assert.match(await estimate(page).textContent(), /2,000,000 keys × 60 windows × 1 entry × 48 B = 5,760,000,000 B ≈ 5\.8 GB/);
  assert.equal(await page.locator('[data-testid="course-windows-rule"]').getAttribute('data-windows'), '60');
  // The inputs are named and reachable with the keyboard.
  const keys = page.getByLabel('Active keys');
  const bytes = page.getByLabel('Bytes per state entry');
  assert.equal(await keys.getAttribute('data-testid'), 'estimate-keys');
  await keys.focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'estimate-bytes');
  // Type new numbers: 1,000 keys × 60 × 100 B = 6,000,000 B.
  await keys.fill('');
  await keys.pressSequentially('1000');
  await until(page, 'the estimate for 1,000 keys', async () => (await estimate(page).getAttribute('data-bytes')) === '2880000');
  await bytes.fill('');
  await bytes.pressSequentially('100');
  await until(page, 'the estimate for 100 B', async () => (await estimate(page).getAttribute('data-bytes')) === '6000000');
  assert.match(await estimate(page).textContent(), /≈ 6 MB/);
  // A bad value: a message that names the rule, the text stays, the last estimate stays.
  await bytes.fill('');
  await bytes.pressSequentially('lots');
  const alert = page.locator('#estimate-bytes-error');
  await alert.waitFor();
  assert.equal(await alert.getAttribute('role'), 'alert');
  assert.match(await alert.textContent(), /Bytes per state entry must be a whole number from 1 to 1,000,000,000/);
  assert.equal(await bytes.inputValue(), 'lots');
  assert.equal(await bytes.getAttribute('aria-invalid'), 'true');
  assert.equal(await estimate(page).getAttribute('data-bytes'), '6000000');
  // The typed numbers survive a step of the playhead.
  await page.locator('[data-testid="step-forward"]').click();
  await until(page, 'step 2 in the sinks', async () => (await page.locator('[data-testid="sinks-panel"]').getAttribute('data-step')) === '2');
  assert.equal(await keys.inputValue(), '1000');
  assert.deepEqual(app.pageErrors, []);
});

test('lab 6.3: live windows per key, three by the course rule; the rounded rules named in the narration', async (t) => {
  const app = await openApp({ path: '#preset=lab-6-3&step=4' });
  t.after(() => app.close());
  const { page } = app;
  await page.locator('[data-testid="tab-sinks"]').click();
  const live = page.locator('[data-testid="live-windows-per-key"]');
  await live.waitFor();
  assert.equal(await live.getAttribute('data-max'), '2');
  const rule = page.locator('[data-testid="course-windows-rule"]');
  assert.equal(await rule.getAttribute('data-windows'), '3');
  assert.match(await rule.textContent(), /1 window an element is in \+ 2 held open by allowed lateness 2 min = 3 live windows per key/);
  // Step 5: "the record at 10:03:40" - the watermark the course reads as 10:03:40.
  await page.locator('[data-testid="step-forward"]').click();
  await until(page, 'step 5', async () => (await page.locator('[data-testid="playhead"]').getAttribute('data-step')) === '5');
  const notes = page.locator('[data-testid="course-rule-note"]');
  await until(page, 'a course-rule note', async () => (await notes.count()) > 0);
  assert.match(await notes.first().textContent(), /max − d = 10:04:00 − 20 s = 10:03:40; .* 10:03:39\.999/);
  // Lab 6.1 at step 3: both rules, one line each.
  await page.evaluate(() => {
    window.location.hash = '#preset=lab-6-1&step=3';
  });
  await until(page, 'lab 6.1 opens', async () => (await page.locator('[data-testid="course-title"]').textContent()).includes('Lab 6.1'));
  await until(page, 'two course-rule notes', async () => (await notes.count()) === 2);
  assert.match(await notes.nth(1).textContent(), /"when the watermark reaches" its end \(10:01:00 for \[10:00, 10:01\)\); .* end − 1 ms = 10:00:59\.999/);
  assert.deepEqual(app.pageErrors, []);
});
