//! The Web Worker runner (TIMELINE_CONTRACT.md §3): engine runs go to the `tidemark-worker` module
//! in a module worker (`assets/engine-worker.js`), so that a drag or a load never waits on the
//! engine; the answers come back as `Action::RunArrived` through the reducer's dispatcher, which
//! reads them (`AppState::run_arrived`: into the memory of the run they replace).
//!
//! ```text
//!  submit(request) ──WorkQueue──▶ postMessage(bytes, [buffer])  ─▶ worker: answer(bytes)
//!  onmessage(bytes) ──WorkQueue::done──▶ post the next
//!                   ──WorkQueue::rest_left──▶ a drag move's answer? hold it until the pointer rests
//!                   ──WorkQueue::arrived──▶ stale? drop unread : Action::RunArrived (read_answer)
//! ```
//!
//! Where no worker can be made (no `data-worker` on the loader script, a `file:` page, a sandboxed
//! iframe, `new Worker` throws) it is the main-thread runner from the start, and if the worker
//! fails later (its module does not load, it throws) it becomes one: what was out or waiting runs on
//! the main thread and is answered as usual. Its name (`run-status`'s `data-runner`) says which.
//! A cancel terminates the worker (the previous run stays on show) and starts another.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

use crate::engine::InputItem;
use crate::engine::Scenario;
use crate::ui::action::{Action, RunArrived};
use crate::ui::runner::{
    HEADER_BYTES, MainThreadRunner, PATCH_MAX_ITEMS, RunFinished, RunRequest, RunSlot, Runner, WorkQueue, encode_prime,
    encode_request_after, failed_slot, read_answer, slot_byte,
};

/// Engine runs in a Web Worker, or on the main thread where there is none.
#[derive(Clone, Default)]
pub struct WorkerRunner(Rc<RefCell<Inner>>);

#[derive(Default)]
struct Inner {
    /// The worker; `None`: the main-thread runner.
    worker: Option<Worker>,
    /// Its script's URL, to start another after a cancel.
    url: String,
    queue: WorkQueue,
    /// The reducer's dispatcher, once the app has one.
    deliver: Option<Callback<Action>>,
    /// Answers that came before the dispatcher.
    undelivered: Vec<Action>,
    /// The last run was answered on the main thread ([`runs_here`]).
    ran_here: bool,
    /// A drag move's current answer waiting for the pointer to rest (its header and its buffer):
    /// one at a time, so a newer answer lets an older buffer go at once.
    held: Option<(Vec<u8>, Uint8Array)>,
    /// The last request posted to this worker of each slot (`Main`, `Compare`): its revision and
    /// scenario, which the worker keeps, so that the next request can be a patch of it
    /// (`runner::encode_request_after`). Forgotten with the worker, and after an error answer.
    sent: [Option<(u64, Rc<Scenario>)>; 2],
    /// Kept alive while the worker is.
    #[allow(clippy::type_complexity)]
    handlers: Option<(Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(web_sys::Event)>)>,
}

/// Scenarios of at most this many elements run on the main thread, at once, even with a worker
/// (the SVG backend's limit): at that size a run takes a few milliseconds, about a message round trip
/// plus the run's decoding, and an answer at once keeps the page's edit semantics exactly as they were
/// (a configuration edit's proposal is accepted or refused within its keystroke, so typing into a
/// field stays one undo step). Larger streams go to the worker, and so do the drag moves of more
/// than [`LIVE_DRAG_MAX`] elements and their release ([`runs_here`]).
pub const RUN_HERE_MAX: usize = 2_000;

/// Whether `request`, of a scenario of `elements` elements (counted up to [`RUN_HERE_MAX`] + 1),
/// runs on the main thread even with a worker: at most [`RUN_HERE_MAX`] elements, except the moves
/// of a drag of more than [`LIVE_DRAG_MAX`] and its release. The release goes where the moves
/// went: run here, its run, install and full redraw were one task of 50-110 ms at 2,000 elements
/// with the CPU slowed 1.5× (the run alone ≈ 13 ms of it); from the worker, the release's task
/// only places the dropped marble (`SceneInput::dropped`), and the answer is installed in stages
/// (`state::staged`), as the rest's was.
pub fn runs_here(request: &RunRequest, elements: usize) -> bool {
    let live = !(request.gesture || request.release) || elements <= LIVE_DRAG_MAX;
    elements <= RUN_HERE_MAX && live
}

/// Calls `f` in a task of its own, after what is queued already (a timer of 0 ms: Chromium
/// handles waiting input first); `false` where no timer can be set (no window), and `f` is
/// never called. The callback frees itself once called (`Closure::once_into_js`), which a
/// `gloo` timer's `forget` would not.
pub fn next_task(f: impl FnOnce() + 'static) -> bool {
    let fire = Closure::once_into_js(f);
    let set =
        web_sys::window().map(|w| w.set_timeout_with_callback_and_timeout_and_arguments_0(fire.unchecked_ref(), 0));
    matches!(set, Some(Ok(_)))
}

/// A drag move of a scenario of more elements than this goes to the worker all the same: above
/// about 500 elements a move's run, fold and full redraw no longer fit in a frame (a 2,000-element
/// move cost 50-100 ms on the SVG backend). While its run is out the dragged marble follows the
/// pointer alone (`SceneInput::drag_moved`), and the answer is installed when the pointer rests
/// (`runner::REST_MS`). Up to this many, every move shows its own run at once.
pub const LIVE_DRAG_MAX: usize = 500;

/// After an answer of more than this many bytes (not a drag move's), when no request waits, the worker is replaced by
/// a fresh one: wasm memory never shrinks, and a run of 100,000 elements leaves the worker's at
/// its peak (200-250 MB) for as long as the worker lives; ending the worker is the only way to
/// give that back. The answer's size stands for the run's (44-73 MB at 100,000 elements, 4 MB at
/// 10,000); below this a fresh worker (its module compiled anew, a few tens of ms before the next
/// run can start) would cost more than it gives back. The worker keeps nothing between requests
/// but the last scenario of each slot (a fresh one is sent the next whole).
pub const RECYCLE_ANSWER_BYTES: u32 = 8 << 20;

/// Posts a message's bytes to the worker, their buffer transferred.
fn send(worker: &Worker, message: &[u8]) -> Result<(), JsValue> {
    let bytes = Uint8Array::from(message);
    worker.post_message_with_transfer(&bytes.buffer(), &Array::of1(&bytes.buffer()))
}

/// Lets an answer's buffer go now, not at the next GC: read, stale, replaced by a newer drag
/// move's or cancelled (44-73 MB at 100,000 elements, 4 MB at 10,000, counted in the page's JS heap
/// until then; a drag at 10,000 elements gets an answer every 50-100 ms). `transfer(0)` detaches
/// it; where there is no `transfer`, the call throws (caught: `Err`) and the GC frees it as before.
fn detach(bytes: &Uint8Array) {
    let buffer = bytes.buffer();
    if let Ok(transfer) = Reflect::get(&buffer, &"transfer".into()) {
        let _ = transfer.unchecked_into::<js_sys::Function>().call1(&buffer, &JsValue::from(0));
    }
}

/// The page's monotonic clock (ms): a rest is measured on it, not on the wall clock.
fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The worker script's URL, when this page can have a worker (also the import's, `ui::import_worker`).
pub(crate) fn worker_url() -> Option<String> {
    let window = web_sys::window()?;
    if window.location().protocol().ok()? == "file:" {
        return None;
    }
    let doc = window.document()?;
    let me = doc.query_selector("script[data-worker]").ok()??;
    let module = me.get_attribute("data-worker").filter(|m| m.ends_with(".js"))?;
    let base = doc.base_uri().ok()??;
    let query: String = js_sys::encode_uri_component(&module).into();
    web_sys::Url::new_with_base(&format!("engine-worker.js?js={query}"), &base).ok().map(|u| u.href())
}

impl WorkerRunner {
    /// A runner with a worker if one can be made here, else the main-thread one.
    pub fn start() -> WorkerRunner {
        let runner = WorkerRunner::default();
        if let Some(url) = worker_url() {
            runner.0.borrow_mut().url = url;
            runner.spawn();
        }
        runner
    }

    /// Starts a worker on the stored URL; `false` (and the main thread from now on) when that throws.
    fn spawn(&self) -> bool {
        let url = self.0.borrow().url.clone();
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let Ok(worker) = Worker::new_with_options(&url, &options) else {
            self.0.borrow_mut().worker = None;
            return false;
        };
        let me = self.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| me.on_message(e.data()));
        let me = self.clone();
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            me.fail();
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let mut inner = self.0.borrow_mut();
        inner.worker = Some(worker);
        inner.handlers = Some((on_message, on_error));
        true
    }

    /// Where answers go: the reducer's dispatcher (`hooks::use_app` sets it after the first render).
    pub fn set_dispatcher(&self, deliver: Callback<Action>) {
        let waiting = {
            let mut inner = self.0.borrow_mut();
            inner.deliver = Some(deliver.clone());
            std::mem::take(&mut inner.undelivered)
        };
        for a in waiting {
            deliver.emit(a);
        }
    }

    fn deliver(&self, action: Action) {
        let deliver = {
            let mut inner = self.0.borrow_mut();
            match inner.deliver.clone() {
                Some(d) => d,
                None => return inner.undelivered.push(action),
            }
        };
        deliver.emit(action);
    }

    fn post(&self, worker: &Worker, request: &RunRequest) -> Result<(), JsValue> {
        let encoded = {
            let mut inner = self.0.borrow_mut();
            let sent = &mut inner.sent[slot_byte(request.slot) as usize];
            let encoded = encode_request_after(request, sent.as_ref());
            *sent = Some((request.revision, request.scenario.clone()));
            encoded
        };
        send(worker, &encoded)
    }

    fn on_message(&self, data: JsValue) {
        if Reflect::get(&data, &"failed".into()).is_ok_and(|f| f.is_string()) {
            return self.fail();
        }
        let bytes = Uint8Array::new(&data);
        let head = bytes.subarray(0, (HEADER_BYTES + 1).min(bytes.length())).to_vec();
        let next = {
            let mut inner = self.0.borrow_mut();
            if let Some(slot) = failed_slot(&head) {
                // The worker let go of that slot's scenario: its next request goes whole.
                inner.sent[slot_byte(slot) as usize] = None;
            }
            inner.queue.done().zip(inner.worker.clone())
        };
        // Not a drag move's: its worker would be ended at every rest of the pointer, and the next
        // move would wait for a fresh one. The drop's answer is not a move's.
        let recycle = bytes.length() > RECYCLE_ANSWER_BYTES && !self.0.borrow().queue.is_gesture(&head);
        // The worker starts on the next run while this answer is decoded. A failed post drains
        // the queue but keeps what is current, so the answer is read as usual after it.
        let next_posted = next.as_ref().map(|(r, _)| r.revision);
        if let Some((request, worker)) = next
            && self.post(&worker, &request).is_err()
        {
            self.fail();
        }
        self.read_or_hold(head, bytes);
        // Only when idle: nothing went out before the answer, nor while it was installed.
        if recycle && next_posted.is_none() && !self.0.borrow().queue.busy() && self.end_worker() {
            self.spawn();
        }
    }

    /// Terminates the worker (its memory goes with it); `false` when there was none.
    fn end_worker(&self) -> bool {
        let mut inner = self.0.borrow_mut();
        inner.handlers = None;
        // What the worker kept goes with it.
        inner.sent = Default::default();
        inner.worker.take().map(|w| w.terminate()).is_some()
    }

    /// Reads an answer now, or holds a drag move's until the pointer has rested (unless a move
    /// comes since).
    fn read_or_hold(&self, head: Vec<u8>, bytes: Uint8Array) {
        let wait = self.0.borrow().queue.rest_left(&head, now_ms());
        if wait > 0.0 {
            self.hold(head, bytes, wait);
        } else {
            self.read(&head, &bytes);
        }
    }

    /// Reduces an answer if it is still current: the reducer decodes it out of its buffer, a chunk
    /// at a time, once it has let go of what the install makes anew (`Action::RunArrived`).
    fn read(&self, head: &[u8], bytes: &Uint8Array) {
        let len = bytes.length() as usize;
        let Some((revision, slot)) = self.0.borrow().queue.arrived(head, len) else {
            return detach(bytes);
        };
        let bytes = bytes.clone();
        let read = move |spare| {
            let read =
                read_answer(len, spare, |at, out| bytes.subarray(at as u32, (at + out.len()) as u32).copy_to(out));
            detach(&bytes);
            read
        };
        self.deliver(Action::RunArrived(RunArrived::new(revision, slot, read)));
    }

    /// Keeps a drag move's current answer (replacing an older one) and looks at it again in
    /// `wait` ms; where no timer can be set, reads it now, rested or not.
    fn hold(&self, head: Vec<u8>, bytes: Uint8Array, wait: f64) {
        let me = self.clone();
        let later = Closure::once_into_js(move || me.read_held());
        let set = web_sys::window().map(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), wait.ceil() as i32)
        });
        if matches!(set, Some(Ok(_))) {
            if let Some((_, older)) = self.0.borrow_mut().held.replace((head, bytes)) {
                detach(&older);
            }
        } else {
            self.read(&head, &bytes);
        }
    }

    /// The held answer: held on if its rest is not over (a timer of an older answer fired), else
    /// read.
    fn read_held(&self) {
        let Some((head, bytes)) = self.0.borrow_mut().held.take() else { return };
        self.read_or_hold(head, bytes);
    }

    /// [`Runner::prime`]'s work: the scenario to the worker, unless it holds it (or one a patch
    /// away) already, or the moves will not go to it.
    fn prime_now(&self, revision: u64, scenario: &Rc<Scenario>) {
        let worker = {
            let inner = self.0.borrow();
            // (Above the main thread's limit: below it the whole scenario's JSON is cheap.)
            let large =
                scenario.input.iter().filter(|i| matches!(i, InputItem::Element(_))).nth(RUN_HERE_MAX).is_some();
            let held = inner.sent[slot_byte(RunSlot::Main) as usize]
                .as_ref()
                .is_some_and(|(_, sent)| scenario.input_edits(sent, PATCH_MAX_ITEMS).is_some());
            match &inner.worker {
                Some(w) if large && !held => w.clone(),
                _ => return,
            }
        };
        if send(&worker, &encode_prime(revision, scenario)).is_ok() {
            self.0.borrow_mut().sent[slot_byte(RunSlot::Main) as usize] = Some((revision, scenario.clone()));
        }
    }

    /// The worker failed: the main thread runs from now on, starting with what was out or waiting.
    fn fail(&self) {
        self.end_worker();
        let requests = self.0.borrow_mut().queue.drain();
        for r in requests {
            if let Some(a) = MainThreadRunner.submit(r) {
                self.deliver(Action::RunFinished(a));
            }
        }
    }
}

impl Runner for WorkerRunner {
    fn submit(&self, request: RunRequest) -> Option<RunFinished> {
        let (to_post, worker) = {
            let mut inner = self.0.borrow_mut();
            // Counted as far as the limit only (a drag move at 100,000 elements submits per frame).
            let elements = request
                .scenario
                .input
                .iter()
                .filter(|i| matches!(i, InputItem::Element(_)))
                .take(RUN_HERE_MAX + 1)
                .count();
            inner.ran_here = runs_here(&request, elements);
            let Some(worker) = inner.worker.clone().filter(|_| !inner.ran_here) else {
                drop(inner);
                return MainThreadRunner.submit(request);
            };
            let posted = inner.queue.submit(request, now_ms());
            if inner.held.as_ref().is_some_and(|(head, _)| !inner.queue.is_current(head)) {
                // Stale now: its buffer can go.
                if let Some((_, stale)) = inner.held.take() {
                    detach(&stale);
                }
            }
            (posted, worker)
        };
        if let Some(r) = to_post
            && self.post(&worker, &r).is_err()
        {
            self.fail();
        }
        None
    }

    /// Hands the worker the scenario a drag is about to edit, in a task of its own right after
    /// the press's (the press at 100,000 elements is 40-50 ms of work already): after a large
    /// answer the worker is a fresh one, and without this the drag's first move would send the
    /// whole scenario (at 100,000 elements 5 MB of JSON, 10-20 ms of the move's frame). Where no
    /// timer can be set, nothing is primed (the first move goes whole).
    fn prime(&self, revision: u64, scenario: &Rc<Scenario>) {
        let (me, scenario) = (self.clone(), scenario.clone());
        next_task(move || me.prime_now(revision, &scenario));
    }

    /// Where a timer can be set (as for [`Runner::prime`]).
    fn defers(&self) -> bool {
        web_sys::window().is_some()
    }

    /// A timer of 0 ms: the action is dispatched in a task of its own, after what is queued
    /// already (Chromium handles waiting input first).
    fn defer(&self, action: Action) -> bool {
        let me = self.clone();
        next_task(move || me.deliver(action))
    }

    fn name(&self) -> &'static str {
        // Which runner took the last run (run-status's `data-runner`).
        let inner = self.0.borrow();
        if inner.worker.is_some() && !inner.ran_here { "worker" } else { "main-thread" }
    }

    /// Terminates the worker and starts another: what was out or waiting is forgotten.
    fn cancel(&self) -> bool {
        if !self.end_worker() {
            return false;
        }
        let had = {
            let mut inner = self.0.borrow_mut();
            if let Some((_, cancelled)) = inner.held.take() {
                detach(&cancelled);
            }
            inner.queue.cancel()
        };
        self.spawn();
        had
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Up to [`RUN_HERE_MAX`] elements runs are answered at once, but a drag's moves of more than
    /// [`LIVE_DRAG_MAX`] go to the worker, and so does their release; an edit of the same size
    /// (a key, a configuration field) does not.
    #[test]
    fn a_release_goes_where_its_moves_went() {
        let request = |gesture, release| RunRequest {
            revision: 1,
            slot: crate::ui::runner::RunSlot::Main,
            scenario: Rc::new(Scenario::default()),
            gesture,
            release,
        };
        let (edit, moved, released) = (request(false, false), request(true, false), request(false, true));
        for n in [0, 1, LIVE_DRAG_MAX] {
            assert!(runs_here(&edit, n) && runs_here(&moved, n) && runs_here(&released, n), "{n}");
        }
        for n in [LIVE_DRAG_MAX + 1, RUN_HERE_MAX] {
            assert!(runs_here(&edit, n), "{n}: an edit is answered at once");
            assert!(!runs_here(&moved, n) && !runs_here(&released, n), "{n}: the moves and their release");
        }
        for r in [&edit, &moved, &released] {
            assert!(!runs_here(r, RUN_HERE_MAX + 1));
        }
    }
}
