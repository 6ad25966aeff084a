//! Your own stream: CSV, TSV and JSON Lines turned into a [`Scenario`], and the lateness report
//! that answers "why no output?" and "what bound do I need?". Pure like the engine (no browser,
//! no clock), so the same code runs in the CLI, in tests and in a Web Worker.
//!
//! ```text
//!  bytes ──preview──▶ Preview (first rows, columns, a guessed ImportSpec) ──the user edits──▶ ImportSpec
//!  bytes + ImportSpec ──ImportJob::step (chunks, progress)──▶ Parsed (elements, bad rows with lines, warnings)
//!                      (in the page over 1 MB: in a Web Worker, `wire`: the request, progress and result as bytes)
//!  Parsed + BadRowPolicy (skip | cancel) + ScenarioOptions ──build_scenario──▶ Imported (Scenario with a
//!                                                          suggested bounded out-of-orderness)
//!  Scenario + bounds ──lateness::report──▶ LatenessReport (late share, on time / late-fired / dropped
//!                                          per bound, result delay)
//! ```
//!
//! Nothing is half-loaded silently: a row that cannot be read is a [`BadRow`] (line number and
//! reason), and [`build_scenario`] refuses a stream with bad rows unless the caller says
//! [`BadRowPolicy::Skip`]; a file over one of [`crate::engine::scenario::limits`] is an
//! [`ImportError`], never a truncated scenario.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fmt;

pub mod lateness;
mod parse;
mod preview;
mod stream;
pub mod timestamp;
pub mod wire;

pub use lateness::{BoundRow, BoundSuggestion, LatenessReport, Method, ReportError};
pub use parse::{ImportJob, ImportedElement, Limits, MAX_BAD_ROWS_KEPT, Parsed, Progress, parse, parse_with_progress};
pub use preview::{ColumnInfo, ColumnKind, PREVIEW_BYTES, Preview, PreviewRow, preview};
pub use stream::{Imported, ScenarioOptions, build_scenario, format_duration, parse_duration, parse_window};
pub use timestamp::{TimeUnit, UtcOffset};

use crate::engine::Millis;
use crate::engine::scenario::ScenarioError;

/// The text format of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Delimited text (RFC 4180 quoting): `,` for CSV, `\t` for TSV, `;` or `|` as found.
    Delimited { delimiter: u8 },
    /// One JSON object per line.
    JsonLines,
}

impl Format {
    pub const CSV: Format = Format::Delimited { delimiter: b',' };
    pub const TSV: Format = Format::Delimited { delimiter: b'\t' };

    pub fn label(&self) -> String {
        match self {
            Format::Delimited { delimiter: b',' } => "CSV".into(),
            Format::Delimited { delimiter: b'\t' } => "TSV".into(),
            Format::Delimited { delimiter } => format!("delimited by '{}'", char::from(*delimiter)),
            Format::JsonLines => "JSON Lines".into(),
        }
    }

    /// `csv`, `tsv`, `jsonl` (the command line's `--format`).
    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "csv" => Some(Format::CSV),
            "tsv" => Some(Format::TSV),
            "jsonl" | "ndjson" | "json" => Some(Format::JsonLines),
            _ => None,
        }
    }
}

/// A column of the file: by header name (for JSON Lines a field name, or a dotted path into
/// nested objects), or by position (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    Name(String),
    Index(usize),
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Column::Name(n) => write!(f, "'{n}'"),
            Column::Index(i) => write!(f, "column {}", i + 1),
        }
    }
}

/// What a column means to the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Key,
    EventTime,
    Value,
    Partition,
    Arrival,
}

impl Role {
    pub const ALL: [Role; 5] = [Role::Key, Role::EventTime, Role::Value, Role::Partition, Role::Arrival];

    pub fn label(&self) -> &'static str {
        match self {
            Role::Key => "key",
            Role::EventTime => "event time",
            Role::Value => "value",
            Role::Partition => "partition",
            Role::Arrival => "arrival",
        }
    }
}

/// Which column plays which role, and how its timestamps are written. `key` and `ts` are
/// required to parse; `None` there is what a preview answers when it found no candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub key: Option<Column>,
    pub ts: Option<Column>,
    /// `None`: every element has value 1 (the scenario format's default).
    pub value: Option<Column>,
    /// `None`: every element is read from partition 0.
    pub partition: Option<Column>,
    /// Processing time of each row. `None`: arrival order is file order, 100 ms apart.
    pub arrival: Option<Column>,
    pub ts_unit: TimeUnit,
    /// The arrival column's unit; `None`: the same as `ts_unit`.
    pub arrival_unit: Option<TimeUnit>,
    /// The offset of naive date-times (no `Z`, no `+02:00`). Written offsets always win.
    pub offset: Option<UtcOffset>,
}

impl Default for Mapping {
    fn default() -> Self {
        Mapping {
            key: None,
            ts: None,
            value: None,
            partition: None,
            arrival: None,
            ts_unit: TimeUnit::Millis,
            arrival_unit: None,
            offset: None,
        }
    }
}

impl Mapping {
    pub fn column(&self, role: Role) -> Option<&Column> {
        match role {
            Role::Key => self.key.as_ref(),
            Role::EventTime => self.ts.as_ref(),
            Role::Value => self.value.as_ref(),
            Role::Partition => self.partition.as_ref(),
            Role::Arrival => self.arrival.as_ref(),
        }
    }
}

/// Everything needed to read a file: its format, whether its first row names the columns, and
/// the mapping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportSpec {
    pub format: Format,
    /// Delimited text only: the first record is a header.
    pub has_header: bool,
    pub mapping: Mapping,
}

/// A row that could not be read: its line in the file (1-based; for a quoted field spanning
/// lines, the line where the record starts) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRow {
    pub line: u64,
    pub reason: String,
}

impl fmt::Display for BadRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// What to do with bad rows: the caller's choice, never a default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadRowPolicy {
    /// Load the good rows; the skipped count is reported.
    Skip,
    /// Load nothing when any row is bad.
    Cancel,
}

/// Something the caller shows before loading: the data can be read, but it is probably not
/// what the user meant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// The median timestamp is no plausible date in the chosen unit (1990 to 2100) but is one
    /// in `likely`: the course's "timestamps in seconds read as milliseconds".
    LikelyUnitMistake {
        role: Role,
        chosen: TimeUnit,
        likely: TimeUnit,
        median_as_chosen: Millis,
        median_as_likely: Millis,
    },
    /// Naive date-times were read at the user's offset.
    NaiveTimestamps { role: Role, count: u64, offset: UtcOffset },
    /// The whole stream spans less event time than one window: it fills one or two windows.
    SpanWithinOneWindow { elements: u64, span: Millis, window: Millis },
}

impl Warning {
    pub fn message(&self) -> String {
        use timestamp::format_utc;
        match self {
            Warning::LikelyUnitMistake { role, chosen, likely, median_as_chosen, median_as_likely } => format!(
                "the {} column read as {} puts the median at {}; read as {} it is {}: are they {}?",
                role.label(),
                chosen.label(),
                format_utc(*median_as_chosen),
                likely.label(),
                format_utc(*median_as_likely),
                likely.label()
            ),
            Warning::NaiveTimestamps { role, count, offset } => {
                format!("{count} {} value(s) had no offset and were read at {offset}", role.label())
            }
            Warning::SpanWithinOneWindow { elements, span, window } => format!(
                "all {elements} elements lie within {} of event time, less than one {} window: is the time unit right?",
                stream::format_duration(*span),
                stream::format_duration(*window)
            ),
        }
    }
}

/// Why nothing was loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// The file has no data rows.
    Empty,
    /// A required role has no column.
    Unmapped(Role),
    /// The mapping names a column the file does not have.
    NoSuchColumn { role: Role, column: Column, available: Vec<String> },
    /// JSON Lines fields have no position.
    IndexInJsonLines { role: Role },
    /// A date-time without an offset, and the mapping gives none.
    NeedsOffset { role: Role, line: u64, text: String },
    /// More elements than Tidemark's limit.
    TooManyElements { limit: usize, line: u64 },
    /// A new key beyond Tidemark's limit of distinct keys.
    TooManyKeys { limit: usize, line: u64 },
    /// The file cannot be read as the chosen format at all (the CSV reader's own error).
    Unreadable { line: u64, message: String },
    /// Rows could not be read and the policy is [`BadRowPolicy::Cancel`].
    BadRows { count: u64, first: Vec<BadRow> },
    /// The progress callback asked to stop.
    Cancelled,
    /// The scenario breaks one of Tidemark's limits (e.g. element-window assignments).
    Scenario(ScenarioError),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Empty => f.write_str("the file has no data rows"),
            ImportError::Unmapped(role) => write!(f, "no column is mapped to the {}", role.label()),
            ImportError::NoSuchColumn { role, column, available } => write!(
                f,
                "the {} column {column} is not in the file (columns: {})",
                role.label(),
                if available.is_empty() { "none".into() } else { available.join(", ") }
            ),
            ImportError::IndexInJsonLines { role } => {
                write!(f, "the {} column must be a field name in JSON Lines, not a position", role.label())
            }
            ImportError::NeedsOffset { role, line, text } => write!(
                f,
                "line {line}: the {} {text:?} has no offset (Z or +02:00): say which fixed offset such times are in (--offset +HH:MM; +00:00 for UTC)",
                role.label()
            ),
            ImportError::TooManyElements { limit, line } => write!(
                f,
                "line {line}: more than {limit} elements, Tidemark's limit; nothing was loaded (split the file or sample it)"
            ),
            ImportError::TooManyKeys { limit, line } => {
                write!(f, "line {line}: a key beyond the limit of {limit} distinct keys; nothing was loaded")
            }
            ImportError::Unreadable { line, message } => write!(f, "line {line}: {message}"),
            ImportError::BadRows { count, first } => {
                write!(f, "{count} bad row(s)")?;
                if let Some(b) = first.first() {
                    write!(f, ", the first at {b}")?;
                }
                Ok(())
            }
            ImportError::Cancelled => f.write_str("import cancelled"),
            ImportError::Scenario(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ImportError {}
