//! The Sinks, Charts and Code tabs and the "why?" explanations, loaded on demand: what downstream sees ([`crate::sinks`] and
//! [`crate::ui::components::sinks_view::SinksView`]), the charts' drawing (plotters) and the Flink program generators
//! ([`crate::codegen`], with their templates) are compiled into a second wasm module,
//! `tidemark-extras` (`src/extras.rs`), so that the page's main `.wasm` stays under its size budget
//! (README, Release size). The first time one of those tabs opens, its glue is imported from the
//! same origin (its hashed name is in the loader script's `data-extras` attribute, written by
//! `scripts/trunk-post-build.mjs`); the module then gets the scenario as JSON and re-runs the engine
//! itself, so what it shows is exactly what the main module would have.
//!
//! ```text
//!  SinksPanel ──hooks::use_extras──▶ import(tidemark-extras-….js) ──▶ render_sinks(host, scenario JSON, step, units)
//!  ChartCanvas ─────────────▶        (once per page)        ──▶ draw_chart(canvas, kind, scenario JSON, step, …)
//!  CodePanel ───────────────▶                               ──▶ generate_program(scenario JSON, dialect)
//!  WhyLayer ────────────────▶                               ──▶ explain(scenario JSON, target, step, units)
//! ```

use std::cell::RefCell;

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::codegen::{Dialect, Program};
use crate::engine::time::{LONG_MAX, LONG_MIN, TimeWindow};
use crate::engine::{Run, Scenario, Window};
use crate::teach::{self, ValueFormat};
use crate::ui::action::WhyTarget;

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

/// The module, if it is loaded already.
pub fn loaded() -> Option<Extras> {
    LOADED.with(|l| l.borrow().clone())
}

/// Loads the module (once per page; a failed load is tried again next time).
pub async fn load() -> Result<Extras, String> {
    let loaded = wasm_bindgen_futures::JsFuture::from(tidemark_load_extras()).await;
    let result = loaded.map(Extras).map_err(message);
    if let Ok(x) = &result {
        LOADED.with(|l| *l.borrow_mut() = Some(x.clone()));
    }
    result
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

/// What the Code tab shows of a long program, and how many lines that leaves out.
pub type Shown = (String, usize);

impl Extras {
    fn call(&self, name: &str, args: &Array) -> Result<JsValue, String> {
        let f = Reflect::get(&self.0, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| format!("tidemark-extras has no {name}"))?;
        f.apply(&JsValue::NULL, args).map_err(message)
    }

    /// The Flink program for `scenario_json` in `dialect` ([`crate::codegen::generate`]), and for
    /// a long one what is shown of it and how many lines that leaves out
    /// ([`crate::codegen::shown_lines`]).
    pub fn generate(&self, scenario_json: &str, dialect: Dialect) -> Result<(Program, Option<Shown>), String> {
        let o = self.call("generate_program", &Array::of2(&scenario_json.into(), &dialect.id().into()))?;
        let text =
            |k: &str| Reflect::get(&o, &JsValue::from_str(k)).ok().and_then(|v| v.as_string()).unwrap_or_default();
        let caveats = Reflect::get(&o, &JsValue::from_str("caveats"))
            .ok()
            .and_then(|v| v.dyn_into::<Array>().ok())
            .map(|a| a.iter().filter_map(|c| c.as_string()).collect())
            .unwrap_or_default();
        let left_out = Reflect::get(&o, &JsValue::from_str("left_out")).ok().and_then(|v| v.as_f64());
        let part = left_out.map(|n| (text("shown"), n as usize));
        Ok((Program { dialect, file_name: text("file_name"), text: text("text"), caveats }, part))
    }

    /// Renders (or updates) [`crate::ui::components::sinks_view::SinksView`] for the scenario at `step` inside `host`,
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
    /// `canvas`, whose size is already set ([`crate::ui::components::charts_panel::draw_chart`]).
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

/// The callback an extras view answers with: `(what, a, b)` (`hooks::use_extras_view`).
pub type Answer = wasm_bindgen::closure::Closure<dyn Fn(String, String, String)>;

impl Extras {
    /// Opens the import dialog ([`crate::ui::components::import_dialog::ImportDialog`]) on a file
    /// (the module reads it; `None`: paste) inside `host`; it answers `load` (scenario JSON,
    /// summary) or `cancel`.
    pub fn render_import(
        &self,
        host: &web_sys::Element,
        name: &str,
        file: Option<&web_sys::File>,
        answer: &Function,
    ) -> Result<(), String> {
        let args = Array::of4(host, &name.into(), file.map_or(&JsValue::NULL, |f| f.as_ref()), answer);
        self.call("render_import", &args).map(|_| ())
    }

    /// Takes the import dialog down (the page closed it).
    pub fn close_import(&self) {
        let _ = self.call("close_import", &Array::new());
    }

    /// Renders the lateness report of the scenario inside `host`; it answers `bound` (milliseconds
    /// as text: 64-bit) when the user picks a bound.
    pub fn render_lateness(
        &self,
        host: &web_sys::Element,
        json: &str,
        lecture: bool,
        answer: &Function,
    ) -> Result<(), String> {
        let args = Array::of4(host, &json.into(), &lecture.into(), answer);
        self.call("render_lateness", &args).map(|_| ())
    }
}

/// A "why?" explanation, made by the extras module (`teach::why`, which the page's main module
/// does not carry).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    pub title: String,
    pub summary: String,
    pub reasons: Vec<String>,
}

/// A "why?" target as text for the extras module (64-bit times do not fit a JS number).
pub fn why_key(t: &WhyTarget) -> String {
    let window = |w: &Window| match w {
        Window::Global => "global".to_string(),
        Window::Time(tw) => format!("{}:{}", tw.start, tw.end),
    };
    match t {
        WhyTarget::Element(e) => format!("e:{e}"),
        WhyTarget::Window { key, window: w } => format!("w:{key}:{}", window(w)),
        WhyTarget::Timer { key, window: w, time } => format!("t:{key}:{time}:{}", window(w)),
        WhyTarget::Partition(p) => format!("p:{p}"),
    }
}

/// The target [`why_key`] wrote.
pub fn parse_why_key(s: &str) -> Option<WhyTarget> {
    let parts: Vec<&str> = s.split(':').collect();
    let window = |rest: &[&str]| match rest {
        ["global"] => Some(Window::Global),
        [a, b] => Some(Window::Time(TimeWindow::new(a.parse().ok()?, b.parse().ok()?))),
        _ => None,
    };
    match parts.as_slice() {
        ["e", e] => Some(WhyTarget::Element(e.parse().ok()?)),
        ["p", p] => Some(WhyTarget::Partition(p.parse().ok()?)),
        ["w", key, rest @ ..] => Some(WhyTarget::Window { key: key.parse().ok()?, window: window(rest)? }),
        ["t", key, time, rest @ ..] => {
            Some(WhyTarget::Timer { key: key.parse().ok()?, time: time.parse().ok()?, window: window(rest)? })
        }
        _ => None,
    }
}

/// The explanation of `target` at `step` (what the extras module answers).
pub fn explain(scenario: &Scenario, run: &Run, target: &WhyTarget, step: usize, values: ValueFormat) -> Explained {
    let ctx = teach::Context::new(scenario, run).with_values(values);
    let (title, ex) = match *target {
        WhyTarget::Element(e) => {
            let label = ctx.element(e).map_or_else(|| "element".to_string(), |el| format!("Element {}", el.id));
            (label, ctx.why_element(e, step))
        }
        WhyTarget::Window { key, window } => {
            (format!("Window {}", ctx.window_label(key, &window)), ctx.why_window(key, window, step))
        }
        WhyTarget::Timer { key, window, time } => {
            let t = match time {
                LONG_MAX => "Long.MAX".to_string(),
                LONG_MIN => "Long.MIN".to_string(),
                t => teach::format::time(t),
            };
            (format!("Timer at {t}"), ctx.why_timer(key, window, time, step))
        }
        WhyTarget::Partition(p) => {
            (format!("Source partition {p}"), teach::source::why_partition(scenario, run, p, step))
        }
    };
    Explained { title, summary: ex.summary, reasons: ex.reasons }
}

impl Extras {
    /// The "why?" explanation of `target` at `step` for the scenario (`explain`, in the extras module).
    pub fn explain(
        &self,
        scenario_json: &str,
        target: &WhyTarget,
        step: usize,
        values: ValueFormat,
    ) -> Result<Explained, String> {
        let args =
            Array::of4(&scenario_json.into(), &why_key(target).into(), &(step as f64).into(), &values.as_str().into());
        let o = self.call("explain", &args)?;
        let text =
            |k: &str| Reflect::get(&o, &JsValue::from_str(k)).ok().and_then(|v| v.as_string()).unwrap_or_default();
        let reasons = Reflect::get(&o, &JsValue::from_str("reasons"))
            .ok()
            .and_then(|v| v.dyn_into::<Array>().ok())
            .map(|a| a.iter().filter_map(|c| c.as_string()).collect())
            .unwrap_or_default();
        Ok(Explained { title: text("title"), summary: text("summary"), reasons })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A target survives the text the extras module is handed, 64-bit times included.
    #[test]
    fn why_keys_round_trip() {
        let w = Window::Time(TimeWindow::new(i64::MIN + 1, i64::MAX));
        for t in [
            WhyTarget::Element(7),
            WhyTarget::Window { key: 2, window: w },
            WhyTarget::Window { key: 0, window: Window::Global },
            WhyTarget::Timer { key: 1, window: w, time: i64::MAX },
            WhyTarget::Partition(3),
        ] {
            assert_eq!(parse_why_key(&why_key(&t)), Some(t));
        }
        assert_eq!(parse_why_key("x:1"), None);
    }

    /// The explanation is the teaching layer's, with a title.
    #[test]
    fn explains_an_element() {
        let Some(p) = teach::presets::by_id("lab-6-3") else { panic!("lab-6-3") };
        let run = crate::engine::run(&p.scenario);
        let ex = explain(&p.scenario, &run, &WhyTarget::Element(5), run.steps, p.value_format);
        assert_eq!(ex.title, "Element 6");
        assert!(ex.summary.contains("side output"), "{}", ex.summary);
        assert!(ex.reasons.len() >= 2);
    }
}
