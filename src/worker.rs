//! The third wasm module, `tidemark-worker`: the work the page hands to Web Workers
//! (TIMELINE_CONTRACT.md §3). `assets/engine-worker.js` loads it in a module worker, started with
//! one of two tasks:
//!
//! - the engine (the page's runner, `src/ui/worker_runner.rs`): every message's bytes go to
//!   [`answer`](tidemark::ui::runner::answer): the request's scenario (sent whole, or as a patch
//!   of the last one this worker was sent for its slot, which it keeps), run by the same
//!   `ui::runner::execute` as the page's main-thread runner, answered as bytes with the request's
//!   revision and slot; a prime (the scenario a drag is about to edit) is kept, not answered
//!   (`src/ui/runner.rs` has the protocol);
//! - the import of a file over 1 MB (`engine-worker.js?…&task=import`, started for one parse by
//!   the import dialog, `src/ui/import_worker.rs`): the message's bytes (the mapping and the file)
//!   go to [`parse_import`], which posts its progress after every chunk and answers with the parsed
//!   rows or the error (`src/import/wire.rs` has the protocol). A worker a parse, so the dialog's
//!   Cancel terminates it.
//!
//! Only the engine, the scenario's JSON reader and the import's parser are linked in: the page's UI
//! is not. Natively it is an empty program.

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen::prelude::*;

    /// The answer to one request (both as bytes: `ui::runner::encode_request`, `WorkQueue::answered`).
    #[wasm_bindgen]
    pub fn answer(request: &[u8]) -> Vec<u8> {
        tidemark::ui::runner::answer(request)
    }

    /// The parse of one file (`import::wire::encode_request`'s bytes): `progress` is called with
    /// each chunk's progress message, and the result (parsed rows, or the error) is returned.
    #[wasm_bindgen]
    pub fn parse_import(request: Vec<u8>, progress: &js_sys::Function) -> Vec<u8> {
        use tidemark::import::wire;
        wire::answer(request, wire::WORKER_CHUNK_ROWS, |message| {
            let bytes = js_sys::Uint8Array::from(message.as_slice());
            let _ = progress.call1(&JsValue::NULL, &bytes);
        })
    }
}

fn main() {}
