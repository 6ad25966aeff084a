//! The course's numbers that issue 17 adds to the presets: 96 copies for a 24-hour window sliding
//! every 15 minutes, the course's state estimate (2,000,000 × 60 × 48 B ≈ 5.8 GB) and its live
//! windows per key ("with two minutes, three are"), and the narration's line beside each simplified
//! rule of a course text ("fires when the watermark reaches 10:01:00", "max − d").

mod common;

use common::{at, preset};
use tidemark::engine::Output;
use tidemark::engine::aggregate::{AggregateResult, CourseAggregate};
use tidemark::engine::scenario::WindowFunctionSpec;
use tidemark::engine::trace::TraceKind;
use tidemark::engine::view::at_step;
use tidemark::sinks::estimate::{self, EstimateParams, WindowsPerKey, bytes_text};
use tidemark::sinks::{Downstream, course_estimate_bytes};
use tidemark::teach::{Context, CourseRule};

/// Epoch milliseconds of `h:m` on 2025-12-31, the day before the course's.
const fn day_before(h: i64, m: i64) -> i64 {
    at(h, m, 0, 0) - 86_400_000
}

/// SlidingEventTimeWindows.of(24 h, 15 min): "each event will be copied into 4 * 24 = 96
/// windows". Both elements (10:30 and 10:40, one 15-minute slot) are in the same 96 windows,
/// starting 2025-12-31 10:45 to 2026-01-01 10:30: 192 buffered copies, 96 accumulators. The
/// watermark 11:59:59.999 fires the 6 ending 10:45 to 12:00; the end of input the other 90.
#[test]
fn sliding_96_copies() {
    let (p, r) = preset("sliding-96-copies");
    assert_eq!(p.golden.as_deref(), Some("course_96_copies_24h_sliding_15min"));
    for elem in 0..2u32 {
        let windows = r.trace.iter().find_map(|ev| match &ev.kind {
            TraceKind::WindowsAssigned { elem: e, windows, .. } if *e == elem => Some(windows.clone()),
            _ => None,
        });
        let windows = windows.expect("assigned");
        assert_eq!(windows.len(), 96, "4 * 24 = 96 copies of element {}", elem + 1);
        let mut starts: Vec<i64> = windows.iter().filter_map(|w| w.bounds().0).collect();
        starts.sort();
        assert_eq!(starts.first(), Some(&day_before(10, 45)));
        assert_eq!(starts.last(), Some(&at(10, 30, 0, 0)));
    }
    assert_eq!(at_step(&r, 2).live_windows().count(), 96);
    let d = Downstream::new(&p.scenario, &r);
    let s = d.state().at(2);
    assert_eq!((s.stored_elements, s.accumulators, s.max_windows_per_key), (192, 96, 96));
    let fired = |step: usize| -> Vec<i64> {
        r.outputs
            .iter()
            .filter_map(|o| match o {
                Output::Fire(f) if f.step == step => f.window.bounds().1,
                _ => None,
            })
            .collect()
    };
    let at_wm = fired(2);
    assert_eq!(at_wm.len(), 6);
    assert_eq!(at_wm.first(), Some(&at(10, 45, 0, 0)));
    assert_eq!(at_wm.last(), Some(&at(12, 0, 0, 0)));
    assert_eq!(fired(3).len(), 90);
    assert_eq!(tidemark::sinks::course_live_windows_per_key(&p.scenario), Some(96));
}

/// The course's estimate for its one-hour window sliding every minute: 2,000,000 active keys ×
/// 60 live windows × 48-byte accumulators = 5,760,000,000 B, "about 5.8 GB"; the buffering
/// form of the same run (one record per window here) is the same, and the reader's numbers change it.
#[test]
fn course_estimate_for_one_hour_sliding() {
    let (p, r) = preset("one-hour-sliding");
    let d = Downstream::new(&p.scenario, &r);
    let e = estimate::estimate(d.state(), 1, EstimateParams::default());
    assert_eq!(e.params, EstimateParams { active_keys: 2_000_000, bytes_per_entry: 48 });
    assert_eq!(e.windows_per_key, 60);
    assert!(matches!(e.source, WindowsPerKey::CourseRule(c) if c.per_element == 60 && c.held_by_lateness == 0));
    assert!(e.buffering, "the preset runs a ProcessWindowFunction");
    assert_eq!(e.records_per_window, 1);
    assert_eq!(e.bytes, 5_760_000_000);
    assert_eq!(e.bytes, course_estimate_bytes(2_000_000, 60, 48));
    assert_eq!(bytes_text(e.bytes), "5.8 GB");
    let mine = estimate::estimate(d.state(), 1, EstimateParams { active_keys: 1_000, bytes_per_entry: 100 });
    assert_eq!(mine.bytes, 6_000_000);
    assert_eq!(bytes_text(mine.bytes), "6 MB");
}

/// The 96-copies preset buffers two records per window: 2,000,000 × 96 × 2 × 48 B ≈ 18 GB,
/// against 9.2 GB with one accumulator per window.
#[test]
fn course_estimate_buffering_against_aggregate() {
    let (p, r) = preset("sliding-96-copies");
    let d = Downstream::new(&p.scenario, &r);
    let e = estimate::estimate(d.state(), 2, EstimateParams::default());
    assert_eq!((e.windows_per_key, e.records_per_window, e.entries_per_window()), (96, 2, 2));
    assert_eq!(e.bytes, 18_432_000_000);
    assert_eq!(e.other_form_bytes, 9_216_000_000);
    assert_eq!((bytes_text(e.bytes).as_str(), bytes_text(e.other_form_bytes).as_str()), ("18 GB", "9.2 GB"));
}

/// "With zero lateness one minute of acme's windows is alive; with two minutes, three are":
/// the course's rule for TenantCost, and what the run shows at the playhead; sessions depend on
/// the data, so the estimate takes the run's own count.
#[test]
fn live_windows_per_key() {
    let (p, r) = preset("lab-6-3");
    let d = Downstream::new(&p.scenario, &r);
    let e = estimate::estimate(d.state(), 4, EstimateParams::default());
    let WindowsPerKey::CourseRule(rule) = e.source else { panic!("tumbling windows have a rule") };
    assert_eq!((rule.per_element, rule.held_by_lateness, rule.lateness, rule.total()), (1, 2, 120_000, 3));
    assert_eq!(d.state().at(4).max_windows_per_key, 2, "[10:00, 10:01) still alive beside [10:01, 10:02)");
    assert_eq!(d.state().at(6).max_windows_per_key, 2, "[10:01, 10:02) and [10:04, 10:05)");
    let (s, sr) = preset("session-bridge");
    let sd = Downstream::new(&s.scenario, &sr);
    let peak = sd.state().peak().max_windows_per_key;
    assert!(peak >= 2);
    let step = (0..=sr.steps).find(|i| sd.state().at(*i).max_windows_per_key == peak).unwrap_or(0);
    let se = estimate::estimate(sd.state(), step, EstimateParams::default());
    assert_eq!((se.source, se.windows_per_key), (WindowsPerKey::Measured, peak));
}

/// Lab 6.1's narration names both simplifications where it meets them: element 3 (10:01:21)
/// raises the watermark, which the course writes as 10:01:21 − 20 s = 10:01:01 and Flink
/// computes as 10:01:00.999; and [10:00, 10:01) fires, "when the watermark reaches 10:01:00" in
/// the course, at its max timestamp 10:00:59.999 in Flink. One line each, only where they occur.
#[test]
fn simplified_rules_beside_the_exact_values() {
    let (p, r) = preset("lab-6-1");
    assert_eq!(p.course_rules, vec![CourseRule::FiresAtEnd, CourseRule::WatermarkMaxMinusD]);
    let cx = Context::new(&p.scenario, &r).with_values(p.value_format);
    assert_eq!(
        cx.course_rule_notes(&p.course_rules, 3),
        vec![
            "The course writes this watermark as max − d = 10:01:21 − 20 s = 10:01:01; Flink's exact value, shown here, is max − d − 1 ms = 10:01:00.999.",
            "The course says a window fires \"when the watermark reaches\" its end (10:01:00 for [10:00, 10:01)); Flink's exact rule, shown here, is end − 1 ms = 10:00:59.999, the window's max timestamp.",
        ]
    );
    assert_eq!(cx.course_rule_notes(&p.course_rules, 0), Vec::<String>::new());
    // Element 1 raises the watermark too (max − d only); nothing fires.
    assert_eq!(cx.course_rule_notes(&p.course_rules, 1).len(), 1);
    // A preset of the exact text ("Flink Windowing, in depth") names none.
    let (w, wr) = preset("worked-timeline");
    assert!(w.course_rules.is_empty());
    assert!(Context::new(&w.scenario, &wr).course_rule_notes(&w.course_rules, 4).is_empty());
    // Lab 6.3's record at 10:03:40: the watermark the course reads as 10:03:40.
    let (p3, r3) = preset("lab-6-3");
    let notes = Context::new(&p3.scenario, &r3).course_rule_notes(&p3.course_rules, 5);
    assert_eq!(
        notes[0],
        "The course writes this watermark as max − d = 10:04:00 − 20 s = 10:03:40; Flink's exact value, shown here, is max − d − 1 ms = 10:03:39.999."
    );
    // An unknown rule name is a readable error.
    let bad = tidemark::teach::presets::parse(
        "x",
        r#"{"id": "x", "title": "t", "goal": "g", "source": "s", "value_format": "count", "course_rules": ["max_d"],
            "scenario": {"assigner": {"kind": "tumbling", "size": 60000}, "input": []}}"#,
    );
    assert_eq!(
        bad.err().map(|e| e.to_string()).as_deref(),
        Some("preset x: course_rules[0]: must be one of fires_at_end, watermark_max_minus_d")
    );
}

/// Every window preset whose course text rounds a rule names it, and only texts that round do.
#[test]
fn course_rules_follow_the_source_text() {
    for p in tidemark::teach::presets::all() {
        let rounds = p.source.starts_with("Windows and Timers") || p.source.starts_with("Time & windows");
        if !rounds || p.scenario.process_function.is_some() || p.id.contains("trigger") || p.id.contains("early") {
            continue;
        }
        assert!(p.course_rules.contains(&CourseRule::FiresAtEnd), "{} ({})", p.id, p.source);
    }
    let exact: Vec<String> = tidemark::teach::presets::all()
        .into_iter()
        .filter(|p| p.source.starts_with("Flink Windowing, in depth"))
        .filter(|p| !p.course_rules.is_empty())
        .map(|p| p.id)
        .collect();
    assert!(exact.is_empty(), "the in-depth text is exact: {exact:?}");
}

/// The window results of a run, in emission order: (window end, the course aggregate's result).
fn aggregate_results(r: &tidemark::engine::Run) -> Vec<(i64, Option<AggregateResult>)> {
    r.outputs
        .iter()
        .filter_map(|o| match o {
            Output::Fire(f) => Some((f.window.bounds().1.unwrap_or(0), f.result)),
            _ => None,
        })
        .collect()
}

/// TenantCost as the course writes it (aggregate(TenantCost, EmitTenantCostMinute)): (acme,
/// 10:01:00) fires (410, 2) = $4.10, the late completion makes it (431, 3) = $4.31, then (100, 1)
/// and (75, 1); the record at 10:00:50 goes to the side output. The state is one accumulator per
/// live window, where a bare ProcessWindowFunction would keep every record.
#[test]
fn tenant_cost_aggregate_one_accumulator_per_window() {
    let (p, r) = preset("tenant-cost-aggregate");
    assert_eq!(p.golden.as_deref(), Some("course_tenant_cost_lab_6_aggregate"));
    assert_eq!(p.scenario.function, WindowFunctionSpec::Aggregate(CourseAggregate::TenantCost));
    let cost = |usd, requests| Some(AggregateResult::TenantCost { usd, requests });
    assert_eq!(
        aggregate_results(&r),
        vec![
            (at(10, 1, 0, 0), cost(410, 2)),
            (at(10, 1, 0, 0), cost(431, 3)),
            (at(10, 2, 0, 0), cost(100, 1)),
            (at(10, 4, 0, 0), cost(75, 1)),
        ]
    );
    assert_eq!(p.value_format.value(410), "$4.10");
    assert_eq!(p.value_format.value(431), "$4.31");
    let d = Downstream::new(&p.scenario, &r);
    assert!(!d.state().buffering, "an AggregateFunction keeps accumulators");
    // After the late completion: [10:00, 10:01) holds 3 records, [10:01, 10:02) 1, in 2 accumulators.
    let s = d.state().at(4);
    assert_eq!((s.live_windows, s.accumulators, s.stored_elements), (2, 2, 4));
    assert_eq!(s.state_entries(d.state().buffering), 2);
    // The buffering form of the same input (the lab presets' ProcessWindowFunction) keeps the records.
    let (b, br) = preset("lab-6-3");
    let bd = Downstream::new(&b.scenario, &br);
    assert!(bd.state().buffering);
    assert_eq!(bd.state().at(4).state_entries(true), 4);
    let chart = tidemark::ui::charts::StateChart::new(&d);
    assert!(!chart.buffering);
    assert_eq!((chart.accumulators[4], chart.stored_elements[4]), (2, 4));
}

/// ModelLatency as the course writes it (aggregate(LatencySketch, EmitLatencyWindow), K = 1000):
/// the window ending 10:03 holds 6 samples, p50 95 ms and p99 120 ms, exact (n ≤ K). Every record
/// is added to five reservoirs: five accumulators per model, not five copies of every record.
#[test]
fn model_latency_p50_p99_window_ending_10_03() {
    let (p, r) = preset("model-latency-p50-p99");
    assert_eq!(p.golden.as_deref(), Some("course_model_latency_sliding_p50_p99"));
    assert_eq!(p.scenario.function, WindowFunctionSpec::Aggregate(CourseAggregate::LatencySketch { k: 1000 }));
    assert!(p.goal.contains("10:03") && p.goal.contains("6 samples") && p.goal.contains("p50"));
    assert!(p.goal.contains("95 ms") && p.goal.contains("120 ms"));
    let results = aggregate_results(&r);
    let ending_10_03: Vec<_> = results.iter().filter(|(end, _)| *end == at(10, 3, 0, 0)).collect();
    assert_eq!(
        ending_10_03,
        vec![&(
            at(10, 3, 0, 0),
            Some(AggregateResult::Latency { n: 6, p50: Some(95), p99: Some(120), approximate: false })
        )]
    );
    // It has fired at the preset's step (element 8 at 10:03:30 moves the watermark to 10:03:09.999).
    let fired_by_default = r.outputs.iter().any(
        |o| matches!(o, Output::Fire(f) if f.window.bounds().1 == Some(at(10, 3, 0, 0)) && f.step < p.default_step),
    );
    assert!(fired_by_default, "the window ending 10:03 has fired at step {}", p.default_step);
    assert_eq!(results.len(), 8);
    assert!(results.iter().all(|(_, res)| matches!(res, Some(AggregateResult::Latency { approximate: false, .. }))));
    let d = Downstream::new(&p.scenario, &r);
    assert!(!d.state().buffering);
    // After the first record: five windows, five accumulators, five element copies if buffered.
    let s = d.state().at(1);
    assert_eq!((s.live_windows, s.accumulators, s.stored_elements), (5, 5, 5));
    // After the eighth, before the last firings: 40 copies in a buffering form, one reservoir per window.
    let peak = d.state().peak();
    assert!(peak.stored_elements > peak.accumulators, "{peak:?}");
}

/// Lab 6.2 with a TaskManager death: the late correction ($4.10 then $4.31, firing counter 1)
/// and, after the restore from checkpoint 1 and the replay of e3 and e4, the recovery duplicates
/// ($4.10 and $4.31 again, identical). The append-only sink sums them again; the upsert sink
/// absorbs them; the correct answer is unchanged. Compare mode's B: no lateness, no correction,
/// still a duplicate.
#[test]
fn lab_6_2_recovery_late_correction_and_recovery_duplicate() {
    use tidemark::engine::output::RecoveryLine;
    use tidemark::engine::recovery::duplicate_of;
    use tidemark::sinks::Amount;
    let (p, r) = preset("lab-6-2-recovery");
    assert_eq!(p.golden.as_deref(), Some("course_crash_lab_6_2_late_correction_vs_recovery_duplicate"));
    // The restore: checkpoint 1, the source replays from item 3 (e3), in the crash item's step 5.
    let restore = r.outputs.iter().find_map(|o| match o {
        Output::Recovery(RecoveryLine::Restore { checkpoint, from_item, step }) => {
            Some((*checkpoint, *from_item, *step))
        }
        _ => None,
    });
    assert_eq!(restore, Some((Some(1), 3, 5)));
    assert_eq!(p.default_step, 6, "the preset opens right after the crash, restore and replay");
    let d = Downstream::new(&p.scenario, &r);
    let rows = d.rows();
    let summary: Vec<(i64, Option<usize>, Option<usize>)> = rows
        .iter()
        .map(|row| {
            (row.value.amount().map_or(0, |a| a.to_string().parse().unwrap_or(0)), row.updates, row.recovery_duplicate)
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (410, None, None),
            (431, Some(0), None), // the late correction: a new value, an update of #1
            (410, None, Some(0)), // recovery duplicates: the same lines again
            (431, None, Some(1)),
            (100, None, None),
            (75, None, None),
        ]
    );
    // The engine names the repeated outputs the same way (the output list's marks).
    let dup_outputs: Vec<usize> = (0..r.outputs.len()).filter(|i| duplicate_of(&r.outputs, *i).is_some()).collect();
    assert_eq!(dup_outputs.len(), 2);
    let end = r.steps;
    let t = d.totals_at(end);
    assert_eq!((t.append, t.upsert, t.correct), (Amount::Int(1857), Amount::Int(606), Amount::Int(606)));
    let upsert = d.upsert_at(end);
    let minute = upsert.iter().find(|u| u.window_end == Some(at(10, 1, 0, 0))).expect("the minute's row");
    assert_eq!((minute.writes, minute.duplicates), (4, 2));
    assert_eq!(upsert.len(), 3, "one row per (tenant, window_end): the duplicates add none");
    // At the preset's step: the minute billed twice over in the append sink ($16.82), $4.31 upserted.
    let t6 = d.totals_at(6);
    assert_eq!((t6.append, t6.upsert), (Amount::Int(1682), Amount::Int(431)));
    // The changelog has no entries for the duplicates: +I, -U, +U for the minute, nothing after.
    assert_eq!(d.changelog_at(6).len(), 3);
    // Narration of the crash step: the restore, the replay, a golden-backed step.
    let cx = tidemark::teach::Context::new(&p.scenario, &r);
    let n = cx.narrate_step(6);
    let text = format!("{} {}", n.headline, n.details.join(" "));
    assert!(text.contains("checkpoint 1"), "{text}");
    // Compare mode's B: the same input (an empty input follows A's) with allowedLateness(0).
    let b = p.compare.clone().expect("a compare configuration");
    assert!(b.input.is_empty());
    assert_eq!(b.allowed_lateness, Some(0));
    let mut bs = b.clone();
    bs.input = p.scenario.input.clone();
    let br = tidemark::engine::run(&bs);
    let bd = Downstream::new(&bs, &br);
    let b_rows: Vec<(Option<usize>, bool)> =
        bd.rows().iter().map(|x| (x.recovery_duplicate, x.updates.is_some())).collect();
    assert_eq!(
        b_rows,
        vec![(None, false), (Some(0), false), (None, false), (None, false)],
        "no correction, one duplicate"
    );
}
