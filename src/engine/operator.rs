//! Flink's `WindowOperator` (and `EvictingWindowOperator`) for one parallel instance: keyed
//! window state, the trigger, the evictor, the merging window set and the event-time timer
//! service, with Flink's exact order of operations. Every method names the Flink method it
//! mirrors; subtle rules carry a "why" comment with the behaviour they reproduce.

use std::collections::BTreeMap;
use std::collections::btree_map;
use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use super::output::{Firing, FlinkError, Output};
use super::scenario::limits::MAX_WINDOWS_PER_ELEMENT;
use super::scenario::{AssignerSpec, BaseTrigger, EvictorKind, EvictorSpec, Scenario, WindowFunctionSpec};
use super::time::{LONG_MAX, LONG_MIN, Millis, TimeWindow, Window, java_hash_set_order, window_start_with_offset};
pub use super::timers::{TimerKey, TimerQueue};
use super::trace::{ElemIdx, FireCause, FiringKind, KeyId, TimeDomain, TimerPurpose, TraceEvent, TraceKind};

/// Records a trace event only when the trace is on: a run without a trace (throughput benchmarks,
/// batch checks) never builds the payloads, some of which allocate.
macro_rules! record {
    ($rec:expr, $kind:expr) => {
        if $rec.enabled {
            $rec.push($kind)
        }
    };
}

/// The trigger after resolving the assigner's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerKind {
    /// `EventTimeTrigger`: timer at `max_timestamp`, FIRE when it fires; FIRE at once for an
    /// element whose window's `max_timestamp <= watermark`.
    EventTime,
    /// `GlobalWindows.NeverTrigger`.
    Never,
    /// `GlobalWindows.EndOfStreamTrigger`: a timer at `Long.MAX_VALUE`.
    EndOfStream,
    /// `CountTrigger.of(n)`.
    Count(i64),
    /// `ContinuousEventTimeTrigger.of(interval)`.
    ContinuousEventTime(Millis),
    /// `ProcessingTimeTrigger`: the default of processing-time assigners.
    ProcessingTime,
}

/// `TriggerResult`: CONTINUE, FIRE, PURGE or FIRE_AND_PURGE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TriggerResult {
    pub fire: bool,
    pub purge: bool,
}

impl TriggerResult {
    pub const CONTINUE: TriggerResult = TriggerResult { fire: false, purge: false };
    pub const FIRE: TriggerResult = TriggerResult { fire: true, purge: false };
}

/// The operator's configuration after Flink's build-time checks.
#[derive(Clone, Debug)]
pub struct OperatorConfig {
    pub assigner: AssignerSpec,
    pub trigger: TriggerKind,
    /// Wrapped in `PurgingTrigger`: every FIRE becomes FIRE_AND_PURGE.
    pub purging: bool,
    pub evictor: Option<EvictorSpec>,
    pub allowed_lateness: Millis,
    pub side_output: bool,
    pub function: WindowFunctionSpec,
}

fn illegal_argument(message: &str) -> FlinkError {
    FlinkError::build("java.lang.IllegalArgumentException", message)
}

/// Builds the operator configuration the way Flink builds the job, in the oracle's order
/// (assigner, trigger, evictor, allowed lateness), failing with Flink's own exception.
pub fn validate(s: &Scenario) -> Result<OperatorConfig, FlinkError> {
    match s.assigner {
        // `TumblingEventTimeWindows` constructor.
        AssignerSpec::Tumbling { size, offset } if offset.unsigned_abs() >= size.max(0) as u64 => {
            return Err(illegal_argument("TumblingEventTimeWindows parameters must satisfy abs(offset) < size"));
        }
        // `SlidingEventTimeWindows` constructor.
        AssignerSpec::Sliding { size, slide, offset } if offset.unsigned_abs() >= slide.max(0) as u64 || size <= 0 => {
            return Err(illegal_argument(
                "SlidingEventTimeWindows parameters must satisfy abs(offset) < slide and size > 0",
            ));
        }
        AssignerSpec::Sliding { size, slide, .. } if size / slide > 10_000_000 => {
            return Err(illegal_argument("SlidingEventTimeWindows parameters must satisfy size / slide <= 10000000"));
        }
        AssignerSpec::TumblingProcessing { size, offset } if offset.unsigned_abs() >= size.max(0) as u64 => {
            return Err(illegal_argument("TumblingProcessingTimeWindows parameters must satisfy abs(offset) < size"));
        }
        AssignerSpec::SlidingProcessing { size, slide, offset }
            if offset.unsigned_abs() >= slide.max(0) as u64 || size <= 0 =>
        {
            return Err(illegal_argument(
                "SlidingProcessingTimeWindows parameters must satisfy abs(offset) < slide and size > 0",
            ));
        }
        // `EventTimeSessionWindows` constructor.
        AssignerSpec::Session { gap } if gap <= 0 => {
            return Err(illegal_argument("EventTimeSessionWindows parameters must satisfy 0 < size"));
        }
        _ => {}
    }
    let trigger = match s.trigger.base {
        BaseTrigger::Default => match s.assigner {
            AssignerSpec::Global => TriggerKind::Never,
            AssignerSpec::GlobalEos => TriggerKind::EndOfStream,
            AssignerSpec::TumblingProcessing { .. } | AssignerSpec::SlidingProcessing { .. } => {
                TriggerKind::ProcessingTime
            }
            _ => TriggerKind::EventTime,
        },
        BaseTrigger::EventTime => TriggerKind::EventTime,
        BaseTrigger::Count { n } => TriggerKind::Count(n),
        BaseTrigger::ContinuousEventTime { interval } => TriggerKind::ContinuousEventTime(interval),
    };
    // `WindowedStream.allowedLateness`: `checkArgument(millis >= 0, ...)`.
    let allowed_lateness = s.lateness();
    if allowed_lateness < 0 {
        return Err(illegal_argument("The allowed lateness cannot be negative."));
    }
    Ok(OperatorConfig {
        assigner: s.assigner.clone(),
        trigger,
        purging: s.trigger.purging,
        evictor: s.evictor,
        allowed_lateness,
        side_output: s.side_output,
        function: s.function,
    })
}

/// An element as the operator stores it.
#[derive(Clone, Copy, Debug)]
pub struct ElementRec {
    pub id: i64,
    pub key: KeyId,
    pub ts: Millis,
    pub value: i64,
}

/// The trigger's partitioned state for one window (`ReducingState`s in Flink).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TriggerState {
    /// `CountTrigger`'s "count".
    count: Option<i64>,
    /// `ContinuousEventTimeTrigger`'s "fire-time".
    fire_time: Option<Millis>,
}

/// Tidemark's bookkeeping for a live window (not Flink state; drives the firing kind).
#[derive(Clone, Copy, Debug, Default)]
struct WindowMeta {
    /// A firing happened at or after the watermark passed `max_timestamp`.
    had_on_time_firing: bool,
}

/// Why hash maps (Fx, no random seed) except `mapping`: these are point lookups on every element,
/// and nothing iterates them in an order that reaches the output (`live_windows` sorts); the
/// merging window set needs range scans, so it stays ordered.
#[derive(Clone, Debug, Default)]
struct KeyState {
    /// Window contents (list state) per state namespace, in arrival order.
    contents: FxHashMap<Window, Vec<ElemIdx>>,
    /// Trigger state per (actual) window.
    trigger_state: FxHashMap<Window, TriggerState>,
    /// The oracle's firing counter `n`: per window for non-merging assigners (cleared with the
    /// window); for sessions a per-key map keyed by window, see [`WindowOperator::next_firing`].
    firings: FxHashMap<Window, u64>,
    /// `MergingWindowSet.mapping`: in-flight window -> state window (sessions only), with
    /// Tidemark's bookkeeping for the window beside it.
    mapping: BTreeMap<TimeWindow, InFlight>,
    /// Live windows (created, not yet cleaned up) of non-merging assigners. For merging ones
    /// the in-flight windows of `mapping` are the live windows: keeping a second map in step
    /// with it cost four hash operations per session element.
    live: FxHashMap<Window, WindowMeta>,
}

/// A `mapping` entry: the state window, and the in-flight window's [`WindowMeta`].
#[derive(Clone, Copy, Debug)]
struct InFlight {
    state: TimeWindow,
    meta: WindowMeta,
}

impl InFlight {
    fn new(state: TimeWindow) -> Self {
        InFlight { state, meta: WindowMeta::default() }
    }
}

impl KeyState {
    /// The live window's bookkeeping, if the window is live.
    fn meta_mut(&mut self, merging: bool, window: Window) -> Option<&mut WindowMeta> {
        match (merging, window) {
            (true, Window::Time(tw)) => self.mapping.get_mut(&tw).map(|f| &mut f.meta),
            (true, Window::Global) => None,
            (false, _) => self.live.get_mut(&window),
        }
    }

    fn is_live(&self, merging: bool, window: Window) -> bool {
        match (merging, window) {
            (true, Window::Time(tw)) => self.mapping.contains_key(&tw),
            (true, Window::Global) => false,
            (false, _) => self.live.contains_key(&window),
        }
    }
}

/// `mapping.put(window, window)`: the window is its own state window. True if it was not in
/// flight before (an in-flight one keeps its bookkeeping).
fn put_own_state_window(mapping: &mut BTreeMap<TimeWindow, InFlight>, window: TimeWindow) -> bool {
    match mapping.entry(window) {
        btree_map::Entry::Vacant(slot) => {
            slot.insert(InFlight::new(window));
            true
        }
        btree_map::Entry::Occupied(mut existing) => {
            existing.get_mut().state = window;
            false
        }
    }
}

/// `SlidingEventTimeWindows.assignWindows` (and the processing-time twin): from the last start
/// at or before `ts` back while `start > ts - size`, in descending start order, with Java long
/// arithmetic. The count guard only matters where Java would wrap around forever.
fn sliding_windows(ts: Millis, size: Millis, slide: Millis, offset: Millis, windows: &mut Vec<Window>) {
    let mut start = window_start_with_offset(ts, offset, slide);
    while start > ts.wrapping_sub(size) && (windows.len() as i64) <= MAX_WINDOWS_PER_ELEMENT {
        windows.push(Window::Time(TimeWindow::new(start, start.wrapping_add(size))));
        let next = start.wrapping_sub(slide);
        if next > start {
            break;
        }
        start = next;
    }
}

/// Merges: the cover of each run of intersecting windows and its members (in Java `HashSet` order).
#[cfg(debug_assertions)]
type Merges = Vec<(TimeWindow, Vec<TimeWindow>)>;

/// `TimeWindow.mergeWindows` over the in-flight windows plus the new one, as Flink runs it:
/// sort by start (stable), sweep, collect each run of intersecting windows; Flink keeps the
/// members of a run in a `HashSet`, so they come back in Java's hash order. Only runs of more
/// than one window are merges. O(windows of the key) per element: kept as the reference.
#[cfg(debug_assertions)]
fn merge_candidates_slow(mapping: &BTreeMap<TimeWindow, InFlight>, new_window: TimeWindow) -> Merges {
    let mut windows: Vec<TimeWindow> = mapping.keys().copied().collect();
    windows.push(new_window);
    windows.sort_by_key(|w| w.start);
    let mut runs: Vec<(TimeWindow, Vec<TimeWindow>)> = Vec::new();
    for candidate in windows {
        match runs.last_mut() {
            Some((cover, members)) if cover.intersects(&candidate) => {
                *cover = cover.cover(&candidate);
                members.push(candidate);
            }
            _ => runs.push((candidate, vec![candidate])),
        }
    }
    runs.into_iter()
        .map(|(cover, mut members)| {
            java_hash_set_order(&mut members);
            (cover, members)
        })
        .filter(|(_, members)| members.len() > 1)
        .collect()
}

/// The same result in O(log n + merged windows): the in-flight windows never intersect one
/// another (every earlier addition merged them), so the only run with more than one member is
/// the new window plus the in-flight windows that intersect it. Debug builds check every call
/// against [`merge_candidates_slow`].
fn merge_candidates(
    mapping: &BTreeMap<TimeWindow, InFlight>,
    new_window: TimeWindow,
    members: &mut Vec<TimeWindow>,
) -> Option<TimeWindow> {
    // The result goes into the caller's buffer (one per operator): this runs for every element
    // of a session window, and an allocation per call was a tenth of the time.
    members.clear();
    // In-flight windows with `start <= new.end`, from the right, while `end >= new.start`
    // (disjoint windows sorted by start have sorted ends too).
    members.extend(
        mapping
            .range(..=TimeWindow::new(new_window.end, i64::MAX))
            .rev()
            .map(|(w, _)| *w)
            .take_while(|w| w.end >= new_window.start)
            .filter(|w| w.intersects(&new_window)),
    );
    if members.is_empty() {
        return None;
    }
    members.reverse();
    // The sweep's order: by start, the new window after in-flight windows with the same start.
    let at = members.partition_point(|w| w.start <= new_window.start);
    members.insert(at, new_window);
    let cover = members.iter().fold(new_window, |c, w| c.cover(w));
    java_hash_set_order(members);
    (members.len() > 1).then_some(cover)
}

/// Receives the trace; `enabled = false` (benchmarks) keeps only outputs.
#[derive(Debug, Default)]
pub struct Recorder {
    pub enabled: bool,
    pub step: usize,
    pub seq: u64,
    pub events: Vec<TraceEvent>,
    pub outputs: Vec<Output>,
}

impl Recorder {
    pub fn push(&mut self, kind: TraceKind) {
        if self.enabled {
            self.events.push(TraceEvent { seq: self.seq, step: self.step, kind });
            self.seq += 1;
        }
    }
}

/// Counters a run reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OperatorStats {
    /// Element-window assignments made by the assigner.
    pub assignments: u64,
    /// Flink's `numLateRecordsDropped` metric.
    pub late_records_dropped: u64,
    pub side_output: u64,
    pub silently_dropped: u64,
    pub firings: u64,
    pub timers_fired: u64,
}

pub struct WindowOperator {
    cfg: OperatorConfig,
    watermark: Millis,
    keys: Vec<KeyState>,
    timers: TimerQueue,
    /// Processing-time timers, fired by [`WindowOperator::advance_processing_time`].
    processing_timers: TimerQueue,
    processing_time: Millis,
    elements: Vec<ElementRec>,
    /// Scratch buffer for the assigner's windows of the current element.
    assigned: Vec<Window>,
    /// Scratch buffers of `add_window`: the merged windows and their state windows.
    merge_scratch: (Vec<TimeWindow>, Vec<TimeWindow>),
    /// Whether an element was ever handed to the window function.
    emitted: Vec<bool>,
    /// Emptied window-content vectors, reused for new windows: a session run creates and drops
    /// a window every few elements, and each saved an allocation, its growth and a free.
    spare_contents: Vec<Vec<ElemIdx>>,
    pub rec: Recorder,
    pub stats: OperatorStats,
}

type Flink<T> = Result<T, FlinkError>;

/// Timers one watermark advance may fire before Tidemark gives up (see `process_watermark`).
pub const MAX_TIMERS_PER_ADVANCE: u64 = 200_000;

impl WindowOperator {
    pub fn new(cfg: OperatorConfig, trace: bool) -> Self {
        WindowOperator {
            cfg,
            watermark: LONG_MIN,
            keys: Vec::new(),
            timers: TimerQueue::default(),
            processing_timers: TimerQueue::default(),
            processing_time: 0,
            elements: Vec::new(),
            assigned: Vec::new(),
            merge_scratch: (Vec::new(), Vec::new()),
            emitted: Vec::new(),
            spare_contents: Vec::new(),
            rec: Recorder { enabled: trace, ..Recorder::default() },
            stats: OperatorStats::default(),
        }
    }

    pub fn config(&self) -> &OperatorConfig {
        &self.cfg
    }

    /// `internalTimerService.currentWatermark()`.
    pub fn current_watermark(&self) -> Millis {
        self.watermark
    }

    pub fn pending_timers(&self) -> impl Iterator<Item = (&TimerKey, &TimerPurpose)> {
        self.timers.iter()
    }

    pub fn element(&self, elem: ElemIdx) -> ElementRec {
        self.elements[elem as usize]
    }

    fn is_merging(&self) -> bool {
        self.cfg.assigner.is_merging()
    }

    /// The current processing time (the arrival clock).
    pub fn current_processing_time(&self) -> Millis {
        self.processing_time
    }

    fn is_event_time(&self) -> bool {
        self.cfg.assigner.is_event_time()
    }

    fn domain(&self) -> TimeDomain {
        if self.is_event_time() { TimeDomain::EventTime } else { TimeDomain::ProcessingTime }
    }

    /// The current time of the assigner's domain: the watermark, or the processing time.
    fn domain_now(&self) -> Millis {
        if self.is_event_time() { self.watermark } else { self.processing_time }
    }

    /// `WindowOperator.cleanupTime`: `max_timestamp + allowed_lateness`, saturating at
    /// `Long.MAX_VALUE` when the addition overflows (then the window is never cleaned). For
    /// processing-time windows it is `max_timestamp`: lateness does not apply.
    pub fn cleanup_time(&self, window: &Window) -> Millis {
        let max_ts = window.max_timestamp();
        if !self.is_event_time() {
            return max_ts;
        }
        let cleanup = max_ts.wrapping_add(self.cfg.allowed_lateness);
        if cleanup >= max_ts { cleanup } else { LONG_MAX }
    }

    /// `isWindowLate`: the window's cleanup time is not after the watermark.
    pub fn is_window_late(&self, window: &Window) -> bool {
        self.is_event_time() && self.cleanup_time(window) <= self.watermark
    }

    /// `isElementLate`: `ts + allowed_lateness <= watermark` (Java arithmetic: it wraps).
    pub fn is_element_late(&self, ts: Millis) -> bool {
        self.is_event_time() && ts.wrapping_add(self.cfg.allowed_lateness) <= self.watermark
    }

    fn key_state(&mut self, key: KeyId) -> &mut KeyState {
        let idx = key as usize;
        if self.keys.len() <= idx {
            self.keys.resize_with(idx + 1, KeyState::default);
        }
        &mut self.keys[idx]
    }

    // ------------------------------------------------------------------ assigner

    /// `WindowAssigner.assignWindows`, in the assigner's order.
    /// Writes into `out` (cleared first): the caller reuses one buffer for every element.
    fn assign_windows(&self, key_name: &str, ts: Millis, out: &mut Vec<Window>) -> Flink<()> {
        out.clear();
        let no_timestamp = || {
            FlinkError::run(
                "java.lang.RuntimeException",
                "Record has Long.MIN_VALUE timestamp (= no timestamp marker). Did you forget to call 'DataStream.assignTimestampsAndWatermarks(...)'?",
            )
        };
        match &self.cfg.assigner {
            AssignerSpec::Tumbling { size, offset } => {
                if ts == LONG_MIN {
                    return Err(no_timestamp());
                }
                // `(globalOffset + staggerOffset) % size` with the ALIGNED stagger (0).
                let start = window_start_with_offset(ts, offset % size, *size);
                out.push(Window::Time(TimeWindow::new(start, start.wrapping_add(*size))))
            }
            AssignerSpec::Sliding { size, slide, offset } => {
                if ts == LONG_MIN {
                    return Err(no_timestamp());
                }
                sliding_windows(ts, *size, *slide, *offset, out)
            }
            AssignerSpec::Session { gap } => out.push(Window::Time(TimeWindow::new(ts, ts.wrapping_add(*gap)))),
            AssignerSpec::DynamicSession { default_gap, gaps } => {
                let gap = gaps.get(key_name).copied().unwrap_or(*default_gap);
                // `DynamicEventTimeSessionWindows.assignWindows`.
                if gap <= 0 {
                    return Err(FlinkError::run(
                        "java.lang.IllegalArgumentException",
                        "Dynamic session time gap must satisfy 0 < gap",
                    ));
                }
                out.push(Window::Time(TimeWindow::new(ts, ts.wrapping_add(gap))))
            }
            AssignerSpec::Global | AssignerSpec::GlobalEos => out.push(Window::Global),
            // Processing-time assigners use `context.getCurrentProcessingTime()`, not the
            // element's timestamp.
            AssignerSpec::TumblingProcessing { size, offset } => {
                let now = self.processing_time;
                let start = window_start_with_offset(now, offset % size, *size);
                out.push(Window::Time(TimeWindow::new(start, start.wrapping_add(*size))))
            }
            AssignerSpec::SlidingProcessing { size, slide, offset } => {
                sliding_windows(self.processing_time, *size, *slide, *offset, out)
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------ timers

    /// `TimerService.registerEventTimeTimer`: at most one timer per (key, window, timestamp).
    fn register_timer(&mut self, key: KeyId, window: Window, time: Millis, purpose: TimerPurpose) {
        self.register_timer_in(TimeDomain::EventTime, key, window, time, purpose);
    }

    fn timers_of(&mut self, domain: TimeDomain) -> &mut TimerQueue {
        match domain {
            TimeDomain::EventTime => &mut self.timers,
            TimeDomain::ProcessingTime => &mut self.processing_timers,
        }
    }

    /// `registerEventTimeTimer` / `registerProcessingTimeTimer`.
    fn register_timer_in(
        &mut self,
        domain: TimeDomain,
        key: KeyId,
        window: Window,
        time: Millis,
        purpose: TimerPurpose,
    ) {
        if self.timers_of(domain).register(TimerKey { time, key, window }, purpose) {
            record!(self.rec, TraceKind::TimerRegistered { key, window, time, purpose, domain });
        }
    }

    /// `TimerService.deleteEventTimeTimer`: needs the exact timestamp; no timer, no effect.
    fn delete_timer(&mut self, key: KeyId, window: Window, time: Millis) {
        self.delete_timer_in(TimeDomain::EventTime, key, window, time);
    }

    fn delete_timer_in(&mut self, domain: TimeDomain, key: KeyId, window: Window, time: Millis) {
        if let Some(purpose) = self.timers_of(domain).delete(&TimerKey { time, key, window }) {
            record!(self.rec, TraceKind::TimerDeleted { key, window, time, purpose, domain });
        }
    }

    /// `registerCleanupTimer`: no timer when the cleanup time saturated at `Long.MAX_VALUE`.
    fn register_cleanup_timer(&mut self, key: KeyId, window: Window) {
        let cleanup = self.cleanup_time(&window);
        if cleanup != LONG_MAX {
            self.register_timer_in(self.domain(), key, window, cleanup, TimerPurpose::CLEANUP);
        }
    }

    fn delete_cleanup_timer(&mut self, key: KeyId, window: Window) {
        let cleanup = self.cleanup_time(&window);
        if cleanup != LONG_MAX {
            self.delete_timer_in(self.domain(), key, window, cleanup);
        }
    }

    // ------------------------------------------------------------------ trigger

    fn trigger_state(&mut self, key: KeyId, window: Window) -> &mut TriggerState {
        self.key_state(key).trigger_state.entry(window).or_default()
    }

    fn purging(&self, r: TriggerResult) -> TriggerResult {
        // `PurgingTrigger`: `r.isFire() ? FIRE_AND_PURGE : r`.
        if self.cfg.purging && r.fire { TriggerResult { fire: true, purge: true } } else { r }
    }

    /// `ContinuousEventTimeTrigger.registerNextFireTimestamp`: capped at `max_timestamp`.
    fn register_next_fire_timestamp(&mut self, key: KeyId, window: Window, time: Millis, interval: Millis) {
        let next = time.wrapping_add(interval).min(window.max_timestamp());
        let st = self.trigger_state(key, window);
        st.fire_time = Some(st.fire_time.map_or(next, |t| t.min(next)));
        self.register_timer(key, window, next, TimerPurpose::TRIGGER);
    }

    /// `Trigger.onElement`.
    fn trigger_on_element(&mut self, key: KeyId, window: Window, ts: Millis) -> Flink<TriggerResult> {
        // `EventTimeTrigger` and `ProcessingTimeTrigger` are `Trigger<Object, TimeWindow>`: on a
        // `GlobalWindow` the JVM's cast fails at the first element
        // (`global_event_time_trigger_class_cast`, recorded with real Flink).
        if window == Window::Global && matches!(self.cfg.trigger, TriggerKind::EventTime | TriggerKind::ProcessingTime)
        {
            return Err(FlinkError::run(
                "java.lang.ClassCastException",
                "class org.apache.flink.streaming.api.windowing.windows.GlobalWindow cannot be cast to class org.apache.flink.streaming.api.windowing.windows.TimeWindow (org.apache.flink.streaming.api.windowing.windows.GlobalWindow and org.apache.flink.streaming.api.windowing.windows.TimeWindow are in unnamed module of loader 'app')",
            ));
        }
        let r = match self.cfg.trigger {
            TriggerKind::EventTime => {
                if window.max_timestamp() <= self.watermark {
                    // Late but not too late: fire at once (a late firing).
                    TriggerResult::FIRE
                } else {
                    self.register_timer(key, window, window.max_timestamp(), TimerPurpose::TRIGGER);
                    TriggerResult::CONTINUE
                }
            }
            TriggerKind::Never => TriggerResult::CONTINUE,
            TriggerKind::EndOfStream => {
                self.register_timer(key, window, window.max_timestamp(), TimerPurpose::TRIGGER);
                TriggerResult::CONTINUE
            }
            TriggerKind::Count(n) => {
                let st = self.trigger_state(key, window);
                let count = st.count.unwrap_or(0).wrapping_add(1);
                if count >= n {
                    st.count = None;
                    TriggerResult::FIRE
                } else {
                    st.count = Some(count);
                    TriggerResult::CONTINUE
                }
            }
            TriggerKind::ContinuousEventTime(interval) => {
                if window.max_timestamp() <= self.watermark {
                    // "if the watermark is already past the window fire immediately"
                    return Ok(self.purging(TriggerResult::FIRE));
                }
                self.register_timer(key, window, window.max_timestamp(), TimerPurpose::TRIGGER);
                if self.trigger_state(key, window).fire_time.is_none() {
                    if interval == 0 {
                        return Err(FlinkError::run("java.lang.ArithmeticException", "/ by zero"));
                    }
                    // Epoch-aligned, not window-aligned: `timestamp - (timestamp % interval)`.
                    let start = ts.wrapping_sub(ts.wrapping_rem(interval));
                    self.register_next_fire_timestamp(key, window, start, interval);
                }
                TriggerResult::CONTINUE
            }
            TriggerKind::ProcessingTime => {
                self.register_timer_in(
                    TimeDomain::ProcessingTime,
                    key,
                    window,
                    window.max_timestamp(),
                    TimerPurpose::TRIGGER,
                );
                TriggerResult::CONTINUE
            }
        };
        Ok(self.purging(r))
    }

    /// `Trigger.onEventTime`.
    fn trigger_on_event_time(&mut self, key: KeyId, window: Window, time: Millis) -> TriggerResult {
        let r = match self.cfg.trigger {
            TriggerKind::EventTime | TriggerKind::EndOfStream => {
                if time == window.max_timestamp() {
                    TriggerResult::FIRE
                } else {
                    TriggerResult::CONTINUE
                }
            }
            TriggerKind::Never | TriggerKind::Count(_) | TriggerKind::ProcessingTime => TriggerResult::CONTINUE,
            TriggerKind::ContinuousEventTime(interval) => {
                if time == window.max_timestamp() {
                    TriggerResult::FIRE
                } else if self.trigger_state(key, window).fire_time == Some(time) {
                    self.trigger_state(key, window).fire_time = None;
                    self.register_next_fire_timestamp(key, window, time, interval);
                    TriggerResult::FIRE
                } else {
                    TriggerResult::CONTINUE
                }
            }
        };
        self.purging(r)
    }

    /// `Trigger.onProcessingTime`.
    fn trigger_on_processing_time(&mut self, _key: KeyId, _window: Window) -> TriggerResult {
        let r = match self.cfg.trigger {
            TriggerKind::ProcessingTime => TriggerResult::FIRE,
            _ => TriggerResult::CONTINUE,
        };
        self.purging(r)
    }

    /// `Trigger.onMerge`: merge the trigger state of `merged` into `window`, re-register timers.
    fn trigger_on_merge(&mut self, key: KeyId, window: Window, merged: &[TimeWindow]) {
        match self.cfg.trigger {
            TriggerKind::EventTime => {
                // Why only when ahead of the watermark: a merged window whose end has already
                // passed would fire from this timer at the next watermark anyway; Flink's
                // EventTimeTrigger registers the timer only if `max_timestamp > watermark`.
                if window.max_timestamp() > self.watermark {
                    self.register_timer(key, window, window.max_timestamp(), TimerPurpose::TRIGGER);
                }
            }
            TriggerKind::ProcessingTime => {
                if window.max_timestamp() > self.processing_time {
                    self.register_timer_in(
                        TimeDomain::ProcessingTime,
                        key,
                        window,
                        window.max_timestamp(),
                        TimerPurpose::TRIGGER,
                    );
                }
            }
            TriggerKind::Never | TriggerKind::EndOfStream => {}
            TriggerKind::Count(_) | TriggerKind::ContinuousEventTime(_) => {
                // `mergePartitionedState`: a ReducingState merge (sum of counts, min of fire times)
                // that moves the merged windows' state into the result window.
                let ks = self.key_state(key);
                let mut acc = ks.trigger_state.remove(&window).unwrap_or_default();
                for m in merged {
                    if let Some(st) = ks.trigger_state.remove(&Window::Time(*m)) {
                        acc.count = match (acc.count, st.count) {
                            (Some(a), Some(b)) => Some(a.wrapping_add(b)),
                            (a, b) => a.or(b),
                        };
                        acc.fire_time = match (acc.fire_time, st.fire_time) {
                            (Some(a), Some(b)) => Some(a.min(b)),
                            (a, b) => a.or(b),
                        };
                    }
                }
                let fire_time = acc.fire_time;
                if acc != TriggerState::default() {
                    ks.trigger_state.insert(window, acc);
                }
                if let (TriggerKind::ContinuousEventTime(_), Some(t)) = (self.cfg.trigger, fire_time) {
                    self.register_timer(key, window, t, TimerPurpose::TRIGGER);
                }
            }
        }
    }

    /// `Trigger.clear`.
    fn trigger_clear(&mut self, key: KeyId, window: Window) {
        match self.cfg.trigger {
            TriggerKind::EventTime | TriggerKind::EndOfStream => {
                self.delete_timer(key, window, window.max_timestamp());
            }
            TriggerKind::ProcessingTime => {
                self.delete_timer_in(TimeDomain::ProcessingTime, key, window, window.max_timestamp());
            }
            TriggerKind::Never => {}
            TriggerKind::Count(_) => {
                self.key_state(key).trigger_state.remove(&window);
            }
            TriggerKind::ContinuousEventTime(_) => {
                // Deletes only the pending interval timer, not the `max_timestamp` one it
                // registered in onElement (Flink's code does the same).
                if let Some(st) = self.key_state(key).trigger_state.remove(&window)
                    && let Some(t) = st.fire_time
                {
                    self.delete_timer(key, window, t);
                }
            }
        }
    }

    // ------------------------------------------------------------------ window function

    /// The oracle's firing counter (its `RecordingPWF`): per-window `ValueState` for
    /// non-merging windows; for sessions (where Flink forbids per-window state) a per-key map
    /// keyed by window, and a window inherits the largest counter of the windows it contains.
    fn next_firing(&mut self, key: KeyId, window: Window) -> u64 {
        let merging = self.is_merging();
        let ks = self.key_state(key);
        if !merging {
            let n = ks.firings.entry(window).or_insert(0);
            let previous = *n;
            *n += 1;
            return previous;
        }
        let Window::Time(w) = window else { return 0 };
        // The counters of every window this one contains (itself included) fold into it.
        let mut n = 0;
        ks.firings.retain(|k, count| {
            let absorbed = k.time_window().is_some_and(|kw| w.contains_window(&kw));
            if absorbed {
                n = n.max(*count);
            }
            !absorbed
        });
        ks.firings.insert(window, n + 1);
        n
    }

    /// `ProcessWindowFunction.clear` of the oracle's function.
    fn clear_firings(&mut self, key: KeyId, window: Window) {
        let merging = self.is_merging();
        let ks = self.key_state(key);
        match (merging, window) {
            (true, Window::Time(w)) => {
                ks.firings.retain(|k, _| !k.time_window().is_some_and(|kw| w.contains_window(&kw)))
            }
            _ => {
                ks.firings.remove(&window);
            }
        }
    }

    /// `Evictor.evictBefore` / `evictAfter` on the contents, in arrival order.
    fn evict(&self, contents: &mut Vec<ElemIdx>, after_function: bool) -> Vec<ElemIdx> {
        let Some(ev) = self.cfg.evictor else { return Vec::new() };
        if ev.do_evict_after != after_function {
            return Vec::new();
        }
        let size = contents.len() as i64;
        match ev.kind {
            EvictorKind::Count { n } => {
                // `CountEvictor.evict`: drops the first `size - maxCount` in arrival order.
                if size <= n {
                    return Vec::new();
                }
                let drop = size.saturating_sub(n).min(size) as usize;
                contents.drain(..drop).collect()
            }
            EvictorKind::Time { size: window_size } => {
                // `TimeEvictor.evict`: cutoff = max timestamp in the contents - size; removes
                // every element with `ts <= cutoff`.
                let Some(max_ts) = contents.iter().map(|&e| self.elements[e as usize].ts).max() else {
                    return Vec::new();
                };
                let cutoff = max_ts.wrapping_sub(window_size);
                let (gone, kept): (Vec<ElemIdx>, Vec<ElemIdx>) =
                    contents.iter().partition(|&&e| self.elements[e as usize].ts <= cutoff);
                *contents = kept;
                gone
            }
        }
    }

    /// `emitWindowContents` (with `EvictingWindowOperator`'s eviction around the function).
    fn emit_window_contents(
        &mut self,
        key: KeyId,
        window: Window,
        state_window: Window,
        cause: FireCause,
        purge: bool,
    ) {
        let Some(stored) = self.keys.get(key as usize).and_then(|ks| ks.contents.get(&state_window)) else {
            return;
        };
        let mut contents = stored.clone();
        let evicted_before = self.evict(&mut contents, false);
        if !evicted_before.is_empty() {
            record!(self.rec, TraceKind::Evicted { key, window, elems: evicted_before, after_function: false });
        }
        let mut ids = Vec::with_capacity(contents.len());
        let mut sum: i64 = 0;
        for &e in &contents {
            let rec = self.elements[e as usize];
            ids.push(rec.id);
            sum = sum.wrapping_add(rec.value);
            self.emitted[e as usize] = true;
        }
        ids.sort_unstable();
        let n = self.next_firing(key, window);
        let watermark = self.watermark;
        // Early: before the window's end in its time domain. A timer firing counts at its own
        // time, so the interval timers of a continuous trigger that a watermark jump fires
        // late are still early firings.
        let at = match cause {
            FireCause::Timer { time } | FireCause::ProcessingTimer { time } => time,
            FireCause::Element { .. } => self.domain_now(),
        };
        let kind = if at < window.max_timestamp() {
            FiringKind::Early
        } else {
            let merging = self.is_merging();
            let ks = self.key_state(key);
            // A window fires only while it is live (in-flight, for sessions); the entry is
            // made here for a non-merging window that somehow is not, as before.
            let meta = match ks.meta_mut(merging, window) {
                Some(meta) => meta,
                None if merging => &mut WindowMeta::default(),
                None => ks.live.entry(window).or_default(),
            };
            if meta.had_on_time_firing {
                FiringKind::Late
            } else {
                meta.had_on_time_firing = true;
                FiringKind::Main
            }
        };
        let output = self.rec.outputs.len();
        let count = contents.len() as u64;
        let traced_elems = if self.rec.enabled { contents.clone() } else { Vec::new() };
        self.rec.outputs.push(Output::Fire(Firing {
            key,
            window,
            ids,
            elems: if self.cfg.evictor.is_some() { contents.clone() } else { std::mem::take(&mut contents) },
            sum,
            count,
            n,
            kind,
            watermark,
            cause,
            step: self.rec.step,
        }));
        self.stats.firings += 1;
        record!(
            self.rec,
            TraceKind::Fired { key, window, output, elems: traced_elems, sum, count, n, kind, watermark, cause, purge }
        );
        if self.cfg.evictor.is_some() {
            let evicted_after = self.evict(&mut contents, true);
            if !evicted_after.is_empty() {
                record!(self.rec, TraceKind::Evicted { key, window, elems: evicted_after, after_function: true });
            }
            // FLINK-4369 workaround: clear the list state and re-add what the evictor kept.
            let ks = self.key_state(key);
            if contents.is_empty() {
                ks.contents.remove(&state_window);
            } else {
                ks.contents.insert(state_window, contents);
            }
        }
    }

    /// Keeps an emptied contents vector for the next window (a bounded number of them).
    fn recycle(&mut self, mut contents: Vec<ElemIdx>) {
        if contents.capacity() > 0 && self.spare_contents.len() < 1_024 {
            contents.clear();
            self.spare_contents.push(contents);
        }
    }

    fn has_contents(&self, key: KeyId, state_window: Window) -> bool {
        self.keys.get(key as usize).is_some_and(|ks| ks.contents.get(&state_window).is_some_and(|c| !c.is_empty()))
    }

    /// `windowState.clear()` after a PURGE.
    fn purge(&mut self, key: KeyId, window: Window, state_window: Window) {
        if let Some(elems) = self.key_state(key).contents.remove(&state_window) {
            if self.rec.enabled {
                self.rec.push(TraceKind::Purged { key, window, elems });
            } else {
                self.recycle(elems);
            }
        }
    }

    /// `clearAllState`: contents, trigger state, the function's per-window state, and (for
    /// sessions) the window's place in the merging window set.
    fn clear_all_state(&mut self, key: KeyId, window: Window, state_window: Window, time: Millis) {
        let elems = self.key_state(key).contents.remove(&state_window).unwrap_or_default();
        self.trigger_clear(key, window);
        self.clear_firings(key, window);
        let was_live = match window {
            Window::Time(tw) if self.is_merging() => self.key_state(key).mapping.remove(&tw).is_some(),
            _ => self.key_state(key).live.remove(&window).is_some(),
        };
        if was_live && self.rec.enabled {
            let unfired = elems.iter().copied().filter(|&e| !self.emitted[e as usize]).collect();
            self.rec.push(TraceKind::CleanedUp { key, window, time, elems, unfired });
        } else {
            self.recycle(elems);
        }
    }

    /// Adds the element to the window's state. `created`: the window was not live before
    /// (merging assigners know it from `add_window`; the others look it up here).
    fn add_to_window(
        &mut self,
        elem: ElemIdx,
        key: KeyId,
        window: Window,
        state_window: Window,
        created: Option<bool>,
    ) {
        let id = self.elements[elem as usize].id;
        self.key_state(key); // makes sure the key's state exists
        // Borrowed field by field: the key's state and the spare vectors at once.
        let (ks, spare) = (&mut self.keys[key as usize], &mut self.spare_contents);
        let created = created.unwrap_or_else(|| match ks.live.entry(window) {
            Entry::Occupied(_) => false,
            Entry::Vacant(slot) => {
                slot.insert(WindowMeta::default());
                true
            }
        });
        ks.contents.entry(state_window).or_insert_with(|| spare.pop().unwrap_or_default()).push(elem);
        if created {
            record!(self.rec, TraceKind::WindowCreated { key, window });
        }
        record!(self.rec, TraceKind::ElementAdded { elem, id, key, window, state_window });
    }

    // ------------------------------------------------------------------ merging

    /// `MergingWindowSet.addWindow` with the operator's `MergeFunction`. Returns the window the
    /// element now belongs to (the merge result, or the new window itself), its state window
    /// (`getStateWindow`, answered here because `addWindow` has just looked it up), and whether
    /// that window is newly in flight.
    fn add_window(&mut self, key: KeyId, new_window: TimeWindow) -> Flink<(TimeWindow, TimeWindow, bool)> {
        // Scratch buffers taken for this call and put back at the end (an error ends the run).
        let mut merged_windows = std::mem::take(&mut self.merge_scratch.0);
        let mut merged_state_windows = std::mem::take(&mut self.merge_scratch.1);
        let merge = merge_candidates(&self.key_state(key).mapping, new_window, &mut merged_windows);
        #[cfg(debug_assertions)]
        {
            let slow = merge_candidates_slow(&self.key_state(key).mapping, new_window);
            debug_assert_eq!(
                merge.map(|cover| (cover, merged_windows.clone())).into_iter().collect::<Merges>(),
                slow,
                "the range-scan merge must equal TimeWindow.mergeWindows"
            );
        }

        // At most one merge: the in-flight windows never intersect each other.
        let Some(merge_result) = merge else {
            // `mapping.put(newWindow, newWindow)`; a window equal to an in-flight one (which
            // has never merged, being one gap long) stays the same live window.
            let created = put_own_state_window(&mut self.key_state(key).mapping, new_window);
            self.merge_scratch = (merged_windows, merged_state_windows);
            return Ok((new_window, new_window, created));
        };
        let mut result_window = new_window;
        let mut merged_new_window = false;
        if let Some(pos) = merged_windows.iter().position(|w| *w == new_window) {
            merged_windows.remove(pos);
            merged_new_window = true;
            result_window = merge_result;
        }
        let ks = self.key_state(key);
        // Every merged window other than the new one is in flight, so each removal finds its
        // state window, in the HashSet's iteration order. The merged windows live on as the
        // merge result (Tidemark's lifecycle: their bookkeeping folds into it).
        merged_state_windows.clear();
        let mut meta = WindowMeta::default();
        for w in merged_windows.iter() {
            if let Some(f) = ks.mapping.remove(w) {
                merged_state_windows.push(f.state);
                meta.had_on_time_firing |= f.meta.had_on_time_firing;
            }
        }
        // "pick any of the merged windows and choose that window's state window": the first
        // in the HashSet's iteration order.
        let Some(merged_state_window) = merged_state_windows.first().copied() else {
            return Err(FlinkError::run(
                "java.lang.IllegalStateException",
                "a merge without an in-flight window (Tidemark bug: please report the scenario)",
            ));
        };
        ks.mapping.insert(merge_result, InFlight { state: merged_state_window, meta });
        merged_state_windows.remove(0);
        // No merge callback when the new window only fell inside one existing window.
        if !(merged_windows.contains(&merge_result) && merged_windows.len() == 1) {
            self.merge_function(
                key,
                new_window,
                merge_result,
                &merged_windows,
                merged_state_window,
                &merged_state_windows,
            )?;
        }
        let (state_window, created) = if result_window == new_window && !merged_new_window {
            // A merge of in-flight windows that left the new window out (it cannot happen with
            // session windows, which always touch what they merge with, but addWindow allows it).
            let created = put_own_state_window(&mut self.key_state(key).mapping, new_window);
            (new_window, created)
        } else {
            (merged_state_window, false)
        };
        self.merge_scratch = (merged_windows, merged_state_windows);
        Ok((result_window, state_window, created))
    }

    /// The `MergeFunction` in `WindowOperator.processElement`.
    fn merge_function(
        &mut self,
        key: KeyId,
        new_window: TimeWindow,
        merge_result: TimeWindow,
        merged_windows: &[TimeWindow],
        state_window_result: TimeWindow,
        merged_state_windows: &[TimeWindow],
    ) -> Flink<()> {
        // Why plain addition: Flink checks `maxTimestamp() + allowedLateness <= watermark`
        // without the overflow guard of cleanupTime, so allowedLateness(Long.MAX_VALUE) on
        // sessions fails here (the sum wraps negative).
        if merge_result.max_timestamp().wrapping_add(self.cfg.allowed_lateness) <= self.watermark {
            return Err(FlinkError::run(
                "java.lang.UnsupportedOperationException",
                &format!(
                    "The end timestamp of an event-time window cannot become earlier than the current watermark by merging. Current watermark: {} window: TimeWindow{{start={}, end={}}}",
                    self.watermark, merge_result.start, merge_result.end
                ),
            ));
        }
        record!(
            self.rec,
            TraceKind::SessionsMerged {
                key,
                new_window,
                merged: merged_windows.to_vec(),
                into: merge_result,
                state_window: state_window_result,
            }
        );
        let result = Window::Time(merge_result);
        self.trigger_on_merge(key, result, merged_windows);
        for m in merged_windows {
            self.trigger_clear(key, Window::Time(*m));
            self.delete_cleanup_timer(key, Window::Time(*m));
        }
        // `windowMergingState.mergeNamespaces(target, sources)`: the target's list first, then
        // each source's list appended in order.
        let target = Window::Time(state_window_result);
        for source in merged_state_windows {
            let ks = self.key_state(key);
            if let Some(elems) = ks.contents.remove(&Window::Time(*source)) {
                ks.contents.entry(target).or_default().extend_from_slice(&elems);
                self.recycle(elems);
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------ entry points

    /// Room for `n` elements up front (a run knows its input length).
    pub fn reserve_elements(&mut self, n: usize) {
        self.elements.reserve(n);
        self.emitted.reserve(n);
    }

    /// Registers an element that will be processed; returns its index.
    pub fn push_element(&mut self, rec: ElementRec) -> ElemIdx {
        self.elements.push(rec);
        self.emitted.push(false);
        (self.elements.len() - 1) as ElemIdx
    }

    /// `WindowOperator.processElement`.
    pub fn process_element(&mut self, elem: ElemIdx, key_name: &str) -> Flink<()> {
        let e = self.elements[elem as usize];
        let key = e.key;
        record!(self.rec, TraceKind::ElementArrived { elem, id: e.id, key, ts: e.ts, value: e.value });
        // One buffer for every element's windows (taken here, put back at the end; an error
        // ends the run, so losing it there costs nothing).
        let mut element_windows = std::mem::take(&mut self.assigned);
        self.assign_windows(key_name, e.ts, &mut element_windows)?;
        self.stats.assignments += element_windows.len() as u64;
        record!(self.rec, TraceKind::WindowsAssigned { elem, key, windows: element_windows.clone() });
        // "if element is handled by none of assigned elementWindows"
        let mut is_skipped_element = true;
        for &window in &element_windows {
            let (actual, state_window, created) = if self.is_merging() {
                let Window::Time(tw) = window else { continue };
                let (actual, state, created) = self.add_window(key, tw)?;
                let actual_window = Window::Time(actual);
                if self.is_window_late(&actual_window) {
                    self.key_state(key).mapping.remove(&actual);
                    self.push_window_late(elem, key, actual_window);
                    continue;
                }
                (actual_window, Window::Time(state), Some(created))
            } else {
                if self.is_window_late(&window) {
                    self.push_window_late(elem, key, window);
                    continue;
                }
                (window, window, None)
            };
            is_skipped_element = false;
            self.add_to_window(elem, key, actual, state_window, created);
            let r = self.trigger_on_element(key, actual, e.ts)?;
            if r.fire {
                if !self.has_contents(key, state_window) {
                    // Flink `continue`s here, skipping the cleanup timer registration.
                    continue;
                }
                self.emit_window_contents(key, actual, state_window, FireCause::Element { id: e.id }, r.purge);
            }
            if r.purge {
                self.purge(key, actual, state_window);
            }
            self.register_cleanup_timer(key, actual);
        }
        // Side output only if no window took the element *and* the element itself is late.
        if is_skipped_element {
            if self.is_element_late(e.ts) {
                if self.cfg.side_output {
                    self.stats.side_output += 1;
                    self.rec.outputs.push(Output::Late { elem, id: e.id, key, ts: e.ts, step: self.rec.step });
                    record!(self.rec, TraceKind::SideOutput { elem, id: e.id, key, ts: e.ts });
                } else {
                    self.stats.late_records_dropped += 1;
                    record!(self.rec, TraceKind::Dropped { elem, id: e.id, key, ts: e.ts, counted: true });
                }
            } else {
                self.stats.silently_dropped += 1;
                record!(self.rec, TraceKind::Dropped { elem, id: e.id, key, ts: e.ts, counted: false });
            }
        }
        self.assigned = element_windows;
        Ok(())
    }

    fn push_window_late(&mut self, elem: ElemIdx, key: KeyId, window: Window) {
        if self.rec.enabled {
            let e = self.elements[elem as usize];
            let cleanup_time = self.cleanup_time(&window);
            record!(
                self.rec,
                TraceKind::WindowLate { elem, id: e.id, key, window, cleanup_time, watermark: self.watermark }
            );
        }
    }

    /// `processWatermark` → `InternalTimerService.advanceWatermark`: set the watermark, then fire
    /// every timer with `time <= watermark` in timestamp order, including timers registered
    /// while this advance runs.
    pub fn process_watermark(&mut self, watermark: Millis) -> Flink<()> {
        debug_assert!(watermark > self.watermark, "the watermark emitter forwards only increasing watermarks");
        record!(self.rec, TraceKind::WatermarkAdvanced { from: self.watermark, to: watermark });
        self.watermark = watermark;
        self.fire_due(TimeDomain::EventTime, watermark)
    }

    /// Fires every timer of `domain` with `time <= until`, in (time, key, window) order,
    /// including timers registered while this runs (`InternalTimerServiceImpl.advanceWatermark`
    /// / `onProcessingTime`).
    fn fire_due(&mut self, domain: TimeDomain, until: Millis) -> Flink<()> {
        let mut fired: u64 = 0;
        while let Some((timer, purpose)) = self.timers_of(domain).pop_due(until) {
            fired += 1;
            if fired > MAX_TIMERS_PER_ADVANCE {
                // Real Flink would keep going (a continuous trigger on a global window re-arms a
                // timer every interval up to Long.MAX_VALUE): it never finishes. Stop with a reason.
                return Err(FlinkError::limit(&format!(
                    "more than {MAX_TIMERS_PER_ADVANCE} timers fired at once (up to {until}); \
                     Flink would keep firing for a very long time, so Tidemark stops here"
                )));
            }
            self.stats.timers_fired += 1;
            self.on_timer(timer, purpose, domain);
        }
        Ok(())
    }

    /// Processing time moves to `now` (never back): every processing-time timer with
    /// `time <= now` fires, in time order (`InternalTimerServiceImpl.onProcessingTime`).
    pub fn advance_processing_time(&mut self, now: Millis) -> Flink<()> {
        if now <= self.processing_time {
            return Ok(());
        }
        self.processing_time = now;
        // Event-time jobs have no processing-time timers, and the clock moves with every element.
        if self.processing_timers.is_empty() {
            return Ok(());
        }
        self.fire_due(TimeDomain::ProcessingTime, now)
    }

    /// Processing-time timers still pending: a bounded job ends without firing them.
    pub fn pending_processing_timers(&self) -> usize {
        self.processing_timers.len()
    }

    /// `WindowOperator.onEventTime` / `onProcessingTime`: the two differ only in the trigger
    /// callback and in which assigners clean up on them.
    fn on_timer(&mut self, timer: TimerKey, purpose: TimerPurpose, domain: TimeDomain) {
        let TimerKey { time, key, window } = timer;
        let state_window = if self.is_merging() {
            let Window::Time(tw) = window else { return };
            match self.key_state(key).mapping.get(&tw) {
                Some(f) => Window::Time(f.state),
                None => {
                    // "Timer firing for non-existent window, this can only happen if a trigger
                    // did not clean up timers." Nothing to do.
                    record!(self.rec, TraceKind::TimerFired { key, window, time, purpose, stale: true, domain });
                    return;
                }
            }
        } else {
            window
        };
        if self.rec.enabled {
            let merging = self.is_merging();
            let stale = !self.key_state(key).is_live(merging, window);
            self.rec.push(TraceKind::TimerFired { key, window, time, purpose, stale, domain });
        }
        let (r, cause) = match domain {
            TimeDomain::EventTime => (self.trigger_on_event_time(key, window, time), FireCause::Timer { time }),
            TimeDomain::ProcessingTime => {
                (self.trigger_on_processing_time(key, window), FireCause::ProcessingTimer { time })
            }
        };
        if r.fire && self.has_contents(key, state_window) {
            self.emit_window_contents(key, window, state_window, cause, r.purge);
        }
        if r.purge {
            self.purge(key, window, state_window);
        }
        // Event-time windows clean up on event-time timers, processing-time ones on
        // processing-time timers (`windowAssigner.isEventTime() && isCleanupTime(..)`).
        if (domain == self.domain()) && time == self.cleanup_time(&window) {
            self.clear_all_state(key, window, state_window, time);
        }
    }

    /// What is alive now, for state accounting: (key, window, stored elements), by key then window.
    pub fn live_windows(&self) -> Vec<(KeyId, Window, usize)> {
        let mut live: Vec<(KeyId, Window, usize)> = self
            .keys
            .iter()
            .enumerate()
            .flat_map(move |(k, ks)| {
                let stored = |state: &Window| ks.contents.get(state).map_or(0, Vec::len);
                let in_flight =
                    ks.mapping.iter().map(move |(w, f)| (k as KeyId, Window::Time(*w), stored(&Window::Time(f.state))));
                let live = ks.live.keys().map(move |w| (k as KeyId, *w, stored(w)));
                in_flight.chain(live)
            })
            .collect();
        live.sort_unstable_by_key(|&(k, w, _)| (k, w));
        live
    }
}
