//! The Code tab: the Flink program for the scenario, in three dialects, with copy and save. The
//! generators are in the lazily loaded extras module: until it is there the tab says so, and
//! `code-text` appears with the program.

use yew::prelude::*;

use super::held_note;
use crate::codegen::Dialect;
use crate::ui::action::{Action, PanelAction, ShareBox, TeachAction};
use crate::ui::export;
use crate::ui::hooks::{AppHandle, use_extras, use_panel_json};
use crate::ui::state::AppState;

#[derive(Properties, PartialEq)]
pub struct CodePanelProps {
    pub state: AppHandle,
}

/// The Code tab: the Flink program for the scenario, in three dialects, with copy buttons. The
/// generators are in the lazily loaded extras module ([`super::extras`]): until it is there the tab
/// says so, and `code-text` appears with the program.
#[component]
pub fn CodePanel(props: &CodePanelProps) -> Html {
    let state = props.state.clone();
    let s = state.get();
    let s: &AppState = &s;
    let dialect = s.teach.dialect.unwrap_or(Dialect::Java);
    let (json, held) = use_panel_json(s);
    let extras = use_extras();
    let ready = extras.as_ref().and_then(|x| x.as_ref().ok()).cloned();
    let program = use_memo((json, dialect, ready), |(json, d, x)| x.as_ref().map(|x| x.generate(&json.0, *d)));
    let tab = |d: Dialect| {
        let state = state.clone();
        html! {
            <button class={classes!("tab", (d == dialect).then_some("active"))} role="tab" aria-selected={(d == dialect).to_string()}
                    data-testid={format!("code-tab-{}", d.id())}
                    onclick={Callback::from(move |_| state.dispatch(Action::Teach(TeachAction::SetDialect(d))))}>{ d.label() }</button>
        }
    };
    let tabs: Html = Dialect::ALL.iter().map(|d| tab(*d)).collect();
    let (program, part) = match (&*program, extras.as_ref()) {
        (Some(Ok((p, part))), _) => (p.clone(), part.clone()),
        (Some(Err(e)), _) | (None, Some(Err(e))) => {
            let e = e.clone();
            return html! {
                <div class="code-panel" data-testid="code-panel">
                    <div class="tabs sub-tabs" role="tablist" aria-label="Language">{ tabs }</div>
                    <p class="field-error" role="alert" data-testid="code-error">{ format!("The Flink program could not be generated: {e}") }</p>
                </div>
            };
        }
        (None, _) => {
            return html! {
                <div class="code-panel" data-testid="code-panel">
                    <div class="tabs sub-tabs" role="tablist" aria-label="Language">{ tabs }</div>
                    <p class="muted" data-testid="code-loading">{ "Loading the code generator…" }</p>
                </div>
            };
        }
    };
    let copy = {
        let state = state.clone();
        let text = program.text.clone();
        Callback::from(move |_| {
            let state = state.clone();
            let text2 = text.clone();
            export::copy_text(&text, move |ok| {
                state.dispatch(Action::Teach(TeachAction::Shared(ShareBox {
                    what: "code",
                    text: if ok { String::new() } else { text2 },
                    copied: ok,
                })))
            });
        })
    };
    let save = {
        let state = state.clone();
        let (text, name) = (program.text.clone(), program.file_name.clone());
        Callback::from(move |_| {
            if let Err(e) = export::download_text(&text, "text/plain", &name) {
                state.dispatch(Action::Panel(PanelAction::ShowBanner(format!("Could not save {name}: {e}"))));
            }
        })
    };
    let copied = s.teach.share.as_ref().filter(|b| b.what == "code").map(|b| b.copied);
    html! {
        <div class="code-panel" data-testid="code-panel" data-held={held.to_string()}>
            { held_note(held) }
            // The tablist holds its tabs only (ARIA: a tablist owns tabs); Copy and Save beside it.
            <div class="tabs sub-tabs">
                <div class="tablist" role="tablist" aria-label="Language">{ tabs }</div>
                <span class="spacer" />
                <button data-testid="copy-code" onclick={copy} title="Copy the program">{ "Copy" }</button>
                <button data-testid="save-code" onclick={save} title={format!("Save as {}", program.file_name)}>{ "Save" }</button>
            </div>
            if let Some(ok) = copied {
                <p class={classes!("copy-status", if ok { "ok" } else { "wrong" })} data-testid="code-copied">
                    { if ok { "Copied to the clipboard." } else { "The browser refused the clipboard: select the text and press Ctrl+C." } }
                </p>
            }
            if !program.caveats.is_empty() {
                <ul class="caveats" data-testid="code-caveats">
                    { for program.caveats.iter().map(|c| html! { <li>{ c.clone() }</li> }) }
                </ul>
            }
            <pre class="code" tabindex="0" data-testid="code-text" data-dialect={program.dialect.id()} data-file={program.file_name.clone()}
                data-lines-left-out={part.as_ref().map(|p| p.1.to_string())}>
                <code>{ part.map_or(program.text.clone(), |p| p.0) }</code>
            </pre>
        </div>
    }
}
