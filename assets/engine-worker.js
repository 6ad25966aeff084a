// The engine's Web Worker (src/worker.rs, TIMELINE_CONTRACT.md §3), a module worker started by the
// page's runner (src/ui/worker_runner.rs) as `engine-worker.js?js=<tidemark-worker-….js>`: it loads
// that module (the hashed name is the loader script's data-worker, written by
// scripts/trunk-post-build.mjs), then answers each message, an ArrayBuffer with a run request, with
// an ArrayBuffer (transferred, not copied) that holds the run. A module that does not load is
// reported as { failed } and the page falls back to its main-thread runner.
const js = new URL(new URL(self.location.href).searchParams.get('js') || '', self.location.href).href;
const ready = import(js).then(async (m) => {
  const wasm = await m.default({ module_or_path: js.replace(/\.js$/, '_bg.wasm') });
  // For scripts/bench (e2e/scale-perf.bench.mjs): the worker's share of the page's memory.
  self.__tidemarkWasmBytes = () => wasm.memory.buffer.byteLength;
  return m;
});
ready.catch((e) => self.postMessage({ failed: String(e && e.message ? e.message : e) }));
self.onmessage = async (e) => {
  const m = await ready;
  const out = m.answer(new Uint8Array(e.data));
  self.postMessage(out.buffer, [out.buffer]);
};
