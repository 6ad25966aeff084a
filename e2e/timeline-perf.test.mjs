// Re-running the engine and rendering after a drag, with 500 and with 2,000 elements: measured in
// the browser with the Performance API while the real mouse drags one element for 2 s.
//
// Two figures per frame: the work a pointer move causes (event -> reducer -> engine run over the
// whole scenario -> DOM updated, from a capture listener to a bubble listener on window, which
// Yew's delegated handler and its render microtask run between), and the frame interval seen by
// requestAnimationFrame (which adds style, layout and paint), plus the long tasks (> 50 ms) the
// browser reports. Printed as JSON (`timeline perf: {...}`, read by scripts/bench). At 500 elements
// the test fails when the p95 frame interval exceeds the 16 ms budget by a wide margin (shared, noisy
// CI machines); at 2,000 it asserts only that the app keeps up and keeps working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

function scenario(n) {
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const input = [];
  let wm = 0;
  for (let i = 1; i <= n; i++) {
    input.push({ id: i, key: `k${i % 5}`, ts: Math.floor(rand() * 600000), value: 1 + (i % 7) });
    if (i % 25 === 0) {
      wm += 28000;
      input.push({ wm });
    }
  }
  return {
    name: `perf_${n}`,
    assigner: { kind: 'tumbling', size: 10000 },
    allowed_lateness: 5000,
    watermarks: { kind: 'explicit' },
    input,
  };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

for (const n of [500, 2000]) {
test(`dragging with ${n} elements: engine re-run + render per frame, measured with the Performance API`, async (t) => {
  const sc = scenario(n);
  const hash = `#scenario=${Buffer.from(JSON.stringify(sc)).toString('base64url')}&step=${sc.input.length}`;
  const app = await openApp({ path: hash, viewport: { width: 1920, height: 1080 } });
  t.after(() => app.close());
  const { page } = app;
  assert.equal(await page.locator('[data-testid="element"]').count(), n);

  await page.evaluate(() => {
    const m = { work: [], frames: [], longTasks: [], moves: 0, on: false, t0: 0 };
    window.__perf = m;
    // Every long task with its start; those that start in the drag count (entries come in late on
    // a busy page: a flag read on delivery counted earlier tasks too).
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) m.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask' });
    window.addEventListener('pointermove', () => {
      if (m.on) m.t0 = performance.now();
    }, { capture: true });
    window.addEventListener('pointermove', () => {
      if (!m.on) return;
      m.moves++;
      m.work.push(performance.now() - m.t0);
    });
    let last = 0;
    const loop = (now) => {
      if (m.on && last) m.frames.push(now - last);
      last = now;
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });

  const marble = page.locator(`[data-testid="element"][data-id="${n / 2}"]`);
  const allTs = () => page.locator('[data-testid="element"]').evaluateAll((e) => e.map((x) => x.dataset.ts).join());
  const tsBefore = await allTs();
  const box = await marble.boundingBox();
  const x0 = box.x + box.width / 2;
  const y0 = box.y + box.height / 2;
  await page.mouse.move(x0, y0);
  // Long tasks count from before the press (it starts the drag); frames and moves from after it.
  await page.evaluate(() => {
    window.__perf.onAt = performance.now();
  });
  await page.mouse.down();
  await page.evaluate(() => {
    window.__perf.on = true;
  });
  const started = Date.now();
  let i = 0;
  while (Date.now() - started < 2000) {
    // Back and forth across several windows.
    const dx = Math.round(300 * Math.sin(i / 12));
    await page.mouse.move(x0 + dx, y0);
    i++;
  }
  await page.evaluate(() => {
    window.__perf.on = false;
    window.__perf.offAt = performance.now();
  });
  await page.mouse.up();
  const m = await page.evaluate(() => {
    const p = window.__perf;
    return { ...p, longTasks: p.longTasks.filter(([at]) => at >= p.onAt && at < p.offAt).map(([, d]) => d) };
  });
  const r = (v) => Math.round(v * 100) / 100;
  const result = {
    elements: n,
    pointerMoves: m.moves,
    frames: m.frames.length,
    workMs: { p50: r(pct(m.work, 50)), p95: r(pct(m.work, 95)), max: r(Math.max(...m.work)) },
    frameMs: { p50: r(pct(m.frames, 50)), p95: r(pct(m.frames, 95)), max: r(Math.max(...m.frames)) },
    longTasks: { count: m.longTasks.length, totalMs: r(m.longTasks.reduce((a, b) => a + b, 0)) },
  };
  console.log(`timeline perf: ${JSON.stringify(result)}`);
  // Playwright waits for each move to be handled, so a loaded machine delivers fewer moves.
  if (n === 500) {
    assert.ok(m.moves > 15, `too few pointer moves measured (${m.moves})`);
    // Sanity bounds, not the goal: speed is measured by `scripts/bench browser` (README, Figures);
    // these only catch a drag that falls apart (two frames of work, three frames per frame at p95),
    // since e2e files run side by side on two cores.
    assert.ok(result.workMs.p50 < 33, `engine re-run + render p50 ${result.workMs.p50} ms`);
    assert.ok(result.frameMs.p95 < 100, `frame p95 ${result.frameMs.p95} ms`);
  } else {
    // Sanity only: the drag was followed and the page stayed responsive.
    assert.ok(m.moves > 3, `too few pointer moves measured (${m.moves})`);
    assert.ok(result.frameMs.p50 < 1000, `frame p50 ${result.frameMs.p50} ms`);
  }
  // The app still works: the drag moved an element (at 2,000 the one under the pointer may be a
  // neighbour drawn over it), all elements are there.
  assert.notEqual(await allTs(), tsBefore);
  assert.equal(await page.locator('[data-testid="element"]').count(), n);
  assert.deepEqual(app.pageErrors, []);
});
}
