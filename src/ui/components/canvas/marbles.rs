//! The elements' marbles in their key lanes, in memoised groups (one lane, 64 input items each),
//! so that a drag redraws the group of the element it moves, not all 2,000.

use yew::prelude::*;

use super::px::px;
use crate::engine::view::ElementOutcome;
use crate::ui::scene::glyph::Shape;
use crate::ui::scene::label::element as element_name;
use crate::ui::scene::layout::dims;
use crate::ui::scene::{MARBLE_HIT_R, MarbleGroup, MarbleItem, focus_key, outcome_class};

/// Up to this many elements each marble has a hit ring (`.hit`, 5 px around it): the pointer
/// shows a drag's cursor wherever a press grabs the element (`Scene::hit`). Above, the rings
/// are left out: where marbles crowd they overlap anyway, and one circle per marble was an
/// eighth of what Chromium painted again at a rest mid-drag at 2,000 elements (6 ms of a 60 ms
/// frame on a slow hour); the press still grabs within the ring.
pub const HIT_RING_MAX: usize = 500;

/// The marbles of `groups`, of a drawing of `elements` marbles (the canvas backend's overlay: its
/// few, each with its ring).
pub fn marbles(groups: &[MarbleGroup], elements: usize) -> Html {
    let ring = elements <= HIT_RING_MAX;
    html! {
        <g class="marbles">
            { for groups.iter().map(|g| html! { <Group key={g.key.to_string()} group={g.clone()} {ring} /> }) }
        </g>
    }
}

/// The marble of an element lifted out of the scene while it is dragged (`Scene::lifted`): a
/// drawing with the element's test id and data, not a control (the marble it was lifted from keeps
/// the focus, the Tab stop and the name, `MarbleItem::origin`).
pub fn lifted_marble(m: &MarbleItem) -> Html {
    html! { <Marble key={m.index} item={m.clone()} drawing=true /> }
}

#[derive(Properties, PartialEq)]
struct GroupProps {
    group: MarbleGroup,
    ring: bool,
}

#[component]
fn Group(p: &GroupProps) -> Html {
    let ring = p.ring;
    html! { <>{ for p.group.items.iter().map(|m| html! { <Marble key={m.index} item={m.clone()} {ring} /> }) }</> }
}

#[derive(Properties, PartialEq)]
struct MarbleProps {
    item: MarbleItem,
    /// With its hit ring (`HIT_RING_MAX`).
    #[prop_or_default]
    ring: bool,
    /// Drawn only: no focus, Tab stop, role or name (the lifted copy of a dragged element).
    #[prop_or_default]
    drawing: bool,
}

/// One element. A component so that a drag redraws only the marbles whose items changed.
#[component]
fn Marble(p: &MarbleProps) -> Html {
    let m = &p.item;
    let class = classes!(
        "marble",
        outcome_class(m.outcome),
        m.selected.then_some("selected"),
        m.anim.is_some().then_some("arrive")
    );
    let dropped = matches!(m.outcome, Some(ElementOutcome::Dropped { .. }));
    let shape = Shape::of(m.outcome);
    let control = !p.drawing;
    let testid = if m.origin { "element-origin" } else { "element" };
    html! {
        // Absolute coordinates rather than a transform per marble: 500 transforms cost the
        // compositor more than 500 numbers.
        <g {class} style={m.anim.as_ref().map(|s| s.to_string())} data-testid={testid} data-id={m.elem_id.to_string()} data-key={m.key_name.to_string()}
           data-ts={m.ts.to_string()} data-index={m.index.to_string()} data-outcome={m.outcome.map_or("not-arrived", |o| o.label())}
           data-drag={control.then(|| format!("e:{}", m.index))} data-focus={control.then(|| focus_key(&m.id))}
           tabindex={control.then(|| m.tab.tabindex())} role={control.then_some("button")} aria-describedby={control.then_some("desc-element")}>
            if p.ring {
                <circle class="hit" cx={px(m.x)} cy={px(m.y)} r={px(MARBLE_HIT_R)} />
            }
            <path class="body" d={shape.path(m.x, m.y, dims::MARBLE_R)} />
            // The id only where it has room (`MarbleItem::label`).
            if m.label {
                <text class="marble-text" x={px(m.x)} y={px(m.y + 4.0)} text-anchor="middle">{ m.elem_id }</text>
            }
            if dropped {
                <path class={classes!("cross", m.crossing.is_some().then_some("crossing"))} style={m.crossing.as_ref().map(|s| s.to_string())}
                      d={format!("M {} {} l 16 16 m 0 -16 l -16 16", px(m.x - 8.0), px(m.y - 8.0))} />
            }
            if control {
                <title>{ element_name(m) }</title>
            }
        </g>
    }
}
