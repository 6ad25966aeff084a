//! Named hooks: each connects one thing of the browser to the state, and only translates between
//! browser events and actions; every decision is the reducer's.
//!
//! | hook | what it connects |
//! |---|---|
//! | [`use_app`] | the state as a Yew reducer, started from the URL and the autosave |
//! | [`use_keyboard`] | `keydown` on the window → `Action::Key` |
//! | [`use_hash_link`] | a link pasted into the tab → `TeachAction::OpenHash` |
//! | [`use_url_sync`], [`use_autosave`] | every commit → the address bar, the autosave |
//! | [`use_frame_clock`] | while playing, every animation frame → a tick |
//! | [`use_resize_observer`] | an element's size → a callback |
//! | [`use_element_width`] | an element's width in CSS px, as state |
//! | [`use_extras`], [`use_panel_json`] | the lazily loaded second module |
//! | [`use_host_api`] | a lab page's messages → actions; the step, edits, quiz answers and the height → the lab page |
//! | [`use_sound`] | each step the playhead lands on → its sound cues (Web Audio), when sound is on |
//! | [`use_extras_view`] | a view of it that answers back (import dialog, lateness report) → actions |

mod use_app;
mod use_extras;
mod use_extras_view;
mod use_frame_clock;
mod use_hash_link;
mod use_host_api;
mod use_keyboard;
mod use_resize_observer;
mod use_sound;
mod use_url_sync;

#[cfg(test)]
mod tests;

pub use use_app::{AppCell, AppDispatcher, AppHandle, location_hash, send, use_app};
pub use use_extras::{ScenarioJson, use_extras, use_extras_when, use_panel_json, use_panel_json_when};
pub use use_extras_view::{ExtrasView, use_extras_view};
pub use use_frame_clock::{in_frame, mark_frame, use_frame_clock};
pub use use_hash_link::use_hash_link;
pub use use_host_api::use_host_api;
pub use use_keyboard::use_keyboard;
pub use use_resize_observer::{use_element_width, use_resize_observer};
pub use use_sound::use_sound;
pub use use_url_sync::{use_autosave, use_saved_fragment, use_url_sync};
