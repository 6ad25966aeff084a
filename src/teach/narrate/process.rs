//! Sentences for the keyed process functions of the course (Windows and Timers, "Timers in a
//! KeyedProcessFunction"): RequestAssembler's abandoned-request timer and the PseudoWindow
//! error-rate alert. The engine records their timers on the key's global window; a window
//! trigger's sentence ("EventTimeTrigger registers its next fire time … for the GlobalWindow")
//! would teach the wrong API, so these events get the process function's own words.

use crate::engine::scenario::ProcessFunctionSpec;
use crate::engine::time::{Millis, format_millis};
use crate::engine::trace::{TimeDomain, TraceEvent, TraceKind};

use crate::teach::Context;
use crate::teach::format::{duration, time};

impl Context<'_> {
    /// The process function's sentence for `ev`, or `None` when the window operator's sentence
    /// fits (no process function, or an event both share, such as an arriving element).
    pub(super) fn process_sentence(&self, ev: &TraceEvent) -> Option<String> {
        let spec = self.scenario.process_function?;
        let key_name = |k| self.key_name(k).to_string();
        let sentence = match (&ev.kind, spec) {
            (
                TraceKind::TimerRegistered { key, time: t, domain, .. },
                ProcessFunctionSpec::RequestAssembler { timeout, .. },
            ) => {
                let (what, clock) = match domain {
                    TimeDomain::EventTime => ("an event-time timer", "when the watermark reaches it"),
                    TimeDomain::ProcessingTime => {
                        ("a processing-time timer", "when the processing time (the arrival clock) reaches it")
                    }
                };
                format!(
                    "RequestAssembler registers {what} at {} for request {}: the start + ABANDON_MS ({}); it fires {clock}.",
                    time(*t),
                    key_name(*key),
                    duration(timeout)
                )
            }
            (TraceKind::TimerDeleted { key, time: t, .. }, ProcessFunctionSpec::RequestAssembler { .. }) => format!(
                "The completion deletes request {}'s timer at {}: delete_event_time_timer needs the exact timestamp, which RequestAssembler recomputes from the open request.",
                key_name(*key),
                time(*t)
            ),
            (TraceKind::TimerFired { key, time: t, .. }, ProcessFunctionSpec::RequestAssembler { .. }) => {
                let emits = self.events(ev.step).iter().any(|e| {
                    matches!(&e.kind, TraceKind::FunctionEmitted { key: k, kind, .. } if k == key && kind == "abandoned")
                });
                if emits {
                    format!(
                        "Request {}'s timer at {} fires: the request is still open, so on_timer emits it as abandoned and clears the state.",
                        key_name(*key),
                        time(*t)
                    )
                } else {
                    format!(
                        "Request {}'s timer at {} fires but finds no open request (its state is gone), so on_timer emits nothing.",
                        key_name(*key),
                        time(*t)
                    )
                }
            }
            (TraceKind::TimerRegistered { key, time: t, .. }, ProcessFunctionSpec::ErrorRateAlert { .. }) => format!(
                "The first event of this minute for {} registers an event-time timer at {}, the minute's last millisecond: on_timer reads the minute's (errors, requests) and removes it.",
                key_name(*key),
                time(*t)
            ),
            (TraceKind::TimerFired { key, time: t, .. }, ProcessFunctionSpec::ErrorRateAlert { .. }) => format!(
                "The minute's timer at {} fires for {}: on_timer reads its (errors, requests) entry and removes it.",
                time(*t),
                key_name(*key)
            ),
            (TraceKind::Dropped { id, key, .. }, ProcessFunctionSpec::RequestAssembler { .. }) => format!(
                "Element {id}, a completion for request {}, finds no open request: there is nothing to join, so it is dropped and never billed.",
                key_name(*key)
            ),
            (TraceKind::Dropped { id, .. }, ProcessFunctionSpec::ErrorRateAlert { .. }) => format!(
                "Element {id} is late for its minute (the minute's last millisecond ≤ watermark {}): removing the entry in on_timer is the equivalent of allowed lateness 0, so it is dropped.",
                self.wm(self.watermark_before(ev.step))
            ),
            (TraceKind::StateUpdated { key, what }, _) => {
                format!("Keyed state of {}: {}.", key_name(*key), readable_times(what))
            }
            _ => return None,
        };
        Some(sentence)
    }
}

/// The engine's state text with epoch milliseconds written as times (`open := started at
/// 1767261600000` → `open := started at 10:00`).
fn readable_times(what: &str) -> String {
    what.split(' ')
        .map(|w| match w.parse::<Millis>() {
            Ok(ms) if format_millis(ms).contains(':') => time(ms),
            _ => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
