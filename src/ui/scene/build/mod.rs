//! Building the scene: every item's geometry and state, from the fold at the playhead, the run's
//! layout and the viewport. The drawing rules of the canvas live here (where a marble stacks, what
//! a window band says, where the watermark's label goes); a backend only turns items into pixels.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::engine::scenario::{InputItem, WatermarkSpec};
use crate::engine::time::{LONG_MAX, LONG_MIN, format_millis};
use crate::engine::trace::TimeDomain;
use crate::engine::view::{ElementOutcome, TimerStatus, WindowState};
use crate::engine::{Millis, Run, Scenario, Window};
use crate::teach::ValueFormat;
use crate::ui::action::{Drag, ObjectId, WatermarkTarget};
use crate::ui::geometry::{Viewport, clamp_px, format_duration, px_from_millis, snap, ticks, watermark_x};

pub mod room;
mod two_d;

use super::fold::{Effect, StepFold, result_text};
use super::layout::{RunLayout, dims};
use super::nav::Focusable;
use super::{
    Axis, Backend, BandLabel, BoundItem, DragLabel, Flight, GhostItem, Items, LaneItem, MarbleGroup, MarbleItem,
    STEP_MILLIS, Scene, SideLane, SideMarbleItem, TabStop, Tick, TileGrid, TimerItem, WatermarkItem, WindowGroup,
    WindowItem, find_marble,
};

/// Everything a scene is built from.
#[derive(Clone, Copy, Debug)]
pub struct SceneInput<'a> {
    /// The input is drawn from the scenario on show ...
    pub scenario: &'a Scenario,
    /// ... what the run made of it, with the scenario it was made from (`state::scenario::Doc`).
    pub shown: &'a Scenario,
    pub run: &'a Run,
    pub layout: &'a RunLayout,
    pub fold: &'a StepFold,
    pub viewport: Viewport,
    pub scale: f64,
    pub two_d: bool,
    /// Processing time along the axis: elements at their arrivals, the watermark line at the
    /// playhead's processing time (`ViewState::on_processing_axis`).
    pub processing_axis: bool,
    pub drag: Option<Drag>,
    pub selection: Option<ObjectId>,
    pub animate: bool,
    pub anim_seq: u64,
    pub speed: f64,
    pub snap_unit: Millis,
    /// The scenario's unit of values: window results and element names use it.
    pub values: ValueFormat,
}

/// How many input items one group of marbles holds: a drag redraws the group of the element it
/// moves, not all 2,000.
const GROUP_SIZE: usize = 64;
/// Vertical offsets of marbles that would overlap: alternately above and below the lane's line.
const STACK_OFFSETS: [f64; 5] = [0.0, -11.0, 11.0, -5.5, 5.5];

fn x_of(vp: &Viewport, ts: Millis) -> f64 {
    clamp_px(px_from_millis(vp, ts))
}

/// Delay of an effect (its place in the step's trace order), scaled to the playback speed.
fn delay_style(order: usize, n: usize, speed: f64) -> Rc<str> {
    let per = (STEP_MILLIS * 0.7 / n.max(1) as f64).min(160.0);
    Rc::from(format!("animation-delay: {:.0}ms", order as f64 * per / speed))
}

/// The key names, made once per scene and shared by its items (a drag rebuilds thousands of them).
struct Names {
    /// By the run's key id.
    keys: Vec<Rc<str>>,
    /// By lane.
    lanes: Vec<Rc<str>>,
}

impl Names {
    fn key(&self, key: u32) -> Rc<str> {
        self.keys.get(key as usize).cloned().unwrap_or_else(|| Rc::from(""))
    }
}

thread_local! {
    static GENERATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A number no earlier full build of this thread has had (from 1).
fn next_generation() -> u64 {
    GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    })
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

impl<'a> SceneInput<'a> {
    /// Where input item `input` (an element at `ts`) is drawn: its timestamp, or on the
    /// processing-time axis its arrival.
    fn item_x(&self, input: usize, ts: Millis) -> f64 {
        let t = if self.processing_axis { self.layout.arrivals.get(input).copied().unwrap_or(ts) } else { ts };
        x_of(&self.viewport, t)
    }

    /// The canvas object a selection is focused on (a watermark item: the handle).
    fn focus_of(&self, id: ObjectId) -> ObjectId {
        match id {
            ObjectId::WatermarkItem(_) => ObjectId::Watermark,
            other => other,
        }
    }

    fn tab(&self, id: ObjectId, entry: Option<ObjectId>) -> TabStop {
        if Some(id) == entry { TabStop::Entry } else { TabStop::Roving }
    }

    /// The order of an effect in the step just taken, when the step animates.
    fn effect_order(&self, f: impl Fn(&Effect) -> bool) -> Option<usize> {
        self.animate.then(|| self.fold.effect_order(f)).flatten()
    }

    fn delay(&self, order: Option<usize>) -> Option<Rc<str>> {
        order.map(|o| delay_style(o, self.fold.effects.len(), self.speed))
    }

    pub fn build(&self) -> Scene {
        let vp = self.viewport;
        let height = if self.two_d { two_d::height(self.run.steps) } else { self.layout.height };
        // Tab enters the canvas on the selected object, or else on the first element in event time.
        let first_element = self
            .scenario
            .input
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match item {
                InputItem::Element(e) if self.layout.elem_of_input.get(i).copied().flatten().is_some() => {
                    Some((e.ts, i))
                }
                _ => None,
            })
            .min()
            .map(|(_, i)| ObjectId::Element(i));
        let entry = self.selection.map(|s| self.focus_of(s)).or(first_element).or(Some(ObjectId::Watermark));
        let names = Names {
            keys: self.run.keys.iter().map(|k| Rc::from(k.as_str())).collect(),
            lanes: self.layout.lanes.iter().map(|l| Rc::from(l.key.as_str())).collect(),
        };
        let two_d = self.two_d.then(|| self.two_d_view(entry, &names));
        let marbles = if self.two_d { Vec::new() } else { self.marble_groups(entry, &names) };
        let element_count =
            marbles.iter().map(|g| g.items.len()).sum::<usize>() + two_d.as_ref().map_or(0, |t| t.dots.len());
        let backend = Backend::for_elements(element_count);
        let mut scene = Scene {
            backend,
            generation: next_generation(),
            width: vp.width_px,
            height,
            scale: self.scale,
            axis: self.axis(),
            lanes: self
                .layout
                .lanes
                .iter()
                .zip(&names.lanes)
                .map(|(l, key)| LaneItem { key: key.clone(), y: l.y, height: l.height, marble_y: l.marble_y() })
                .collect(),
            partitions: Rc::from(super::source::partition_items(
                &self.fold.source,
                self.layout,
                &vp,
                entry,
                self.two_d || self.processing_axis,
            )),
            side: self.side_lane(entry, backend),
            // On the processing-time axis only processing-time windows have a place.
            windows: if self.two_d || (self.processing_axis && self.scenario.assigner.is_event_time()) {
                Vec::new()
            } else {
                self.windows(entry, &names, backend)
            },
            timers: if self.two_d { Rc::default() } else { self.timers(entry, &names) },
            expiries: if self.two_d || self.shown.process_function.is_none() {
                Rc::from([])
            } else {
                let step = self.fold.view.step;
                Rc::from(super::process::expiries(self.run, self.layout, &vp, step, self.processing_axis))
            },
            marbles,
            grid: self.tile_grid(backend),
            lifted: None,
            flights: if self.two_d || !self.animate { Rc::from([]) } else { self.flights() },
            watermark: self.watermark(height, entry),
            drag_label: self.drag_label(),
            hint: (self.fold.view.step == 0 && !self.two_d).then_some(vp.width_px / 2.0),
            two_d,
            tvf_rows: if self.two_d { Rc::from([]) } else { self.tvf_rows(&names.keys) },
            marks: Vec::new(),
            animate: self.animate,
            anim_seq: self.anim_seq,
            fx_ms: 520.0 / self.speed,
            dragging: self.drag.is_some(),
            element_count,
            window_count: 0,
            entry,
            overlay: Vec::new(),
        };
        scene.window_count = scene.windows.iter().map(|g| g.items.len()).sum();
        self.lift(&mut scene);
        let dragged = match self.drag {
            Some(Drag::Element { index, .. }) => Some(ObjectId::Element(index)),
            _ => None,
        };
        for id in [entry, self.selection.map(|s| self.focus_of(s)), dragged].into_iter().flatten() {
            if !scene.overlay.contains(&id) {
                scene.overlay.push(id);
            }
        }
        scene
    }

    fn axis(&self) -> Axis {
        let vp = &self.viewport;
        let ticks = ticks(vp)
            .into_iter()
            .map(|t| {
                // Labels stay inside the canvas at both edges.
                let half = t.label.chars().count() as f64 * 3.8 + 2.0;
                Tick {
                    key: t.millis,
                    x: t.px,
                    label_x: t.px.clamp(half, (vp.width_px - half).max(half)),
                    label: t.label,
                }
            })
            .collect();
        Axis { ticks, processing_axis: self.processing_axis }
    }

    fn side_lane(&self, entry: Option<ObjectId>, backend: Backend) -> SideLane {
        let y = self.layout.side_lane_y;
        let view = &self.fold.view;
        let dropping = self.fold.effects.len();
        let mut items: Vec<SideMarbleItem> = Vec::new();
        if !self.two_d {
            for (i, o) in view.elements.iter().enumerate() {
                if *o != Some(ElementOutcome::SideOutput) {
                    continue;
                }
                let (Some(el), Some(&input)) = (self.run.elements.get(i), self.layout.input_of_elem.get(i)) else {
                    continue;
                };
                // Only an animated step has effects to look up.
                let drop_in =
                    self.effect_order(|e| matches!(e, Effect::SideOutput { elem } if *elem as usize == i)).map(|o| {
                        let from_y = self.layout.lane_of_key(el.key).map_or(y, |l| l.marble_y());
                        let delay = delay_style(o, dropping, self.speed);
                        Rc::from(format!("--from-dy: {:.0}px; {delay}", from_y - (y + 26.0)))
                    });
                let id = ObjectId::Late(input);
                items.push(SideMarbleItem {
                    id,
                    elem: i,
                    elem_id: el.id,
                    ts: el.ts,
                    fate: self.layout.fates.handle(i, view.step),
                    x: round1(self.item_x(input, el.ts)),
                    y: y + 26.0,
                    label: true,
                    drop_in,
                    tab: self.tab(id, entry),
                });
            }
        }
        // One row of marbles: an id where it has room (`room`), as in the key lanes.
        if backend == Backend::Svg {
            // The key lanes' sort, all in one lane (no second sort in the main `.wasm`).
            let order = lane_x_order(&items.iter().map(|m| (0, 0, m.x)).collect::<Vec<_>>());
            let tags: Vec<room::Tag> =
                items.iter().map(|m| room::Tag { x: m.x, y: m.y, width: room::id_width(m.elem_id) }).collect();
            let mut labelled = vec![true; items.len()];
            room::mark_clear(&order, &tags, &mut labelled);
            for (m, label) in items.iter_mut().zip(labelled) {
                m.label = label;
            }
        }
        let mut groups: BTreeMap<usize, Vec<SideMarbleItem>> = BTreeMap::new();
        for m in items {
            groups.entry(m.elem / GROUP_SIZE).or_default().push(m);
        }
        SideLane {
            y,
            enabled: self.scenario.side_output,
            groups: groups.into_iter().map(|(k, v)| (k, Rc::from(v))).collect(),
        }
    }

    /// The tile columns the scene's groups are cut by: the SVG backend's (`TileGrid`), none for
    /// the canvas backend's.
    fn tile_grid(&self, backend: Backend) -> TileGrid {
        if backend == Backend::Svg { TileGrid::of(&self.viewport) } else { TileGrid::default() }
    }

    fn windows(&self, entry: Option<ObjectId>, names: &Names, backend: Backend) -> Vec<WindowGroup> {
        let vp = &self.viewport;
        let view = &self.fold.view;
        let lateness = self.scenario.lateness();
        let max_contents = view.windows.iter().map(|w| w.contents.len()).max().unwrap_or(1).max(1);
        // Each lane's list made at its size (grown by doubling, the lists of 100,000 windows left
        // their outgrown blocks behind them).
        let mut per_lane = vec![0usize; self.layout.lanes.len()];
        for w in &view.windows {
            if let Some(n) = self.layout.lane_of_run_key.get(w.key as usize).and_then(|l| per_lane.get_mut(*l)) {
                *n += 1;
            }
        }
        // With the SVG backend, a group per lane and tile column (`TileGrid`).
        let grid = self.tile_grid(backend);
        let mut groups: BTreeMap<(usize, i64), Vec<WindowItem>> = BTreeMap::new();
        for (wi, w) in view.windows.iter().enumerate() {
            let Some(lane) = self.layout.lane_of_key(w.key) else { continue };
            let merged = matches!(w.state, WindowState::Merged { .. });
            let row = if merged { 0 } else { self.layout.row_of(w.key, &w.window) };
            let (x0, x1, bounds) = match w.window {
                Window::Global => (-2.0, vp.width_px + 2.0, None),
                Window::Time(tw) => {
                    let x1 = if tw.end >= tw.start { x_of(vp, tw.end) } else { vp.width_px + 2.0 };
                    (x_of(vp, tw.start), x1, Some((tw.start, tw.end)))
                }
            };
            let width = (x1 - x0 - 1.0).max(2.0);
            let last = self.fold.last_fire.get(wi).copied().flatten();
            let label = match w.state {
                WindowState::Merged { .. } => BandLabel::None,
                WindowState::CleanedUp if width > 80.0 => BandLabel::Text(Rc::from("cleaned up")),
                WindowState::CleanedUp => BandLabel::None,
                _ => {
                    let n = w.contents.len();
                    match (width, last) {
                        (w, Some(_)) if w > 150.0 => BandLabel::Text(Rc::from(format!(
                            "{n} in state · {}",
                            result_text(self.shown, self.run, last, self.values)
                        ))),
                        (w, Some(_)) if w > 70.0 => BandLabel::Text(Rc::from(format!(
                            "{n} · {}",
                            result_text(self.shown, self.run, last, self.values)
                        ))),
                        (w, None) if w > 90.0 => BandLabel::Text(Rc::from(format!("{n} in state"))),
                        _ => BandLabel::Count,
                    }
                }
            };
            let hatch_px = match w.window {
                Window::Time(tw) if lateness > 0 && w.state.is_live() && tw.end > tw.start => {
                    Some((x_of(vp, tw.end.saturating_add(lateness)) - x1).max(0.0))
                }
                _ => None,
            };
            let same = |key: &u32, window: &Window| *key == w.key && *window == w.window;
            let born = self.effect_order(|e| matches!(e, Effect::WindowCreated { key, window } if same(key, window)));
            let fired = self.effect_order(|e| matches!(e, Effect::Fired { key, window, .. } if same(key, window)));
            let emptied = self.effect_order(|e| matches!(e, Effect::CleanedUp { key, window } if same(key, window)));
            let merging = self.animate && merged && w.ended_step.is_some_and(|e| e + 1 == view.step);
            let fill = w.contents.len() as f64 / max_contents as f64;
            let id = ObjectId::Window { key: w.key, window: w.window };
            let lane_ix = self.layout.lane_of_run_key.get(w.key as usize).copied().unwrap_or(0);
            let room = per_lane.get(lane_ix).copied().unwrap_or(0);
            let column = grid.column(x0);
            groups
                .entry((lane_ix, column))
                .or_insert_with(|| Vec::with_capacity(if grid.width > 0.0 { 0 } else { room }))
                .push(WindowItem {
                    id,
                    key_name: names.key(w.key),
                    bounds,
                    state: w.state.label(),
                    live: w.state.is_live(),
                    merged,
                    count: w.contents.len(),
                    firings: w.firings,
                    label,
                    x0,
                    width,
                    y: lane.row_y(row),
                    height: lane.row_height() - 4.0,
                    hatch_px,
                    lateness,
                    fill: (fill * 1000.0).round() / 1000.0,
                    merging,
                    born: self.delay(born),
                    pulse: self.delay(fired),
                    emptying: self.delay(emptied),
                    tab: self.tab(id, entry),
                });
        }
        groups.into_iter().map(|((lane, column), items)| WindowGroup { lane, column, items: Rc::new(items) }).collect()
    }

    fn timers(&self, entry: Option<ObjectId>, names: &Names) -> Items<TimerItem> {
        let vp = &self.viewport;
        // One glyph per (key, time): the timer service deduplicates (key, window, time) anyway.
        let mut seen: BTreeMap<(u32, Millis), ()> = BTreeMap::new();
        // At most one per view timer (fewer: one a key and time, of the axis's clock), shrunk after.
        let mut out = Vec::with_capacity(self.fold.view.timers.len());
        let function = self.shown.process_function.is_some();
        let ignored = if function { super::process::ignored_timers(self.run, self.fold.view.step) } else { Vec::new() };
        // Each axis shows the timers of its own clock.
        let domain = if self.processing_axis { TimeDomain::ProcessingTime } else { TimeDomain::EventTime };
        for t in self.fold.view.timers.iter().filter(|t| t.domain == domain) {
            if seen.insert((t.key, t.time), ()).is_some() {
                continue;
            }
            let Some(lane) = self.layout.lane_of_key(t.key) else { continue };
            let x = if t.time == LONG_MAX { vp.width_px - 8.0 } else { x_of(vp, t.time) };
            let kind = match (t.purpose.trigger, t.purpose.cleanup) {
                (true, true) => "both",
                (true, false) => "trigger",
                _ => "cleanup",
            };
            let flash = (t.status == TimerStatus::Fired)
                .then(|| {
                    self.effect_order(
                        |e| matches!(e, Effect::TimerFired { key, time } if *key == t.key && *time == t.time),
                    )
                })
                .flatten();
            let born =
                self.animate
                    && t.status == TimerStatus::Registered
                    && self.fold.effects.iter().any(
                        |e| matches!(e, Effect::TimerRegistered { key, time } if *key == t.key && *time == t.time),
                    );
            let id = ObjectId::Timer { key: t.key, time: t.time };
            out.push(TimerItem {
                id,
                key_name: names.key(t.key),
                time: t.time,
                kind,
                purpose: t.purpose.label(),
                status: t.status,
                x: round1(x),
                y: lane.timer_y(),
                born,
                flash: self.delay(flash),
                function,
                ignored: t.status == TimerStatus::Fired && ignored.contains(&(t.key, t.time)),
                tab: self.tab(id, entry),
            });
        }
        out.shrink_to_fit();
        Rc::new(out)
    }

    fn marble_groups(&self, entry: Option<ObjectId>, names: &Names) -> Vec<MarbleGroup> {
        let view = &self.fold.view;
        let layout = self.layout;
        // (input index, lane, x) of every element, then a level per element: in x order per lane,
        // the first level whose previous marble is at least a diameter away.
        let placed: Vec<(usize, usize, f64)> = self
            .scenario
            .input
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let InputItem::Element(e) = item else { return None };
                let ordinal = layout.elem_of_input.get(i).copied().flatten()? as usize;
                Some((i, *layout.lane_of_elem.get(ordinal)?, self.item_x(i, e.ts)))
            })
            .collect();
        let order = lane_x_order(&placed);
        let mut level = vec![0usize; placed.len()];
        let mut last = [f64::NEG_INFINITY; STACK_OFFSETS.len()];
        let mut lane_now = usize::MAX;
        for &k in &order {
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
        let labelled = self.room_for_ids(&placed, &order, &level);
        // Groups of up to GROUP_SIZE input items per lane: dragging an element redraws its group
        // only. With the SVG backend each is cut where its items' tile column changes, in input
        // order (`find_marble` searches the groups of a lane by their items' input order).
        let grid = self.tile_grid(Backend::for_elements(placed.len()));
        let mut groups: BTreeMap<(usize, usize, usize), (i64, Vec<MarbleItem>)> = BTreeMap::new();
        // Per lane: the input chunk of its last item, the chunk's part and that part's column.
        let mut cut = vec![(usize::MAX, 0usize, 0i64); self.layout.lanes.len()];
        for ((&(i, lane_ix, x), l), label) in placed.iter().zip(level).zip(labelled) {
            let Some(InputItem::Element(e)) = self.scenario.input.get(i) else { continue };
            let Some(ordinal) = layout.elem_of_input.get(i).copied().flatten().map(|o| o as usize) else { continue };
            // One name per lane of the layout.
            let Some(key_name) = names.lanes.get(lane_ix) else { continue };
            let arrived = self.effect_order(|f| matches!(f, Effect::Arrived { elem } if *elem as usize == ordinal));
            let dropped = self.effect_order(|f| matches!(f, Effect::Dropped { elem } if *elem as usize == ordinal));
            let id = ObjectId::Element(i);
            // Of the x the marble is drawn at.
            let column = grid.column(round1(x));
            // Each lane's items come in input order: its chunks one after the other.
            let Some((chunk, part, at)) = cut.get_mut(lane_ix) else { continue };
            if *chunk != i / GROUP_SIZE {
                (*chunk, *part, *at) = (i / GROUP_SIZE, 0, column);
            } else if *at != column {
                (*part, *at) = (*part + 1, column);
            }
            groups.entry((lane_ix, i / GROUP_SIZE, *part)).or_insert_with(|| (column, Vec::new())).1.push(MarbleItem {
                id,
                index: i,
                elem_id: e.id,
                key_name: key_name.clone(),
                ts: e.ts,
                value: e.value,
                values: self.values,
                x: round1(x),
                y: self.stacked_y(lane_ix, l),
                label,
                outcome: view.elements.get(ordinal).copied().flatten(),
                fate: layout.fates.handle(ordinal, view.step),
                selected: self.selection == Some(id),
                anim: self.delay(arrived),
                crossing: self.delay(dropped),
                tab: self.tab(id, entry),
                origin: false,
            });
        }
        groups
            .into_iter()
            .map(|((lane, chunk, part), (column, items))| MarbleGroup {
                key: Rc::from(format!("{lane}:{chunk}:{part}")),
                lane,
                column,
                items: Rc::new(items),
            })
            .collect()
    }

    /// A marble's height in lane `lane` on stacking row `level`.
    fn stacked_y(&self, lane: usize, level: usize) -> f64 {
        // Stacked marbles spread out as the lanes grow (a projector's tall lanes).
        self.layout.lanes.get(lane).map_or(0.0, |l| l.marble_y() + STACK_OFFSETS[level] * l.stretch.clamp(1.0, 1.6))
    }

    /// Whether each placed marble (`marble_groups`: `placed`, in `order` by lane and x, on its
    /// stacking `level`) has room for its id (`room`). Only the SVG backend draws ids in the lanes;
    /// the canvas backend's DOM overlay draws its few marbles apart, each with its id.
    fn room_for_ids(&self, placed: &[(usize, usize, f64)], order: &[usize], level: &[usize]) -> Vec<bool> {
        if Backend::for_elements(placed.len()) != Backend::Svg {
            return vec![true; placed.len()];
        }
        let id_of = |k: usize| match self.scenario.input.get(placed[k].0) {
            Some(InputItem::Element(e)) => e.id,
            _ => 0,
        };
        let tags: Vec<room::Tag> = (0..placed.len())
            .map(|k| room::Tag {
                // Where it is drawn.
                x: round1(placed[k].2),
                y: self.stacked_y(placed[k].1, level[k]),
                width: room::id_width(id_of(k)),
            })
            .collect();
        let mut labelled = vec![true; placed.len()];
        for lane in order.chunk_by(|a, b| placed[*a].1 == placed[*b].1) {
            room::mark_clear(lane, &tags, &mut labelled);
        }
        labelled
    }

    /// Transient shapes for the step just taken: elements flying into their windows.
    fn flights(&self) -> Rc<[Flight]> {
        let vp = &self.viewport;
        let n = self.fold.effects.len();
        let items = self.fold.effects.iter().enumerate().filter_map(|(order, e)| {
            let Effect::Added { elem, key, window } = e else { return None };
            let el = self.run.elements.get(*elem as usize)?;
            let lane = self.layout.lane_of_key(*key)?;
            let input = self.layout.input_of_elem.get(*elem as usize).copied().unwrap_or(0);
            let (x0, y0) = (self.item_x(input, el.ts), lane.marble_y());
            let row = self.layout.row_of(*key, window);
            let x1 = match window {
                Window::Global => x0,
                Window::Time(tw) => x_of(vp, tw.start).max(x0.min(x_of(vp, tw.end) - 10.0)),
            };
            let y1 = lane.row_y(row) + lane.row_height() / 2.0 - 2.0;
            Some(Flight { x: x0, y: y0, dx: x1 - x0, dy: y1 - y0, delay: delay_style(order, n, self.speed) })
        });
        items.collect()
    }

    fn watermark(&self, height: f64, entry: Option<ObjectId>) -> WatermarkItem {
        let vp = &self.viewport;
        let view = &self.fold.view;
        let wm = view.watermark;
        let mut label = match wm {
            LONG_MIN => "watermark: Long.MIN (none yet)".to_string(),
            LONG_MAX => "watermark: Long.MAX (end of input)".to_string(),
            w => format!("watermark {}", format_millis(w)),
        };
        let mut x = watermark_x(vp, wm);
        // The processing-time axis: the line is the processing time at the playhead; the
        // watermark (event time) is only named.
        if self.processing_axis {
            let now = self.fold.source.now;
            label = format!("now {} · {label}", format_millis(now));
            x = watermark_x(vp, now);
        }
        let label_w = label.chars().count() as f64 * 7.5 + 16.0;
        // Keep the label on screen: to the left of the line near the right edge.
        let label_x = if x + label_w > vp.width_px { x - label_w } else { x };
        let top = dims::AXIS_HEIGHT - 38.0;
        // Bounded out-of-orderness: the bound is the gap between the largest timestamp and the line.
        let bound = match (self.scenario.watermarks, view.max_timestamp) {
            _ if self.processing_axis => None,
            (WatermarkSpec::BoundedOutOfOrderness { bound }, Some(max_ts)) if wm != LONG_MAX && wm != LONG_MIN => {
                Some(BoundItem { bound, max_ts_x: x_of(vp, max_ts), x })
            }
            (WatermarkSpec::Monotonous, Some(max_ts)) if wm != LONG_MAX && wm != LONG_MIN => {
                Some(BoundItem { bound: 0, max_ts_x: x_of(vp, max_ts), x })
            }
            _ => None,
        };
        // Explicit watermarks: the item a drag moves, when it is not where the line is.
        let item = match self.drag {
            Some(Drag::Watermark { target: WatermarkTarget::Item(i) }) => Some(i),
            _ => self
                .selection
                .and_then(|s| s.input())
                .filter(|i| self.scenario.input.get(*i).and_then(InputItem::watermark).is_some())
                .or(self.fold.wm_item),
        };
        let item = item.filter(|_| !self.processing_axis);
        let ghost = item.and_then(|i| match self.scenario.input.get(i).and_then(InputItem::watermark) {
            Some(v) if v != wm && v != LONG_MAX && v != LONG_MIN => {
                let gx = x_of(vp, v);
                let text = format!("item #{} wm {}", i + 1, format_millis(v));
                // On screen like the flag: to the left of the line when it would run off the right.
                let (text_x, anchor) = if gx + 4.0 + text.chars().count() as f64 * 7.0 > vp.width_px {
                    (gx - 4.0, "end")
                } else {
                    (gx + 4.0, "start")
                };
                Some(GhostItem { wm: v, x: gx, text_x, anchor, text })
            }
            _ => None,
        });
        let help = match self.scenario.watermarks {
            _ if self.processing_axis => "Processing time at the playhead (the arrivals); the watermark is event time",
            WatermarkSpec::Explicit => "Drag to move the selected watermark item (or the one that set this watermark)",
            WatermarkSpec::BoundedOutOfOrderness { .. } | WatermarkSpec::Monotonous => {
                "Derived: largest timestamp − bound − 1. Drag to change the bound"
            }
        };
        WatermarkItem {
            wm,
            x,
            label,
            label_x,
            label_w,
            top,
            bottom: height,
            active: matches!(self.drag, Some(Drag::Watermark { .. })),
            bound,
            ghost,
            help,
            tab: self.tab(ObjectId::Watermark, entry),
        }
    }

    /// The scene of a drag move while the run of the moved element is still out: `old` (the scene
    /// of the run on show) with the dragged element's marble at its new timestamp and the drag
    /// label following it, in the same generation, so that the canvas backend moves the element in
    /// its overlay and leaves the bulk drawing alone; with the SVG backend the copy lifted at the
    /// press (`lift`) moves, drawn apart with the label, and the marble stays where it was. The marble keeps its outcome and its stacking
    /// row until the run comes back and the full build places it. `None` (build in full) for
    /// anything but an element dragged along event time in the lanes, or when `old` has no marble
    /// for it.
    pub fn drag_moved(&self, old: &Scene) -> Option<Scene> {
        let Some(Drag::Element { index, arrival: false, .. }) = self.drag else { return None };
        if self.two_d || self.processing_axis {
            return None;
        }
        let Some(InputItem::Element(e)) = self.scenario.input.get(index) else { return None };
        let x = round1(self.item_x(index, e.ts));
        let mut scene = old.clone();
        place_dragged(&mut scene, index, |m| place_marble(m, e.ts, e.value, x))?;
        scene.drag_label = self.drag_label();
        Some(scene)
    }

    /// The scene at the drop of element `index`, dragged along event time, while the drop's run
    /// is still out (a worker's run): `old` (the last move's scene) with the marble at its
    /// dropped, snapped time and the drag over (no label), in the same generation. On the canvas
    /// backend the marble moves in the overlay and the bulk drawing is not drawn again, as during
    /// the moves (a full build here as well cost 120 ms of the release at 100,000 elements); on
    /// the SVG backend the copy lifted at the press moves and stays drawn apart until the answer,
    /// so that the scene's `<svg>`s change nothing. The run's answer builds the scene in full.
    /// `None` (build in full) for anything else.
    pub fn dropped(&self, old: &Scene, index: usize) -> Option<Scene> {
        if self.drag.is_some() || !old.dragging || self.two_d || self.processing_axis {
            return None;
        }
        let Some(InputItem::Element(e)) = self.scenario.input.get(index) else { return None };
        let mut scene = old.clone();
        let x = round1(self.item_x(index, e.ts));
        place_dragged(&mut scene, index, |m| place_marble(m, e.ts, e.value, x))?;
        scene.dragging = false;
        scene.drag_label = None;
        Some(scene)
    }

    /// The scene of a press on an element in the lanes (a drag starts on it and selects it):
    /// `old` (the scene before it, nothing dragged, an element the Tab entry) with the pressed
    /// marble selected and the Tab entry, the old entry's marble not, and the drag on. The rest of
    /// the scene does not depend on which element is the entry, so only the groups of those two
    /// marbles change: on the SVG backend Yew reconciles two groups instead of the whole scene (a
    /// full build and its reconcile were a 50-60 ms task at 2,000 elements); the canvas backend
    /// keeps the generation, so its bulk drawing, which shows no selection, is not drawn again (a
    /// full build and a redraw were 100-350 ms at 100,000). Equal to a full build but for its
    /// generation (tests). `None` (build in full) for anything else.
    pub fn pressed(&self, old: &Scene) -> Option<Scene> {
        let Some(Drag::Element { index, arrival: false, .. }) = self.drag else { return None };
        let id = ObjectId::Element(index);
        let was = match old.entry {
            Some(ObjectId::Element(i)) => i,
            _ => return None,
        };
        if old.dragging || old.lifted.is_some() || self.two_d || self.selection != Some(id) {
            return None;
        }
        let pressed = find_marble(&old.marbles, index)?.0;
        let mut scene = old.clone();
        let groups = [Some(pressed), find_marble(&old.marbles, was).map(|(g, _)| g).filter(|g| *g != pressed)];
        for g in groups.into_iter().flatten() {
            let Some(group) = scene.marbles.get_mut(g) else { continue };
            let mut items = group.items.to_vec();
            for m in &mut items {
                m.selected = m.id == id;
                m.tab = self.tab(m.id, Some(id));
            }
            group.items = Rc::new(items);
        }
        scene.entry = Some(id);
        scene.overlay = vec![id];
        scene.dragging = true;
        scene.drag_label = self.drag_label();
        self.lift(&mut scene);
        Some(scene)
    }

    /// With the SVG backend, an element dragged along event time in the lanes is drawn twice
    /// from the press on: its marble stays in its group, where the run on show placed it
    /// (`MarbleItem::origin`: the same node, with the focus, but for its test id, drawn unselected), and a copy,
    /// `Scene::lifted`, follows the pointer in an `<svg>` of its own with the drag label.
    /// Anything the scene's `<svg>` draws differently during a drag (the marble taken out of its
    /// group at the first move, as before) had Chromium paint and layerize the whole scene again,
    /// 50-90 ms at 2,000 elements; the overlay's first drawing made a full layerize too (17-27 ms),
    /// so it comes at the press, with the label, and the moves only move it. The canvas backend
    /// keeps its bulk drawing and moves the element in its DOM overlay.
    fn lift(&self, scene: &mut Scene) {
        let Some(Drag::Element { index, arrival: false, .. }) = self.drag else { return };
        if scene.backend != Backend::Svg || self.two_d || self.processing_axis {
            return;
        }
        let Some((g, k)) = find_marble(&scene.marbles, index) else { return };
        let group = &mut scene.marbles[g];
        let mut items = group.items.to_vec();
        let mut copy = items[k].clone();
        // The element dragged is named wherever it goes.
        copy.label = true;
        items[k].origin = true;
        // The copy, on top, shows the selection; the origin keeps the look it had before the
        // press (unselected, as a marble pressed is mostly the first time), so that the press
        // changes no paint of the scene's `<svg>` either (its repaint and layerize were a 50-70 ms
        // frame at 2,000 elements when they came in the drag's first frames).
        items[k].selected = false;
        group.items = Rc::new(items);
        scene.lifted = Some(copy);
    }

    fn drag_label(&self) -> Option<DragLabel> {
        let Some(Drag::Element { index, .. }) = self.drag else { return None };
        let Some(InputItem::Element(e)) = self.scenario.input.get(index) else { return None };
        let vp = &self.viewport;
        let x = self.item_x(index, e.ts);
        let snapped = snap(e.ts, self.snap_unit);
        let text = if self.processing_axis {
            let at = self.layout.arrivals.get(index).copied().unwrap_or(0);
            format!("arrival {} → drops at {}", format_millis(at), format_millis(snap(at, self.snap_unit)))
        } else if snapped == e.ts {
            format!("ts {}", format_millis(e.ts))
        } else {
            format!("ts {} → drops at {}", format_millis(e.ts), format_millis(snapped))
        };
        let width = text.chars().count() as f64 * 7.3 + 12.0;
        let label_x = (x - width / 2.0).clamp(0.0, (vp.width_px - width).max(0.0));
        Some(DragLabel { ts: e.ts, x, label_x, width, text, bottom: self.layout.height })
    }
}

/// The order of `placed` items (input index, lane, x) by lane, then x (ties in input order).
fn lane_x_order(placed: &[(usize, usize, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..placed.len()).collect();
    crate::teach::sort::stable_by(&mut order, |a, b| {
        let (pa, pb) = (placed[*a], placed[*b]);
        pa.1.cmp(&pb.1).then(pa.2.total_cmp(&pb.2))
    });
    order
}

/// A dragged element's marble at its new timestamp (and value), at `x`. Not inlined: it is called
/// from three places, and the page's main `.wasm` is at its size budget (scripts/test).
#[inline(never)]
fn place_marble(m: &mut MarbleItem, ts: Millis, value: i64, x: f64) {
    m.ts = ts;
    m.value = value;
    m.x = x;
}

/// Places the dragged element `index` of `scene` with `place`: on the SVG backend its copy lifted
/// since the press (`SceneInput::lift`), drawn apart, so that the scene's `<svg>`s change nothing;
/// on the canvas backend its marble in its group, drawn in the overlay. `None` where it has none.
fn place_dragged(scene: &mut Scene, index: usize, place: impl FnOnce(&mut MarbleItem)) -> Option<()> {
    if scene.backend == Backend::Svg {
        match &mut scene.lifted {
            Some(m) if m.index == index => place(m),
            _ => return None,
        }
        Some(())
    } else {
        place_in_groups(&mut scene.marbles, index, place)
    }
}

/// Changes element `index`'s marble with `place`, in a copy of its group's items (the other
/// groups stay shared with the scene it came from); `None` when no group has it.
fn place_in_groups(groups: &mut [MarbleGroup], index: usize, place: impl FnOnce(&mut MarbleItem)) -> Option<()> {
    let (g, k) = find_marble(groups, index)?;
    let group = &mut groups[g];
    let mut items = group.items.to_vec();
    place(&mut items[k]);
    group.items = Rc::new(items);
    Some(())
}

impl Scene {
    /// Every object the keyboard can focus, with its lane (key lanes in order, then the side
    /// output) and x; in the 2-D view, the elements in one row.
    pub fn focusables(&self) -> Vec<Focusable> {
        let mut out = Vec::new();
        if let Some(t) = &self.two_d {
            out.extend(t.dots.iter().map(|m| Focusable { id: m.id, lane: 0, x: m.x }));
            return out;
        }
        // ↑/↓ order: the partitions' tracks (above), the key lanes, the side output.
        let tracks = self.tracks();
        let lane_of_y = |y: f64| self.lane_at(tracks, y);
        for (i, p) in self.partitions.iter().filter(|p| p.drawn).enumerate() {
            out.push(Focusable { id: p.id, lane: i, x: p.x });
        }
        for m in self.marble_items() {
            out.push(Focusable { id: m.id, lane: lane_of_y(m.y), x: m.x });
        }
        for g in &self.windows {
            let lane = tracks + g.lane;
            out.extend(g.items.iter().filter(|w| !w.merged).map(|w| Focusable { id: w.id, lane, x: w.x0 }));
        }
        out.extend(self.timers.iter().map(|t| Focusable { id: t.id, lane: lane_of_y(t.y), x: t.x }));
        let side = tracks + self.lanes.len();
        for (_, g) in &self.side.groups {
            out.extend(g.iter().map(|m| Focusable { id: m.id, lane: side, x: m.x }));
        }
        for lane in 0..(tracks + self.lanes.len()).max(1) {
            out.push(Focusable { id: ObjectId::Watermark, lane, x: self.watermark.x });
        }
        out
    }

    /// The lane of the first of [`Scene::focusables`] that is `id`. An element's is found without
    /// listing every object (at 100,000 elements that list costs about 10 ms, and every focus
    /// report asks for a lane).
    pub fn lane_of(&self, id: &ObjectId) -> Option<usize> {
        if let (ObjectId::Element(_), None) = (id, &self.two_d) {
            let tracks = self.tracks();
            return self.marble_items().find(|m| m.id == *id).map(|m| self.lane_at(tracks, m.y));
        }
        self.focusables().into_iter().find(|f| f.id == *id).map(|f| f.lane)
    }

    /// The partitions' tracks drawn above the key lanes.
    fn tracks(&self) -> usize {
        self.partitions.iter().filter(|p| p.drawn).count()
    }

    /// The keyboard's lane of height `y`: a key lane's, after the `tracks` partitions' tracks.
    fn lane_at(&self, tracks: usize, y: f64) -> usize {
        tracks + self.lanes.iter().position(|l| y >= l.y && y < l.y + l.height).unwrap_or(0)
    }

    /// The bound's label, e.g. `bound 5 s`.
    pub fn bound_text(bound: Millis) -> String {
        format!("bound {}", format_duration(bound))
    }
}
