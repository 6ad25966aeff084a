// Screenshots of the timeline for the README, in headless Chromium at the three sizes the
// product must read at (projector 1920x1080, embeds 900x600 and 700x450). Not a test: run it
// after `trunk build --release` and look at the pictures.
//
//   node e2e/timeline-screenshots.mjs [OUT_DIR]      (default docs/screenshots)
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT, openApp } from './harness.mjs';

const out = process.argv[2] || join(REPO_ROOT, 'docs/screenshots');
await mkdir(out, { recursive: true });
const b64 = async (name) =>
  Buffer.from(await readFile(join(REPO_ROOT, 'tests/flink/scenarios', `${name}.json`))).toString('base64url');

const shots = [
  // The course's worked timeline after the late firing (step 5), on a projector.
  { file: 'timeline-1920x1080.png', size: [1920, 1080], path: '#step=5' },
  // Sliding windows stacked in rows, in a 900x600 embed.
  { file: 'sliding-900x600.png', size: [900, 600], path: `#scenario=${await b64('sliding_late_firings_multi')}` },
  // Sessions merged by a late element, in the 700x450 lab-page iframe.
  { file: 'session-700x450.png', size: [700, 450], path: `#scenario=${await b64('course_late_element_bridges_sessions')}` },
  // The 2-D view (event time x processing time) with the watermark curve.
  { file: 'two-d-1400x900.png', size: [1400, 900], path: '#step=7', keys: ['t'] },
];

for (const shot of shots) {
  const [width, height] = shot.size;
  const app = await openApp({ viewport: { width, height }, path: shot.path });
  for (const k of shot.keys || []) await app.page.keyboard.press(k);
  await app.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await app.page.screenshot({ path: join(out, shot.file) });
  if (app.pageErrors.length) console.error(shot.file, app.pageErrors);
  console.log(join(out, shot.file));
  await app.close();
}
