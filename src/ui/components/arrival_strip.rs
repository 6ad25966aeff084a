//! The arrival strip: the input in processing order, one chip per item with its step number and
//! outcome; dragging a chip reorders the input, a press puts the playhead after it.

use wasm_bindgen::JsCast;
use web_sys::{Element as DomElement, PointerEvent};
use yew::prelude::*;

use crate::engine::Millis;
use crate::engine::output::{Output, RecoveryLine};
use crate::engine::scenario::{InputItem, ProcessFunctionSpec};
use crate::engine::time::format_millis;
use crate::engine::trace::TimeDomain;
use crate::ui::action::{
    Action, Drag, DragAction, DragStart, EditAction, EditorAction, ObjectId, PanelAction, PlayAction, ViewAction,
};
use crate::ui::hooks::AppHandle;
use crate::ui::state::AppState;

#[derive(Properties, PartialEq)]
pub struct ArrivalStripProps {
    pub state: AppHandle,
}

/// What a chip shows. No timestamp (the marble shows it), so dragging an element on the
/// canvas leaves the strip unchanged unless an outcome changes.
#[derive(Clone, PartialEq)]
enum ChipItem {
    Element {
        id: i64,
        key: AttrValue,
        value: i64,
    },
    Watermark(Millis),
    /// A checkpoint or crash item (issue 17).
    Control(&'static str),
}

/// Strips of more items than this render only the chips in and near view, and the selected,
/// current and dragged ones, with a spacer for each run of the others: 2,000 chips were 10,000
/// nodes and 18,000 of the page's 38,000 layout objects, all laid out and painted again in the
/// frame after every run of a drag at 2,000 elements, where about 30 are in view. (As the output
/// list's `VIRTUAL_ABOVE`.)
const VIRTUAL_ABOVE: usize = 300;
/// Chips rendered beyond each edge of the view.
const OVERSCAN: usize = 30;
/// The flex gap between chips and a chip's width plus it, and the partitioned grid's column
/// (`.strip`, `.chip`, `.strip.partitioned` in the stylesheet).
const CHIP_GAP: i32 = 6;
const CHIP_PITCH: i32 = 56 + CHIP_GAP;
const CELL_PITCH: i32 = 76 + CHIP_GAP;

/// A chip, or the place of `count` chips not rendered (from input index `first`).
#[derive(Clone, PartialEq)]
enum Slot {
    Chip(ChipProps),
    Gap { first: usize, count: usize },
}

#[derive(Properties, PartialEq)]
struct ChipListProps {
    slots: Vec<Slot>,
}

#[component]
fn ChipList(p: &ChipListProps) -> Html {
    html! {
        <>{ for p.slots.iter().map(|slot| match slot {
            Slot::Chip(c) => html! { <Chip key={c.index} ..c.clone() /> },
            Slot::Gap { first, count } => {
                let w = CHIP_PITCH * *count as i32 - CHIP_GAP;
                html! { <li key={format!("gap-{first}")} class="strip-gap" aria-hidden="true" style={format!("flex: 0 0 {w}px; width: {w}px")} /> }
            }
        }) }</>
    }
}

/// The input indices whose chips are rendered: all of a short strip; of a long one those in view
/// (`scroll`: the strip's scroll position and width) and the ones named in `always`.
fn rendered(n: usize, scroll: (i32, i32), pitch: i32, always: &[Option<usize>]) -> Vec<usize> {
    if n <= VIRTUAL_ABOVE {
        return (0..n).collect();
    }
    let first = ((scroll.0 - 8).max(0) / pitch) as usize;
    let count = (scroll.1.max(200) / pitch) as usize + 1;
    let mut v: Vec<usize> = (first.saturating_sub(OVERSCAN)..(first + count + OVERSCAN).min(n)).collect();
    v.extend(always.iter().flatten().filter(|i| **i < n));
    v.sort_unstable();
    v.dedup();
    v
}

/// The chips of `shown` (ascending) with a gap for each run of the `n` items left out; a grid
/// (several partitions) places its chips by column and needs none.
fn with_gaps(chips: Vec<ChipProps>, n: usize, grid: bool) -> Vec<Slot> {
    let mut slots = Vec::with_capacity(chips.len() + 2);
    let mut next = 0;
    for c in chips {
        if !grid && c.index > next {
            slots.push(Slot::Gap { first: next, count: c.index - next });
        }
        next = c.index + 1;
        slots.push(Slot::Chip(c));
    }
    if !grid && n > next {
        slots.push(Slot::Gap { first: next, count: n - next });
    }
    slots
}

#[derive(Properties, PartialEq, Clone)]
struct ChipProps {
    index: usize,
    item: ChipItem,
    /// Its source partition (shown with several partitions) and arrival (processing time).
    partition: Option<u32>,
    arrival: Millis,
    outcome: &'static str,
    done: bool,
    current: bool,
    selected: bool,
    lifted: bool,
    target: bool,
    /// With several partitions the strip has a row per partition: (row, column) in its grid.
    cell: Option<(u32, usize)>,
    /// A crash item the playhead has passed: (checkpoint restored, first replayed item, 0-based).
    restore: Option<(Option<u32>, usize)>,
    /// The item was read again by the replay after a restore the playhead has passed.
    replayed: bool,
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
        ChipItem::Control(name) => {
            (name.to_string(), String::new(), "chip-control", format!("step {}: {name} item", i + 1))
        }
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
        p.replayed.then_some("replayed"),
        p.restore.is_some().then_some("restored"),
    );
    let meta = match p.partition {
        Some(part) => format!("p{part} @{}", format_millis(p.arrival)),
        None => format!("@{}", format_millis(p.arrival)),
    };
    let restore = p.restore.map(|(checkpoint, from)| {
        let from_chip = from + 1;
        let text = match checkpoint {
            Some(n) => format!("↺ checkpoint {n} · replay #{from_chip}–#{i}"),
            None => format!("↺ empty state · replay #{from_chip}–#{i}"),
        };
        let what = match checkpoint {
            Some(n) => format!("restore of checkpoint {n}, replay #{from_chip}–#{i}"),
            None => format!(
                "No checkpoint: Flink restarts with empty state and the source replays items #{from_chip} to #{i}"
            ),
        };
        (text, what, checkpoint, from)
    });
    let title = match (&restore, p.replayed) {
        (Some((_, what, _, _)), _) => format!("{title}; {what}"),
        (None, true) => format!("{title}; replayed"),
        (None, false) => title,
    };
    let title = format!(
        "{title}; {}arrives at processing time {} (Enter or double-click: edit)",
        p.partition.map(|part| format!("read from partition {part}, ")).unwrap_or_default(),
        format_millis(p.arrival)
    );
    let style = p.cell.map(|(row, column)| format!("grid-row:{};grid-column:{}", row + 1, column + 1));
    html! {
        <li {class} {style} id={format!("arrival-chip-{i}")} role="option" aria-selected={p.selected.to_string()}
            data-chip={i.to_string()} data-testid="arrival-item" data-index={i.to_string()}
            data-step={(i + 1).to_string()} data-partition={p.partition.map(|part| part.to_string())}
            data-arrival={p.arrival.to_string()} {title}>
            <span class="chip-step">{ format!("#{}", i + 1) }</span>
            <span class="chip-label">{ label }</span>
            <span class="chip-sub">{ sub }</span>
            if restore.is_none() && !p.replayed {
                <span class="chip-sub chip-meta">{ meta }</span>
            }
            if let Some((text, _, checkpoint, from)) = restore {
                <span class="chip-restore" data-testid="restore-marker" data-checkpoint={checkpoint.map(|n| n.to_string())}
                    data-from-item={from.to_string()}>{ text }</span>
            }
            if p.replayed {
                <span class="chip-sub chip-replayed" data-testid="replayed-marker">{ "↺ replayed" }</span>
            }
        </li>
    }
}

/// The chip under the pointer (the strip has the pointer captured, so ask the document).
fn chip_index_at(e: &MouseEvent) -> Option<usize> {
    let doc = web_sys::window()?.document()?;
    let el = doc.element_from_point(e.client_x() as f32, e.client_y() as f32)?;
    el.closest("[data-chip]").ok().flatten()?.get_attribute("data-chip")?.parse().ok()
}

/// With several partitions: the partition row under the pointer (the row labels line up with
/// the strip's grid rows).
fn partition_row_at(e: &MouseEvent) -> Option<u32> {
    let doc = web_sys::window()?.document()?;
    let labels = doc.query_selector_all("[data-partition-row]").ok()?;
    let y = f64::from(e.client_y());
    (0..labels.length()).filter_map(|i| labels.item(i)?.dyn_into::<DomElement>().ok()).find_map(|label| {
        let r = label.get_bounding_client_rect();
        (y >= r.top() - 3.0 && y < r.bottom() + 3.0).then(|| label.get_attribute("data-partition-row")?.parse().ok())?
    })
}

/// With several partitions the pointer may be over an empty cell: the chip in the same column
/// (found on another row at the pointer's x).
fn column_chip_at(e: &MouseEvent) -> Option<usize> {
    let doc = web_sys::window()?.document()?;
    let labels = doc.query_selector_all("[data-partition-row]").ok()?;
    (0..labels.length()).filter_map(|i| labels.item(i)?.dyn_into::<DomElement>().ok()).find_map(|label| {
        let r = label.get_bounding_client_rect();
        let el = doc.element_from_point(e.client_x() as f32, (r.top() + r.height() / 2.0) as f32)?;
        el.closest("[data-chip]").ok().flatten()?.get_attribute("data-chip")?.parse().ok()
    })
}

fn chip_of(e: &MouseEvent) -> Option<usize> {
    let el: DomElement = e.target()?.dyn_into().ok()?;
    el.closest("[data-chip]").ok().flatten()?.get_attribute("data-chip")?.parse().ok()
}

#[component]
pub fn ArrivalStrip(props: &ArrivalStripProps) -> Html {
    let state = props.state.clone();
    let s = state.get();
    let s: &AppState = &s;
    let dragging = matches!(s.drag, Some(Drag::Arrival { .. }));
    let (from, over, over_partition) = match s.drag {
        Some(Drag::Arrival { from, over, partition }) => (Some(from), Some(over), partition),
        _ => (None, None, None),
    };
    // Read from the whole input: once per change of it, not for each move of a drag.
    let facts = {
        let scenario = s.doc.scenario.clone();
        use_memo(s.input_version(), move |_| (scenario.partition_count(), scenario.arrivals()))
    };
    let (partitions, arrivals) = (facts.0, &facts.1);
    let several = partitions > 1;
    let partition_of = |i: usize| match s.doc.scenario.input.get(i) {
        Some(InputItem::Element(e)) => e.partition,
        Some(InputItem::SourceWatermark(m)) => m.partition,
        _ => 0,
    };
    // A drop on another partition's row moves the item there.
    let repartitioned = from.zip(over_partition).is_some_and(|(f, p)| partition_of(f) != p);
    let strip_ref = use_node_ref();
    // The strip's scroll position and width (a long strip renders what is in view).
    let scroll = use_state_eq(|| (0i32, 1600i32));
    {
        let (strip_ref, scroll) = (strip_ref.clone(), scroll.clone());
        use_effect_with((), move |()| {
            let listener = strip_ref.cast::<DomElement>().map(|el| {
                let read = |el: &DomElement| (el.scroll_left(), el.client_width());
                scroll.set(read(&el));
                let target = el.clone();
                gloo::events::EventListener::new(&target, "scroll", move |_| scroll.set(read(&el)))
            });
            move || drop(listener)
        });
    }
    // The item the playhead is after: the last one at the end of input (the step after it).
    let playhead_chip = s.play.step.min(s.doc.scenario.input.len()).checked_sub(1);
    // Keep the playhead's item in view (a scroll position, not state).
    {
        let strip_ref = strip_ref.clone();
        use_effect_with(playhead_chip, move |chip| {
            if let Some(strip) = strip_ref.cast::<web_sys::HtmlElement>()
                && let Some(chip) = chip
                && let Some(chip) = strip
                    .query_selector(&format!("[data-chip=\"{chip}\"]"))
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
            state.dispatch(Action::Drag(DragAction::Start { what: DragStart::Arrival(i), px: 0.0, millis: 0.0 }));
        })
    };
    let onpointermove = {
        let state = state.clone();
        Callback::from(move |e: PointerEvent| {
            if !dragging {
                return;
            }
            if let Some(i) = chip_index_at(&e).or_else(|| several.then(|| column_chip_at(&e)).flatten())
                && Some(i) != over
            {
                state.dispatch(Action::Drag(DragAction::Over(i)));
            }
            if several
                && let Some(p) = partition_row_at(&e)
                && Some(p) != over_partition
            {
                state.dispatch(Action::Drag(DragAction::OverPartition(p)));
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
                    && !repartitioned
                {
                    state.dispatch(Action::Drag(DragAction::End));
                    state.dispatch(Action::Play(PlayAction::SetStep(f + 1)));
                } else {
                    state.dispatch(Action::Drag(DragAction::End));
                }
            }
        })
    };
    let view = &s.fold.view;
    let step = s.play.step;
    let selected = s.selection.and_then(|o| o.input());
    // Restores the playhead has passed: (crash item, checkpoint, first replayed item).
    // Looked for only where the scenario has checkpoints or crashes: the run's outputs are read
    // whole at every render (at 100,000 elements ≈ 0.7 ms a drag move).
    let restores: Vec<(usize, Option<u32>, usize)> = if s.doc.layout.recovery {
        s.doc
            .run
            .outputs
            .iter()
            .filter_map(|o| match o {
                Output::Recovery(RecoveryLine::Restore { checkpoint, from_item, step: at }) if *at < step => {
                    Some((*at, *checkpoint, *from_item))
                }
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let n = s.doc.scenario.input.len();
    let pitch = if several { CELL_PITCH } else { CHIP_PITCH };
    let always = [selected, playhead_chip, from, over, several.then(|| n.saturating_sub(1))];
    let shown = rendered(n, *scroll, pitch, &always);
    let chips = shown.iter().filter_map(|i| s.doc.scenario.input.get(*i).map(|item| (*i, item))).map(|(i, item)| {
        let partition = match item {
            InputItem::Element(e) => e.partition,
            InputItem::SourceWatermark(m) => m.partition,
            InputItem::Watermark(_) | InputItem::Control(_) => 0,
        };
        let (item, outcome) = match item {
            InputItem::Element(e) => {
                let ordinal = s.doc.layout.elem_of_input.get(i).copied().flatten().map(|o| o as usize);
                let outcome = ordinal.and_then(|o| view.elements.get(o).copied().flatten());
                (
                    ChipItem::Element { id: e.id, key: AttrValue::from(e.key.as_str().to_owned()), value: e.value },
                    outcome.map_or("not-arrived", |o| o.label()),
                )
            }
            InputItem::Watermark(w) | InputItem::SourceWatermark(crate::engine::scenario::Marker { wm: w, .. }) => {
                (ChipItem::Watermark(*w), "watermark")
            }
            InputItem::Control(c) => (ChipItem::Control(c.kind.name()), c.kind.name()),
        };
        ChipProps {
            index: i,
            item,
            partition: several.then_some(partition),
            arrival: arrivals.get(i).copied().unwrap_or(0),
            outcome,
            done: i < step,
            current: i + 1 == step,
            selected: selected == Some(i),
            lifted: from == Some(i),
            target: over == Some(i) && from != Some(i),
            cell: several.then_some((partition, i)),
            restore: restores.iter().find(|(at, _, _)| *at == i).map(|(_, cp, from)| (*cp, *from)),
            replayed: restores.iter().any(|(at, _, from)| (*from..*at).contains(&i)),
        }
    });
    let slots = with_gaps(chips.collect(), n, several);
    // A double click edits the item: key, value, timestamp, partition and arrival.
    let ondblclick = {
        let state = state.clone();
        Callback::from(move |e: MouseEvent| {
            // The strip captured the pointer: the event's target is the strip, not the chip.
            if let Some(i) = chip_index_at(&e) {
                state.dispatch(Action::Editor(EditorAction::Open(i)));
            }
        })
    };
    // The keyboard alternative to the drags (TIMELINE_CONTRACT §4): ←/→ the previous/next item
    // (the playhead follows), Alt+←/→ move it one place in arrival order, Alt+↑/↓ to the
    // neighbouring partition, Enter edits it.
    let onkeydown = {
        let state = state.clone();
        let len = s.doc.scenario.input.len();
        let own_partition = selected.map(partition_of);
        Callback::from(move |e: KeyboardEvent| {
            if len == 0 || e.ctrl_key() || e.meta_key() {
                return;
            }
            // The item's kind read when a key is pressed, not the whole input's at every render.
            let object = |i: usize| {
                let element = matches!(state.get().doc.scenario.input.get(i), Some(InputItem::Element(_)));
                if element { ObjectId::Element(i) } else { ObjectId::WatermarkItem(i) }
            };
            let last = len - 1;
            let action = match (e.key().as_str(), e.alt_key(), selected) {
                ("ArrowLeft" | "ArrowRight", false, at) => {
                    let i = match (e.key().as_str(), at) {
                        (_, None) => 0,
                        ("ArrowLeft", Some(i)) => i.saturating_sub(1),
                        (_, Some(i)) => (i + 1).min(last),
                    };
                    state.dispatch(Action::Select(Some(object(i))));
                    Some(Action::Play(PlayAction::SetStep(i + 1)))
                }
                ("ArrowLeft", true, Some(i)) if i > 0 => {
                    Some(Action::Edit(EditAction::MoveInput { from: i, to: i - 1 }))
                }
                ("ArrowRight", true, Some(i)) if i < last => {
                    Some(Action::Edit(EditAction::MoveInput { from: i, to: i + 1 }))
                }
                ("ArrowUp" | "ArrowDown", true, Some(index)) if several => {
                    let p = own_partition.unwrap_or(0);
                    let partition =
                        if e.key() == "ArrowUp" { p.checked_sub(1) } else { (p + 1 < partitions).then_some(p + 1) };
                    partition.map(|partition| Action::Edit(EditAction::SetPartition { index, partition }))
                }
                ("Enter", false, Some(i)) => Some(Action::Editor(EditorAction::Open(i))),
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            if let Some(a) = action {
                state.dispatch(a);
            }
        })
    };
    let row_labels = several.then(|| {
        html! {
            <div class="strip-rows" aria-hidden="true">
                { for (0..partitions).map(|p| html! {
                    <div class={classes!("strip-row-label", (repartitioned && over_partition == Some(p)).then_some("drop-row"))}
                         data-partition-row={p.to_string()}>{ format!("p{p}") }</div>
                }) }
            </div>
        }
    });
    let active = selected.map(|i| format!("arrival-chip-{i}"));
    // Rows of the partitions: thinner the more there are, so the strip stays a strip.
    let row_px = match partitions {
        0..=2 => 30,
        3..=4 => 22,
        _ => 15,
    };
    let strip_style = several.then(|| format!("--rows:{partitions};--row-h:{row_px}px"));
    let insert = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Edit(EditAction::InsertWatermark { wm: None })))
    };
    let toggle = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Panel(PanelAction::ToggleTwoD)))
    };
    // The processing-time axis: processing-time windows always use it; a process function's
    // state TTL or processing-time timers may.
    let scenario = &s.doc.scenario;
    let forced = s.doc.layout.processing_windows;
    let offered = forced
        || matches!(
            scenario.process_function,
            Some(ProcessFunctionSpec::RequestAssembler { ttl: Some(_), .. })
                | Some(ProcessFunctionSpec::RequestAssembler { timer: TimeDomain::ProcessingTime, .. })
        );
    let on_processing = s.view.on_processing_axis(&s.doc.layout);
    let toggle_axis = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::View(ViewAction::ToggleProcessingAxis)))
    };
    html! {
        <div class="arrival" role="group" aria-label="Arrival order (processing time)" style={strip_style.clone()}>
            <div class="arrival-head">
                <span class="arrival-title">{ "arrival order" }</span>
                <button data-testid="insert-watermark" title="Insert a watermark item at the playhead (w)" onclick={insert}>{ "+ watermark" }</button>
                <button data-testid="toggle-2d" aria-pressed={s.chrome.two_d.to_string()} title="Event time × processing time (t)" onclick={toggle}>
                    { if s.chrome.two_d { "lanes" } else { "2-D" } }
                </button>
                if offered {
                    <button data-testid="toggle-processing-axis" aria-pressed={on_processing.to_string()} disabled={forced}
                            title={if forced { "Processing-time windows are drawn on the processing-time axis" } else { "Processing time (the arrivals) along the axis, for the state TTL and processing-time timers" }}
                            onclick={toggle_axis}>
                        { if on_processing { "event-time axis" } else { "processing-time axis" } }
                    </button>
                }
            </div>
            { row_labels.unwrap_or_default() }
            <ol ref={strip_ref} class={classes!("strip", dragging.then_some("dragging"), several.then_some("partitioned"))}
                data-testid="arrival-strip" tabindex="0" role="listbox"
                aria-label={if several { "Input items in arrival order, a row per source partition: arrows choose, Alt+arrows move (along arrival order, to another partition), Enter edits" } else { "Input items in arrival order: arrows choose, Alt+arrows move, Enter edits" }}
                aria-activedescendant={active}
                {onpointerdown} {onpointermove} {ondblclick} {onkeydown} onpointerup={onpointerup.clone()} onpointercancel={onpointerup}>
                <ChipList {slots} />
            </ol>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(index: usize) -> ChipProps {
        ChipProps {
            index,
            item: ChipItem::Watermark(0),
            partition: None,
            arrival: 0,
            outcome: "watermark",
            done: false,
            current: false,
            selected: false,
            lifted: false,
            target: false,
            cell: None,
            restore: None,
            replayed: false,
        }
    }

    /// A short strip renders every chip; a long one the chips in view with the overscan either
    /// side, and the ones it must always have (selected, current, dragged), wherever they are.
    #[test]
    fn a_long_strip_renders_the_chips_in_view_and_the_ones_it_must() {
        assert_eq!(rendered(VIRTUAL_ABOVE, (5_000, 1_000), CHIP_PITCH, &[]), (0..VIRTUAL_ABOVE).collect::<Vec<_>>());
        let n = 2_000;
        // Scrolled to chip 100, 1,000 px wide: chips 100..=116 in view.
        let shown = rendered(n, (100 * CHIP_PITCH + 8, 1_000), CHIP_PITCH, &[Some(1_999), None, Some(3)]);
        let first = 100 - OVERSCAN;
        let last = 100 + (1_000 / CHIP_PITCH) as usize + OVERSCAN;
        assert_eq!(shown, [vec![3], (first..=last).collect::<Vec<_>>(), vec![1_999]].concat());
        // At either end the range stops at the strip's ends.
        assert_eq!(rendered(n, (0, 1_000), CHIP_PITCH, &[])[0], 0);
        assert_eq!(*rendered(n, (n as i32 * CHIP_PITCH, 1_000), CHIP_PITCH, &[]).last().unwrap_or(&0), n - 1);
        assert!(rendered(n, (0, 1_000), CHIP_PITCH, &[]).len() < 100);
    }

    /// The chips left out are spacers of their chips' width, so that the rendered ones keep their
    /// place and the strip its scroll width; a grid (several partitions) places chips by column.
    #[test]
    fn the_chips_left_out_keep_their_room() {
        let slots = with_gaps([3, 4, 9].into_iter().map(props).collect(), 12, false);
        let shape: Vec<(usize, usize, bool)> = slots
            .iter()
            .map(|s| match s {
                Slot::Chip(c) => (c.index, 1, true),
                Slot::Gap { first, count } => (*first, *count, false),
            })
            .collect();
        assert_eq!(shape, vec![(0, 3, false), (3, 1, true), (4, 1, true), (5, 4, false), (9, 1, true), (10, 2, false)]);
        let covered: usize = shape.iter().map(|(_, count, _)| count).sum();
        assert_eq!(covered, 12);
        assert!(
            with_gaps([3, 9].into_iter().map(props).collect(), 12, true).iter().all(|s| matches!(s, Slot::Chip(_)))
        );
    }
}
