//! The course presets whose outcome rests on a keyed process function's timers and state TTL
//! (Lab 6.4) or on partitioned sources and idleness (the quiet night, the slowest partition)
//! reach the outcome their course text documents. The mechanisms themselves are checked against
//! real Flink in `tests/flink_ext_parity.rs`.

mod common;

use common::{at, preset};
use tidemark::engine::scenario::ProcessFunctionSpec;
use tidemark::engine::{Output, Run, TraceKind};

const T10: i64 = at(10, 0, 0, 0);
const T22: i64 = at(22, 0, 0, 0);

fn process_records(r: &Run) -> Vec<(String, &'static str)> {
    r.outputs
        .iter()
        .filter_map(|o| match o {
            Output::Process(p) => Some((r.key_name(p.key).to_string(), p.kind)),
            _ => None,
        })
        .collect()
}

fn windows_fired(r: &Run) -> Vec<(i64, i64, u64, usize)> {
    r.outputs
        .iter()
        .filter_map(|o| match o {
            Output::Fire(f) => f.window.time_window().map(|w| (w.start, w.end, f.count, f.step)),
            _ => None,
        })
        .collect()
}

/// Lab 6.4: the 10-minute processing-time TTL expires r1's open request during the watermark
/// stall, so its completion is dropped (never billed) and its timer finds nothing; r3 is
/// abandoned once, at 10:05.
#[test]
fn lab_6_4_ttl_loses_the_completion() {
    let (_, r) = preset("lab-6-4");
    assert_eq!(process_records(&r), vec![("r2".into(), "completed"), ("r3".into(), "abandoned")]);
    assert!(r.trace.iter().any(|e| matches!(e.kind, TraceKind::StateExpired { .. })));
    assert!(r.trace.iter().any(|e| matches!(e.kind, TraceKind::Dropped { id: 4, .. })));
    let abandoned: Vec<i64> =
        r.outputs.iter().filter_map(|o| if let Output::Process(p) = o { Some(p.ts) } else { None }).collect();
    assert_eq!(abandoned, vec![T10 + 60_000, T10 + 300_000]);
}

/// The course's fix, "lengthen module 3's 10-minute TTL on open to a backstop of hours": with a
/// 2-hour TTL the same stall expires nothing, r1's completion is billed and its timer deleted;
/// only r3 is abandoned (real Flink: `ra_ttl_backstop_hours_watermark_stall`).
#[test]
fn lab_6_4_without_ttl_bills_r1() {
    let (p, r) = preset("lab-6-4-no-ttl");
    let ttl = match p.scenario.process_function {
        Some(ProcessFunctionSpec::RequestAssembler { ttl, .. }) => ttl,
        _ => None,
    };
    assert_eq!(ttl, Some(7_200_000), "a backstop of hours: 2 h");
    assert!(p.title.contains("TTL lengthened to a backstop of hours"));
    assert!(!r.trace.iter().any(|e| matches!(e.kind, TraceKind::StateExpired { .. })), "nothing expires");
    assert_eq!(
        process_records(&r),
        vec![("r2".into(), "completed"), ("r1".into(), "completed"), ("r3".into(), "abandoned")]
    );
    assert!(r.trace.iter().any(|e| matches!(e.kind, TraceKind::TimerDeleted { time, .. } if time == T10 + 300_000)));
}

/// The quiet night: apac's single event pins the watermark minimum; no window ever fires.
#[test]
fn quiet_night_outputs_nothing() {
    let (_, r) = preset("quiet-night-stall");
    assert!(r.outputs.is_empty(), "{:?}", r.outputs);
    assert_eq!(r.watermark_after_step.last().copied(), Some(T22 + 2_000 - 5_000 - 1));
    assert!(!r.trace.iter().any(|e| matches!(e.kind, TraceKind::PartitionIdle { .. })));
}

/// withIdleness(10 s): apac goes idle, the watermark follows eu, and both full minutes fire.
#[test]
fn idleness_releases_the_quiet_night() {
    let (_, r) = preset("quiet-night-idleness");
    let idle: Vec<(u32, i64)> = r
        .trace
        .iter()
        .filter_map(
            |e| if let TraceKind::PartitionIdle { partition, at } = e.kind { Some((partition, at)) } else { None },
        )
        .collect();
    // eu sends every 5 s, so only apac goes idle.
    assert_eq!(idle.len(), 1, "{idle:?}");
    assert_eq!(idle[0].0, 1);
    assert!(idle[0].1 > 2_000 + 10_000, "idle only after 10 s without events: {idle:?}");
    let fired: Vec<(i64, i64, u64)> = windows_fired(&r).into_iter().map(|(s, e, c, _)| (s, e, c)).collect();
    assert_eq!(fired, vec![(T22, T22 + 60_000, 12), (T22 + 60_000, T22 + 120_000, 12)]);
}

/// The minute fires when the slow partition's watermark passes its end, not the fast one's.
#[test]
fn the_slowest_partition_sets_the_pace() {
    let (p, r) = preset("slowest-partition");
    let fired = windows_fired(&r);
    let (start, _, _, step) = fired[0];
    assert_eq!(start, T10);
    // The element that fired it is the slow partition's (partition 1) element at 10:01:00.
    let tidemark::engine::InputItem::Element(e) = &p.scenario.input[step] else { panic!("not an element") };
    assert_eq!((e.partition, e.ts), (1, T10 + 60_000));
    // The fast partition had passed 10:01:00 three elements earlier.
    let fast_passed =
        p.scenario.input.iter().position(
            |i| matches!(i, tidemark::engine::InputItem::Element(e) if e.partition == 0 && e.ts >= T10 + 60_000),
        );
    assert!(fast_passed.is_some_and(|f| f < step));
}

/// Lab 6.4's narration speaks of RequestAssembler's timer, not of a window trigger: the timer at
/// the start + 5 min, the completion that deletes it, the completion that finds no open request
/// (the TTL took it), and at 10:05 the timer that finds nothing and the one that abandons r3.
#[test]
fn lab_6_4_narration_names_the_process_function() {
    let (p, r) = preset("lab-6-4");
    let cx = tidemark::teach::Context::new(&p.scenario, &r).with_values(p.value_format);
    let all: Vec<String> = (1..=r.steps)
        .flat_map(|s| {
            let n = cx.narrate_step(s);
            std::iter::once(n.headline).chain(n.details)
        })
        .collect();
    for s in &all {
        assert!(!s.contains("Trigger") && !s.contains("GlobalWindow"), "a window's words for a process function: {s}");
    }
    let has = |needle: &str| assert!(all.iter().any(|s| s.contains(needle)), "missing {needle:?} in {all:#?}");
    has("Keyed state of r1: open := started at 10:00.");
    has(
        "RequestAssembler registers an event-time timer at 10:05 for request r1: the start + ABANDON_MS (5 min); it fires when the watermark reaches it.",
    );
    has("The completion deletes request r2's timer at 10:05");
    has(
        "Element 4, a completion for request r1, finds no open request: there is nothing to join, so it is dropped and never billed.",
    );
    has("Request r1's timer at 10:05 fires but finds no open request (its state is gone), so on_timer emits nothing.");
    has(
        "Request r3's timer at 10:05 fires: the request is still open, so on_timer emits it as abandoned and clears the state.",
    );
}

/// The course's error-rate alert ("Windows and Timers", module 6): keyed by model, per minute
/// (60 s), an alert when errors / requests > 0.05, the entry removed when its timer fires, so a
/// late error is dropped. The preset has those numbers, a timer per (model, minute end), and
/// the outcome the course text describes (real Flink: `course_error_rate_alert`).
#[test]
fn error_rate_alert_has_the_course_numbers() {
    let (p, r) = preset("error-rate-alert");
    assert_eq!(
        p.scenario.process_function,
        Some(ProcessFunctionSpec::ErrorRateAlert { size: 60_000, threshold_pct: 5 }),
        "per minute, 0.05"
    );
    // (key, kind, timestamp, errors, requests) of each process-function record.
    type Record<'a> = (String, &'a str, i64, Option<i64>, Option<i64>);
    let records: Vec<Record> = r
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Process(x) => Some((r.key_name(x.key).to_string(), x.kind, x.ts, x.errors, x.requests)),
            _ => None,
        })
        .collect();
    let minute_end = T10 + 59_999;
    assert_eq!(
        records,
        vec![
            ("model-a".into(), "alert", minute_end, Some(1), Some(10)),
            ("model-b".into(), "ok", minute_end, Some(0), Some(3)),
            ("model-a".into(), "ok", minute_end + 60_000, Some(0), Some(1)),
            ("model-b".into(), "alert", minute_end + 60_000, Some(1), Some(2)),
        ]
    );
    // One timer per (model, minute end), registered by the minute's first event, all fired.
    let registered: Vec<i64> = r
        .trace
        .iter()
        .filter_map(|e| if let TraceKind::TimerRegistered { time, .. } = e.kind { Some(time) } else { None })
        .collect();
    assert_eq!(registered, vec![minute_end, minute_end, minute_end + 60_000, minute_end + 60_000]);
    // model-a's error at 10:00:40 arrives after the watermark 10:00:59.999: dropped.
    let late_id = p
        .scenario
        .elements()
        .find(|e| e.key == "model-a" && e.ts == T10 + 40_000 && e.event.as_deref() == Some("error"))
        .map(|e| e.id);
    assert_eq!(late_id, Some(14));
    assert!(late_id.is_some());
    assert!(r.trace.iter().any(|e| matches!(e.kind, TraceKind::Dropped { id, .. } if Some(id) == late_id)));
}

/// The RequestAssembler preset shows every timer state on the timer lane: registered, deleted
/// (r2 completed), fired and stale (r1 restarted: the 10:05 timer is ignored, the 10:06 one
/// abandons), and the TTL expiry of r3's open request (real Flink: `course_request_assembler_timers`).
#[test]
fn request_assembler_timers_show_every_timer_state() {
    let (p, r) = preset("request-assembler-timers");
    assert_eq!(
        p.scenario.process_function,
        Some(ProcessFunctionSpec::RequestAssembler {
            timeout: 300_000,
            ttl: Some(600_000),
            timer: tidemark::engine::trace::TimeDomain::EventTime
        }),
        "5 min abandonment timer, module 3's 10 min TTL"
    );
    let records: Vec<(String, &str, i64, Option<i64>)> = r
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Process(x) => Some((r.key_name(x.key).to_string(), x.kind, x.ts, x.id)),
            _ => None,
        })
        .collect();
    assert_eq!(
        records,
        vec![("r2".into(), "completed", T10 + 120_000, Some(3)), ("r1".into(), "abandoned", T10 + 360_000, Some(4))]
    );
    assert!(r.trace.iter().any(|e| matches!(e.kind, TraceKind::TimerDeleted { time, .. } if time == T10 + 330_000)));
    let fired: Vec<i64> = r
        .trace
        .iter()
        .filter_map(|e| if let TraceKind::TimerFired { time, .. } = e.kind { Some(time) } else { None })
        .collect();
    assert_eq!(fired, vec![T10 + 300_000, T10 + 360_000, T10 + 420_000]);
    assert!(r.trace.iter().any(|e| matches!(e.kind, TraceKind::StateExpired { .. })));
    assert!(r.trace.iter().any(|e| matches!(e.kind, TraceKind::Dropped { id: 6, .. })));
}
