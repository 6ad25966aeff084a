//! The Sinks, Charts and Code tabs, loaded on demand: what downstream sees ([`crate::sinks`] and
//! [`super::outputs::SinksView`]), the charts' drawing (plotters) and the Flink program generators
//! ([`crate::codegen`], with their templates) are compiled into a second wasm module,
//! `tidemark-extras` (`src/extras.rs`), so that the page's main `.wasm` stays under its size budget
//! (README, Release size). The first time one of those tabs opens, its glue is imported from the
//! same origin (its hashed name is in the loader script's `data-extras` attribute, written by
//! `scripts/trunk-post-build.mjs`); the module then gets the scenario as JSON and re-runs the engine
//! itself, so what it shows is exactly what the main module would have.
//!
//! ```text
//!  SinksPanel ──use_extras──▶ import(tidemark-extras-….js) ──▶ render_sinks(host, scenario JSON, step, units)
//!  ChartCanvas ─────────────▶        (once per page)        ──▶ draw_chart(canvas, kind, scenario JSON, step, …)
//!  CodePanel ───────────────▶                               ──▶ generate_program(scenario JSON, dialect)
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::codegen::{Dialect, Program};
use crate::engine::Scenario;
use crate::teach::ValueFormat;

#[wasm_bindgen(inline_js = r#"
let loading = null;
export function tidemark_load_extras() {
  if (!loading) {
    const me = document.querySelector('script[data-extras]');
    if (!me || !me.dataset.extras) return Promise.reject(new Error('the page does not name the tidemark-extras module'));
    const js = new URL(me.dataset.extras, document.baseURI).href;
    loading = import(js).then(async (m) => {
      await m.default({ module_or_path: js.replace(/\.js$/, '_bg.wasm') });
      return m;
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}
"#)]
extern "C" {
    fn tidemark_load_extras() -> Promise;
}

thread_local! {
    static LOADED: RefCell<Option<Extras>> = const { RefCell::new(None) };
}

/// The loaded `tidemark-extras` module (its exports object).
#[derive(Clone)]
pub struct Extras(JsValue);

impl PartialEq for Extras {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

fn message(e: JsValue) -> String {
    e.as_string()
        .or_else(|| e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())))
        .unwrap_or_else(|| "unknown error".to_string())
}

impl Extras {
    fn call(&self, name: &str, args: &Array) -> Result<JsValue, String> {
        let f = Reflect::get(&self.0, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| format!("tidemark-extras has no {name}"))?;
        f.apply(&JsValue::NULL, args).map_err(message)
    }

    /// The Flink program for `scenario_json` in `dialect` ([`crate::codegen::generate`]).
    pub fn generate(&self, scenario_json: &str, dialect: Dialect) -> Result<Program, String> {
        let o = self.call("generate_program", &Array::of2(&scenario_json.into(), &dialect.id().into()))?;
        let text =
            |k: &str| Reflect::get(&o, &JsValue::from_str(k)).ok().and_then(|v| v.as_string()).unwrap_or_default();
        let caveats = Reflect::get(&o, &JsValue::from_str("caveats"))
            .ok()
            .and_then(|v| v.dyn_into::<Array>().ok())
            .map(|a| a.iter().filter_map(|c| c.as_string()).collect())
            .unwrap_or_default();
        Ok(Program { dialect, file_name: text("file_name"), text: text("text"), caveats })
    }

    /// Renders (or updates) [`super::outputs::SinksView`] for the scenario at `step` inside `host`,
    /// as a Yew root of the extras module.
    pub fn render_sinks(
        &self,
        host: &web_sys::Element,
        scenario_json: &str,
        step: usize,
        values: ValueFormat,
    ) -> Result<(), String> {
        let args = Array::of4(host, &scenario_json.into(), &(step as f64).into(), &values.as_str().into());
        self.call("render_sinks", &args).map(|_| ())
    }

    /// Whether the scenario has a partitions chart (several source partitions, or idleness).
    pub fn has_partitions_chart(&self, scenario_json: &str) -> bool {
        self.call("has_partitions_chart", &Array::of1(&scenario_json.into())).is_ok_and(|v| v.is_truthy())
    }

    /// Draws chart `kind` (`state`, `lag`, `results`, `partitions`) of the scenario at `playhead` on
    /// `canvas`, whose size is already set ([`super::chart_view::draw_chart`]).
    #[allow(clippy::too_many_arguments)]
    pub fn draw_chart(
        &self,
        canvas: &HtmlCanvasElement,
        kind: &str,
        scenario_json: &str,
        playhead: usize,
        values: ValueFormat,
        lecture: bool,
        dpr: f64,
    ) -> Result<(), String> {
        let args =
            Array::of5(canvas, &kind.into(), &scenario_json.into(), &(playhead as f64).into(), &values.as_str().into());
        args.push(&lecture.into());
        args.push(&dpr.into());
        self.call("draw_chart", &args).map(|_| ())
    }
}

/// The extras module: `None` while it loads (the first use starts loading it and re-renders when
/// it is there), `Some(Err(_))` if it could not be loaded.
#[hook]
pub fn use_extras() -> Option<Result<Extras, String>> {
    let state = use_state(|| LOADED.with(|l| l.borrow().clone()).map(Ok));
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            if state.is_none() {
                wasm_bindgen_futures::spawn_local(async move {
                    let loaded = wasm_bindgen_futures::JsFuture::from(tidemark_load_extras()).await;
                    let result = loaded.map(Extras).map_err(message);
                    if let Ok(x) = &result {
                        LOADED.with(|l| *l.borrow_mut() = Some(x.clone()));
                    }
                    state.set(Some(result));
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
    let json = use_memo(ScenarioRef(scenario.clone()), |s| ScenarioJson(Rc::from(s.0.to_json().to_string())));
    (*json).clone()
}

#[derive(Clone)]
struct ScenarioRef(Rc<Scenario>);

impl PartialEq for ScenarioRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}
