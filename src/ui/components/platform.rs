//! What the page says differently per platform.

/// How a keyboard shortcut with Ctrl is written on this machine (⌘ on macOS).
pub fn shortcut(key: &str) -> String {
    let mac = web_sys::window()
        .and_then(|w| w.navigator().platform().ok())
        .is_some_and(|p| p.starts_with("Mac") || p.starts_with("iP"));
    if mac { format!("⌘{key}") } else { format!("Ctrl+{key}") }
}

/// The window's inner size in CSS px (800×600 when unknown).
pub fn window_size() -> (f64, f64) {
    web_sys::window()
        .map(|w| {
            (
                w.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(800.0),
                w.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(600.0),
            )
        })
        .unwrap_or((800.0, 600.0))
}
