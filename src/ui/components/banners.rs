//! The notice after a load (with undo) and the error banners.

use yew::prelude::*;

use super::platform::shortcut;
use crate::ui::action::{Action, PanelAction};
use crate::ui::hooks::{AppHandle, send};

#[derive(Properties, PartialEq)]
pub struct BannersProps {
    pub state: AppHandle,
}

#[component]
pub fn Banners(props: &BannersProps) -> Html {
    let state = &props.state;
    let s = state.get();
    html! {
        <div class="banners">
            if let Some(n) = &s.edits.notice {
                <div class="notice" role="status" data-testid="notice">
                    <span class="notice-text" title={n.text.clone()}>{ n.text.clone() }</span>
                    if n.undo {
                        <span class="notice-hint">{ format!("{} brings back your previous scenario.", shortcut("Z")) }</span>
                        <button data-testid="notice-undo" title={format!("Bring back your previous scenario ({})", shortcut("Z"))}
                                onclick={send(state, Action::Undo)}>{ "Undo" }</button>
                    }
                    <button class="dismiss" aria-label="Dismiss" data-testid="notice-dismiss"
                            onclick={send(state, Action::DismissNotice)}>{ "×" }</button>
                </div>
            }
            { for s.chrome.banners.iter().enumerate().map(|(i, b)| html! {
                <div class="banner" role="alert" data-testid="error-banner" key={format!("{i}{b}")}>
                    <span>{ b.clone() }</span>
                    <button aria-label="Dismiss" onclick={send(state, Action::Panel(PanelAction::DismissBanner(i)))}>{ "×" }</button>
                </div>
            }) }
        </div>
    }
}
