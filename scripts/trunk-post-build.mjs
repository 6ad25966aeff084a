// Trunk post_build hook (Trunk.toml) for the lazily loaded second module (src/extras.rs) and the
// engine's Web Worker module (src/worker.rs). Trunk builds both as "workers" and does not hash
// worker file names, so this names each pair after the content (tidemark-extras-<hash>.js and
// tidemark-extras-<hash>_bg.wasm, tidemark-worker-<hash>.js and …_bg.wasm, for cache busting like
// the main module's), then writes the .js names into the loader script's data-extras and
// data-worker attributes of the staged index.html (Trunk.toml's pattern_script leaves the
// placeholders @TIDEMARK_EXTRAS@ and @TIDEMARK_WORKER@ there). Fails the build when a module is
// missing, so a page can never name a file that is not in dist/.
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('trunk-post-build: TRUNK_STAGING_DIR is not set (run by trunk build)');
  process.exit(1);
}
const files = await readdir(staging);
const index = join(staging, 'index.html');
let html = await readFile(index, 'utf8');
for (const [module, placeholder, attr] of [
  ['tidemark-extras', '@TIDEMARK_EXTRAS@', 'data-extras'],
  ['tidemark-worker', '@TIDEMARK_WORKER@', 'data-worker'],
]) {
  if (!files.includes(`${module}.js`) || !files.includes(`${module}_bg.wasm`)) {
    console.error(`trunk-post-build: ${module}.js and ${module}_bg.wasm are not both in ${staging}`);
    process.exit(1);
  }
  const hash = createHash('sha256')
    .update(await readFile(join(staging, `${module}_bg.wasm`)))
    .update(await readFile(join(staging, `${module}.js`)))
    .digest('hex')
    .slice(0, 16);
  const js = `${module}-${hash}.js`;
  await rename(join(staging, `${module}.js`), join(staging, js));
  await rename(join(staging, `${module}_bg.wasm`), join(staging, `${module}-${hash}_bg.wasm`));
  if (!html.includes(placeholder)) {
    console.error(`trunk-post-build: index.html has no ${placeholder} placeholder (Trunk.toml pattern_script)`);
    process.exit(1);
  }
  html = html.replaceAll(placeholder, js);
  console.log(`trunk-post-build: ${attr}="${js}"`);
}
await writeFile(index, html);
