// Reflow and zoom (WCAG 1.4.10): at 320 CSS px wide, and in the 700x450 embed at 200 % zoom
// (350x225 CSS px), in the explore, embed and lecture modes, the narration, the playback controls
// and the canvas are reachable with vertical scrolling only: the page never scrolls sideways (the
// canvas pans event time itself).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appBrowser, openPage } from './harness.mjs';

const CASES = [
  ['320x640, explore', { width: 320, height: 640 }, '#preset=lab-6-2&step=3'],
  ['350x225, embed at 200 %', { width: 350, height: 225 }, '#preset=lab-6-2&mode=embed&step=3'],
  ['350x225, explore', { width: 350, height: 225 }, '#preset=lab-6-2&step=3'],
  // Lecture mode's large type reflows too: a student's phone, or the embed zoomed to 200 %.
  ['320x640, lecture', { width: 320, height: 640 }, '#preset=lab-6-2&mode=lecture&step=3'],
  ['350x225, lecture at 200 %', { width: 350, height: 225 }, '#preset=lab-6-2&mode=lecture&step=3'],
];
const REACH = ['narration', 'step-back', 'play', 'step-forward', 'scrubber', 'canvas'];

test('at 320 px and at 350x225 everything is reachable by vertical scrolling only', async (t) => {
  const { base, browser } = await appBrowser(t);
  for (const [name, viewport, path] of CASES) {
    const app = await openPage(browser, new URL(path, base).href, { viewport });
    const { page } = app;
    await page.locator('[data-testid="timeline"]').waitFor();
    await page.locator('[data-testid="element"]').first().waitFor({ state: 'attached' });
    // No page-level horizontal scroll.
    const overflow = await page.evaluate(() => {
      const s = document.scrollingElement;
      return { scrollWidth: s.scrollWidth, clientWidth: s.clientWidth };
    });
    assert.ok(overflow.scrollWidth <= overflow.clientWidth, `${name}: the page scrolls sideways: ${JSON.stringify(overflow)}`);
    for (const id of REACH) {
      const el = page.locator(`[data-testid="${id}"]`).first();
      await el.scrollIntoViewIfNeeded();
      const box = await el.boundingBox();
      assert.ok(box && box.width > 0 && box.height > 0, `${name}: ${id} is not drawn`);
      // Inside the viewport's width, and (after vertical scrolling) at least partly in its height.
      assert.ok(box.x >= -1 && box.x + Math.min(box.width, 40) <= viewport.width + 1, `${name}: ${id} is off to the side: ${JSON.stringify(box)}`);
      assert.ok(box.y < viewport.height && box.y + box.height > 0, `${name}: ${id} is out of reach: ${JSON.stringify(box)}`);
      const inScroller = await el.evaluate((e) => {
        // Every scrolling ancestor scrolls vertically only (the canvas box pans time by itself).
        for (let a = e.parentElement; a; a = a.parentElement) {
          const cs = getComputedStyle(a);
          if (a.scrollWidth > a.clientWidth + 1 && /(auto|scroll)/.test(cs.overflowX) && !a.matches('.strip')) return a.className;
        }
        return null;
      });
      assert.equal(inScroller, null, `${name}: ${id} needs horizontal scrolling in .${inScroller}`);
    }
    // The playback works from there: a step forward moves the playhead.
    const step = await page.locator('[data-testid="playhead"]').getAttribute('data-step');
    await page.locator('[data-testid="step-forward"]').click();
    assert.equal(await page.locator('[data-testid="playhead"]').getAttribute('data-step'), String(Number(step) + 1), name);
    assert.deepEqual(app.pageErrors, [], name);
    await app.close();
  }
});
