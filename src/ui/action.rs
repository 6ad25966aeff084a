//! The vocabulary of the front end: every change to the state is an [`Action`], and this file names
//! them all, with the small types they carry (what a drag grabbed, which object is selected, a key
//! press, a configuration edit). Nothing here changes anything: [`super::state`] reduces actions,
//! [`super::components`] and [`super::hooks`] send them.
//!
//! ```text
//!  pointer / key / timer / URL ──▶ Action ──▶ state::AppState::dispatch ──▶ new state ──▶ components
//!                                                   └─ RunRequest ──▶ runner ──▶ Action::RunFinished
//! ```

use std::rc::Rc;

use crate::codegen::Dialect;
use crate::engine::aggregate::{CourseAggregate, DEFAULT_K};
use crate::engine::scenario::{DeltaFn, WindowFunctionSpec};
use crate::engine::trace::{ElemIdx, KeyId};
use crate::engine::{Millis, Run, Scenario, Window};

use super::fragment::{Fragment, FragmentError, StepParam};

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Load a scenario (an example from the menu, or a test); `banner`: why.
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
    Play(PlayAction),
    View(ViewAction),
    /// Select an object (or nothing); the selected object is the canvas's focus (contract §4).
    Select(Option<ObjectId>),
    /// Keyboard focus on the canvas and moves within it.
    Canvas(CanvasAction),
    Drag(DragAction),
    Edit(EditAction),
    Editor(EditorAction),
    OpenMenu(Menu),
    CloseMenu,
    Config(ConfigEdit),
    Panel(PanelAction),
    Key(KeyInput),
    /// Back to the state before the last edit (`state::undo`).
    Undo,
    Redo,
    DismissNotice,
    /// The browser refused to store the autosave (why).
    AutosaveFailed(String),
    /// A runner's answer to a run request (`super::runner`): dropped when a newer one was asked.
    RunFinished(RunFinished),
    /// Stop the runs that are out (the Cancel button of a long run): the run on show stays, with
    /// the scenario it was made from.
    CancelRun,
    /// Presets, modes, quiz, "why?", sharing and import (`state::teach`).
    Teach(TeachAction),
    /// Compare mode and the SQL view's window TVF (`state::compare`).
    Compare(CompareAction),
}

/// One of compare mode's two configurations: A is the scenario on show, B the second one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// The SQL view's choice of window TVF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TvfKind {
    Tumble,
    Hop,
    Cumulate,
    Session,
}

impl TvfKind {
    pub const ALL: [TvfKind; 4] = [TvfKind::Tumble, TvfKind::Hop, TvfKind::Cumulate, TvfKind::Session];

    pub fn sql_name(&self) -> &'static str {
        match self {
            TvfKind::Tumble => "TUMBLE",
            TvfKind::Hop => "HOP",
            TvfKind::Cumulate => "CUMULATE",
            TvfKind::Session => "SESSION",
        }
    }
}

/// The ready-made comparisons (`state::compare`): each sets A and B from the scenario on show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareExample {
    /// Bounded out-of-orderness 5 s against 20 s.
    Bounds,
    /// The DataStream window against the closest window TVF.
    DataStreamVsTvf,
    /// `withIdleness` off against on.
    Idleness,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CompareAction {
    /// Compare mode with this second configuration (an empty input: the same input as A).
    Open(Box<Scenario>),
    Example(CompareExample),
    Close,
    /// A side's window: the DataStream window (`None`) or a window TVF (the SQL view: side A).
    SetTvf(Side, Option<TvfKind>),
    /// The SQL view's TVF sizes (side A), as Flink SQL accepts them.
    SetTvfSpec(crate::engine::scenario::TvfSpec),
    /// B's bounded out-of-orderness (ms).
    SetBound(Millis),
    /// B's allowed lateness (ms).
    SetLateness(Millis),
    /// B's `withIdleness` (ms; 0: off).
    SetIdleness(Millis),
}

/// Which document a run is for: the scenario on show, or compare mode's second configuration
/// (`state::compare`). A runner hands it back unchanged with the answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RunSlot {
    #[default]
    Main,
    Compare,
}

/// A run for the runner (`super::runner`): this scenario, answered with `revision` and `slot`.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRequest {
    pub revision: u64,
    pub slot: RunSlot,
    pub scenario: Rc<Scenario>,
}

/// A runner's answer. `Err`: the runner itself failed (a worker died); a job that Flink fails is
/// an `Ok` run with its error in `run.error`.
#[derive(Clone, Debug)]
pub struct RunFinished {
    pub revision: u64,
    pub slot: RunSlot,
    pub result: Result<Rc<Run>, String>,
}

/// Answers compare by revision and by the identity of the run: two handles of one answer are equal.
impl PartialEq for RunFinished {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision
            && self.slot == other.slot
            && match (&self.result, &other.result) {
                (Ok(a), Ok(b)) => Rc::ptr_eq(a, b),
                (Err(a), Err(b)) => a == b,
                _ => false,
            }
    }
}

/// The playhead and playback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayAction {
    TogglePlay,
    Pause,
    Forward,
    Back,
    First,
    Last,
    SetStep(usize),
    SetSpeed(f64),
    /// The frame clock (ms, monotonic).
    Tick {
        now_millis: f64,
    },
}

/// The visible event-time range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ViewAction {
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
    /// Event time or processing time (the arrivals) along the axis, then fit.
    ToggleProcessingAxis,
}

/// Keyboard focus inside the canvas (one Tab stop with roving focus, contract §4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CanvasAction {
    /// DOM focus landed on this object (Tab, a click): it becomes the selection.
    Focused(ObjectId),
    /// DOM focus left the canvas (the selection stays, for the next Tab).
    Blurred,
    /// `]`/`[` from outside the canvas: onto it, at the selected object or else the first (last) element.
    Enter(Nav),
    /// `]`/`[`, ↑/↓ on the canvas: move the focus to another object.
    Move(Nav),
    /// `W`: "why?" for the focused object, opened at page CSS px.
    Explain { x_px: f64, y_px: f64 },
    /// Escape: leave the canvas focus.
    Leave,
}

/// Where a focus move goes (contract §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nav {
    /// `]`: the next object in event time within the lane.
    Next,
    /// `[`: the previous one.
    Prev,
    /// ↑: the neighbouring lane above.
    Up,
    /// ↓: the neighbouring lane below.
    Down,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DragAction {
    Start {
        what: DragStart,
        px: f64,
        millis: f64,
    },
    Move {
        px: f64,
        millis: f64,
    },
    /// Reordering the arrival strip: the pointer is over chip `over`.
    Over(usize),
    /// With several source partitions: the pointer is over partition `n`'s row of the strip.
    OverPartition(u32),
    End,
}

/// Changes to the input items.
#[derive(Clone, Debug, PartialEq)]
pub enum EditAction {
    AddElement {
        key: Option<String>,
        ts: Option<Millis>,
    },
    InsertWatermark {
        wm: Option<Millis>,
    },
    Delete(usize),
    MoveInput {
        from: usize,
        to: usize,
    },
    /// The item is read from another source partition (the arrival strip's Alt+↑/↓).
    SetPartition {
        index: usize,
        partition: u32,
    },
    /// ←/→ on the selected movable object: one snap unit, or 1 ms when `fine`.
    Nudge {
        direction: i64,
        fine: bool,
    },
}

/// The key/value/timestamp editor of one input item.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorAction {
    Open(usize),
    Input(EditorField, String),
    Commit,
    Cancel,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PanelAction {
    ToggleTwoD,
    TogglePanel,
    SetTab(Tab),
    ToggleHelp,
    DismissBanner(usize),
    ShowBanner(String),
    /// Sound cues on or off (`state::sound`).
    ToggleSound,
}

/// Something on the canvas that can be selected and focused (contract §4: focus and selection are
/// one thing). Input items are named by their index in `scenario.input`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjectId {
    /// An element's marble in its key lane.
    Element(usize),
    /// An element's marble in the late side output lane.
    Late(usize),
    /// An explicit watermark item (chosen in the arrival strip); on the canvas the watermark
    /// handle stands for it.
    WatermarkItem(usize),
    /// The watermark handle.
    Watermark,
    Window {
        key: KeyId,
        window: Window,
    },
    Timer {
        key: KeyId,
        time: Millis,
    },
    /// A source partition's track (its own watermark).
    Partition(u32),
}

impl ObjectId {
    /// The input item this object is, or stands for.
    pub fn input(&self) -> Option<usize> {
        match self {
            ObjectId::Element(i) | ObjectId::Late(i) | ObjectId::WatermarkItem(i) => Some(*i),
            _ => None,
        }
    }
}

/// The side panel's tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Output,
    Config,
    Log,
    /// Main output, append/upsert/changelog sinks and the side output.
    Sinks,
    /// State, lag and results charts.
    Charts,
    /// The Flink program in Java, PyFlink and SQL.
    Code,
    /// The SQL view: the window TVF, its query and rows.
    Sql,
    /// Compare mode's second configuration and examples.
    Compare,
    /// The lateness report: late, dropped and late-fired elements per out-of-orderness bound.
    Lateness,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WatermarkTarget {
    /// Explicit watermarks: this input item's value follows the pointer.
    Item(usize),
    /// Bounded out-of-orderness: the bound is `max_ts - 1 - pointer`.
    Bound { max_ts: Millis },
}

/// A drag in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drag {
    Element {
        index: usize,
        grab_offset_millis: f64,
        /// On the processing-time axis the drag moves the element's arrival, not its timestamp.
        arrival: bool,
    },
    Watermark {
        target: WatermarkTarget,
    },
    /// Reordering the arrival strip: the item at `from` would be dropped at `over`, read from
    /// `partition` (the row it is over, with several partitions).
    Arrival {
        from: usize,
        over: usize,
        partition: Option<u32>,
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

/// The context menu, at page CSS px.
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
    /// The source partition it is read from.
    Partition,
    /// Its arrival (processing time); empty: 100 ms after the item before it.
    Arrival,
}

/// Where a key press happened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyTarget {
    /// The page: a button, the body.
    #[default]
    Page,
    /// An object on the canvas has the focus (contract §4's keys inside the canvas).
    Canvas,
    /// A select, checkbox or range: only Escape (and undo) are ours.
    Control,
    /// A field where text is typed: Ctrl+Z is the field's own undo.
    Text,
}

/// A key press, as the reducer sees it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct KeyInput {
    pub key: String,
    pub shift: bool,
    pub alt: bool,
    pub ctrl: bool,
    pub target: KeyTarget,
    /// Page CSS px of the focused canvas object's centre (where "why?" opens).
    pub anchor_px: Option<(f64, f64)>,
}

impl KeyInput {
    /// A plain key pressed on the page.
    pub fn page(key: &str) -> KeyInput {
        KeyInput { key: key.into(), ..KeyInput::default() }
    }

    /// A plain key pressed on a focused canvas object.
    pub fn canvas(key: &str) -> KeyInput {
        KeyInput { key: key.into(), target: KeyTarget::Canvas, ..KeyInput::default() }
    }

    /// In a text field, a select or a checkbox.
    pub fn in_field(&self) -> bool {
        matches!(self.target, KeyTarget::Control | KeyTarget::Text)
    }
}

/// How much of the app is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Everything: configuration, outputs, charts, code.
    #[default]
    Normal,
    /// A lab page's iframe: canvas, playback and narration in 700×450.
    Embed,
    /// A lecture hall: large type, high contrast, presenter keys, no configuration.
    Lecture,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Normal, Mode::Embed, Mode::Lecture];

    /// The `mode=` spelling (`normal` is the default and never written).
    pub fn as_str(&self) -> &'static str {
        match self {
            Mode::Normal => "normal",
            Mode::Embed => "embed",
            Mode::Lecture => "lecture",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// What a "why?" explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhyTarget {
    /// An element, by its index in `run.elements`.
    Element(ElemIdx),
    Window {
        key: KeyId,
        window: Window,
    },
    Timer {
        key: KeyId,
        window: Window,
        time: Millis,
    },
    /// A source partition: its watermark, whether it is idle, whether it holds the combined one.
    Partition(u32),
}

/// The "why?" popover: its target and where it was asked (page CSS px).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WhyPopover {
    pub target: WhyTarget,
    pub x_px: f64,
    pub y_px: f64,
}

/// What was last put on the clipboard (shown in a small box, so that it can be copied by hand
/// when the browser refuses the clipboard, e.g. inside an iframe).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareBox {
    /// `link`, `embed` or `code`.
    pub what: &'static str,
    pub text: String,
    /// Whether the clipboard took it.
    pub copied: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TeachAction {
    /// Open a location hash: `preset=`, `mode=`, `quiz=1`, and the scenario/step parameters of
    /// [`super::fragment`].
    OpenHash(String),
    /// Load a course preset at its default step.
    LoadPreset(String),
    /// Load one of the registry's examples (`teach::presets::examples`), by id.
    LoadExample(String),
    SetMode(Mode),
    ToggleQuiz,
    /// Pick option `i` (toggles it when several may be picked).
    QuizSelect(usize),
    QuizSubmit,
    Why(WhyPopover),
    CloseWhy,
    ToggleBlackout,
    Shared(ShareBox),
    CloseShare,
    /// The text of a file the user chose to import (a scenario, or a preset file).
    Import {
        name: String,
        text: String,
    },
    ImportError(String),
    /// A table (CSV, TSV, JSON Lines) to import: the mapping dialog opens on its bytes (empty:
    /// the user pastes text).
    OpenImport(ImportSource),
    /// The mapping dialog closed without loading anything.
    CloseImport,
    /// The mapping dialog's scenario (JSON text): loaded like any file (the previous one is one
    /// undo away), `summary` said in a banner.
    ImportStream {
        name: String,
        text: String,
        summary: String,
    },
    SetDialect(Dialect),
    /// A lab page locks editing (read-only) or unlocks it (`state::host`).
    Lock(bool),
}

/// A table the user chose or dropped (the extras module reads it), or `None`: the user pastes.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportSource {
    pub name: String,
    pub file: Option<web_sys::File>,
}

/// A field of the configuration panel (errors are shown next to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    Assigner,
    Size,
    Slide,
    Gap,
    Offset,
    Lateness,
    SideOutput,
    Watermarks,
    Bound,
    Trigger,
    TriggerN,
    TriggerInterval,
    /// The course's session cap (`session_max_duration`).
    TriggerMaxDuration,
    Evictor,
    EvictorN,
    EvictorSize,
    /// `DeltaEvictor`'s threshold (a Java double).
    EvictorThreshold,
    /// `DeltaEvictor`'s delta function.
    EvictorDelta,
    Function,
    /// Source partitions (1 to 64).
    Partitions,
    /// Per-event or periodic watermark emission.
    Emission,
    /// `autoWatermarkInterval`.
    Interval,
    /// `withIdleness(d)`; empty: none.
    Idleness,
    /// The per-key gaps of a dynamic session assigner.
    KeyGaps,
}

impl Field {
    /// The `data-field` / element id spelling.
    pub fn name(&self) -> &'static str {
        match self {
            Field::Assigner => "assigner",
            Field::Size => "size",
            Field::Slide => "slide",
            Field::Gap => "gap",
            Field::Offset => "offset",
            Field::Lateness => "lateness",
            Field::SideOutput => "side-output",
            Field::Watermarks => "watermarks",
            Field::Bound => "bound",
            Field::Trigger => "trigger",
            Field::TriggerN => "trigger-n",
            Field::TriggerInterval => "trigger-interval",
            Field::TriggerMaxDuration => "trigger-max-duration",
            Field::Evictor => "evictor",
            Field::EvictorN => "evictor-n",
            Field::EvictorSize => "evictor-size",
            Field::EvictorThreshold => "evictor-threshold",
            Field::EvictorDelta => "evictor-delta",
            Field::Function => "function",
            Field::Partitions => "partitions",
            Field::Emission => "emission",
            Field::Interval => "interval",
            Field::Idleness => "idleness",
            Field::KeyGaps => "key-gaps",
        }
    }
}

/// One edit in the configuration panel.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigEdit {
    Assigner(AssignerChoice),
    Text(Field, String),
    SideOutput(bool),
    Watermarks(WatermarkChoice),
    Trigger(TriggerChoice),
    Purging(bool),
    Evictor(EvictorChoice),
    EvictAfter(bool),
    /// `DeltaEvictor`'s delta function.
    DeltaFn(DeltaFn),
    Function(WindowFunctionSpec),
    Emission(EmissionChoice),
    /// A dynamic session's gap for one key, as typed (empty: the default gap).
    KeyGap(String, String),
}

impl ConfigEdit {
    pub fn field(&self) -> Field {
        match self {
            ConfigEdit::Assigner(_) => Field::Assigner,
            ConfigEdit::Text(f, _) => *f,
            ConfigEdit::SideOutput(_) => Field::SideOutput,
            ConfigEdit::Watermarks(_) => Field::Watermarks,
            ConfigEdit::Trigger(_) | ConfigEdit::Purging(_) => Field::Trigger,
            ConfigEdit::Evictor(_) | ConfigEdit::EvictAfter(_) => Field::Evictor,
            ConfigEdit::DeltaFn(_) => Field::EvictorDelta,
            ConfigEdit::Function(_) => Field::Function,
            ConfigEdit::Emission(_) => Field::Emission,
            ConfigEdit::KeyGap(..) => Field::KeyGaps,
        }
    }
}

/// A `<select>` of the configuration panel: its options (value, label) in menu order.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every value with its `<option value>` and label, in menu order; the menu offers the first
    /// `MENU` of them.
    const OPTIONS: &'static [(Self, &'static str, &'static str)];
    const MENU: usize = Self::OPTIONS.len();

    /// The `<option value>`.
    fn value(&self) -> &'static str {
        Self::OPTIONS.iter().find(|(c, _, _)| c == self).map_or("", |(_, v, _)| v)
    }

    fn label(&self) -> &'static str {
        Self::OPTIONS.iter().find(|(c, _, _)| c == self).map_or("", |(_, _, l)| l)
    }

    fn from_value(v: &str) -> Option<Self> {
        Self::OPTIONS.iter().find(|(_, value, _)| *value == v).map(|(c, _, _)| *c)
    }

    /// The choices the menu offers (the rest only come from a loaded scenario).
    fn menu() -> &'static [(Self, &'static str, &'static str)] {
        &Self::OPTIONS[..Self::MENU]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignerChoice {
    Tumbling,
    Sliding,
    Session,
    Global,
    GlobalEos,
    /// `withDynamicGap`: only loaded from a scenario; the panel edits its default gap.
    DynamicSession,
    /// Processing-time windows: only loaded from a scenario; edits keep them processing-time.
    TumblingProcessing,
    SlidingProcessing,
}

impl Choice for AssignerChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (AssignerChoice::Tumbling, "tumbling", "tumbling"),
        (AssignerChoice::Sliding, "sliding", "sliding"),
        (AssignerChoice::Session, "session", "session"),
        (AssignerChoice::Global, "global", "global"),
        (AssignerChoice::GlobalEos, "global_eos", "global + end-of-stream trigger"),
        (AssignerChoice::DynamicSession, "dynamic_session", "session, dynamic gap"),
        (AssignerChoice::TumblingProcessing, "tumbling_processing", "tumbling, processing time"),
        (AssignerChoice::SlidingProcessing, "sliding_processing", "sliding, processing time"),
    ];
    /// Tumbling to global + end-of-stream, and the dynamic session gap (edited per key).
    const MENU: usize = 6;
}

impl AssignerChoice {
    /// Whether the assigner has a size (and an offset).
    pub fn is_sized(&self) -> bool {
        matches!(
            self,
            AssignerChoice::Tumbling
                | AssignerChoice::Sliding
                | AssignerChoice::TumblingProcessing
                | AssignerChoice::SlidingProcessing
        )
    }

    pub fn is_sliding(&self) -> bool {
        matches!(self, AssignerChoice::Sliding | AssignerChoice::SlidingProcessing)
    }

    pub fn is_session(&self) -> bool {
        matches!(self, AssignerChoice::Session | AssignerChoice::DynamicSession)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatermarkChoice {
    Explicit,
    Bounded,
    Monotonous,
}

impl Choice for WatermarkChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (WatermarkChoice::Explicit, "explicit", "explicit (watermark items)"),
        (WatermarkChoice::Bounded, "bounded_out_of_orderness", "bounded out-of-orderness"),
        (WatermarkChoice::Monotonous, "monotonous", "monotonous timestamps"),
    ];
}

/// How the source's generators emit watermarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmissionChoice {
    /// Right after every record (the oracle's mode).
    PerEvent,
    /// Every `autoWatermarkInterval` of processing time.
    Periodic,
}

impl Choice for EmissionChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (EmissionChoice::PerEvent, "per_event", "per event (after every record)"),
        (EmissionChoice::Periodic, "periodic", "periodic (autoWatermarkInterval)"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerChoice {
    Default,
    EventTime,
    Count,
    ContinuousEventTime,
    /// The course's early trigger: every n elements, then at the watermark.
    EarlyCount,
    /// The course's session with a maximum duration.
    SessionMaxDuration,
}

impl Choice for TriggerChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (TriggerChoice::Default, "default", "assigner's default"),
        (TriggerChoice::EventTime, "event_time", "EventTimeTrigger"),
        (TriggerChoice::Count, "count", "CountTrigger"),
        (TriggerChoice::ContinuousEventTime, "continuous_event_time", "ContinuousEventTimeTrigger"),
        (TriggerChoice::EarlyCount, "early_count_event_time", "every n, then watermark (course)"),
        (TriggerChoice::SessionMaxDuration, "session_max_duration", "session max duration (course)"),
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvictorChoice {
    None,
    Count,
    Time,
    Delta,
}

impl Choice for EvictorChoice {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (EvictorChoice::None, "none", "none"),
        (EvictorChoice::Count, "count", "CountEvictor"),
        (EvictorChoice::Time, "time", "TimeEvictor"),
        (EvictorChoice::Delta, "delta", "DeltaEvictor"),
    ];
}

impl Choice for DeltaFn {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] =
        &[(DeltaFn::Value, "value", "|a.value − b.value|"), (DeltaFn::Ts, "ts", "|a.ts − b.ts|")];
}

impl Choice for WindowFunctionSpec {
    const OPTIONS: &'static [(Self, &'static str, &'static str)] = &[
        (WindowFunctionSpec::Process, "process", "ProcessWindowFunction (buffers all elements)"),
        (WindowFunctionSpec::Sum, "sum", "sum (ReduceFunction)"),
        (WindowFunctionSpec::Count, "count", "count (AggregateFunction)"),
        (WindowFunctionSpec::Avg, "avg", "average (AggregateFunction)"),
        (WindowFunctionSpec::Min, "min", "min (ReduceFunction)"),
        (WindowFunctionSpec::Max, "max", "max (ReduceFunction)"),
        (WindowFunctionSpec::Aggregate(CourseAggregate::TenantCost), "tenant_cost", "TenantCost (course)"),
        (
            WindowFunctionSpec::Aggregate(CourseAggregate::LatencySketch { k: DEFAULT_K }),
            "latency_sketch",
            "LatencySketch p50/p99 (course)",
        ),
    ];
}
