//! The URL and the autosave follow every committed change: the address bar shows a share link
//! (`#preset=…&step=…` while a preset is untouched, `#z=…&step=…` otherwise, with the mode), and
//! the autosave keeps the same without the view mode (embeds keep none). The fragment is made once
//! per change and both use it. A scenario too long for a link stays out of the address bar
//! (`fragment::ADDRESS_BAR_MAX`) while the autosave keeps it. A large scenario's link text is made
//! in slices, a task each (`fragment::ZJob`), and the fragment waits for it.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use yew::prelude::*;

use super::use_app::{AppHandle, location_hash};
use crate::ui::action::Action;
use crate::ui::fragment::{ADDRESS_BAR_MAX, Z_SLICE_BYTES, ZJob, ZProgress};
use crate::ui::state::AppState;
use crate::ui::state::undo::AutosaveStatus;
use crate::ui::storage::write_autosave;
use crate::ui::worker_runner::next_task;

/// The scenario's link text being made in slices: the job, its number (a slice of a job replaced
/// since it was queued does nothing), and how many have been made (the fragment is made again
/// when one is).
#[derive(Default)]
struct Slicing {
    job: Option<ZJob>,
    number: u64,
    made: u64,
}

/// The autosave fragment of what is on show, made again when a commit, the step or the preset
/// changes; `None` while a large scenario's link text is being made (in slices, a task each, so
/// that a drop at 100,000 elements is not followed by one task of 55-65 ms for it): the page
/// renders again when it is made. A drag's moves are no commits: nothing is made for them.
#[hook]
pub fn use_saved_fragment(state: &AppHandle) -> Option<Rc<String>> {
    let slicing = use_mut_ref(Slicing::default);
    let (commits, key) = {
        let s = state.get();
        let made = slicing.borrow().made;
        (s.doc.commits, (s.doc.commits, s.play.step, s.teach.preset.as_ref().map(|p| p.id.clone()), made))
    };
    let s = state.clone();
    let saved = use_memo(key, move |_| {
        let s = s.get();
        (!s.autosave_waits()).then(|| Rc::new(s.autosave_fragment()))
    });
    let redraw = use_force_update();
    {
        let (state, slicing) = (state.clone(), slicing.clone());
        use_effect_with((commits, saved.is_none()), move |&(_, waits)| {
            let mut sl = slicing.borrow_mut();
            if !waits {
                // A job still under way is an older scenario's: its text is wanted no more.
                sl.job = None;
                return;
            }
            let s = state.get();
            if sl.job.as_ref().is_some_and(|j| j.is_for(&s.doc.scenario)) {
                return;
            }
            sl.job = Some(ZJob::new(&s.doc.scenario));
            sl.number += 1;
            let number = sl.number;
            drop((s, sl));
            next_slice(slicing.clone(), number, redraw);
        });
    }
    (*saved).clone()
}

/// The next slice of job `number` in a task of its own, and the one after it while there is more;
/// when it is made, the page renders again (the fragment is made then, at once).
fn next_slice(queued: Rc<RefCell<Slicing>>, number: u64, again: UseForceUpdateHandle) {
    // (Where no timer can be set, nothing is made: the autosave is written when the page is left.)
    next_task(move || {
        let mut sl = queued.borrow_mut();
        if sl.number != number {
            return;
        }
        let Some(job) = sl.job.as_mut() else { return };
        match job.advance(Z_SLICE_BYTES) {
            ZProgress::Pending => {
                drop(sl);
                next_slice(queued.clone(), number, again);
            }
            ZProgress::Done(_) => {
                sl.job = None;
                sl.made += 1;
                drop(sl);
                again.force_update();
            }
            ZProgress::Gone => sl.job = None,
        }
    });
}

/// Whether a change of `s` is written to the autosave: one has been made, and the autosave is on.
fn autosaves(s: &AppState) -> bool {
    s.doc.commits != 0 && s.edits.autosave == AutosaveStatus::On
}

/// Writes the autosave after every commit, once its fragment is made (a failure is reported
/// once, as an action).
#[hook]
pub fn use_autosave(state: &AppHandle, saved: Option<Rc<String>>) {
    let (commits, on) = {
        let s = state.get();
        (s.doc.commits, autosaves(&s))
    };
    let dispatcher = state.dispatcher();
    let last = use_mut_ref(|| commits);
    {
        let last = last.clone();
        use_effect_with((commits, saved.is_some()), move |_| {
            let Some(saved) = saved else { return };
            if on && *last.borrow() != commits {
                *last.borrow_mut() = commits;
                if let Err(e) = write_autosave(&saved) {
                    dispatcher.dispatch(Action::AutosaveFailed(e));
                }
            }
        });
    }
    // A page hidden (another tab, a window minimised: a hidden tab's timers are slowed to a slice
    // a second, and it may be discarded unannounced) or left (closed, reloaded, navigated away: the
    // page is hidden first, `visibilitychange` before `pagehide`) before a commit's fragment is
    // made (a large scenario's link text is made in slices): it is made at once and written, so
    // that the last change is not lost. Mid-drag, what is on show is kept. The latest handle, for
    // the listener made once.
    let latest = use_mut_ref(|| state.clone());
    *latest.borrow_mut() = state.clone();
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|d| {
            let doc = d.clone();
            EventListener::new(&d, "visibilitychange", move |_| {
                let state = latest.borrow();
                let s = state.get();
                if doc.hidden() && autosaves(&s) && *last.borrow() != s.doc.commits {
                    *last.borrow_mut() = s.doc.commits;
                    let _ = write_autosave(&s.autosave_fragment());
                }
            })
        });
        move || drop(listener)
    });
}

/// Writes the address bar's fragment after every commit, step or view change; `written` keeps it
/// (the hash-link hook ignores our own changes). Until the first change the link opened stays, and
/// a link that carried a stream too long for the address bar stays until the first commit (the
/// autosave does not hold that stream before it: the short form would lose it on a reload).
#[hook]
pub fn use_url_sync(state: &AppHandle, saved: Option<Rc<String>>, written: Rc<RefCell<String>>) {
    let s = state.get();
    let teach = s.teach.clone();
    let key = (
        s.doc.commits,
        s.play.step,
        teach.mode,
        teach.quiz.is_some(),
        teach.preset.as_ref().map(|p| p.id.clone()),
        s.edits.autosave == AutosaveStatus::On,
    );
    drop(s);
    // The change last written (or kept, at the start): the fragment becoming ready is no change of
    // its own, only the moment a change waiting for it is written.
    let handled = use_mut_ref(|| None);
    let opened_with_stream = use_mut_ref(|| false);
    use_effect_with((key, saved.is_some()), move |(key, _)| {
        if handled.borrow().as_ref() == Some(key) {
            return;
        }
        let (commits, autosaved) = (key.0, key.5);
        if commits == 0 && written.borrow().is_empty() {
            let opened = location_hash().trim_start_matches('#').to_string();
            *opened_with_stream.borrow_mut() =
                opened.split('&').any(|p| p.starts_with("z=") || p.starts_with("scenario="));
            *written.borrow_mut() = opened;
            *handled.borrow_mut() = Some(key.clone());
            return;
        }
        // The scenario's link text is being made: the address bar is written when it is.
        let Some(saved) = saved else { return };
        *handled.borrow_mut() = Some(key.clone());
        if commits == 0 && autosaved && saved.len() > ADDRESS_BAR_MAX && *opened_with_stream.borrow() {
            return;
        }
        // A stream too long for a link is kept by the autosave, and the address bar carries its
        // step and view only (`TeachState::address_fragment`).
        let frag = teach.address_fragment(&saved, autosaved);
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{frag}")));
        }
        *written.borrow_mut() = frag;
    });
}
