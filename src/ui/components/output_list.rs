//! The Output tab: the window results up to the playhead and the late side output, with the
//! `output-row` / `side-output-row` / `error-row` / `process-row` test contract.

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::scenario::WindowFunctionSpec;
use crate::engine::time::format_millis;
use crate::engine::trace::FiringKind;
use crate::engine::{Output, Run, Scenario, Window};
use crate::teach::ValueFormat;
use crate::ui::hooks::AppHandle;
use crate::ui::scene::fold::{Effect, result_text};
use crate::ui::state::AppState;

#[derive(Properties, PartialEq)]
pub struct OutputListProps {
    pub state: AppHandle,
}

fn window_text(w: &Window) -> String {
    match w {
        Window::Global => "GlobalWindow".into(),
        Window::Time(tw) => format!("[{}, {})", format_millis(tw.start), format_millis(tw.end)),
    }
}

#[component]
pub fn OutputList(props: &OutputListProps) -> Html {
    let s: &AppState = &props.state;
    let upto = s.fold.view.outputs.min(s.doc.run.outputs.len());
    let (fresh, fresh_late) = if s.play.animate {
        let fired = s.fold.effects.iter().filter_map(|e| match e {
            Effect::Fired { output, .. } => Some(*output),
            _ => None,
        });
        (fired.collect(), s.fold.effects.iter().any(|e| matches!(e, Effect::SideOutput { .. })))
    } else {
        (Vec::new(), false)
    };
    html! { <OutputRows run={s.doc.run.clone()} scenario={s.doc.shown_scenario.clone()} {upto} {fresh} {fresh_late} values={s.teach.values} /> }
}

#[derive(Properties)]
struct OutputRowsProps {
    run: Rc<Run>,
    scenario: Rc<Scenario>,
    /// How many of `run.outputs` were emitted up to the playhead.
    upto: usize,
    /// Outputs emitted by the step just taken (animated).
    fresh: Vec<usize>,
    fresh_late: bool,
    /// The scenario's unit of values.
    values: ValueFormat,
}

/// Equal when the rows would be: a drag re-runs the engine, but the outputs up to the playhead
/// often stay the same, and then the list is not rendered again.
impl PartialEq for OutputRowsProps {
    fn eq(&self, other: &Self) -> bool {
        fn outputs(p: &OutputRowsProps) -> &[Output] {
            p.run.outputs.get(..p.upto).unwrap_or(&[])
        }
        fn values(p: &OutputRowsProps) -> impl Iterator<Item = i64> + '_ {
            p.run.elements.iter().map(|e| e.value)
        }
        self.upto == other.upto
            && self.fresh == other.fresh
            && self.fresh_late == other.fresh_late
            && self.values == other.values
            && self.scenario.function == other.scenario.function
            && self.scenario.side_output == other.scenario.side_output
            && (Rc::ptr_eq(&self.run, &other.run)
                || (outputs(self) == outputs(other)
                    && self.run.keys == other.run.keys
                    && values(self).eq(values(other))))
    }
}

#[component]
fn OutputRows(p: &OutputRowsProps) -> Html {
    let upto = p.upto.min(p.run.outputs.len());
    let fresh = |i: usize| p.fresh.contains(&i);
    let mut fires = Vec::new();
    let mut lates = Vec::new();
    let mut errors = Vec::new();
    for (i, o) in p.run.outputs[..upto].iter().enumerate() {
        match o {
            Output::Fire(f) => {
                let kind = match f.kind {
                    FiringKind::Early => "early",
                    FiringKind::Main => "main",
                    FiringKind::Late => "late",
                };
                fires.push(html! {
                    <FireRow key={i} key_name={AttrValue::from(p.run.key_name(f.key).to_string())} window={f.window}
                        firing={f.oracle_firing()} {kind} ids={f.ids.clone()} sum={f.sum} count={f.count}
                        result={AttrValue::from(result_text(&p.scenario, &p.run, Some(i), p.values))}
                        list={p.scenario.function == WindowFunctionSpec::Process} wm={f.watermark} fresh={fresh(i)} />
                });
            }
            Output::Late { elem, id, key, ts, .. } => lates.push(LateRowProps {
                elem: *elem,
                id: *id,
                key_name: AttrValue::from(p.run.key_name(*key).to_string()),
                ts: *ts,
                fresh: p.fresh_late,
            }),
            Output::Error(e) => errors.push(html! {
                <li class="error-row" key={i.to_string()} data-testid="error-row" data-phase={e.phase} data-class={e.class}>
                    { format!("Flink error ({}): {}: {}", e.phase, e.class, e.message) }
                </li>
            }),
            // A window TVF's final row: one per window, never updated.
            Output::Tvf(r) => {
                let key = p.run.key_name(r.firing.key).to_string();
                let ids: Vec<String> = r.firing.ids.iter().map(|i| i.to_string()).collect();
                fires.push(html! {
                    <li class={classes!("output-row", "firing-main", fresh(i).then_some("fresh"))} key={i.to_string()}
                        data-testid="output-row" data-key={key.clone()} data-start={r.window_start.to_string()}
                        data-end={r.window_end.to_string()} data-firing="main" data-ids={ids.join(",")}
                        data-sum={r.firing.sum.to_string()} data-count={r.firing.count.to_string()}>
                        { format!("{key} [{}, {}) window_time {}: sum {} count {}", format_millis(r.window_start),
                            format_millis(r.window_end), format_millis(r.window_time), r.firing.sum, r.firing.count) }
                    </li>
                });
            }
            // Checkpoint, crash and restore lines: the course's crash view draws them (issue 17).
            Output::Recovery(_) => {}
            // A keyed process function's record (completed, abandoned, alert, ok).
            Output::Process(rec) => {
                let key = p.run.key_name(rec.key).to_string();
                fires.push(html! {
                    <li class={classes!("output-row", "process-row", fresh(i).then_some("fresh"))} key={i.to_string()}
                        data-testid="process-row" data-key={key.clone()} data-kind={rec.kind} data-ts={rec.ts.to_string()}
                        data-id={rec.id.map(|id| id.to_string())} data-wm={rec.watermark.to_string()}
                        data-errors={rec.errors.map(|n| n.to_string())} data-requests={rec.requests.map(|n| n.to_string())}>
                        { format!("{key}: {} at {}", rec.kind, format_millis(rec.ts)) }
                    </li>
                });
            }
        }
    }
    let n_fires = fires.len();
    let n_lates = lates.len();
    html! {
        <div class="outputs" data-testid="outputs">
            if !errors.is_empty() {
                <ul class="errors">{ for errors }</ul>
            }
            <h3>{ format!("Window results ({n_fires})") }</h3>
            if n_fires == 0 {
                <p class="empty">{ "Nothing emitted yet: a window fires when the watermark passes its end − 1." }</p>
            }
            <ol class="rows">{ for fires }</ol>
            <h3>{ format!("Late side output ({n_lates})") }</h3>
            if !p.scenario.side_output {
                <p class="empty">{ "Side output is off: late elements are dropped." }</p>
            }
            <ol class="rows side-rows" data-testid="side-output-rows"><LateRows rows={lates} /></ol>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct FireRowProps {
    key_name: AttrValue,
    window: Window,
    /// The oracle's `firing`: main for the first call of the window function, late after.
    firing: &'static str,
    /// The teaching classification: early, main or late.
    kind: &'static str,
    ids: Vec<i64>,
    sum: i64,
    count: u64,
    result: AttrValue,
    /// Show the element ids (a buffering process function) rather than a count.
    list: bool,
    wm: crate::engine::Millis,
    fresh: bool,
}

#[derive(Properties, PartialEq)]
struct LateRowsProps {
    rows: Vec<LateRowProps>,
}

/// The late side output's rows: components, so that a drag which changes one late element
/// re-renders that row only (a scenario can have thousands).
#[component]
fn LateRows(p: &LateRowsProps) -> Html {
    html! { <>{ for p.rows.iter().map(|r| html! { <LateRow key={r.elem} ..r.clone() /> }) }</> }
}

#[derive(Properties, PartialEq, Clone)]
struct LateRowProps {
    /// The element's ordinal in the run: its key (an element goes to the side output at most once,
    /// when it is processed), so a row that comes or goes does not shift the keys of the rows after it.
    elem: crate::engine::trace::ElemIdx,
    id: i64,
    key_name: AttrValue,
    ts: crate::engine::Millis,
    fresh: bool,
}

#[component]
fn LateRow(p: &LateRowProps) -> Html {
    html! {
        <li class={classes!("side-row", p.fresh.then_some("fresh"))} data-testid="side-output-row" data-id={p.id.to_string()}
            data-key={p.key_name.clone()} data-ts={p.ts.to_string()}>
            { format!("element {} · key {} · ts {}", p.id, p.key_name, format_millis(p.ts)) }
        </li>
    }
}

/// One window result, with the `data-*` contract of the end-to-end tests.
#[component]
fn FireRow(p: &FireRowProps) -> Html {
    let (start, end) = p.window.bounds();
    let ids: Vec<String> = p.ids.iter().map(|i| i.to_string()).collect();
    let contents = if p.list { format!("[{}]", ids.join(", ")) } else { format!("{} element(s)", p.count) };
    let class = classes!("output-row", format!("firing-{}", p.kind), p.fresh.then_some("fresh"));
    html! {
        <li {class} data-testid="output-row" data-key={p.key_name.clone()}
            data-start={start.map(|v| v.to_string()).unwrap_or_default()}
            data-end={end.map(|v| v.to_string()).unwrap_or_default()}
            data-firing={p.firing} data-ids={ids.join(",")}
            data-sum={p.sum.to_string()} data-count={p.count.to_string()}>
            <span class="row-key">{ p.key_name.clone() }</span>
            <span class="row-window">{ window_text(&p.window) }</span>
            <span class={classes!("badge", format!("badge-{}", p.kind))}>
                { match p.kind { "late" => "late · updated result", k => k } }
            </span>
            <span class="row-result">{ p.result.clone() }</span>
            <span class="row-ids">{ contents }</span>
            <span class="row-wm">{ format!("wm {}", format_millis(p.wm)) }</span>
        </li>
    }
}
