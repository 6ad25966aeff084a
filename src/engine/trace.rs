//! The trace: every input step of a run produces ordered events, each with a sequence number and
//! the index of the input step that caused it. The UI reads nothing else.

use serde::Serialize;

use super::time::{Millis, TimeWindow, Window};

/// Index of a key in [`super::Run::keys`] (keys are numbered in order of first appearance).
pub type KeyId = u32;
/// Index of an element in [`super::Run::elements`] (input order of the elements).
pub type ElemIdx = u32;

/// Why a timer exists. A trigger timer and a cleanup timer at the same (key, window, time) are
/// one timer in Flink's timer service (it deduplicates), so a timer can have both purposes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TimerPurpose {
    /// Registered by the trigger (e.g. `EventTimeTrigger` at `max_timestamp`).
    pub trigger: bool,
    /// Registered by the operator at `cleanup_time = max_timestamp + allowed_lateness`.
    pub cleanup: bool,
}

impl TimerPurpose {
    pub const TRIGGER: TimerPurpose = TimerPurpose { trigger: true, cleanup: false };
    pub const CLEANUP: TimerPurpose = TimerPurpose { trigger: false, cleanup: true };

    pub fn label(&self) -> &'static str {
        match (self.trigger, self.cleanup) {
            (true, true) => "trigger+cleanup",
            (true, false) => "trigger",
            (false, true) => "cleanup",
            (false, false) => "unknown",
        }
    }
}

/// Which clock a timer follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeDomain {
    /// Fires when the watermark reaches it.
    #[default]
    EventTime,
    /// Fires when the processing time (the arrival clock) reaches it.
    ProcessingTime,
}

/// What made the window function run (the oracle's `cause`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FireCause {
    /// `Trigger.onElement` returned FIRE while processing this element.
    Element { id: i64 },
    /// `Trigger.onEventTime` returned FIRE for the event-time timer at `time`.
    Timer { time: Millis },
    /// `Trigger.onProcessingTime` returned FIRE for the processing-time timer at `time`.
    ProcessingTimer { time: Millis },
}

/// The teaching classification of a firing (the oracle's `firing` field is the counter rule
/// `n == 0 ? main : late`, kept separately as `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FiringKind {
    /// Before the watermark reached `max_timestamp` (count or continuous triggers).
    Early,
    /// The first firing at or after the watermark reached `max_timestamp`.
    Main,
    /// Any later firing: an updated result (late element within the allowed lateness).
    Late,
}

impl FiringKind {
    pub fn label(&self) -> &'static str {
        match self {
            FiringKind::Early => "early",
            FiringKind::Main => "main",
            FiringKind::Late => "late",
        }
    }
}

/// One thing the operator did.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TraceKind {
    /// An element reached the window operator.
    ElementArrived {
        elem: ElemIdx,
        id: i64,
        key: KeyId,
        ts: Millis,
        value: i64,
    },
    /// The operator's watermark moved forward; timers up to `to` fire next.
    WatermarkAdvanced {
        from: Millis,
        to: Millis,
    },
    /// A watermark that was not larger than the current one: Flink's watermark emitter drops it.
    WatermarkIgnored {
        proposed: Millis,
        current: Millis,
    },
    /// The assigner's answer for an element (in the assigner's order: sliding = descending start).
    WindowsAssigned {
        elem: ElemIdx,
        key: KeyId,
        windows: Vec<Window>,
    },
    /// The first element of a window arrived: it now has state.
    WindowCreated {
        key: KeyId,
        window: Window,
    },
    /// The element went into the window's state (`state_window` differs for merged sessions).
    ElementAdded {
        elem: ElemIdx,
        id: i64,
        key: KeyId,
        window: Window,
        state_window: Window,
    },
    /// `isWindowLate`: `cleanup_time <= watermark`, so the element skipped this window.
    WindowLate {
        elem: ElemIdx,
        id: i64,
        key: KeyId,
        window: Window,
        cleanup_time: Millis,
        watermark: Millis,
    },
    TimerRegistered {
        key: KeyId,
        window: Window,
        time: Millis,
        purpose: TimerPurpose,
        domain: TimeDomain,
    },
    TimerDeleted {
        key: KeyId,
        window: Window,
        time: Millis,
        purpose: TimerPurpose,
        domain: TimeDomain,
    },
    TimerFired {
        key: KeyId,
        window: Window,
        time: Millis,
        purpose: TimerPurpose,
        stale: bool,
        domain: TimeDomain,
    },
    /// A source partition's own watermark moved (scenarios with several partitions).
    PartitionWatermark {
        partition: u32,
        watermark: Millis,
    },
    /// `withIdleness`: the partition had no events for the idleness timeout of processing time
    /// (`at`) and leaves the watermark minimum.
    PartitionIdle {
        partition: u32,
        at: Millis,
    },
    /// An event on an idle partition brings it back into the minimum.
    PartitionActive {
        partition: u32,
        at: Millis,
    },
    /// A keyed process function emitted a record (`completed`, `abandoned`, `alert`, `ok`).
    FunctionEmitted {
        key: KeyId,
        output: usize,
        kind: String,
        ts: Millis,
    },
    /// A process function's keyed state was updated (`what` says how, with the numbers).
    StateUpdated {
        key: KeyId,
        what: String,
    },
    /// A processing-time state TTL expired the key's state before it was read.
    StateExpired {
        key: KeyId,
        at: Millis,
    },
    /// The window function ran: the [`super::Firing`] at `output` in [`super::Run::outputs`]
    /// says with what (elements, result, kind, cause); [`super::Run::firing`] finds it.
    Fired {
        key: KeyId,
        window: Window,
        output: usize,
    },
    /// An evictor removed elements, before or after the window function.
    Evicted {
        key: KeyId,
        window: Window,
        elems: Vec<ElemIdx>,
        after_function: bool,
    },
    /// The trigger said PURGE: the contents are gone, the window (timers, per-window state) stays.
    Purged {
        key: KeyId,
        window: Window,
        elems: Vec<ElemIdx>,
    },
    /// `clearAllState` at the cleanup time: contents, trigger state and per-window state gone.
    /// `unfired` are elements still in the contents that no firing ever emitted.
    CleanedUp {
        key: KeyId,
        window: Window,
        time: Millis,
        elems: Vec<ElemIdx>,
        unfired: Vec<ElemIdx>,
    },
    /// `MergingWindowSet.addWindow` merged `merged` (and the new window) into `into`; the state
    /// of all of them now lives in `state_window`.
    SessionsMerged {
        key: KeyId,
        new_window: TimeWindow,
        merged: Vec<TimeWindow>,
        into: TimeWindow,
        state_window: TimeWindow,
    },
    /// A late element, rejected by every window, went to the late side output.
    SideOutput {
        elem: ElemIdx,
        id: i64,
        key: KeyId,
        ts: Millis,
    },
    /// Rejected by every window and dropped. `counted`: it was late (`ts + lateness <= wm`) and
    /// there is no side output, so `numLateRecordsDropped` went up; otherwise it vanished silently.
    Dropped {
        elem: ElemIdx,
        id: i64,
        key: KeyId,
        ts: Millis,
        counted: bool,
    },
    /// Checkpoint `checkpoint` completed at the checkpoint item `item`: every operator's keyed
    /// state and timers and the source's position (the next item), not the watermark.
    CheckpointTaken {
        checkpoint: u32,
        item: usize,
    },
    /// The TaskManager died at the crash item `item`.
    Crashed {
        item: usize,
    },
    /// A crash item a replay passes again: it already happened, nothing dies.
    CrashPassed {
        item: usize,
    },
    /// The job restarted from `checkpoint` (`None`: no checkpoint completed, empty state): state
    /// and timers are back, the watermark is `Long.MIN_VALUE` again and the source replays from
    /// `from_item`.
    Restored {
        checkpoint: Option<u32>,
        from_item: usize,
    },
    /// The restarted source reads input item `item` again (its events follow, in the crash step).
    Replayed {
        item: usize,
    },
    /// `timers` restored processing-time timers are already due at the restore and fire now,
    /// before the first replayed item. Documented rule only ("will fire immediately", Flink's
    /// documentation): not golden-backed, because their place among the restarted task's first
    /// outputs is a race in real Flink (`tests/oracle-ext/experiments/ptimer-at-restore`).
    TimersDueAtRestore {
        timers: usize,
        rule_only: bool,
    },
    /// The bounded input ended; `max_watermark`: the source emitted `Long.MAX_VALUE`.
    EndOfInput {
        max_watermark: bool,
    },
    /// Flink threw: the job failed (`run`) or was never built (`build`). Nothing follows.
    Error {
        phase: String,
        class: String,
        message: String,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceEvent {
    /// Strictly increasing from 0 (a `u32`: 8 bytes less an event in the page's wasm, 80 instead of
    /// 88; the command line's limits keep a trace far below 4 billion events).
    pub seq: u32,
    /// Index of the input item that caused it; `input.len()` for end of input.
    pub step: usize,
    #[serde(flatten)]
    pub kind: TraceKind,
}

// A trace event's size in the page's wasm (a 100,000-element stream's trace is 0.66-1.03 M of
// them): a change that grows it fails to compile here, and says so.
#[cfg(target_arch = "wasm32")]
const _: [(); 80] = [(); std::mem::size_of::<TraceEvent>()];
