//! Lecture mode's blackout (B): the screen goes black until B again.

use yew::prelude::*;

use crate::ui::action::{Action, TeachAction};
use crate::ui::hooks::AppHandle;

#[derive(Properties, PartialEq)]
pub struct StateProps {
    pub state: AppHandle,
}

fn teach(state: &AppHandle, a: TeachAction) {
    state.dispatch(Action::Teach(a));
}

/// Lecture mode's blackout (B): the screen goes black until B again.
#[component]
pub fn Blackout(props: &StateProps) -> Html {
    let state = props.state.clone();
    if !state.get().teach.blackout {
        return Html::default();
    }
    let off = Callback::from(move |_| teach(&state, TeachAction::ToggleBlackout));
    html! { <div class="blackout" data-testid="blackout" onclick={off} aria-label="Screen blacked out: press B" /> }
}
