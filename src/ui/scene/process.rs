//! A keyed process function's timer lane: which fired timers the function ignored (a stale
//! timer: the RequestAssembler's `onTimer` checks `timestamp == started + timeout` and does
//! nothing for a request that was restarted or completed), and where the state TTL expired an
//! open request (module 3's backstop), as scene items on the key's lane.
//!
//! ```text
//!  TimerFired(key, t) ──next events of that firing──▶ FunctionEmitted(key)? fired : ignored (stale)
//!  StateExpired(key, at) ──the element or timer that read the state──▶ a badge at its event time
//! ```

use std::rc::Rc;

use crate::engine::{KeyId, Millis, Run, TraceKind};
use crate::ui::geometry::{Viewport, clamp_px, px_from_millis};

use super::ExpiryItem;
use super::layout::RunLayout;

/// The timers (key, time) that fired up to `step` without the function emitting anything: the
/// RequestAssembler's stale timers (the error-rate alert emits on every timer).
pub fn ignored_timers(run: &Run, step: usize) -> Vec<(KeyId, Millis)> {
    let to = run.trace.partition_point(|e| e.step < step);
    let events = run.trace.get(..to).unwrap_or(&[]);
    let mut out = Vec::new();
    for (i, ev) in events.iter().enumerate() {
        let TraceKind::TimerFired { key, time, .. } = ev.kind else { continue };
        // `onTimer` runs right after the firing is recorded: what it emits comes before the
        // next timer fires or the watermark moves on.
        let emitted = events
            .get(i + 1..)
            .unwrap_or(&[])
            .iter()
            .take_while(|e| {
                e.step == ev.step
                    && !matches!(e.kind, TraceKind::TimerFired { .. } | TraceKind::WatermarkAdvanced { .. })
            })
            .any(|e| matches!(e.kind, TraceKind::FunctionEmitted { key: k, .. } if k == key));
        if !emitted {
            out.push((key, time));
        }
    }
    out
}

/// The state TTL expiries up to `step`: a badge on the key's timer row, at the event time of
/// what read the expired state (the element that arrived, or the timer that fired).
/// On the processing-time axis a badge is drawn at the processing time it expired at.
pub fn expiries(run: &Run, layout: &RunLayout, vp: &Viewport, step: usize, processing_axis: bool) -> Vec<ExpiryItem> {
    let to = run.trace.partition_point(|e| e.step < step);
    let events = run.trace.get(..to).unwrap_or(&[]);
    let mut out = Vec::new();
    let mut reader: Option<Millis> = None;
    for ev in events {
        match ev.kind {
            TraceKind::ElementArrived { ts, .. } => reader = Some(ts),
            TraceKind::TimerFired { time, .. } => reader = Some(time),
            TraceKind::StateExpired { key, at } => {
                let (Some(lane), Some(ts)) = (layout.lane_of_key(key), reader) else { continue };
                out.push(ExpiryItem {
                    key_name: Rc::from(run.key_name(key)),
                    at,
                    ts,
                    x: clamp_px(px_from_millis(vp, if processing_axis { at } else { ts })),
                    y: lane.timer_y(),
                });
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Scenario, run};

    fn scenario(json: &str) -> Scenario {
        Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A restarted request's first timer fires but the RequestAssembler ignores it (stale); the
    /// second one abandons the request.
    #[test]
    fn stale_timer_is_ignored() {
        let s = scenario(
            r#"{"process_function": {"kind": "request_assembler", "timeout": 1000}, "watermarks": {"kind": "explicit"},
                "input": [{"id": 1, "key": "r", "ts": 0, "event": "started"},
                          {"id": 2, "key": "r", "ts": 500, "event": "started"},
                          {"wm": 2000}]}"#,
        );
        let r = run(&s);
        let ignored = ignored_timers(&r, r.steps);
        assert_eq!(ignored, vec![(0, 1000)]);
        assert_eq!(r.outputs.len(), 1, "one abandoned record, for the timer at 1500");
    }

    /// A TTL that expires the open request before the completion is read: a badge at the
    /// completion's event time, with the processing time it expired at.
    #[test]
    fn ttl_expiry_is_placed_where_it_was_read() {
        let s = scenario(
            r#"{"process_function": {"kind": "request_assembler", "timeout": 100000, "ttl": 1000},
                "watermarks": {"kind": "explicit"},
                "input": [{"id": 1, "key": "r", "ts": 0, "event": "started", "arrival": 0},
                          {"id": 2, "key": "r", "ts": 5000, "event": "completed", "arrival": 5000}]}"#,
        );
        let r = run(&s);
        let layout = RunLayout::new(&s, &r);
        let vp = Viewport { start_millis: 0.0, end_millis: 10_000.0, width_px: 1000.0 };
        let items = expiries(&r, &layout, &vp, r.steps, false);
        assert_eq!(items.len(), 1);
        assert_eq!((items[0].ts, items[0].at, items[0].x), (5000, 5000, 500.0));
        assert!(expiries(&r, &layout, &vp, 1, false).is_empty());
    }
}
