//! The application state and its one reducer. Every change (a drag, a key, a tick of the
//! playback clock, an edit in the panel) is an [`Action`]; [`AppState::apply`] is pure, so the
//! whole interaction model is tested natively.
//!
//! Every model change re-runs the engine on the whole scenario (it is deterministic and fast)
//! and keeps the playhead's step; the [`Scene`] for (run, step) is computed once here, so
//! rendering never folds the trace.

use std::cell::Cell;
use std::rc::Rc;

use crate::engine::scenario::{Element, InputItem, WatermarkSpec};
use crate::engine::time::{LONG_MAX, LONG_MIN};
use crate::engine::{Millis, Run, Scenario, run};

use super::config::{ConfigDraft, ConfigEdit, parse_millis};
use super::fragment::{Fragment, FragmentError, StepParam};
use super::geometry::{Viewport, saturate, snap, snap_unit_millis};
use super::model::{RunLayout, Scene};
use super::persist::Edits;
use super::teach_state::{TeachAction, TeachState, is_teach_shortcut};

/// Milliseconds one step lasts at 1× speed.
pub const STEP_MILLIS: f64 = 1200.0;
pub const SPEEDS: [f64; 6] = [0.25, 0.5, 1.0, 1.5, 2.0, 4.0];

/// The scenario shown when the URL names none: the course's worked one-key timeline.
pub const DEFAULT_SCENARIO: &str = include_str!("../../tests/flink/scenarios/course_worked_timeline_7.json");

/// Presets offered in the header (name, JSON).
pub const PRESETS: [(&str, &str); 8] = [
    ("Course: worked timeline (1 min, 5 s bound, 30 s lateness)", DEFAULT_SCENARIO),
    ("Course: events 1–7", include_str!("../../tests/flink/scenarios/course_time_windows_events_1_7.json")),
    ("Tumbling, explicit watermarks", include_str!("../../tests/flink/scenarios/tumbling_basic.json")),
    ("Late side output", include_str!("../../tests/flink/scenarios/late_side_output.json")),
    (
        "Allowed lateness: late firings",
        include_str!("../../tests/flink/scenarios/lateness_late_firings_and_cleanup_boundary.json"),
    ),
    ("Sliding windows", include_str!("../../tests/flink/scenarios/sliding_basic.json")),
    ("Session windows", include_str!("../../tests/flink/scenarios/session_basic.json")),
    (
        "Session merge (late bridge)",
        include_str!("../../tests/flink/scenarios/course_late_element_bridges_sessions.json"),
    ),
];

/// The side panel's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Output,
    Config,
    Log,
    /// Main output, append/upsert/changelog sinks and the side output (`super::outputs`).
    Sinks,
    /// State, lag and results charts (`super::chart_view`).
    Charts,
    /// The Flink program in Java, PyFlink and SQL (`super::outputs::CodePanel`).
    Code,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WatermarkTarget {
    /// Explicit watermarks: this input item's value follows the pointer.
    Item(usize),
    /// Bounded out-of-orderness: the bound is `max_ts - 1 - pointer`.
    Bound { max_ts: Millis },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drag {
    Element {
        index: usize,
        grab_offset_millis: f64,
    },
    Watermark {
        target: WatermarkTarget,
    },
    /// Reordering the arrival strip: the item at `from` would be dropped at `over`.
    Arrival {
        from: usize,
        over: usize,
    },
    Pan {
        last_px: f64,
    },
}

/// What a pointer went down on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DragStart {
    Element(usize),
    Watermark,
    Arrival(usize),
    Pan,
}

#[derive(Clone, Debug, PartialEq)]
pub enum MenuTarget {
    Element(usize),
    Canvas { ts: Millis, key: Option<String> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Menu {
    pub x_px: f64,
    pub y_px: f64,
    pub target: MenuTarget,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditorField {
    Key,
    Value,
    Ts,
}

/// The key/value/timestamp editor for one input item.
#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    pub index: usize,
    pub is_watermark: bool,
    pub key: String,
    pub value: String,
    pub ts: String,
    pub error: Option<String>,
}

/// A key press, as the reducer sees it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct KeyInput {
    pub key: String,
    pub shift: bool,
    pub alt: bool,
    pub ctrl: bool,
    /// Focus is in a text field or a select: only Escape is ours.
    pub in_field: bool,
    /// Focus is where text is typed (not a select or a range): Ctrl+Z is the field's own undo.
    pub in_text: bool,
}

/// Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y (Cmd on macOS), outside text fields.
fn history_action(k: &KeyInput) -> Option<Action> {
    if !k.ctrl || k.alt || k.in_text {
        return None;
    }
    match k.key.as_str() {
        "z" | "Z" if k.shift => Some(Action::Redo),
        "z" | "Z" => Some(Action::Undo),
        "y" | "Y" if !k.shift => Some(Action::Redo),
        _ => None,
    }
}

/// The keys the app handles (the page does not scroll or click on them).
pub fn is_shortcut(k: &KeyInput) -> bool {
    if is_teach_shortcut(k) {
        return true;
    }
    if k.ctrl {
        return history_action(k).is_some();
    }
    if k.in_field {
        return k.key == "Escape";
    }
    matches!(
        k.key.as_str(),
        " " | "ArrowLeft"
            | "ArrowRight"
            | "Home"
            | "End"
            | "["
            | "]"
            | "Delete"
            | "Backspace"
            | "Enter"
            | "Escape"
            | "n"
            | "w"
            | "e"
            | "+"
            | "="
            | "-"
            | "f"
            | "t"
            | "?"
    )
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Load a scenario (from the URL, a preset or the default); `banner`: why the default.
    Load {
        scenario: Box<Scenario>,
        step: Option<StepParam>,
        banner: Option<String>,
    },
    /// The URL fragment changed (another link pasted into the same tab).
    Fragment(Box<Result<Fragment, FragmentError>>),
    /// The canvas box's size in CSS px.
    Resize {
        width_px: f64,
        height_px: f64,
    },
    // Playback.
    TogglePlay,
    Pause,
    StepForward,
    StepBack,
    First,
    Last,
    SetStep(usize),
    SetSpeed(f64),
    /// The frame clock (ms, monotonic).
    Tick {
        now_millis: f64,
    },
    // Viewport.
    ZoomAt {
        px: f64,
        factor: f64,
    },
    PanBy {
        dx_px: f64,
    },
    ZoomIn,
    ZoomOut,
    Fit,
    // Selection and drags.
    Select(Option<usize>),
    SelectNext,
    SelectPrev,
    DragStart {
        what: DragStart,
        px: f64,
        millis: f64,
    },
    DragMove {
        px: f64,
        millis: f64,
    },
    ArrivalOver(usize),
    DragEnd,
    /// ←/→ on the selection: one snap unit, or 1 ms when `fine`.
    Nudge {
        direction: i64,
        fine: bool,
    },
    // Editing.
    AddElement {
        key: Option<String>,
        ts: Option<Millis>,
    },
    InsertWatermark {
        wm: Option<Millis>,
    },
    Delete(usize),
    DeleteSelected,
    MoveInput {
        from: usize,
        to: usize,
    },
    OpenMenu(Menu),
    CloseMenu,
    EditOpen(usize),
    EditorInput(EditorField, String),
    EditorCommit,
    EditorCancel,
    Config(ConfigEdit),
    // Panels.
    ToggleTwoD,
    TogglePanel,
    SetTab(Tab),
    ToggleHelp,
    DismissBanner(usize),
    ShowBanner(String),
    Key(KeyInput),
    /// Back to the state before the last edit (`super::persist`).
    Undo,
    Redo,
    DismissNotice,
    /// The browser refused to store the autosave (why).
    AutosaveFailed(String),
    /// Presets, modes, quiz, "why?", sharing and import (`super::teach_state`).
    Teach(TeachAction),
}

#[derive(Clone, Debug)]
pub struct AppState {
    pub scenario: Rc<Scenario>,
    pub run: Rc<Run>,
    pub layout: Rc<RunLayout>,
    pub scene: Rc<Scene>,
    /// The playhead: steps taken (0 = before input, `run.steps` = after the end of input).
    pub step: usize,
    pub viewport: Viewport,
    /// The canvas box in CSS px (width, height).
    pub box_px: (f64, f64),
    /// CSS px per canvas unit: above 1 when there is room (a projector), so marbles and labels
    /// grow with the screen instead of leaving it empty.
    pub scale: f64,
    /// Selected input item (element or watermark).
    pub selection: Option<usize>,
    pub drag: Option<Drag>,
    pub playing: bool,
    pub speed: f64,
    /// Last frame-clock time while playing (a cell: a tick that changes no step re-renders
    /// nothing, see [`AppState::advance_clock`]).
    pub clock_millis: Cell<Option<f64>>,
    /// Animation time within the current step, in ms of 1× time.
    pub step_elapsed_millis: Cell<f64>,
    /// Animate the step just taken (a single step forward, not a jump back or an edit).
    pub animate: bool,
    /// Bumps on every animated step: restarts the CSS animations.
    pub anim_seq: u64,
    pub config: ConfigDraft,
    pub banners: Vec<String>,
    pub menu: Option<Menu>,
    pub editor: Option<Editor>,
    pub two_d: bool,
    pub panel_open: bool,
    pub tab: Tab,
    pub help_open: bool,
    /// Bumps on every committed model change (the URL follows it).
    pub revision: u64,
    /// The teaching layer: preset, mode, quiz, "why?" (kept across loads).
    pub teach: TeachState,
    /// Undo history, notice, autosave status (`super::persist`; kept across loads).
    pub edits: Edits,
}

impl AppState {
    /// The initial state from the URL fragment (or the default scenario, with a banner saying
    /// why when the fragment was bad).
    pub fn from_fragment(fragment: Result<Fragment, FragmentError>, width_px: f64) -> AppState {
        let mut s = AppState::with_scenario(default_scenario(), None, width_px);
        s.load_fragment(fragment);
        s.revision = 0;
        s
    }

    fn with_scenario(scenario: Scenario, step: Option<StepParam>, width_px: f64) -> AppState {
        let run = run(&scenario);
        let layout = RunLayout::new(&scenario, &run);
        let step = resolve_step(step, &scenario, &run);
        let scene = Scene::new(&scenario, &run, step);
        let viewport = fit_viewport(&layout, width_px);
        AppState {
            config: ConfigDraft::from_scenario(&scenario),
            scenario: Rc::new(scenario),
            run: Rc::new(run),
            layout: Rc::new(layout),
            scene: Rc::new(scene),
            step,
            viewport,
            box_px: (width_px, 0.0),
            scale: 1.0,
            selection: None,
            drag: None,
            playing: false,
            speed: 1.0,
            clock_millis: Cell::new(None),
            step_elapsed_millis: Cell::new(0.0),
            animate: false,
            anim_seq: 0,
            banners: Vec::new(),
            menu: None,
            editor: None,
            two_d: false,
            panel_open: true,
            tab: Tab::Output,
            help_open: false,
            revision: 0,
            teach: TeachState::default(),
            edits: Edits::default(),
        }
    }

    fn load_fragment(&mut self, fragment: Result<Fragment, FragmentError>) {
        match fragment {
            Ok(Fragment { scenario: Some(s), step }) => self.load(s, step),
            Ok(Fragment { scenario: None, step: Some(step) }) => {
                self.step = resolve_step(Some(step), &self.scenario, &self.run);
                self.refresh_scene();
            }
            Ok(Fragment { scenario: None, step: None }) => {}
            // The scenario on show stays (the default at start-up, the user's work later).
            Err(e) => self.banners.push(format!("Could not open the link: {e}. Showing “{}” instead.", self.title())),
        }
    }

    fn load(&mut self, scenario: Scenario, step: Option<StepParam>) {
        let width = self.viewport.width_px;
        let banners = std::mem::take(&mut self.banners);
        let box_px = self.box_px;
        let (panel_open, speed, two_d, tab) = (self.panel_open, self.speed, self.two_d, self.tab);
        let teach = std::mem::take(&mut self.teach);
        let edits = self.edits.clone();
        let revision = self.revision;
        *self = AppState::with_scenario(scenario, step, width);
        self.teach = teach;
        self.edits = edits;
        // Every load is a change the URL and the autosave follow.
        self.revision = revision + 1;
        self.banners = banners;
        self.tab = tab;
        self.box_px = box_px;
        self.rescale();
        self.panel_open = panel_open;
        self.speed = speed;
        self.two_d = two_d;
        if let Some(e) = &self.run.error {
            self.banners
                .push(format!("Flink would fail on this scenario ({} phase): {}: {}", e.phase, e.class, e.message));
        }
    }

    /// Re-runs the engine on the whole scenario, keeping the playhead's step.
    fn rerun(&mut self) {
        let run = run(&self.scenario);
        self.layout = Rc::new(RunLayout::new(&self.scenario, &run));
        self.run = Rc::new(run);
        self.step = self.step.min(self.run.steps);
        self.animate = false;
        self.refresh_scene();
    }

    fn refresh_scene(&mut self) {
        self.scene = Rc::new(Scene::new(&self.scenario, &self.run, self.step));
    }

    pub(super) fn commit(&mut self) {
        self.rerun();
        self.rescale();
        self.revision += 1;
    }

    /// Fits the canvas scale to the box: up to 2× when the lanes leave room and the axis
    /// keeps at least 800 units of width, down to 0.8× when they do not fit; the viewport keeps its time range.
    fn rescale(&mut self) {
        let (w, h) = self.box_px;
        let by_height = if h > 0.0 { h / self.layout.height.max(1.0) } else { 1.0 };
        // Shrink a little (to 0.8) when the lanes do not fit a small embed; grow when there is room.
        let scale = if by_height < 1.0 { by_height.max(0.8) } else { by_height.min(w / 800.0).clamp(1.0, 2.0) };
        self.scale = (scale * 20.0).floor() / 20.0;
        self.viewport = self.viewport.with_width(w / self.scale);
    }

    fn set_step(&mut self, step: usize) {
        let step = step.min(self.run.steps);
        self.animate = step == self.step + 1;
        if self.animate {
            self.anim_seq += 1;
        }
        self.step = step;
        self.step_elapsed_millis.set(0.0);
        self.refresh_scene();
    }

    pub fn snap_unit(&self) -> Millis {
        snap_unit_millis(&self.viewport)
    }

    fn element_mut(&mut self, index: usize) -> Option<&mut Element> {
        match Rc::make_mut(&mut self.scenario).input.get_mut(index) {
            Some(InputItem::Element(e)) => Some(e),
            _ => None,
        }
    }

    fn element(&self, index: usize) -> Option<&Element> {
        match self.scenario.input.get(index) {
            Some(InputItem::Element(e)) => Some(e),
            _ => None,
        }
    }

    /// Where a new input item goes: at the playhead, so the next step processes it.
    fn insert_at_playhead(&mut self, item: InputItem) -> usize {
        let len = self.scenario.input.len();
        let at_end = self.step >= self.run.steps;
        let index = self.step.min(len);
        Rc::make_mut(&mut self.scenario).input.insert(index, item);
        // Keep what was shown, plus the new item: after it at the end, processed otherwise.
        self.step = if at_end { len + 2 } else { self.step + 1 };
        index
    }

    /// Elements in event-time order (ties: input order), as input indices.
    fn elements_by_time(&self) -> Vec<usize> {
        let mut v: Vec<(Millis, usize)> = self
            .scenario
            .input
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match item {
                InputItem::Element(e) => Some((e.ts, i)),
                InputItem::Watermark(_) | InputItem::SourceWatermark(_) => None,
            })
            .collect();
        crate::teach::sort::stable(&mut v);
        v.into_iter().map(|(_, i)| i).collect()
    }

    pub(super) fn key_action(&self, k: &KeyInput) -> Option<Action> {
        if k.ctrl {
            return history_action(k);
        }
        if k.in_field {
            return (k.key == "Escape").then_some(if self.editor.is_some() {
                Action::EditorCancel
            } else {
                Action::CloseMenu
            });
        }
        if self.editor.is_some() {
            return (k.key == "Escape").then_some(Action::EditorCancel);
        }
        let fine = k.shift || k.alt;
        Some(match k.key.as_str() {
            " " => Action::TogglePlay,
            "ArrowLeft" if self.selection.is_some() => Action::Nudge { direction: -1, fine },
            "ArrowRight" if self.selection.is_some() => Action::Nudge { direction: 1, fine },
            "ArrowLeft" => Action::StepBack,
            "ArrowRight" => Action::StepForward,
            "Home" => Action::First,
            "End" => Action::Last,
            "]" => Action::SelectNext,
            "[" => Action::SelectPrev,
            "Delete" | "Backspace" => Action::DeleteSelected,
            "Enter" | "e" => Action::EditOpen(self.selection?),
            "Escape" if self.menu.is_some() => Action::CloseMenu,
            "Escape" if self.help_open => Action::ToggleHelp,
            "Escape" => Action::Select(None),
            "n" => Action::AddElement { key: None, ts: None },
            "w" => Action::InsertWatermark { wm: None },
            "+" | "=" => Action::ZoomIn,
            "-" => Action::ZoomOut,
            "f" => Action::Fit,
            "t" => Action::ToggleTwoD,
            "?" => Action::ToggleHelp,
            _ => return None,
        })
    }

    /// The reducer, below [`AppState::apply`] (which records undo steps around it).
    pub(super) fn apply_unrecorded(&mut self, action: Action) {
        // The teaching modes see every action first (lecture keys, the quiz's stops).
        let Some(action) = self.teach_before(action) else { return };
        self.apply_action(action);
        self.teach_after();
    }

    fn apply_action(&mut self, action: Action) {
        match action {
            Action::Load { scenario, step, banner } => {
                self.banners.clear();
                self.load(*scenario, step);
                if let Some(b) = banner {
                    self.banners.push(b);
                }
            }
            Action::Fragment(f) => {
                self.banners.clear();
                self.load_fragment(*f);
            }
            Action::Resize { width_px, height_px } => {
                if width_px.is_finite() && height_px.is_finite() && width_px >= 50.0 {
                    self.box_px = (width_px, height_px.max(0.0));
                    self.rescale();
                }
            }
            Action::TogglePlay => {
                if self.playing {
                    self.playing = false;
                } else {
                    if self.step >= self.run.steps {
                        self.set_step(0);
                    }
                    self.playing = true;
                    self.clock_millis.set(None);
                    self.step_elapsed_millis.set(0.0);
                }
            }
            Action::Pause => self.playing = false,
            Action::StepForward => {
                self.playing = false;
                self.set_step(self.step + 1);
            }
            Action::StepBack => {
                self.playing = false;
                self.set_step(self.step.saturating_sub(1));
            }
            Action::First => {
                self.playing = false;
                self.set_step(0);
            }
            Action::Last => {
                self.playing = false;
                self.set_step(self.run.steps);
            }
            Action::SetStep(s) => {
                self.playing = false;
                self.set_step(s);
            }
            Action::SetSpeed(x) => {
                if x.is_finite() {
                    self.speed = x.clamp(0.25, 4.0);
                }
            }
            Action::Tick { now_millis } => {
                if self.advance_clock(now_millis) {
                    self.clock_step();
                }
            }
            Action::ZoomAt { px, factor } => self.viewport = self.viewport.zoom_at(px, factor),
            Action::PanBy { dx_px } => self.viewport = self.viewport.pan_px(dx_px),
            Action::ZoomIn => self.viewport = self.viewport.zoom_at(self.viewport.width_px / 2.0, 1.5),
            Action::ZoomOut => self.viewport = self.viewport.zoom_at(self.viewport.width_px / 2.0, 1.0 / 1.5),
            Action::Fit => self.viewport = fit_viewport(&self.layout, self.viewport.width_px),
            Action::Select(sel) => {
                self.selection = sel.filter(|i| *i < self.scenario.input.len());
                self.menu = None;
            }
            Action::SelectNext | Action::SelectPrev => {
                let order = self.elements_by_time();
                let pos = self.selection.and_then(|s| order.iter().position(|i| *i == s));
                let next = match (action == Action::SelectNext, pos) {
                    (true, None) => order.first(),
                    (false, None) => order.last(),
                    (true, Some(p)) => order.get(p + 1).or(order.last()),
                    (false, Some(p)) => order.get(p.saturating_sub(1)),
                };
                self.selection = next.copied();
            }
            Action::DragStart { what, px, millis } => self.drag_start(what, px, millis),
            Action::DragMove { px, millis } => self.drag_move(px, millis),
            Action::ArrivalOver(over) => {
                if let Some(Drag::Arrival { from, .. }) = self.drag {
                    self.drag =
                        Some(Drag::Arrival { from, over: over.min(self.scenario.input.len().saturating_sub(1)) });
                }
            }
            Action::DragEnd => self.drag_end(),
            Action::Nudge { direction, fine } => self.nudge(direction, fine),
            Action::AddElement { key, ts } => self.add_element(key, ts),
            Action::InsertWatermark { wm } => {
                let wm = wm
                    .or(self.scene.view.max_timestamp)
                    .unwrap_or_else(|| saturate((self.viewport.start_millis + self.viewport.end_millis) / 2.0));
                let index = self.insert_at_playhead(InputItem::Watermark(wm));
                self.selection = Some(index);
                self.menu = None;
                self.commit();
            }
            Action::Delete(index) => self.delete(index),
            Action::DeleteSelected => {
                if let Some(i) = self.selection {
                    self.delete(i);
                }
            }
            Action::MoveInput { from, to } => self.move_input(from, to),
            Action::OpenMenu(m) => {
                if let MenuTarget::Element(i) = m.target {
                    self.selection = Some(i);
                }
                self.menu = Some(m);
            }
            Action::CloseMenu => self.menu = None,
            Action::EditOpen(index) => {
                self.menu = None;
                self.editor = match self.scenario.input.get(index) {
                    Some(InputItem::Element(e)) => Some(Editor {
                        index,
                        is_watermark: false,
                        key: e.key.clone(),
                        value: e.value.to_string(),
                        ts: e.ts.to_string(),
                        error: None,
                    }),
                    Some(item @ (InputItem::Watermark(_) | InputItem::SourceWatermark(_))) => Some(Editor {
                        index,
                        is_watermark: true,
                        key: String::new(),
                        value: String::new(),
                        ts: item.watermark().unwrap_or(0).to_string(),
                        error: None,
                    }),
                    None => None,
                };
                if self.editor.is_some() {
                    self.selection = Some(index);
                }
            }
            Action::EditorInput(field, text) => {
                if let Some(ed) = &mut self.editor {
                    let text: String = text.chars().take(220).collect();
                    match field {
                        EditorField::Key => ed.key = text,
                        EditorField::Value => ed.value = text,
                        EditorField::Ts => ed.ts = text,
                    }
                    ed.error = None;
                }
            }
            Action::EditorCommit => self.editor_commit(),
            Action::EditorCancel => self.editor = None,
            Action::Config(edit) => self.config_edit(edit),
            Action::ToggleTwoD => self.two_d = !self.two_d,
            Action::TogglePanel => self.panel_open = !self.panel_open,
            Action::SetTab(t) => {
                self.tab = t;
                self.panel_open = true;
            }
            Action::ToggleHelp => self.help_open = !self.help_open,
            Action::DismissBanner(i) => {
                if i < self.banners.len() {
                    self.banners.remove(i);
                }
            }
            Action::ShowBanner(b) => self.banners.push(b),
            Action::Key(k) => {
                if let Some(a) = self.key_action(&k) {
                    self.apply(a);
                }
            }
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::DismissNotice => self.edits.notice = None,
            Action::AutosaveFailed(e) => self.autosave_failed(e),
            Action::Teach(a) => self.apply_teach(a),
        }
    }

    /// Advances the playback clock in place and says whether the step must change (or the
    /// playback stop). Interior mutability so that the frame clock's ticks between steps cost
    /// no re-render: the reducer returns the same state for them.
    pub fn advance_clock(&self, now_millis: f64) -> bool {
        if !self.playing {
            return false;
        }
        let dt = self.clock_millis.get().map_or(0.0, |c| (now_millis - c).clamp(0.0, 250.0));
        self.clock_millis.set(Some(now_millis));
        let elapsed = self.step_elapsed_millis.get() + dt * self.speed;
        self.step_elapsed_millis.set(elapsed);
        elapsed >= STEP_MILLIS || self.step >= self.run.steps
    }

    /// The clock's step: one forward, stopping at the end.
    pub fn clock_step(&mut self) {
        if self.step < self.run.steps {
            self.set_step(self.step + 1);
        }
        self.step_elapsed_millis.set(0.0);
        if self.step >= self.run.steps {
            self.playing = false;
            self.clock_millis.set(None);
        }
    }

    fn drag_start(&mut self, what: DragStart, px: f64, millis: f64) {
        self.menu = None;
        self.playing = false;
        self.drag = match what {
            DragStart::Element(index) => {
                let Some(ts) = self.element(index).map(|e| e.ts) else { return };
                self.selection = Some(index);
                Some(Drag::Element { index, grab_offset_millis: ts as f64 - millis })
            }
            DragStart::Watermark => {
                let target = match self.scenario.watermarks {
                    WatermarkSpec::Explicit => {
                        let selected_wm = self
                            .selection
                            .filter(|i| self.scenario.input.get(*i).and_then(InputItem::watermark).is_some());
                        let index = match selected_wm.or(self.scene.wm_item) {
                            Some(i) => i,
                            // No watermark yet: the drag creates one at the playhead.
                            None => {
                                let i = self.insert_at_playhead(InputItem::Watermark(saturate(millis)));
                                self.rerun();
                                i
                            }
                        };
                        self.selection = Some(index);
                        WatermarkTarget::Item(index)
                    }
                    WatermarkSpec::BoundedOutOfOrderness { .. } | WatermarkSpec::Monotonous => {
                        let Some(max_ts) = self.scene.view.max_timestamp else {
                            self.banners.push(
                                "The watermark follows the largest timestamp seen; step forward to an element first."
                                    .into(),
                            );
                            return;
                        };
                        WatermarkTarget::Bound { max_ts }
                    }
                };
                Some(Drag::Watermark { target })
            }
            DragStart::Arrival(from) => {
                if from >= self.scenario.input.len() {
                    return;
                }
                self.selection = Some(from);
                Some(Drag::Arrival { from, over: from })
            }
            DragStart::Pan => {
                self.selection = None;
                Some(Drag::Pan { last_px: px })
            }
        };
    }

    fn drag_move(&mut self, px: f64, millis: f64) {
        match self.drag {
            Some(Drag::Element { index, grab_offset_millis }) => {
                let ts = saturate(millis + grab_offset_millis);
                if let Some(e) = self.element_mut(index)
                    && e.ts != ts
                {
                    e.ts = ts;
                    self.rerun();
                }
            }
            Some(Drag::Watermark { target: WatermarkTarget::Item(index) }) => {
                let wm = saturate(millis);
                if self.scenario.input.get(index).and_then(InputItem::watermark).is_some_and(|old| old != wm)
                    && let Some(item) = Rc::make_mut(&mut self.scenario).input.get_mut(index)
                {
                    set_watermark(item, wm);
                    self.rerun();
                }
            }
            Some(Drag::Watermark { target: WatermarkTarget::Bound { max_ts } }) => {
                self.set_bound(max_ts.saturating_sub(1).saturating_sub(saturate(millis)).max(0));
            }
            Some(Drag::Pan { last_px }) => {
                self.viewport = self.viewport.pan_px(px - last_px);
                self.drag = Some(Drag::Pan { last_px: px });
            }
            Some(Drag::Arrival { .. }) | None => {}
        }
    }

    fn set_bound(&mut self, bound: Millis) {
        let spec = WatermarkSpec::BoundedOutOfOrderness { bound };
        if self.scenario.watermarks != spec {
            Rc::make_mut(&mut self.scenario).watermarks = spec;
            self.config.set_watermarks_from(spec);
            self.rerun();
        }
    }

    fn drag_end(&mut self) {
        let unit = self.snap_unit();
        match self.drag.take() {
            Some(Drag::Element { index, .. }) => {
                if let Some(e) = self.element_mut(index) {
                    e.ts = snap(e.ts, unit);
                }
                self.commit();
            }
            Some(Drag::Watermark { target: WatermarkTarget::Item(index) }) => {
                if let Some(wm) = self.scenario.input.get(index).and_then(InputItem::watermark)
                    && wm != LONG_MAX
                    && wm != LONG_MIN
                    && let Some(item) = Rc::make_mut(&mut self.scenario).input.get_mut(index)
                {
                    // Snap so that end-1 stays reachable: round to the unit, minus one when the
                    // pointer was just left of a unit boundary.
                    set_watermark(item, snap_watermark(wm, unit));
                }
                self.commit();
            }
            Some(Drag::Watermark { target: WatermarkTarget::Bound { .. } }) => {
                if let WatermarkSpec::BoundedOutOfOrderness { bound } = self.scenario.watermarks {
                    let snapped = snap(bound, unit).max(0);
                    self.set_bound(snapped);
                }
                self.commit();
            }
            Some(Drag::Arrival { from, over }) => {
                if from != over {
                    self.move_input(from, over);
                }
            }
            Some(Drag::Pan { .. }) | None => {}
        }
    }

    fn nudge(&mut self, direction: i64, fine: bool) {
        let Some(index) = self.selection else { return };
        let unit = if fine { 1 } else { self.snap_unit() };
        let shift = |t: Millis| {
            let moved = t.saturating_add(direction.signum().saturating_mul(unit));
            if fine { moved } else { snap(moved, unit) }
        };
        match Rc::make_mut(&mut self.scenario).input.get_mut(index) {
            Some(InputItem::Element(e)) => e.ts = shift(e.ts),
            Some(InputItem::Watermark(wm)) => *wm = shift(*wm),
            Some(InputItem::SourceWatermark(m)) => m.wm = shift(m.wm),
            None => return,
        }
        self.commit();
    }

    fn add_element(&mut self, key: Option<String>, ts: Option<Millis>) {
        let key = key
            .or_else(|| self.selection.and_then(|i| self.element(i)).map(|e| e.key.clone()))
            .or_else(|| self.layout.lanes.first().map(|l| l.key.clone()))
            .unwrap_or_else(|| "A".into());
        let ts = ts.unwrap_or_else(|| {
            snap(saturate((self.viewport.start_millis + self.viewport.end_millis) / 2.0), self.snap_unit())
        });
        let id = self.scenario.elements().map(|e| e.id).max().map_or(1, |m| m.saturating_add(1));
        let index =
            self.insert_at_playhead(InputItem::Element(Element { id, key, ts, value: 1, ..Element::default() }));
        self.selection = Some(index);
        self.menu = None;
        self.commit();
    }

    fn delete(&mut self, index: usize) {
        if index >= self.scenario.input.len() {
            return;
        }
        let at_end = self.step >= self.run.steps;
        Rc::make_mut(&mut self.scenario).input.remove(index);
        if at_end {
            self.step = self.scenario.input.len() + 1;
        } else if index < self.step {
            self.step -= 1;
        }
        self.selection = None;
        self.menu = None;
        self.editor = None;
        self.commit();
    }

    fn move_input(&mut self, from: usize, to: usize) {
        let len = self.scenario.input.len();
        if from >= len || to >= len || from == to {
            return;
        }
        let input = &mut Rc::make_mut(&mut self.scenario).input;
        let item = input.remove(from);
        input.insert(to, item);
        self.selection = Some(to);
        self.commit();
    }

    fn editor_commit(&mut self) {
        let Some(ed) = self.editor.clone() else { return };
        let ts = match parse_millis(&ed.ts) {
            Ok(t) => t,
            Err(e) => {
                return self.editor_error(format!("{} {e}", if ed.is_watermark { "Watermark" } else { "Timestamp" }));
            }
        };
        if ed.is_watermark {
            if let Some(item) = Rc::make_mut(&mut self.scenario).input.get_mut(ed.index) {
                set_watermark(item, ts);
            }
        } else {
            let key = ed.key.trim().to_string();
            if key.is_empty() {
                return self.editor_error("Key must not be empty".into());
            }
            if key.chars().count() > crate::engine::scenario::limits::MAX_KEY_CHARS {
                return self.editor_error(format!(
                    "Key is longer than {} characters",
                    crate::engine::scenario::limits::MAX_KEY_CHARS
                ));
            }
            let new_key = !self.layout.lanes.iter().any(|l| l.key == key);
            if new_key && self.layout.lanes.len() >= crate::engine::scenario::limits::MAX_KEYS {
                return self.editor_error("Too many distinct keys".into());
            }
            let Ok(value) = ed.value.trim().parse::<i64>() else {
                return self.editor_error(format!(
                    "Value \"{}\" is not a whole number",
                    ed.value.chars().take(20).collect::<String>()
                ));
            };
            if let Some(e) = self.element_mut(ed.index) {
                e.key = key;
                e.value = value;
                e.ts = ts;
            }
        }
        self.editor = None;
        self.commit();
    }

    fn editor_error(&mut self, e: String) {
        if let Some(ed) = &mut self.editor {
            ed.error = Some(e);
        }
    }

    fn config_edit(&mut self, edit: ConfigEdit) {
        let field = edit.field();
        self.config.apply(&edit);
        match self.config.to_scenario(&self.scenario, field) {
            Ok(candidate) => {
                let run = run(&candidate);
                if let Some(e) = &run.error
                    && self.run.error.as_ref().is_none_or(|old| old.message != e.message)
                {
                    // Flink accepts the value when the job is built, then the job fails.
                    self.config.errors.clear();
                    self.config
                        .errors
                        .insert(field, format!("Flink accepts it, but the job then fails: {}: {}", e.class, e.message));
                    return;
                }
                self.config.errors.clear();
                self.layout = Rc::new(RunLayout::new(&candidate, &run));
                self.scenario = Rc::new(candidate);
                self.run = Rc::new(run);
                self.step = self.step.min(self.run.steps);
                self.animate = false;
                self.refresh_scene();
                self.rescale();
                self.revision += 1;
            }
            Err(errors) => self.config.errors = errors,
        }
    }
}

/// States compare by identity: the reducer returns a new state for every change, so two
/// handles show the same thing exactly when they hold the same state (what `use_reducer`'s
/// props comparisons need, without comparing whole runs).
impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// Sets the value of a watermark item (plain or with its partition); elements are untouched.
fn set_watermark(item: &mut InputItem, wm: Millis) {
    match item {
        InputItem::Watermark(w) => *w = wm,
        InputItem::SourceWatermark(m) => m.wm = wm,
        InputItem::Element(_) => {}
    }
}

/// A dropped watermark snaps to `unit - 1` below a boundary when it was let go just below one,
/// so that the classic `end - 1` is one drag away; otherwise to the nearest unit.
pub fn snap_watermark(wm: Millis, unit: Millis) -> Millis {
    if unit <= 1 {
        return wm;
    }
    let up = snap(wm, unit);
    if up > wm { up.saturating_sub(1) } else { up }
}

fn default_scenario() -> Scenario {
    Scenario::from_json_str(DEFAULT_SCENARIO).unwrap_or_default()
}

/// `None`: all input processed, before the end of input (where dragging the watermark shows
/// the most); `End`: after the end of input.
fn resolve_step(step: Option<StepParam>, scenario: &Scenario, run: &Run) -> usize {
    match step {
        Some(StepParam::End) => run.steps,
        Some(StepParam::At(n)) => n.min(run.steps),
        None => scenario.input.len().min(run.steps),
    }
}

pub(super) fn fit_viewport(layout: &RunLayout, width_px: f64) -> Viewport {
    match layout.time_range {
        Some((lo, hi)) => Viewport::fit(lo, hi, width_px),
        None => Viewport::fit(0, 60_000, width_px),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::view::{ElementOutcome, WindowState};
    use crate::engine::{Output, Window};
    use crate::ui::config::Field;

    const TUMBLING: &str = r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 10000,
        "input": [{"id": 1, "key": "A", "ts": 50000}, {"id": 2, "key": "A", "ts": 70000}, {"wm": 59999}]}"#;

    fn state(json: &str) -> AppState {
        let s = Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"));
        let mut st = AppState::from_fragment(Ok(Fragment { scenario: None, step: None }), 1200.0);
        st.apply(Action::Load { scenario: Box::new(s), step: None, banner: None });
        st
    }

    fn fire_ids(st: &AppState) -> Vec<(Option<Millis>, Vec<i64>)> {
        st.run.outputs[..st.scene.view.outputs]
            .iter()
            .filter_map(|o| match o {
                Output::Fire(f) => Some((f.window.bounds().0, f.ids.clone())),
                _ => None,
            })
            .collect()
    }

    /// The default playhead is after all input, before the end of input.
    #[test]
    fn loads_with_playhead_after_input() {
        let st = state(TUMBLING);
        assert_eq!(st.step, 3);
        assert_eq!(st.run.steps, 4);
        assert_eq!(fire_ids(&st), vec![(Some(0), vec![1])]);
    }

    /// Dragging an element across a window boundary re-runs the engine, keeps the step, and
    /// snaps the drop to a whole unit.
    #[test]
    fn dragging_an_element_moves_it_to_the_other_window() {
        let mut st = state(TUMBLING);
        let revision = st.revision;
        st.viewport = Viewport::new(0.0, 120_000.0, 1200.0); // 100 ms/px: snap unit 1 s
        st.apply(Action::DragStart { what: DragStart::Element(0), px: 500.0, millis: 50_000.0 });
        st.apply(Action::DragMove { px: 650.0, millis: 65_432.0 });
        assert_eq!(st.element(0).map(|e| e.ts), Some(65_432), "exact value while dragging");
        assert_eq!(st.step, 3);
        st.apply(Action::DragEnd);
        assert_eq!(st.element(0).map(|e| e.ts), Some(65_000));
        assert_eq!(fire_ids(&st), vec![]);
        st.apply(Action::Last);
        assert_eq!(fire_ids(&st), vec![(Some(60_000), vec![1, 2])]);
        assert_eq!(st.revision, revision + 1, "one committed change: the drop");
    }

    /// The keyboard alone: select with `]`, move with →, across the boundary.
    #[test]
    fn keyboard_moves_the_selected_element() {
        let mut st = state(TUMBLING);
        st.viewport = Viewport::new(0.0, 120_000.0, 1200.0);
        let key = |k: &str| Action::Key(KeyInput { key: k.into(), ..KeyInput::default() });
        st.apply(key("]"));
        assert_eq!(st.selection, Some(0));
        for _ in 0..10 {
            st.apply(key("ArrowRight"));
        }
        assert_eq!(st.element(0).map(|e| e.ts), Some(60_000));
        st.apply(key("Escape"));
        assert_eq!(st.selection, None);
        st.apply(key("ArrowLeft"));
        assert_eq!(st.step, 2, "without a selection the arrows step");
        st.apply(key("End"));
        assert_eq!(st.step, st.run.steps);
        // Keys typed in a field are not shortcuts.
        assert!(!is_shortcut(&KeyInput { key: "n".into(), in_field: true, ..KeyInput::default() }));
    }

    /// Dragging the explicit watermark moves the watermark item; past end-1 the main firing
    /// appears, past the cleanup time a late element goes to the side output.
    #[test]
    fn dragging_the_watermark_fires_and_cleans_up() {
        let mut st = state(
            r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 10000,
                "input": [{"id": 1, "key": "A", "ts": 50000}, {"wm": 30000}, {"id": 2, "key": "A", "ts": 10000}]}"#,
        );
        st.viewport = Viewport::new(0.0, 120_000.0, 1200.0);
        assert_eq!(fire_ids(&st), vec![]);
        st.apply(Action::DragStart { what: DragStart::Watermark, px: 300.0, millis: 30_000.0 });
        st.apply(Action::DragMove { px: 600.0, millis: 59_999.0 });
        assert_eq!(st.scenario.input[1], InputItem::Watermark(59_999));
        assert_eq!(fire_ids(&st), vec![(Some(0), vec![1]), (Some(0), vec![1, 2])]);
        st.apply(Action::DragMove { px: 700.0, millis: 70_000.0 });
        st.apply(Action::DragEnd);
        assert_eq!(st.scenario.input[1], InputItem::Watermark(70_000));
        assert_eq!(st.scene.view.elements[1], Some(ElementOutcome::SideOutput));
    }

    /// With bounded out-of-orderness the drag edits the bound, and the panel follows.
    #[test]
    fn dragging_the_derived_watermark_edits_the_bound() {
        let mut st = state(
            r#"{"assigner": {"kind": "tumbling", "size": 60000}, "watermarks": {"kind": "bounded_out_of_orderness", "bound": 5000},
                "input": [{"id": 1, "key": "A", "ts": 50000}, {"id": 2, "key": "A", "ts": 62000}]}"#,
        );
        st.viewport = Viewport::new(0.0, 120_000.0, 1200.0);
        assert_eq!(st.scene.view.watermark, 56_999);
        st.apply(Action::DragStart { what: DragStart::Watermark, px: 570.0, millis: 56_999.0 });
        st.apply(Action::DragMove { px: 610.0, millis: 61_000.0 });
        assert_eq!(st.scenario.watermarks, WatermarkSpec::BoundedOutOfOrderness { bound: 999 });
        st.apply(Action::DragEnd);
        assert_eq!(st.scenario.watermarks, WatermarkSpec::BoundedOutOfOrderness { bound: 1000 });
        assert_eq!(st.config.bound, "1000");
        assert_eq!(fire_ids(&st), vec![(Some(0), vec![1])]);
    }

    /// Two elements dragged within the session gap merge their sessions.
    #[test]
    fn sessions_merge_when_dragged_together() {
        let mut st = state(
            r#"{"assigner": {"kind": "session", "gap": 10000},
                "input": [{"id": 1, "key": "A", "ts": 0}, {"id": 2, "key": "A", "ts": 30000}]}"#,
        );
        st.viewport = Viewport::new(0.0, 60_000.0, 600.0);
        assert_eq!(st.scene.view.live_windows().count(), 2);
        st.apply(Action::DragStart { what: DragStart::Element(1), px: 300.0, millis: 30_000.0 });
        st.apply(Action::DragMove { px: 80.0, millis: 8_000.0 });
        st.apply(Action::DragEnd);
        let live: Vec<_> = st.scene.view.live_windows().map(|w| w.window).collect();
        assert_eq!(live, vec![Window::Time(crate::engine::TimeWindow::new(0, 18_000))]);
        assert!(st.scene.view.windows.iter().any(|w| matches!(w.state, WindowState::Merged { .. })));
    }

    /// Playback advances one step per STEP_MILLIS of (speed-scaled) clock, and stops at the end.
    #[test]
    fn playback_is_stepped_by_the_clock() {
        let mut st = state(TUMBLING);
        st.apply(Action::First);
        st.apply(Action::SetSpeed(2.0));
        st.apply(Action::TogglePlay);
        let mut now = 0.0;
        for _ in 0..40 {
            st.apply(Action::Tick { now_millis: now });
            now += 16.0;
        }
        // 39 * 16 ms * 2 = 1248 ms of 1x time: one step.
        assert_eq!(st.step, 1);
        assert!(st.animate);
        for _ in 0..400 {
            st.apply(Action::Tick { now_millis: now });
            now += 16.0;
        }
        assert_eq!(st.step, st.run.steps);
        assert!(!st.playing);
        st.apply(Action::StepBack);
        assert!(!st.animate, "stepping back is instant");
        st.apply(Action::SetSpeed(100.0));
        assert_eq!(st.speed, 4.0);
    }

    /// Adding, editing, reordering and deleting keep the playhead on the same content.
    #[test]
    fn editing_items() {
        let mut st = state(TUMBLING);
        st.apply(Action::AddElement { key: Some("B".into()), ts: Some(5_000) });
        assert_eq!(st.scenario.input.len(), 4);
        assert_eq!(st.selection, Some(3));
        assert_eq!(st.step, 4);
        assert_eq!(st.layout.lanes.len(), 2);
        st.apply(Action::EditOpen(3));
        st.apply(Action::EditorInput(EditorField::Value, "x".into()));
        st.apply(Action::EditorCommit);
        assert!(st.editor.as_ref().and_then(|e| e.error.clone()).is_some_and(|e| e.contains("not a whole number")));
        st.apply(Action::EditorInput(EditorField::Value, "7".into()));
        st.apply(Action::EditorInput(EditorField::Key, "C".into()));
        st.apply(Action::EditorCommit);
        assert_eq!(st.editor, None);
        assert!(matches!(&st.scenario.input[3], InputItem::Element(e) if e.key == "C" && e.value == 7));
        st.apply(Action::MoveInput { from: 3, to: 0 });
        assert!(matches!(&st.scenario.input[0], InputItem::Element(e) if e.key == "C"));
        st.apply(Action::Delete(0));
        assert_eq!(st.scenario.input.len(), 3);
        assert_eq!(st.step, 3);
        st.apply(Action::InsertWatermark { wm: Some(120_000) });
        assert_eq!(st.scenario.input[3], InputItem::Watermark(120_000));
        assert_eq!(fire_ids(&st).len(), 2);
    }

    /// The panel refuses invalid values next to the field and keeps the text; valid ones re-run.
    #[test]
    fn config_edits() {
        let mut st = state(TUMBLING);
        st.apply(Action::Config(ConfigEdit::Text(Field::Size, "-5".into())));
        assert!(st.config.errors.contains_key(&Field::Size));
        assert_eq!(st.config.size, "-5");
        assert_eq!(st.scenario.assigner, crate::engine::scenario::AssignerSpec::Tumbling { size: 60_000, offset: 0 });
        st.apply(Action::Config(ConfigEdit::Text(Field::Size, "30s".into())));
        assert!(st.config.errors.is_empty());
        assert_eq!(st.scenario.assigner, crate::engine::scenario::AssignerSpec::Tumbling { size: 30_000, offset: 0 });
        st.apply(Action::Config(ConfigEdit::Trigger(crate::ui::config::TriggerChoice::ContinuousEventTime)));
        st.apply(Action::Config(ConfigEdit::Text(Field::TriggerInterval, "0".into())));
        assert!(st.config.errors.get(&Field::TriggerInterval).is_some_and(|e| e.contains("/ by zero")));
    }

    /// A bad link loads the default scenario with a banner, never a panic.
    #[test]
    fn bad_fragment_shows_banner() {
        let st = AppState::from_fragment(super::super::fragment::parse("#z=!!!"), 800.0);
        assert_eq!(st.banners.len(), 1);
        assert!(st.banners[0].contains("not valid base64url"));
        assert_eq!(st.scenario.name, "course_worked_timeline_7");
    }

    #[test]
    fn watermark_snapping_keeps_end_minus_one_reachable() {
        assert_eq!(snap_watermark(59_700, 1000), 59_999);
        assert_eq!(snap_watermark(60_200, 1000), 60_000);
        assert_eq!(snap_watermark(60_000, 1000), 60_000);
        assert_eq!(snap_watermark(17, 1), 17);
    }
}
