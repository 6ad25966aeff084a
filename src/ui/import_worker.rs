//! The import's Web Worker, the page's side: a file over 1 MB is parsed in a worker of its own, so
//! the page's thread never reads rows. It runs the same `tidemark-worker` module as the engine's
//! runner (`ui::worker_runner`), started as `engine-worker.js?js=…&task=import`, whose second entry
//! point `parse_import` parses the file in chunks and posts its progress after each
//! (`import::wire`: the request, progress and result as transferred bytes).
//!
//! ```text
//!  ImportWorker::start(spec, bytes) ── new Worker(…&task=import) ── postMessage(spec | bytes)
//!  onmessage ── 0 Progress ──▶ News::Progress            (after every chunk)
//!            ── 1 Parsed / 2 ImportError ──▶ News::Done  (once)
//!  {failed}, an error event, an answer that cannot be read ──▶ News::Failed: parse on the main thread
//!  drop ──▶ terminate (the dialog's Cancel, or the dialog closing)
//! ```
//!
//! One worker a parse: a cancel terminates it, and nothing it says afterwards is heard (its handlers
//! are taken off first). Where no worker can be made (no `data-worker` on the loader script, a
//! `file:` page, a sandboxed iframe, `new Worker` throws) [`ImportWorker::start`] gives `None`, and
//! the dialog parses on the main thread in chunks, as it does after a failure.

use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::import::wire::{Answer, decode_answer, encode_request};
use crate::import::{ImportError, ImportSpec, Parsed, Progress};
use crate::ui::worker_runner::worker_url;

/// What the worker said.
pub enum News {
    Progress(Progress),
    Done(Result<Parsed, ImportError>),
    /// The worker cannot parse (its module did not load, it threw, it answered garbage): why.
    Failed(String),
}

type Handlers = (Closure<dyn FnMut(MessageEvent)>, Closure<dyn FnMut(web_sys::Event)>);

/// A worker parsing one file; dropping it terminates the worker.
pub struct ImportWorker {
    worker: Worker,
    _handlers: Handlers,
}

impl ImportWorker {
    /// Starts a worker on the file and posts it the request; `None` where no worker can be made.
    pub fn start(spec: &ImportSpec, bytes: &[u8], on_news: impl Fn(News) + 'static) -> Option<ImportWorker> {
        let url = format!("{}&task=import", worker_url()?);
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(&url, &options).ok()?;
        let on_news = std::rc::Rc::new(on_news);
        let news = on_news.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| news(read(e.data())));
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            let why = e.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message()).filter(|m| !m.is_empty());
            on_news(News::Failed(why.unwrap_or_else(|| "the import worker failed to load".into())));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let request = Uint8Array::from(encode_request(spec, bytes).as_slice());
        let me = ImportWorker { worker, _handlers: (on_message, on_error) };
        // A post that throws is a worker that cannot be had: `None`, and `me` is dropped (terminated).
        me.worker.post_message_with_transfer(&request.buffer(), &Array::of1(&request.buffer())).ok()?;
        Some(me)
    }
}

/// A message of the worker as news.
fn read(data: JsValue) -> News {
    if let Ok(failed) = Reflect::get(&data, &"failed".into())
        && let Some(why) = failed.as_string()
    {
        return News::Failed(why);
    }
    if !data.is_instance_of::<js_sys::ArrayBuffer>() {
        return News::Failed("the import worker answered something that is not bytes".into());
    }
    match decode_answer(&Uint8Array::new(&data).to_vec()) {
        Ok(Answer::Progress(p)) => News::Progress(p),
        Ok(Answer::Done(result)) => News::Done(result),
        Ok(Answer::Refused(why)) => News::Failed(why),
        Err(e) => News::Failed(format!("the import worker's answer: {e}")),
    }
}

impl Drop for ImportWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
