//! The course's two `KeyedProcessFunction` programs, on the same timer service rules as the
//! window operator: event-time timers deduplicated per (key, timestamp), `onTimer` when the
//! watermark passes the timer, delete by exact timestamp, state scoped to the timer's key.
//!
//! - `RequestAssembler` (module 6): on RequestStarted keep the open request and register an
//!   event-time timer at `started + timeout`; on RequestCompleted emit, delete the timer, clear;
//!   on the timer emit `abandoned`. An optional processing-time TTL on the open state shows
//!   why module 3's short TTL loses completions during a watermark stall (Lab 6.4).
//! - The hand-built per-minute error-rate alert (upstream's PseudoWindow): a map from minute
//!   end to (errors, requests), a timer at each minute end, the entry removed when it fires, so
//!   a late error is dropped (the same as zero allowed lateness).

use std::collections::BTreeMap;

use super::operator::{ElementRec, MAX_TIMERS_PER_ADVANCE, OperatorStats};
use super::output::{FlinkError, Output, ProcessRecord};
use super::recorder::Recorder;
use super::recovery::{KeyedSnapshot, Snapshots};
use super::scenario::ProcessFunctionSpec;
use super::time::{LONG_MIN, Millis, Window};
use super::trace::{ElemIdx, KeyId, TimeDomain, TimerPurpose, TraceKind};

/// The open request of `RequestAssembler` (its `ValueState<OpenRequest>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OpenRequest {
    started_ts: Millis,
    /// The RequestStarted element held in state.
    started_id: i64,
    /// Processing time of the last write (for the TTL).
    written_at: Millis,
}

#[derive(Clone, Debug, Default)]
struct KeyState {
    open: Option<OpenRequest>,
    /// Error-rate alert: minute end -> (errors, requests).
    minutes: BTreeMap<Millis, (i64, i64)>,
}

/// A timer service: timers per (time, key), at most one per key and timestamp.
type Timers = BTreeMap<(Millis, KeyId), ()>;

pub struct ProcessOperator {
    spec: ProcessFunctionSpec,
    watermark: Millis,
    processing_time: Millis,
    keys: Vec<KeyState>,
    /// Event-time timers per (time, key): at most one per key and timestamp.
    timers: Timers,
    /// Processing-time timers per (time, key), likewise.
    processing_timers: Timers,
    elements: Vec<ElementRec>,
    events: Vec<Option<String>>,
    /// Completed checkpoints (issue 17): keyed state and timers, numbered from 1.
    checkpoints: Snapshots<KeyedSnapshot<KeyState, Timers>>,
    pub rec: Recorder,
    pub stats: OperatorStats,
}

/// What an element means to the functions, from its `event` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EventType {
    Started,
    Completed,
    Request,
    Error,
    Other,
}

fn event_type(event: Option<&str>) -> EventType {
    match event.map(str::to_ascii_lowercase).as_deref() {
        Some("started" | "requeststarted" | "request_started") => EventType::Started,
        Some("completed" | "requestcompleted" | "request_completed") => EventType::Completed,
        Some("error" | "modelerror" | "model_error") => EventType::Error,
        Some("request" | "requestrecord" | "ok") | None => EventType::Request,
        Some(_) => EventType::Other,
    }
}

impl ProcessOperator {
    pub fn new(spec: ProcessFunctionSpec, trace: bool) -> Self {
        ProcessOperator {
            spec,
            watermark: LONG_MIN,
            processing_time: 0,
            keys: Vec::new(),
            timers: BTreeMap::new(),
            processing_timers: BTreeMap::new(),
            elements: Vec::new(),
            events: Vec::new(),
            checkpoints: Snapshots::default(),
            rec: Recorder { enabled: trace, ..Recorder::default() },
            stats: OperatorStats::default(),
        }
    }

    pub fn current_watermark(&self) -> Millis {
        self.watermark
    }

    fn key_state(&mut self, key: KeyId) -> &mut KeyState {
        let idx = key as usize;
        if self.keys.len() <= idx {
            self.keys.resize_with(idx + 1, KeyState::default);
        }
        &mut self.keys[idx]
    }

    pub fn push_element(&mut self, rec: ElementRec, event: Option<String>) -> ElemIdx {
        self.elements.push(rec);
        self.events.push(event);
        (self.elements.len() - 1) as ElemIdx
    }

    /// `registerEventTimeTimer(t)` / `registerProcessingTimeTimer(t)`: deduplicated per key and
    /// timestamp.
    fn register_timer(&mut self, domain: TimeDomain, key: KeyId, time: Millis) {
        let timers = match domain {
            TimeDomain::EventTime => &mut self.timers,
            TimeDomain::ProcessingTime => &mut self.processing_timers,
        };
        if timers.insert((time, key), ()).is_none() {
            self.rec.push(TraceKind::TimerRegistered {
                key,
                window: Window::Global,
                time,
                purpose: TimerPurpose::TRIGGER,
                domain,
            });
        }
    }

    /// `deleteEventTimeTimer(t)` / `deleteProcessingTimeTimer(t)`: only the exact timestamp; no
    /// timer, no effect.
    fn delete_timer(&mut self, domain: TimeDomain, key: KeyId, time: Millis) {
        let timers = match domain {
            TimeDomain::EventTime => &mut self.timers,
            TimeDomain::ProcessingTime => &mut self.processing_timers,
        };
        if timers.remove(&(time, key)).is_some() {
            self.rec.push(TraceKind::TimerDeleted {
                key,
                window: Window::Global,
                time,
                purpose: TimerPurpose::TRIGGER,
                domain,
            });
        }
    }

    /// When the open request's timer is due: `started_ts + timeout` in event time, or
    /// `written_at + timeout` in processing time.
    fn timer_of(open: &OpenRequest, timeout: Millis, domain: TimeDomain) -> Millis {
        match domain {
            TimeDomain::EventTime => open.started_ts.wrapping_add(timeout),
            TimeDomain::ProcessingTime => open.written_at.saturating_add(timeout),
        }
    }

    fn emit(&mut self, record: ProcessRecord) {
        let output = self.rec.outputs.len();
        self.rec.push(TraceKind::FunctionEmitted {
            key: record.key,
            output,
            kind: record.kind.to_string(),
            ts: record.ts,
        });
        self.rec.outputs.push(Output::Process(record));
    }

    /// `open.value()` under the TTL: an entry written `ttl` or more ms of processing time ago
    /// is expired and reads as null (`NeverReturnExpired`).
    fn read_open(&mut self, key: KeyId) -> Option<OpenRequest> {
        let ttl = match self.spec {
            ProcessFunctionSpec::RequestAssembler { ttl, .. } => ttl,
            ProcessFunctionSpec::ErrorRateAlert { .. } => None,
        };
        let now = self.processing_time;
        let state = self.key_state(key);
        let open = state.open?;
        if let Some(ttl) = ttl
            && open.written_at.saturating_add(ttl) <= now
        {
            state.open = None;
            self.rec.push(TraceKind::StateExpired { key, at: now });
            return None;
        }
        Some(open)
    }

    pub fn process_element(&mut self, elem: ElemIdx, _key_name: &str) -> Result<(), FlinkError> {
        let e = self.elements[elem as usize];
        let key = e.key;
        self.rec.push(TraceKind::ElementArrived { elem, id: e.id, key, ts: e.ts, value: e.value });
        let event = event_type(self.events[elem as usize].as_deref());
        match self.spec {
            ProcessFunctionSpec::RequestAssembler { timeout, timer, .. } => match event {
                EventType::Started => {
                    let written_at = self.processing_time;
                    let open = OpenRequest { started_ts: e.ts, started_id: e.id, written_at };
                    self.key_state(key).open = Some(open);
                    self.rec.push(TraceKind::StateUpdated { key, what: format!("open := started at {}", e.ts) });
                    self.register_timer(timer, key, Self::timer_of(&open, timeout, timer));
                }
                EventType::Completed => match self.read_open(key) {
                    Some(open) => {
                        self.emit(ProcessRecord {
                            key,
                            kind: "completed",
                            ts: e.ts,
                            watermark: self.watermark,
                            id: Some(e.id),
                            errors: None,
                            requests: None,
                            step: self.rec.step,
                        });
                        self.delete_timer(timer, key, Self::timer_of(&open, timeout, timer));
                        self.key_state(key).open = None;
                        self.rec.push(TraceKind::StateUpdated { key, what: "open cleared".into() });
                    }
                    None => {
                        // No open request to join: the completion is dropped, never billed.
                        self.stats.silently_dropped += 1;
                        self.rec.push(TraceKind::Dropped { elem, id: e.id, key, ts: e.ts, counted: false });
                    }
                },
                _ => {
                    self.stats.silently_dropped += 1;
                    self.rec.push(TraceKind::Dropped { elem, id: e.id, key, ts: e.ts, counted: false });
                }
            },
            ProcessFunctionSpec::ErrorRateAlert { size, .. } => {
                if event == EventType::Other {
                    self.stats.silently_dropped += 1;
                    self.rec.push(TraceKind::Dropped { elem, id: e.id, key, ts: e.ts, counted: false });
                    return Ok(());
                }
                // PseudoWindow: `eventTime - (eventTime % size) + size - 1` (Java remainder).
                let minute_end = e.ts.wrapping_sub(e.ts.wrapping_rem(size)).wrapping_add(size).wrapping_sub(1);
                if minute_end <= self.watermark {
                    // "This event is late; its window has already been triggered."
                    self.stats.silently_dropped += 1;
                    self.rec.push(TraceKind::Dropped { elem, id: e.id, key, ts: e.ts, counted: false });
                    return Ok(());
                }
                let state = self.key_state(key);
                let first = !state.minutes.contains_key(&minute_end);
                let entry = state.minutes.entry(minute_end).or_insert((0, 0));
                entry.0 += i64::from(event == EventType::Error);
                entry.1 += 1;
                let (errors, requests) = *entry;
                self.rec.push(TraceKind::StateUpdated {
                    key,
                    what: format!("minute ending {minute_end}: {errors} error(s) / {requests} request(s)"),
                });
                if first {
                    self.register_timer(TimeDomain::EventTime, key, minute_end);
                }
            }
        }
        Ok(())
    }

    pub fn process_watermark(&mut self, watermark: Millis) -> Result<(), FlinkError> {
        self.rec.push(TraceKind::WatermarkAdvanced { from: self.watermark, to: watermark });
        self.watermark = watermark;
        self.fire_due(TimeDomain::EventTime, watermark)
    }

    /// Fires every timer of `domain` with `time <= until`, in (time, key) order, including
    /// timers registered while this runs.
    fn fire_due(&mut self, domain: TimeDomain, until: Millis) -> Result<(), FlinkError> {
        let mut fired = 0;
        loop {
            let timers = match domain {
                TimeDomain::EventTime => &mut self.timers,
                TimeDomain::ProcessingTime => &mut self.processing_timers,
            };
            let Some(entry) = timers.first_entry() else { break };
            let (time, key) = *entry.key();
            if time > until {
                break;
            }
            entry.remove();
            fired += 1;
            if fired > MAX_TIMERS_PER_ADVANCE {
                return Err(FlinkError::limit("too many timers fired at once"));
            }
            self.stats.timers_fired += 1;
            self.rec.push(TraceKind::TimerFired {
                key,
                window: Window::Global,
                time,
                purpose: TimerPurpose::TRIGGER,
                stale: false,
                domain,
            });
            self.on_timer(key, time, domain);
        }
        Ok(())
    }

    /// `onTimer(timestamp, ctx)`, with state scoped to the timer's key.
    fn on_timer(&mut self, key: KeyId, time: Millis, domain: TimeDomain) {
        match self.spec {
            ProcessFunctionSpec::RequestAssembler { timeout, timer, .. } => {
                // Upstream's pattern: ignore a stale timer (`timestamp == started + timeout`).
                if let Some(open) = self.read_open(key)
                    && domain == timer
                    && time == Self::timer_of(&open, timeout, timer)
                {
                    self.emit(ProcessRecord {
                        key,
                        kind: "abandoned",
                        ts: time,
                        watermark: self.watermark,
                        id: Some(open.started_id),
                        errors: None,
                        requests: None,
                        step: self.rec.step,
                    });
                    self.key_state(key).open = None;
                    self.rec.push(TraceKind::StateUpdated { key, what: "open cleared".into() });
                }
            }
            ProcessFunctionSpec::ErrorRateAlert { threshold_pct, .. } => {
                let Some((errors, requests)) = self.key_state(key).minutes.remove(&time) else { return };
                let alert = errors.saturating_mul(100) > threshold_pct.saturating_mul(requests);
                self.emit(ProcessRecord {
                    key,
                    kind: if alert { "alert" } else { "ok" },
                    ts: time,
                    watermark: self.watermark,
                    id: None,
                    errors: Some(errors),
                    requests: Some(requests),
                    step: self.rec.step,
                });
                self.rec.push(TraceKind::StateUpdated { key, what: format!("minute ending {time} removed") });
            }
        }
    }

    /// Processing time moves to `now`: processing-time timers with `time <= now` fire in order.
    pub fn advance_processing_time(&mut self, now: Millis) -> Result<(), FlinkError> {
        if now <= self.processing_time {
            return Ok(());
        }
        self.processing_time = now;
        self.fire_due(TimeDomain::ProcessingTime, now)
    }

    /// A checkpoint: the keyed state and both timer services (not the watermark).
    pub fn checkpoint(&mut self) {
        self.checkpoints.take(&self.keys, &self.timers, &self.processing_timers);
    }

    /// The restarted task: checkpoint `n`'s state and timers (none: empty), the watermark back
    /// at `Long.MIN_VALUE`. Returns the processing-time timers already due.
    pub fn restore(&mut self, checkpoint: Option<u32>) -> usize {
        self.checkpoints.restore_into(checkpoint, &mut self.keys, &mut self.timers, &mut self.processing_timers);
        self.watermark = LONG_MIN;
        let now = self.processing_time;
        self.processing_timers.keys().filter(|(t, _)| *t <= now).count()
    }

    /// Processing-time timers due at the restore "fire immediately" (Flink's documented rule).
    pub fn fire_due_processing_timers(&mut self) -> Result<(), FlinkError> {
        self.fire_due(TimeDomain::ProcessingTime, self.processing_time)
    }

    /// Open requests and minute entries per key, for state accounting.
    pub fn state_entries(&self) -> usize {
        self.keys.iter().map(|k| usize::from(k.open.is_some()) + k.minutes.len()).sum()
    }
}
