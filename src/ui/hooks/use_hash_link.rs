//! A link pasted into the same tab: a `hashchange` to a fragment we did not write ourselves opens it.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use yew::prelude::*;

use super::use_app::location_hash;
use crate::ui::action::{Action, TeachAction};
use crate::ui::hooks::AppDispatcher;

/// `written`: the fragment the app wrote last (its own `hashchange`s are not links).
#[hook]
pub fn use_hash_link(dispatcher: AppDispatcher, written: Rc<RefCell<String>>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|w| {
            EventListener::new(&w, "hashchange", move |_| {
                let hash = location_hash();
                if hash.trim_start_matches('#') != written.borrow().as_str() {
                    dispatcher.dispatch(Action::Teach(TeachAction::OpenHash(hash)));
                }
            })
        });
        move || drop(listener)
    });
}
