//! The "why?" popover: the explanation of an element's, a window's or a timer's state at the
//! playhead, next to where it was asked (a click on the canvas, or W on a focused object). The
//! explanation is made by the lazily loaded extras module (`crate::ui::extras::explain`, with
//! `teach::why`): the popover shows once it is there. It is made again when the scenario changes
//! under it (a nudge by the arrow keys, a configuration field, a drop): it explains the scenario
//! being edited, never one before. It follows a drag of up to 500 elements; during a larger one it
//! keeps the explanation from before the drag, and says so (`hooks::use_panel_json_when`): the
//! scenario's JSON and the explanation cost ≈ 1 s of the page's thread at 100,000 elements.

use yew::prelude::*;

use super::platform::window_size;
use crate::ui::action::{Action, Mode, TeachAction, WhyTarget};
use crate::ui::extras::{Explained, why_key};
use crate::ui::hooks::{AppHandle, ScenarioJson, use_extras, use_panel_json_when};
use crate::ui::state::AppState;

#[derive(Properties, PartialEq)]
pub struct WhyLayerProps {
    pub state: AppHandle,
}

/// Mounted while a "why?" is open.
#[component]
pub fn WhyLayer(props: &WhyLayerProps) -> Html {
    let state = &props.state;
    let s = state.get();
    let s: &AppState = &s;
    let step = s.play.step;
    let panel = use_panel_json_when(s, s.teach.why.is_some());
    let held = panel.as_ref().is_some_and(|(_, held)| *held);
    let json = panel.map(|(json, _)| json);
    let extras = use_extras();
    let ready = extras.as_ref().and_then(|x| x.as_ref().ok()).cloned();
    let asked = s.teach.why.map(|w| (why_key(&w.target), step, s.teach.values));
    // The explanation, for what was asked, and the scenario it was made of.
    type Asked = (String, usize, crate::teach::ValueFormat);
    let answer = use_state(|| None::<(Asked, ScenarioJson, Result<Explained, String>)>);
    {
        let answer = answer.clone();
        use_effect_with((asked.clone(), json.clone(), ready), move |(asked, json, ready)| {
            if let (Some(q), Some(json), Some(x)) = (asked, json, ready)
                && answer.as_ref().is_none_or(|(a, j, _)| a != q || j != json)
                && let Some(target) = crate::ui::extras::parse_why_key(&q.0)
            {
                answer.set(Some((q.clone(), json.clone(), x.explain(&json.0, &target, q.1, q.2))));
            }
        });
    }
    // Made of a scenario before the one on show: during a large drag (and, for a moment, before
    // the effect above has made it again).
    let before = held || answer.as_ref().is_some_and(|(_, j, _)| json.as_ref() != Some(j));
    let Some(w) = s.teach.why else { return Html::default() };
    let failed = match &extras {
        Some(Err(e)) => Some(e.clone()),
        _ => None,
    };
    let ex = match (&*answer, failed) {
        (Some((a, _, Ok(ex))), _) if Some(a) == asked.as_ref() => ex.clone(),
        (Some((a, _, Err(e))), _) if Some(a) == asked.as_ref() => Explained {
            title: "Why?".into(),
            summary: format!("The explanation could not be made: {e}"),
            reasons: vec![],
        },
        (_, Some(e)) => Explained {
            title: "Why?".into(),
            summary: format!("The explanation could not be loaded: {e}"),
            reasons: vec![],
        },
        // Not there yet: the popover opens when it is.
        _ => return Html::default(),
    };
    let (vw, vh) = window_size();
    let width = (vw - 16.0).min(if s.teach.mode == Mode::Lecture { 640.0 } else { 420.0 });
    let left = (w.x_px + 12.0).min(vw - width - 8.0).max(8.0);
    // Below the click when there is room, above otherwise.
    let (top, bottom) = if w.y_px < vh * 0.55 {
        (format!("top: {:.0}px", w.y_px + 14.0), String::new())
    } else {
        (String::new(), format!("bottom: {:.0}px", (vh - w.y_px + 14.0).max(8.0)))
    };
    let close = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Teach(TeachAction::CloseWhy)))
    };
    let kind = match w.target {
        WhyTarget::Element(_) => "element",
        WhyTarget::Window { .. } => "window",
        WhyTarget::Timer { .. } => "timer",
        WhyTarget::Partition(_) => "partition",
    };
    html! {
        <div class="why-popover" role="dialog" aria-label="Why?" data-testid="why-popover" data-kind={kind}
             style={format!("left: {left:.0}px; width: {width:.0}px; {top}{bottom}; max-height: {:.0}px", (vh * 0.6).max(160.0))}>
            <div class="why-head">
                <span class="why-title">{ format!("Why? {}, at step {step}", ex.title) }</span>
                <button aria-label="Close" data-testid="why-close" onclick={close}>{ "×" }</button>
            </div>
            if before {
                <p class="why-before" data-testid="why-before">
                    { if held { "As it was before this drag: it is explained again when you let go." } else { "As it was before the last edit." } }
                </p>
            }
            <p class="why-summary" data-testid="why-summary">{ ex.summary.clone() }</p>
            if !ex.reasons.is_empty() {
                <ul class="why-reasons" data-testid="why-reasons">{ for ex.reasons.iter().map(|r| html! { <li>{ r.clone() }</li> }) }</ul>
            }
        </div>
    }
}
