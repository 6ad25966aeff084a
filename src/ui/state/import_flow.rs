//! The import flow of your own stream (CSV, TSV, JSON Lines): its steps and their one reducer.
//! Pure, like the rest of the state: the bytes come in from a file, a drop or pasted text; the
//! reducer reads the head ([`crate::import::preview`]), keeps the user's mapping and re-reads
//! the head with it on every change (the bad rows and warnings shown before loading, "seconds
//! read as milliseconds" among them), takes the parse's progress and result, and makes the
//! scenario when the user chooses. The parse itself runs outside ([`ImportFlow::job`]): files over
//! 1 MB in a Web Worker (`ui::import_worker`), or where there is none in chunks between frames on
//! the main thread; both only report [`FlowAction::Progress`] and [`FlowAction::Parsed`], and the
//! component says which one it is with [`FlowAction::ParseOn`]. A worker that fails
//! ([`FlowAction::WorkerFailed`]) hands the parse to the main thread, from the start.
//!
//! ```text
//!  Paste ──Read──▶ Mapping ──Import──▶ Parsing (progress, cancel) ──▶ Review (bad rows, warnings) ──▶ Load
//!    (no file)      columns, units,     over 1 MB in a worker, else     skip N bad rows | back | cancel
//!                   offset, warnings    in chunks (small ones at once)  nothing bad: straight to Load
//! ```

use std::rc::Rc;

use crate::import::{
    self, BadRow, BadRowPolicy, Column, ImportError, ImportJob, ImportSpec, Imported, Parsed, Preview, Progress, Role,
    ScenarioOptions, TimeUnit, UtcOffset,
};

/// Files larger than this are parsed in a Web Worker (or in chunks), with a progress bar (the issue's 1 MB).
pub const CHUNKED_BYTES: usize = 1 << 20;
/// Rows a chunk of the main thread's parse reads before it yields.
pub const CHUNK_ROWS: usize = 20_000;
/// Rows of the file the mapping dialog shows.
pub const PREVIEW_ROWS: usize = 8;
/// Bad rows of the sample listed under the mapping.
const TRIAL_BAD_ROWS: usize = 5;

/// Where the flow is.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// No file: the user pastes text.
    Paste,
    /// The columns, units and offset, with the head's bad rows and warnings.
    Mapping,
    /// The whole file is being read.
    Parsing { bytes_read: u64, total_bytes: u64, rows: u64 },
    /// The parse found bad rows or warnings: the user decides.
    Review(Rc<Parsed>),
    /// Ready to load: the component hands the scenario to the page and closes.
    Load(Rc<Imported>),
    /// Cancelled: nothing is loaded.
    Cancelled,
}

/// Where the parse runs (the dialog's `data-parser` test hook).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parser {
    /// A Web Worker of its own (files over 1 MB).
    Worker,
    /// The page's thread: at once up to 1 MB, in chunks above where no worker can be made.
    MainThread,
}

impl Parser {
    pub fn name(self) -> &'static str {
        match self {
            Parser::Worker => "worker",
            Parser::MainThread => "main-thread",
        }
    }
}

/// What the head says about the current mapping, before anything is loaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trial {
    pub warnings: Vec<String>,
    pub bad_rows: Vec<BadRow>,
    pub bad_row_count: u64,
    pub rows: u64,
    /// Why the mapping cannot be read at all (no key column, a naive time without an offset…).
    pub error: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ImportFlow {
    pub name: String,
    pub phase: Phase,
    /// The file's bytes (pasted text as UTF-8).
    pub bytes: Rc<[u8]>,
    /// What is typed into the paste box.
    pub pasted: String,
    pub preview: Option<Rc<Preview>>,
    /// The mapping as the user has it.
    pub spec: Option<ImportSpec>,
    /// The naive-timestamp offset as typed (`+02:00`); empty: none given.
    pub offset_text: String,
    pub offset_error: Option<String>,
    pub trial: Trial,
    /// Why the last step failed (nothing was loaded).
    pub error: Option<String>,
    /// Where the current (or last) parse runs; `None` while the component has not said.
    pub parser: Option<Parser>,
    /// A worker failed on this file: it is parsed on the main thread from now on.
    pub worker_failed: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FlowAction {
    Paste(String),
    /// Read the pasted text.
    ReadPasted,
    /// Map a role to column `Some(i)` of the preview, or to none.
    SetColumn(Role, Option<usize>),
    SetUnit(TimeUnit),
    /// The arrival column's unit (`None`: as the event time's).
    SetArrivalUnit(Option<TimeUnit>),
    SetOffset(String),
    SetHeader(bool),
    /// The user pressed Import: the parse starts.
    Start,
    /// The component started the parse here.
    ParseOn(Parser),
    /// The worker could not parse (why): the parse starts again on the main thread.
    WorkerFailed(String),
    Progress(Progress),
    Parsed(Result<Rc<Parsed>, ImportError>),
    /// Load the good rows, skipping the bad ones.
    Skip,
    /// Back from the review to the mapping.
    Back,
    Cancel,
}

impl ImportFlow {
    /// The flow for a file's bytes (straight to the mapping) or, with no bytes, for pasting.
    pub fn new(name: &str, bytes: Rc<[u8]>) -> ImportFlow {
        let mut f = ImportFlow {
            name: name.to_string(),
            phase: Phase::Paste,
            bytes,
            pasted: String::new(),
            preview: None,
            spec: None,
            offset_text: String::new(),
            offset_error: None,
            trial: Trial::default(),
            error: None,
            parser: None,
            worker_failed: false,
        };
        if !f.bytes.is_empty() {
            f.read_head();
        }
        f
    }

    /// Whether the whole file is parsed with a progress bar (in a worker, or in chunks) rather than at once.
    pub fn chunked(&self) -> bool {
        self.bytes.len() > CHUNKED_BYTES
    }

    /// Whether the parse should go to a Web Worker: a file over 1 MB, and no worker failed on it.
    pub fn wants_worker(&self) -> bool {
        self.chunked() && !self.worker_failed
    }

    /// The parse has started and waits for the component to say where it runs.
    pub fn parse_unplaced(&self) -> bool {
        matches!(self.phase, Phase::Parsing { .. }) && self.parser.is_none()
    }

    /// The parse of the whole file with the user's mapping (run by the component, or a worker).
    pub fn job(&self) -> Result<ImportJob, ImportError> {
        let Some(spec) = &self.spec else { return Err(ImportError::Empty) };
        ImportJob::new(self.bytes.to_vec(), spec)
    }

    /// The index in the preview's columns of the column mapped to `role`.
    pub fn column_of(&self, role: Role) -> Option<usize> {
        let (preview, spec) = (self.preview.as_ref()?, self.spec.as_ref()?);
        let c = spec.mapping.column(role)?;
        preview.columns.iter().position(|x| &x.column == c)
    }

    pub fn reduce(&mut self, action: FlowAction) {
        match action {
            FlowAction::Paste(text) => self.pasted = text,
            FlowAction::ReadPasted => {
                self.bytes = Rc::from(self.pasted.as_bytes());
                self.read_head();
            }
            FlowAction::SetColumn(role, i) => {
                let column = i.and_then(|i| self.preview.as_ref()?.columns.get(i)).map(|c| c.column.clone());
                let unit = column.as_ref().and_then(|c| Some(self.preview.as_ref()?.unit_of(c)));
                if let Some(spec) = &mut self.spec {
                    let m = &mut spec.mapping;
                    match role {
                        Role::Key => m.key = column,
                        Role::EventTime => {
                            m.ts = column;
                            // Picking a column picks the unit its cells look written in.
                            if let Some(u) = unit {
                                m.ts_unit = u;
                            }
                        }
                        Role::Value => m.value = column,
                        Role::Partition => m.partition = column,
                        Role::Arrival => {
                            m.arrival = column;
                            m.arrival_unit = unit.filter(|u| *u != m.ts_unit);
                        }
                    }
                }
                self.retry();
            }
            FlowAction::SetUnit(u) => {
                if let Some(spec) = &mut self.spec {
                    spec.mapping.ts_unit = u;
                }
                self.retry();
            }
            FlowAction::SetArrivalUnit(u) => {
                if let Some(spec) = &mut self.spec {
                    spec.mapping.arrival_unit = u;
                }
                self.retry();
            }
            FlowAction::SetOffset(text) => {
                let text: String = text.chars().take(12).collect();
                let parsed =
                    if text.trim().is_empty() { Ok(None) } else { UtcOffset::parse(&text).map(Some).ok_or(()) };
                match parsed {
                    Ok(offset) => {
                        self.offset_error = None;
                        if let Some(spec) = &mut self.spec {
                            spec.mapping.offset = offset;
                        }
                    }
                    Err(()) => {
                        self.offset_error = Some("write a fixed offset like +02:00, -05:30 or Z".into());
                    }
                }
                self.offset_text = text;
                self.retry();
            }
            FlowAction::SetHeader(h) => {
                if let Some(spec) = &mut self.spec {
                    spec.has_header = h;
                }
                self.retry();
            }
            FlowAction::Start => {
                if self.can_start() {
                    self.error = None;
                    self.parser = None;
                    self.phase = Phase::Parsing { bytes_read: 0, total_bytes: self.bytes.len() as u64, rows: 0 };
                }
            }
            FlowAction::ParseOn(parser) => {
                if matches!(self.phase, Phase::Parsing { .. }) {
                    self.parser = Some(parser);
                }
            }
            FlowAction::WorkerFailed(_) => {
                if matches!(self.phase, Phase::Parsing { .. }) && self.parser == Some(Parser::Worker) {
                    self.worker_failed = true;
                    self.parser = None;
                    self.phase = Phase::Parsing { bytes_read: 0, total_bytes: self.bytes.len() as u64, rows: 0 };
                }
            }
            FlowAction::Progress(p) => {
                if matches!(self.phase, Phase::Parsing { .. }) {
                    self.phase = Phase::Parsing { bytes_read: p.bytes_read, total_bytes: p.total_bytes, rows: p.rows };
                }
            }
            FlowAction::Parsed(result) => {
                if !matches!(self.phase, Phase::Parsing { .. }) {
                    return;
                }
                match result {
                    Ok(parsed) if parsed.bad_row_count == 0 && parsed.warnings.is_empty() => {
                        self.build(&parsed, BadRowPolicy::Cancel)
                    }
                    Ok(parsed) => self.phase = Phase::Review(parsed),
                    Err(ImportError::Cancelled) => self.phase = Phase::Mapping,
                    Err(e) => {
                        self.error = Some(e.to_string());
                        self.phase = Phase::Mapping;
                    }
                }
            }
            FlowAction::Skip => {
                if let Phase::Review(parsed) = &self.phase {
                    let parsed = parsed.clone();
                    self.build(&parsed, BadRowPolicy::Skip);
                }
            }
            FlowAction::Back => {
                if matches!(self.phase, Phase::Review(_) | Phase::Parsing { .. }) {
                    self.phase = Phase::Mapping;
                }
            }
            FlowAction::Cancel => self.phase = Phase::Cancelled,
        }
    }

    /// The mapping can be read: a key and an event-time column, and the head reads.
    pub fn can_start(&self) -> bool {
        self.phase == Phase::Mapping && self.spec.is_some() && self.trial.error.is_none() && self.offset_error.is_none()
    }

    /// The scenario of the parsed rows (bounded out-of-orderness with the bound suggested from
    /// the data), or why not; with bad rows only when the user chose to skip them.
    fn build(&mut self, parsed: &Parsed, policy: BadRowPolicy) {
        let options = ScenarioOptions { name: self.scenario_name(), ..ScenarioOptions::default() };
        match import::build_scenario(parsed, policy, &options) {
            Ok(imported) => self.phase = Phase::Load(Rc::new(imported)),
            Err(e) => {
                self.error = Some(e.to_string());
                self.phase = Phase::Mapping;
            }
        }
    }

    /// The file's name without its extension.
    fn scenario_name(&self) -> String {
        let stem = self.name.rsplit_once('.').map_or(self.name.as_str(), |(s, _)| s);
        if stem.is_empty() { "imported".into() } else { stem.chars().take(60).collect() }
    }

    /// Reads the head: the columns, the first rows and the guessed mapping.
    fn read_head(&mut self) {
        match import::preview(&self.bytes, PREVIEW_ROWS) {
            Ok(p) => {
                self.spec = Some(p.spec.clone());
                self.offset_text = p.spec.mapping.offset.map(|o| o.to_string()).unwrap_or_default();
                self.preview = Some(Rc::new(p));
                self.error = None;
                self.phase = Phase::Mapping;
                self.retry();
            }
            Err(e) => {
                self.error = Some(e.to_string());
                self.phase = Phase::Paste;
                if self.pasted.is_empty() {
                    self.pasted = String::from_utf8_lossy(&self.bytes[..self.bytes.len().min(4096)]).into_owned();
                }
            }
        }
    }

    /// Re-reads the head with the current mapping.
    fn retry(&mut self) {
        let (Some(preview), Some(spec)) = (&self.preview, &self.spec) else { return };
        self.trial = match preview.trial(spec) {
            Ok(p) => Trial {
                warnings: p.warnings.iter().map(import::Warning::message).collect(),
                bad_rows: p.bad_rows.iter().take(TRIAL_BAD_ROWS).cloned().collect(),
                bad_row_count: p.bad_row_count,
                rows: p.rows,
                error: None,
            },
            Err(e) => Trial { error: Some(e.to_string()), ..Trial::default() },
        };
    }
}

/// The one line the page shows after a load: what came in, what was skipped, the bound chosen.
pub fn summary(name: &str, imported: &Imported) -> String {
    let s = &imported.scenario;
    let elements = s.input.len();
    let keys: std::collections::BTreeSet<&str> = s.elements().map(|e| e.key.as_str()).collect();
    let mut text = format!("Imported “{name}”: {elements} elements, {} keys", keys.len());
    if imported.skipped > 0 {
        text.push_str(&format!(", {} bad rows skipped", imported.skipped));
    }
    let sug = &imported.suggestion;
    text.push_str(&format!(
        ". Bounded out-of-orderness {} (suggested from the data: {} of {} elements arrived out of order, the 99th percentile {} behind).",
        import::format_duration(sug.bound),
        sug.out_of_order,
        sug.elements,
        import::format_duration(sug.quantile_disorder),
    ));
    text
}

/// A column's label in the dialog: its name and what it holds.
pub fn column_label(preview: &Preview, i: usize) -> String {
    use crate::import::ColumnKind as K;
    let Some(c) = preview.columns.get(i) else { return String::new() };
    let kind = match c.kind {
        K::Empty => "empty",
        K::Integer => "whole numbers",
        K::Decimal => "numbers",
        K::DateTime => "date-times",
        K::NaiveDateTime => "date-times without offset",
        K::Text => "text",
    };
    let name = match &c.column {
        Column::Name(n) => n.clone(),
        Column::Index(_) => c.name.clone(),
    };
    format!("{name} ({kind})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(name: &str) -> Rc<[u8]> {
        let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        match std::fs::read(&path) {
            Ok(b) => Rc::from(b),
            Err(e) => panic!("{path}: {e}"),
        }
    }

    /// Runs the parse the way the component does, in chunks, and hands the result over.
    fn parse_all(f: &mut ImportFlow) {
        f.reduce(FlowAction::Start);
        assert!(matches!(f.phase, Phase::Parsing { .. }), "{:?}", f.phase);
        let mut job = match f.job() {
            Ok(j) => j,
            Err(e) => return f.reduce(FlowAction::Parsed(Err(e))),
        };
        loop {
            match job.step(100) {
                Ok(p) => {
                    f.reduce(FlowAction::Progress(p));
                    if p.done {
                        break;
                    }
                }
                Err(e) => return f.reduce(FlowAction::Parsed(Err(e))),
            }
        }
        f.reduce(FlowAction::Parsed(job.finish().map(Rc::new)));
    }

    /// A clean file goes from the mapping straight to a scenario with bounded out-of-orderness,
    /// its bound suggested from the data; the guessed mapping picks the sensor, the date-times,
    /// the reading, the partition and the ingestion time.
    #[test]
    fn a_clean_csv_loads_with_the_suggested_bound() {
        let mut f = ImportFlow::new("sensors.csv", data("sensors.csv"));
        assert_eq!(f.phase, Phase::Mapping);
        let name = |r: Role| f.column_of(r).map(|i| f.preview.as_ref().map(|p| p.columns[i].name.clone()));
        assert_eq!(name(Role::Key), Some(Some("sensor".into())));
        assert_eq!(name(Role::EventTime), Some(Some("event_time".into())));
        assert_eq!(name(Role::Value), Some(Some("reading".into())));
        assert_eq!(f.preview.as_ref().map(|p| p.rows.len()), Some(PREVIEW_ROWS));
        assert_eq!(f.trial.error, None);
        // Arrival order defaults to file order: the dialog's guess of ingest_ms is the user's to drop.
        f.reduce(FlowAction::SetColumn(Role::Arrival, None));
        parse_all(&mut f);
        let Phase::Load(imported) = &f.phase else { panic!("{:?} {:?}", f.phase, f.error) };
        let s = &imported.scenario;
        assert_eq!(s.input.len(), 1067);
        assert!(s.elements().all(|e| e.arrival.is_none()));
        assert_eq!(s.name, "sensors");
        match s.watermarks {
            crate::engine::scenario::WatermarkSpec::BoundedOutOfOrderness { bound } => {
                assert_eq!(bound, imported.suggestion.bound);
                assert!(bound > 0);
            }
            ref w => panic!("{w:?}"),
        }
        let text = summary("sensors.csv", imported);
        assert!(text.starts_with("Imported “sensors.csv”: 1067 elements, "), "{text}");
        assert!(text.contains(&import::format_duration(imported.suggestion.bound)), "{text}");
    }

    /// Bad rows stop the flow for the user's choice: skip (the count is kept) or cancel (nothing).
    #[test]
    fn bad_rows_are_reviewed_then_skipped_or_cancelled() {
        let mut f = ImportFlow::new("bad_rows.csv", data("bad_rows.csv"));
        assert!(f.trial.bad_row_count > 0, "the head shows the bad rows before loading");
        assert_eq!(f.trial.bad_rows.first().map(|b| b.line), Some(4));
        parse_all(&mut f);
        let Phase::Review(parsed) = &f.phase else { panic!("{:?}", f.phase) };
        let (bad, good) = (parsed.bad_row_count, parsed.elements.len());
        assert!(bad >= 1 && good >= 1);
        let mut cancelled = f.clone();
        cancelled.reduce(FlowAction::Cancel);
        assert_eq!(cancelled.phase, Phase::Cancelled);
        let mut back = f.clone();
        back.reduce(FlowAction::Back);
        assert_eq!(back.phase, Phase::Mapping);
        f.reduce(FlowAction::Skip);
        let Phase::Load(imported) = &f.phase else { panic!("{:?}", f.phase) };
        assert_eq!(imported.skipped, bad);
        assert_eq!(imported.scenario.input.len(), good);
        assert!(summary("bad_rows.csv", imported).contains(&format!("{bad} bad rows skipped")));
    }

    /// Epoch seconds read as milliseconds are said before loading, and the unit fixes it.
    #[test]
    fn a_unit_mistake_is_said_before_loading() {
        let mut f = ImportFlow::new("sensors_seconds.csv", data("sensors_seconds.csv"));
        assert_eq!(f.spec.as_ref().map(|s| s.mapping.ts_unit), Some(TimeUnit::Seconds), "guessed right");
        assert!(f.trial.warnings.is_empty(), "{:?}", f.trial.warnings);
        f.reduce(FlowAction::SetUnit(TimeUnit::Millis));
        assert!(
            f.trial.warnings.iter().any(|w| w.contains("epoch seconds") && w.contains("1970")),
            "{:?}",
            f.trial.warnings
        );
        // Loading anyway goes through the review, where the warning stands again.
        parse_all(&mut f);
        assert!(matches!(f.phase, Phase::Review(_)), "{:?}", f.phase);
        f.reduce(FlowAction::Back);
        f.reduce(FlowAction::SetUnit(TimeUnit::Seconds));
        assert!(f.trial.warnings.is_empty());
    }

    /// Naive date-times need an offset: the dialog cannot start without one, a bad one is said
    /// next to its field, and a good one makes the head read.
    #[test]
    fn naive_times_need_a_fixed_offset() {
        let mut f = ImportFlow::new("sensors_local.csv", data("sensors_local.csv"));
        assert!(f.trial.error.as_deref().is_some_and(|e| e.contains("no offset")), "{:?}", f.trial);
        assert!(!f.can_start());
        f.reduce(FlowAction::SetOffset("Europe/Paris".into()));
        assert!(f.offset_error.is_some());
        assert!(!f.can_start());
        f.reduce(FlowAction::SetOffset("+01:00".into()));
        assert_eq!(f.offset_error, None);
        assert_eq!(f.trial.error, None, "{:?}", f.trial);
        assert!(f.can_start());
    }

    /// Pasted text goes through the same mapping; text that is no table says why and stays.
    #[test]
    fn pasted_text_is_read_like_a_file() {
        let mut f = ImportFlow::new("pasted text", Rc::from(Vec::new()));
        assert_eq!(f.phase, Phase::Paste);
        f.reduce(FlowAction::Paste("user,ts,amount\na,1000,5\nb,2500,7\na,1800,1\n".into()));
        f.reduce(FlowAction::ReadPasted);
        assert_eq!(f.phase, Phase::Mapping);
        parse_all(&mut f);
        let Phase::Load(imported) = &f.phase else { panic!("{:?} {:?}", f.phase, f.error) };
        let ts: Vec<i64> = imported.scenario.elements().map(|e| e.ts).collect();
        assert_eq!(ts, [1000, 2500, 1800]);
        let mut empty = ImportFlow::new("pasted text", Rc::from(Vec::new()));
        empty.reduce(FlowAction::Paste("\n\n".into()));
        empty.reduce(FlowAction::ReadPasted);
        assert_eq!(empty.phase, Phase::Paste);
        assert!(empty.error.is_some());
    }

    /// A CSV just over 1 MB (about 44,000 rows).
    fn big_csv() -> ImportFlow {
        let mut text = String::from("key,ts\n");
        let mut i = 0u64;
        while text.len() <= CHUNKED_BYTES {
            text.push_str(&format!("sensor-{},{}\n", i % 7, 1_700_000_000_000 + i * 10));
            i += 1;
        }
        ImportFlow::new("big.csv", Rc::from(text.into_bytes()))
    }

    /// A file over 1 MB is parsed in chunks; the progress moves and a cancel loads nothing.
    #[test]
    fn large_files_parse_in_chunks_and_cancel() {
        let mut f = big_csv();
        assert!(f.chunked());
        f.reduce(FlowAction::Start);
        let Ok(mut job) = f.job() else { panic!("job") };
        let Ok(p) = job.step(CHUNK_ROWS) else { panic!("step") };
        f.reduce(FlowAction::Progress(p));
        let Phase::Parsing { bytes_read, total_bytes, rows } = f.phase else { panic!("{:?}", f.phase) };
        assert!(bytes_read > 0 && bytes_read < total_bytes && rows == CHUNK_ROWS as u64);
        f.reduce(FlowAction::Parsed(Err(ImportError::Cancelled)));
        assert_eq!(f.phase, Phase::Mapping);
        assert_eq!(f.error, None);
    }

    /// Where the parse runs is the component's to say; a worker that fails hands the parse to the
    /// main thread from the start, and this file is not given to a worker again.
    #[test]
    fn a_failed_worker_hands_the_parse_to_the_main_thread() {
        let mut f = big_csv();
        assert!(f.wants_worker() && !f.parse_unplaced());
        f.reduce(FlowAction::ParseOn(Parser::Worker));
        assert_eq!(f.parser, None, "not parsing yet: nothing to place");
        f.reduce(FlowAction::Start);
        assert!(f.parse_unplaced());
        f.reduce(FlowAction::ParseOn(Parser::Worker));
        assert!(!f.parse_unplaced());
        assert_eq!(f.parser.map(Parser::name), Some("worker"));
        let Ok(mut job) = f.job() else { panic!("job") };
        let Ok(p) = job.step(1000) else { panic!("step") };
        f.reduce(FlowAction::Progress(p));
        f.reduce(FlowAction::WorkerFailed("the module did not load".into()));
        let total = f.bytes.len() as u64;
        assert_eq!(f.phase, Phase::Parsing { bytes_read: 0, total_bytes: total, rows: 0 }, "from the start");
        assert!(f.parse_unplaced() && !f.wants_worker() && f.worker_failed);
        f.reduce(FlowAction::ParseOn(Parser::MainThread));
        // A failure said by a worker no longer in charge changes nothing.
        f.reduce(FlowAction::WorkerFailed("late".into()));
        assert_eq!(f.parser, Some(Parser::MainThread));
        let Ok(job) = f.job() else { panic!("job") };
        f.reduce(FlowAction::Parsed(job.finish().map(Rc::new)));
        let Phase::Load(imported) = &f.phase else { panic!("{:?} {:?}", f.phase, f.error) };
        assert!(imported.scenario.input.len() > 40_000);
        assert_eq!(f.parser.map(Parser::name), Some("main-thread"), "the hook still says where it ran");
    }
}
