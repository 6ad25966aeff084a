//! Playback (playhead, play/pause, steps, speed) and the arrival strip: the input in
//! processing order, draggable to reorder.

use wasm_bindgen::JsCast;
use web_sys::{Element as DomElement, HtmlInputElement, HtmlSelectElement, PointerEvent};
use yew::prelude::*;

use crate::engine::Millis;
use crate::engine::scenario::InputItem;
use crate::engine::time::format_millis;

use super::app::shortcut;
use super::state::{Action, AppState, Drag, DragStart, SPEEDS};

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub state: UseReducerHandle<AppState>,
}

/// Playback icons as inline SVG (no icon font, no request).
fn icon(name: &str) -> Html {
    let d = match name {
        "first" => "M3 3h2v10H3z M13 3v10L6 8z",
        "back" => "M11 3v10L4 8z M12 3h2v10h-2z",
        "play" => "M4 2v12l10-6z",
        "pause" => "M4 3h3v10H4z M9 3h3v10H9z",
        "forward" => "M2 3h2v10H2z M5 3v10l7-5z",
        "undo" => "M6 1.5 1 6l5 4.5V7.5h3.5a2.75 2.75 0 0 1 0 5.5H6V15h3.5a4.75 4.75 0 0 0 0-9.5H6z",
        "redo" => "M10 1.5 15 6l-5 4.5V7.5H6.5a2.75 2.75 0 0 0 0 5.5H10V15H6.5a4.75 4.75 0 0 1 0-9.5H10z",
        _ => "M3 3v10l7-5z M11 3h2v10h-2z",
    };
    html! { <svg class="icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d={d} /></svg> }
}

#[component]
pub fn Playback(props: &ControlsProps) -> Html {
    let state = props.state.clone();
    let s: &AppState = &state;
    let steps = s.run.steps;
    let step = s.step;
    let button =
        |icon_name: &'static str, title: &'static str, testid: &'static str, action: Action, disabled: bool| {
            let state = state.clone();
            html! {
                <button class="pb" {title} aria-label={title} data-testid={testid} {disabled}
                        onclick={Callback::from(move |_| state.dispatch(action.clone()))}>{ icon(icon_name) }</button>
            }
        };
    let onscrub = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) =
                e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()).and_then(|i| i.value().parse().ok())
            {
                state.dispatch(Action::SetStep(v));
            }
        })
    };
    let onspeed = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            if let Some(v) =
                e.target().and_then(|t| t.dyn_into::<HtmlSelectElement>().ok()).and_then(|i| i.value().parse().ok())
            {
                state.dispatch(Action::SetSpeed(v));
            }
        })
    };
    let where_text = if step == 0 {
        "before input".to_string()
    } else if step >= steps {
        "end of input".to_string()
    } else {
        match s.scenario.input.get(step - 1) {
            Some(InputItem::Element(e)) => format!("element {} (key {}, ts {})", e.id, e.key, format_millis(e.ts)),
            Some(item @ (InputItem::Watermark(_) | InputItem::SourceWatermark(_))) => {
                format!("watermark item {}", format_millis(item.watermark().unwrap_or(0)))
            }
            None => String::new(),
        }
    };
    html! {
        <div class="playback" role="toolbar" aria-label="Playback">
            { button("first", "First step (Home)", "first", Action::First, step == 0) }
            { button("back", "Step back (←)", "step-back", Action::StepBack, step == 0) }
            <button class="pb play" data-testid="play" aria-pressed={s.playing.to_string()}
                    title={if s.playing { "Pause (space)" } else { "Play (space)" }}
                    aria-label={if s.playing { "Pause" } else { "Play" }}
                    onclick={let state = state.clone(); Callback::from(move |_| state.dispatch(Action::TogglePlay))}>
                { icon(if s.playing { "pause" } else { "play" }) }
            </button>
            { button("forward", "Step forward (→)", "step-forward", Action::StepForward, step >= steps) }
            { button("last", "Last step: end of input (End)", "last", Action::Last, step >= steps) }
            <div class="playhead" data-testid="playhead" data-step={step.to_string()} data-steps={steps.to_string()}>
                <input type="range" min="0" max={steps.to_string()} value={step.to_string()} step="1"
                       aria-label="Playhead: steps taken" data-testid="scrubber" oninput={onscrub} />
                <span class="step-text">{ format!("step {step}/{steps}") }</span>
                <span class="where">{ where_text }</span>
            </div>
            <UndoRedo state={state.clone()} />
            <label class="speed">{ "speed " }
                <select data-testid="speed" onchange={onspeed} aria-label="Playback speed">
                    { for SPEEDS.iter().map(|v| html! {
                        <option value={v.to_string()} selected={(*v - s.speed).abs() < 1e-9}>{ format!("{v}×") }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

/// Undo and redo, with what they would undo in their titles.
#[component]
fn UndoRedo(props: &ControlsProps) -> Html {
    let state = props.state.clone();
    let h = &state.edits.history;
    let button = |what: &'static str, label: Option<String>, keys: String, action: Action| {
        let state = state.clone();
        let title = match &label {
            Some(l) => format!("{} {l} ({keys})", if what == "undo" { "Undo" } else { "Redo" }),
            None => format!("Nothing to {what}"),
        };
        html! {
            <button class="pb" title={title.clone()} aria-label={title} data-testid={what} disabled={label.is_none()}
                    onclick={Callback::from(move |_| state.dispatch(action.clone()))}>{ icon(what) }</button>
        }
    };
    html! {
        <span class="undo-redo" role="group" aria-label="Undo and redo" data-undo={h.undo_len().to_string()} data-redo={h.redo_len().to_string()}>
            { button("undo", h.peek_undo().map(|s| s.label.to_string()), shortcut("Z"), Action::Undo) }
            { button("redo", h.peek_redo().map(|s| s.label.to_string()), format!("{} or {}", shortcut("Shift+Z"), shortcut("Y")), Action::Redo) }
        </span>
    }
}

/// What a chip shows. No timestamp (the marble shows it), so dragging an element on the
/// canvas leaves the strip unchanged unless an outcome changes.
#[derive(Clone, PartialEq)]
enum ChipItem {
    Element { id: i64, key: AttrValue, value: i64 },
    Watermark(Millis),
}

#[derive(Properties, PartialEq)]
struct ChipListProps {
    chips: Vec<ChipProps>,
}

#[component]
fn ChipList(p: &ChipListProps) -> Html {
    html! { <>{ for p.chips.iter().map(|c| html! { <Chip key={c.index} ..c.clone() /> }) }</> }
}

#[derive(Properties, PartialEq, Clone)]
struct ChipProps {
    index: usize,
    item: ChipItem,
    outcome: &'static str,
    done: bool,
    current: bool,
    selected: bool,
    lifted: bool,
    target: bool,
}

/// One input item in processing order, with its step number.
#[component]
fn Chip(p: &ChipProps) -> Html {
    let i = p.index;
    let (label, sub, kind, title) = match &p.item {
        ChipItem::Element { id, key, value } => (
            format!("e{id}"),
            key.to_string(),
            "chip-element",
            format!("step {}: element {id} key {key} value {value}", i + 1),
        ),
        ChipItem::Watermark(w) => (
            "WM".to_string(),
            format_millis(*w),
            "chip-watermark",
            format!("step {}: watermark item {}", i + 1, format_millis(*w)),
        ),
    };
    let class = classes!(
        "chip",
        kind,
        format!("outcome-{}", p.outcome),
        p.done.then_some("done"),
        p.current.then_some("current"),
        p.selected.then_some("selected"),
        p.lifted.then_some("lifted"),
        p.target.then_some("drop-target"),
    );
    html! {
        <li {class} data-chip={i.to_string()} data-testid="arrival-item" data-index={i.to_string()}
            data-step={(i + 1).to_string()} {title}>
            <span class="chip-step">{ format!("#{}", i + 1) }</span>
            <span class="chip-label">{ label }</span>
            <span class="chip-sub">{ sub }</span>
        </li>
    }
}

/// The chip under the pointer (the strip has the pointer captured, so ask the document).
fn chip_index_at(e: &PointerEvent) -> Option<usize> {
    let doc = web_sys::window()?.document()?;
    let el = doc.element_from_point(e.client_x() as f32, e.client_y() as f32)?;
    el.closest("[data-chip]").ok().flatten()?.get_attribute("data-chip")?.parse().ok()
}

fn chip_of(e: &PointerEvent) -> Option<usize> {
    let el: DomElement = e.target()?.dyn_into().ok()?;
    el.closest("[data-chip]").ok().flatten()?.get_attribute("data-chip")?.parse().ok()
}

#[component]
pub fn ArrivalStrip(props: &ControlsProps) -> Html {
    let state = props.state.clone();
    let s: &AppState = &state;
    let dragging = matches!(s.drag, Some(Drag::Arrival { .. }));
    let (from, over) = match s.drag {
        Some(Drag::Arrival { from, over }) => (Some(from), Some(over)),
        _ => (None, None),
    };
    let strip_ref = use_node_ref();
    // Keep the playhead's item in view (a scroll position, not state).
    {
        let strip_ref = strip_ref.clone();
        use_effect_with(s.step, move |step| {
            if let Some(strip) = strip_ref.cast::<web_sys::HtmlElement>()
                && let Some(chip) = strip
                    .query_selector(&format!("[data-chip=\"{}\"]", step.saturating_sub(1)))
                    .ok()
                    .flatten()
                    .and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let (left, width) = (chip.offset_left(), chip.offset_width());
                let (view_left, view_width) = (strip.scroll_left(), strip.client_width());
                if left < view_left || left + width > view_left + view_width {
                    strip.set_scroll_left(left - view_width / 2);
                }
            }
        });
    }
    let onpointerdown = {
        let state = state.clone();
        let strip_ref = strip_ref.clone();
        Callback::from(move |e: PointerEvent| {
            if e.button() != 0 {
                return;
            }
            let Some(i) = chip_of(&e) else { return };
            if let Some(el) = strip_ref.cast::<DomElement>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
            state.dispatch(Action::DragStart { what: DragStart::Arrival(i), px: 0.0, millis: 0.0 });
        })
    };
    let onpointermove = {
        let state = state.clone();
        Callback::from(move |e: PointerEvent| {
            if !dragging {
                return;
            }
            if let Some(i) = chip_index_at(&e)
                && Some(i) != over
            {
                state.dispatch(Action::ArrivalOver(i));
            }
        })
    };
    let onpointerup = {
        let state = state.clone();
        Callback::from(move |_: PointerEvent| {
            if dragging {
                // A press without a move puts the playhead right after the item.
                if let (Some(f), Some(o)) = (from, over)
                    && f == o
                {
                    state.dispatch(Action::DragEnd);
                    state.dispatch(Action::SetStep(f + 1));
                } else {
                    state.dispatch(Action::DragEnd);
                }
            }
        })
    };
    let view = &s.scene.view;
    let chips = s.scenario.input.iter().enumerate().map(|(i, item)| {
        let (item, outcome) = match item {
            InputItem::Element(e) => {
                let ordinal = s.layout.elem_of_input.get(i).copied().flatten().map(|o| o as usize);
                let outcome = ordinal.and_then(|o| view.elements.get(o).copied().flatten());
                (
                    ChipItem::Element { id: e.id, key: AttrValue::from(e.key.clone()), value: e.value },
                    outcome.map_or("not-arrived", |o| o.label()),
                )
            }
            InputItem::Watermark(w) | InputItem::SourceWatermark(crate::engine::scenario::Marker { wm: w, .. }) => {
                (ChipItem::Watermark(*w), "watermark")
            }
        };
        ChipProps {
            index: i,
            item,
            outcome,
            done: i < s.step,
            current: i + 1 == s.step,
            selected: s.selection == Some(i),
            lifted: from == Some(i),
            target: over == Some(i) && from != Some(i),
        }
    });
    let chips: Vec<ChipProps> = chips.collect();
    let insert = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::InsertWatermark { wm: None }))
    };
    let toggle = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::ToggleTwoD))
    };
    html! {
        <div class="arrival" aria-label="Arrival order (processing time)">
            <div class="arrival-head">
                <span class="arrival-title">{ "arrival order" }</span>
                <button data-testid="insert-watermark" title="Insert a watermark item at the playhead (w)" onclick={insert}>{ "+ watermark" }</button>
                <button data-testid="toggle-2d" aria-pressed={s.two_d.to_string()} title="Event time × processing time (t)" onclick={toggle}>
                    { if s.two_d { "lanes" } else { "2-D" } }
                </button>
            </div>
            <ol ref={strip_ref} class={classes!("strip", dragging.then_some("dragging"))} data-testid="arrival-strip"
                {onpointerdown} {onpointermove} onpointerup={onpointerup.clone()} onpointercancel={onpointerup}>
                <ChipList {chips} />
            </ol>
        </div>
    }
}
