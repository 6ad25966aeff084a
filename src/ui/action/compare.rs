//! Compare mode's vocabulary (`state::compare`) and the SQL view's window TVF.

use crate::engine::{Millis, Scenario};

/// One of compare mode's two configurations: A is the scenario on show, B the second one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// The SQL view's choice of window TVF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TvfKind {
    Tumble,
    Hop,
    Cumulate,
    Session,
}

impl TvfKind {
    pub const ALL: [TvfKind; 4] = [TvfKind::Tumble, TvfKind::Hop, TvfKind::Cumulate, TvfKind::Session];

    pub fn sql_name(&self) -> &'static str {
        match self {
            TvfKind::Tumble => "TUMBLE",
            TvfKind::Hop => "HOP",
            TvfKind::Cumulate => "CUMULATE",
            TvfKind::Session => "SESSION",
        }
    }
}

/// The ready-made comparisons (`state::compare`): each sets A and B from the scenario on show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareExample {
    /// Bounded out-of-orderness 5 s against 20 s.
    Bounds,
    /// The DataStream window against the closest window TVF.
    DataStreamVsTvf,
    /// `withIdleness` off against on.
    Idleness,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CompareAction {
    /// Compare mode with this second configuration (an empty input: the same input as A).
    Open(Box<Scenario>),
    Example(CompareExample),
    Close,
    /// A side's window: the DataStream window (`None`) or a window TVF (the SQL view: side A).
    SetTvf(Side, Option<TvfKind>),
    /// The SQL view's TVF sizes (side A), as Flink SQL accepts them.
    SetTvfSpec(crate::engine::scenario::TvfSpec),
    /// B's bounded out-of-orderness (ms).
    SetBound(Millis),
    /// B's allowed lateness (ms).
    SetLateness(Millis),
    /// B's `withIdleness` (ms; 0: off).
    SetIdleness(Millis),
}
