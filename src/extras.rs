//! The second wasm module, `tidemark-extras`: what the Code and Charts tabs need and the rest of the
//! page does not (the Flink program generators with their templates, plotters), loaded on demand by
//! `tidemark::ui::extras` the first time one of those tabs opens. It is given the scenario as JSON,
//! re-runs the engine on it (the same `engine::run` as the page) and answers with the program text or
//! draws the chart on the canvas it is handed. Natively it is an empty program.

#[cfg(target_arch = "wasm32")]
mod web {
    use std::cell::RefCell;
    use std::rc::Rc;

    use js_sys::{Array, Object, Reflect};
    use wasm_bindgen::prelude::*;
    use web_sys::HtmlCanvasElement;

    use tidemark::codegen::{self, Dialect};
    use tidemark::engine::{Scenario, run};
    use tidemark::sinks::Downstream;
    use tidemark::teach::ValueFormat;
    use tidemark::ui::chart_view::{ChartKind, ChartsData, draw_chart as draw};

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
        /// The charts' data of the last scenario drawn: every chart of a tab and every playhead
        /// position of one scenario share one engine run.
        static LAST: RefCell<Option<(String, Rc<ChartsData>)>> = const { RefCell::new(None) };
    }

    fn charts_data(json: &str) -> Result<Rc<ChartsData>, JsValue> {
        if let Some(data) = LAST.with(|l| l.borrow().as_ref().filter(|(j, _)| j == json).map(|(_, d)| d.clone())) {
            return Ok(data);
        }
        let scenario = scenario(json)?;
        let run = run(&scenario);
        let data = Rc::new(ChartsData::new(&Downstream::new(&scenario, &run)));
        LAST.with(|l| *l.borrow_mut() = Some((json.to_string(), data.clone())));
        Ok(data)
    }

    /// Draws chart `kind` of the scenario at `playhead` on `canvas` ([`tidemark::ui::chart_view::draw_chart`]).
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
