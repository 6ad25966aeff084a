//! Window bands: one per window of each key, stacked in rows (sliding windows overlap), with the
//! hatched allowed-lateness extension, the state bar, and the animations of the step just taken.

use crate::ui::scene::Items;

use yew::prelude::*;

use super::px::px;
use crate::engine::time::format_millis;
use crate::ui::scene::glyph::Shape;
use crate::ui::scene::label::window as window_name;
use crate::ui::scene::{WindowGroup, WindowItem, focus_key};

/// The window bands, one memoised group per lane: a drag that changes one lane's windows
/// redraws only that lane.
pub fn windows(groups: &[WindowGroup]) -> Html {
    html! {
        <g class="windows">
            { for groups.iter().map(|g| html! { <WindowLane key={g.lane} items={g.items.clone()} /> }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct WindowLaneProps {
    items: Items<WindowItem>,
}

#[component]
fn WindowLane(p: &WindowLaneProps) -> Html {
    html! { <>{ for p.items.iter().map(|w| html! { <WindowBand key={w.node_key()} item={w.clone()} /> }) }</> }
}

#[derive(Properties, PartialEq)]
struct WindowBandProps {
    item: WindowItem,
}

/// A fired window is marked as an on-time element is drawn, a late-fired one as a late one.
pub(super) fn state_shape(state: &str) -> Option<Shape> {
    match state {
        "fired" => Some(Shape::Circle),
        "late-fired" => Some(Shape::Diamond),
        _ => None,
    }
}

/// One window band.
#[component]
fn WindowBand(p: &WindowBandProps) -> Html {
    let w = &p.item;
    let (x0, y, width, h) = (w.x0, w.y, w.width, w.height);
    let (start, end) = w.bounds.map_or((String::new(), String::new()), |(a, b)| (a.to_string(), b.to_string()));
    let class = classes!(
        "window",
        format!("state-{}", w.state),
        w.born.is_some().then_some("born"),
        w.merging.then_some("merging")
    );
    let hatch = match (w.hatch_px, w.bounds) {
        (Some(hw), Some((_, end))) => html! {
            <rect class="lateness" x={px(x0 + width + 1.0)} y={px(y)} width={px(hw)} height={px(h)}>
                <title>{ format!("allowed lateness: until the cleanup time {}", format_millis(end.wrapping_sub(1).saturating_add(w.lateness))) }</title>
            </rect>
        },
        _ => Html::default(),
    };
    // A merged-away session is drawn, not focused.
    let (focus, tabindex) = if w.merged { (None, None) } else { (Some(focus_key(&w.id)), Some(w.tab.tabindex())) };
    html! {
        <g {class} style={w.born.as_ref().map(|s| s.to_string())} data-testid="window" data-key={w.key_name.to_string()} data-start={start} data-end={end}
           data-state={w.state} data-count={w.count.to_string()} data-focus={focus} {tabindex} role="img" aria-describedby="desc-window">
            { hatch }
            <rect class="band" x={px(x0)} y={px(y)} width={px(width)} height={px(h)} rx="3" />
            if w.live {
                <rect class="statebar" x={px(x0)} y={px(y + h - 4.0)} width={px(width * w.fill)} height="3" />
            }
            if let Some(style) = &w.emptying {
                <rect class="statebar emptying" x={px(x0)} y={px(y + h - 4.0)} width={px(width)} height="3" style={style.to_string()} />
            }
            if let Some(pulse) = &w.pulse {
                <rect class="fx-pulse" x={px(x0)} y={px(y)} width={px(width)} height={px(h)} rx="3" style={pulse.to_string()} />
            }
            // The state's shape at the band's right end, as its element outcome is drawn: colour is
            // never the only signal (a purged or cleaned band is dashed, an open one plain).
            if let (Some(shape), true) = (state_shape(w.state), width > 16.0) {
                <path class="state-mark" d={shape.path(x0 + width - 8.0, y + 6.0, 3.5)} />
            }
            if let Some(label) = w.label.text(w.count) {
                <text class="band-label" x={px(x0.max(0.0) + 5.0)} y={px(y + h / 2.0 + 3.0)}>{ label }</text>
            }
            <title>{ window_name(w) }</title>
        </g>
    }
}
