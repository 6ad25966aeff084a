// The page's Web Worker (src/worker.rs, TIMELINE_CONTRACT.md §3), a module worker started as
// `engine-worker.js?js=<tidemark-worker-….js>[&task=import]`: it loads that module (the hashed name
// is the loader script's data-worker, written by scripts/trunk-post-build.mjs), then answers each
// message, an ArrayBuffer:
// - the engine (no task; the page's runner, src/ui/worker_runner.rs): a run request, answered with
//   an ArrayBuffer (transferred, not copied) that holds the run;
// - task=import (the import dialog, src/ui/import_worker.rs, a worker a parse): a file and its
//   mapping, answered with a progress ArrayBuffer after every chunk and the parsed rows (or the
//   error) at the end (src/import/wire.rs).
// A module that does not load is reported as { failed } and the page does the work itself.
const params = new URL(self.location.href).searchParams;
const js = new URL(params.get('js') || '', self.location.href).href;
const task = params.get('task');
const ready = import(js).then(async (m) => {
  const wasm = await m.default({ module_or_path: js.replace(/\.js$/, '_bg.wasm') });
  // For scripts/bench (e2e/scale-perf.bench.mjs): the worker's share of the page's memory.
  self.__tidemarkWasmBytes = () => wasm.memory.buffer.byteLength;
  return m;
});
ready.catch((e) => self.postMessage({ failed: String(e && e.message ? e.message : e) }));
const post = (bytes) => self.postMessage(bytes.buffer, [bytes.buffer]);
// For e2e/worker.test.mjs alone: a test that must catch a run in flight sets
// self.__tidemarkHoldRuns to a promise from outside (Playwright's worker.evaluate), and runs wait
// for it. Nothing in the page can reach this worker's global scope.
self.onmessage = async (e) => {
  const m = await ready;
  if (task === 'import') {
    post(m.parse_import(new Uint8Array(e.data), post));
  } else {
    if (self.__tidemarkHoldRuns) await self.__tidemarkHoldRuns;
    // An empty answer: a prime (the scenario a drag is about to edit, kept, not run).
    const answer = m.answer(new Uint8Array(e.data));
    if (answer.length) post(answer);
  }
};
