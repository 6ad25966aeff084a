//! What an operator records while it runs: the trace events, numbered in order, and the outputs.

use super::output::Output;
use super::trace::{TraceEvent, TraceKind};

/// Receives the trace; `enabled = false` (benchmarks) keeps only outputs.
#[derive(Debug, Default)]
pub struct Recorder {
    pub enabled: bool,
    pub step: usize,
    pub seq: u32,
    pub events: Vec<TraceEvent>,
    pub outputs: Vec<Output>,
}

impl Recorder {
    pub fn push(&mut self, kind: TraceKind) {
        if self.enabled {
            self.events.push(TraceEvent { seq: self.seq, step: self.step, kind });
            self.seq += 1;
        }
    }
}
