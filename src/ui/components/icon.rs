//! Playback and history icons as inline SVG (no icon font, no request).

use yew::prelude::*;

pub fn icon(name: &str) -> Html {
    let d = match name {
        "first" => "M3 3h2v10H3z M13 3v10L6 8z",
        "back" => "M11 3v10L4 8z M12 3h2v10h-2z",
        "play" => "M4 2v12l10-6z",
        "pause" => "M4 3h3v10H4z M9 3h3v10H9z",
        "forward" => "M2 3h2v10H2z M5 3v10l7-5z",
        "undo" => "M6 1.5 1 6l5 4.5V7.5h3.5a2.75 2.75 0 0 1 0 5.5H6V15h3.5a4.75 4.75 0 0 0 0-9.5H6z",
        "redo" => "M10 1.5 15 6l-5 4.5V7.5H6.5a2.75 2.75 0 0 0 0 5.5H10V15H6.5a4.75 4.75 0 0 1 0-9.5H10z",
        "sound" => {
            "M1 5.5h3L8 2v12L4 10.5H1z M10 5a4 4 0 0 1 0 6l1 1a5.5 5.5 0 0 0 0-8z M12 3a7 7 0 0 1 0 10l1 1a8.5 8.5 0 0 0 0-12z"
        }
        "mute" => "M1 5.5h3L8 2v12L4 10.5H1z M10 6l1-1 2 2 2-2 1 1-2 2 2 2-1 1-2-2-2 2-1-1 2-2z",
        "lock" => "M3 7h10v8H3z M5 7V5a3 3 0 0 1 6 0v2H9.5V5a1.5 1.5 0 0 0-3 0v2z",
        _ => "M3 3v10l7-5z M11 3h2v10h-2z",
    };
    html! { <svg class="icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d={d} /></svg> }
}
