// Trunk post_build hook (Trunk.toml) for the lazily loaded second module (src/extras.rs). Trunk builds
// it as a "worker" and does not hash worker file names, so this names both files after the content
// (tidemark-extras-<hash>.js and tidemark-extras-<hash>_bg.wasm, for cache busting like the main
// module's), then writes the .js name into the loader script's data-extras attribute of the staged
// index.html (Trunk.toml's pattern_script leaves the placeholder @TIDEMARK_EXTRAS@ there). Fails the
// build when the module is missing, so a page can never name a file that is not in dist/.
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error('trunk-post-build: TRUNK_STAGING_DIR is not set (run by trunk build)');
  process.exit(1);
}
const files = await readdir(staging);
if (!files.includes('tidemark-extras.js') || !files.includes('tidemark-extras_bg.wasm')) {
  console.error(`trunk-post-build: tidemark-extras.js and tidemark-extras_bg.wasm are not both in ${staging}`);
  process.exit(1);
}
const hash = createHash('sha256')
  .update(await readFile(join(staging, 'tidemark-extras_bg.wasm')))
  .update(await readFile(join(staging, 'tidemark-extras.js')))
  .digest('hex')
  .slice(0, 16);
const extras = [`tidemark-extras-${hash}.js`];
await rename(join(staging, 'tidemark-extras.js'), join(staging, extras[0]));
await rename(join(staging, 'tidemark-extras_bg.wasm'), join(staging, `tidemark-extras-${hash}_bg.wasm`));
const index = join(staging, 'index.html');
const html = await readFile(index, 'utf8');
if (!html.includes('@TIDEMARK_EXTRAS@')) {
  console.error('trunk-post-build: index.html has no @TIDEMARK_EXTRAS@ placeholder (Trunk.toml pattern_script)');
  process.exit(1);
}
await writeFile(index, html.replaceAll('@TIDEMARK_EXTRAS@', extras[0]));
console.log(`trunk-post-build: data-extras="${extras[0]}"`);
