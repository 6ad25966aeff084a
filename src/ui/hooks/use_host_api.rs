//! The lab page's `postMessage` API in the browser (README, "Embedding: talking to a lab page"):
//! only translation; what is heard, what it means and where replies go is `state::host`.
//!
//! - `message` events → `host::accepts` (from the parent window, from the trusted origin) →
//!   `host::parse_message` → actions, or a reply (`tidemark:scenario`, `tidemark:error`) to the
//!   trusted origin;
//! - the step, the scenario and quiz answers → events to the trusted origin, never to `"*"`;
//! - the content height, on every layout change (a `ResizeObserver` on the document and a
//!   `MutationObserver` on the page, measured once per frame) → the three resize messages, to the
//!   trusted origin, or to `"*"` when there is none (they carry a height and nothing else). The
//!   height is the page's with the canvas and the narration at their content's height; once the
//!   lab page has made the frame that tall, `html.host-sized` lifts the narration's height cap.
//!
//! The listener and the observers are a small JavaScript module (no inline script: wasm-bindgen
//! writes it next to the glue), which keeps the main `.wasm` within its size budget.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use super::use_app::{AppHandle, location_hash};
use crate::ui::action::{Action, PanelAction};
use crate::ui::state::AppState;
use crate::ui::state::host::{self, HostCommand, HostError};

#[wasm_bindgen(inline_js = r#"
const MAX_CHARS = 12 * 1024 * 1024;
// Starts listening when the page is in a frame. `trusted`: the origin replies and events go to,
// or '' (then only the resize messages go out, to '*'). `onMessage(fromParent, origin, text, length)`
// answers with a reply's JSON text or undefined; `text` is null when the message is too long.
export function tidemark_host_start(trusted, onMessage) {
  const parent = window.parent;
  if (!parent || parent === window) return false;
  addEventListener('message', (e) => {
    let text = e.data;
    if (typeof text !== 'string') {
      try { text = JSON.stringify(text); } catch { return; }
      if (typeof text !== 'string') return;
    }
    const reply = onMessage(e.source === parent, e.origin, text.length > MAX_CHARS ? null : text, text.length);
    if (reply && trusted) parent.postMessage(JSON.parse(reply), trusted);
  });
  let last = 0;
  let pending = false;
  // The height that shows everything: the document's, with the canvas and the narration at the
  // height of their content instead of the height they were given (the canvas fills what is left;
  // the narration is capped and scrolls). Once the frame is that tall, the narration's cap goes
  // (the `host-sized` class), so that all of it shows.
  const measure = () => {
    pending = false;
    let h = document.documentElement.scrollHeight;
    const box = document.querySelector('.canvas-box');
    if (box) {
      let content = 0;
      for (const c of box.children) content += c.getBoundingClientRect().height;
      h += Math.ceil(content) - box.clientHeight;
    }
    const narration = document.querySelector('.narration');
    if (narration) h += narration.scrollHeight - narration.clientHeight;
    document.documentElement.classList.toggle('host-sized', innerHeight >= h - 1);
    if (h > 0 && h !== last) {
      last = h;
      const target = trusted || '*';
      parent.postMessage({ subject: 'lti.frameResize', height: h }, target);
      parent.postMessage({ context: 'iframe.resize', height: h }, target);
      parent.postMessage({ type: 'tidemark:resize', v: 1, height: h }, target);
    }
  };
  const schedule = () => {
    if (!pending) {
      pending = true;
      requestAnimationFrame(measure);
    }
  };
  new ResizeObserver(schedule).observe(document.documentElement);
  new MutationObserver(schedule).observe(document.body, {
    childList: true, subtree: true, characterData: true, attributes: true,
    attributeFilter: ['class', 'open', 'hidden', 'style'],
  });
  return true;
}
// An event for the lab page: to the trusted origin only, never to '*'.
export function tidemark_host_post(trusted, text) {
  if (trusted && window.parent && window.parent !== window) window.parent.postMessage(JSON.parse(text), trusted);
}
"#)]
extern "C" {
    fn tidemark_host_start(
        trusted: &str,
        on_message: &Closure<dyn FnMut(bool, String, Option<String>, u32) -> Option<String>>,
    ) -> bool;
    fn tidemark_host_post(trusted: &str, text: &str);
}

/// What the lab page was last told: (step, commits, quiz answers).
type Told = (usize, u64, u32);

/// The hook's memory: the state of the last render (what `tidemark:get-scenario` answers with),
/// whether the listener was started, the trusted origin ("" for none) and what was told last.
struct Link {
    state: AppHandle,
    started: bool,
    trusted: String,
    told: Told,
}

type Latest = Rc<RefCell<Link>>;
type OnMessage = Closure<dyn FnMut(bool, String, Option<String>, u32) -> Option<String>>;

/// Listens to the parent window and tells it what happens (see the module's doc).
#[hook]
pub fn use_host_api(state: &AppHandle) {
    let s = state.get();
    let s: &AppState = &s;
    let now: Told = (s.play.step, s.doc.commits, s.teach.quiz.as_ref().map_or(0, |q| q.score.answered));
    let latest = use_mut_ref(|| Link { state: state.clone(), started: false, trusted: String::new(), told: now });
    latest.borrow_mut().state = state.clone();
    use_effect_with(now, move |&now| {
        let mut link = latest.borrow_mut();
        if !link.started {
            link.started = true;
            let state = link.state.clone();
            drop(link);
            if let Some((on_message, trusted)) = start(state, latest.clone()) {
                latest.borrow_mut().trusted = trusted;
                // The page lives as long as the app: so does its listener.
                on_message.forget();
            }
            return;
        }
        let before = std::mem::replace(&mut link.told, now);
        let s = link.state.get();
        let (s, trusted): (&AppState, &str) = (&s, &link.trusted);
        if trusted.is_empty() {
            return;
        }
        if before.0 != now.0 {
            tidemark_host_post(trusted, &host::step_changed(s.play.step, s.doc.steps()));
        }
        if before.1 != now.1 {
            let preset = s.teach.preset.as_ref().map(|p| p.id.as_str());
            tidemark_host_post(trusted, &host::scenario_edited(&s.doc.scenario, &s.title(), preset));
        }
        if before.2 < now.2
            && let Some(msg) = s.teach.quiz.as_ref().and_then(host::quiz_answered)
        {
            tidemark_host_post(trusted, &msg);
        }
    });
}

/// Starts the listener when the page is in a frame (`None` otherwise): the trusted origin comes
/// from the link's `origin=` or the referrer, once; the ready message says what is on show.
fn start(state: AppHandle, latest: Latest) -> Option<(OnMessage, String)> {
    let referrer = web_sys::window().and_then(|w| w.document()).map(|d| d.referrer()).unwrap_or_default();
    let trusted = host::reply_origin(&location_hash(), &referrer).unwrap_or_default();
    let dispatcher = state.dispatcher();
    let on_message: OnMessage = Closure::new({
        let trusted = trusted.clone();
        move |from_parent: bool, origin: String, text: Option<String>, length: u32| {
            if !host::accepts(from_parent, &origin, (!trusted.is_empty()).then_some(trusted.as_str())) {
                return None;
            }
            let parsed = match text {
                Some(t) => host::parse_message(&t),
                None => Err(HostError {
                    request: String::new(),
                    message: format!("the message is {length} characters long; that is too long"),
                }),
            };
            match parsed {
                Ok(None) => None,
                Ok(Some(HostCommand::GetScenario)) => {
                    let latest = latest.borrow();
                    let s = latest.state.get();
                    let preset = s.teach.preset.as_ref().map(|p| p.id.as_str());
                    Some(host::scenario_reply(&s.doc.scenario, s.play.step, s.doc.steps(), &s.title(), preset))
                }
                Ok(Some(command)) => {
                    for action in command.actions() {
                        dispatcher.dispatch(action);
                    }
                    None
                }
                Err(err) => {
                    if err.request.starts_with("tidemark:load") {
                        let banner = format!("Could not open the lab page's scenario: {}.", err.message);
                        dispatcher.dispatch(Action::Panel(PanelAction::ShowBanner(banner)));
                    }
                    Some(host::error_reply(&err))
                }
            }
        }
    });
    if !tidemark_host_start(&trusted, &on_message) {
        return None;
    }
    let s = state.get();
    let s: &AppState = &s;
    if !trusted.is_empty() {
        let preset = s.teach.preset.as_ref().map(|p| p.id.as_str());
        tidemark_host_post(&trusted, &host::ready(s.play.step, s.doc.steps(), s.teach.mode, s.teach.locked, preset));
    }
    Some((on_message, trusted))
}
