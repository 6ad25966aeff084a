//! Tidemark: Apache Flink's event-time window operator, made visible.
//!
//! `engine` is a pure, deterministic model of Flink 2.3's `WindowOperator` (no browser, no clock);
//! `ui` is the Yew front end that only ever reads the engine's trace.
pub mod engine;
pub mod ui;
