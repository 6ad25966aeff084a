//! The second wasm module, `tidemark-extras`: what the Sinks, Charts and Code tabs and the "why?"
//! popover need and the rest of the page does not (the sinks' view of the outputs, plotters, the Flink
//! program generators with their templates, the explanations), loaded on demand by `tidemark::ui::extras` the first time one of those tabs
//! opens. It is given the scenario as JSON, re-runs the engine on it (the same `engine::run` as the
//! page) and renders the sinks into the host element it is handed (a Yew root of its own), draws a
//! chart on a canvas, or answers with the program text. Natively it is an empty program.

#[cfg(target_arch = "wasm32")]
mod web {
    use std::cell::RefCell;
    use std::rc::Rc;

    use js_sys::{Array, Object, Reflect};
    use wasm_bindgen::prelude::*;
    use web_sys::{Element, HtmlCanvasElement};
    use yew::AppHandle;

    use tidemark::codegen::{self, Dialect};
    use tidemark::engine::{Run, Scenario, run};
    use tidemark::sinks::Downstream;
    use tidemark::teach::ValueFormat;
    use tidemark::ui::components::charts_panel::{ChartKind, ChartsData, draw_chart as draw};
    use tidemark::ui::components::sinks_view::{DownstreamRef, SinksView, SinksViewProps};
    use tidemark::ui::extras;

    fn scenario(json: &str) -> Result<Scenario, JsValue> {
        Scenario::from_json_str(json).map_err(|e| JsValue::from_str(&e.to_string()))
    }

    /// `{ file_name, text, caveats: [..] }` of [`codegen::generate`].
    #[wasm_bindgen]
    pub fn generate_program(scenario_json: &str, dialect: &str) -> Result<JsValue, JsValue> {
        let Some(dialect) = Dialect::ALL.into_iter().find(|d| d.id() == dialect) else {
            return Err(JsValue::from_str(&format!("unknown dialect {dialect}")));
        };
        let program = codegen::generate(&scenario(scenario_json)?, dialect);
        let o = Object::new();
        Reflect::set(&o, &"file_name".into(), &program.file_name.into())?;
        Reflect::set(&o, &"text".into(), &program.text.into())?;
        let caveats: Array = program.caveats.iter().map(|c| JsValue::from_str(c)).collect();
        Reflect::set(&o, &"caveats".into(), &caveats)?;
        Ok(o.into())
    }

    thread_local! {
        /// The last scenario's downstream view and charts' data: every tab and every playhead
        /// position of one scenario share one engine run.
        static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
        /// The sinks view rendered last, and the element it lives in.
        static SINKS: RefCell<Option<(Element, AppHandle<SinksView>)>> = const { RefCell::new(None) };
    }

    struct Last {
        json: String,
        scenario: Rc<Scenario>,
        run: Rc<Run>,
        downstream: Rc<Downstream>,
        charts: Option<Rc<ChartsData>>,
    }

    /// A scenario, its run and its downstream view.
    type Loaded = (Rc<Scenario>, Rc<Run>, Rc<Downstream>);

    /// The scenario, its run and its downstream view, made once per scenario.
    fn last(json: &str) -> Result<Loaded, JsValue> {
        let cached = LAST.with(|l| {
            l.borrow()
                .as_ref()
                .filter(|l| l.json == json)
                .map(|l| (l.scenario.clone(), l.run.clone(), l.downstream.clone()))
        });
        if let Some(c) = cached {
            return Ok(c);
        }
        let scenario = Rc::new(scenario(json)?);
        let run = Rc::new(run(&scenario));
        let downstream = Rc::new(Downstream::new(&scenario, &run));
        LAST.with(|l| {
            *l.borrow_mut() = Some(Last {
                json: json.to_string(),
                scenario: scenario.clone(),
                run: run.clone(),
                downstream: downstream.clone(),
                charts: None,
            })
        });
        Ok((scenario, run, downstream))
    }

    fn downstream(json: &str) -> Result<Rc<Downstream>, JsValue> {
        last(json).map(|(_, _, d)| d)
    }

    /// `{ title, summary, reasons: [..] }`: the "why?" explanation of `target` (`ui::extras::why_key`) at `step`.
    #[wasm_bindgen]
    pub fn explain(scenario_json: &str, target: &str, step: usize, values: &str) -> Result<JsValue, JsValue> {
        let Some(target) = extras::parse_why_key(target) else {
            return Err(JsValue::from_str(&format!("unknown why target {target}")));
        };
        let (scenario, run, _) = last(scenario_json)?;
        let ex = extras::explain(&scenario, &run, &target, step, ValueFormat::parse(values).unwrap_or_default());
        let o = Object::new();
        Reflect::set(&o, &"title".into(), &ex.title.into())?;
        Reflect::set(&o, &"summary".into(), &ex.summary.into())?;
        let reasons: Array = ex.reasons.iter().map(|r| JsValue::from_str(r)).collect();
        Reflect::set(&o, &"reasons".into(), &reasons)?;
        Ok(o.into())
    }

    fn charts_data(json: &str) -> Result<Rc<ChartsData>, JsValue> {
        let d = downstream(json)?;
        Ok(LAST.with(|l| {
            let mut l = l.borrow_mut();
            match l.as_mut() {
                Some(last) => last.charts.get_or_insert_with(|| Rc::new(ChartsData::new(&d))).clone(),
                None => Rc::new(ChartsData::new(&d)),
            }
        }))
    }

    /// Renders the sinks of the scenario at `step` into `host` (a new Yew root the first time, or
    /// when the page hands a new host; otherwise the root's properties are updated).
    #[wasm_bindgen]
    pub fn render_sinks(host: Element, scenario_json: &str, step: usize, values: &str) -> Result<(), JsValue> {
        let props = SinksViewProps {
            downstream: DownstreamRef(downstream(scenario_json)?),
            step,
            values: ValueFormat::parse(values).unwrap_or_default(),
        };
        SINKS.with(|s| {
            let mut s = s.borrow_mut();
            match s.as_mut() {
                Some((el, app)) if *el == host => app.update(props),
                _ => {
                    if let Some((_, old)) = s.take() {
                        old.destroy();
                    }
                    let app = yew::Renderer::<SinksView>::with_root_and_props(host.clone(), props).render();
                    *s = Some((host, app));
                }
            }
        });
        Ok(())
    }

    /// Whether the scenario has a partitions chart ([`tidemark::ui::charts::PartitionChart`]).
    #[wasm_bindgen]
    pub fn has_partitions_chart(scenario_json: &str) -> Result<bool, JsValue> {
        Ok(downstream(scenario_json)?.partitions().is_interesting())
    }

    /// Draws chart `kind` of the scenario at `playhead` on `canvas` ([`tidemark::ui::components::charts_panel::draw_chart`]).
    #[wasm_bindgen]
    pub fn draw_chart(
        canvas: HtmlCanvasElement,
        kind: &str,
        scenario_json: &str,
        playhead: usize,
        values: &str,
        lecture: bool,
        dpr: f64,
    ) -> Result<(), JsValue> {
        let Some(kind) = ChartKind::ALL.into_iter().find(|k| k.id() == kind) else {
            return Err(JsValue::from_str(&format!("unknown chart {kind}")));
        };
        let values = ValueFormat::parse(values).unwrap_or_default();
        let data = charts_data(scenario_json)?;
        draw(canvas, kind, &data, playhead, values, lecture, dpr).map_err(|e| JsValue::from_str(&e))
    }
}

fn main() {}
