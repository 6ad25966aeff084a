//! `use_extras_view`: a view of the lazily loaded extras module that answers back, drawn into an
//! element of the page: the import dialog (`components::import_dialog`: the mapping, the parse,
//! the bad rows; it carries the CSV reader and the date-time parser) and the lateness report
//! (`components::lateness_report`). The hook loads the module when a view is first wanted, hands
//! the view its data, and turns its answers into actions: a scenario to load, a cancelled import,
//! a bound to set. A hook, not a component: a component type of its own costs the main module
//! about 2 KB gzipped (README, Release size).

use yew::prelude::*;

use crate::engine::scenario::WatermarkSpec;
use crate::ui::action::{Action, ConfigEdit, Field, ImportSource, PanelAction, TeachAction, WatermarkChoice};
use crate::ui::extras::Answer;

use super::{AppHandle, ScenarioJson, use_extras_when};

/// Which view, with its data.
#[derive(Clone, PartialEq)]
pub enum ExtrasView {
    /// The import dialog number `seq` on a table.
    Import(u64, ImportSource),
    /// The lateness report of the scenario; lecture size or not.
    Lateness(ScenarioJson, bool),
}

/// What a view answered: `load` (scenario JSON, summary), `cancel`, `error` (why), `bound`
/// (milliseconds).
fn answer(state: &AppHandle, name: &str, what: &str, a: String, b: String) {
    let action = match what {
        "load" => TeachAction::ImportStream { name: name.to_string(), text: a, summary: b },
        "error" => TeachAction::ImportError(a),
        "bound" => {
            // The scenario of the render that made this callback: the report on show is of it.
            if !matches!(state.get().doc.scenario.watermarks, WatermarkSpec::BoundedOutOfOrderness { .. }) {
                state.dispatch(Action::Config(ConfigEdit::Watermarks(WatermarkChoice::Bounded)));
            }
            return state.dispatch(Action::Config(ConfigEdit::Text(Field::Bound, a)));
        }
        _ => TeachAction::CloseImport,
    };
    state.dispatch(Action::Teach(action));
}

/// Shows `view` (when there is one) in the element behind `host`; returns whether the module is
/// there (until then the caller says "Loading…").
#[hook]
pub fn use_extras_view(host: NodeRef, state: AppHandle, view: Option<ExtrasView>) -> bool {
    let module = use_extras_when(view.is_some());
    // The answer callbacks of this render and the one before (a view may hold the older until it
    // re-renders with the new one).
    let kept = use_mut_ref(Vec::<Answer>::new);
    let ready = module.is_some();
    use_effect_with((view, module), move |(view, module)| {
        let mut opened = None;
        if let (Some(view), Some(Err(e))) = (view, module) {
            let e = format!("the extras module could not be loaded: {e}");
            state.dispatch(match view {
                ExtrasView::Import(..) => Action::Teach(TeachAction::ImportError(e)),
                ExtrasView::Lateness(..) => Action::Panel(PanelAction::ShowBanner(e)),
            });
        }
        if let (Some(view), Some(Ok(x)), Some(el)) = (view, module, host.cast::<web_sys::Element>()) {
            let name = match view {
                ExtrasView::Import(_, s) => s.name.clone(),
                ExtrasView::Lateness(..) => String::new(),
            };
            let s = state.clone();
            let f: Answer = Answer::new(move |what: String, a: String, b: String| answer(&s, &name, &what, a, b));
            let callback = wasm_bindgen::JsCast::unchecked_ref(f.as_ref());
            let outcome = match view {
                ExtrasView::Import(_, source) => x.render_import(&el, &source.name, source.file.as_ref(), callback),
                ExtrasView::Lateness(json, lecture) => x.render_lateness(&el, &json.0, *lecture, callback),
            };
            let mut kept = kept.borrow_mut();
            kept.push(f);
            if kept.len() > 2 {
                kept.remove(0);
            }
            match outcome {
                Ok(()) => opened = matches!(view, ExtrasView::Import(..)).then(|| x.clone()),
                Err(e) => state.dispatch(Action::Panel(PanelAction::ShowBanner(e))),
            }
        }
        move || {
            if let Some(x) = opened {
                x.close_import();
            }
        }
    });
    ready
}
