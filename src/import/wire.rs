//! A file's parse in a Web Worker, as bytes (the `tidemark-worker` module's second entry point,
//! `parse_import`; the page's side is `ui::import_worker`). The same encoding as a run's
//! ([`crate::engine::wire`]: fixed-width little-endian fields, a byte tag per variant, a `u64`
//! length before every list and string), over the import's types. Every message is one
//! transferred `ArrayBuffer`:
//!
//! ```text
//!  page → worker   the ImportSpec | the file's bytes (to the end)
//!  worker → page   0 | Progress                       after every chunk of WORKER_CHUNK_ROWS rows
//!                  1 | Parsed        or   2 | ImportError          once, at the end
//!                  3 | why the request could not be read (the page then parses on the main thread)
//! ```
//!
//! The worker runs [`parse_with_progress`], the chunked job the main thread runs between frames,
//! so both give the same [`Parsed`] or the same [`ImportError`]. A message that is not this
//! encoding is a [`WireError`], never a panic.

use super::parse::{ImportedElement, Parsed, Progress, parse_with_progress};
use super::timestamp::{TimeUnit, UtcOffset};
use super::{BadRow, Column, Format, ImportError, ImportSpec, Mapping, Role, Warning};
use crate::engine::ScenarioError;
use crate::engine::wire::{Reader, Sink, Wire, WireError, wire_enum, wire_struct};

/// Rows the worker reads between two progress messages: a few milliseconds of work, so the bar
/// moves smoothly; the worker does not yield (the page's thread is not the one that reads).
pub const WORKER_CHUNK_ROWS: usize = 5_000;

/// What the worker says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// After a chunk: how far the parse is.
    Progress(Progress),
    /// The end: the rows read (bad rows included), or why nothing can be loaded.
    Done(Result<Parsed, ImportError>),
    /// The worker could not read the request (not a parse error of the file).
    Refused(String),
}

wire_enum!(Role { 0 => Key {}, 1 => EventTime {}, 2 => Value {}, 3 => Partition {}, 4 => Arrival {} });
wire_enum!(TimeUnit { 0 => Seconds {}, 1 => Millis {}, 2 => Micros {}, 3 => Nanos {}, 4 => Iso {} });
wire_enum!(Format { 0 => Delimited { delimiter }, 1 => JsonLines {} });
wire_struct!(UtcOffset { minutes });
wire_struct!(Mapping { key, ts, value, partition, arrival, ts_unit, arrival_unit, offset });
wire_struct!(ImportSpec { format, has_header, mapping });
wire_struct!(Progress { bytes_read, total_bytes, rows, done });
wire_struct!(ImportedElement { line, key, ts, value, partition, arrival });
wire_struct!(BadRow { line, reason });
wire_struct!(Parsed { elements, bad_rows, bad_row_count, rows, keys, warnings });
wire_struct!(ScenarioError { path, message });
wire_enum!(Warning {
    0 => LikelyUnitMistake { role, chosen, likely, median_as_chosen, median_as_likely },
    1 => NaiveTimestamps { role, count, offset },
    2 => SpanWithinOneWindow { elements, span, window },
});

impl Wire for Column {
    fn put<S: Sink>(&self, out: &mut S) {
        match self {
            Column::Name(n) => {
                out.push(0);
                n.put(out);
            }
            Column::Index(i) => {
                out.push(1);
                i.put(out);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Self {
        match u8::get(r) {
            0 => Column::Name(String::get(r)),
            1 => Column::Index(usize::get(r)),
            _ => {
                r.fail("an unknown variant of Column");
                Self::get(r)
            }
        }
    }
}

impl Wire for ImportError {
    fn put<S: Sink>(&self, out: &mut S) {
        use ImportError as E;
        match self {
            E::Empty => out.push(0),
            E::Unmapped(role) => {
                out.push(1);
                role.put(out);
            }
            E::NoSuchColumn { role, column, available } => {
                out.push(2);
                role.put(out);
                column.put(out);
                available.put(out);
            }
            E::IndexInJsonLines { role } => {
                out.push(3);
                role.put(out);
            }
            E::NeedsOffset { role, line, text } => {
                out.push(4);
                role.put(out);
                line.put(out);
                text.put(out);
            }
            E::TooManyElements { limit, line } => {
                out.push(5);
                limit.put(out);
                line.put(out);
            }
            E::TooManyKeys { limit, line } => {
                out.push(6);
                limit.put(out);
                line.put(out);
            }
            E::Unreadable { line, message } => {
                out.push(7);
                line.put(out);
                message.put(out);
            }
            E::BadRows { count, first } => {
                out.push(8);
                count.put(out);
                first.put(out);
            }
            E::Cancelled => out.push(9),
            E::Scenario(e) => {
                out.push(10);
                e.put(out);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Self {
        use ImportError as E;
        match u8::get(r) {
            0 => E::Empty,
            1 => E::Unmapped(Wire::get(r)),
            2 => E::NoSuchColumn { role: Wire::get(r), column: Wire::get(r), available: Wire::get(r) },
            3 => E::IndexInJsonLines { role: Wire::get(r) },
            4 => E::NeedsOffset { role: Wire::get(r), line: Wire::get(r), text: Wire::get(r) },
            5 => E::TooManyElements { limit: Wire::get(r), line: Wire::get(r) },
            6 => E::TooManyKeys { limit: Wire::get(r), line: Wire::get(r) },
            7 => E::Unreadable { line: Wire::get(r), message: Wire::get(r) },
            8 => E::BadRows { count: Wire::get(r), first: Wire::get(r) },
            9 => E::Cancelled,
            10 => E::Scenario(Wire::get(r)),
            _ => {
                r.fail("an unknown variant of ImportError");
                Self::get(r)
            }
        }
    }
}

/// The request: the spec, then the file's bytes.
pub fn encode_request(spec: &ImportSpec, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 128);
    spec.put(&mut out);
    out.extend_from_slice(bytes);
    out
}

/// The spec and the file's bytes of a request (the bytes are moved, not copied: the spec's are
/// drained from the front).
pub fn decode_request(mut request: Vec<u8>) -> Result<(ImportSpec, Vec<u8>), WireError> {
    let (spec, left) = {
        let mut r = Reader::new(&request);
        let spec = ImportSpec::get(&mut r);
        r.ok()?;
        (spec, r.remaining())
    };
    let used = request.len() - left;
    request.drain(..used);
    Ok((spec, request))
}

pub fn encode_answer(answer: &Answer) -> Vec<u8> {
    let mut out = Vec::new();
    match answer {
        Answer::Progress(p) => {
            out.push(0);
            p.put(&mut out);
        }
        Answer::Done(Ok(parsed)) => {
            // About 40 bytes a row: one allocation for the whole answer.
            out.reserve(64 + 48 * parsed.elements.len());
            out.push(1);
            parsed.put(&mut out);
        }
        Answer::Done(Err(e)) => {
            out.push(2);
            e.put(&mut out);
        }
        Answer::Refused(why) => {
            out.push(3);
            why.put(&mut out);
        }
    }
    out
}

/// An answer back from [`encode_answer`]'s bytes; the bytes must end with it.
pub fn decode_answer(bytes: &[u8]) -> Result<Answer, WireError> {
    let mut r = Reader::new(bytes);
    let answer = match u8::get(&mut r) {
        0 => Answer::Progress(Progress::get(&mut r)),
        1 => Answer::Done(Ok(Parsed::get(&mut r))),
        2 => Answer::Done(Err(ImportError::get(&mut r))),
        3 => Answer::Refused(String::get(&mut r)),
        _ => return Err(WireError("an unknown kind of import answer")),
    };
    r.finish(answer, "bytes follow the import answer")
}

/// What the worker does with a request: the parse in chunks of `chunk_rows` rows, `progress`
/// handed each chunk's [`Answer::Progress`] as bytes; returns the last answer's bytes.
pub fn answer(request: Vec<u8>, chunk_rows: usize, mut progress: impl FnMut(Vec<u8>)) -> Vec<u8> {
    let answer = match decode_request(request) {
        Err(e) => Answer::Refused(format!("the worker could not read the import request: {e}")),
        Ok((spec, bytes)) => Answer::Done(parse_with_progress(bytes, &spec, chunk_rows, |p| {
            progress(encode_answer(&Answer::Progress(p)));
            true
        })),
    };
    encode_answer(&answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{parse, preview};

    fn data(name: &str) -> Vec<u8> {
        let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn guessed_spec(bytes: &[u8]) -> ImportSpec {
        preview(bytes, 8).unwrap_or_else(|e| panic!("{e}")).spec
    }

    /// Runs the worker's side on a request and reads its messages the way the page does.
    fn through_worker(spec: &ImportSpec, bytes: &[u8], chunk_rows: usize) -> (Vec<Progress>, Answer) {
        let mut seen = Vec::new();
        let last = answer(encode_request(spec, bytes), chunk_rows, |m| match decode_answer(&m) {
            Ok(Answer::Progress(p)) => seen.push(p),
            other => panic!("a progress message, not {other:?}"),
        });
        (seen, decode_answer(&last).unwrap_or_else(|e| panic!("{e}")))
    }

    /// The request carries the spec and the bytes unchanged; a mapping with every role, both
    /// column kinds, units and an offset survives.
    #[test]
    fn a_request_round_trips() {
        let spec = ImportSpec {
            format: Format::Delimited { delimiter: b';' },
            has_header: false,
            mapping: Mapping {
                key: Some(Column::Index(2)),
                ts: Some(Column::Name("when".into())),
                value: Some(Column::Name("a.b".into())),
                partition: Some(Column::Index(0)),
                arrival: Some(Column::Name("ingest".into())),
                ts_unit: TimeUnit::Iso,
                arrival_unit: Some(TimeUnit::Micros),
                offset: Some(UtcOffset { minutes: -330 }),
            },
        };
        let bytes = b"\xEF\xBB\xBFx;y;z\n1;2;3\n".to_vec();
        let back = decode_request(encode_request(&spec, &bytes)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, (spec.clone(), bytes));
        let json = ImportSpec { format: Format::JsonLines, ..spec };
        assert_eq!(decode_request(encode_request(&json, b"")).ok(), Some((json, Vec::new())));
    }

    /// A file with bad rows, parsed by the worker's side in chunks: progress after every chunk,
    /// rising to the end, and the very `Parsed` of a main-thread parse (bad rows with their lines
    /// and reasons, warnings, keys).
    #[test]
    fn the_workers_parse_is_the_main_threads() {
        for file in ["bad_rows.csv", "sensors.csv", "sensors.tsv", "sensors.jsonl", "sensors_seconds.csv"] {
            let bytes = data(file);
            let spec = guessed_spec(&bytes);
            let here = parse(bytes.clone(), &spec).unwrap_or_else(|e| panic!("{file}: {e}"));
            let (progress, last) = through_worker(&spec, &bytes, 7);
            assert_eq!(last, Answer::Done(Ok(here.clone())), "{file}");
            assert!(progress.len() as u64 >= here.rows / 7, "{file}: a message a chunk ({})", progress.len());
            assert!(progress.windows(2).all(|w| w[0].bytes_read <= w[1].bytes_read && w[0].rows <= w[1].rows));
            let end = progress.last().copied().unwrap_or_else(|| panic!("{file}: no progress"));
            assert!(end.done && end.bytes_read == bytes.len() as u64 && end.rows == here.rows, "{end:?}");
        }
        let bad = parse(data("bad_rows.csv"), &guessed_spec(&data("bad_rows.csv"))).unwrap_or_else(|e| panic!("{e}"));
        assert!(bad.bad_row_count > 0 && bad.bad_rows.iter().all(|b| b.line > 0 && !b.reason.is_empty()));
    }

    /// Errors come back as the same `ImportError`, every variant of it.
    #[test]
    fn errors_come_back_as_the_same_import_error() {
        let errors = [
            ImportError::Empty,
            ImportError::Unmapped(Role::EventTime),
            ImportError::NoSuchColumn {
                role: Role::Partition,
                column: Column::Name("p".into()),
                available: vec!["'a'".into(), "'b'".into()],
            },
            ImportError::IndexInJsonLines { role: Role::Arrival },
            ImportError::NeedsOffset { role: Role::EventTime, line: 12, text: "2024-01-01T00:00".into() },
            ImportError::TooManyElements { limit: 100_000, line: 100_002 },
            ImportError::TooManyKeys { limit: 10_000, line: 3 },
            ImportError::Unreadable { line: 9, message: "cannot be read: é".into() },
            ImportError::BadRows { count: 2, first: vec![BadRow { line: 4, reason: "r".into() }] },
            ImportError::Cancelled,
            ImportError::Scenario(ScenarioError { path: "input".into(), message: "too many".into() }),
        ];
        for e in errors {
            let bytes = encode_answer(&Answer::Done(Err(e.clone())));
            assert_eq!(decode_answer(&bytes), Ok(Answer::Done(Err(e))));
        }
        // And from a real parse: a mapping naming a column the file does not have.
        let bytes = data("sensors.csv");
        let mut spec = guessed_spec(&bytes);
        spec.mapping.key = Some(Column::Name("no such column".into()));
        let here = parse(bytes.clone(), &spec);
        assert!(matches!(here, Err(ImportError::NoSuchColumn { .. })), "{here:?}");
        assert_eq!(through_worker(&spec, &bytes, 100).1, Answer::Done(here));
    }

    /// A warning of the whole file comes back whole.
    #[test]
    fn warnings_and_progress_round_trip() {
        let warnings = vec![
            Warning::LikelyUnitMistake {
                role: Role::EventTime,
                chosen: TimeUnit::Millis,
                likely: TimeUnit::Seconds,
                median_as_chosen: 1_710_057,
                median_as_likely: 1_710_057_000,
            },
            Warning::NaiveTimestamps { role: Role::Arrival, count: 3, offset: UtcOffset { minutes: 120 } },
            Warning::SpanWithinOneWindow { elements: 4, span: 10, window: 60_000 },
        ];
        let parsed = Parsed { warnings, rows: 1, keys: 1, ..Parsed::default() };
        let bytes = encode_answer(&Answer::Done(Ok(parsed.clone())));
        assert_eq!(decode_answer(&bytes), Ok(Answer::Done(Ok(parsed))));
        let p = Progress { bytes_read: 5, total_bytes: 9, rows: 2, done: false };
        assert_eq!(decode_answer(&encode_answer(&Answer::Progress(p))), Ok(Answer::Progress(p)));
        let refused = Answer::Refused("why".into());
        assert_eq!(decode_answer(&encode_answer(&refused)), Ok(refused));
    }

    /// Garbage is an error, never a panic: unknown tags, every cut of a real answer, bytes after
    /// it, and a request the worker cannot read (answered as refused, so the page parses itself).
    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(decode_answer(&[]).is_err());
        assert!(decode_answer(&[0xff; 40]).is_err());
        assert!(decode_answer(&[2, 200]).is_err(), "an unknown ImportError");
        let bytes = data("bad_rows.csv");
        let spec = guessed_spec(&bytes);
        let Answer::Done(Ok(parsed)) = through_worker(&spec, &bytes, 1000).1 else { panic!("parsed") };
        let good = encode_answer(&Answer::Done(Ok(parsed)));
        for cut in 0..good.len() {
            assert!(decode_answer(&good[..cut]).is_err(), "cut at {cut} of {}", good.len());
        }
        let mut longer = good.clone();
        longer.push(0);
        assert!(decode_answer(&longer).is_err());
        // The element count's low byte changed: the list claims more rows than there are bytes.
        let mut flipped = good;
        flipped[1] = 0xff;
        assert!(decode_answer(&flipped).is_err());
        for request in [Vec::new(), vec![7u8; 3], vec![0, 0xff, 0xff]] {
            let last = answer(request, 10, |_| panic!("no progress for a bad request"));
            assert!(matches!(decode_answer(&last), Ok(Answer::Refused(_))), "{:?}", decode_answer(&last));
        }
    }
}
