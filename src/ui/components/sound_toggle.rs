//! The sound toggle (off by default) and the `sound-cues` test hook: the cues of the step at the
//! playhead (`state::sound`), whether or not sound is on, so tests read what would play.

use yew::prelude::*;

use super::icon::icon;
use crate::ui::action::{Action, PanelAction};
use crate::ui::hooks::{AppHandle, send};
use crate::ui::state::sound::{cue_names, cues_at};

/// The toggle and the hook for the state.
pub fn sound_toggle(state: &AppHandle) -> Html {
    let s = state.get();
    let (on, step) = (s.chrome.sound, s.play.step);
    let cues = cue_names(&cues_at(&s.doc.run, step));
    let title = if on {
        "Sound cues are on: a tone for each main firing, late firing, side output and drop (click to turn off)"
    } else {
        "Sound cues are off (click to hear a tone for each main firing, late firing, side output and drop)"
    };
    html! {
        <>
            <button class="pb sound-toggle" data-testid="sound-toggle" aria-pressed={on.to_string()} aria-label={if on { "Sound cues on" } else { "Sound cues off" }}
                    {title} onclick={send(state, Action::Panel(PanelAction::ToggleSound))}>
                { icon(if on { "sound" } else { "mute" }) }
                <span class="sound-state" aria-hidden="true">{ if on { "on" } else { "off" } }</span>
            </button>
            <span hidden=true aria-hidden="true" data-testid="sound-cues" data-step={step.to_string()} data-cues={cues}
                  data-sound={if on { "on" } else { "off" }} />
        </>
    }
}
