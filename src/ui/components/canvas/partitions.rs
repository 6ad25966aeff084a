//! The source partitions' tracks: per partition a thin band with its own watermark line (the
//! last watermark it emitted), the word **idle** and a hatched band while idle, and "holds the
//! watermark back" on the partition whose watermark is the combined one the windows see. With
//! one partition emitting per event there is no track (its watermark is the operator's line):
//! only the test contract's node is written.

use yew::prelude::*;

use super::px::px;
use crate::ui::scene::label::partition as partition_name;
use crate::ui::scene::layout::dims;
use crate::ui::scene::{PartitionItem, focus_key};

/// A handful of tracks, redrawn with the scene (no memoised component: each costs the main
/// bundle more than redrawing eight small groups does).
pub fn partitions(items: &[PartitionItem], width: f64) -> Html {
    html! {
        <g class="partitions">
            { for items.iter().map(|p| track(p, width)) }
        </g>
    }
}

fn track(p: &PartitionItem, width: f64) -> Html {
    let (wm, idle) = (p.wm.to_string(), p.idle.to_string());
    if !p.drawn {
        return html! {
            <g class="partition-track undrawn" data-testid="partition-watermark" data-partition={p.partition.to_string()}
               data-wm={wm} data-idle={idle} data-holds={p.holds.to_string()} visibility="hidden" />
        };
    }
    let (y, h) = (p.y, dims::TRACK);
    let class = classes!("partition-track", p.idle.then_some("idle"), p.holds.then_some("holds"));
    html! {
        <g {class} data-testid="partition-watermark" data-partition={p.partition.to_string()} data-wm={wm}
           data-idle={idle} data-holds={p.holds.to_string()} data-focus={focus_key(&p.id)} tabindex={p.tab.tabindex()}>
            <rect class="track-bg" x="0" y={px(y + 1.0)} width={px(width)} height={px(h - 2.0)} />
            <rect class="track-fill" x="0" y={px(y + 4.0)} width={px(p.x)} height={px(h - 8.0)} />
            if p.idle {
                <rect class="lateness track-idle" x="0" y={px(y + 1.0)} width={px(width)} height={px(h - 2.0)} />
            }
            <line class="track-wm" x1={px(p.x)} x2={px(p.x)} y1={px(y + 1.0)} y2={px(y + h - 1.0)} />
            <text class="track-label" x="6" y={px(y + 15.0)}>
                { p.text.clone() }
                if !p.state_text.is_empty() {
                    <tspan class="track-state" dx="8">{ if p.idle { format!("IDLE · {}", p.state_text) } else { format!("◀ {}", p.state_text) } }</tspan>
                }
            </text>
            <title>{ partition_name(p) }</title>
        </g>
    }
}
