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

/// "Element 5, key A, event time 10:00:50, value $0.16: late firing of window 10:00–10:01" (times
/// as the narration writes them, values in the scenario's unit, the outcome with its window(s):
/// main firing, late firing, side output, dropped, not yet fired).
pub fn element(m: &MarbleItem) -> String {
    format!(
        "Element {}, key {}, event time {}, value {}: {}",
        m.elem_id,
        m.key_name,
        format::time(m.ts),
        m.values.value(m.value),
        m.fate.describe(m.outcome)
    )
}

/// "Element 4, event time 10:00:20, in the side output lane: too late for window 10:00–10:01".
pub fn late_element(m: &SideMarbleItem) -> String {
    let why = m.fate.describe(Some(ElementOutcome::SideOutput));
    let why = why.strip_prefix("side output: ").unwrap_or(&why);
    format!("Element {}, event time {}, in the side output lane: {why}", m.elem_id, format::time(m.ts))
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
            label: true,
            outcome: Some(ElementOutcome::InLateFiring),
            fate: super::super::fate::Fate { fates: late_fired(), elem: 0, fired: 1, lost: 0 },
            selected: false,
            anim: None,
            crossing: None,
            tab: super::super::TabStop::Roving,
            origin: false,
        };
        assert_eq!(
            element(&m),
            "Element 5, key A, event time 10:00:50, value $0.16: late firing of window 10:00–10:01"
        );
        // Before the playhead passes its firing: in the window's state.
        let pending = MarbleItem {
            outcome: Some(ElementOutcome::Pending),
            fate: super::super::fate::Fate { fired: 0, ..m.fate.clone() },
            ..m.clone()
        };
        assert_eq!(
            element(&pending),
            "Element 5, key A, event time 10:00:50, value $0.16: not yet fired: window 10:00–10:01"
        );
        let side = SideMarbleItem {
            id: crate::ui::action::ObjectId::Late(4),
            elem: 0,
            elem_id: 5,
            ts: 1_767_261_650_000,
            fate: super::super::fate::Fate { fates: side_output(), elem: 0, fired: 0, lost: 0 },
            x: 0.0,
            y: 0.0,
            label: true,
            drop_in: None,
            tab: super::super::TabStop::Roving,
        };
        let main = MarbleItem { outcome: Some(ElementOutcome::SideOutput), fate: side.fate.clone(), ..m };
        assert_eq!(
            element(&main),
            "Element 5, key A, event time 10:00:50, value $0.16: side output: too late for window 10:00–10:01"
        );
        assert_eq!(
            late_element(&side),
            "Element 5, event time 10:00:50, in the side output lane: too late for window 10:00–10:01"
        );
    }

    fn minute() -> crate::engine::Window {
        let start = 1_767_261_600_000;
        crate::engine::Window::Time(crate::engine::time::TimeWindow { start, end: start + 60_000 })
    }

    fn late_fired() -> super::super::fate::Fates {
        let f = super::super::fate::ElemFate {
            added: vec![minute()],
            late: vec![],
            firings: vec![(3, minute(), crate::engine::trace::FiringKind::Late)],
            lost: vec![],
        };
        super::super::fate::Fates::from_elems(&[f])
    }

    fn side_output() -> super::super::fate::Fates {
        let f = super::super::fate::ElemFate { added: vec![], late: vec![minute()], firings: vec![], lost: vec![] };
        super::super::fate::Fates::from_elems(&[f])
    }
}
