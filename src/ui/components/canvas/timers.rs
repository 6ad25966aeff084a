//! Timer glyphs: ▼ trigger timer, ■ cleanup timer; outlined when registered, filled when fired,
//! struck through when deleted.

use yew::prelude::*;

use super::px::px;
use crate::engine::view::TimerStatus;
use crate::ui::scene::label::timer as timer_name;
use crate::ui::scene::{TimerItem, focus_key};

pub fn timers(timers: &[TimerItem]) -> Html {
    html! {
        <g class="timers">
            { for timers.iter().map(|t| html! { <TimerGlyph key={format!("t{}:{}", t.key_name, t.time)} item={t.clone()} /> }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct TimerGlyphProps {
    item: TimerItem,
}

#[component]
fn TimerGlyph(p: &TimerGlyphProps) -> Html {
    let t = &p.item;
    let class = classes!(
        "timer",
        format!("timer-{}", t.kind),
        format!("status-{}", t.status.label()),
        t.born.then_some("born")
    );
    let glyph = match t.kind {
        "cleanup" => html! { <rect x="-4" y="-4" width="8" height="8" /> },
        "both" => html! { <path d="M -5 -5 L 5 -5 L 0 4 Z M -3 2 L 3 2 L 3 6 L -3 6 Z" /> },
        _ => html! { <path d="M -5 -5 L 5 -5 L 0 4 Z" /> },
    };
    html! {
        <g {class} data-testid="timer" data-time={t.time.to_string()} data-purpose={t.purpose} data-status={t.status.label()}
           data-focus={focus_key(&t.id)} tabindex={t.tab.tabindex()} role="img" aria-describedby="desc-window"
           transform={format!("translate({},{})", px(t.x), px(t.y))}>
            { glyph }
            if t.status == TimerStatus::Deleted {
                <line class="strike" x1="-6" y1="-6" x2="6" y2="6" />
            }
            if let Some(style) = &t.flash {
                <circle class="fx-flash" r="9" style={style.to_string()} />
            }
            <title>{ timer_name(t) }</title>
        </g>
    }
}
