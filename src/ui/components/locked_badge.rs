//! "Read-only": shown while a lab page has locked editing (`state::host`).

use yew::prelude::*;

use super::icon::icon;

/// The badge, when `locked`.
pub fn locked_badge(locked: bool) -> Html {
    if !locked {
        return Html::default();
    }
    html! {
        <span class="locked-badge" data-testid="locked" role="status"
              title="The lab page has locked editing: step through the scenario; it cannot be changed here">
            { icon("lock") }{ "Read-only" }
        </span>
    }
}
