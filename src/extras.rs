//! The second wasm module, `tidemark-extras`: what the Sinks, Charts and Code tabs and the "why?"
//! popover need and the rest of the page does not (the sinks' view of the outputs, plotters, the Flink
//! program generators with their templates, the explanations), loaded on demand by `tidemark::ui::extras` the first time one of those tabs
//! opens. It is given the scenario as JSON, re-runs the engine on it (the same `engine::run` as the
//! page) and renders the sinks into the host element it is handed (a Yew root of its own), draws a
//! chart on a canvas, or answers with the program text. It also carries your own stream's import
//! (the CSV reader, the date-time parser, the mapping dialog: `render_import`) and the lateness
//! report (`render_lateness`). Natively it is an empty program.

#[cfg(target_arch = "wasm32")]
mod web {
    use std::cell::RefCell;
    use std::rc::Rc;

    use js_sys::{Array, Function, Object, Reflect};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{Element, HtmlCanvasElement};
    use yew::{AppHandle, Callback};

    use tidemark::codegen::{self, Dialect};
    use tidemark::engine::{Run, Scenario, run};
    use tidemark::sinks::Downstream;
    use tidemark::teach::ValueFormat;
    use tidemark::ui::components::charts_panel::{ChartKind, ChartsData, draw_chart as draw};
    use tidemark::ui::components::import_dialog::{ImportDialog, ImportDialogProps};
    use tidemark::ui::components::lateness_report::{LatenessView, LatenessViewProps};
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
        // A long program's lines to show (the page lays out no more); `text` stays whole.
        if let Some((shown, left_out)) = codegen::shown_lines(&program.text, dialect) {
            Reflect::set(&o, &"shown".into(), &shown.into())?;
            Reflect::set(&o, &"left_out".into(), &(left_out as f64).into())?;
        }
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
        /// Bumps when the import dialog closes: a file read that ends after it is not shown.
        static IMPORT_GENERATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        /// The import dialog, while it is open.
        static IMPORT: RefCell<Option<AppHandle<ImportDialog>>> = const { RefCell::new(None) };
        /// The lateness report rendered last, and the element it lives in.
        static LATENESS: RefCell<Option<(Element, AppHandle<LatenessView>)>> = const { RefCell::new(None) };
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

    /// Opens the import dialog on a file (`null`: paste) in `host`, replacing any open one, once
    /// the file is read; it answers `answer("load", scenario_json, summary)` or `answer("cancel", "", "")`.
    #[wasm_bindgen]
    pub fn render_import(host: Element, name: String, file: JsValue, answer: Function) {
        close_import();
        let generation = IMPORT_GENERATION.with(|g| g.get());
        wasm_bindgen_futures::spawn_local(async move {
            let bytes = match file.dyn_into::<web_sys::File>() {
                Ok(f) => match wasm_bindgen_futures::JsFuture::from(f.array_buffer()).await {
                    Ok(buffer) => js_sys::Uint8Array::new(&buffer).to_vec(),
                    Err(_) => {
                        let reason = format!("{name}: could not be read");
                        let _ = answer.call3(&JsValue::NULL, &"error".into(), &reason.into(), &"".into());
                        return;
                    }
                },
                Err(_) => Vec::new(),
            };
            // The page closed the dialog (or opened another) while the file was read.
            if IMPORT_GENERATION.with(|g| g.get()) != generation {
                return;
            }
            let cancel = answer.clone();
            let props = ImportDialogProps {
                name,
                bytes: Rc::from(bytes),
                on_load: Callback::from(move |(json, summary): (String, String)| {
                    let _ = answer.call3(&JsValue::NULL, &"load".into(), &json.into(), &summary.into());
                }),
                on_cancel: Callback::from(move |()| {
                    // Three strings always: the page's callback takes (what, a, b).
                    let _ = cancel.call3(&JsValue::NULL, &"cancel".into(), &"".into(), &"".into());
                }),
            };
            let app = yew::Renderer::<ImportDialog>::with_root_and_props(host, props).render();
            IMPORT.with(|i| *i.borrow_mut() = Some(app));
        });
    }

    /// Takes the import dialog down.
    #[wasm_bindgen]
    pub fn close_import() {
        IMPORT_GENERATION.with(|g| g.set(g.get() + 1));
        if let Some(app) = IMPORT.with(|i| i.borrow_mut().take()) {
            app.destroy();
        }
    }

    /// Renders the lateness report of the scenario in `host`; `answer("bound", ms as text)` when the
    /// user picks a bound.
    #[wasm_bindgen]
    pub fn render_lateness(host: Element, scenario_json: &str, lecture: bool, answer: Function) {
        let props = LatenessViewProps {
            scenario_json: Rc::from(scenario_json),
            lecture,
            on_bound: Callback::from(move |bound: i64| {
                let _ = answer.call3(&JsValue::NULL, &"bound".into(), &bound.to_string().into(), &"".into());
            }),
        };
        LATENESS.with(|l| {
            let mut l = l.borrow_mut();
            match l.as_mut() {
                Some((el, app)) if *el == host => app.update(props),
                _ => {
                    if let Some((_, old)) = l.take() {
                        old.destroy();
                    }
                    let app = yew::Renderer::<LatenessView>::with_root_and_props(host.clone(), props).render();
                    *l = Some((host, app));
                }
            }
        });
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
