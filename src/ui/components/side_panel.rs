//! The side panel: its tabs (output, sinks, charts, code, configuration, SQL, compare, step log) and the one on show.

use yew::prelude::*;

use super::charts_panel::ChartsPanel;
use super::code_panel::CodePanel;
use super::compare_panel::ComparePanel;
use super::config_panel::config_panel;
use super::output_list::OutputList;
use super::sinks_panel::SinksPanel;
use super::sql_panel::SqlPanel;
use super::step_log::StepLog;
use crate::ui::action::{Action, Mode, PanelAction, Tab};
use crate::ui::hooks::{AppHandle, ExtrasView, use_extras_view, use_panel_json_when};
use crate::ui::scene::fold::step_log;

#[derive(Properties, PartialEq)]
pub struct SidePanelProps {
    pub state: AppHandle,
}

/// The tabs: what, the label, the `data-testid` (and `id`).
const TABS: [(Tab, &str, &str); 9] = [
    (Tab::Output, "Output", "tab-output"),
    (Tab::Sinks, "Sinks", "tab-sinks"),
    (Tab::Charts, "Charts", "tab-charts"),
    (Tab::Code, "Code", "tab-code"),
    (Tab::Lateness, "Lateness", "tab-lateness"),
    (Tab::Config, "Configure", "tab-config"),
    (Tab::Sql, "SQL", "tab-sql"),
    (Tab::Compare, "Compare", "tab-compare"),
    (Tab::Log, "Step log", "tab-log"),
];

#[component]
pub fn SidePanel(props: &SidePanelProps) -> Html {
    let state = props.state.clone();
    let s = state.get();
    let tab = s.chrome.tab;
    let tab_button = |t: Tab, label: &'static str, testid: &'static str| {
        let state = state.clone();
        html! {
            <button class={classes!("tab", (tab == t).then_some("active"))} role="tab" aria-selected={(tab == t).to_string()}
                    data-testid={testid} id={testid} onclick={Callback::from(move |_| state.dispatch(Action::Panel(PanelAction::SetTab(t))))}>
                { label }
            </button>
        }
    };
    let outputs = s.fold.view.outputs;
    let json = use_panel_json_when(&s, tab == Tab::Lateness);
    let held = json.as_ref().is_some_and(|(_, held)| *held);
    let lateness = json.map(|(json, _)| ExtrasView::Lateness(json, s.teach.mode == Mode::Lecture));
    let lateness_host = use_node_ref();
    let ready = use_extras_view(lateness_host.clone(), state.clone(), lateness);
    html! {
        <aside class="side-panel" aria-label="Output and configuration">
            <div class="tabs" role="tablist">
                { for TABS.iter().map(|(t, label, testid)| tab_button(*t, label, testid)) }
                <span class="tab-count">{ format!("{outputs} record(s)") }</span>
            </div>
            // A tab panel is a Tab stop (ARIA's tabs pattern): its content scrolls by keyboard too.
            <div class="tab-body" role="tabpanel" tabindex="0" aria-labelledby={TABS.iter().find(|t| t.0 == tab).map(|t| t.2)}>
                {
                    match tab {
                        Tab::Output => html! { <OutputList state={state.clone()} /> },
                        Tab::Config => config_panel(&state),
                        Tab::Log => html! { <StepLog lines={step_log(&s.doc.run, s.fold.view.step)} step={s.fold.view.step} /> },
                        Tab::Sinks => html! { <SinksPanel state={state.clone()} /> },
                        Tab::Charts => html! { <ChartsPanel state={state.clone()} /> },
                        Tab::Code => html! { <CodePanel state={state.clone()} /> },
                        Tab::Sql => html! { <SqlPanel state={state.clone()} /> },
                        Tab::Compare => html! { <ComparePanel state={state.clone()} /> },
                        Tab::Lateness => html! {
                            <>
                                if !ready { <p class="loading">{ "Loading the lateness report…" }</p> }
                                { super::held_note(held) }
                                <div class="lateness-host" ref={lateness_host} data-held={held.to_string()} />
                            </>
                        },
                    }
                }
            </div>
        </aside>
    }
}
