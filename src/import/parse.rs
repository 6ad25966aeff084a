//! Reading the rows: a resumable job over the file's bytes, so a Web Worker (or the main thread
//! between frames) can parse a large file in chunks and show progress, and a plain call for
//! everything else. CSV/TSV go through the `csv` crate (RFC 4180 quoting, fields spanning
//! lines, record line numbers); JSON Lines through `serde_json`, one object per line.

use std::borrow::Cow;
use std::io::Cursor;

use rustc_hash::FxHashSet;
use serde_json::Value;

use super::timestamp::{TimeUnit, TimestampError, UtcOffset, likely_unit, parse_timestamp};
use super::{BadRow, Column, Format, ImportError, ImportSpec, Mapping, Role, Warning};
use crate::engine::Millis;
use crate::engine::scenario::limits;

/// Bad rows kept with their reason; beyond it only the count grows (a file of 10^6 bad rows
/// must not need 10^6 messages to say so).
pub const MAX_BAD_ROWS_KEPT: usize = 1000;

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// One row read from the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedElement {
    /// The line of the file it starts on (1-based); it becomes the element's id.
    pub line: u64,
    pub key: String,
    pub ts: Millis,
    pub value: i64,
    pub partition: u32,
    /// Processing time in epoch milliseconds (or the column's own origin), if mapped.
    pub arrival: Option<Millis>,
}

/// Everything read from a file, bad rows included: the caller decides what to load.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The good rows, in file order.
    pub elements: Vec<ImportedElement>,
    /// The first [`MAX_BAD_ROWS_KEPT`] bad rows, in file order.
    pub bad_rows: Vec<BadRow>,
    /// All bad rows.
    pub bad_row_count: u64,
    /// Data rows read (good and bad; blank lines and the header are not rows).
    pub rows: u64,
    /// Distinct keys among the good rows.
    pub keys: usize,
    pub warnings: Vec<Warning>,
}

/// How far a job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub bytes_read: u64,
    pub total_bytes: u64,
    pub rows: u64,
    pub done: bool,
}

/// The limits an import respects (defaults: [`crate::engine::scenario::limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_elements: usize,
    pub max_keys: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_elements: limits::MAX_INPUT_ITEMS, max_keys: limits::MAX_KEYS }
    }
}

/// A resumable parse: [`ImportJob::step`] reads up to a number of rows and reports progress;
/// [`ImportJob::finish`] reads the rest and returns the [`Parsed`] rows.
pub struct ImportJob {
    source: Source,
    rows: RowReader,
    total_bytes: u64,
    done: bool,
}

enum Source {
    /// `start`: the bytes before the reader's first (a byte-order mark).
    Delimited {
        reader: csv::Reader<Cursor<Vec<u8>>>,
        record: csv::ByteRecord,
        columns: [Option<usize>; 5],
        start: u64,
    },
    Json {
        data: Vec<u8>,
        pos: usize,
        line: u64,
        paths: [Option<String>; 5],
    },
}

/// Whole-file parse.
pub fn parse(bytes: Vec<u8>, spec: &ImportSpec) -> Result<Parsed, ImportError> {
    ImportJob::new(bytes, spec)?.finish()
}

/// Parse in chunks of `chunk_rows`, calling `on_progress` after each; it returns `false` to
/// cancel (then the result is [`ImportError::Cancelled`] and nothing is kept).
pub fn parse_with_progress(
    bytes: Vec<u8>,
    spec: &ImportSpec,
    chunk_rows: usize,
    mut on_progress: impl FnMut(Progress) -> bool,
) -> Result<Parsed, ImportError> {
    let mut job = ImportJob::new(bytes, spec)?;
    loop {
        let p = job.step(chunk_rows)?;
        if !on_progress(p) {
            return Err(ImportError::Cancelled);
        }
        if p.done {
            return job.finish();
        }
    }
}

/// The bytes after a UTF-8 byte-order mark, or an error for UTF-16 text.
pub(super) fn strip_bom(bytes: &[u8]) -> Result<usize, ImportError> {
    if bytes.starts_with(UTF8_BOM) {
        Ok(UTF8_BOM.len())
    } else if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        Err(ImportError::Unreadable { line: 1, message: "the file is UTF-16 text; save it as UTF-8".into() })
    } else {
        Ok(0)
    }
}

pub(super) fn csv_reader(data: Vec<u8>, delimiter: u8, start: usize) -> csv::Reader<Cursor<Vec<u8>>> {
    let mut cursor = Cursor::new(data);
    cursor.set_position(start as u64);
    csv::ReaderBuilder::new().delimiter(delimiter).has_headers(false).flexible(true).from_reader(cursor)
}

/// A record that is only blank space (csv-core already skips empty lines).
pub(super) fn is_blank(record: &csv::ByteRecord) -> bool {
    record.len() == 1 && record.get(0).is_some_and(|f| f.iter().all(u8::is_ascii_whitespace))
}

/// The line a record starts on. The reader's position is where the previous record ended, so
/// blank lines that csv-core skipped before the record are counted here.
pub(super) fn record_line(data: &[u8], start: usize, record: &csv::ByteRecord) -> u64 {
    let Some(pos) = record.position() else { return 0 };
    let from = start.saturating_add(pos.byte() as usize);
    let skipped = data.get(from..).unwrap_or_default().iter().take_while(|b| matches!(b, b'\r' | b'\n'));
    pos.line() + skipped.filter(|b| **b == b'\n').count() as u64
}

/// A CSV reader error as the user reads it.
pub(super) fn unreadable(e: &csv::Error) -> ImportError {
    let line = e.position().map_or(0, csv::Position::line);
    ImportError::Unreadable { line, message: format!("cannot be read: {e}") }
}

impl ImportJob {
    pub fn new(bytes: Vec<u8>, spec: &ImportSpec) -> Result<ImportJob, ImportError> {
        let mapping = &spec.mapping;
        for role in [Role::Key, Role::EventTime] {
            if mapping.column(role).is_none() {
                return Err(ImportError::Unmapped(role));
            }
        }
        let total_bytes = bytes.len() as u64;
        let start = strip_bom(&bytes)?;
        let source = match spec.format {
            Format::Delimited { delimiter } => {
                let mut reader = csv_reader(bytes, delimiter, start);
                let mut record = csv::ByteRecord::new();
                let mut header: Option<Vec<String>> = None;
                if spec.has_header {
                    while reader.read_byte_record(&mut record).map_err(|e| unreadable(&e))? {
                        if !is_blank(&record) {
                            header =
                                Some(record.iter().map(|f| String::from_utf8_lossy(f).trim().to_string()).collect());
                            break;
                        }
                    }
                }
                let mut columns = [None; 5];
                for (slot, role) in columns.iter_mut().zip(Role::ALL) {
                    if let Some(c) = mapping.column(role) {
                        *slot = Some(resolve(c, role, header.as_deref())?);
                    }
                }
                Source::Delimited { reader, record, columns, start: start as u64 }
            }
            Format::JsonLines => {
                let mut paths: [Option<String>; 5] = Default::default();
                for (slot, role) in paths.iter_mut().zip(Role::ALL) {
                    match mapping.column(role) {
                        None => {}
                        Some(Column::Name(n)) => *slot = Some(n.clone()),
                        Some(Column::Index(_)) => return Err(ImportError::IndexInJsonLines { role }),
                    }
                }
                Source::Json { data: bytes, pos: start, line: 0, paths }
            }
        };
        Ok(ImportJob { source, rows: RowReader::new(mapping.clone(), Limits::default()), total_bytes, done: false })
    }

    /// Other limits than the page's (the command line may allow more).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.rows.limits = limits;
        self
    }

    pub fn progress(&self) -> Progress {
        let bytes_read = match &self.source {
            Source::Delimited { reader, start, .. } => reader.position().byte() + start,
            Source::Json { pos, .. } => *pos as u64,
        };
        Progress {
            bytes_read: if self.done { self.total_bytes } else { bytes_read.min(self.total_bytes) },
            total_bytes: self.total_bytes,
            rows: self.rows.parsed.rows,
            done: self.done,
        }
    }

    /// Reads up to `max_rows` rows.
    pub fn step(&mut self, max_rows: usize) -> Result<Progress, ImportError> {
        let mut n = 0;
        while n < max_rows.max(1) && !self.done {
            match &mut self.source {
                Source::Delimited { reader, record, columns, start } => {
                    if !reader.read_byte_record(record).map_err(|e| unreadable(&e))? {
                        self.done = true;
                        break;
                    }
                    let line = record_line(reader.get_ref().get_ref(), *start as usize, record);
                    if is_blank(record) {
                        continue;
                    }
                    n += 1;
                    let fields = record.len();
                    let record = &*record;
                    self.rows.row(line, |role| match columns[role as usize] {
                        None => Cell::Absent,
                        Some(i) => match record.get(i) {
                            None => Cell::Missing { fields },
                            Some(bytes) => match std::str::from_utf8(bytes) {
                                Ok(s) => Cell::Text(Cow::Borrowed(s)),
                                Err(e) => Cell::NotUtf8 { at: e.valid_up_to() },
                            },
                        },
                    })?;
                }
                Source::Json { data, pos, line, paths } => {
                    if *pos >= data.len() {
                        self.done = true;
                        break;
                    }
                    let rest = &data[*pos..];
                    let end = rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
                    let text = &rest[..end];
                    *pos += (end + 1).min(rest.len());
                    *line += 1;
                    if text.iter().all(u8::is_ascii_whitespace) {
                        continue;
                    }
                    n += 1;
                    // `from_str`, not `from_slice`: the page already has serde_json's parser for
                    // text (scenarios), and a second one for bytes would add to the wasm.
                    let Ok(text) = std::str::from_utf8(text) else {
                        self.rows.bad(*line, "is not UTF-8 text".into());
                        continue;
                    };
                    let object = match serde_json::from_str::<Value>(text) {
                        Ok(Value::Object(o)) => o,
                        Ok(other) => {
                            self.rows.bad(*line, format!("is JSON but not an object: {}", quote(&other.to_string())));
                            continue;
                        }
                        Err(e) => {
                            self.rows.bad(*line, format!("is not valid JSON: {e}"));
                            continue;
                        }
                    };
                    self.rows.row(*line, |role| match &paths[role as usize] {
                        None => Cell::Absent,
                        Some(path) => json_cell(&object, path),
                    })?;
                }
            }
        }
        Ok(self.progress())
    }

    /// Reads what is left and returns the rows.
    pub fn finish(mut self) -> Result<Parsed, ImportError> {
        while !self.done {
            self.step(usize::MAX)?;
        }
        Ok(self.rows.finish())
    }
}

fn resolve(column: &Column, role: Role, header: Option<&[String]>) -> Result<usize, ImportError> {
    let available = || header.map(|h| h.iter().map(|n| format!("'{n}'")).collect()).unwrap_or_default();
    match column {
        Column::Index(i) => Ok(*i),
        Column::Name(name) => {
            let exact = header.and_then(|h| h.iter().position(|n| n == name));
            let loose = || header.and_then(|h| h.iter().position(|n| n.trim().eq_ignore_ascii_case(name.trim())));
            // A number names a position (1-based) when no header is called that.
            let position = || name.trim().parse::<usize>().ok().filter(|n| *n >= 1).map(|n| n - 1);
            exact.or_else(loose).or_else(position).ok_or_else(|| ImportError::NoSuchColumn {
                role,
                column: column.clone(),
                available: available(),
            })
        }
    }
}

/// A field of a JSON object: the field called `path`, else the dotted path into nested objects.
pub(super) fn json_lookup<'a>(object: &'a serde_json::Map<String, Value>, path: &str) -> Option<&'a Value> {
    if let Some(v) = object.get(path) {
        return Some(v);
    }
    let mut parts = path.split('.');
    let mut v = object.get(parts.next()?)?;
    for part in parts {
        v = v.as_object()?.get(part)?;
    }
    Some(v)
}

fn json_cell<'a>(object: &'a serde_json::Map<String, Value>, path: &str) -> Cell<'a> {
    match json_lookup(object, path) {
        None => Cell::NoField,
        Some(Value::Null) => Cell::Null,
        Some(Value::String(s)) => Cell::Text(Cow::Borrowed(s)),
        Some(Value::Number(n)) => Cell::Text(Cow::Owned(n.to_string())),
        Some(Value::Bool(b)) => Cell::Text(Cow::Owned(b.to_string())),
        Some(Value::Array(_) | Value::Object(_)) => Cell::Nested,
    }
}

/// A mapped cell of one row.
enum Cell<'a> {
    /// The role has no column.
    Absent,
    /// The row is shorter than the column's position.
    Missing {
        fields: usize,
    },
    /// The JSON object has no such field.
    NoField,
    Null,
    Nested,
    NotUtf8 {
        at: usize,
    },
    Text(Cow<'a, str>),
}

/// User text quoted in a reason, shortened.
pub(super) fn quote(s: &str) -> String {
    if s.chars().count() > 40 { format!("'{}…'", s.chars().take(40).collect::<String>()) } else { format!("'{s}'") }
}

/// Turns rows into elements and bad rows, counting keys and naive timestamps.
struct RowReader {
    mapping: Mapping,
    limits: Limits,
    parsed: Parsed,
    keys: FxHashSet<String>,
    naive: [u64; 5],
}

impl RowReader {
    fn new(mapping: Mapping, limits: Limits) -> Self {
        RowReader { mapping, limits, parsed: Parsed::default(), keys: FxHashSet::default(), naive: [0; 5] }
    }

    fn bad(&mut self, line: u64, reason: String) {
        self.parsed.rows += 1;
        self.parsed.bad_row_count += 1;
        if self.parsed.bad_rows.len() < MAX_BAD_ROWS_KEPT {
            self.parsed.bad_rows.push(BadRow { line, reason });
        }
    }

    fn row<'a>(&mut self, line: u64, cell: impl Fn(Role) -> Cell<'a>) -> Result<(), ImportError> {
        match self.element(line, &cell) {
            Ok(e) => {
                if self.parsed.elements.len() >= self.limits.max_elements {
                    return Err(ImportError::TooManyElements { limit: self.limits.max_elements, line });
                }
                if !self.keys.contains(&e.key) {
                    if self.keys.len() >= self.limits.max_keys {
                        return Err(ImportError::TooManyKeys { limit: self.limits.max_keys, line });
                    }
                    self.keys.insert(e.key.clone());
                }
                self.parsed.rows += 1;
                self.parsed.elements.push(e);
                Ok(())
            }
            Err(RowError::Bad(reason)) => {
                self.bad(line, reason);
                Ok(())
            }
            Err(RowError::Fatal(e)) => Err(e),
        }
    }

    /// The text of a mapped cell, or why there is none.
    fn text<'c>(&self, role: Role, cell: &'c Cell<'_>) -> Result<&'c str, RowError> {
        let what = role.label();
        match cell {
            Cell::Text(s) if s.trim().is_empty() => Err(RowError::Bad(format!("the {what} is empty"))),
            Cell::Text(s) => Ok(s.trim()),
            Cell::Absent => Err(RowError::Bad(format!("no {what} column"))),
            Cell::Missing { fields } => Err(RowError::Bad(format!(
                "has {fields} field(s), so no {what} column {}",
                self.mapping.column(role).map_or(String::new(), Column::to_string)
            ))),
            Cell::NoField => Err(RowError::Bad(format!(
                "has no {what} field {}",
                self.mapping.column(role).map_or(String::new(), Column::to_string)
            ))),
            Cell::Null => Err(RowError::Bad(format!("the {what} is null"))),
            Cell::Nested => Err(RowError::Bad(format!("the {what} is an object or array, not a value"))),
            Cell::NotUtf8 { at } => {
                Err(RowError::Bad(format!("the {what} is not UTF-8 text (invalid byte after {at} bytes)")))
            }
        }
    }

    fn time(&mut self, line: u64, role: Role, text: &str, unit: TimeUnit) -> Result<Millis, RowError> {
        match parse_timestamp(text, unit, self.mapping.offset) {
            Ok((ms, naive)) => {
                self.naive[role as usize] += u64::from(naive);
                Ok(ms)
            }
            Err(TimestampError::Invalid(why)) => {
                Err(RowError::Bad(format!("the {} {} {why}", role.label(), quote(text))))
            }
            Err(TimestampError::NeedsOffset) => {
                Err(RowError::Fatal(ImportError::NeedsOffset { role, line, text: text.to_string() }))
            }
        }
    }

    fn element<'a>(&mut self, line: u64, cell: &impl Fn(Role) -> Cell<'a>) -> Result<ImportedElement, RowError> {
        let key_cell = cell(Role::Key);
        let key = self.text(Role::Key, &key_cell)?.to_string();
        if key.chars().count() > limits::MAX_KEY_CHARS {
            return Err(RowError::Bad(format!("the key is longer than {} characters", limits::MAX_KEY_CHARS)));
        }
        let ts_cell = cell(Role::EventTime);
        let ts_text = self.text(Role::EventTime, &ts_cell)?;
        let ts = self.time(line, Role::EventTime, ts_text, self.mapping.ts_unit)?;
        let value = match self.mapping.value {
            None => 1,
            Some(_) => {
                let c = cell(Role::Value);
                let t = self.text(Role::Value, &c)?;
                whole_number(t).ok_or_else(|| {
                    RowError::Bad(format!(
                        "the value {} is not a whole number (Tidemark sums 64-bit integers)",
                        quote(t)
                    ))
                })?
            }
        };
        let partition = match self.mapping.partition {
            None => 0,
            Some(_) => {
                let c = cell(Role::Partition);
                let t = self.text(Role::Partition, &c)?;
                whole_number(t).and_then(|p| u32::try_from(p).ok()).filter(|p| *p < limits::MAX_PARTITIONS).ok_or_else(
                    || {
                        RowError::Bad(format!(
                            "the partition {} is not a number from 0 to {}",
                            quote(t),
                            limits::MAX_PARTITIONS - 1
                        ))
                    },
                )?
            }
        };
        let arrival = match self.mapping.arrival {
            None => None,
            Some(_) => {
                let c = cell(Role::Arrival);
                let t = self.text(Role::Arrival, &c)?;
                let unit = self.mapping.arrival_unit.unwrap_or(self.mapping.ts_unit);
                Some(self.time(line, Role::Arrival, t, unit)?)
            }
        };
        Ok(ImportedElement { line, key, ts, value, partition, arrival })
    }

    fn finish(mut self) -> Parsed {
        self.parsed.keys = self.keys.len();
        let elements = &self.parsed.elements;
        let mut warnings = Vec::new();
        let roles: [(Role, TimeUnit, Vec<Millis>); 2] = [
            (Role::EventTime, self.mapping.ts_unit, elements.iter().map(|e| e.ts).collect()),
            (
                Role::Arrival,
                self.mapping.arrival_unit.unwrap_or(self.mapping.ts_unit),
                elements.iter().filter_map(|e| e.arrival).collect(),
            ),
        ];
        for (role, unit, mut times) in roles {
            if let Some(median) = median(&mut times)
                && let Some((likely, as_likely)) = likely_unit(unit, median)
            {
                warnings.push(Warning::LikelyUnitMistake {
                    role,
                    chosen: unit,
                    likely,
                    median_as_chosen: median,
                    median_as_likely: as_likely,
                });
            }
            let count = self.naive[role as usize];
            if count > 0 {
                let offset = self.mapping.offset.unwrap_or(UtcOffset::UTC);
                warnings.push(Warning::NaiveTimestamps { role, count, offset });
            }
        }
        self.parsed.warnings = warnings;
        self.parsed
    }
}

/// The lower median (`None` for no values).
pub(super) fn median(values: &mut [Millis]) -> Option<Millis> {
    if values.is_empty() {
        return None;
    }
    let mid = (values.len() - 1) / 2;
    Some(*values.select_nth_unstable(mid).1)
}

/// An integer, also written with a zero fraction (`12.0`), as JSON writers often do.
pub(super) fn whole_number(text: &str) -> Option<i64> {
    let t = text.trim();
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    if !frac.bytes().all(|b| b == b'0') {
        return None;
    }
    let digits = int.strip_prefix(['+', '-']).unwrap_or(int);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    int.strip_prefix('+').unwrap_or(int).parse().ok()
}

enum RowError {
    Bad(String),
    Fatal(ImportError),
}
