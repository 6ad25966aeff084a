//! Tidemark: Apache Flink's event-time window operator, made visible.
//!
//! - `engine`: a pure, deterministic model of Flink 2.3's `WindowOperator` (no browser, no clock).
//! - `teach`: course presets, step narration, "why?" explanations and quiz checks, from the trace.
//! - `sinks`: what downstream sees: append-only, upsert and changelog views of the outputs.
//! - `import`: CSV, TSV and JSON Lines into a scenario, and the lateness report (pure, like the engine).
//! - `codegen`: the Flink program for a scenario (Java DataStream, PyFlink, Flink SQL).
//! - `ui`: the Yew front end; it only ever reads the engine's trace.
pub mod codegen;
pub mod engine;
pub mod import;
pub mod sinks;
pub mod teach;
pub mod ui;
