//! The third wasm module, `tidemark-worker`: the engine in a Web Worker (TIMELINE_CONTRACT.md §3).
//! `assets/engine-worker.js` loads it in a module worker and hands every message's bytes to
//! [`answer`](tidemark::ui::runner::answer): the request's scenario, run by the same
//! `ui::runner::execute` as the page's main-thread runner, answered as bytes with the request's
//! revision and slot (`src/ui/runner.rs` has the protocol). Only the engine and the scenario's JSON
//! reader are linked in: the page's UI is not. Natively it is an empty program.

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen::prelude::*;

    /// The answer to one request (both as bytes: `ui::runner::encode_request`, `WorkQueue::answered`).
    #[wasm_bindgen]
    pub fn answer(request: &[u8]) -> Vec<u8> {
        tidemark::ui::runner::answer(request)
    }
}

fn main() {}
