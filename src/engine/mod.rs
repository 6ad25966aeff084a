//! A faithful model of Apache Flink 2.3's event-time `WindowOperator`: pure, deterministic, no
//! browser and no clock. Time is always passed in, so the same code runs natively (tests, CLI,
//! benchmarks) and in the browser.
//!
//! One keyed window operator receives the input items in order. Each element is assigned to
//! windows, each window's trigger decides when the window function runs, and timers registered
//! with the event-time timer service fire when the watermark passes them:
//!
//! ```text
//!  input item ──element──▶ assign ──────────────────▶ merge (sessions) ──▶ trigger ──▶ outputs
//!     │          (assigner: tumbling /    (MergingWindowSet: overlapping   (onElement:  (fire: window
//!     │           sliding / session /      and touching windows merge;     FIRE, PURGE,  function runs;
//!     │           global; late windows     state, trigger state and       CONTINUE)     late elements
//!     │           skipped: cleanup time    cleanup timers merge too)                    → side output)
//!     │           <= watermark)                                              ▲
//!     └─watermark─▶ advance ──▶ timers (time <= watermark, in time order) ──┘
//!                   (only increasing   (trigger timer at end-1: onEventTime;
//!                    watermarks)        cleanup timer at end-1+lateness: clear all state)
//! ```
//!
//! Every step produces [`trace::TraceEvent`]s with a sequence number; the UI only reads the
//! trace. [`run::run`] runs a whole [`scenario::Scenario`]; [`view::StepView`] folds the trace
//! into what a playhead shows, for the timeline and the teaching layer alike.
//!
//! Where each part lives: `assigner.rs` (assign), `merging.rs` (merge), `trigger.rs` (the
//! triggers and their context), `timers.rs`, `evictor.rs`, `key_state.rs` (per-key window
//! state), `operator/` (the `WindowOperator` loop), `config.rs` (what Flink checks before the job
//! runs); `source.rs` (watermarks), `process_fn.rs` and `tvf.rs` (the other operators the source
//! feeds); `output.rs` (outputs, one [`Firing`] per window function call), `trace.rs`,
//! `trace_format.rs` (trace JSON and text), `view.rs` (the fold).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod aggregate;
mod assigner;
pub mod config;
mod evictor;
pub mod incremental;
mod key_state;
mod merging;
pub mod operator;
pub mod output;
pub mod process_fn;
pub mod recorder;
pub mod recovery;
pub mod run;
pub mod scenario;
pub mod source;
pub mod time;
pub mod timers;
pub mod trace;
pub mod trace_format;
pub mod trigger;
pub mod tvf;
pub mod view;
pub mod wire;

pub use operator::{OperatorStats, WindowOperator};
pub use output::{Firing, FlinkError, Output};
pub use run::{ElementInfo, Run, RunOptions, run, run_with};
pub use scenario::{InputItem, Scenario, ScenarioError};
pub use time::{Millis, TimeWindow, Window};
pub use trace::{FireCause, FiringKind, KeyId, TraceEvent, TraceKind};
pub use trigger::TriggerResult;
