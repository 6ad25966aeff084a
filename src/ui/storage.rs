//! The autosave in the browser's `localStorage`: read and write, nothing else (no Yew). What is
//! written and how a start-up chooses between the link and the autosave is `state::undo` and
//! `state::open`; this is the only place that touches the storage. Failures are values: a blocked
//! storage (a sandboxed iframe throws a SecurityError just for asking) or a full one never panics.

/// The localStorage key of the autosave (a fragment: `z=…&step=…&preset=…` or `preset=…&step=…`).
pub const AUTOSAVE_KEY: &str = "tidemark.autosave.v1";
/// Longest autosave read back (localStorage holds about 5 M characters per origin).
pub const MAX_AUTOSAVE_CHARS: usize = 5 * 1024 * 1024;

/// Reads the autosave: `Ok(None)` when there is none, `Err` when the storage is blocked.
pub fn read_autosave() -> Result<Option<String>, String> {
    storage()?.get_item(AUTOSAVE_KEY).map_err(|e| js_error(&e))
}

/// Writes the autosave; `Err` says why the browser refused (quota, blocked storage).
pub fn write_autosave(text: &str) -> Result<(), String> {
    storage()?.set_item(AUTOSAVE_KEY, text).map_err(|e| js_error(&e))
}

/// The localStorage key of the sound setting (`"on"`; anything else, or none, is off).
pub const SOUND_KEY: &str = "tidemark.sound.v1";

/// Whether sound cues were left on (off when the storage is blocked or empty).
pub fn read_sound() -> bool {
    storage().ok().and_then(|s| s.get_item(SOUND_KEY).ok().flatten()).is_some_and(|v| v == "on")
}

/// Keeps the sound setting.
pub fn write_sound(on: bool) -> Result<(), String> {
    storage()?.set_item(SOUND_KEY, if on { "on" } else { "off" }).map_err(|e| js_error(&e))
}

fn storage() -> Result<web_sys::Storage, String> {
    let window = web_sys::window().ok_or("no window")?;
    match window.local_storage() {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err("this browser has no localStorage".into()),
        Err(e) => Err(js_error(&e)),
    }
}

/// A readable name for a thrown DOMException (`SecurityError: …`, `QuotaExceededError: …`).
fn js_error(e: &wasm_bindgen::JsValue) -> String {
    let get = |k: &str| js_sys::Reflect::get(e, &wasm_bindgen::JsValue::from_str(k)).ok().and_then(|v| v.as_string());
    match (get("name"), get("message")) {
        (Some(n), Some(m)) => format!("{n}: {m}"),
        (Some(n), None) => n,
        _ => e.as_string().unwrap_or_else(|| "storage error".into()),
    }
}
