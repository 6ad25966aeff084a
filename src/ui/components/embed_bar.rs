//! Embed mode's top line: the preset's title and a way out to the full app.

use yew::prelude::*;

use super::locked_badge::locked_badge;
use crate::ui::export;
use crate::ui::hooks::AppHandle;
use crate::ui::state::AppState;

#[derive(Properties, PartialEq)]
pub struct StateProps {
    pub state: AppHandle,
}

/// Embed mode's top line: the preset's title and a way out to the full app.
#[component]
pub fn EmbedBar(props: &StateProps) -> Html {
    let s = props.state.get();
    let s: &AppState = &s;
    let title = s.teach.preset.as_ref().map_or_else(|| s.doc.scenario.name.clone(), |p| p.title.clone());
    let share = s.teach.share_fragment(&s.doc.scenario, s.play.step, s.steps());
    let href = format!("{}#{share}{}", export::base_url(), s.compare_param()).replace("&mode=embed", "");
    html! {
        <div class="embed-bar" data-testid="embed-bar">
            <span class="embed-title" title={title.clone()}>{ title }</span>
            { locked_badge(s.teach.locked) }
            <a class="embed-open" href={href} target="_blank" rel="noopener" data-testid="open-full"
               title="Open this scenario in the full Tidemark (configuration, outputs, charts, code)">{ "Open in Tidemark ↗" }</a>
        </div>
    }
}
