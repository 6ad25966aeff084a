//! The keyboard help (`?`): every key of the key map (`state::keys::HELP`), and what changed.

use yew::prelude::*;

use crate::ui::state::keys::{HELP, HELP_CHANGED};

#[derive(Properties, PartialEq)]
pub struct HelpProps {
    pub on_close: Callback<()>,
}

#[component]
pub fn Help(p: &HelpProps) -> Html {
    let close = p.on_close.reform(|_: MouseEvent| ());
    html! {
        <div class="dialog-backdrop" onclick={close.clone()}>
            <div class="dialog help" data-testid="help-dialog" role="dialog" aria-label="Keyboard">
                <h2>{ "Keyboard" }</h2>
                { for HELP.iter().map(|(section, rows)| html! {
                    <>
                        <h3>{ *section }</h3>
                        <table>{ for rows.iter().map(|(k, v)| html! { <tr><th>{ *k }</th><td>{ *v }</td></tr> }) }</table>
                    </>
                }) }
                <p class="help-changed">{ HELP_CHANGED }</p>
                <p>{ "Mouse: drag a marble to change its timestamp, drag the watermark flag, drag the background to pan, wheel to zoom, right-click for the menu, double-click to add an element." }</p>
                <button onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}
