//! The SQL tab: run a Flink SQL window TVF (TUMBLE, HOP, CUMULATE, SESSION) instead of the
//! DataStream window, see its query and its rows (`window_start`, `window_end`, `window_time`),
//! which the canvas draws as ◆ at their `window_time`; and how it differs from the DataStream
//! window on the same input (compare mode with the two side by side).

use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::codegen::sql::tvf_query_text;
use crate::engine::Output;
use crate::engine::scenario::TvfSpec;
use crate::engine::time::format_millis;
use crate::ui::action::{Action, CompareAction, CompareExample, Side, TvfKind};
use crate::ui::hooks::AppHandle;
use crate::ui::state::AppState;

use super::tvf_sizes::TvfSizes;

#[derive(Properties, PartialEq)]
pub struct SqlPanelProps {
    pub state: AppHandle,
}

fn kind_of(t: TvfSpec) -> TvfKind {
    match t {
        TvfSpec::Tumble { .. } => TvfKind::Tumble,
        TvfSpec::Hop { .. } => TvfKind::Hop,
        TvfSpec::Cumulate { .. } => TvfKind::Cumulate,
        TvfSpec::Session { .. } => TvfKind::Session,
    }
}

/// A select of the DataStream window or a TVF kind for `side`.
pub fn tvf_select(state: &AppHandle, side: Side, current: Option<TvfSpec>, testid: &'static str) -> Html {
    let onchange = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let v = e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()).map(|s| s.value());
            let kind = TvfKind::ALL.into_iter().find(|k| Some(k.sql_name()) == v.as_deref());
            state.dispatch(Action::Compare(CompareAction::SetTvf(side, kind)));
        })
    };
    let current = current.map(kind_of);
    html! {
        <select data-testid={testid} {onchange} aria-label="Window: the DataStream window or a SQL window TVF">
            <option value="datastream" selected={current.is_none()}>{ "DataStream window" }</option>
            { for TvfKind::ALL.iter().map(|k| html! {
                <option value={k.sql_name()} selected={current == Some(*k)}>{ format!("SQL {}", k.sql_name()) }</option>
            }) }
        </select>
    }
}

#[component]
pub fn SqlPanel(props: &SqlPanelProps) -> Html {
    let state = props.state.clone();
    let s = state.get();
    let s: &AppState = &s;
    let scenario = &s.doc.shown_scenario;
    let run = &s.doc.run;
    let rows: Vec<Html> = run.outputs[..s.fold.view.outputs.min(run.outputs.len())]
        .iter()
        .filter_map(|o| match o {
            Output::Tvf(r) => Some(html! {
                <tr>
                    <td>{ run.key_name(r.firing.key).to_string() }</td>
                    <td>{ format_millis(r.window_start) }</td>
                    <td>{ format_millis(r.window_end) }</td>
                    <td>{ format_millis(r.window_time) }</td>
                    <td>{ r.firing.sum.to_string() }</td>
                    <td>{ r.firing.count.to_string() }</td>
                </tr>
            }),
            _ => None,
        })
        .collect();
    let compare = {
        let state = state.clone();
        Callback::from(move |_| {
            state.dispatch(Action::Compare(CompareAction::Example(CompareExample::DataStreamVsTvf)))
        })
    };
    html! {
        <div class="sql-panel" data-testid="sql-panel">
            <label class="field"><span>{ "Window" }</span>{ tvf_select(&state, Side::A, s.doc.scenario.tvf, "sql-tvf") }</label>
            if let Some(spec) = s.doc.scenario.tvf {
                <TvfSizes state={state.clone()} {spec} />
            }
            if let Some(q) = tvf_query_text(scenario) {
                <pre class="sql-query" data-testid="sql-query" aria-label="The query">{ q }</pre>
                <table class="out-table sql-rows" data-testid="sql-rows">
                    <caption>{ format!("{} row(s) up to the playhead (◆ on the canvas, at window_time)", rows.len()) }</caption>
                    <thead><tr><th>{ "key" }</th><th>{ "window_start" }</th><th>{ "window_end" }</th>
                        <th>{ "window_time" }</th><th>{ "sum" }</th><th>{ "count" }</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            } else {
                <p class="muted">{ "Choose a window TVF to run the same input through Flink SQL." }</p>
            }
            <ul class="sql-rules">
                <li>{ "No allowed lateness: a window fires once, when the watermark passes window_end - 1, and is gone." }</li>
                <li>{ "Which late rows still count: a late row is still added to every window of it that has not fired yet (HOP and CUMULATE share slices); it is dropped only when all of them have fired. SESSION merges first, then checks." }</li>
                <li>{ "Append-only: one final row per window, never updated or retracted (a DataStream late firing emits a second result)." }</li>
            </ul>
            <button class="tool" data-testid="sql-compare" onclick={compare}>{ "Side by side with the DataStream window" }</button>
        </div>
    }
}
