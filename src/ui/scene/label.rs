//! What the canvas's objects are called: every focusable object's accessible name says its kind,
//! key, time(s), value or state, and its outcome (TIMELINE_CONTRACT.md §4). It is the node's SVG
//! `<title>`, which is both its accessible name and its tooltip. Made when a node is drawn, not when
//! the scene is built, so that a drag that redraws one group of marbles formats one group of names.

use crate::engine::time::{LONG_MAX, LONG_MIN, format_millis};
use crate::engine::view::ElementOutcome;
use crate::teach::format;

use super::{MarbleItem, PartitionItem, SideMarbleItem, TimerItem, WatermarkItem, WindowItem};

pub fn outcome_class(o: Option<ElementOutcome>) -> &'static str {
    match o {
        None => "outcome-not-arrived",
        Some(o) => match o {
            ElementOutcome::Pending => "outcome-pending",
            ElementOutcome::OnTime => "outcome-on-time",
            ElementOutcome::InLateFiring => "outcome-late-firing",
            ElementOutcome::SideOutput => "outcome-side-output",
            ElementOutcome::Dropped { .. } => "outcome-dropped",
            ElementOutcome::Discarded => "outcome-discarded",
        },
    }
}

pub fn outcome_text(o: Option<ElementOutcome>) -> &'static str {
    match o {
        None => "not arrived yet",
        Some(ElementOutcome::Pending) => "in window state, not emitted yet",
        Some(ElementOutcome::OnTime) => "emitted on time",
        Some(ElementOutcome::InLateFiring) => "emitted in a late firing",
        Some(ElementOutcome::SideOutput) => "late: sent to the side output",
        Some(ElementOutcome::Dropped { counted: true }) => "late: dropped (numLateRecordsDropped)",
        Some(ElementOutcome::Dropped { counted: false }) => "dropped: all its windows were already late",
        Some(ElementOutcome::Discarded) => "removed by the evictor or cleaned up unemitted",
    }
}

fn time(t: i64) -> String {
    match t {
        LONG_MAX => "Long.MAX".into(),
        LONG_MIN => "Long.MIN".into(),
        t => format_millis(t),
    }
}

/// "Element 5, key A, event time 10:00:50, value $0.16: emitted in a late firing" (times as the
/// narration writes them, values in the scenario's unit).
pub fn element(m: &MarbleItem) -> String {
    format!(
        "Element {}, key {}, event time {}, value {}: {}",
        m.elem_id,
        m.key_name,
        format::time(m.ts),
        m.values.value(m.value),
        outcome_text(m.outcome)
    )
}

pub fn late_element(m: &SideMarbleItem) -> String {
    format!("Element {}, event time {}: late, in the side output", m.elem_id, format_millis(m.ts))
}

/// "Window [10:00:00.000, 10:01:00.000), key A: fired, 3 elements in state, 1 firing".
pub fn window(w: &WindowItem) -> String {
    let span = w.bounds.map_or("GlobalWindow".to_string(), |(a, b)| format!("[{}, {})", time(a), time(b)));
    format!(
        "Window {span}, key {}: {}, {} element{} in state, {} firing{}",
        w.key_name,
        w.state,
        w.count,
        if w.count == 1 { "" } else { "s" },
        w.firings,
        if w.firings == 1 { "" } else { "s" }
    )
}

/// "Trigger timer at 10:00:59.999, key A: registered"; a process function's: "Timer of the
/// process function at 300000, key r1: fired, ignored (stale: …)".
pub fn timer(t: &TimerItem) -> String {
    if t.function {
        let status = match (t.status, t.ignored) {
            (crate::engine::view::TimerStatus::Deleted, _) => "deleted (the request completed first)",
            (_, true) => "fired, ignored: stale (its timestamp is not the open request's deadline)",
            (s, false) => s.label(),
        };
        return format!("Timer of the process function at {}, key {}: {status}", time(t.time), t.key_name);
    }
    let kind = match t.kind {
        "both" => "Trigger and cleanup timer",
        "trigger" => "Trigger timer",
        _ => "Cleanup timer",
    };
    format!("{kind} at {}, key {}: {}", time(t.time), t.key_name, t.status.label())
}

/// "Source partition 1, watermark 1999: idle since 1400", or "…: holds the watermark back".
pub fn partition(p: &PartitionItem) -> String {
    let state = match (p.idle, p.holds) {
        (true, _) => p.state_text.clone(),
        (false, true) => "holds the combined watermark back (the smallest of the partitions not idle)".to_string(),
        (false, false) => "active, ahead of the combined watermark".to_string(),
    };
    format!("Source partition {}, its own watermark {}: {state}", p.partition, time(p.wm))
}

/// "Key r1: the open request's state expired by its TTL at processing time 600000".
pub fn expiry(e: &super::ExpiryItem) -> String {
    format!(
        "Key {}: the open request's state expired by its state TTL at processing time {}, read at event time {}",
        e.key_name,
        time(e.at),
        time(e.ts)
    )
}

/// "Watermark 10:01:00.999, bound 5 s: derived: largest timestamp − bound − 1. Drag …".
pub fn watermark(w: &WatermarkItem) -> String {
    let bound = w
        .bound
        .as_ref()
        .map(|b| format!(", bound {}", crate::ui::geometry::format_duration(b.bound)))
        .unwrap_or_default();
    format!("Watermark {}{bound}: {} (or ← → when focused)", time(w.wm), w.help)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names say kind, key, times, value or state, and outcome.
    #[test]
    fn names() {
        let m = MarbleItem {
            id: crate::ui::action::ObjectId::Element(4),
            index: 4,
            elem_id: 5,
            key_name: "A".into(),
            ts: 1_767_261_650_000,
            value: 16,
            values: crate::teach::ValueFormat::UsdCents,
            x: 0.0,
            y: 0.0,
            outcome: Some(ElementOutcome::InLateFiring),
            selected: false,
            anim: None,
            crossing: None,
            tab: super::super::TabStop::Roving,
        };
        assert_eq!(element(&m), "Element 5, key A, event time 10:00:50, value $0.16: emitted in a late firing");
    }
}
