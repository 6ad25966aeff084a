//! The event-time canvas: a host that owns the pointer and the keyboard focus, around a backend
//! that draws the state's scene (`crate::ui::scene`). Gestures are turned into event-time values
//! at once (`millis_from_px`) and into actions; what a pointer went down on is the scene's hit
//! test, not a DOM node, so click, drag and "why?" work whatever draws the scene.
//!
//! ```text
//!  pointerdown (x, y) ──▶ Scene::hit ──▶ DragStart(Element | Watermark | Pan)   (and a click: "why?")
//!  pointermove        ──▶ DragMove { millis_from_px(x) }      pointerup ──▶ DragEnd
//!  focusin on a node  ──▶ Canvas(Focused(its object))         state.focus.seq ──▶ node.focus()
//! ```

mod axis;
mod backend;
mod bulk;
mod effects;
mod lanes;
mod marbles;
mod marks;
mod partitions;
mod px;
mod raster;
mod timers;
mod two_d;
mod watermark;
mod windows;

use std::collections::BTreeMap;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element as DomElement, HtmlElement, PointerEvent, WheelEvent};
use yew::prelude::*;

use crate::ui::action::{
    Action, CanvasAction, Drag, DragAction, DragStart, EditAction, Menu, MenuTarget, ObjectId, TeachAction, ViewAction,
    WhyPopover, WhyTarget,
};
use crate::ui::geometry::{millis_from_px, millis_from_px_f64, snap, snap_unit_millis};
use crate::ui::hooks::AppHandle;
use crate::ui::scene::{Hit, Scene, focus_key, parse_focus_key};
use crate::ui::state::AppState;

use crate::ui::scene::Backend;
pub use backend::{SceneBackend, SvgBackend};
use bulk::CanvasBackend;

#[derive(Properties)]
struct SvgSceneProps {
    scene: Rc<Scene>,
}

/// The same scene is the same drawing (no deep compare of up to 2,000 elements' items).
impl PartialEq for SvgSceneProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.scene, &other.scene)
    }
}

/// The SVG backend's drawing, made again only for another scene: a render of the page that keeps
/// the scene (a wheel gesture's steps, shown moved: `AppState::view_preview`; the output lists'
/// changes) does not make and compare its 18,000 nodes at 2,000 elements again.
#[component]
fn SvgScene(p: &SvgSceneProps) -> Html {
    SvgBackend::draw(&p.scene)
}

/// How long a wheel, pinch or pan gesture waits without a step before the scene is built at the
/// view (the wheel's notches come 30-100 ms apart while it spins).
const SETTLE_MS: u32 = 150;

#[derive(Properties, PartialEq)]
pub struct CanvasProps {
    pub state: AppHandle,
}

/// Takes the focus off whatever has it (a field, or a canvas object: an SVG element).
fn blur_active_element() {
    let Some(active) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element()) else { return };
    if let Some(el) = active.dyn_ref::<HtmlElement>() {
        let _ = el.blur();
    } else if let Some(el) = active.dyn_ref::<web_sys::SvgElement>() {
        let _ = el.blur();
    }
}

/// What "why?" explains for a hit, in the state's run.
fn why_target(s: &AppState, hit: &Hit) -> Option<WhyTarget> {
    match hit {
        Hit::Object(ObjectId::Element(i)) => {
            s.doc.layout.elem_of_input.get(*i).copied().flatten().map(WhyTarget::Element)
        }
        Hit::Object(ObjectId::Window { key, window }) => Some(WhyTarget::Window { key: *key, window: *window }),
        Hit::Object(ObjectId::Partition(p)) => Some(WhyTarget::Partition(*p)),
        Hit::Object(ObjectId::Timer { key, time }) => {
            let t = s.fold.view.timers.iter().find(|t| t.key == *key && t.time == *time)?;
            Some(WhyTarget::Timer { key: t.key, window: t.window, time: t.time })
        }
        _ => None,
    }
}

#[component]
pub fn Canvas(props: &CanvasProps) -> Html {
    let state = props.state.clone();
    let s = state.get();
    let scene = s.scene.clone();
    let vp = s.view.viewport;
    let scale = s.view.scale;
    let dragging = s.drag.is_some();
    let host = use_node_ref();
    // A wheel, pinch or pan gesture over a large scene: the scene drawn when it began, moved onto
    // the view (`AppState::view_preview`); a hit test takes the pointer back to where it drew (as
    // the state is when it hits: a handler may run before the render of the last step).
    let preview = s.view_preview();
    let to_drawn = |s: &AppState, x: f64| s.view_preview().map_or(x, |(k, dx)| (x - dx) / k);
    // The gesture rests after `SETTLE_MS` without a step: the scene is built at the view. Armed
    // after every step of any drag, wheel or pinch, without asking the state whether a gesture is
    // under way (a rest with nothing shown moved changes nothing and renders nothing:
    // `AppState::changes_nothing`).
    let settle = use_mut_ref(|| None::<gloo::timers::callback::Timeout>);
    let rest_later = {
        let (state, settle) = (state.clone(), settle.clone());
        move || {
            let state = state.clone();
            let later = move || state.dispatch(Action::View(ViewAction::Settle));
            *settle.borrow_mut() = Some(gloo::timers::callback::Timeout::new(SETTLE_MS, later));
        }
    };
    // The canvas' page position, taken when a pointer goes down: reading it on every move would
    // force a layout of the whole document per frame.
    let origin = use_mut_ref(|| (0.0f64, 0.0f64));
    // Touch pinch: the x of each finger down, and the distance between two at the last move.
    let touches = use_mut_ref(BTreeMap::<i32, f64>::new);
    let pinch = use_mut_ref(|| None::<f64>);
    // Where the pointer went down and on what: a release close by is a click ("why?").
    let down = use_mut_ref(|| None::<(f64, f64, Hit)>);
    // A drag's pointer moves, one per animation frame: the newest position waits for the next
    // frame (a run and a render per move would queue up behind each other); a release sends it first.
    let pending = use_mut_ref(|| None::<(f64, f64)>);
    let frame = use_mut_ref(|| None::<gloo::render::AnimationFrame>);
    let flush = {
        let (state, pending, frame, rest_later) = (state.clone(), pending.clone(), frame.clone(), rest_later.clone());
        move || {
            frame.borrow_mut().take();
            let next = pending.borrow_mut().take();
            if let Some((px, millis)) = next {
                crate::ui::hooks::mark_frame();
                state.dispatch(Action::Drag(DragAction::Move { px, millis }));
                rest_later();
            }
        }
    };

    // The canvas node that last took the focus.
    let focused = use_mut_ref(|| None::<web_sys::Node>);
    // The DOM focus follows the selection when the reducer asks (a key, a click on an object).
    {
        let host = host.clone();
        let target = s.selection.map(|s| match s {
            ObjectId::WatermarkItem(_) => ObjectId::Watermark,
            other => other,
        });
        // A node made anew while it has the focus (a marble whose group is rebuilt unkeyed, or
        // moved to another tile of the SVG backend: an element moved by the keys into the next
        // tile column) gives the focus to the page: with a new scene it follows the selection
        // here again, if the canvas had it. (A dragged marble keeps its node: the copy that
        // follows the pointer is a drawing, `Scene::lifted`.)
        let lifted = s.scene.lifted.as_ref().map(|m| m.index);
        let drawn = s.scene.generation;
        let inside = s.focus.inside;
        let last = use_mut_ref(|| (0_u64, None::<usize>));
        let focused = focused.clone();
        use_effect_with((s.focus.seq, lifted, drawn), move |(seq, lifted, _)| {
            let (asked, lift) = {
                let (last_seq, last_lifted) = std::mem::replace(&mut *last.borrow_mut(), (*seq, *lifted));
                (last_seq != *seq, last_lifted != *lifted)
            };
            let lost = || {
                let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
                active.is_none_or(|a| a.tag_name() == "BODY")
            };
            // Our render took the focus away: the canvas node that had it is gone from the page
            // (a click elsewhere leaves it there, and the focus where the user put it).
            let ours = inside && focused.borrow().as_ref().is_some_and(|n: &web_sys::Node| !n.is_connected());
            // (Whether a key or a click asked, or Tab brought the focus in: `inside`.)
            if (*seq > 0 || inside)
                && (asked || ((lift || ours) && lost()))
                && let Some(id) = target
                && let Some(host) = host.cast::<DomElement>()
                && let Ok(Some(node)) = host.query_selector(&format!("[data-focus=\"{}\"]", focus_key(&id)))
                && let Ok(node) = node.dyn_into::<web_sys::SvgElement>()
            {
                let _ = node.focus();
            } else if ours {
                // Nothing to give it back to (the selection has no node now): it stays with the
                // page, and no later scene takes it back.
                *focused.borrow_mut() = None;
            }
        });
    }
    // Escape leaves the canvas.
    use_effect_with(s.focus.leave_seq, |seq| {
        if *seq > 0 {
            blur_active_element();
        }
    });

    let local = {
        let origin = origin.clone();
        move |e: &MouseEvent| {
            let (left, top) = *origin.borrow();
            ((f64::from(e.client_x()) - left) / scale, (f64::from(e.client_y()) - top) / scale)
        }
    };
    let measure = {
        let (host, origin) = (host.clone(), origin.clone());
        move || {
            if let Some(el) = host.cast::<DomElement>() {
                let r = el.get_bounding_client_rect();
                *origin.borrow_mut() = (r.left(), r.top());
            }
        }
    };

    let onpointerdown = {
        let (state, host, down) = (state.clone(), host.clone(), down.clone());
        let (touches, pinch, measure, local) = (touches.clone(), pinch.clone(), measure.clone(), local.clone());
        Callback::from(move |e: PointerEvent| {
            if e.button() != 0 {
                return;
            }
            measure();
            let capture = || {
                if let Some(el) = host.cast::<DomElement>() {
                    let _ = el.set_pointer_capture(e.pointer_id());
                }
            };
            if e.pointer_type() == "touch" {
                let mut t = touches.borrow_mut();
                t.insert(e.pointer_id(), f64::from(e.client_x()));
                if t.len() >= 2 {
                    // A second finger: pinch zoom instead of a drag.
                    let xs: Vec<f64> = t.values().copied().collect();
                    *pinch.borrow_mut() = Some((xs[0] - xs[1]).abs());
                    capture();
                    down.borrow_mut().take();
                    if dragging {
                        state.dispatch(Action::Drag(DragAction::End));
                    }
                    return;
                }
            }
            let (x, y) = local(&e);
            let hit = {
                let s = state.get();
                s.scene.hit(to_drawn(&s, x), y)
            };
            *down.borrow_mut() = Some((f64::from(e.client_x()), f64::from(e.client_y()), hit.clone()));
            let what = match hit {
                Hit::Object(ObjectId::Element(i)) => DragStart::Element(i),
                Hit::Object(ObjectId::Watermark) => DragStart::Watermark,
                _ => {
                    blur_active_element();
                    DragStart::Pan
                }
            };
            capture();
            e.prevent_default();
            state.dispatch(Action::Drag(DragAction::Start { what, px: x, millis: millis_from_px_f64(&vp, x) }));
        })
    };
    // The cursor shows a drag wherever a press grabs (`Scene::grabs`): the scene's `data-hover`,
    // set as the mouse moves, not through a render. Where marbles have their hit ring
    // (`marbles::HIT_RING_MAX`) the ring's own cursor says it already; above, and on the canvas
    // backend's bulk drawing, nothing else does.
    // Once a frame at most, at the last position: the host's box is measured there (a layout the
    // frame makes anyway), not at every move. Looked at again when the scene changes under a still
    // mouse (a drop, a wheel's rest, a step, a run's answer): what is under it may have moved.
    // `pointer`: the mouse's last position over the scene (client px), `None` once it left.
    let pointer = use_mut_ref(|| None::<(f64, f64)>);
    let recheck = {
        let (state, host, measure, origin) = (state.clone(), host.clone(), measure.clone(), origin.clone());
        let pointer = pointer.clone();
        let over = use_mut_ref(|| false);
        let frame = use_mut_ref(|| None::<gloo::render::AnimationFrame>);
        move || {
            if frame.borrow().is_some() {
                return;
            }
            let (state, host, measure, origin) = (state.clone(), host.clone(), measure.clone(), origin.clone());
            let (over, pointer, done) = (over.clone(), pointer.clone(), frame.clone());
            *frame.borrow_mut() = Some(gloo::render::request_animation_frame(move |_| {
                done.borrow_mut().take();
                let Some((cx, cy)) = *pointer.borrow() else { return };
                if state.get().drag.is_some() {
                    // (A drag's cursor is its own; the release looks again.)
                    return;
                }
                measure();
                let (left, top) = *origin.borrow();
                let (x, y) = ((cx - left) / scale, (cy - top) / scale);
                let grabs = {
                    let s = state.get();
                    s.scene.grabs(to_drawn(&s, x), y)
                };
                if over.replace(grabs) != grabs
                    && let Some(el) = host.cast::<DomElement>()
                {
                    let _ =
                        if grabs { el.set_attribute("data-hover", "grab") } else { el.remove_attribute("data-hover") };
                }
            }));
        }
    };
    let hover = {
        let (pointer, recheck) = (pointer.clone(), recheck.clone());
        move |e: &PointerEvent| {
            *pointer.borrow_mut() = Some((f64::from(e.client_x()), f64::from(e.client_y())));
            recheck();
        }
    };
    {
        let (pointer, recheck) = (pointer.clone(), recheck.clone());
        // Any new scene, or the drawing shown moved by a gesture.
        let shown = (Rc::as_ptr(&s.scene) as usize, preview.map(|(k, dx)| (k.to_bits(), dx.to_bits())), dragging);
        use_effect_with(shown, move |_| {
            if pointer.borrow().is_some() {
                recheck();
            }
        });
    }
    let onpointerleave = {
        let pointer = pointer.clone();
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() == "mouse" {
                *pointer.borrow_mut() = None;
            }
        })
    };
    let onpointermove = {
        let state = state.clone();
        let (touches, pinch, origin, local) = (touches.clone(), pinch.clone(), origin.clone(), local.clone());
        let (pending, frame, flush, rest_later) = (pending.clone(), frame.clone(), flush.clone(), rest_later.clone());
        Callback::from(move |e: PointerEvent| {
            if pinch.borrow().is_some() {
                if let Some(slot) = touches.borrow_mut().get_mut(&e.pointer_id()) {
                    *slot = f64::from(e.client_x());
                }
                let xs: Vec<f64> = touches.borrow().values().copied().collect();
                if let (Some(a), Some(b), Some(last)) = (xs.first(), xs.get(1), *pinch.borrow()) {
                    let d = (a - b).abs();
                    if last > 10.0 && d > 10.0 {
                        let mid = ((a + b) / 2.0 - origin.borrow().0) / scale;
                        state.dispatch(Action::View(ViewAction::ZoomAt { px: mid, factor: d / last }));
                        rest_later();
                    }
                    *pinch.borrow_mut() = Some(d);
                }
                return;
            }
            if !dragging {
                if e.pointer_type() == "mouse" {
                    hover(&e);
                }
                return;
            }
            if e.pointer_type() == "mouse" {
                // Where the release will be: the cursor is looked at again there.
                *pointer.borrow_mut() = Some((f64::from(e.client_x()), f64::from(e.client_y())));
            }
            let (x, _) = local(&e);
            *pending.borrow_mut() = Some((x, millis_from_px_f64(&vp, x)));
            if frame.borrow().is_none() {
                let flush = flush.clone();
                *frame.borrow_mut() = Some(gloo::render::request_animation_frame(move |_| flush()));
            }
        })
    };
    let onpointerup = {
        let (state, down, touches, pinch) = (state.clone(), down.clone(), touches.clone(), pinch.clone());
        Callback::from(move |e: PointerEvent| {
            touches.borrow_mut().remove(&e.pointer_id());
            if touches.borrow().len() < 2 && pinch.borrow_mut().take().is_some() {
                return;
            }
            // The last move before the release.
            flush();
            if dragging {
                state.dispatch(Action::Drag(DragAction::End));
            }
            // A click (no drag) on an element, a window or a timer explains it; on the background
            // it closes the explanation.
            let Some((x, y, hit)) = down.borrow_mut().take() else { return };
            let (ux, uy) = (f64::from(e.client_x()), f64::from(e.client_y()));
            if e.type_() != "pointerup" || (ux - x).hypot(uy - y) > 5.0 {
                return;
            }
            let target = why_target(&state.get(), &hit);
            match target {
                Some(target) => {
                    state.dispatch(Action::Teach(TeachAction::Why(WhyPopover { target, x_px: ux, y_px: uy })))
                }
                None if matches!(hit, Hit::Background { .. }) && state.get().teach.why.is_some() => {
                    state.dispatch(Action::Teach(TeachAction::CloseWhy))
                }
                None => {}
            }
        })
    };
    let onwheel = {
        let (state, measure, local, rest_later) = (state.clone(), measure.clone(), local.clone(), rest_later.clone());
        Callback::from(move |e: WheelEvent| {
            measure();
            let (x, _) = local(&e);
            e.prevent_default();
            let (dx, dy) = (e.delta_x(), e.delta_y());
            if e.shift_key() || dx.abs() > dy.abs() {
                let d = if dx.abs() > dy.abs() { dx } else { dy };
                state.dispatch(Action::View(ViewAction::PanBy { dx_px: -d }));
            } else {
                // Mouse wheel and trackpad pinch (ctrl+wheel) zoom around the pointer.
                let k = if e.ctrl_key() { 0.01 } else { 0.0015 };
                state.dispatch(Action::View(ViewAction::ZoomAt { px: x, factor: (-dy * k).exp() }));
            }
            rest_later();
        })
    };
    let oncontextmenu = {
        let (state, measure, local) = (state.clone(), measure.clone(), local.clone());
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            measure();
            let (x, y) = local(&e);
            let (scene, drawn_x) = {
                let s = state.get();
                (s.scene.clone(), to_drawn(&s, x))
            };
            let target = match scene.hit(drawn_x, y) {
                Hit::Object(ObjectId::Element(i)) => MenuTarget::Element(i),
                _ => MenuTarget::Canvas {
                    ts: snap(millis_from_px(&vp, x), snap_unit_millis(&vp)),
                    key: scene.lane_key_at(y),
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
        Callback::from(move |e: MouseEvent| {
            measure();
            let (x, y) = local(&e);
            let (scene, drawn_x) = {
                let s = state.get();
                (s.scene.clone(), to_drawn(&s, x))
            };
            if matches!(scene.hit(drawn_x, y), Hit::Object(ObjectId::Element(_) | ObjectId::Watermark)) {
                return;
            }
            let ts = Some(snap(millis_from_px(&vp, x), snap_unit_millis(&vp)));
            state.dispatch(Action::Edit(EditAction::AddElement { key: scene.lane_key_at(y), ts }));
        })
    };
    let onfocusin = {
        let (state, focused) = (state.clone(), focused.clone());
        Callback::from(move |e: FocusEvent| {
            *focused.borrow_mut() = e.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
            let id = e
                .target()
                .and_then(|t| t.dyn_into::<DomElement>().ok())
                .and_then(|el| el.closest("[data-focus]").ok().flatten())
                .and_then(|el| el.get_attribute("data-focus"))
                .and_then(|k| parse_focus_key(&k));
            if let Some(id) = id {
                state.dispatch(Action::Canvas(CanvasAction::Focused(id)));
            }
        })
    };
    let onfocusout = {
        let (state, host) = (state.clone(), host.clone());
        Callback::from(move |e: FocusEvent| {
            let inside = e
                .related_target()
                .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
                .zip(host.cast::<web_sys::Node>())
                .is_some_and(|(to, host)| host.contains(Some(&to)));
            if inside {
                return;
            }
            // A node our own render removes (a focused marble made anew; the dragged marble was,
            // until it stayed in place, `Scene::lifted`) loses the focus as it goes: Chromium
            // reports that blur in the middle of the render, while the node is still connected.
            // Looked at again once the render is over: a node that is gone was ours, not the user's
            // blur (the focus effect above puts the focus back when the selection asks for it or a
            // lift changes; otherwise `focus.inside` stays true with the page focused, which costs
            // at most one render of a later focus report). Reduced at once, the blur and the focus
            // coming back each rendered the whole page again, in the first frame of a drag.
            let target = e.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
            let state = state.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if target.is_none_or(|t| t.is_connected()) {
                    state.dispatch(Action::Canvas(CanvasAction::Blurred));
                }
            });
        })
    };
    let panning = matches!(s.drag, Some(Drag::Pan { .. }));
    let class = classes!("scene", panning.then_some("panning"));
    // On the drawing's own box, not the host's: the host's box is where the pointer is measured.
    let moved = preview.map(|(k, dx)| format!("transform: translateX({:.2}px) scaleX({k:.6})", dx * scale));
    let view_class = classes!("scene-view", moved.is_some().then_some("previewing"));
    html! {
        <div ref={host} {class} data-testid="scene" data-backend={scene.backend.name()}
             data-elements={scene.element_count.to_string()} data-windows={scene.window_count.to_string()}
             {onpointerdown} {onpointermove} onpointerup={onpointerup.clone()} onpointercancel={onpointerup}
             {onpointerleave} {onwheel} {oncontextmenu} {ondblclick} {onfocusin} {onfocusout}>
            <div class={view_class} style={moved}>
                if scene.backend == Backend::Canvas {
                    <CanvasBackend scene={Rc::downgrade(&scene)} />
                } else {
                    <SvgScene {scene} />
                }
            </div>
        </div>
    }
}
