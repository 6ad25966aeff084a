//! The sinks panels against the engine's trace: the course presets, and invariants over every
//! Flink parity scenario (whose engine outputs equal real Flink's goldens).

use std::path::PathBuf;

use tidemark::engine::scenario::WindowFunctionSpec;
use tidemark::engine::view::at_step;
use tidemark::engine::{FiringKind, Run, Scenario, run};
use tidemark::sinks::{Amount, ChangeKind, Downstream, ResultValue};

fn corpus(dir: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join(dir).join("scenarios")
}

fn load_from(dir: &str, name: &str) -> Scenario {
    let path = corpus(dir).join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    // Source-only scenarios of the part-two corpus run behind GlobalWindows, as its parity test does.
    if value.get("assigner").is_none() && value.get("process_function").is_none() && value.get("tvf").is_none() {
        value["assigner"] = serde_json::json!({"kind": "global"});
    }
    Scenario::from_value(&value).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn load(name: &str) -> Scenario {
    load_from("flink", name)
}

/// Every scenario of the parity corpora: DataStream windows (`flink`), the part-two extensions
/// (`flink-ext`: partitions, idleness, window TVFs, keyed process functions) and the random
/// part-two corpus (`flink-ext/random`).
fn all_scenarios() -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for dir in ["flink", "flink-ext", "flink-ext/random"] {
        let mut names: Vec<PathBuf> = std::fs::read_dir(corpus(dir))
            .unwrap_or_else(|e| panic!("{e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        names.sort();
        for p in names {
            let name = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            out.push((format!("{dir}/{name}"), load_from(dir, &name)));
        }
    }
    out
}

fn downstream(s: &Scenario) -> (Run, Downstream) {
    let r = run(s);
    let d = Downstream::new(s, &r);
    (r, d)
}

/// Lab 6.2: the $4.10 main firing and the $4.31 late firing of (acme, 10:01:00). The append sink
/// bills $8.41, the upsert sink keyed by (key, window_end) $4.31, which is the correct answer.
#[test]
fn lab_6_append_double_counts_upsert_is_right() {
    let s = load("course_lab_6_tenant_cost");
    let (r, d) = downstream(&s);
    // After 4 steps: e1, e2, e3 (main firing at wm 10:01:00.999), e4 (late firing).
    let rows = d.rows_at(4);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].value, ResultValue::SumCount { sum: 410, count: 2 });
    assert_eq!(rows[0].kind, FiringKind::Main);
    assert_eq!(rows[0].n, 0);
    assert_eq!(rows[0].watermark, 1_767_261_660_999);
    assert_eq!(rows[0].record_timestamp, 1_767_261_659_999, "end - 1");
    assert_eq!(rows[0].updates, None);
    assert_eq!(rows[1].value, ResultValue::SumCount { sum: 431, count: 3 });
    assert_eq!(rows[1].kind, FiringKind::Late);
    assert_eq!(rows[1].n, 1);
    assert_eq!(rows[1].updates, Some(0), "the late firing updates the main firing's row");
    assert_eq!(rows[1].ids, vec![1, 2, 4]);
    assert_eq!(d.key_name(rows[1].key), "acme");

    let t = d.totals_at(4);
    assert_eq!(t.append, Amount::Int(841));
    assert_eq!(t.upsert, Amount::Int(431));
    assert_eq!(t.changelog, Amount::Int(431));
    assert_eq!(t.correct, Amount::Int(431));
    assert_eq!(t.append_difference(), Amount::Int(410));
    assert!(t.upsert_difference().is_zero());
    assert_eq!(t.column, "sum");
    let append: Vec<Amount> = d.append_at(4).iter().map(|a| a.running_total).collect();
    assert_eq!(append, vec![Amount::Int(410), Amount::Int(841)]);
    let upsert = d.upsert_at(4);
    assert_eq!(upsert.len(), 1);
    assert_eq!((upsert[0].window_end, upsert[0].row, upsert[0].writes), (Some(1_767_261_660_000), 1, 2));

    // Before the late firing the upsert sink holds $4.10: a correction is still to come.
    let t3 = d.totals_at(3);
    assert_eq!((t3.append, t3.upsert, t3.correct), (Amount::Int(410), Amount::Int(410), Amount::Int(431)));

    // At the end: [10:01,10:02) 100 and [10:03,10:04) 75 join; e6 went to the side output.
    let end = d.totals_at(r.steps);
    assert_eq!((end.append, end.upsert, end.correct), (Amount::Int(1016), Amount::Int(606), Amount::Int(606)));
    let side = d.side_output_at(r.steps);
    assert!(side.enabled);
    assert_eq!(side.records.len(), 1);
    assert_eq!((side.records[0].id, side.records[0].ts, side.records[0].value), (6, 1_767_261_650_000, 30));
    assert_eq!(side.records[0].step, 5);
    assert_eq!(d.side_output_at(5).records.len(), 0, "not yet emitted after 5 steps");
    assert_eq!(side.late_records_dropped, 0);
}

/// The SQL changelog view: +I for the main firing, then -U (old) and +U (new) for the late one.
#[test]
fn lab_6_changelog_retracts_for_the_late_firing() {
    let s = load("course_lab_6_tenant_cost");
    let (r, d) = downstream(&s);
    let log: Vec<(&str, i64)> = d
        .changelog_at(4)
        .iter()
        .map(|c| {
            let sum = match d.rows()[c.row].value {
                ResultValue::SumCount { sum, .. } => sum,
                _ => -1,
            };
            (c.kind.short(), sum)
        })
        .collect();
    assert_eq!(log, vec![("+I", 410), ("-U", 410), ("+U", 431)]);
    let kinds: Vec<ChangeKind> = d.changelog_at(r.steps).iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        vec![
            ChangeKind::Insert,
            ChangeKind::UpdateBefore,
            ChangeKind::UpdateAfter,
            ChangeKind::Insert,
            ChangeKind::Insert
        ]
    );
}

/// The window function decides the value and the summed column (an average is not a sum).
#[test]
fn lab_6_with_other_window_functions() {
    let mut s = load("course_lab_6_tenant_cost");
    let expect = [
        (WindowFunctionSpec::Sum, Amount::Int(841), Amount::Int(431)),
        (WindowFunctionSpec::Count, Amount::Int(5), Amount::Int(3)),
        (WindowFunctionSpec::Min, Amount::Int(171), Amount::Int(21)),
        (WindowFunctionSpec::Max, Amount::Int(520), Amount::Int(260)),
    ];
    for (function, append, correct) in expect {
        s.function = function;
        let (_, d) = downstream(&s);
        let t = d.totals_at(4);
        assert_eq!((t.append, t.correct), (append, correct), "{}", function.kind());
        assert_eq!(t.upsert, t.correct, "{}", function.kind());
    }
    s.function = WindowFunctionSpec::Avg;
    let (_, d) = downstream(&s);
    assert_eq!(d.rows()[1].value.to_string(), "avg 143.67");
    assert_eq!(d.totals_at(4).append.to_string(), "348.67");
}

/// ModelLatency, sliding 5 min every 1 min: every record is stored in five windows (five copies
/// for a buffering function), against one accumulator per window for an aggregate.
#[test]
fn model_latency_sliding_keeps_five_copies_per_record() {
    let s = load("course_model_latency_sliding");
    let (r, d) = downstream(&s);
    let state = d.state();
    assert!(state.buffering, "the scenario's function is a ProcessWindowFunction");
    assert_eq!(state.samples.len(), r.steps + 1);
    let at = |step: usize| state.at(step);
    assert_eq!(at(0).live_windows, 0);
    assert_eq!((at(1).live_windows, at(1).stored_elements, at(1).accumulators), (5, 5, 5));
    // llama: five more windows; gpt@10:03:10 shares four windows with gpt@10:02:30, adds one.
    assert_eq!((at(2).live_windows, at(2).stored_elements), (10, 10));
    assert_eq!((at(3).live_windows, at(3).stored_elements, at(3).accumulators), (11, 15, 11));
    for step in 1..=3 {
        let records = r.elements.iter().filter(|e| e.step < step).count() as u64;
        assert_eq!(at(step).stored_elements, 5 * records, "five copies per record after {step} steps");
    }
    // One trigger timer per window; with lateness 0 the cleanup timer is the same timer.
    assert_eq!(at(3).pending_timers, 11);
    assert_eq!(at(3).keys_with_state, 2);
    // wm 10:04:59.999 fires and cleans the windows ending 10:03, 10:04, 10:05 of both keys.
    assert_eq!((at(4).live_windows, at(4).stored_elements, at(4).accumulators), (5, 7, 5));
    assert_eq!(at(r.steps).live_windows, 0);
    assert_eq!(state.peak().stored_elements, 15);

    let mut agg = s.clone();
    agg.function = WindowFunctionSpec::Avg;
    let (_, d2) = downstream(&agg);
    assert!(!d2.state().buffering);
    assert_eq!(d2.state().at(3).state_entries(false), 11);
    assert_eq!(d.state().at(3).state_entries(true), 15);
}

/// The watermark trails the largest event time by the out-of-orderness bound plus 1 ms.
#[test]
fn lab_6_watermark_lag() {
    let s = load("course_lab_6_tenant_cost");
    let (r, d) = downstream(&s);
    let w = d.watermarks();
    assert_eq!(w.len(), r.steps + 1);
    assert_eq!((w[0].max_event_time, w[0].lag_millis), (None, None));
    assert_eq!(w[1].max_event_time, Some(1_767_261_605_000));
    assert_eq!(w[1].lag_millis, Some(20_001));
    // e4 is older than the max: the watermark stays, the lag too.
    assert_eq!(w[4].watermark, w[3].watermark);
    assert_eq!(w[4].lag_millis, Some(20_001));
    assert_eq!(w[r.steps].watermark, i64::MAX);
    assert_eq!(w[r.steps].lag_millis, None);
}

/// Without a side output, late records are counted in numLateRecordsDropped.
#[test]
fn dropped_late_records_are_counted() {
    let (r, d) = downstream(&load("late_dropped_no_side_output"));
    let side = d.side_output_at(r.steps);
    assert!(!side.enabled);
    assert!(side.records.is_empty());
    assert_eq!(side.late_records_dropped, r.stats.late_records_dropped);
    assert!(side.late_records_dropped > 0);
    let (r2, d2) = downstream(&load("late_side_output"));
    assert_eq!(d2.side_output_at(r2.steps).records.len() as u64, r2.stats.side_output);
}

/// A late element bridging two fired sessions: the merged window's result replaces both, so
/// the changelog deletes them; the upsert sink keyed by window end keeps the first one.
#[test]
fn session_bridge_replaces_both_sessions() {
    let (r, d) = downstream(&load("session_late_bridge_two_fired"));
    let merged = d.rows().iter().position(|row| !row.replaces.is_empty()).unwrap_or_else(|| panic!("no merge row"));
    let row = &d.rows()[merged];
    assert_eq!(row.replaces.len(), 2);
    let kinds: Vec<&str> = d.changelog_at(r.steps).iter().map(|c| c.kind.short()).collect();
    assert!(kinds.windows(3).any(|w| w == ["-D", "-D", "+I"]), "{kinds:?}");
    let t = d.totals_at(r.steps);
    assert_eq!(t.changelog, t.correct);
    assert_ne!(t.upsert, t.correct, "(key, window_end) does not identify a merged session");
}

/// A purging trigger emits deltas: the correct answer adds them up, the upsert sink keeps the
/// last delta only.
#[test]
fn purging_trigger_results_are_deltas() {
    let (r, d) = downstream(&load("purging_event_time_late"));
    let t = d.totals_at(r.steps);
    assert_eq!(t.append, t.correct);
    assert_ne!(t.upsert, t.correct);
}

/// Over every parity scenario: the playhead prefix grows with the step, the links point
/// backwards to the same window, the materialized changelog equals the upsert sink where
/// (key, window_end) identifies a window, and at the end equals the correct answer unless
/// the trigger purges.
#[test]
fn invariants_over_all_scenarios() {
    for (name, s) in all_scenarios() {
        let (r, d) = downstream(&s);
        let fires = r
            .outputs
            .iter()
            .filter(|o| matches!(o, tidemark::engine::Output::Fire(_) | tidemark::engine::Output::Tvf(_)))
            .count();
        assert_eq!(d.rows().len(), fires, "{name}");
        assert_eq!(d.rows_at(r.steps).len(), fires, "{name}");
        assert_eq!(d.rows_at(0).len(), 0, "{name}");
        for (i, row) in d.rows().iter().enumerate() {
            if let Some(u) = row.updates {
                assert!(u < i, "{name}");
                assert_eq!((d.rows()[u].key, d.rows()[u].window), (row.key, row.window), "{name}");
            }
            // After a restore a window's firing counter is the checkpoint's, so a recovery
            // duplicate (n = 0 again) updates the row of the attempt before the crash.
            if !s.assigner.is_merging() && !s.has_recovery() {
                assert_eq!(row.updates.is_some(), row.n > 0, "{name}: row {i}: n counts earlier firings");
            }
        }
        let sessions = s.assigner.is_merging();
        let amount = |row: usize| d.rows()[row].value.amount().unwrap_or(Amount::ZERO);
        for step in 0..=r.steps {
            let t = d.totals_at(step);
            // The running totals agree with the tables they sum.
            let upsert: Amount = d.upsert_at(step).iter().map(|u| amount(u.row)).sum();
            assert_eq!(t.upsert, upsert, "{name} after {step} steps");
            let changelog = d.changelog_at(step).iter().fold(Amount::ZERO, |sum, c| {
                if c.kind.is_addition() { sum + amount(c.row) } else { sum - amount(c.row) }
            });
            assert_eq!(t.changelog, changelog, "{name} after {step} steps");
            let append: Amount = d.rows_at(step).iter().map(|row| row.value.amount().unwrap_or(Amount::ZERO)).sum();
            assert_eq!(t.append, append, "{name} after {step} steps");
            if !sessions {
                assert_eq!(t.changelog, t.upsert, "{name} after {step} steps");
            }
            let shown = d.side_output_at(step);
            assert!(shown.records.iter().all(|l| l.step < step), "{name}");
        }
        let end = d.totals_at(r.steps);
        if !s.trigger.purging {
            assert_eq!(end.changelog, end.correct, "{name}");
        }
        let side = d.side_output_at(r.steps);
        assert_eq!(side.records.len() as u64, r.stats.side_output, "{name}");
        assert_eq!(side.late_records_dropped, r.stats.late_records_dropped, "{name}");
        assert_eq!(side.silently_dropped, r.stats.silently_dropped, "{name}");
    }
}

/// The state fold agrees with the engine's per-step view at every step of every scenario.
#[test]
fn state_series_matches_the_view() {
    for (name, s) in all_scenarios() {
        let (r, d) = downstream(&s);
        for step in 0..=r.steps {
            let v = at_step(&r, step);
            let sample = d.state().at(step);
            let live: Vec<_> = v.live_windows().collect();
            assert_eq!(sample.live_windows, live.len() as u64, "{name} after {step} steps: live windows");
            let stored: u64 = live.iter().map(|w| w.contents.len() as u64).sum();
            assert_eq!(sample.stored_elements, stored, "{name} after {step} steps: stored elements");
            let with_contents = live.iter().filter(|w| !w.contents.is_empty()).count() as u64;
            assert_eq!(sample.accumulators, with_contents, "{name} after {step} steps: accumulators");
            let pending =
                v.timers.iter().filter(|t| t.status == tidemark::engine::view::TimerStatus::Registered).count();
            assert_eq!(sample.pending_timers, pending as u64, "{name} after {step} steps: timers");
            let w = d.watermark_at(step).map(|w| w.watermark);
            assert_eq!(w, Some(v.watermark), "{name} after {step} steps: watermark");
            assert_eq!(d.watermark_at(step).and_then(|w| w.max_event_time), v.max_timestamp, "{name}");
        }
        // Global windows never end; everything else is gone after the end-of-input watermark.
        if s.end_of_input && r.error.is_none() && !s.assigner.is_global() && s.lateness() < i64::MAX / 2 {
            assert_eq!(d.state().at(r.steps).live_windows, 0, "{name}");
        }
    }
}

/// A window TVF emits one final row per window: no duplicates, so both sinks are right, and the
/// late rows are simply gone (counted in numLateRecordsDropped, no side output).
#[test]
fn tvf_rows_are_append_only() {
    let s = load_from("flink-ext", "tvf_tumble_late_dropped");
    let (r, d) = downstream(&s);
    let rows = d.rows();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].value, ResultValue::SumCount { sum: 3, count: 2 });
    assert_eq!((rows[0].record_timestamp, rows[0].watermark), (59_999, 60_000));
    assert!(rows.iter().all(|row| row.updates.is_none() && row.kind == FiringKind::Main));
    let t = d.totals_at(r.steps);
    assert_eq!((t.append, t.upsert, t.correct), (Amount::Int(11), Amount::Int(11), Amount::Int(11)));
    let kinds: Vec<&str> = d.changelog_at(r.steps).iter().map(|c| c.kind.short()).collect();
    assert_eq!(kinds, ["+I", "+I"]);
    assert_eq!(d.side_output_at(r.steps).late_records_dropped, 2);
    // Its DataStream twin with allowed lateness re-fires instead: the append sink double-counts.
    let (r2, d2) = downstream(&load_from("flink-ext", "ds_tumble_lateness_catches_late"));
    let t2 = d2.totals_at(r2.steps);
    assert!(d2.rows().iter().any(|row| row.updates.is_some()));
    assert_ne!(t2.append, t2.correct);
    assert_eq!(t2.upsert, t2.correct);
}

/// Each partition's watermark and the combined minimum: the slowest partition sets the pace.
#[test]
fn slowest_partition_sets_the_combined_watermark() {
    let s = load_from("flink-ext", "src_slowest_partition_sets_pace");
    let (r, d) = downstream(&s);
    let p = d.partitions();
    assert_eq!(p.partitions, 3);
    assert!(p.is_interesting());
    for step in 0..r.steps {
        let parts = p.at(step);
        let min = parts.iter().filter(|x| !x.idle).map(|x| x.watermark).min().unwrap_or(i64::MIN);
        let combined = d.watermark_at(step).map_or(i64::MIN, |w| w.watermark);
        assert!(combined <= min, "after {step} steps: combined {combined} > min {min}");
    }
    // After the last element: partitions at 29999, 24999, 25999; the combined watermark 24999.
    let last = p.at(r.steps - 1);
    let wms: Vec<i64> = last.iter().map(|x| x.watermark).collect();
    assert_eq!(wms, [29_999, 24_999, 25_999]);
    assert_eq!(d.watermark_at(r.steps - 1).map(|w| w.watermark), Some(24_999));
    assert!(!downstream(&load("course_lab_6_tenant_cost")).1.partitions().is_interesting());
}

/// Idleness takes a quiet partition out of the minimum, and the chart shows the flag.
#[test]
fn idle_partitions_are_flagged() {
    let s = load_from("flink-ext", "src_idleness_releases_watermark");
    let (r, d) = downstream(&s);
    assert!(d.partitions().changes.iter().any(|c| c.idle));
    assert!((0..=r.steps).any(|step| d.partitions().at(step).iter().any(|p| p.idle)));
}

/// A keyed process function's records are listed at the playhead.
#[test]
fn process_function_records() {
    let s = load_from("flink-ext", "ra_abandoned_exactly_once");
    let (r, d) = downstream(&s);
    let records = d.process_records_at(r.steps);
    assert_eq!(records.len(), 1);
    assert_eq!((records[0].kind, records[0].ts, records[0].id), ("abandoned", 300_000, Some(1)));
    assert!(d.process_records_at(0).is_empty());
    assert!(d.rows().is_empty());
}

/// A merged TVF session keeps every row of the sessions it absorbed (A's rows 1, 2 and 4 are
/// in [1000, 23000) when B's session fires), and the fired sessions leave no state.
#[test]
fn tvf_session_rows_are_all_stored() {
    let s = load_from("flink-ext", "tvf_session_basic");
    let (_, d) = downstream(&s);
    // After 5 steps (elements 1, 2, 3, the watermark 14998, element 4): A [1000, 23000) with
    // three rows, B [6000, 16000) with one.
    let at5 = d.state().at(5);
    assert_eq!((at5.live_windows, at5.stored_elements, at5.accumulators), (2, 4, 2));
    // wm 15999 fires B; element 5 bridges into A's session: four rows in one window.
    let at7 = d.state().at(7);
    assert_eq!((at7.live_windows, at7.stored_elements, at7.accumulators), (1, 4, 1));
}
