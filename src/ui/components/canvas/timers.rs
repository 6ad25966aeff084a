//! Timer glyphs: ▼ trigger timer, ■ cleanup timer; outlined when registered, filled when fired,
//! struck through when deleted.

use yew::prelude::*;

use super::px::px;
use crate::engine::view::TimerStatus;
use crate::ui::scene::label::{expiry as expiry_name, timer as timer_name};
use crate::ui::scene::{ExpiryItem, TimerItem, focus_key};

pub fn timers(timers: &[TimerItem], expiries: &[ExpiryItem]) -> Html {
    html! {
        <g class="timers">
            { for timers.iter().map(|t| html! { <TimerGlyph key={format!("t{}:{}", t.key_name, t.time)} item={t.clone()} /> }) }
            { for expiries.iter().map(|e| html! {
                <g class="ttl-expired" data-testid="ttl-expired" data-key={e.key_name.to_string()} data-at={e.at.to_string()}
                   data-ts={e.ts.to_string()} transform={format!("translate({},{})", px(e.x), px(e.y))}>
                    <rect x="-2" y="-7" width="64" height="14" rx="3" />
                    <text x="3" y="4">{ "TTL expired" }</text>
                    <title>{ expiry_name(e) }</title>
                </g>
            }) }
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
        t.born.then_some("born"),
        t.ignored.then_some("ignored")
    );
    let glyph = match t.kind {
        "cleanup" => html! { <rect x="-4" y="-4" width="8" height="8" /> },
        "both" => html! { <path d="M -5 -5 L 5 -5 L 0 4 Z M -3 2 L 3 2 L 3 6 L -3 6 Z" /> },
        _ => html! { <path d="M -5 -5 L 5 -5 L 0 4 Z" /> },
    };
    html! {
        <g {class} data-testid="timer" data-time={t.time.to_string()} data-purpose={t.purpose} data-status={t.status.label()}
           data-key={t.key_name.to_string()} data-ignored={t.ignored.to_string()}
           data-focus={focus_key(&t.id)} tabindex={t.tab.tabindex()} role="img" aria-describedby="desc-window"
           transform={format!("translate({},{})", px(t.x), px(t.y))}>
            { glyph }
            if t.status == TimerStatus::Deleted {
                <line class="strike" x1="-6" y1="-6" x2="6" y2="6" />
            }
            // Stale, ignored by `onTimer`: a ring and a question mark, not a colour alone.
            if t.ignored {
                <circle class="ignored-ring" r="8" />
                <text class="ignored-mark" x="9" y="4">{ "?" }</text>
            }
            if let Some(style) = &t.flash {
                <circle class="fx-flash" r="9" style={style.to_string()} />
            }
            <title>{ timer_name(t) }</title>
        </g>
    }
}
