//! Engine runs as effects (TIMELINE_CONTRACT.md §3). The reducer never runs the engine: an edit
//! bumps the scenario's revision and leaves a [`RunRequest`]; a [`Runner`] answers it with a
//! [`RunFinished`], which comes back as `Action::RunFinished` (a worker's unread, as
//! `Action::RunArrived`); an answer for an older revision than the newest request is dropped.
//!
//! ```text
//!  Action (edit) ──▶ reducer: revision += 1, RunRequest { revision, slot, scenario }
//!                                               │  AppState::dispatch hands it to the runner
//!  MainThreadRunner::submit ── execute ─────────┴──▶ Some(RunFinished { revision, slot, result })   (at once)
//!  (a Web Worker runner: None now, Action::RunArrived later, from its message handler)
//!  Action::RunFinished ──▶ reducer: revision current? install the run : drop it
//! ```
//!
//! The main-thread runner answers within the same dispatch; the Web Worker runner
//! (`super::worker_runner`) posts requests one at a time through a [`WorkQueue`], which drops
//! stale answers unread and holds a drag move's answer until the pointer rests ([`REST_MS`]).

use std::fmt;
use std::rc::{Rc, Weak};

use crate::engine::wire::{Reader, Wire, encode_run, encoded_len, read_run, read_run_into};
use crate::engine::{Run, Scenario, run};
use crate::ui::action::Action;
pub use crate::ui::action::{RunFinished, RunRequest, RunSlot};

/// A scenario's run: the one entry point of every runner, the main thread's and the Web Worker's
/// (`src/worker.rs` calls it through [`answer`]). What a run does beyond `engine::run` goes here,
/// so that both runners do it.
pub fn execute(scenario: &Scenario) -> Run {
    run(scenario)
}

/// Where engine runs happen.
pub trait Runner {
    /// Starts a run. A runner that can answer at once returns the answer; one that answers later
    /// returns `None` and dispatches the answer when it is done (`Action::RunArrived`, unread).
    fn submit(&self, request: RunRequest) -> Option<RunFinished>;

    /// The runner's name, for the run-status test hook (`main-thread`, `worker`).
    fn name(&self) -> &'static str;

    /// Stops the runs that are out or waiting (none of them will be answered); `true` when there
    /// were any. A runner that answers at once has none.
    fn cancel(&self) -> bool {
        false
    }

    /// A drag is about to edit `scenario` (revision `revision`) move by move: a runner that keeps
    /// scenarios elsewhere can hand it over now, so that the moves go as patches of it (see
    /// [`encode_request_after`]). Nothing is run or answered.
    fn prime(&self, _revision: u64, _scenario: &Rc<Scenario>) {}

    /// Whether [`Runner::defer`] reduces its action later, in a task of its own (a runner that
    /// answers later dispatches actions already).
    fn defers(&self) -> bool {
        false
    }

    /// Dispatches `action` in a later task of its own, where [`Runner::defers`]: `false` when it
    /// cannot after all (the caller does the work now; a dispatch from inside the reducer would
    /// re-enter it). For work of the reducer cut into stages (`state::staged`), so that none of
    /// its tasks is long.
    fn defer(&self, _action: Action) -> bool {
        false
    }
}

/// Runs the engine on the calling thread, at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct MainThreadRunner;

impl Runner for MainThreadRunner {
    fn submit(&self, request: RunRequest) -> Option<RunFinished> {
        let RunRequest { revision, slot, scenario, .. } = request;
        Some(RunFinished { revision, slot, result: Ok(Rc::new(execute(&scenario))) })
    }

    fn name(&self) -> &'static str {
        "main-thread"
    }
}

/// The runner a state uses: shared, and shown in `Debug` by name.
#[derive(Clone)]
pub struct RunnerRef(pub Rc<dyn Runner>);

impl Default for RunnerRef {
    fn default() -> Self {
        RunnerRef(Rc::new(MainThreadRunner))
    }
}

impl fmt::Debug for RunnerRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RunnerRef({})", self.0.name())
    }
}

/// The worker's messages, as bytes (a transferred `ArrayBuffer` each way):
///
/// ```text
///  request  revision u64 | slot u8 | 0 | the scenario's JSON
///           revision u64 | slot u8 | 1 | base revision u64 | an input patch's JSON
///  prime    revision u64 | slot u8 | 2 | the scenario's JSON         (kept, not run: no answer)
///  answer   revision u64 | slot u8 | 0 | the run (engine::wire)      or      … | 1 | the error's text (engine::wire)
/// ```
///
/// The worker echoes the request's revision and slot; the page reads the header first and drops a
/// stale answer without decoding its run. The worker keeps the scenario of its last request of
/// each slot, so a request that changes a few input items of it (a drag move changes one) is sent
/// as those items ([`Scenario::input_patch_json`]): at 100,000 elements the whole scenario's JSON
/// is 5 MB and 10-14 ms of the page's thread at every move of a drag.
pub fn encode_request(request: &RunRequest) -> Vec<u8> {
    whole(request.revision, request.slot, 0, &request.scenario)
}

/// A message of the whole scenario as JSON, written once, in the message's own block: the header's
/// place is held by spaces while the text is written, then the header is written over them (at
/// 100,000 elements a copy of the 5 MB text beside it grew the page's memory at each press).
fn whole(revision: u64, slot: RunSlot, kind: u8, scenario: &Scenario) -> Vec<u8> {
    let head = message(revision, slot, kind, 0);
    let mut text = String::with_capacity(head.len() + scenario.json_len_guess());
    text.extend(std::iter::repeat_n(' ', head.len()));
    scenario.push_json(&mut text);
    let mut out = text.into_bytes();
    out[..head.len()].copy_from_slice(&head);
    out
}

/// A message's header and kind byte, with room for `body` bytes more.
fn message(revision: u64, slot: RunSlot, kind: u8, body: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES as usize + 1 + body);
    out.extend_from_slice(&revision.to_le_bytes());
    out.push(slot_byte(slot));
    out.push(kind);
    out
}

/// A scenario for the worker to keep as revision `revision` of the main slot, without running it
/// ([`Runner::prime`]): [`answer`] returns nothing for it.
pub fn encode_prime(revision: u64, scenario: &Scenario) -> Vec<u8> {
    whole(revision, RunSlot::Main, 2, scenario)
}

/// At most this many changed input items go as a patch; more, and the whole scenario goes.
pub const PATCH_MAX_ITEMS: usize = 64;

/// The request to a worker whose last request of this slot was `sent` (its revision and
/// scenario): a patch of the input items that changed when that is all that changed, else the
/// whole scenario ([`encode_request`]).
pub fn encode_request_after(request: &RunRequest, sent: Option<&(u64, Rc<Scenario>)>) -> Vec<u8> {
    let Some((base, edits)) =
        sent.and_then(|(base, scenario)| Some((*base, request.scenario.input_edits(scenario, PATCH_MAX_ITEMS)?)))
    else {
        return encode_request(request);
    };
    let patch = request.scenario.input_patch_json(&edits);
    let mut out = message(request.revision, request.slot, 1, 8 + patch.len());
    out.extend_from_slice(&base.to_le_bytes());
    out.extend_from_slice(patch.as_bytes());
    out
}

/// Whether an answer (its first bytes) says the run failed: the worker then holds no scenario of
/// that slot any more (see [`answer`]), and the page's next request of it must be whole.
pub fn answer_is_error(head: &[u8]) -> bool {
    head.get(HEADER_BYTES as usize) == Some(&1)
}

/// The slot of a failed run's answer ([`answer_is_error`]); `None` for any other answer.
pub fn failed_slot(head: &[u8]) -> Option<RunSlot> {
    header(head).map(|(_, slot, _)| slot).filter(|_| answer_is_error(head))
}

/// A slot's byte in the messages, and its index in per-slot arrays.
pub(crate) fn slot_byte(slot: RunSlot) -> u8 {
    match slot {
        RunSlot::Main => 0,
        RunSlot::Compare => 1,
    }
}

/// The bytes of a message's revision and slot (`header`).
pub const HEADER_BYTES: u32 = 9;

/// A message's revision and slot, and what follows them.
fn header(bytes: &[u8]) -> Option<(u64, RunSlot, &[u8])> {
    let revision = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    let slot = match bytes.get(8)? {
        0 => RunSlot::Main,
        1 => RunSlot::Compare,
        _ => return None,
    };
    Some((revision, slot, &bytes[HEADER_BYTES as usize..]))
}

/// The run of an answer of `len` bytes (at least its header's), copied a chunk at a time by
/// `copy(at, out)` ([`Reader::chunked`]), or the worker's error; read into `spare`'s memory when
/// given one (`wire::read_run_into`), else `spare` is handed back (the worker's error, or none
/// given).
pub fn read_answer(
    len: usize,
    spare: Option<Run>,
    mut copy: impl FnMut(usize, &mut [u8]),
) -> (Result<Run, String>, Option<Run>) {
    let body = len.saturating_sub(HEADER_BYTES as usize);
    let mut r = Reader::chunked(body, move |at, out| copy(HEADER_BYTES as usize + at, out));
    // (An empty answer reads as a run that ends early.)
    match (u8::get(&mut r), spare) {
        (0, Some(spare)) => (read_run_into(r, spare).map_err(|e| e.to_string()), None),
        (0, None) => (read_run(r).map_err(|e| e.to_string()), None),
        (_, spare) => (Err(String::get(&mut r)), spare),
    }
}

/// What the worker does with a request: the run of its scenario, answered with the request's
/// revision and slot. A request it cannot read is answered as an error (revision 0 when even the
/// header is unreadable, which no request has: the page drops it). A prime is not answered (an
/// empty answer: the worker's script posts nothing).
pub fn answer(request: &[u8]) -> Vec<u8> {
    let Some((revision, slot, body)) = header(request) else {
        return answer_error(0, RunSlot::Main, "the worker was sent a malformed request");
    };
    let i = slot_byte(slot) as usize;
    if let Some((2, json)) = body.split_first() {
        // A prime: kept (if it reads), not run, not answered.
        let scenario = std::str::from_utf8(json).ok().and_then(|text| Scenario::from_json_str(text).ok());
        LAST_SCENARIO.with(|last| last.borrow_mut()[i] = scenario.map(|s| (revision, s)));
        return Vec::new();
    }
    // Taken out: a request that fails leaves none (the page sends the next one whole).
    let base = LAST_SCENARIO.with(|last| last.borrow_mut()[i].take());
    let scenario = match scenario_of(body, base) {
        Ok(s) => s,
        Err(e) => return answer_error(revision, slot, &format!("the worker could not read the scenario: {e}")),
    };
    let run = execute(&scenario);
    LAST_SCENARIO.with(|last| last.borrow_mut()[i] = Some((revision, scenario)));
    // Sized exactly: a buffer that grows doubles (see `engine::wire::Sink`).
    let mut out = message(revision, slot, 0, encoded_len(&run));
    encode_run(&run, &mut out);
    out
}

thread_local! {
    /// The worker's last scenario of each slot, with its revision: what a patch is made to.
    static LAST_SCENARIO: std::cell::RefCell<[Option<(u64, Scenario)>; 2]> = const { std::cell::RefCell::new([None, None]) };
}

/// A request's scenario: read whole, or `base` patched (when it is the revision the patch was made to).
fn scenario_of(body: &[u8], base: Option<(u64, Scenario)>) -> Result<Scenario, String> {
    fn text(bytes: &[u8]) -> Result<&str, String> {
        std::str::from_utf8(bytes).map_err(|e| e.to_string())
    }
    match body.split_first() {
        Some((0, json)) => {
            // Not needed: gone before the new one is read (5 MB of JSON at 100,000 elements).
            drop(base);
            Scenario::from_json_str(text(json)?).map_err(|e| e.to_string())
        }
        Some((1, rest)) if rest.len() >= 8 => {
            let (on, patch) = rest.split_at(8);
            let on = u64::from_le_bytes(on.try_into().map_err(|_| "a malformed patch".to_string())?);
            let Some((_, mut scenario)) = base.filter(|(r, _)| *r == on) else {
                return Err(format!("it no longer holds revision {on}, which the edit was made to"));
            };
            scenario.apply_input_patch(text(patch)?).map_err(|e| e.to_string())?;
            Ok(scenario)
        }
        _ => Err("a malformed request".to_string()),
    }
}

fn answer_error(revision: u64, slot: RunSlot, text: &str) -> Vec<u8> {
    let mut out = message(revision, slot, 1, 8 + text.len());
    text.len().put(&mut out);
    out.extend_from_slice(text.as_bytes());
    out
}

/// Requests posted to one worker, one at a time, and its answers.
///
/// While a run is out, newer requests wait, and only the newest of each slot (a drag's pointer
/// moves would otherwise queue up behind each other); an answer whose revision is not the newest
/// asked for its slot is dropped before its run is decoded.
#[derive(Debug, Default)]
pub struct WorkQueue {
    /// The request the worker is on.
    out: Option<Queued>,
    /// The newest request of each slot not yet posted (`Main` first).
    waiting: [Option<Queued>; 2],
    /// The newest revision asked of each slot, whether it is a drag move's ([`RunRequest::gesture`])
    /// and when it was asked (ms).
    newest: [Option<Newest>; 2],
}

/// A request in the queue, its scenario held weakly, so that a waiting request is not one more
/// reason for a drag's next move to copy the scenario (`Rc::make_mut`; at 100,000 elements a copy
/// is about 5 ms; the previous `AppState`, which Yew holds while the reducer runs, still shares it).
/// A request whose scenario has been edited since is not run: the edit's own request of its slot
/// replaced it.
#[derive(Clone, Debug)]
struct Queued {
    revision: u64,
    slot: RunSlot,
    gesture: bool,
    release: bool,
    scenario: Weak<Scenario>,
}

impl Queued {
    fn of(r: &RunRequest) -> Queued {
        Queued {
            revision: r.revision,
            slot: r.slot,
            gesture: r.gesture,
            release: r.release,
            scenario: Rc::downgrade(&r.scenario),
        }
    }

    fn request(&self) -> Option<RunRequest> {
        let scenario = self.scenario.upgrade()?;
        Some(RunRequest {
            revision: self.revision,
            slot: self.slot,
            scenario,
            gesture: self.gesture,
            release: self.release,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Newest {
    revision: u64,
    gesture: bool,
    at_ms: f64,
}

/// How long a drag move's request must stay the newest (the pointer rests) before its answer is
/// installed. While an element is dragged the pointer moves every frame, and each move makes the
/// previous move's answer stale; an answer installed between two moves costs a frame of decoding,
/// folding and drawing (70-110 ms at 10,000 elements) for a position the pointer has already
/// left. 100 ms is about the shortest pause a person makes on purpose.
pub const REST_MS: f64 = 100.0;

impl WorkQueue {
    /// A request to run, asked at `now_ms`: `Some` to post it now (the worker is idle), `None`
    /// when it waits.
    pub fn submit(&mut self, request: RunRequest, now_ms: f64) -> Option<RunRequest> {
        let i = slot_byte(request.slot) as usize;
        self.newest[i] = Some(Newest { revision: request.revision, gesture: request.gesture, at_ms: now_ms });
        if self.out.is_some() {
            self.waiting[i] = Some(Queued::of(&request));
            return None;
        }
        self.out = Some(Queued::of(&request));
        Some(request)
    }

    /// [`answered_lazily`](Self::answered_lazily) for an answer at hand (the tests').
    #[cfg(test)]
    pub fn answered(&mut self, bytes: &[u8]) -> (Option<RunFinished>, Option<RunRequest>) {
        self.answered_lazily(bytes, bytes.len(), |at, out| out.copy_from_slice(&bytes[at..at + out.len()]))
    }

    /// The worker answered and is free: [`done`](Self::done), then [`read`](Self::read) (the
    /// tests' shorthand; the worker runner holds a drag move's answer in between).
    #[cfg(test)]
    pub fn answered_lazily(
        &mut self,
        head: &[u8],
        len: usize,
        copy: impl FnMut(usize, &mut [u8]),
    ) -> (Option<RunFinished>, Option<RunRequest>) {
        let next = self.done();
        (self.read(head, len, copy), next)
    }

    /// The worker answered and is free: the next request to post, if one waits.
    pub fn done(&mut self) -> Option<RunRequest> {
        self.out = None;
        for w in &mut self.waiting {
            if let Some(next) = w.take().and_then(|q| q.request()) {
                self.out = Some(Queued::of(&next));
                return Some(next);
            }
        }
        None
    }

    /// Whether an answer (its header) is for the newest request of its slot, and that is a drag
    /// move's ([`RunRequest::gesture`]).
    pub fn is_gesture(&self, head: &[u8]) -> bool {
        self.current(head).is_some_and(|n| n.gesture)
    }

    /// Whether an answer (its header, at least) is for the newest request of its slot.
    pub fn is_current(&self, head: &[u8]) -> bool {
        self.current(head).is_some()
    }

    /// The newest request of the answer's slot, when the answer is for it (else it is stale).
    fn current(&self, head: &[u8]) -> Option<Newest> {
        let (revision, slot, _) = header(head)?;
        self.newest[slot_byte(slot) as usize].filter(|n| n.revision == revision)
    }

    /// What to reduce of an answer (`None`: stale or unreadable, dropped undecoded). Its `len`
    /// bytes are elsewhere (the worker's `ArrayBuffer`): `head` holds at least its first
    /// [`HEADER_BYTES`], and `copy(at, out)` copies `out.len()` of them from `at`. Nothing is
    /// copied of a stale answer (at 100,000 elements an answer is 44 MB), and a current one is
    /// decoded a chunk at a time ([`Reader::chunked`]): no copy of the whole answer is ever in wasm
    /// memory beside the run it holds. Tests' only: the worker runner reads in the reducer instead
    /// ([`WorkQueue::arrived`], then [`read_answer`] into the old run's memory).
    #[cfg(test)]
    pub fn read(&self, head: &[u8], len: usize, copy: impl FnMut(usize, &mut [u8])) -> Option<RunFinished> {
        let (revision, slot) = self.arrived(head, len)?;
        Some(RunFinished { revision, slot, result: read_answer(len, None, copy).0.map(Rc::new) })
    }

    /// The revision and slot of an answer of `len` bytes that is current (`None`: stale or
    /// unreadable), read later with [`read_answer`].
    pub fn arrived(&self, head: &[u8], len: usize) -> Option<(u64, RunSlot)> {
        self.current(head)?;
        let (revision, slot, _) = header(head)?;
        len.checked_sub(HEADER_BYTES as usize)?;
        Some((revision, slot))
    }

    /// How long (ms, from `now_ms`) a current answer to a drag move waits before it is read: until
    /// its request has been the newest for [`REST_MS`]. 0 for any other answer (read it now).
    pub fn rest_left(&self, head: &[u8], now_ms: f64) -> f64 {
        // Clamped: a clock that went back never holds an answer longer than the rest.
        self.current(head).filter(|n| n.gesture).map_or(0.0, |n| (n.at_ms + REST_MS - now_ms).clamp(0.0, REST_MS))
    }

    /// Whether a run is out.
    pub fn busy(&self) -> bool {
        self.out.is_some()
    }

    /// A cancel: [`drain`](Self::drain), and an answer held for the pointer to rest is stale
    /// from now on. `true` when a request was out or waiting.
    pub fn cancel(&mut self) -> bool {
        self.newest = [None; 2];
        !self.drain().is_empty()
    }

    /// Forgets every request (a cancel, or the worker died) and hands back those that were out
    /// or waiting, to be run elsewhere or not at all.
    pub fn drain(&mut self) -> Vec<RunRequest> {
        let out = self.out.take();
        out.into_iter().chain(self.waiting.iter_mut().filter_map(Option::take)).filter_map(|q| q.request()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{InputItem, Scenario};

    /// The main-thread runner answers at once, for the revision it was asked.
    #[test]
    fn main_thread_runner_answers_at_once() {
        let scenario = Scenario::from_json_str(
            r#"{"assigner": {"kind": "tumbling", "size": 10}, "input": [{"id": 1, "key": "A", "ts": 1}]}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let answer = MainThreadRunner.submit(RunRequest {
            revision: 7,
            slot: RunSlot::Compare,
            scenario: Rc::new(scenario),
            gesture: false,
            release: false,
        });
        let Some(RunFinished { revision, slot, result: Ok(run) }) = answer else { panic!("no run") };
        assert_eq!((revision, slot), (7, RunSlot::Compare), "the answer names the request's revision and slot");
        assert_eq!(run.steps, 2);
        assert_eq!(format!("{:?}", RunnerRef::default()), "RunnerRef(main-thread)");
    }

    /// The scenario of a request (one per `ts` and thread, kept alive as the document keeps the
    /// scenarios of its requests: the queue holds them weakly).
    fn scenario(ts: i64) -> Rc<Scenario> {
        thread_local! {
            static MADE: std::cell::RefCell<std::collections::HashMap<i64, Rc<Scenario>>> = Default::default();
        }
        MADE.with(|m| m.borrow_mut().entry(ts).or_insert_with(|| make_scenario(ts)).clone())
    }

    fn make_scenario(ts: i64) -> Rc<Scenario> {
        let json = format!(
            r#"{{"assigner": {{"kind": "tumbling", "size": 10}}, "allowed_lateness": 5, "side_output": true,
                "input": [{{"id": 1, "key": "A", "ts": {ts}, "value": 2}}, {{"wm": 30}}, {{"id": 2, "key": "B", "ts": 3}}]}}"#
        );
        Rc::new(Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}")))
    }

    fn request(revision: u64, slot: RunSlot, ts: i64) -> RunRequest {
        RunRequest { revision, slot, scenario: scenario(ts), gesture: false, release: false }
    }

    /// What the worker answers, decoded by the page: the request's revision and slot, and the run
    /// the main thread makes of the same scenario.
    #[test]
    fn the_worker_echoes_revision_and_slot_with_the_main_threads_run() {
        for slot in [RunSlot::Main, RunSlot::Compare] {
            let mut q = WorkQueue::default();
            let posted = q.submit(request(41, slot, 12), 0.0).unwrap_or_else(|| panic!("an idle worker is posted to"));
            let bytes = encode_request(&posted);
            let answered = answer(&bytes);
            assert_eq!(answered.capacity(), answered.len(), "the answer's buffer is sized exactly");
            let (got, next) = q.answered(&answered);
            assert!(next.is_none() && !q.busy());
            let Some(RunFinished { revision, slot: s, result: Ok(run) }) = got else { panic!("no run: {got:?}") };
            assert_eq!((revision, s), (41, slot));
            let Some(RunFinished { result: Ok(main), .. }) = MainThreadRunner.submit(request(41, slot, 12)) else {
                panic!("no main-thread run")
            };
            assert_eq!(format!("{run:?}"), format!("{main:?}"), "the worker's run is the main thread's");
            assert_eq!(run.oracle_lines(), main.oracle_lines());
        }
    }

    /// The scenario reaches the worker unchanged.
    #[test]
    fn a_request_carries_the_scenario_unchanged() {
        let r = request(3, RunSlot::Main, 7);
        let bytes = encode_request(&r);
        let (revision, slot, body) = header(&bytes).unwrap_or_else(|| panic!("no header"));
        assert_eq!((revision, slot), (3, RunSlot::Main));
        let Some((0, json)) = body.split_first() else { panic!("a whole scenario") };
        let back = Scenario::from_json_str(std::str::from_utf8(json).unwrap_or_else(|e| panic!("{e}")));
        assert_eq!(back.as_ref().ok(), Some(&*r.scenario));
    }

    /// While a run is out, newer requests wait and only the newest waits; the answer for the
    /// older revision is dropped, and the newest is posted next.
    #[test]
    fn stale_answers_are_dropped_and_only_the_newest_request_waits() {
        let mut q = WorkQueue::default();
        let first = q.submit(request(1, RunSlot::Main, 1), 0.0).unwrap_or_else(|| panic!("posted"));
        assert!(q.submit(request(2, RunSlot::Main, 2), 0.0).is_none(), "the worker is busy: it waits");
        assert!(q.submit(request(3, RunSlot::Main, 3), 0.0).is_none());
        let (got, next) = q.answered(&answer(&encode_request(&first)));
        assert!(got.is_none(), "revision 1's answer is stale (3 was asked since): dropped");
        let next = next.unwrap_or_else(|| panic!("the newest waiting request goes next"));
        assert_eq!(next.revision, 3, "revision 2 never runs: 3 replaced it");
        assert!(q.busy());
        let (got, next) = q.answered(&answer(&encode_request(&next)));
        assert!(next.is_none());
        let Some(RunFinished { revision: 3, result: Ok(run), .. }) = got else { panic!("revision 3 is installed") };
        assert_eq!(run.elements[0].ts, 3);
    }

    /// Copies out of an answer as the page does out of its `ArrayBuffer`, counting the bytes
    /// copied and the largest copy.
    fn copier<'a>(bytes: &'a [u8], copied: &'a std::cell::Cell<(usize, usize)>) -> impl FnMut(usize, &mut [u8]) + 'a {
        move |at, out| {
            let (n, largest) = copied.get();
            copied.set((n + out.len(), largest.max(out.len())));
            out.copy_from_slice(&bytes[at..at + out.len()]);
        }
    }

    /// The worker's answer is read from its header: a stale one is never copied out of its
    /// `ArrayBuffer` (at 100,000 elements an answer is 44 MB), a current one is, every byte once.
    #[test]
    fn a_stale_answer_is_not_copied() {
        let mut q = WorkQueue::default();
        let first = q.submit(request(1, RunSlot::Main, 1), 0.0).unwrap_or_else(|| panic!("posted"));
        assert!(q.submit(request(2, RunSlot::Main, 2), 0.0).is_none());
        let bytes = answer(&encode_request(&first));
        let copied = std::cell::Cell::new((0, 0));
        let head = &bytes[..HEADER_BYTES as usize];
        let (got, next) = q.answered_lazily(head, bytes.len(), copier(&bytes, &copied));
        assert!(got.is_none() && copied.get().0 == 0, "revision 1 is stale: not copied");
        let next = next.unwrap_or_else(|| panic!("revision 2 goes next"));
        let bytes = answer(&encode_request(&next));
        let (got, _) = q.answered_lazily(&bytes[..HEADER_BYTES as usize], bytes.len(), copier(&bytes, &copied));
        assert!(matches!(got, Some(RunFinished { revision: 2, result: Ok(_), .. })));
        assert_eq!(
            copied.get().0,
            bytes.len() - HEADER_BYTES as usize,
            "the body is copied once, the header not again"
        );
        let short = q.answered_lazily(&bytes[..4], bytes.len(), |_, _| panic!("a short head is not read further"));
        assert_eq!(short.0, None);
    }

    /// A large answer is decoded a chunk at a time (the page never holds the whole answer in
    /// wasm memory), into the same run as the worker's; a cut or an error answer reads as an error.
    #[test]
    fn a_large_answer_is_decoded_a_chunk_at_a_time() {
        let input = (0..6_000)
            .map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}, "value": 1}}"#, i % 13, i * 37 % 50_000))
            .collect::<Vec<_>>()
            .join(",");
        let json = format!(
            r#"{{"assigner": {{"kind": "sliding", "size": 3000, "slide": 1000}}, "allowed_lateness": 500, "input": [{input}]}}"#
        );
        let scenario = Rc::new(Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}")));
        let ask = |revision| RunRequest {
            revision,
            slot: RunSlot::Main,
            scenario: scenario.clone(),
            gesture: false,
            release: false,
        };
        let mut q = WorkQueue::default();
        let posted = q.submit(ask(1), 0.0).unwrap_or_else(|| panic!("posted"));
        let bytes = answer(&encode_request(&posted));
        assert!(bytes.len() > 4 * Reader::CHUNK, "{} bytes", bytes.len());
        let copied = std::cell::Cell::new((0, 0));
        let (got, _) = q.answered_lazily(&bytes[..HEADER_BYTES as usize], bytes.len(), copier(&bytes, &copied));
        let Some(RunFinished { result: Ok(run), .. }) = got else { panic!("installed: {got:?}") };
        assert_eq!(format!("{:?}", *run), format!("{:?}", execute(&scenario)), "the run survives its chunks");
        let (n, largest) = copied.get();
        assert_eq!(n, bytes.len() - HEADER_BYTES as usize, "every byte copied once");
        assert!(largest <= Reader::CHUNK, "copies of {largest} bytes at most, not the whole answer");
        // Cut short: an error, not a panic. An error answer: its text.
        let mut read = |revision: u64, body: &[u8]| {
            q.submit(ask(revision), 0.0);
            q.done();
            let mut b = body.to_vec();
            b[..8].copy_from_slice(&revision.to_le_bytes());
            q.read(&b[..HEADER_BYTES as usize], b.len(), |at, out| out.copy_from_slice(&b[at..at + out.len()]))
        };
        let Some(RunFinished { result: Err(cut), .. }) = read(2, &bytes[..bytes.len() / 2]) else { panic!("an error") };
        assert!(cut.contains("ends early"), "{cut}");
        let Some(RunFinished { result: Err(text), .. }) = read(3, &answer_error(0, RunSlot::Main, "out of memory"))
        else {
            panic!("an error")
        };
        assert_eq!(text, "out of memory");
    }

    /// A drag move's answer waits until its request has been the newest for `REST_MS` (the
    /// pointer rested); a newer move makes it stale, unread. Other answers are read at once, and a
    /// cancel makes a held answer stale.
    #[test]
    fn a_drag_moves_answer_waits_for_the_pointer_to_rest() {
        let gesture = |revision, ts| RunRequest { gesture: true, ..request(revision, RunSlot::Main, ts) };
        let mut q = WorkQueue::default();
        let posted = q.submit(gesture(1, 1), 1000.0).unwrap_or_else(|| panic!("posted"));
        let first = answer(&encode_request(&posted));
        let head = &first[..HEADER_BYTES as usize];
        assert_eq!(q.done(), None, "nothing waits");
        assert_eq!(q.rest_left(head, 1030.0), REST_MS - 30.0, "answered 30 ms after the move");
        assert_eq!(q.rest_left(head, 1000.0 + REST_MS), 0.0, "the pointer rested");
        assert_eq!(q.rest_left(head, 0.0), REST_MS, "a clock that went back holds it no longer than the rest");
        assert!(q.is_current(head));
        assert!(q.is_gesture(head), "a move's answer (the worker runner keeps its worker after it)");
        // The pointer moves on before the rest is over: the held answer is stale.
        let posted = q.submit(gesture(2, 2), 1050.0).unwrap_or_else(|| panic!("posted"));
        assert_eq!(q.rest_left(head, 1100.0), 0.0);
        assert_eq!(q.read(head, first.len(), |_, _| panic!("a stale answer is not copied")), None);
        let second = answer(&encode_request(&posted));
        let head = &second[..HEADER_BYTES as usize];
        assert_eq!(q.done(), None);
        assert_eq!(q.rest_left(head, 1060.0), 90.0);
        let got = q.read(head, second.len(), |at, out| out.copy_from_slice(&second[at..at + out.len()]));
        assert!(matches!(got, Some(RunFinished { revision: 2, result: Ok(_), .. })), "{got:?}");
        // The drop (not a move) is read at once; a cancel makes it stale.
        let posted = q.submit(request(3, RunSlot::Main, 3), 1070.0).unwrap_or_else(|| panic!("posted"));
        let third = answer(&encode_request(&posted));
        let head = &third[..HEADER_BYTES as usize];
        assert_eq!(q.rest_left(head, 1071.0), 0.0, "not a drag move: at once");
        assert!(
            !q.is_gesture(head),
            "the drop's answer is not a move's (the worker runner may end its worker after it)"
        );
        assert!(q.read(head, third.len(), |at, out| out.copy_from_slice(&third[at..at + out.len()])).is_some());
        assert!(q.cancel(), "the drop's run was out");
        assert_eq!(q.read(head, third.len(), |_, _| panic!("cancelled")), None);
    }

    /// The queue holds a request's scenario weakly: the document can edit it in place while the
    /// request waits (a drag move does), and a request whose scenario was edited since is not run
    /// (the edit's own request replaced it).
    #[test]
    fn the_queue_does_not_hold_the_scenario() {
        let mut q = WorkQueue::default();
        let first = q.submit(request(1, RunSlot::Main, 1), 0.0).unwrap_or_else(|| panic!("posted"));
        let mut doc = make_scenario(5);
        let waiting =
            RunRequest { revision: 2, slot: RunSlot::Main, scenario: doc.clone(), gesture: true, release: false };
        assert!(q.submit(waiting, 0.0).is_none());
        assert_eq!(Rc::strong_count(&doc), 1);
        let input = doc.input.as_ptr();
        assert!(q.waiting[0].as_ref().and_then(Queued::request).is_some());
        let _ = Rc::make_mut(&mut doc);
        assert_eq!(doc.input.as_ptr(), input, "a move edits the scenario in place: its input is not copied");
        // The waiting request's scenario was edited since: it is not run (its edit's request would be).
        assert!(q.waiting[0].as_ref().is_some_and(|w| w.request().is_none()), "the waiting request is cut off");
        let (_, next) = q.answered(&answer(&encode_request(&first)));
        assert!(next.is_none() && !q.busy(), "{next:?}");
        // Still there: it is posted, and a cancel hands back only what can still run.
        let doc = make_scenario(6);
        let posted = q.submit(
            RunRequest { revision: 3, slot: RunSlot::Main, scenario: doc.clone(), gesture: false, release: false },
            0.0,
        );
        assert!(posted.is_some());
        assert!(
            q.submit(
                RunRequest {
                    revision: 4,
                    slot: RunSlot::Compare,
                    scenario: make_scenario(7),
                    gesture: false,
                    release: false
                },
                0.0
            )
            .is_none()
        );
        let back: Vec<u64> = q.drain().iter().map(|r| r.revision).collect();
        assert_eq!(back, vec![3], "B's scenario is gone");
    }

    /// The two slots (compare mode's A and B) wait side by side; each answer names its slot.
    #[test]
    fn slots_wait_side_by_side_and_are_echoed() {
        let mut q = WorkQueue::default();
        let a = q.submit(request(5, RunSlot::Main, 1), 0.0).unwrap_or_else(|| panic!("posted"));
        assert!(q.submit(request(2, RunSlot::Compare, 4), 0.0).is_none());
        let (got, next) = q.answered(&answer(&encode_request(&a)));
        assert!(matches!(got, Some(RunFinished { revision: 5, slot: RunSlot::Main, result: Ok(_) })));
        let b = next.unwrap_or_else(|| panic!("B goes next"));
        let (got, _) = q.answered(&answer(&encode_request(&b)));
        assert!(matches!(got, Some(RunFinished { revision: 2, slot: RunSlot::Compare, result: Ok(_) })));
        // The queue takes the newest request of a slot for current, even with a lower revision
        // (the state counts a new compare document on from the old one's: `compare_revisions`).
        let b = q.submit(request(1, RunSlot::Compare, 4), 0.0).unwrap_or_else(|| panic!("posted"));
        let (got, _) = q.answered(&answer(&encode_request(&b)));
        assert!(matches!(got, Some(RunFinished { revision: 1, slot: RunSlot::Compare, .. })));
    }

    /// A request the worker cannot read comes back as the runner's error; an answer the page
    /// cannot read is dropped; a cancel hands back what was out and waiting.
    #[test]
    fn malformed_messages_are_errors_and_drain_hands_back_the_requests() {
        let mut q = WorkQueue::default();
        let r = q.submit(request(9, RunSlot::Main, 1), 0.0).unwrap_or_else(|| panic!("posted"));
        let mut bad = encode_request(&r);
        bad.truncate(20);
        let (got, _) = q.answered(&answer(&bad));
        let Some(RunFinished { revision: 9, result: Err(e), .. }) = got else { panic!("an error: {got:?}") };
        assert!(e.contains("could not read the scenario"), "{e}");
        assert_eq!(q.answered(&[1, 2, 3]).0, None, "an unreadable answer is dropped");
        let _ = q.submit(request(10, RunSlot::Main, 1), 0.0);
        let _ = q.submit(request(11, RunSlot::Main, 1), 0.0);
        let _ = q.submit(request(3, RunSlot::Compare, 1), 0.0);
        let revisions: Vec<u64> = q.drain().iter().map(|r| r.revision).collect();
        assert_eq!(revisions, vec![10, 11, 3]);
        assert!(!q.busy());
    }

    /// An issue-15 stream of `n` elements over 20 keys (bounded out-of-orderness), as a request.
    fn stream(n: i64, revision: u64) -> RunRequest {
        let items: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"id": {i}, "key": "k{}", "ts": {}, "value": {}}}"#,
                    i % 20,
                    i * 1000 + (i * 7919) % 20_000,
                    i % 5
                )
            })
            .collect();
        let json = format!(
            r#"{{"assigner": {{"kind": "tumbling", "size": 30000}}, "allowed_lateness": 2000, "watermarks": {{"kind": "bounded_out_of_orderness", "bound": 5000}}, "input": [{}]}}"#,
            items.join(",")
        );
        let scenario = Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}"));
        RunRequest { revision, slot: RunSlot::Main, scenario: Rc::new(scenario), gesture: true, release: false }
    }

    /// The request with element `index`'s timestamp set to `ts`.
    fn moved(r: &RunRequest, revision: u64, index: usize, ts: i64) -> RunRequest {
        let mut s = (*r.scenario).clone();
        if let Some(InputItem::Element(e)) = s.input.get_mut(index) {
            e.ts = ts;
        }
        RunRequest { revision, slot: r.slot, scenario: Rc::new(s), gesture: true, release: false }
    }

    /// A drag's moves go to the worker as patches of the scenario it last had, and each answer is
    /// byte for byte the answer to the whole scenario; a patch's text is a few hundred bytes, not
    /// the scenario's.
    #[test]
    fn a_drag_move_goes_as_a_patch_and_is_answered_as_the_whole_scenario() {
        let first = stream(3_000, 1);
        let whole = encode_request_after(&first, None);
        assert_eq!(whole, encode_request(&first), "nothing sent before: the whole scenario");
        let _ = answer(&whole);
        let mut sent = (1, first.scenario.clone());
        // Patches of patches: each move is made to the scenario the last patch made (elements of
        // two keys dragged in turn), and compared with a run of the whole scenario made here, which
        // leaves the worker's scenario alone.
        let mut scenario = first.clone();
        for (revision, index, ts) in [(2, 1_234, 1_500_000), (3, 7, 40_000), (4, 1_234, -5_000), (5, 2_999, 2_999_000)]
        {
            let next = moved(&scenario, revision, index, ts);
            let patch = encode_request_after(&next, Some(&sent));
            assert_eq!(patch.get(HEADER_BYTES as usize), Some(&1), "a patch");
            assert!(patch.len() < 200, "a patch of one element is short: {} bytes", patch.len());
            let got = answer(&patch);
            assert!(!answer_is_error(&got));
            let run = execute(&next.scenario);
            let mut whole = message(revision, next.slot, 0, encoded_len(&run));
            encode_run(&run, &mut whole);
            assert!(got == whole, "the patch's run is the whole scenario's (element {index} to {ts})");
            sent = (revision, next.scenario.clone());
            scenario = next;
        }
    }

    /// Only input items changed, and at most `PATCH_MAX_ITEMS` of them, go as a patch: another
    /// configuration, an inserted item or many changed items send the whole scenario.
    #[test]
    fn anything_but_a_few_changed_items_goes_whole() {
        let first = stream(200, 1);
        let sent = (1, first.scenario.clone());
        let is_patch = |r: &RunRequest| encode_request_after(r, Some(&sent)).get(HEADER_BYTES as usize) == Some(&1);
        assert!(is_patch(&moved(&first, 2, 3, 77)));
        assert!(is_patch(&first), "the same scenario again: an empty patch");
        let mut other = (*first.scenario).clone();
        other.allowed_lateness = Some(0);
        assert!(!is_patch(&RunRequest { scenario: Rc::new(other), ..moved(&first, 2, 3, 77) }));
        let mut longer = (*first.scenario).clone();
        longer.input.insert(5, InputItem::Watermark(9_000));
        assert!(!is_patch(&RunRequest { scenario: Rc::new(longer), ..moved(&first, 2, 3, 77) }));
        let mut many = (*first.scenario).clone();
        for item in many.input.iter_mut().take(PATCH_MAX_ITEMS + 1) {
            if let InputItem::Element(e) = item {
                e.value += 1;
            }
        }
        let many = RunRequest { scenario: Rc::new(many), ..moved(&first, 2, 3, 77) };
        assert!(!is_patch(&many));
        let mut most = (*first.scenario).clone();
        for item in most.input.iter_mut().take(PATCH_MAX_ITEMS) {
            if let InputItem::Element(e) = item {
                e.value += 1;
            }
        }
        assert!(is_patch(&RunRequest { scenario: Rc::new(most), ..moved(&first, 2, 3, 77) }), "64 items: a patch");
        assert_eq!(encode_request_after(&many, Some(&sent)), encode_request(&many));
    }

    /// A patch made to a revision the worker does not hold (it was replaced, or its last request
    /// failed) is answered as an error, and the worker then holds nothing of that slot: the page
    /// (`answer_is_error`) sends the next request whole, which is answered as usual.
    #[test]
    fn a_patch_to_a_scenario_the_worker_lacks_is_an_error_and_the_next_whole_request_mends_it() {
        let first = stream(100, 1);
        let _ = answer(&encode_request(&first));
        let next = moved(&first, 2, 10, 5);
        let wrong_base = encode_request_after(&next, Some(&(7, first.scenario.clone())));
        let got = answer(&wrong_base);
        assert!(answer_is_error(&got), "a patch to revision 7, which the worker never had");
        assert_eq!(failed_slot(&got), Some(RunSlot::Main), "the page forgets what that slot's worker held");
        let mut q = WorkQueue::default();
        let _ = q.submit(next.clone(), 0.0);
        let (read, _) = q.answered(&got);
        let Some(RunFinished { revision: 2, result: Err(e), .. }) = read else { panic!("an error: {read:?}") };
        assert!(e.contains("no longer holds revision 7"), "{e}");
        // Even a patch to the right revision fails now: the failed request took it.
        let right_base = encode_request_after(&moved(&first, 3, 10, 6), Some(&(1, first.scenario.clone())));
        assert!(answer_is_error(&answer(&right_base)));
        let whole = answer(&encode_request(&next));
        assert!(!answer_is_error(&whole));
        assert_eq!(failed_slot(&whole), None);
        assert!(!answer_is_error(&answer(&encode_request_after(
            &moved(&first, 4, 10, 9),
            Some(&(2, next.scenario.clone()))
        ))));
    }

    /// A prime is kept, not run: no answer; the drag's first move is then a patch of it, answered
    /// as the whole scenario would be. A prime that does not read leaves the worker nothing.
    #[test]
    fn a_primed_scenario_is_kept_unanswered_and_the_first_move_patches_it() {
        let first = stream(2_500, 40);
        assert!(answer(&encode_prime(40, &first.scenario)).is_empty(), "no answer to a prime");
        let next = moved(&first, 41, 2_000, 12_345);
        let patch = encode_request_after(&next, Some(&(40, first.scenario.clone())));
        assert_eq!(patch.get(HEADER_BYTES as usize), Some(&1));
        let got = answer(&patch);
        assert!(!answer_is_error(&got));
        assert!(got == answer(&encode_request(&next)));
        let mut bad = encode_prime(42, &first.scenario);
        bad.truncate(100);
        assert!(answer(&bad).is_empty());
        // The worker held revision 41 before the bad prime: a patch to it fails now.
        let after_bad = encode_request_after(&moved(&next, 43, 1, 1), Some(&(41, next.scenario.clone())));
        assert!(answer_is_error(&answer(&after_bad)), "nothing kept of a prime that did not read");
    }
}
