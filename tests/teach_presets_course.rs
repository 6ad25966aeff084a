//! The course's numbers that issue 17 adds to the presets: 96 copies for a 24-hour window sliding
//! every 15 minutes, the course's state estimate (2,000,000 × 60 × 48 B ≈ 5.8 GB) and its live
//! windows per key ("with two minutes, three are"), and the narration's line beside each simplified
//! rule of a course text ("fires when the watermark reaches 10:01:00", "max − d").

mod common;

use common::{at, preset};
use tidemark::engine::Output;
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
