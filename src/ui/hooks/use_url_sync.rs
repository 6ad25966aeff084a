//! The URL and the autosave follow every committed change: the address bar shows a share link
//! (`#preset=…&step=…` while a preset is untouched, `#z=…&step=…` otherwise, with the mode), and
//! the autosave keeps the same without the view mode (embeds keep none). The fragment is made once
//! per change and both use it. A scenario too long for a link stays out of the address bar
//! (`fragment::ADDRESS_BAR_MAX`) while the autosave keeps it.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::use_app::{AppHandle, location_hash};
use crate::ui::action::Action;
use crate::ui::state::undo::AutosaveStatus;
use crate::ui::storage::write_autosave;

/// The autosave fragment of what is on show, made again when a commit, the step or the preset changes.
#[hook]
pub fn use_saved_fragment(state: &AppHandle) -> Rc<String> {
    let key = {
        let s = state.get();
        (s.doc.commits, s.play.step, s.teach.preset.as_ref().map(|p| p.id.clone()))
    };
    let s = state.clone();
    use_memo(key, move |_| s.get().autosave_fragment())
}

/// Writes the autosave after every commit (a failure is reported once, as an action).
#[hook]
pub fn use_autosave(state: &AppHandle, saved: Rc<String>) {
    let (commits, on) = {
        let s = state.get();
        (s.doc.commits, s.edits.autosave == AutosaveStatus::On)
    };
    let dispatcher = state.dispatcher();
    let last = use_mut_ref(|| commits);
    use_effect_with(commits, move |_| {
        if commits != 0 && on && *last.borrow() != commits {
            *last.borrow_mut() = commits;
            if let Err(e) = write_autosave(&saved) {
                dispatcher.dispatch(Action::AutosaveFailed(e));
            }
        }
    });
}

/// Writes the address bar's fragment after every commit, step or view change; `written` keeps it
/// (the hash-link hook ignores our own changes). Until the first change the link opened stays.
#[hook]
pub fn use_url_sync(state: &AppHandle, saved: Rc<String>, written: Rc<RefCell<String>>) {
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
    use_effect_with(key, move |&(commits, .., autosaved)| {
        if commits == 0 && written.borrow().is_empty() {
            *written.borrow_mut() = location_hash().trim_start_matches('#').to_string();
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
