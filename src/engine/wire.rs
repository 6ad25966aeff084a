//! A [`Run`] as bytes and back: how a run made in the Web Worker reaches the page (one
//! `postMessage` of a transferred buffer, no structured clone of objects and no JSON). Fixed-width
//! little-endian fields in declaration order, a byte tag per enum variant, a `u64` length before
//! every list and string. Both sides are this crate, built from the same source, so there is no
//! versioning; a malformed buffer is an error, never a panic.
//!
//! A type that the run holds implements [`Wire`]; the macros below write the struct and
//! struct-variant impls from a list of field names (a field the list misses does not compile).

use std::fmt;

use super::aggregate::AggregateResult;
use super::operator::OperatorStats;
use super::output::{Firing, FlinkError, Output, ProcessRecord, RecoveryLine, TvfRow};
use super::run::{ElementInfo, Run};
use super::time::{TimeWindow, Window};
use super::trace::{FireCause, FiringKind, TimeDomain, TimerPurpose, TraceEvent, TraceKind};

/// A buffer that is not a run's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError(pub &'static str);

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the run's bytes are malformed: {}", self.0)
    }
}

/// Copies `out.len()` bytes of a source from an offset into `out`.
pub type Source<'a> = dyn FnMut(usize, &mut [u8]) + 'a;

/// Reads bytes front to back. Reads never fail one by one: the first malformed field marks the
/// reader [`fail`](Reader::fail)ed, and from then on every read gives zeros and empty lists, so
/// that a `get` is a plain value (no `Result` at every field: a smaller and faster decoder, which
/// reads 40 MB at 100,000 elements) and [`finish`](Reader::finish) says whether the whole input
/// was well formed.
///
/// The bytes come from a source (a slice, [`Reader::new`], or anything that can copy a range of
/// itself, [`Reader::chunked`]) in chunks of [`Reader::CHUNK`] bytes, more only for one longer
/// field: the page decodes a worker's answer straight out of the transferred `ArrayBuffer`, and
/// never holds a second copy of the whole of it in wasm memory (44 MB at 100,000 elements, and
/// wasm memory never shrinks).
pub struct Reader<'a> {
    /// Copied from the source and not read yet: `buf[pos..end]`. The buffer keeps its length
    /// (zeroed once, when it grows): a refill copies over it, where resizing a truncated buffer
    /// zeroed every chunk first (44 MB of zeros at 100,000 elements, ≈ 20 ms of an answer's read).
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// Copies the source's bytes from an offset into a slice (the next ones, in order).
    source: Box<Source<'a>>,
    /// Where the next copy starts in the source, and how many bytes it has after that.
    offset: usize,
    left: usize,
    error: Option<&'static str>,
}

impl<'a> Reader<'a> {
    /// The bytes copied from the source at a time (more when one field is longer).
    pub const CHUNK: usize = 256 << 10;

    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader::chunked(bytes.len(), move |at, out| {
            if let Some(from) = bytes.get(at..at + out.len()) {
                out.copy_from_slice(from);
            }
        })
    }

    /// A reader of a source of `len` bytes that `copy(at, out)` copies from (`out.len()` bytes
    /// from offset `at`, always within `len`).
    pub fn chunked(len: usize, copy: impl FnMut(usize, &mut [u8]) + 'a) -> Reader<'a> {
        Reader { buf: Vec::new(), pos: 0, end: 0, source: Box::new(copy), offset: 0, left: len, error: None }
    }

    /// How many bytes are not read yet.
    pub fn remaining(&self) -> usize {
        self.end - self.pos + self.left
    }

    /// The input is malformed (the first reason is kept): nothing more is read.
    pub fn fail(&mut self, why: &'static str) {
        self.error.get_or_insert(why);
        self.buf = Vec::new();
        self.pos = 0;
        self.end = 0;
        self.left = 0;
    }

    /// Whether what was read so far was well formed.
    pub fn ok(&self) -> Result<(), WireError> {
        self.error.map_or(Ok(()), |why| Err(WireError(why)))
    }

    /// `value`, when it was read from well-formed bytes that end with it.
    pub fn finish<T>(self, value: T, trailing: &'static str) -> Result<T, WireError> {
        self.ok()?;
        if self.remaining() == 0 { Ok(value) } else { Err(WireError(trailing)) }
    }

    fn take(&mut self, n: usize) -> &[u8] {
        if self.end - self.pos < n && !self.refill(n) {
            self.fail("it ends early");
            return &[];
        }
        // `get`, not indexing: no panic path inlined at every field (the main `.wasm`'s size).
        match self.buf.get(self.pos..self.pos + n) {
            Some(head) => {
                self.pos += n;
                head
            }
            None => &[],
        }
    }

    /// Copies the source's next chunk (at least enough for `n` bytes at hand) after the bytes not
    /// read yet; `false` when the source has not that many.
    #[inline(never)]
    fn refill(&mut self, n: usize) -> bool {
        let have = self.end - self.pos;
        if have + self.left < n {
            return false;
        }
        self.buf.copy_within(self.pos..self.end, 0);
        self.pos = 0;
        self.end = have;
        let more = (n - have).max(Self::CHUNK).min(self.left);
        let need = have + more;
        if self.buf.len() < need {
            // A corrupted length may ask for as much as the whole input: refused, not an abort.
            if self.buf.try_reserve(need - self.buf.len()).is_err() {
                return false;
            }
            self.buf.resize(need, 0);
        }
        (self.source)(self.offset, &mut self.buf[have..need]);
        self.end = need;
        self.offset += more;
        self.left -= more;
        true
    }

    fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        let head = self.take(N);
        if head.len() == N {
            a.copy_from_slice(head);
        }
        a
    }

    /// A list's length, no more than the bytes left could hold (one byte an item at least).
    fn len(&mut self) -> usize {
        let n = u64::get(self);
        match usize::try_from(n).ok().filter(|&n| n <= self.remaining()) {
            Some(n) => n,
            None => {
                self.fail("a length is too large");
                0
            }
        }
    }
}

/// Where `put` writes: a buffer, or [`Len`], which counts the bytes (the worker sizes its answer
/// exactly before writing it: a buffer that grows doubles, and at 100,000 elements the doubled
/// buffer and its copy were 95 MB of the worker's memory for a 44 MB answer).
pub trait Sink {
    fn push(&mut self, byte: u8);
    fn extend_from_slice(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn push(&mut self, byte: u8) {
        Vec::push(self, byte);
    }
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        Vec::extend_from_slice(self, bytes);
    }
}

/// Counts what a `put` would write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Len(pub usize);

impl Sink for Len {
    fn push(&mut self, _: u8) {
        self.0 += 1;
    }
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// FNV-1a (64 bit) of what a `put` would write: a fingerprint of values, compared where the values
/// themselves are gone (the page's output list compares the rows of a run it no longer holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Sink for Fnv {
    fn push(&mut self, byte: u8) {
        self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    fn extend_from_slice(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.push(*b);
        }
    }
}

/// What a run's rows are made of (its outputs, key names and element values), as a fingerprint.
pub fn rows_fingerprint(run: &Run) -> u64 {
    let mut h = Fnv::default();
    run.outputs.put(&mut h);
    run.keys.put(&mut h);
    for e in &run.elements {
        e.value.put(&mut h);
    }
    h.0
}

/// Written to bytes and read back (a malformed read marks the reader failed, see [`Reader`]).
pub trait Wire: Sized {
    fn put<S: Sink>(&self, out: &mut S);
    fn get(r: &mut Reader<'_>) -> Self;
    /// Reads into `self`, reusing what it holds where it can: a list's room (a run read in place
    /// of the one it replaces takes its memory, [`read_run_into`]).
    fn get_into(&mut self, r: &mut Reader<'_>) {
        *self = Self::get(r);
    }
}

macro_rules! wire_int {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            fn put<S: Sink>(&self, out: &mut S) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(r: &mut Reader<'_>) -> Self {
                <$t>::from_le_bytes(r.array())
            }
        }
    )*};
}
wire_int!(i64, u64, i32, u32, u8);

impl Wire for usize {
    fn put<S: Sink>(&self, out: &mut S) {
        (*self as u64).put(out);
    }
    fn get(r: &mut Reader<'_>) -> Self {
        usize::try_from(u64::get(r)).unwrap_or_else(|_| {
            r.fail("an index is too large");
            0
        })
    }
}

impl Wire for bool {
    fn put<S: Sink>(&self, out: &mut S) {
        out.push(u8::from(*self));
    }
    fn get(r: &mut Reader<'_>) -> Self {
        match u8::get(r) {
            0 => false,
            1 => true,
            _ => {
                r.fail("a bool is neither 0 nor 1");
                false
            }
        }
    }
}

impl Wire for String {
    fn put<S: Sink>(&self, out: &mut S) {
        self.len().put(out);
        out.extend_from_slice(self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Self {
        let n = r.len();
        String::from_utf8(r.take(n).to_vec()).unwrap_or_else(|_| {
            r.fail("a string is not UTF-8");
            String::new()
        })
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put<S: Sink>(&self, out: &mut S) {
        self.len().put(out);
        for x in self {
            x.put(out);
        }
    }
    fn get(r: &mut Reader<'_>) -> Self {
        let mut v = Vec::new();
        v.get_into(r);
        v
    }
    fn get_into(&mut self, r: &mut Reader<'_>) {
        let n = r.len();
        self.clear();
        // Too little room: let it go first rather than grow it (a grown block is copied beside
        // the old one), and make the new one 1/32 larger. A run read into the memory of the one
        // it replaces (`read_run_into`) then finds the room for a few more items: at 100,000
        // elements a drag that adds an event needed a new 82 MB block for the trace beside the
        // freed one, and the page grew by it.
        // Far more room than needed (a small run read into a large one's memory): let it go too.
        let room = if self.capacity() < n || self.capacity() / 2 > n.saturating_add(n / 32) {
            *self = Vec::new();
            n.saturating_add(n / 32)
        } else {
            n
        };
        // A length is at most the bytes left, but an item may be larger than its bytes: a
        // corrupted length must fail the reader, not abort the module on an allocation.
        if self.try_reserve_exact(room).is_err() && self.try_reserve_exact(n).is_err() {
            r.fail("a list is too long to hold");
            return;
        }
        for _ in 0..n {
            self.push(T::get(r));
        }
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put<S: Sink>(&self, out: &mut S) {
        match self {
            None => out.push(0),
            Some(x) => {
                out.push(1);
                x.put(out);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Self {
        match u8::get(r) {
            0 => None,
            1 => Some(T::get(r)),
            _ => {
                r.fail("an option tag is neither 0 nor 1");
                None
            }
        }
    }
}

/// The `&'static str`s of the engine's records (`FlinkError`'s phase and class, a process record's
/// kind) come back as the same statics when known; an unknown one is leaked (errors only: once per
/// failed run at most).
fn static_str(s: String) -> &'static str {
    const KNOWN: &[&str] = &[
        "build",
        "run",
        "limit",
        "completed",
        "abandoned",
        "alert",
        "ok",
        "tidemark.LimitExceeded",
        "java.lang.IllegalArgumentException",
        "java.lang.IllegalStateException",
        "java.lang.UnsupportedOperationException",
        "java.lang.NullPointerException",
        "java.lang.ArithmeticException",
        "java.lang.ClassCastException",
        "java.lang.RuntimeException",
    ];
    KNOWN.iter().find(|k| **k == s).copied().unwrap_or_else(|| Box::leak(s.into_boxed_str()))
}

impl Wire for &'static str {
    fn put<S: Sink>(&self, out: &mut S) {
        self.len().put(out);
        out.extend_from_slice(self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Self {
        static_str(String::get(r))
    }
}

macro_rules! wire_struct {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl Wire for $t {
            fn put<S: Sink>(&self, out: &mut S) {
                $(self.$f.put(out);)*
            }
            fn get(r: &mut Reader<'_>) -> Self {
                $t { $($f: Wire::get(r)),* }
            }
            fn get_into(&mut self, r: &mut Reader<'_>) {
                $(self.$f.get_into(r);)*
            }
        }
    };
}

/// Enums whose variants are all unit or struct-like (a unit variant is written `V {}`), with a
/// variant tagged 0: an unknown tag fails the reader, whose zeros then read as variant 0.
macro_rules! wire_enum {
    ($t:ident { $($tag:literal => $v:ident { $($f:ident),* $(,)? }),* $(,)? }) => {
        impl Wire for $t {
            fn put<S: Sink>(&self, out: &mut S) {
                match self {
                    $($t::$v { $($f),* } => {
                        out.push($tag);
                        $($f.put(out);)*
                    })*
                }
            }
            fn get(r: &mut Reader<'_>) -> Self {
                match u8::get(r) {
                    $($tag => $t::$v { $($f: Wire::get(r)),* },)*
                    _ => {
                        r.fail(concat!("an unknown variant of ", stringify!($t)));
                        Self::get(r)
                    }
                }
            }
        }
    };
}

// For the other wire formats of the crate (`import::wire`).
pub(crate) use {wire_enum, wire_struct};

wire_struct!(TimeWindow { start, end });
wire_struct!(TimerPurpose { trigger, cleanup });
wire_struct!(ElementInfo { id, key, ts, value, step });
wire_struct!(FlinkError { phase, class, message });
wire_struct!(Firing { key, window, ids, elems, sum, count, n, kind, watermark, cause, purge, step, result });
wire_struct!(ProcessRecord { key, kind, ts, watermark, id, errors, requests, step });
wire_struct!(TvfRow { window_start, window_end, window_time, firing });
wire_struct!(TraceEvent { seq, step, kind });
wire_struct!(OperatorStats { assignments, late_records_dropped, side_output, silently_dropped, firings, timers_fired });
wire_struct!(Run { keys, elements, outputs, trace, watermark_after_step, steps, stats, error });

wire_enum!(TimeDomain { 0 => EventTime {}, 1 => ProcessingTime {} });
wire_enum!(FiringKind { 0 => Early {}, 1 => Main {}, 2 => Late {} });
wire_enum!(FireCause { 0 => Element { id }, 1 => Timer { time }, 2 => ProcessingTimer { time } });
wire_enum!(AggregateResult { 0 => TenantCost { usd, requests }, 1 => Latency { n, p50, p99, approximate } });
wire_enum!(RecoveryLine {
    0 => Checkpoint { checkpoint, item, step },
    1 => Crash { item, step },
    2 => Restore { checkpoint, from_item, step },
});

impl Wire for Window {
    fn put<S: Sink>(&self, out: &mut S) {
        match self {
            Window::Global => out.push(0),
            Window::Time(w) => {
                out.push(1);
                w.put(out);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Self {
        match u8::get(r) {
            1 => Window::Time(TimeWindow::get(r)),
            0 => Window::Global,
            _ => {
                r.fail("an unknown variant of Window");
                Window::Global
            }
        }
    }
}

impl Wire for Output {
    fn put<S: Sink>(&self, out: &mut S) {
        match self {
            Output::Fire(f) => {
                out.push(0);
                f.put(out);
            }
            Output::Late { elem, id, key, ts, step } => {
                out.push(1);
                elem.put(out);
                id.put(out);
                key.put(out);
                ts.put(out);
                step.put(out);
            }
            Output::Error(e) => {
                out.push(2);
                e.put(out);
            }
            Output::Process(p) => {
                out.push(3);
                p.put(out);
            }
            Output::Tvf(t) => {
                out.push(4);
                t.put(out);
            }
            Output::Recovery(l) => {
                out.push(5);
                l.put(out);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Self {
        match u8::get(r) {
            0 => Output::Fire(Firing::get(r)),
            1 => Output::Late {
                elem: Wire::get(r),
                id: Wire::get(r),
                key: Wire::get(r),
                ts: Wire::get(r),
                step: Wire::get(r),
            },
            2 => Output::Error(FlinkError::get(r)),
            3 => Output::Process(ProcessRecord::get(r)),
            4 => Output::Tvf(TvfRow::get(r)),
            5 => Output::Recovery(RecoveryLine::get(r)),
            _ => {
                r.fail("an unknown variant of Output");
                Self::get(r)
            }
        }
    }
}

wire_enum!(TraceKind {
    0 => ElementArrived { elem, id, key, ts, value },
    1 => WatermarkAdvanced { from, to },
    2 => WatermarkIgnored { proposed, current },
    3 => WindowsAssigned { elem, key, windows },
    4 => WindowCreated { key, window },
    5 => ElementAdded { elem, id, key, window, state_window },
    6 => WindowLate { elem, id, key, window, cleanup_time, watermark },
    7 => TimerRegistered { key, window, time, purpose, domain },
    8 => TimerDeleted { key, window, time, purpose, domain },
    9 => TimerFired { key, window, time, purpose, stale, domain },
    10 => PartitionWatermark { partition, watermark },
    11 => PartitionIdle { partition, at },
    12 => PartitionActive { partition, at },
    13 => FunctionEmitted { key, output, kind, ts },
    14 => StateUpdated { key, what },
    15 => StateExpired { key, at },
    16 => Fired { key, window, output },
    17 => Evicted { key, window, elems, after_function },
    18 => Purged { key, window, elems },
    19 => CleanedUp { key, window, time, elems, unfired },
    20 => SessionsMerged { key, new_window, merged, into, state_window },
    21 => SideOutput { elem, id, key, ts },
    22 => Dropped { elem, id, key, ts, counted },
    23 => CheckpointTaken { checkpoint, item },
    24 => Crashed { item },
    25 => CrashPassed { item },
    26 => Restored { checkpoint, from_item },
    27 => Replayed { item },
    28 => TimersDueAtRestore { timers, rule_only },
    29 => EndOfInput { max_watermark },
    30 => Error { phase, class, message },
});

/// The run as bytes.
pub fn encode_run(run: &Run, out: &mut Vec<u8>) {
    run.put(out);
}

/// The bytes [`encode_run`] writes for `run`.
pub fn encoded_len(run: &Run) -> usize {
    let mut n = Len(0);
    run.put(&mut n);
    n.0
}

/// A run back from [`encode_run`]'s bytes; the bytes must end with it.
pub fn decode_run(bytes: &[u8]) -> Result<Run, WireError> {
    read_run(Reader::new(bytes))
}

/// A run read from the rest of `r` ([`decode_run`] from any source); the bytes must end with it.
pub fn read_run(mut r: Reader<'_>) -> Result<Run, WireError> {
    let run = Run::get(&mut r);
    r.finish(run, "bytes follow the run")
}

/// [`read_run`] into the memory of `spare`, a run no longer needed (the page's run on show, which
/// the new one replaces): its lists are refilled in place where they have the room, so that a new
/// run of 100,000 elements does not grow the page's memory by its size beside the old one's
/// freed blocks. What `spare` held is gone either way.
pub fn read_run_into(mut r: Reader<'_>, spare: Run) -> Result<Run, WireError> {
    let mut run = spare;
    run.get_into(&mut r);
    r.finish(run, "bytes follow the run")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Scenario, run};

    fn roundtrip(json: &str) {
        let scenario = Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"));
        let made = run(&scenario);
        let mut bytes = Vec::new();
        encode_run(&made, &mut bytes);
        assert_eq!(encoded_len(&made), bytes.len(), "the size pass counts what is written");
        let back = decode_run(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(format!("{back:?}"), format!("{made:?}"), "the run survives its bytes");
        // Every shorter prefix is refused, never a panic.
        for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode_run(&bytes[..cut]).is_err(), "a run cut at {cut} of {} bytes", bytes.len());
        }
    }

    /// A run read into another's memory is the run read afresh, whatever the other held (more,
    /// fewer or other items); a cut run is refused as ever.
    #[test]
    fn a_run_read_into_another_is_the_run_read_afresh() {
        let runs: Vec<Run> = [
            r#"{"assigner": {"kind": "sliding", "size": 3000, "slide": 1000}, "allowed_lateness": 1000, "side_output": true,
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 5000}, {"id": 2, "key": "B", "ts": 2000},
                {"id": 3, "key": "A", "ts": 100}, {"id": 4, "key": "C", "ts": 9000}, {"wm": 20000}]}"#,
            r#"{"assigner": {"kind": "session", "gap": 1500}, "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 5000}]}"#,
            r#"{"assigner": {"kind": "tumbling", "size": 2000}, "input": []}"#,
        ]
        .iter()
        .map(|json| run(&Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))))
        .collect();
        for made in &runs {
            let mut bytes = Vec::new();
            encode_run(made, &mut bytes);
            for spare in &runs {
                let back = read_run_into(Reader::new(&bytes), spare.clone()).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(format!("{back:?}"), format!("{made:?}"));
                let cut = &bytes[..bytes.len() / 2];
                assert!(read_run_into(Reader::new(cut), spare.clone()).is_err());
            }
        }
        // In place: a spare with the room keeps its blocks; one with far more room lets them go.
        let (big, small) = (&runs[0], &runs[1]);
        let read_into = |made: &Run, spare: Run| {
            let mut bytes = Vec::new();
            encode_run(made, &mut bytes);
            read_run_into(Reader::new(&bytes), spare).unwrap_or_else(|e| panic!("{e}"))
        };
        let spare = big.clone();
        let block = spare.trace.as_ptr();
        assert_eq!(read_into(big, spare).trace.as_ptr(), block, "the trace read into the spare's room");
        // A list read afresh has 1/32 room to spare, for the few items more of the next read.
        let long: Vec<i64> = (0..1000).collect();
        let mut bytes = Vec::new();
        long.put(&mut bytes);
        let back = Vec::<i64>::get(&mut Reader::new(&bytes));
        assert_eq!((back.len(), back.capacity()), (1000, 1031));
        let (spare, many) = (big.clone(), big.trace.len());
        assert!(many > 2 * small.trace.len(), "the test's runs: {many} events against {}", small.trace.len());
        assert!(read_into(small, spare).trace.capacity() < many, "far too much room is let go");
    }

    /// Fields that cross a chunk's end, fields longer than a chunk (the buffer grows) and short
    /// ones after them (the grown buffer copied over, not zeroed again): read back as written,
    /// from a source that copies the bytes in the reader's chunks.
    #[test]
    fn fields_across_and_longer_than_chunks_read_back() {
        let texts: Vec<String> = (0..40)
            .map(|i| {
                let len = match i % 5 {
                    0 => Reader::CHUNK + 1_000 * i,
                    1 => Reader::CHUNK / 2 + 7,
                    _ => 3 + i,
                };
                (0..len).map(|k| char::from(b'a' + ((k * 7 + i) % 26) as u8)).collect()
            })
            .collect();
        let mut bytes = Vec::new();
        texts.put(&mut bytes);
        let mut copies = 0;
        let mut r = Reader::chunked(bytes.len(), |at, out| {
            copies += 1;
            out.copy_from_slice(&bytes[at..at + out.len()]);
        });
        let back = Vec::<String>::get(&mut r);
        assert_eq!(r.finish((), "trailing"), Ok(()));
        assert!(back == texts, "the texts read back as written");
        assert!(copies > 8 && bytes.len() > 8 * Reader::CHUNK, "{copies} copies of {} bytes", bytes.len());
        // A cut anywhere is refused.
        for cut in [Reader::CHUNK - 1, Reader::CHUNK + 5, bytes.len() / 2, bytes.len() - 1] {
            let mut r = Reader::new(&bytes[..cut]);
            let _ = Vec::<String>::get(&mut r);
            assert!(r.ok().is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn runs_of_every_assigner_survive_their_bytes() {
        let input = r#""input": [{"id": 1, "key": "A", "ts": 1000, "value": 3}, {"wm": 5000},
            {"id": 2, "key": "B", "ts": 2000, "value": 4}, {"id": 3, "key": "A", "ts": 100, "value": 5}]"#;
        for assigner in [
            r#"{"kind": "tumbling", "size": 2000}"#,
            r#"{"kind": "sliding", "size": 3000, "slide": 1000}"#,
            r#"{"kind": "session", "gap": 1500}"#,
        ] {
            roundtrip(&format!(
                r#"{{"assigner": {assigner}, "allowed_lateness": 1000, "side_output": true, {input}}}"#
            ));
        }
    }

    #[test]
    fn the_scenario_corpus_survives_its_bytes() {
        let mut dirs = vec![std::path::PathBuf::from("tests/flink"), std::path::PathBuf::from("tests/flink-ext")];
        let mut n = 0;
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for p in entries.flatten().map(|e| e.path()) {
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "json")
                    && p.metadata().is_ok_and(|m| m.len() < 100_000)
                    && let Ok(text) = std::fs::read_to_string(&p)
                    && Scenario::from_json_str(&text).is_ok()
                {
                    roundtrip(&text);
                    n += 1;
                }
            }
        }
        assert!(n > 100, "{n} scenario files found");
    }

    /// A corrupted byte anywhere reads as an error or as some run, never a panic; an unknown
    /// variant tag is named in the error.
    #[test]
    fn corrupted_bytes_never_panic() {
        let scenario = Scenario::from_json_str(
            r#"{"assigner": {"kind": "session", "gap": 1500}, "allowed_lateness": 1000, "side_output": true,
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 5000}, {"id": 2, "key": "A", "ts": 100}]}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut bytes = Vec::new();
        encode_run(&run(&scenario), &mut bytes);
        let mut errors = 0;
        for i in 0..bytes.len() {
            for b in [0x00, 0x02, 0x7f, 0xff] {
                let mut bad = bytes.clone();
                bad[i] = b;
                errors += usize::from(decode_run(&bad).is_err());
            }
        }
        // Most corrupted numbers read as other numbers; tags, lengths and flags do not.
        assert!(errors > bytes.len() / 4, "{errors} errors over {} bytes", bytes.len());
        let mut r = Reader::new(&[200, 0, 0]);
        let w = Window::get(&mut r);
        assert_eq!(w, Window::Global);
        assert_eq!(r.finish(w, "trailing"), Err(WireError("an unknown variant of Window")));
        let mut r = Reader::new(&[99]);
        let k = TraceKind::get(&mut r);
        assert_eq!(r.ok(), Err(WireError("an unknown variant of TraceKind")));
        assert!(matches!(k, TraceKind::ElementArrived { .. }), "zeros read as variant 0");
    }

    /// The same over a run of many chunks (a refill mid-field, a field longer than what is left of
    /// a chunk): 300 positions spread over the whole encoding, 4 values each and 8 bytes set to
    /// `u64::MAX` (a length as large as a `u64` can say), never a panic.
    #[test]
    fn corrupted_bytes_across_chunks_never_panic() {
        let input = (0..3_000)
            .map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 11, (i * 7_919) % 90_000))
            .collect::<Vec<_>>()
            .join(",");
        let scenario = Scenario::from_json_str(&format!(
            r#"{{"assigner": {{"kind": "session", "gap": 700}}, "allowed_lateness": 1000, "side_output": true,
                "watermarks": {{"kind": "bounded_out_of_orderness", "bound": 2000}}, "input": [{input}]}}"#
        ))
        .unwrap_or_else(|e| panic!("{e}"));
        let mut bytes = Vec::new();
        encode_run(&run(&scenario), &mut bytes);
        assert!(bytes.len() > 3 * Reader::CHUNK, "{} bytes", bytes.len());
        let mut errors = 0;
        for k in 0..300 {
            let i = k * (bytes.len() - 8) / 300;
            for b in [0x00, 0x02, 0x7f, 0xff] {
                let mut bad = bytes.clone();
                bad[i] = b;
                errors += usize::from(decode_run(&bad).is_err());
            }
            let mut huge = bytes.clone();
            huge[i..i + 8].copy_from_slice(&u64::MAX.to_le_bytes());
            errors += usize::from(decode_run(&huge).is_err());
        }
        // Most corrupted bytes are numbers that read as other numbers; tags and lengths are errors.
        assert!(errors >= 50, "{errors} errors");
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(decode_run(&[0xff; 64]).is_err());
        assert!(decode_run(&[]).is_err());
    }
}
