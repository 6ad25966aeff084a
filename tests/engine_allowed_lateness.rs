//! Allowed lateness beyond the goldens: a window TVF drops the row that a DataStream window with
//! allowed lateness adds and fires again, and the state a lateness holds open (the course's
//! "with two minutes of lateness, three windows are alive").

mod common;

use common::scenario;
use tidemark::engine::Output;
use tidemark::engine::run;
use tidemark::engine::view::at_step;

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
