//! Transient shapes for the step just taken: elements flying into their windows. Keyed by the
//! animation sequence so that every step restarts them; hidden under `prefers-reduced-motion`.

use yew::prelude::*;

use super::px::px;
use crate::ui::scene::Flight;

/// The flights of the step just taken, restarted by `anim_seq`.
pub fn flights(flights: &[Flight], anim_seq: u64) -> Html {
    html! {
        <g class="effects" key={anim_seq.to_string()}>
            { for flights.iter().map(|f| html! {
                <circle class="fx-fly" cx={px(f.x)} cy={px(f.y)} r="5"
                    style={format!("--dx: {:.0}px; --dy: {:.0}px; {}", f.dx, f.dy, f.delay)} />
            }) }
        </g>
    }
}
