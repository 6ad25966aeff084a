//! The key lanes' backgrounds, and the late side output lane with its marbles.

use std::rc::Rc;

use yew::prelude::*;

use super::px::px;
use crate::ui::scene::focus_key;
use crate::ui::scene::glyph::Shape;
use crate::ui::scene::label::late_element;
use crate::ui::scene::layout::dims;
use crate::ui::scene::{LaneItem, SideLane, SideMarbleItem};

/// The lanes, each a direct child of the `<svg>`, every other one shaded darker.
pub fn lanes(lanes: &[LaneItem]) -> Html {
    html! {
        <>
            { for lanes.iter().enumerate().map(|(i, lane)| html! {
                <g class="lane" key={lane.key.to_string()} data-testid="lane" data-key={lane.key.to_string()}>
                    // Hidden on the page, where the `<svg>`'s background shades the lanes
                    // (`backend::lane_shading`); shown in an exported SVG and in forced colours.
                    <rect class={classes!("lane-bg", (i % 2 == 1).then_some("alt"))} x="0" y={px(lane.y)} width="100%" height={px(lane.height)} />
                    <text class="lane-label" x="6" y={px(lane.y + 12.0)}>{ format!("key {}", lane.key) }</text>
                </g>
            }) }
        </>
    }
}

/// The side output lane and its marbles.
pub fn side_lane(s: &SideLane) -> Html {
    let title =
        if s.enabled { "late side output (sideOutputLateData)" } else { "no side output: late elements are dropped" };
    html! {
        <g class={classes!("side-lane", (!s.enabled).then_some("off"))} data-testid="side-output-lane">
            <rect class="side-lane-bg" x="0" y={px(s.y)} width="100%" height={px(dims::SIDE_LANE)} />
            <text class="lane-label" x="6" y={px(s.y + 12.0)}>{ title }</text>
            { for s.groups.iter().map(|(chunk, items)| html! { <SideMarbles key={*chunk} items={items.clone()} /> }) }
        </g>
    }
}

/// The side output lane's marbles alone (the canvas backend's overlay: the lane is on the canvas).
pub fn side_marbles(s: &SideLane) -> Html {
    html! {
        <g class="side-lane" data-testid="side-output-lane">
            { for s.groups.iter().map(|(chunk, items)| html! { <SideMarbles key={*chunk} items={items.clone()} /> }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct SideMarblesProps {
    items: Rc<[SideMarbleItem]>,
}

/// A group of the side output's marbles: a drag redraws only the group whose elements changed.
#[component]
fn SideMarbles(p: &SideMarblesProps) -> Html {
    html! { <>{ for p.items.iter().map(|m| html! { <SideMarble key={m.elem} item={m.clone()} /> }) }</> }
}

#[derive(Properties, PartialEq)]
struct SideMarbleProps {
    item: SideMarbleItem,
}

#[component]
fn SideMarble(p: &SideMarbleProps) -> Html {
    let m = &p.item;
    let title = html! { <title>{ late_element(m) }</title> };
    let focus = focus_key(&m.id);
    match m.drop_in.clone() {
        // The drop-in animation moves an inner group: a CSS `transform` on the translated group
        // would replace its `transform` attribute and draw the marble at x = 0.
        Some(style) => html! {
            <g data-testid="side-output-element" data-id={m.elem_id.to_string()} data-focus={focus} tabindex={m.tab.tabindex()} role="img" aria-describedby="desc-late"
               transform={format!("translate({},{})", px(m.x), px(m.y))}>
                <g class="side-marble drop-in" style={style.to_string()}>
                    <path class="body" d={Shape::Triangle.path(0.0, 0.0, dims::MARBLE_R - 1.0)} />
                    if m.label {
                        <text class="marble-text" y="4" text-anchor="middle">{ m.elem_id }</text>
                    }
                    { title }
                </g>
            </g>
        },
        // Absolute coordinates otherwise: a transform per marble costs the compositor a node each.
        None => html! {
            <g class="side-marble" data-testid="side-output-element" data-id={m.elem_id.to_string()} data-focus={focus}
               tabindex={m.tab.tabindex()} role="img" aria-describedby="desc-late">
                <path class="body" d={Shape::Triangle.path(m.x, m.y, dims::MARBLE_R - 1.0)} />
                if m.label {
                    <text class="marble-text" x={px(m.x)} y={px(m.y + 4.0)} text-anchor="middle">{ m.elem_id }</text>
                }
                { title }
            </g>
        },
    }
}
