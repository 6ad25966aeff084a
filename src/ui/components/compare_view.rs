//! Compare mode under A's canvas: B's canvas (the same scene builder and SVG backend as A's, at A's
//! viewport and playhead; shown, not edited: B is edited in the Compare tab) and the list of
//! differences at the playhead. Each difference is marked ≠ on both canvases and said in words
//! here, so colour is never the only signal.

use yew::prelude::*;

use super::canvas::{SceneBackend, SvgBackend};
use crate::ui::hooks::AppHandle;
use crate::ui::state::compare::summary;

#[derive(Properties, PartialEq)]
pub struct CompareViewProps {
    pub state: AppHandle,
}

/// A canvas's label in compare mode.
pub fn side_label(side: &'static str, what: String) -> Html {
    html! { <div class="compare-label" data-testid={format!("compare-label-{}", side.to_lowercase())}><strong>{ side }</strong>{ " · " }{ what }</div> }
}

#[component]
pub fn CompareView(props: &CompareViewProps) -> Html {
    let Some(c) = &props.state.get().compare else { return Html::default() };
    let diff = &c.diff;
    let n = diff.rows.len();
    html! {
        <>
            { side_label("B", summary(&c.doc.scenario)) }
            // B is shown only: its objects take no focus (the differences are said in the list).
            <div class="canvas-box compare-b" data-testid="compare-b" inert=true>
                <div class="scene" data-testid="scene-b">
                    <div class="scene-view">{ SvgBackend::draw(&c.scene) }</div>
                </div>
            </div>
            <details class="diff-list" data-testid="compare-diff" data-count={n.to_string()} open=true>
                <summary>{ match n {
                    0 => format!("No difference up to step {}", c.fold.view.step),
                    n => format!("{n} difference(s) up to the playhead (≠ on both canvases)"),
                } }</summary>
                <ul>
                    { for diff.rows.iter().map(|r| html! {
                        <li data-testid="diff-row" data-kind={r.kind}><span class="diff-kind">{ format!("≠ {}", r.kind) }</span>{ " " }{ r.text.clone() }</li>
                    }) }
                </ul>
            </details>
        </>
    }
}
