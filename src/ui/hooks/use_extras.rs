//! The lazily loaded second module (`super::super::extras`) as hooks: [`use_extras`] loads it on
//! first use and re-renders when it is there; [`use_scenario_json`] is what it is handed.

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::Scenario;
use crate::ui::extras::{Extras, load, loaded};

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

/// The scenario's JSON, computed once per scenario.
#[hook]
pub fn use_scenario_json(scenario: &Rc<Scenario>) -> ScenarioJson {
    let json = use_memo(ScenarioRef(scenario.clone()), |s| ScenarioJson(Rc::from(s.0.to_json_string())));
    (*json).clone()
}

/// [`use_scenario_json`] only while `wanted` (a tab that is not on show needs no JSON, and a drag
/// makes a new scenario per pointer move).
#[hook]
pub fn use_scenario_json_when(scenario: &Rc<Scenario>, wanted: bool) -> Option<ScenarioJson> {
    let json = use_memo(wanted.then(|| ScenarioRef(scenario.clone())), |s| {
        s.as_ref().map(|s| ScenarioJson(Rc::from(s.0.to_json_string())))
    });
    (*json).clone()
}

#[derive(Clone)]
struct ScenarioRef(Rc<Scenario>);

impl PartialEq for ScenarioRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}
