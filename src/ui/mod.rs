//! The Yew front end: one interactive event-time canvas over the engine's trace. It reads like
//! yew's `examples/function_todomvc`, scaled up; imports run one way (`docs/architecture.md`,
//! checked by `tests/import_graph.rs`):
//!
//! ```text
//!  components ──▶ hooks ──▶ state ──▶ scene, runner, storage ──▶ action ──▶ engine, teach, sinks, codegen
//!      └──────────▶ charts, export, extras (the browser's own I/O)
//! ```
//!
//! - `action`: the vocabulary: every change is an `Action`.
//! - `state`: `AppState` split by concern, with its one reducer (`AppState::dispatch`); pure, tested natively.
//! - `scene`: the canvas as items (built from the view fold at the playhead and the viewport), hit
//!   testing and keyboard moves on them; `runner`: engine runs as effects (`worker_runner`: in a
//!   Web Worker; `import_worker`: the import's parse of a large file in one); `storage`: the autosave.
//! - `hooks`: the browser's events and effects as named hooks; `components`: one component a file.
//! - `geometry` (event time ↔ pixels), `fragment` (the URL contract), `history` (undo, generic).
pub mod action;
pub mod charts;
pub mod components;
pub mod export;
pub mod extras;
pub mod fragment;
pub mod geometry;
pub mod history;
pub mod hooks;
pub mod import_worker;
pub mod runner;
pub mod scene;
pub mod state;
pub mod storage;
pub mod worker_runner;

pub use components::app::{App, install_panic_hook};
