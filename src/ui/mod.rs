//! The Yew front end: one interactive event-time canvas over the engine's trace.
//!
//! - `state`: the application state and its one reducer (`enum Action`); pure, tested natively.
//! - `geometry`: event time ↔ pixels (`px_from_millis`, `millis_from_px`), ticks, snapping.
//! - `model`: what the canvas draws, derived once per run (lanes, rows) and per step (scene).
//! - `config`: the configuration panel's draft and its validation (Flink's own rules).
//! - `fragment`: the `#scenario=` / `#z=` / `&step=` URL contract.
//! - `history`: a bounded undo/redo history; `persist`: undo over every edit, the autosave.
//! - `app` and the component modules: the browser side, which only draws the state and turns
//!   gestures into actions.
pub mod config;
pub mod fragment;
pub mod geometry;
pub mod history;
pub mod model;
pub mod persist;
pub mod state;
pub mod teach_state;

pub mod chart_view;
pub mod charts;
pub mod export;
pub mod extras;
pub mod outputs;
pub mod teach_view;

pub mod app;
pub mod canvas;
pub mod controls;
pub mod panels;
pub mod resize;

pub use app::{App, install_panic_hook};
