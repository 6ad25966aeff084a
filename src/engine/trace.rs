//! The trace: every input step of a run produces ordered events, each with a sequence number and
//! the index of the input step that caused it. The UI reads nothing else.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::time::{Millis, TimeWindow, Window, format_millis};

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
    /// The window function ran; `output` indexes [`super::Run::outputs`].
    Fired {
        key: KeyId,
        window: Window,
        output: usize,
        elems: Vec<ElemIdx>,
        sum: i64,
        count: u64,
        n: u64,
        kind: FiringKind,
        watermark: Millis,
        cause: FireCause,
        purge: bool,
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
    /// Strictly increasing from 0.
    pub seq: u64,
    /// Index of the input item that caused it; `input.len()` for end of input.
    pub step: usize,
    #[serde(flatten)]
    pub kind: TraceKind,
}

impl TraceEvent {
    /// JSON with key names instead of key ids (what `tidemark run --format trace` prints).
    pub fn to_json(&self, keys: &[String]) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        if let Value::Object(obj) = &mut v
            && let Some(Value::Number(n)) = obj.get("key")
            && let Some(name) = n.as_u64().and_then(|i| keys.get(i as usize))
        {
            obj.insert("key".into(), Value::String(name.clone()));
        }
        v
    }

    /// One readable line, with key names resolved.
    pub fn display<'a>(&'a self, keys: &'a [String]) -> TraceDisplay<'a> {
        TraceDisplay { event: self, keys }
    }
}

pub struct TraceDisplay<'a> {
    event: &'a TraceEvent,
    keys: &'a [String],
}

fn t(ts: Millis) -> String {
    format_millis(ts)
}

fn domain_prefix(domain: &TimeDomain) -> &'static str {
    match domain {
        TimeDomain::EventTime => "",
        TimeDomain::ProcessingTime => "processing-time ",
    }
}

fn w(window: &Window) -> String {
    match window {
        Window::Global => "GlobalWindow".into(),
        Window::Time(tw) => format!("[{}, {})", t(tw.start), t(tw.end)),
    }
}

impl fmt::Display for TraceDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = |k: &KeyId| self.keys.get(*k as usize).map_or("?", |s| s.as_str());
        let e = self.event;
        write!(f, "#{:<3} step {:<3} ", e.seq, e.step)?;
        match &e.kind {
            TraceKind::ElementArrived { id, key: k, ts, value, .. } => {
                write!(f, "element {id} arrives: key {} ts {} value {value}", key(k), t(*ts))
            }
            TraceKind::WatermarkAdvanced { from, to } => write!(f, "watermark {} -> {}", t(*from), t(*to)),
            TraceKind::WatermarkIgnored { proposed, current } => {
                write!(f, "watermark {} ignored: not above the current {}", t(*proposed), t(*current))
            }
            TraceKind::WindowsAssigned { key: k, windows, .. } => {
                let list: Vec<String> = windows.iter().map(w).collect();
                write!(
                    f,
                    "assigner: key {} -> {}",
                    key(k),
                    if list.is_empty() { "no window".into() } else { list.join(" ") }
                )
            }
            TraceKind::WindowCreated { key: k, window } => write!(f, "window {} {} created", key(k), w(window)),
            TraceKind::ElementAdded { id, key: k, window, state_window, .. } => {
                if state_window == window {
                    write!(f, "element {id} added to {} {}", key(k), w(window))
                } else {
                    write!(f, "element {id} added to {} {} (state window {})", key(k), w(window), w(state_window))
                }
            }
            TraceKind::WindowLate { id, key: k, window, cleanup_time, watermark, .. } => write!(
                f,
                "window {} {} is late for element {id}: cleanup time {} <= watermark {}",
                key(k),
                w(window),
                t(*cleanup_time),
                t(*watermark)
            ),
            TraceKind::TimerRegistered { key: k, window, time, purpose, domain } => write!(
                f,
                "{}timer {} registered at {} for {} {}",
                domain_prefix(domain),
                purpose.label(),
                t(*time),
                key(k),
                w(window)
            ),
            TraceKind::TimerDeleted { key: k, window, time, purpose, domain } => write!(
                f,
                "{}timer {} deleted at {} for {} {}",
                domain_prefix(domain),
                purpose.label(),
                t(*time),
                key(k),
                w(window)
            ),
            TraceKind::TimerFired { key: k, window, time, purpose, stale, domain } => write!(
                f,
                "{}timer {} fires at {} for {} {}{}",
                domain_prefix(domain),
                purpose.label(),
                t(*time),
                key(k),
                w(window),
                if *stale { " (window no longer exists: ignored)" } else { "" }
            ),
            TraceKind::PartitionWatermark { partition, watermark } => {
                write!(f, "partition {partition} watermark -> {}", t(*watermark))
            }
            TraceKind::PartitionIdle { partition, at } => {
                write!(f, "partition {partition} idle at processing time {at}: it leaves the watermark minimum")
            }
            TraceKind::PartitionActive { partition, at } => {
                write!(f, "partition {partition} active again at processing time {at}")
            }
            TraceKind::FunctionEmitted { key: k, kind, ts, .. } => {
                write!(f, "process function emits {kind} for {} at {}", key(k), t(*ts))
            }
            TraceKind::StateUpdated { key: k, what } => write!(f, "state of {}: {what}", key(k)),
            TraceKind::StateExpired { key: k, at } => {
                write!(f, "state of {} expired (TTL, processing time {at})", key(k))
            }
            TraceKind::Fired { key: k, window, sum, count, n, kind, watermark, purge, .. } => write!(
                f,
                "{} firing of {} {}: sum {sum} count {count} (n={n}, wm {}){}",
                kind.label(),
                key(k),
                w(window),
                t(*watermark),
                if *purge { ", then purge" } else { "" }
            ),
            TraceKind::Evicted { key: k, window, elems, after_function } => write!(
                f,
                "evictor removed {} element(s) from {} {} {} the function",
                elems.len(),
                key(k),
                w(window),
                if *after_function { "after" } else { "before" }
            ),
            TraceKind::Purged { key: k, window, elems } => {
                write!(f, "purge: {} {} loses its {} element(s)", key(k), w(window), elems.len())
            }
            TraceKind::CleanedUp { key: k, window, time, elems, unfired } => write!(
                f,
                "cleanup of {} {} at {}: state cleared ({} element(s), {} never emitted)",
                key(k),
                w(window),
                t(*time),
                elems.len(),
                unfired.len()
            ),
            TraceKind::SessionsMerged { key: k, new_window, merged, into, state_window } => {
                let list: Vec<String> = merged.iter().map(|m| w(&Window::Time(*m))).collect();
                write!(
                    f,
                    "sessions of {} merged: new {} + {} -> {} (state window {})",
                    key(k),
                    w(&Window::Time(*new_window)),
                    list.join(" + "),
                    w(&Window::Time(*into)),
                    w(&Window::Time(*state_window))
                )
            }
            TraceKind::SideOutput { id, key: k, ts, .. } => {
                write!(f, "element {id} (key {} ts {}) -> late side output", key(k), t(*ts))
            }
            TraceKind::Dropped { id, key: k, ts, counted, .. } => write!(
                f,
                "element {id} (key {} ts {}) dropped{}",
                key(k),
                t(*ts),
                if *counted { " (numLateRecordsDropped +1)" } else { " silently" }
            ),
            TraceKind::EndOfInput { max_watermark } => write!(
                f,
                "end of input{}",
                if *max_watermark { ": the source emits watermark Long.MAX" } else { " (no MAX watermark)" }
            ),
            TraceKind::Error { phase, class, message } => write!(f, "error ({phase}): {class}: {message}"),
        }
    }
}
