//! The lazily loaded second module (`super::super::extras`) as hooks: [`use_extras`] loads it on
//! first use and re-renders when it is there; [`use_panel_json`] is what it is handed.

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::Scenario;
use crate::engine::scenario::InputItem;
use crate::ui::extras::{Extras, load, loaded};
use crate::ui::state::AppState;
use crate::ui::worker_runner::LIVE_DRAG_MAX;

/// The extras module: `None` while it loads (the first use starts loading it and re-renders when
/// it is there), `Some(Err(_))` if it could not be loaded.
#[hook]
pub fn use_extras() -> Option<Result<Extras, String>> {
    use_extras_when(true)
}

/// [`use_extras`] once `wanted` (a view that is not always on show loads it when first shown).
#[hook]
pub fn use_extras_when(wanted: bool) -> Option<Result<Extras, String>> {
    let state = use_state(|| loaded().map(Ok));
    {
        let state = state.clone();
        use_effect_with(wanted, move |wanted| {
            if *wanted && state.is_none() {
                wasm_bindgen_futures::spawn_local(async move {
                    state.set(Some(load().await));
                });
            }
        });
    }
    (*state).clone()
}

/// A scenario as JSON text, compared by identity: what the extras module is given.
#[derive(Clone)]
pub struct ScenarioJson(pub Rc<str>);

impl PartialEq for ScenarioJson {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The JSON a panel of the extras module is made from (the Sinks, Charts, Code and Lateness tabs,
/// and "why?": each re-runs or reads the whole scenario), while `wanted`, and whether it is
/// `held`: during a drag of more than [`LIVE_DRAG_MAX`] elements the panel keeps the scenario
/// from before the drag and is made again when the pointer lets go. Made per pointer move, each
/// move at 2,000 elements with the Sinks tab open was a task of 50-475 ms, and 300-570 ms at
/// 10,000 with the Charts tab, where the drag itself has no long task. Up to that size a panel
/// follows the drag, as the run does on the page's thread.
#[hook]
pub fn use_panel_json_when(state: &AppState, wanted: bool) -> Option<(ScenarioJson, bool)> {
    let kept = use_mut_ref(|| None::<(ScenarioRef, ScenarioJson)>);
    let mut kept = kept.borrow_mut();
    if !wanted {
        // Not on show: its memory goes (at 100,000 elements the JSON is ≈ 7 MB).
        *kept = None;
        return None;
    }
    Some(panel_json(&mut kept, state))
}

/// [`use_panel_json_when`] for a panel on show.
#[hook]
pub fn use_panel_json(state: &AppState) -> (ScenarioJson, bool) {
    let kept = use_mut_ref(|| None::<(ScenarioRef, ScenarioJson)>);
    panel_json(&mut kept.borrow_mut(), state)
}

/// The JSON the hooks above give, `held` or made anew, from what they `kept`.
fn panel_json(kept: &mut Option<(ScenarioRef, ScenarioJson)>, state: &AppState) -> (ScenarioJson, bool) {
    let scenario = &state.doc.scenario;
    let large = || scenario.input.iter().filter(|i| matches!(i, InputItem::Element(_))).nth(LIVE_DRAG_MAX).is_some();
    match &*kept {
        Some((made_of, json)) if Rc::ptr_eq(&made_of.0, scenario) => (json.clone(), false),
        Some((_, json)) if state.drag.is_some() && large() => (json.clone(), true),
        _ => {
            let json = ScenarioJson(Rc::from(scenario.to_json_string()));
            *kept = Some((ScenarioRef(scenario.clone()), json.clone()));
            (json, false)
        }
    }
}

#[derive(Clone)]
struct ScenarioRef(Rc<Scenario>);

impl PartialEq for ScenarioRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}
