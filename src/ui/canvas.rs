//! The event-time canvas: an SVG drawn from the state on every change. Gestures are turned
//! into event-time values at once (`millis_from_px`) and sent to the reducer; nothing here
//! changes the model directly.
//!
//! One set of pointer handlers sits on the `<svg>` root and finds what was hit through the
//! `data-drag` attribute (`e:<input index>` for an element, `wm` for the watermark), so 500
//! marbles cost no closures.

use std::collections::BTreeMap;

use wasm_bindgen::JsCast;
use web_sys::{Element as DomElement, HtmlElement, PointerEvent, WheelEvent};
use yew::prelude::*;

use crate::engine::scenario::{InputItem, WatermarkSpec};
use crate::engine::time::{LONG_MAX, LONG_MIN, format_millis};
use crate::engine::view::{ElementOutcome, TimerStatus, WindowState};
use crate::engine::{Millis, Window};

use super::geometry::{
    Viewport, clamp_px, format_duration, millis_from_px, millis_from_px_f64, px_from_millis, snap, ticks,
};
use super::model::{Effect, Lane, dims, result_text};
use super::state::{Action, AppState, Drag, DragStart, Menu, MenuTarget, STEP_MILLIS, WatermarkTarget};

#[derive(Properties, PartialEq)]
pub struct CanvasProps {
    pub state: UseReducerHandle<AppState>,
}

fn px(v: f64) -> String {
    format!("{:.1}", clamp_px(v))
}

fn x_of(vp: &Viewport, ts: Millis) -> f64 {
    clamp_px(px_from_millis(vp, ts))
}

/// Pointer position in canvas units (CSS px / scale) relative to the canvas. (Yew delegates
/// events, so `current_target` is not the `<svg>`: the node ref is.)
fn local_xy(e: &MouseEvent, svg: &NodeRef, scale: f64) -> Option<(f64, f64)> {
    let el: DomElement = svg.cast()?;
    let r = el.get_bounding_client_rect();
    Some(((f64::from(e.client_x()) - r.left()) / scale, (f64::from(e.client_y()) - r.top()) / scale))
}

/// The `data-drag` value of what the pointer hit.
fn drag_target(e: &Event) -> Option<String> {
    let el: DomElement = e.target()?.dyn_into().ok()?;
    el.closest("[data-drag]").ok().flatten()?.get_attribute("data-drag")
}

fn parse_drag(s: &str) -> Option<DragStart> {
    if s == "wm" {
        return Some(DragStart::Watermark);
    }
    s.strip_prefix("e:")?.parse().ok().map(DragStart::Element)
}

fn blur_active_field() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .and_then(|a| a.dyn_into::<HtmlElement>().ok())
    {
        let _ = el.blur();
    }
}

fn lane_at(lanes: &[Lane], y: f64) -> Option<&Lane> {
    lanes.iter().find(|l| y >= l.y && y < l.y + l.height)
}

/// Delay of an effect (its place in the step's trace order), scaled to the playback speed.
fn delay_style(order: usize, n: usize, speed: f64) -> String {
    let per = (STEP_MILLIS * 0.7 / n.max(1) as f64).min(160.0);
    format!("animation-delay: {:.0}ms", order as f64 * per / speed)
}

#[component]
pub fn Canvas(props: &CanvasProps) -> Html {
    let state = props.state.clone();
    let s: &AppState = &state;
    let vp = s.viewport;
    let layout = &s.layout;
    let scene = &s.scene;
    let view = &scene.view;
    let dragging = s.drag.is_some();
    let height = if s.two_d { two_d_height(s) } else { layout.height };
    let scale = s.scale;
    let svg_ref = use_node_ref();
    // The canvas' page position, taken when a drag starts: reading it on every move would
    // force a layout of the whole document per frame.
    let origin = use_mut_ref(|| (0.0f64, 0.0f64));
    // Touch pinch: the x of each finger down, and the distance between two at the last move.
    let touches = use_mut_ref(BTreeMap::<i32, f64>::new);
    let pinch = use_mut_ref(|| None::<f64>);

    let onpointerdown = {
        let state = state.clone();
        let svg_ref = svg_ref.clone();
        let origin = origin.clone();
        let (touches, pinch) = (touches.clone(), pinch.clone());
        Callback::from(move |e: PointerEvent| {
            if e.button() != 0 {
                return;
            }
            if let Some(el) = svg_ref.cast::<DomElement>() {
                let r = el.get_bounding_client_rect();
                *origin.borrow_mut() = (r.left(), r.top());
            }
            if e.pointer_type() == "touch" {
                let mut t = touches.borrow_mut();
                t.insert(e.pointer_id(), f64::from(e.client_x()));
                if t.len() >= 2 {
                    // A second finger: pinch zoom instead of a drag.
                    let xs: Vec<f64> = t.values().copied().collect();
                    *pinch.borrow_mut() = Some((xs[0] - xs[1]).abs());
                    if let Some(svg) = svg_ref.cast::<DomElement>() {
                        let _ = svg.set_pointer_capture(e.pointer_id());
                    }
                    if dragging {
                        state.dispatch(Action::DragEnd);
                    }
                    return;
                }
            }
            let Some((x, _)) = local_xy(&e, &svg_ref, scale) else { return };
            let what = match drag_target(&e) {
                Some(t) => match parse_drag(&t) {
                    Some(w) => w,
                    None => return,
                },
                None => DragStart::Pan,
            };
            blur_active_field();
            if let Some(svg) = svg_ref.cast::<DomElement>() {
                let _ = svg.set_pointer_capture(e.pointer_id());
            }
            e.prevent_default();
            state.dispatch(Action::DragStart { what, px: x, millis: millis_from_px_f64(&vp, x) });
        })
    };
    let onpointermove = {
        let state = state.clone();
        let origin = origin.clone();
        let (touches, pinch) = (touches.clone(), pinch.clone());
        Callback::from(move |e: PointerEvent| {
            let pinching = pinch.borrow().is_some();
            if pinching {
                if let Some(slot) = touches.borrow_mut().get_mut(&e.pointer_id()) {
                    *slot = f64::from(e.client_x());
                }
                let xs: Vec<f64> = touches.borrow().values().copied().collect();
                if let (Some(a), Some(b), Some(last)) = (xs.first(), xs.get(1), *pinch.borrow()) {
                    let d = (a - b).abs();
                    if last > 10.0 && d > 10.0 {
                        let mid = ((a + b) / 2.0 - origin.borrow().0) / scale;
                        state.dispatch(Action::ZoomAt { px: mid, factor: d / last });
                    }
                    *pinch.borrow_mut() = Some(d);
                }
                return;
            }
            if !dragging {
                return;
            }
            let x = (f64::from(e.client_x()) - origin.borrow().0) / scale;
            state.dispatch(Action::DragMove { px: x, millis: millis_from_px_f64(&vp, x) });
        })
    };
    let onpointerup = {
        let state = state.clone();
        let (touches, pinch) = (touches.clone(), pinch.clone());
        Callback::from(move |e: PointerEvent| {
            touches.borrow_mut().remove(&e.pointer_id());
            if touches.borrow().len() < 2 && pinch.borrow_mut().take().is_some() {
                return;
            }
            if dragging {
                state.dispatch(Action::DragEnd);
            }
        })
    };
    let onwheel = {
        let state = state.clone();
        let svg_ref = svg_ref.clone();
        Callback::from(move |e: WheelEvent| {
            let Some((x, _)) = local_xy(&e, &svg_ref, scale) else { return };
            e.prevent_default();
            let (dx, dy) = (e.delta_x(), e.delta_y());
            if e.shift_key() || dx.abs() > dy.abs() {
                let d = if dx.abs() > dy.abs() { dx } else { dy };
                state.dispatch(Action::PanBy { dx_px: -d });
            } else {
                // Mouse wheel and trackpad pinch (ctrl+wheel) zoom around the pointer.
                let k = if e.ctrl_key() { 0.01 } else { 0.0015 };
                state.dispatch(Action::ZoomAt { px: x, factor: (-dy * k).exp() });
            }
        })
    };
    let oncontextmenu = {
        let state = state.clone();
        let svg_ref = svg_ref.clone();
        let lanes = layout.lanes.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            let Some((x, y)) = local_xy(&e, &svg_ref, scale) else { return };
            let unit = super::geometry::snap_unit_millis(&vp);
            let target = match drag_target(&e).as_deref().and_then(parse_drag) {
                Some(DragStart::Element(i)) => MenuTarget::Element(i),
                _ => MenuTarget::Canvas {
                    ts: snap(millis_from_px(&vp, x), unit),
                    key: lane_at(&lanes, y).map(|l| l.key.clone()),
                },
            };
            state.dispatch(Action::OpenMenu(Menu {
                x_px: f64::from(e.client_x()),
                y_px: f64::from(e.client_y()),
                target,
            }));
        })
    };
    let ondblclick = {
        let state = state.clone();
        let svg_ref = svg_ref.clone();
        let lanes = layout.lanes.clone();
        Callback::from(move |e: MouseEvent| {
            if drag_target(&e).is_some() {
                return;
            }
            let Some((x, y)) = local_xy(&e, &svg_ref, scale) else { return };
            let unit = super::geometry::snap_unit_millis(&vp);
            state.dispatch(Action::AddElement {
                key: lane_at(&lanes, y).map(|l| l.key.clone()),
                ts: Some(snap(millis_from_px(&vp, x), unit)),
            });
        })
    };

    let class = classes!(
        "canvas",
        s.animate.then_some("animate"),
        dragging.then_some("dragging"),
        matches!(s.drag, Some(Drag::Pan { .. })).then_some("panning")
    );
    let style = format!("--fx-ms: {:.0}ms", 520.0 / s.speed);
    html! {
        <svg
            ref={svg_ref}
            {class}
            {style}
            data-testid="canvas"
            width={px(vp.width_px * scale)}
            height={px(height * scale)}
            viewBox={format!("0 0 {} {}", px(vp.width_px), px(height))}
            role="application"
            aria-label="Event-time canvas: drag elements and the watermark"
            {onpointerdown}
            {onpointermove}
            onpointerup={onpointerup.clone()}
            onpointercancel={onpointerup}
            {onwheel}
            {oncontextmenu}
            {ondblclick}
        >
            <defs>
                <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <line x1="0" y1="0" x2="0" y2="6" class="hatch-line" />
                </pattern>
            </defs>
            { axis(s, height) }
            if s.two_d {
                { two_d(s) }
            } else {
                { for layout.lanes.iter().map(lane_background) }
                { side_lane(s) }
                { windows(s) }
                { timers(s) }
                { marbles(s) }
                { effects(s) }
            }
            { watermark(s, height) }
            { drag_label(s) }
            if view.step == 0 && !s.two_d {
                <text class="hint" x={px(vp.width_px / 2.0)} y={px(dims::AXIS_HEIGHT + 30.0)} text-anchor="middle">
                    { "Before the first input item: press → or ▶ to start" }
                </text>
            }
        </svg>
    }
}

fn axis(s: &AppState, height: f64) -> Html {
    let vp = &s.viewport;
    let ts = ticks(vp);
    html! {
        <g class="axis" data-testid="axis">
            <rect class="axis-bg" x="0" y="0" width={px(vp.width_px)} height={px(dims::AXIS_HEIGHT - 4.0)} />
            { for ts.iter().map(|t| {
                // Labels stay inside the canvas at both edges.
                let half = t.label.chars().count() as f64 * 3.8 + 2.0;
                let lx = t.px.clamp(half, (vp.width_px - half).max(half));
                html! {
                    <g class="tick" key={t.millis.to_string()}>
                        <line class="grid" x1={px(t.px)} x2={px(t.px)} y1={px(dims::AXIS_HEIGHT - 10.0)} y2={px(height)} />
                        <text class="tick-label" x={px(lx)} y="14" text-anchor="middle">{ &t.label }</text>
                    </g>
                }
            }) }
            <text class="axis-title" x="6" y="30">{ "event time →" }</text>
            // Processing-time windows have processing-time bounds, but the marbles sit at their
            // event time: say so, or the bands look as if they miss their own elements.
            if !s.scenario.assigner.is_event_time() {
                <text class="axis-title axis-domain-note" x="90" y="30" data-testid="axis-domain-note">
                    { "· windows: processing time (arrival); marbles: event time" }
                </text>
            }
        </g>
    }
}

fn lane_background(lane: &Lane) -> Html {
    html! {
        <g class="lane" key={lane.key.clone()} data-testid="lane" data-key={lane.key.clone()}>
            <rect class="lane-bg" x="0" y={px(lane.y)} width="100%" height={px(lane.height)} />
            <text class="lane-label" x="6" y={px(lane.y + 12.0)}>{ format!("key {}", lane.key) }</text>
        </g>
    }
}

fn side_lane(s: &AppState) -> Html {
    let y = s.layout.side_lane_y;
    let vp = &s.viewport;
    let view = &s.scene.view;
    let title = if s.scenario.side_output {
        "late side output (sideOutputLateData)"
    } else {
        "no side output: late elements are dropped"
    };
    let dropping = s.scene.effects.len();
    let items: Vec<SideMarbleProps> = view
        .elements
        .iter()
        .enumerate()
        .filter_map(|(i, o)| {
            if *o != Some(ElementOutcome::SideOutput) {
                return None;
            }
            let el = s.run.elements.get(i)?;
            // Only an animated step has effects to look up.
            let drop_in = s
                .animate
                .then(|| s.scene.effect_order(|e| matches!(e, Effect::SideOutput { elem } if *elem as usize == i)))
                .flatten()
                .map(|o| {
                    let from_y = s.layout.lane_of_key(el.key).map_or(y, |l| l.marble_y());
                    AttrValue::from(format!(
                        "--from-dy: {:.0}px; {}",
                        from_y - (y + 26.0),
                        delay_style(o, dropping, s.speed)
                    ))
                });
            Some(SideMarbleProps {
                elem: i,
                id: el.id,
                ts: el.ts,
                x: (x_of(vp, el.ts) * 10.0).round() / 10.0,
                y: y + 26.0,
                drop_in,
            })
        })
        .collect();
    html! {
        <g class={classes!("side-lane", (!s.scenario.side_output).then_some("off"))} data-testid="side-output-lane">
            <rect class="side-lane-bg" x="0" y={px(y)} width="100%" height={px(dims::SIDE_LANE)} />
            <text class="lane-label" x="6" y={px(y + 12.0)}>{ title }</text>
            { for side_groups(items).into_iter().map(|(chunk, items)| html! { <SideMarbles key={chunk} {items} /> }) }
        </g>
    }
}

/// How many elements (by input index or ordinal) one memoised group of marbles holds: a drag
/// re-renders the group of the element it moves, not all 2,000.
const GROUP_SIZE: usize = 64;

/// The side marbles in groups of elements whose ordinals share `ordinal / GROUP_SIZE`, in order.
fn side_groups(items: Vec<SideMarbleProps>) -> BTreeMap<usize, Vec<SideMarbleProps>> {
    let mut groups: BTreeMap<usize, Vec<SideMarbleProps>> = BTreeMap::new();
    for m in items {
        groups.entry(m.elem / GROUP_SIZE).or_default().push(m);
    }
    groups
}

#[derive(Properties, PartialEq)]
struct SideMarblesProps {
    items: Vec<SideMarbleProps>,
}

/// A group of the side output's marbles: a component, so that a drag re-renders only the group
/// whose elements changed.
#[component]
fn SideMarbles(p: &SideMarblesProps) -> Html {
    html! { <>{ for p.items.iter().map(|m| html! { <SideMarble key={m.elem} ..m.clone() /> }) }</> }
}

#[derive(Properties, PartialEq, Clone)]
struct SideMarbleProps {
    /// Ordinal of the element in the run.
    elem: usize,
    id: i64,
    ts: Millis,
    x: f64,
    y: f64,
    /// The drop-in animation's style (`--from-dy` and delay), when it went there in the step just taken.
    drop_in: Option<AttrValue>,
}

#[component]
fn SideMarble(p: &SideMarbleProps) -> Html {
    let title = html! { <title>{ format!("element {} (ts {}) went to the late side output", p.id, format_millis(p.ts)) }</title> };
    match p.drop_in.clone() {
        // The drop-in animation moves an inner group: a CSS `transform` on the translated group
        // would replace its `transform` attribute and draw the marble at x = 0.
        Some(style) => html! {
            <g data-testid="side-output-element" data-id={p.id.to_string()}
               transform={format!("translate({},{})", px(p.x), px(p.y))}>
                <g class="side-marble drop-in" {style}>
                    <circle r={px(dims::MARBLE_R - 1.0)} />
                    <text class="marble-text" y="4" text-anchor="middle">{ p.id }</text>
                    { title }
                </g>
            </g>
        },
        // Absolute coordinates otherwise: a transform per marble costs the compositor a node each.
        None => html! {
            <g class="side-marble" data-testid="side-output-element" data-id={p.id.to_string()}>
                <circle cx={px(p.x)} cy={px(p.y)} r={px(dims::MARBLE_R - 1.0)} />
                <text class="marble-text" x={px(p.x)} y={px(p.y + 4.0)} text-anchor="middle">{ p.id }</text>
                { title }
            </g>
        },
    }
}

fn windows(s: &AppState) -> Html {
    let vp = &s.viewport;
    let view = &s.scene.view;
    let lateness = s.scenario.lateness();
    let max_contents = view.windows.iter().map(|w| w.contents.len()).max().unwrap_or(1).max(1);
    let n_fx = s.scene.effects.len();
    let items = view.windows.iter().enumerate().filter_map(|(wi, w)| {
        let lane = s.layout.lane_of_key(w.key)?;
        let merged = matches!(w.state, WindowState::Merged { .. });
        let row = if merged { 0 } else { s.layout.row_of(w.key, &w.window) };
        let (x0, x1, bounds) = match w.window {
            Window::Global => (-2.0, vp.width_px + 2.0, None),
            Window::Time(tw) => {
                let x1 = if tw.end >= tw.start { x_of(vp, tw.end) } else { vp.width_px + 2.0 };
                (x_of(vp, tw.start), x1, Some((tw.start, tw.end)))
            }
        };
        let width = (x1 - x0 - 1.0).max(2.0);
        let last = s.scene.last_fire.get(wi).copied().flatten();
        let label = match w.state {
            WindowState::Merged { .. } => String::new(),
            WindowState::CleanedUp if width > 80.0 => "cleaned up".to_string(),
            WindowState::CleanedUp => String::new(),
            _ => {
                let n = w.contents.len();
                match (width, last) {
                    (w, Some(_)) if w > 150.0 => format!("{n} in state · {}", result_text(&s.scenario, &s.run, last)),
                    (w, Some(_)) if w > 70.0 => format!("{n} · {}", result_text(&s.scenario, &s.run, last)),
                    (w, None) if w > 90.0 => format!("{n} in state"),
                    _ => n.to_string(),
                }
            }
        };
        let hatch_px = match w.window {
            Window::Time(tw) if lateness > 0 && w.state.is_live() && tw.end > tw.start => {
                Some((x_of(vp, tw.end.saturating_add(lateness)) - x1).max(0.0))
            }
            _ => None,
        };
        let order = |f: &dyn Fn(&Effect) -> bool| s.animate.then(|| s.scene.effect_order(f)).flatten();
        let born =
            order(&|e| matches!(e, Effect::WindowCreated { key, window } if *key == w.key && *window == w.window));
        let fired = order(&|e| matches!(e, Effect::Fired { key, window, .. } if *key == w.key && *window == w.window));
        let emptied =
            order(&|e| matches!(e, Effect::CleanedUp { key, window } if *key == w.key && *window == w.window));
        let merging = s.animate && merged && w.ended_step.is_some_and(|e| e + 1 == view.step);
        let fill = w.contents.len() as f64 / max_contents as f64;
        let key = AttrValue::from(format!("{}:{:?}:{}", w.key, bounds, merged));
        let band = WindowBandProps {
            key_name: AttrValue::from(s.run.key_name(w.key).to_string()),
            bounds,
            state: w.state.label(),
            live: w.state.is_live(),
            count: w.contents.len(),
            firings: w.firings,
            label: AttrValue::from(label),
            x0,
            width,
            y: lane.row_y(row),
            hatch_px,
            lateness,
            fill: (fill * 1000.0).round() / 1000.0,
            merging,
            born: born.map(|o| AttrValue::from(delay_style(o, n_fx, s.speed))),
            pulse: fired.map(|o| AttrValue::from(delay_style(o, n_fx, s.speed))),
            emptying: emptied.map(|o| AttrValue::from(delay_style(o, n_fx, s.speed))),
        };
        Some((s.layout.lane_of_run_key.get(w.key as usize).copied().unwrap_or(0), key, band))
    });
    // One group per lane: a drag that changes one lane's windows re-renders only that lane.
    let mut groups: BTreeMap<usize, Vec<(AttrValue, WindowBandProps)>> = BTreeMap::new();
    for (lane, key, band) in items {
        groups.entry(lane).or_default().push((key, band));
    }
    html! {
        <g class="windows">
            { for groups.into_iter().map(|(lane, items)| html! { <WindowGroup key={lane} {items} /> }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct WindowGroupProps {
    items: Vec<(AttrValue, WindowBandProps)>,
}

#[component]
fn WindowGroup(p: &WindowGroupProps) -> Html {
    html! { <>{ for p.items.iter().map(|(key, band)| html! { <WindowBand key={key.as_str()} ..band.clone() /> }) }</> }
}

#[derive(Properties, PartialEq, Clone)]
struct WindowBandProps {
    key_name: AttrValue,
    /// `None`: the global window.
    bounds: Option<(Millis, Millis)>,
    state: &'static str,
    live: bool,
    count: usize,
    firings: u32,
    label: AttrValue,
    x0: f64,
    width: f64,
    y: f64,
    /// Width of the allowed-lateness extension, when drawn.
    hatch_px: Option<f64>,
    lateness: Millis,
    /// Contents relative to the fullest window (the state bar).
    fill: f64,
    merging: bool,
    /// Animation delays: the window fades in / pulses (fires) / has its state emptied by the
    /// cleanup in the step just taken.
    born: Option<AttrValue>,
    pulse: Option<AttrValue>,
    emptying: Option<AttrValue>,
}

/// One window band. A component so that a drag re-renders only the windows that changed.
#[component]
fn WindowBand(p: &WindowBandProps) -> Html {
    let h = dims::WINDOW_ROW - 4.0;
    let (x0, y, width) = (p.x0, p.y, p.width);
    let (start, end) = p.bounds.map_or((String::new(), String::new()), |(a, b)| (a.to_string(), b.to_string()));
    let class = classes!(
        "window",
        format!("state-{}", p.state),
        p.born.is_some().then_some("born"),
        p.merging.then_some("merging"),
    );
    let title = format!(
        "key {} window {} — {} · {} element(s) in state · {} firing(s)",
        p.key_name,
        p.bounds.map_or("GlobalWindow".to_string(), |(a, b)| format!("[{}, {})", format_millis(a), format_millis(b))),
        p.state,
        p.count,
        p.firings
    );
    let hatch = match (p.hatch_px, p.bounds) {
        (Some(w), Some((_, end))) => html! {
            <rect class="lateness" x={px(x0 + width + 1.0)} y={px(y)} width={px(w)} height={px(h)}>
                <title>{ format!("allowed lateness: until the cleanup time {}", format_millis(end.wrapping_sub(1).saturating_add(p.lateness))) }</title>
            </rect>
        },
        _ => Html::default(),
    };
    html! {
        <g {class} style={p.born.clone()} data-testid="window" data-key={p.key_name.clone()} data-start={start} data-end={end}
           data-state={p.state} data-count={p.count.to_string()}>
            { hatch }
            <rect class="band" x={px(x0)} y={px(y)} width={px(width)} height={px(h)} rx="3" />
            if p.live {
                <rect class="statebar" x={px(x0)} y={px(y + h - 4.0)} width={px(width * p.fill)} height="3" />
            }
            if let Some(style) = p.emptying.clone() {
                <rect class="statebar emptying" x={px(x0)} y={px(y + h - 4.0)} width={px(width)} height="3" {style} />
            }
            if let Some(pulse) = p.pulse.clone() {
                <rect class="fx-pulse" x={px(x0)} y={px(y)} width={px(width)} height={px(h)} rx="3" style={pulse} />
            }
            if !p.label.is_empty() {
                <text class="band-label" x={px(x0.max(0.0) + 5.0)} y={px(y + h / 2.0 + 3.0)}>{ p.label.clone() }</text>
            }
            <title>{ title }</title>
        </g>
    }
}

fn timers(s: &AppState) -> Html {
    let vp = &s.viewport;
    let n_fx = s.scene.effects.len();
    // One glyph per (key, time): the timer service deduplicates (key, window, time) anyway.
    let mut seen: BTreeMap<(u32, Millis), ()> = BTreeMap::new();
    let items = s.scene.view.timers.iter().filter_map(|t| {
        if seen.insert((t.key, t.time), ()).is_some() {
            return None;
        }
        let lane = s.layout.lane_of_key(t.key)?;
        let x = if t.time == LONG_MAX { vp.width_px - 8.0 } else { x_of(vp, t.time) };
        let kind = match (t.purpose.trigger, t.purpose.cleanup) {
            (true, true) => "both",
            (true, false) => "trigger",
            _ => "cleanup",
        };
        let flash = (s.animate && t.status == TimerStatus::Fired)
            .then(|| {
                s.scene
                    .effect_order(|e| matches!(e, Effect::TimerFired { key, time } if *key == t.key && *time == t.time))
            })
            .flatten();
        let born = s.animate
            && t.status == TimerStatus::Registered
            && s.scene
                .effects
                .iter()
                .any(|e| matches!(e, Effect::TimerRegistered { key, time } if *key == t.key && *time == t.time));
        Some(html! {
            <TimerGlyph key={format!("t{}:{}", t.key, t.time)} time={t.time} kind={kind} purpose={t.purpose.label()}
                status={t.status} x={(x * 10.0).round() / 10.0} y={lane.timer_y()} born={born}
                flash={flash.map(|o| AttrValue::from(delay_style(o, n_fx, s.speed)))} />
        })
    });
    html! { <g class="timers">{ for items }</g> }
}

#[derive(Properties, PartialEq)]
struct TimerProps {
    time: Millis,
    kind: &'static str,
    purpose: &'static str,
    status: TimerStatus,
    x: f64,
    y: f64,
    born: bool,
    flash: Option<AttrValue>,
}

/// A timer glyph: ▼ trigger timer, ■ cleanup timer; outlined when registered, filled when
/// fired, struck through when deleted.
#[component]
fn TimerGlyph(p: &TimerProps) -> Html {
    let class = classes!(
        "timer",
        format!("timer-{}", p.kind),
        format!("status-{}", p.status.label()),
        p.born.then_some("born")
    );
    let glyph = match p.kind {
        "cleanup" => html! { <rect x="-4" y="-4" width="8" height="8" /> },
        "both" => html! { <path d="M -5 -5 L 5 -5 L 0 4 Z M -3 2 L 3 2 L 3 6 L -3 6 Z" /> },
        _ => html! { <path d="M -5 -5 L 5 -5 L 0 4 Z" /> },
    };
    html! {
        <g {class} data-testid="timer" data-time={p.time.to_string()} data-purpose={p.purpose}
           data-status={p.status.label()} transform={format!("translate({},{})", px(p.x), px(p.y))}>
            { glyph }
            if p.status == TimerStatus::Deleted {
                <line class="strike" x1="-6" y1="-6" x2="6" y2="6" />
            }
            if let Some(style) = p.flash.clone() {
                <circle class="fx-flash" r="9" {style} />
            }
            <title>{ format!("{} timer at {} — {}", p.purpose, format_millis(p.time), p.status.label()) }</title>
        </g>
    }
}

fn outcome_class(o: Option<ElementOutcome>) -> &'static str {
    match o {
        None => "outcome-not-arrived",
        Some(o) => match o {
            ElementOutcome::Pending => "outcome-pending",
            ElementOutcome::OnTime => "outcome-on-time",
            ElementOutcome::InLateFiring => "outcome-late-firing",
            ElementOutcome::SideOutput => "outcome-side-output",
            ElementOutcome::Dropped { .. } => "outcome-dropped",
            ElementOutcome::Discarded => "outcome-discarded",
        },
    }
}

pub fn outcome_text(o: Option<ElementOutcome>) -> &'static str {
    match o {
        None => "not arrived yet",
        Some(ElementOutcome::Pending) => "in window state, not emitted yet",
        Some(ElementOutcome::OnTime) => "emitted on time",
        Some(ElementOutcome::InLateFiring) => "emitted in a late firing",
        Some(ElementOutcome::SideOutput) => "late: sent to the side output",
        Some(ElementOutcome::Dropped { counted: true }) => "late: dropped (numLateRecordsDropped)",
        Some(ElementOutcome::Dropped { counted: false }) => "dropped: all its windows were already late",
        Some(ElementOutcome::Discarded) => "removed by the evictor or cleaned up unemitted",
    }
}

/// Vertical offsets of marbles that would overlap: alternately above and below the lane's line.
const STACK_OFFSETS: [f64; 5] = [0.0, -11.0, 11.0, -5.5, 5.5];

fn marbles(s: &AppState) -> Html {
    let vp = &s.viewport;
    let view = &s.scene.view;
    let n_fx = s.scene.effects.len();
    // (input index, lane, x) of every element, then a level per element: in x order per lane,
    // the first level whose previous marble is at least a diameter away.
    let placed: Vec<(usize, usize, f64)> = s
        .scenario
        .input
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let InputItem::Element(e) = item else { return None };
            let ordinal = s.layout.elem_of_input.get(i).copied().flatten()? as usize;
            Some((i, *s.layout.lane_of_elem.get(ordinal)?, x_of(vp, e.ts)))
        })
        .collect();
    let mut order: Vec<usize> = (0..placed.len()).collect();
    crate::teach::sort::stable_by(&mut order, |a, b| {
        let (pa, pb) = (placed[*a], placed[*b]);
        pa.1.cmp(&pb.1).then(pa.2.total_cmp(&pb.2))
    });
    let mut level = vec![0usize; placed.len()];
    let mut last = [f64::NEG_INFINITY; STACK_OFFSETS.len()];
    let mut lane_now = usize::MAX;
    for k in order {
        let (_, lane, x) = placed[k];
        if lane != lane_now {
            last = [f64::NEG_INFINITY; STACK_OFFSETS.len()];
            lane_now = lane;
        }
        let free = (0..last.len()).find(|l| x - last[*l] >= dims::MARBLE_R * 2.0 - 1.0);
        let l = free.unwrap_or_else(|| (0..last.len()).min_by(|a, b| last[*a].total_cmp(&last[*b])).unwrap_or(0));
        last[l] = x;
        level[k] = l;
    }
    let items = placed.iter().zip(level).filter_map(|(&(i, lane_ix, x), l)| {
        let Some(InputItem::Element(e)) = s.scenario.input.get(i) else { return None };
        let ordinal = s.layout.elem_of_input.get(i).copied().flatten()? as usize;
        let lane = s.layout.lanes.get(lane_ix)?;
        let y = lane.marble_y() + STACK_OFFSETS[l];
        let arrived = s
            .animate
            .then(|| s.scene.effect_order(|f| matches!(f, Effect::Arrived { elem } if *elem as usize == ordinal)))
            .flatten();
        let dropped = s
            .animate
            .then(|| s.scene.effect_order(|f| matches!(f, Effect::Dropped { elem } if *elem as usize == ordinal)))
            .flatten();
        let marble = MarbleProps {
            index: i,
            id: e.id,
            key_name: AttrValue::from(e.key.clone()),
            ts: e.ts,
            value: e.value,
            x: (x * 10.0).round() / 10.0,
            y,
            outcome: view.elements.get(ordinal).copied().flatten(),
            selected: s.selection == Some(i),
            anim: arrived.map(|o| AttrValue::from(delay_style(o, n_fx, s.speed))),
            crossing: dropped.map(|o| AttrValue::from(delay_style(o, n_fx, s.speed))),
        };
        Some((lane_ix, marble))
    });
    // Groups of up to GROUP_SIZE input items per lane: dragging an element re-renders its group only.
    let mut groups: BTreeMap<(usize, usize), Vec<MarbleProps>> = BTreeMap::new();
    for (lane, marble) in items {
        groups.entry((lane, marble.index / GROUP_SIZE)).or_default().push(marble);
    }
    html! {
        <g class="marbles">
            { for groups.into_iter().map(|((lane, chunk), items)| html! { <MarbleGroup key={format!("{lane}:{chunk}")} {items} /> }) }
        </g>
    }
}

#[derive(Properties, PartialEq)]
struct MarbleGroupProps {
    items: Vec<MarbleProps>,
}

#[component]
fn MarbleGroup(p: &MarbleGroupProps) -> Html {
    html! { <>{ for p.items.iter().map(|m| html! { <Marble key={m.index} ..m.clone() /> }) }</> }
}

#[derive(Properties, PartialEq, Clone)]
struct MarbleProps {
    index: usize,
    id: i64,
    key_name: AttrValue,
    ts: Millis,
    value: i64,
    x: f64,
    y: f64,
    outcome: Option<ElementOutcome>,
    selected: bool,
    /// The arrival animation's delay, when it arrived in the step just taken.
    anim: Option<AttrValue>,
    /// The crossing-out animation's delay, when it was dropped in the step just taken.
    crossing: Option<AttrValue>,
}

/// One element. A component so that a drag re-renders only the marbles whose props changed.
#[component]
fn Marble(p: &MarbleProps) -> Html {
    let class = classes!(
        "marble",
        outcome_class(p.outcome),
        p.selected.then_some("selected"),
        p.anim.is_some().then_some("arrive"),
    );
    let dropped = matches!(p.outcome, Some(ElementOutcome::Dropped { .. }));
    html! {
        // Absolute coordinates rather than a transform per marble: 500 transforms cost the
        // compositor more than 500 numbers.
        <g {class} style={p.anim.clone()} data-testid="element" data-id={p.id.to_string()} data-key={p.key_name.clone()}
           data-ts={p.ts.to_string()} data-index={p.index.to_string()} data-outcome={p.outcome.map_or("not-arrived", |o| o.label())}
           data-drag={format!("e:{}", p.index)}>
            <circle class="hit" cx={px(p.x)} cy={px(p.y)} r={px(dims::MARBLE_R + 5.0)} />
            <circle class="body" cx={px(p.x)} cy={px(p.y)} r={px(dims::MARBLE_R)} />
            <text class="marble-text" x={px(p.x)} y={px(p.y + 4.0)} text-anchor="middle">{ p.id }</text>
            if dropped {
                <path class={classes!("cross", p.crossing.is_some().then_some("crossing"))} style={p.crossing.clone()}
                      d={format!("M {} {} l 16 16 m 0 -16 l -16 16", px(p.x - 8.0), px(p.y - 8.0))} />
            }
            <title>{ format!("element {} · key {} · ts {} · value {} — {}", p.id, p.key_name, format_millis(p.ts), p.value, outcome_text(p.outcome)) }</title>
        </g>
    }
}

/// Transient shapes for the step just taken: elements flying into their windows, firings
/// pulsing. Keyed by the animation sequence so that every step restarts them; hidden under
/// `prefers-reduced-motion`.
fn effects(s: &AppState) -> Html {
    if !s.animate {
        return Html::default();
    }
    let vp = &s.viewport;
    let n = s.scene.effects.len();
    let items = s.scene.effects.iter().enumerate().filter_map(|(order, e)| {
        let Effect::Added { elem, key, window } = e else { return None };
        let el = s.run.elements.get(*elem as usize)?;
        let lane = s.layout.lane_of_key(*key)?;
        let (x0, y0) = (x_of(vp, el.ts), lane.marble_y());
        let row = s.layout.row_of(*key, window);
        let x1 = match window {
            Window::Global => x0,
            Window::Time(tw) => x_of(vp, tw.start).max(x0.min(x_of(vp, tw.end) - 10.0)),
        };
        let y1 = lane.row_y(row) + dims::WINDOW_ROW / 2.0 - 2.0;
        Some(html! {
            <circle class="fx-fly" cx={px(x0)} cy={px(y0)} r="5"
                style={format!("--dx: {:.0}px; --dy: {:.0}px; {}", x1 - x0, y1 - y0, delay_style(order, n, s.speed))} />
        })
    });
    html! { <g class="effects" key={s.anim_seq.to_string()}>{ for items }</g> }
}

fn watermark(s: &AppState, height: f64) -> Html {
    let vp = &s.viewport;
    let view = &s.scene.view;
    let wm = view.watermark;
    let (x, label) = match wm {
        LONG_MIN => (2.0, "watermark: Long.MIN (none yet)".to_string()),
        LONG_MAX => (vp.width_px - 2.0, "watermark: Long.MAX (end of input)".to_string()),
        w => (x_of(vp, w), format!("watermark {}", format_millis(w))),
    };
    let x = x.clamp(2.0, vp.width_px - 2.0);
    let label_w = label.chars().count() as f64 * 7.5 + 16.0;
    // Keep the label on screen: to the left of the line near the right edge.
    let label_x = if x + label_w > vp.width_px { x - label_w } else { x };
    let top = dims::AXIS_HEIGHT - 38.0;
    let dragging = matches!(s.drag, Some(Drag::Watermark { .. }));

    // Bounded out-of-orderness: the bound is the gap between the largest timestamp and the line.
    let bound = match (s.scenario.watermarks, view.max_timestamp) {
        (WatermarkSpec::BoundedOutOfOrderness { .. }, Some(max_ts)) | (WatermarkSpec::Monotonous, Some(max_ts))
            if wm != LONG_MAX && wm != LONG_MIN =>
        {
            let b = if let WatermarkSpec::BoundedOutOfOrderness { bound } = s.scenario.watermarks { bound } else { 0 };
            let xm = x_of(vp, max_ts);
            Some(html! {
                <g class="bound" data-testid="bound">
                    <line class="max-ts" x1={px(xm)} x2={px(xm)} y1={px(top)} y2={px(height)} />
                    // The gap itself is a handle too: dragging it edits the bound.
                    <rect class="bound-hit" data-drag="wm" x={px(x.min(xm))} y={px(top + 24.0)}
                          width={px((xm - x).abs().max(6.0))} height="14" />
                    <line class="bound-gap" x1={px(x)} x2={px(xm)} y1={px(top + 33.0)} y2={px(top + 33.0)} />
                    <line class="bound-gap" x1={px(xm)} x2={px(xm)} y1={px(top + 29.0)} y2={px(top + 37.0)} />
                    <text class="bound-label" x={px(xm + 4.0)} y={px(top + 32.0)}>
                        { format!("bound {}", format_duration(b)) }
                    </text>
                </g>
            })
        }
        _ => None,
    };
    // Explicit watermarks: the item a drag moves, when it is not where the line is.
    let item = match s.drag {
        Some(Drag::Watermark { target: WatermarkTarget::Item(i) }) => Some(i),
        _ => s
            .selection
            .filter(|i| s.scenario.input.get(*i).and_then(InputItem::watermark).is_some())
            .or(s.scene.wm_item),
    };
    let ghost = item.and_then(|i| match s.scenario.input.get(i).and_then(InputItem::watermark) {
        Some(v) if v != wm && v != LONG_MAX && v != LONG_MIN => {
            let gx = x_of(vp, v);
            let text = format!("item #{} wm {}", i + 1, format_millis(v));
            // On screen like the flag: to the left of the line when it would run off the right.
            let (tx, anchor) = if gx + 4.0 + text.chars().count() as f64 * 7.0 > vp.width_px {
                (gx - 4.0, "end")
            } else {
                (gx + 4.0, "start")
            };
            Some(html! {
                <g class="wm-ghost" data-testid="watermark-item" data-wm={v.to_string()}>
                    <line x1={px(gx)} x2={px(gx)} y1={px(top)} y2={px(height)} />
                    <text x={px(tx)} y={px(height - 6.0)} text-anchor={anchor}>{ text }</text>
                </g>
            })
        }
        _ => None,
    });
    html! {
        <g class={classes!("watermark", dragging.then_some("active"))}>
            { bound.unwrap_or_default() }
            { ghost.unwrap_or_default() }
            <line class="wm-line" data-testid="watermark-line" x1={px(x)} x2={px(x)} y1={px(top)} y2={px(height)} />
            <g class="wm-handle" data-testid="watermark" data-wm={wm.to_string()} data-drag="wm">
                <line class="wm-hit" x1={px(x)} x2={px(x)} y1={px(top)} y2={px(height)} />
                <rect class="wm-flag" x={px(label_x)} y={px(top)} width={px(label_w)} height="18" rx="4" />
                <text class="wm-text" x={px(label_x + 8.0)} y={px(top + 13.0)}>{ label }</text>
                <title>{ watermark_help(s) }</title>
            </g>
        </g>
    }
}

fn watermark_help(s: &AppState) -> &'static str {
    match s.scenario.watermarks {
        WatermarkSpec::Explicit => "Drag to move the selected watermark item (or the one that set this watermark)",
        WatermarkSpec::BoundedOutOfOrderness { .. } | WatermarkSpec::Monotonous => {
            "Derived: largest timestamp − bound − 1. Drag to change the bound"
        }
    }
}

/// While dragging an element: its exact timestamp, and where it will snap.
fn drag_label(s: &AppState) -> Html {
    let Some(Drag::Element { index, .. }) = s.drag else { return Html::default() };
    let Some(InputItem::Element(e)) = s.scenario.input.get(index) else { return Html::default() };
    let vp = &s.viewport;
    let x = x_of(vp, e.ts);
    let snapped = snap(e.ts, s.snap_unit());
    let text = if snapped == e.ts {
        format!("ts {}", format_millis(e.ts))
    } else {
        format!("ts {} → drops at {}", format_millis(e.ts), format_millis(snapped))
    };
    let w = text.chars().count() as f64 * 7.3 + 12.0;
    let lx = (x - w / 2.0).clamp(0.0, (vp.width_px - w).max(0.0));
    html! {
        <g class="drag-label" data-testid="drag-label" data-ts={e.ts.to_string()}>
            <line class="drag-guide" x1={px(x)} x2={px(x)} y1={px(dims::AXIS_HEIGHT - 8.0)} y2={px(s.layout.height)} />
            <rect x={px(lx)} y={px(dims::AXIS_HEIGHT - 22.0)} width={px(w)} height="18" rx="4" />
            <text x={px(lx + 6.0)} y={px(dims::AXIS_HEIGHT - 9.0)}>{ text }</text>
        </g>
    }
}

const TWO_D_ROW: f64 = 18.0;

fn two_d_height(s: &AppState) -> f64 {
    dims::AXIS_HEIGHT + (s.run.steps as f64 + 1.0) * TWO_D_ROW + 20.0
}

/// Event time × processing time (Streaming Systems' picture): each element at (its timestamp,
/// the step it arrived in), the watermark as a curve over the steps.
fn two_d(s: &AppState) -> Html {
    let vp = &s.viewport;
    let view = &s.scene.view;
    let y_of = |step: usize| dims::AXIS_HEIGHT + (step as f64 + 0.5) * TWO_D_ROW;
    // Watermark curve: after step i (0-based item i) the watermark is watermark_after_step[i].
    let mut d = String::new();
    let mut prev: Option<f64> = None;
    for (i, wm) in s.run.watermark_after_step.iter().enumerate() {
        if *wm == LONG_MIN || *wm == LONG_MAX {
            continue;
        }
        let x = x_of(vp, *wm);
        let (top, bottom) = (y_of(i) - TWO_D_ROW / 2.0, y_of(i) + TWO_D_ROW / 2.0);
        match prev {
            None => d.push_str(&format!("M {} {} ", px(x), px(top))),
            Some(_) => d.push_str(&format!("L {} {} ", px(x), px(top))),
        }
        d.push_str(&format!("L {} {} ", px(x), px(bottom)));
        prev = Some(x);
    }
    let rows = (0..s.run.steps).map(|i| {
        let class = classes!("step-row", (i < view.step).then_some("done"));
        html! {
            <g key={format!("r{i}")}>
                <line {class} x1="0" x2={px(vp.width_px)} y1={px(y_of(i) + TWO_D_ROW / 2.0)} y2={px(y_of(i) + TWO_D_ROW / 2.0)} />
                <text class="step-num" x="4" y={px(y_of(i) + 4.0)}>{ format!("#{}", i + 1) }</text>
            </g>
        }
    });
    let dots = s.scenario.input.iter().enumerate().filter_map(|(i, item)| {
        let InputItem::Element(e) = item else { return None };
        let ordinal = s.layout.elem_of_input.get(i).copied().flatten()? as usize;
        let outcome = view.elements.get(ordinal).copied().flatten();
        let class = classes!("marble", outcome_class(outcome), (s.selection == Some(i)).then_some("selected"));
        Some(html! {
            <g {class} key={format!("d{i}")} data-testid="element" data-id={e.id.to_string()} data-key={e.key.clone()}
               data-ts={e.ts.to_string()} data-index={i.to_string()} data-drag={format!("e:{i}")}
               transform={format!("translate({},{})", px(x_of(vp, e.ts)), px(y_of(i)))}>
                <circle class="hit" r="12" />
                <circle class="body" r="7" />
                <text class="marble-text small" y="3" text-anchor="middle">{ e.id }</text>
                <title>{ format!("element {} · key {} · ts {} · arrives in step {}", e.id, e.key, format_millis(e.ts), i + 1) }</title>
            </g>
        })
    });
    let playhead_y = dims::AXIS_HEIGHT + view.step as f64 * TWO_D_ROW;
    // Each window as a column over its event-time span, from the step that created it to the
    // step that cleaned it up (or the playhead).
    let columns = view.windows.iter().filter_map(|w| {
        let Window::Time(tw) = w.window else { return None };
        if matches!(w.state, WindowState::Merged { .. }) || tw.end < tw.start {
            return None;
        }
        let (x0, x1) = (x_of(vp, tw.start), x_of(vp, tw.end));
        let top = y_of(w.created_step) - TWO_D_ROW / 2.0;
        let bottom = w.ended_step.map_or(playhead_y, |e| y_of(e) + TWO_D_ROW / 2.0);
        let class = classes!("window", "column", format!("state-{}", w.state.label()));
        Some(html! {
            <g {class} key={format!("c{}:{}:{}", w.key, tw.start, tw.end)}>
                <rect class="band" x={px(x0)} y={px(top)} width={px((x1 - x0 - 1.0).max(1.0))} height={px((bottom - top).max(1.0))} />
            </g>
        })
    });
    html! {
        <g class="two-d" data-testid="two-d">
            { for rows }
            { for columns }
            <path class="wm-curve" d={d} />
            <line class="playhead-line" x1="0" x2={px(vp.width_px)} y1={px(playhead_y)} y2={px(playhead_y)} />
            <text class="axis-title" x={px(vp.width_px - 6.0)} y={px(dims::AXIS_HEIGHT + 12.0)} text-anchor="end">
                { "processing order ↓ · watermark curve in blue" }
            </text>
            { for dots }
        </g>
    }
}
