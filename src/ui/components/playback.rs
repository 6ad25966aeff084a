//! Playback: first, back, play/pause, forward, last, the playhead (with the `playhead` test hook),
//! undo/redo and the speed.

use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::icon::icon;
use super::sound_toggle::sound_toggle;
use super::undo_redo::UndoRedo;
use crate::engine::scenario::InputItem;
use crate::engine::time::format_millis;
use crate::ui::action::{Action, PlayAction};
use crate::ui::hooks::AppHandle;
use crate::ui::state::AppState;
use crate::ui::state::playback::SPEEDS;

/// What the playhead stands on, in words.
fn where_text(input: &[InputItem], step: usize, steps: usize) -> String {
    if step == 0 {
        return "before input".into();
    }
    if step >= steps {
        return "end of input".into();
    }
    match input.get(step - 1) {
        Some(InputItem::Element(e)) => format!("element {} (key {}, ts {})", e.id, e.key, format_millis(e.ts)),
        Some(item) => format!("watermark item {}", format_millis(item.watermark().unwrap_or(0))),
        None => String::new(),
    }
}

/// The playback bar for the state.
pub fn playback(state: &AppHandle) -> Html {
    let on_play = {
        let state = state.clone();
        Callback::from(move |a: PlayAction| state.dispatch(Action::Play(a)))
    };
    let s = state.get();
    let s: &AppState = &s;
    let steps = s.steps();
    html! {
        <PlaybackBar step={s.play.step} {steps} playing={s.play.playing} speed={s.play.speed}
                     where_text={where_text(&s.doc.scenario.input, s.play.step, steps)} {on_play}>
            <UndoRedo state={state.clone()} />
            { sound_toggle(state) }
        </PlaybackBar>
    }
}

#[derive(Properties, PartialEq)]
struct PlaybackBarProps {
    step: usize,
    steps: usize,
    playing: bool,
    speed: f64,
    where_text: AttrValue,
    on_play: Callback<PlayAction>,
    children: Html,
}

#[component]
fn PlaybackBar(p: &PlaybackBarProps) -> Html {
    let (step, steps) = (p.step, p.steps);
    let button = |icon_name: &'static str, title: &'static str, testid: &'static str, a: PlayAction, disabled: bool| {
        html! {
            <button class="pb" {title} aria-label={title} data-testid={testid} {disabled}
                    onclick={p.on_play.reform(move |_| a)}>{ icon(icon_name) }</button>
        }
    };
    let onscrub = {
        let on_play = p.on_play.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).and_then(|i| i.value().parse().ok());
            if let Some(step) = v {
                on_play.emit(PlayAction::SetStep(step));
            }
        })
    };
    let onspeed = {
        let on_play = p.on_play.clone();
        Callback::from(move |e: Event| {
            let v =
                e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()).and_then(|i| i.value().parse().ok());
            if let Some(speed) = v {
                on_play.emit(PlayAction::SetSpeed(speed));
            }
        })
    };
    html! {
        <div class="playback" role="toolbar" aria-label="Playback">
            { button("first", "First step (Home)", "first", PlayAction::First, step == 0) }
            { button("back", "Step back (←)", "step-back", PlayAction::Back, step == 0) }
            <button class="pb play" data-testid="play" aria-pressed={p.playing.to_string()}
                    title={if p.playing { "Pause (space)" } else { "Play (space)" }}
                    aria-label={if p.playing { "Pause" } else { "Play" }}
                    onclick={p.on_play.reform(|_| PlayAction::TogglePlay)}>
                { icon(if p.playing { "pause" } else { "play" }) }
            </button>
            { button("forward", "Step forward (→)", "step-forward", PlayAction::Forward, step >= steps) }
            { button("last", "Last step: end of input (End)", "last", PlayAction::Last, step >= steps) }
            <div class="playhead" data-testid="playhead" data-step={step.to_string()} data-steps={steps.to_string()}>
                <input type="range" min="0" max={steps.to_string()} value={step.to_string()} step="1"
                       aria-label="Playhead: steps taken" data-testid="scrubber" oninput={onscrub} />
                <span class="step-text">{ format!("step {step}/{steps}") }</span>
                <span class="where">{ p.where_text.clone() }</span>
            </div>
            { p.children.clone() }
            <label class="speed">{ "speed " }
                <select data-testid="speed" onchange={onspeed} aria-label="Playback speed">
                    { for SPEEDS.iter().map(|v| html! {
                        <option value={v.to_string()} selected={(*v - p.speed).abs() < 1e-9}>{ format!("{v}×") }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}
