//! Timer glyphs: ▼ trigger timer, ■ cleanup timer; outlined when registered, filled when fired,
//! struck through when deleted.

use std::rc::Rc;

use yew::prelude::*;

use super::px::px;
use crate::engine::view::TimerStatus;
use crate::ui::geometry::clamp_px;
use crate::ui::scene::label::{expiry as expiry_name, timer as timer_name};
use crate::ui::scene::{ExpiryItem, Items, TimerItem, focus_key};

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

/// The timer layer of the SVG backend, drawn again only when its lists changed: a drag move
/// builds a new scene whose timers are most often the same (1,200-2,000 glyphs at 2,000 elements,
/// each a keyed node made anew and compared at every render).
#[derive(Properties)]
pub struct TimerLayerProps {
    pub timers: Items<TimerItem>,
    pub expiries: Rc<[ExpiryItem]>,
}

impl PartialEq for TimerLayerProps {
    fn eq(&self, other: &Self) -> bool {
        (Rc::ptr_eq(&self.timers, &other.timers) || self.timers == other.timers)
            && (Rc::ptr_eq(&self.expiries, &other.expiries) || self.expiries == other.expiries)
    }
}

#[component]
pub fn TimerLayer(p: &TimerLayerProps) -> Html {
    timers(&p.timers, &p.expiries)
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
    // Absolute coordinates rather than a `transform` per glyph: each transform is a node of the
    // compositor's property trees, and 2,000 of them cost about 8 ms a frame while anything on the
    // page changes (measured at 2,000 elements, sliding windows).
    let (x, y) = (t.x, t.y);
    let glyph = match t.kind {
        "cleanup" => html! { <rect x={px(x - 4.0)} y={px(y - 4.0)} width="8" height="8" /> },
        kind => html! { <path d={trigger_path(x, y, kind == "both")} /> },
    };
    html! {
        <g {class} data-testid="timer" data-time={t.time.to_string()} data-purpose={t.purpose} data-status={t.status.label()}
           data-key={t.key_name.to_string()} data-ignored={t.ignored.to_string()}
           data-focus={focus_key(&t.id)} tabindex={t.tab.tabindex()} role="img" aria-describedby="desc-window">
            { glyph }
            if t.status == TimerStatus::Deleted {
                <line class="strike" x1={px(x - 6.0)} y1={px(y - 6.0)} x2={px(x + 6.0)} y2={px(y + 6.0)} />
            }
            // Stale, ignored by `onTimer`: a ring and a question mark, not a colour alone.
            if t.ignored {
                <circle class="ignored-ring" cx={px(x)} cy={px(y)} r="8" />
                <text class="ignored-mark" x={px(x + 9.0)} y={px(y + 4.0)}>{ "?" }</text>
            }
            if let Some(style) = &t.flash {
                <circle class="fx-flash" cx={px(x)} cy={px(y)} r="9" style={style.to_string()} />
            }
            <title>{ timer_name(t) }</title>
        </g>
    }
}

/// ▼ centred on (x, y), the trigger timer's glyph; with `tab` the small block under it that
/// marks a timer that is also the cleanup timer.
fn trigger_path(x: f64, y: f64, tab: bool) -> String {
    let (x, y) = (clamp_px(x), clamp_px(y));
    let mut d = format!("M {:.1} {:.1} h 10 L {x:.1} {:.1} Z", x - 5.0, y - 5.0, y + 4.0);
    if tab {
        d += &format!(" M {:.1} {:.1} h 6 v 4 h -6 Z", x - 3.0, y + 2.0);
    }
    d
}
