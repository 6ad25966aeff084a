//! The SQL view's TVF rows (◆ at `window_time`, contract `tvf-row`) and compare mode's marks
//! (a dashed outline and a ≠ glyph on what differs from the other configuration).

use yew::prelude::*;

use super::px::px;
use crate::ui::scene::{DiffMark, TvfRowItem};

pub fn tvf_rows(rows: &[TvfRowItem]) -> Html {
    html! {
        <g class="tvf-rows">
            { for rows.iter().map(|r| html! {
                <g class="tvf-row" data-testid="tvf-row" data-key={r.key_name.to_string()}
                   data-window-start={r.window_start.to_string()} data-window-end={r.window_end.to_string()}
                   data-window-time={r.window_time.to_string()} data-sum={r.sum.to_string()}
                   data-count={r.count.to_string()} transform={format!("translate({},{})", px(r.x), px(r.y))}>
                    <path d="M 0 -6 L 6 0 L 0 6 L -6 0 Z" />
                    if let Some(t) = &r.text {
                        <text x="-9" y="4" text-anchor="end">{ t.to_string() }</text>
                    }
                    <title>{ r.title.to_string() }</title>
                </g>
            }) }
        </g>
    }
}

pub fn marks(marks: &[DiffMark]) -> Html {
    html! {
        <g class="diff-marks">
            { for marks.iter().map(|m| html! {
                <g class={classes!("diff-mark", format!("diff-{}", m.kind))} data-testid="diff-mark" data-kind={m.kind}>
                    <rect x={px(m.x - 1.5)} y={px(m.y - 1.5)} width={px(m.width + 3.0)} height={px(m.height + 3.0)} rx="3" />
                    <text x={px(m.x + m.width + 1.0)} y={px(m.y + 3.0)} text-anchor="middle">{ "≠" }</text>
                    <title>{ m.title.to_string() }</title>
                </g>
            }) }
        </g>
    }
}
