//! The mapping dialog's data: the format, the first rows, the columns with what they look like,
//! and a guessed [`ImportSpec`] the user corrects. Only the head of the file is read.

use serde_json::Value;

use super::parse::{
    self, Parsed, csv_reader, is_blank, json_lookup, median, record_line, strip_bom, unreadable, whole_number,
};
use super::timestamp::{
    TimeUnit, TimestampError, guess_epoch_unit, parse_decimal, parse_timestamp, plausible_epoch_unit,
};
use super::{Column, Format, ImportError, ImportSpec, Mapping};

/// Bytes of the file's head that a preview reads.
pub const PREVIEW_BYTES: usize = 256 * 1024;
/// Rows a preview samples to guess the columns.
const SAMPLE_ROWS: usize = 200;

/// What the cells of a column look like (over the sampled rows, empty cells ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    Empty,
    Integer,
    /// Numbers, some with a fraction.
    Decimal,
    /// ISO-8601 date-times, all with an offset.
    DateTime,
    /// ISO-8601 date-times, some without an offset (the user must give one).
    NaiveDateTime,
    Text,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnInfo {
    /// The header name, the JSON field path, or `column N` without a header.
    pub name: String,
    /// How a mapping refers to it.
    pub column: Column,
    /// What most of its sampled cells are.
    pub kind: ColumnKind,
    /// Sampled cells of another kind than `kind` (bad cells, if the column is what most say).
    pub odd: usize,
    /// Distinct non-empty values among the sampled rows.
    pub distinct: usize,
}

/// A row as the dialog shows it: its line and one text per column of [`Preview::columns`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviewRow {
    pub line: u64,
    pub cells: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Preview {
    pub columns: Vec<ColumnInfo>,
    /// The first rows (at most the `max_rows` asked for).
    pub rows: Vec<PreviewRow>,
    /// The guess: format, header and mapping.
    pub spec: ImportSpec,
    /// Whether the preview read the whole file (else only its first [`PREVIEW_BYTES`]).
    pub whole_file: bool,
    /// The bytes read, for [`Preview::trial`].
    head: Vec<u8>,
    /// Every sampled row (`rows` holds the first of them).
    sample: Vec<PreviewRow>,
}

impl Preview {
    /// Parses the sampled head with `spec`: the bad rows and warnings the dialog shows before
    /// the whole file is read (e.g. a likely unit mistake as the user picks a unit).
    pub fn trial(&self, spec: &ImportSpec) -> Result<Parsed, ImportError> {
        parse::parse(self.head.clone(), spec)
    }

    /// The unit a column's sampled cells look written in (milliseconds for a column it does not
    /// know or that holds no times): what the dialog preselects when the user picks a column.
    pub fn unit_of(&self, column: &Column) -> TimeUnit {
        let found = self.columns.iter().position(|c| match (column, &c.column) {
            (a, b) if a == b => true,
            (Column::Name(n), _) => c.name.eq_ignore_ascii_case(n.trim()),
            (Column::Index(i), Column::Name(_)) => self.columns.get(*i).is_some_and(|x| x.name == c.name),
            (Column::Index(_), Column::Index(_)) => false,
        });
        let position = || match column {
            Column::Name(n) => n.trim().parse::<usize>().ok().filter(|n| *n >= 1).map(|n| n - 1),
            Column::Index(i) => Some(*i),
        };
        match found.or_else(position).filter(|i| *i < self.columns.len()) {
            Some(i) if is_time_like(self.columns[i].kind) => unit_of(&self.columns, &self.sample, i),
            _ => TimeUnit::Millis,
        }
    }
}

/// Reads the head of `bytes`: format, header, columns, the first `max_rows` rows and a guess.
pub fn preview(bytes: &[u8], max_rows: usize) -> Result<Preview, ImportError> {
    let start = strip_bom(bytes)?;
    let whole_file = bytes.len() <= PREVIEW_BYTES;
    let mut head = bytes[..bytes.len().min(PREVIEW_BYTES)].to_vec();
    if !whole_file {
        // Cut after the last full line, so that the sample does not end in half a row.
        let end = head.iter().rposition(|b| *b == b'\n').map_or(head.len(), |i| i + 1);
        head.truncate(end);
    }
    let body = &head[start..];
    let format = sniff_format(body);
    let (has_header, names, rows) = match format {
        Format::JsonLines => json_table(body),
        Format::Delimited { delimiter } => delimited_table(&head, delimiter, start)?,
    };
    if rows.is_empty() {
        return Err(ImportError::Empty);
    }
    let columns: Vec<ColumnInfo> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let cells: Vec<&str> =
                rows.iter().filter_map(|r| r.cells.get(i)).map(|c| c.trim()).filter(|c| !c.is_empty()).collect();
            let mut distinct: Vec<&str> = cells.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let column = match format {
                Format::JsonLines => Column::Name(name.clone()),
                Format::Delimited { .. } if has_header => Column::Name(name.clone()),
                Format::Delimited { .. } => Column::Index(i),
            };
            let (kind, odd) = column_kind(&cells);
            ColumnInfo { name: name.clone(), column, kind, odd, distinct: distinct.len() }
        })
        .collect();
    let mapping = guess_mapping(&columns, &rows);
    let shown = rows.iter().take(max_rows).cloned().collect();
    Ok(Preview {
        columns,
        rows: shown,
        spec: ImportSpec { format, has_header, mapping },
        whole_file,
        head,
        sample: rows,
    })
}

/// JSON Lines when the first non-blank character opens an object; otherwise the delimiter that
/// occurs most often in the first line (outside quotes), `,` when none does.
fn sniff_format(body: &[u8]) -> Format {
    if body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        return Format::JsonLines;
    }
    let first_line = body.split(|b| *b == b'\n').find(|l| !l.iter().all(u8::is_ascii_whitespace)).unwrap_or(&[]);
    let mut counts = [(b',', 0usize), (b'\t', 0), (b';', 0), (b'|', 0)];
    let mut quoted = false;
    for b in first_line {
        if *b == b'"' {
            quoted = !quoted;
        } else if !quoted && let Some(c) = counts.iter_mut().find(|(d, _)| d == b) {
            c.1 += 1;
        }
    }
    // The first of the most frequent: `,` wins ties.
    let best = counts.iter().fold((b',', 0), |best, c| if c.1 > best.1 { *c } else { best });
    Format::Delimited { delimiter: best.0 }
}

type Table = (bool, Vec<String>, Vec<PreviewRow>);

fn delimited_table(head: &[u8], delimiter: u8, start: usize) -> Result<Table, ImportError> {
    let mut reader = csv_reader(head.to_vec(), delimiter, start);
    let mut record = csv::ByteRecord::new();
    let mut rows = Vec::new();
    while rows.len() <= SAMPLE_ROWS && reader.read_byte_record(&mut record).map_err(|e| unreadable(&e))? {
        if is_blank(&record) {
            continue;
        }
        let line = record_line(reader.get_ref().get_ref(), start, &record);
        let cells = record.iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect();
        rows.push(PreviewRow { line, cells });
    }
    let width = rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
    let has_header = rows.len() > 1 && looks_like_header(&rows);
    let names: Vec<String> = if has_header {
        let header = rows.remove(0);
        (0..width)
            .map(|i| header.cells.get(i).map(|c| c.trim().to_string()).unwrap_or_default())
            .map(|n| if n.is_empty() { String::from("?") } else { n })
            .collect()
    } else {
        (1..=width).map(|i| format!("column {i}")).collect()
    };
    Ok((has_header, names, rows))
}

/// A header: some column's first cell is text while the cells below it are data (numbers or
/// date-times); or no column holds data and the first row's cells are distinct names.
fn looks_like_header(rows: &[PreviewRow]) -> bool {
    let (first, rest) = (&rows[0], &rows[1..]);
    let is_data = |c: &str| matches!(cell_kind(c.trim()), Some(k) if k != ColumnKind::Text);
    let mut any_data_column = false;
    for (i, cell) in first.cells.iter().enumerate() {
        let below: Vec<&str> = rest.iter().filter_map(|r| r.cells.get(i)).map(String::as_str).collect();
        let data_below = below.iter().filter(|c| is_data(c)).count();
        if data_below * 2 > below.len() {
            any_data_column = true;
            if !is_data(cell) {
                return true;
            }
        }
    }
    let mut names: Vec<&str> = first.cells.iter().map(|c| c.trim()).collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    !any_data_column && names.len() == n && names.iter().all(|c| !c.is_empty())
}

fn json_table(body: &[u8]) -> Table {
    let mut names: Vec<String> = Vec::new();
    let mut objects = Vec::new();
    for (i, line) in body.split(|b| *b == b'\n').enumerate() {
        if objects.len() > SAMPLE_ROWS {
            break;
        }
        if let Some(Value::Object(o)) = std::str::from_utf8(line).ok().and_then(|t| serde_json::from_str(t).ok()) {
            let mut paths = Vec::new();
            flatten("", &o, 0, &mut paths);
            for p in paths {
                if !names.contains(&p) {
                    names.push(p);
                }
            }
            objects.push((i as u64 + 1, o));
        }
    }
    let rows = objects
        .iter()
        .map(|(line, o)| PreviewRow {
            line: *line,
            cells: names
                .iter()
                .map(|n| match json_lookup(o, n) {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                })
                .collect(),
        })
        .collect();
    (false, names, rows)
}

/// Field paths of an object, nested objects as dotted paths (three levels deep at most).
fn flatten(prefix: &str, o: &serde_json::Map<String, Value>, depth: usize, out: &mut Vec<String>) {
    for (k, v) in o {
        let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        match v {
            Value::Object(inner) if depth < 2 => flatten(&path, inner, depth + 1, out),
            _ => out.push(path),
        }
    }
}

fn cell_kind(cell: &str) -> Option<ColumnKind> {
    if cell.is_empty() {
        return None;
    }
    if whole_number(cell).is_some() {
        return Some(ColumnKind::Integer);
    }
    if parse_decimal(cell, 1, 1).is_some() {
        return Some(ColumnKind::Decimal);
    }
    match parse_timestamp(cell, TimeUnit::Iso, None) {
        Ok(_) => Some(ColumnKind::DateTime),
        Err(TimestampError::NeedsOffset) => Some(ColumnKind::NaiveDateTime),
        Err(TimestampError::Invalid(_)) => Some(ColumnKind::Text),
    }
}

/// The kind most cells have (numbers with and without a fraction count together, as do
/// date-times with and without an offset; ties go to numbers, then date-times), and how many
/// cells are of another kind: a few bad cells do not change what a column is.
fn column_kind(cells: &[&str]) -> (ColumnKind, usize) {
    let kinds: Vec<ColumnKind> = cells.iter().filter_map(|c| cell_kind(c)).collect();
    let count = |f: &dyn Fn(ColumnKind) -> bool| kinds.iter().filter(|k| f(**k)).count();
    let numbers = count(&|k| matches!(k, ColumnKind::Integer | ColumnKind::Decimal));
    let times = count(&|k| matches!(k, ColumnKind::DateTime | ColumnKind::NaiveDateTime));
    let texts = count(&|k| k == ColumnKind::Text);
    let number_kind = if kinds.contains(&ColumnKind::Decimal) { ColumnKind::Decimal } else { ColumnKind::Integer };
    let time_kind =
        if kinds.contains(&ColumnKind::NaiveDateTime) { ColumnKind::NaiveDateTime } else { ColumnKind::DateTime };
    let (kind, n) = [(number_kind, numbers), (time_kind, times), (ColumnKind::Text, texts)]
        .into_iter()
        .fold((ColumnKind::Empty, 0), |best, c| if c.1 > best.1 { c } else { best });
    (kind, kinds.len() - n)
}

/// Lower-case letters and digits only: `Event Time` and `event_time` are both `eventtime`; of a
/// JSON path only the last field counts (`meta.partition` is `partition`).
fn normalized(name: &str) -> String {
    let last = name.rsplit('.').next().unwrap_or(name);
    last.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

const TS_NAMES: &[&str] = &[
    "eventtime",
    "eventts",
    "eventtimestamp",
    "ts",
    "timestamp",
    "time",
    "datetime",
    "timestampms",
    "tsms",
    "createdat",
    "occurredat",
    "date",
];
const ARRIVAL_NAMES: &[&str] = &[
    "arrival",
    "arrivaltime",
    "arrivalts",
    "arrivalms",
    "arrivedat",
    "ingest",
    "ingestms",
    "ingesttime",
    "ingestiontime",
    "ingestedat",
    "processingtime",
    "proctime",
    "received",
    "receivedat",
    "receivedms",
    "receivetime",
];
const KEY_NAMES: &[&str] = &[
    "key",
    "userid",
    "user",
    "deviceid",
    "device",
    "sensorid",
    "sensor",
    "customerid",
    "customer",
    "accountid",
    "account",
    "sessionid",
    "host",
    "name",
    "id",
];
const VALUE_NAMES: &[&str] =
    &["value", "amount", "count", "val", "qty", "quantity", "bytes", "reading", "score", "clicks", "price"];
const PARTITION_NAMES: &[&str] = &["partition", "kafkapartition", "split", "shard", "partitionid"];

fn is_time_like(kind: ColumnKind) -> bool {
    matches!(kind, ColumnKind::DateTime | ColumnKind::NaiveDateTime | ColumnKind::Integer | ColumnKind::Decimal)
}

/// The first column (not yet taken) whose normalized name is in `names` (in the list's order of
/// preference) and whose kind fits.
fn by_name(
    columns: &[ColumnInfo],
    names: &[&str],
    taken: &[usize],
    fits: impl Fn(ColumnKind) -> bool,
) -> Option<usize> {
    names.iter().find_map(|want| {
        columns
            .iter()
            .enumerate()
            .find(|(i, c)| !taken.contains(i) && normalized(&c.name) == *want && fits(c.kind))
            .map(|(i, _)| i)
    })
}

/// The median cell of a numeric column, as text.
fn median_cell(rows: &[PreviewRow], i: usize) -> Option<&str> {
    let cells = || rows.iter().filter_map(|r| r.cells.get(i)).map(|c| c.trim());
    let mut values: Vec<i64> = cells().filter_map(|c| parse_decimal(c, 1, 1)).collect();
    let m = median(&mut values)?;
    cells().find(|c| parse_decimal(c, 1, 1) == Some(m))
}

/// The unit a time column's sampled cells are written in.
fn unit_of(columns: &[ColumnInfo], rows: &[PreviewRow], i: usize) -> TimeUnit {
    match columns[i].kind {
        ColumnKind::DateTime | ColumnKind::NaiveDateTime => TimeUnit::Iso,
        _ => median_cell(rows, i).and_then(guess_epoch_unit).unwrap_or(TimeUnit::Millis),
    }
}

fn guess_mapping(columns: &[ColumnInfo], rows: &[PreviewRow]) -> Mapping {
    let mut taken = Vec::new();
    let plausible_epoch = |i: usize| median_cell(rows, i).and_then(plausible_epoch_unit).is_some();
    let ts = by_name(columns, TS_NAMES, &taken, is_time_like)
        .or_else(|| columns.iter().position(|c| matches!(c.kind, ColumnKind::DateTime | ColumnKind::NaiveDateTime)))
        .or_else(|| (0..columns.len()).find(|i| is_time_like(columns[*i].kind) && plausible_epoch(*i)));
    taken.extend(ts);
    let arrival = by_name(columns, ARRIVAL_NAMES, &taken, is_time_like);
    taken.extend(arrival);
    let partition = by_name(columns, PARTITION_NAMES, &taken, |k| k == ColumnKind::Integer);
    taken.extend(partition);
    let key = by_name(columns, KEY_NAMES, &taken, |k| k != ColumnKind::Empty)
        .or_else(|| (0..columns.len()).find(|i| !taken.contains(i) && columns[*i].kind == ColumnKind::Text));
    taken.extend(key);
    let value = by_name(columns, VALUE_NAMES, &taken, |k| k == ColumnKind::Integer);
    let ts_unit = ts.map_or(TimeUnit::Millis, |i| unit_of(columns, rows, i));
    let arrival_unit = arrival.map(|i| unit_of(columns, rows, i)).filter(|u| *u != ts_unit);
    let column = |i: Option<usize>| i.map(|i| columns[i].column.clone());
    Mapping {
        key: column(key),
        ts: column(ts),
        value: column(value),
        partition: column(partition),
        arrival: column(arrival),
        ts_unit,
        arrival_unit,
        offset: None,
    }
}
