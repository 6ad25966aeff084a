//! Rules of the engine's part two that real Flink cannot replay deterministically (processing-
//! time windows read the wall clock), plus the TVF/DataStream contrast and state accounting.
//! Everything the oracle can run is checked against real Flink in `tests/flink_ext_parity.rs`.

use tidemark::engine::view::at_step;
use tidemark::engine::{FireCause, Output, Scenario, TraceKind, Window, run};

fn scenario(json: &str) -> Scenario {
    Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))
}

/// Processing-time tumbling windows: windows of the arrival time, fired by a processing-time
/// timer at end - 1 when a later arrival moves the clock, whatever the event timestamps and the
/// watermark; the last window never fires because a bounded job drops pending processing-time
/// timers.
#[test]
fn processing_time_windows_fire_on_the_arrival_clock() {
    let s = scenario(
        r#"{"assigner": {"kind": "tumbling_processing", "size": 1000},
            "input": [
              {"id": 1, "key": "A", "ts": 999999, "arrival": 100},
              {"id": 2, "key": "A", "ts": 5, "arrival": 900},
              {"wm": 2000000, "arrival": 950},
              {"id": 3, "key": "A", "ts": 7, "arrival": 1000},
              {"id": 4, "key": "A", "ts": 8, "arrival": 2500}]}"#,
    );
    let r = run(&s);
    let fires: Vec<(i64, i64, Vec<i64>, FireCause)> = r
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Fire(f) => f.window.time_window().map(|w| (w.start, w.end, f.ids.clone(), f.cause)),
            _ => None,
        })
        .collect();
    assert_eq!(
        fires,
        vec![
            (0, 1000, vec![1, 2], FireCause::ProcessingTimer { time: 999 }),
            (1000, 2000, vec![3], FireCause::ProcessingTimer { time: 1999 }),
        ]
    );
    // Element 4's window [2000, 3000) is still open at the end: never fired, never late.
    let end = at_step(&r, r.steps);
    assert!(end.live_windows().any(|w| w.window.time_window().is_some_and(|tw| tw.start == 2000)));
    assert!(r.trace.iter().all(|e| !matches!(e.kind, TraceKind::SideOutput { .. })));
}

/// Processing-time windows have no late data: the watermark is irrelevant to them.
#[test]
fn processing_time_windows_have_no_late_elements() {
    let s = scenario(
        r#"{"assigner": {"kind": "sliding_processing", "size": 2000, "slide": 1000}, "allowed_lateness": 0,
            "input": [{"wm": 1000000}, {"id": 1, "key": "A", "ts": 0, "arrival": 1500}, {"id": 2, "key": "A", "ts": 0, "arrival": 4000}]}"#,
    );
    let r = run(&s);
    let ids: Vec<(Window, Vec<i64>)> = r
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Fire(f) => Some((f.window, f.ids.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(ids.len(), 2, "element 1 fires in both of its sliding windows: {ids:?}");
    assert!(ids.iter().all(|(_, i)| i == &vec![1]));
}

/// A TVF drops a row that the same DataStream window with allowed lateness adds and re-fires.
#[test]
fn tvf_ignores_what_allowed_lateness_catches() {
    let input = r#""input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 60000}, {"id": 2, "key": "A", "ts": 2000}]"#;
    let ds = run(&scenario(&format!(
        r#"{{"assigner": {{"kind": "tumbling", "size": 60000}}, "allowed_lateness": 30000, {input}}}"#
    )));
    let tvf = run(&scenario(&format!(r#"{{"tvf": {{"kind": "tumble", "size": 60000}}, {input}}}"#)));
    let ds_fires: Vec<Vec<i64>> =
        ds.outputs.iter().filter_map(|o| if let Output::Fire(f) = o { Some(f.ids.clone()) } else { None }).collect();
    assert_eq!(ds_fires, vec![vec![1], vec![1, 2]]);
    let tvf_rows: Vec<(i64, i64, u64)> = tvf
        .outputs
        .iter()
        .filter_map(
            |o| if let Output::Tvf(r) = o { Some((r.window_start, r.window_time, r.firing.count)) } else { None },
        )
        .collect();
    assert_eq!(tvf_rows, vec![(0, 59_999, 1)]);
    assert_eq!(tvf.stats.late_records_dropped, 1);
}

/// State accounting: the course's three live windows with two minutes of lateness on
/// one-minute windows, two of them held open only by the lateness.
#[test]
fn allowed_lateness_holds_windows_open() {
    let s = scenario(
        r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 120000,
            "input": [{"id": 1, "key": "acme", "ts": 10000}, {"id": 2, "key": "acme", "ts": 70000},
                      {"id": 3, "key": "acme", "ts": 130000}, {"wm": 179998}]}"#,
    );
    let r = run(&s);
    let v = at_step(&r, 4);
    assert_eq!(v.live_windows().count(), 3);
    assert_eq!(v.held_open_by_lateness(), 2);
    // Each live window has its cleanup timer pending (the trigger timers of the fired ones fired).
    assert_eq!(v.pending_timers().count(), 4);
}

/// A processing-time timer in the RequestAssembler fires on the arrival clock, so during a
/// watermark stall it abandons a request that the event-time timer would still wait for; a
/// completion before it deletes it by its exact timestamp; duplicates register one timer.
#[test]
fn process_function_processing_time_timers() {
    let input = r#""input": [
        {"id": 1, "key": "r1", "ts": 0, "event": "started", "arrival": 0},
        {"id": 2, "key": "r2", "ts": 0, "event": "started", "arrival": 1000},
        {"id": 3, "key": "r2", "ts": 0, "event": "started", "arrival": 1000},
        {"id": 4, "key": "r2", "ts": 5000, "event": "completed", "arrival": 200000},
        {"id": 5, "key": "r3", "ts": 0, "event": "started", "arrival": 250000},
        {"wm": 100, "arrival": 400000}]"#;
    let kinds = |timer: &str| {
        let s = scenario(&format!(
            r#"{{"process_function": {{"kind": "request_assembler", "timeout": 300000, "timer": "{timer}"}}, "end_of_input": false, {input}}}"#
        ));
        let r = run(&s);
        let records: Vec<(String, &str)> = r
            .outputs
            .iter()
            .filter_map(
                |o| if let Output::Process(p) = o { Some((r.key_name(p.key).to_string(), p.kind)) } else { None },
            )
            .collect();
        (r, records)
    };
    // Event time: the watermark stalls at 100, nothing is abandoned.
    let (_, event) = kinds("event_time");
    assert_eq!(event, vec![("r2".to_string(), "completed")]);
    // Processing time: r1's timer (0 + 300000) fires when the clock reaches 400000; r3's
    // (250000 + 300000) has not come yet; r2 completed first and deleted its single timer.
    let (r, processing) = kinds("processing_time");
    assert_eq!(processing, vec![("r2".to_string(), "completed"), ("r1".to_string(), "abandoned")]);
    let registered = r
        .trace
        .iter()
        .filter(|e| matches!(e.kind, TraceKind::TimerRegistered { key, .. } if r.key_name(key) == "r2"))
        .count();
    assert_eq!(registered, 1, "a duplicated start registers one timer");
    assert!(r.trace.iter().any(|e| matches!(e.kind, TraceKind::TimerDeleted { time: 301_000, .. })));
}
