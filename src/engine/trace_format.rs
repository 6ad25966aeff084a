//! How a trace event is written out: as JSON (`tidemark run --format trace`, byte for byte what
//! the trace has always printed) and as one readable line (`--format text`, the step log). Both
//! resolve key ids to names and a firing's output index to its [`Firing`], so they read the run.

use std::fmt;

use serde_json::{Map, Value};

use super::output::Firing;
use super::run::Run;
use super::time::{Millis, Window, format_millis};
use super::trace::{KeyId, TimeDomain, TraceEvent, TraceKind};

impl TraceEvent {
    /// JSON with key names instead of key ids (what `tidemark run --format trace` prints). A
    /// firing is written out with its firing's fields (elements, result, kind, watermark,
    /// cause, purge), looked up in `run`'s outputs, as the trace held them before it kept only
    /// the index.
    pub fn to_json(&self, run: &Run) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        if let Value::Object(obj) = &mut v {
            if let Some(Value::Number(n)) = obj.get("key")
                && let Some(name) = n.as_u64().and_then(|i| run.keys.get(i as usize))
            {
                obj.insert("key".into(), Value::String(name.clone()));
            }
            if let TraceKind::Fired { output, .. } = &self.kind
                && let Some(f) = run.firing(*output)
            {
                insert_firing(obj, f);
            }
        }
        v
    }

    /// One readable line, with key names and firings resolved in `run`.
    pub fn display<'a>(&'a self, run: &'a Run) -> TraceDisplay<'a> {
        TraceDisplay { event: self, run }
    }
}

/// A firing's fields, in the order the trace's `fired` events always had them.
fn insert_firing(obj: &mut Map<String, Value>, f: &Firing) {
    let fields = [
        ("elems", serde_json::to_value(&f.elems)),
        ("sum", serde_json::to_value(f.sum)),
        ("count", serde_json::to_value(f.count)),
        ("n", serde_json::to_value(f.n)),
        ("kind", serde_json::to_value(f.kind)),
        ("watermark", serde_json::to_value(f.watermark)),
        ("cause", serde_json::to_value(f.cause)),
        ("purge", serde_json::to_value(f.purge)),
    ];
    for (name, value) in fields {
        obj.insert(name.into(), value.unwrap_or(Value::Null));
    }
}

pub struct TraceDisplay<'a> {
    event: &'a TraceEvent,
    run: &'a Run,
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
        let key = |k: &KeyId| self.run.keys.get(*k as usize).map_or("?", |s| s.as_str());
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
            TraceKind::Fired { key: k, window, output } => match self.run.firing(*output) {
                Some(firing) => write!(
                    f,
                    "{} firing of {} {}: sum {} count {} (n={}, wm {}){}{}",
                    firing.kind.label(),
                    key(k),
                    w(window),
                    firing.sum,
                    firing.count,
                    firing.n,
                    t(firing.watermark),
                    if firing.purge { ", then purge" } else { "" },
                    firing.result.map(|r| format!(", result {r}")).unwrap_or_default()
                ),
                None => write!(f, "firing of {} {}: output {output} is missing", key(k), w(window)),
            },
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
            TraceKind::CheckpointTaken { checkpoint, item } => {
                write!(f, "checkpoint {checkpoint} completed at item {item}: keyed state, timers, source position")
            }
            TraceKind::Crashed { item } => write!(f, "TaskManager dies at item {item}"),
            TraceKind::CrashPassed { item } => write!(f, "replay passes the crash at item {item}"),
            TraceKind::Restored { checkpoint, from_item } => match checkpoint {
                Some(n) => write!(f, "restart from checkpoint {n}: watermark Long.MIN, replay from item {from_item}"),
                None => write!(f, "restart without a checkpoint: empty state, replay from item {from_item}"),
            },
            TraceKind::Replayed { item } => write!(f, "replay of item {item}"),
            TraceKind::TimersDueAtRestore { timers, .. } => {
                write!(f, "{timers} processing-time timer(s) due at the restore fire at once (documented rule only)")
            }
            TraceKind::Error { phase, class, message } => write!(f, "error ({phase}): {class}: {message}"),
        }
    }
}
