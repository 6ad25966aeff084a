//! The header: the brand, the scenario's name, the presets menu and the view tools.

use yew::prelude::*;

use super::locked_badge::locked_badge;
use super::preset_menu::PresetMenu;
use crate::ui::action::{Action, EditAction, PanelAction, ViewAction};
use crate::ui::hooks::{AppHandle, send};

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub state: AppHandle,
}

#[component]
pub fn Header(props: &HeaderProps) -> Html {
    let state = &props.state;
    let b = |label: &'static str, title: &'static str, testid: &'static str, action: Action| {
        html! {
            <button class="tool" {title} aria-label={title} data-testid={testid} onclick={send(state, action)}>{ label }</button>
        }
    };
    let s = state.get();
    let scenario = &s.doc.scenario;
    html! {
        <header class="header">
            <h1 class="brand" title="Apache Flink's event-time window operator, made visible">{ "Tidemark" }</h1>
            <span class="scenario-name" title={scenario.description.clone()} data-testid="scenario-name">{ scenario.name.clone() }</span>
            <PresetMenu state={state.clone()} />
            { locked_badge(s.teach.locked) }
            <span class="spacer" />
            { b("−", "Zoom out (-)", "zoom-out", Action::View(ViewAction::ZoomOut)) }
            { b("+", "Zoom in (+)", "zoom-in", Action::View(ViewAction::ZoomIn)) }
            { b("fit", "Fit the scenario (f)", "fit", Action::View(ViewAction::Fit)) }
            { b("+ element", "Add an element (n)", "add-element", Action::Edit(EditAction::AddElement { key: None, ts: None })) }
            { b("panel", "Show or hide the side panel", "toggle-panel", Action::Panel(PanelAction::TogglePanel)) }
            { b("?", "Keyboard shortcuts (?)", "help", Action::Panel(PanelAction::ToggleHelp)) }
        </header>
    }
}
