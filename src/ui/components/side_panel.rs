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
use crate::ui::action::{Action, PanelAction, Tab};
use crate::ui::hooks::AppHandle;
use crate::ui::scene::fold::step_log;

#[derive(Properties, PartialEq)]
pub struct SidePanelProps {
    pub state: AppHandle,
}

#[component]
pub fn SidePanel(props: &SidePanelProps) -> Html {
    let state = props.state.clone();
    let tab = state.chrome.tab;
    let tab_button = |t: Tab, label: &'static str, testid: &'static str| {
        let state = state.clone();
        html! {
            <button class={classes!("tab", (tab == t).then_some("active"))} role="tab" aria-selected={(tab == t).to_string()}
                    data-testid={testid} onclick={Callback::from(move |_| state.dispatch(Action::Panel(PanelAction::SetTab(t))))}>
                { label }
            </button>
        }
    };
    let outputs = state.fold.view.outputs;
    html! {
        <aside class="side-panel" aria-label="Output and configuration">
            <div class="tabs" role="tablist">
                { tab_button(Tab::Output, "Output", "tab-output") }
                { tab_button(Tab::Sinks, "Sinks", "tab-sinks") }
                { tab_button(Tab::Charts, "Charts", "tab-charts") }
                { tab_button(Tab::Code, "Code", "tab-code") }
                { tab_button(Tab::Config, "Configure", "tab-config") }
                { tab_button(Tab::Sql, "SQL", "tab-sql") }
                { tab_button(Tab::Compare, "Compare", "tab-compare") }
                { tab_button(Tab::Log, "Step log", "tab-log") }
                <span class="tab-count">{ format!("{outputs} record(s)") }</span>
            </div>
            <div class="tab-body">
                {
                    match tab {
                        Tab::Output => html! { <OutputList state={state.clone()} /> },
                        Tab::Config => config_panel(&state),
                        Tab::Log => html! { <StepLog lines={step_log(&state.doc.run, state.fold.view.step)} step={state.fold.view.step} /> },
                        Tab::Sinks => html! { <SinksPanel state={state.clone()} /> },
                        Tab::Charts => html! { <ChartsPanel state={state.clone()} /> },
                        Tab::Code => html! { <CodePanel state={state.clone()} /> },
                        Tab::Sql => html! { <SqlPanel state={state.clone()} /> },
                        Tab::Compare => html! { <ComparePanel state={state.clone()} /> },
                    }
                }
            </div>
        </aside>
    }
}
