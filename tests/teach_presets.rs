//! Course presets: every preset loads, every preset backed by a recorded real-Flink scenario has
//! that scenario's numbers and reproduces its golden, and each preset reaches the outcome its
//! course text documents, with the course's numbers.

use std::path::PathBuf;

use serde_json::Value;
use tidemark::engine::trace::{FireCause, FiringKind, TraceKind};
use tidemark::engine::view::{ElementOutcome, FoldCache, WindowState, at_step};
use tidemark::engine::{Firing, Output, Run, Scenario, TimeWindow, Window, run};
use tidemark::teach::presets::{self, Preset};
use tidemark::teach::{Context, ValueFormat};

/// Epoch milliseconds of 2026-01-01 `h:m:s.ms` UTC, the course scenarios' day.
fn at(h: i64, m: i64, s: i64, ms: i64) -> i64 {
    1_767_225_600_000 + ((h * 60 + m) * 60 + s) * 1000 + ms
}

fn window(start: (i64, i64), end: (i64, i64)) -> Window {
    Window::Time(TimeWindow::new(at(start.0, start.1, 0, 0), at(end.0, end.1, 0, 0)))
}

fn preset(id: &str) -> Preset {
    presets::by_id(id).unwrap_or_else(|| panic!("preset {id} does not load"))
}

fn firings(r: &Run) -> Vec<&Firing> {
    r.outputs
        .iter()
        .filter_map(|o| match o {
            Output::Fire(f) => Some(f),
            _ => None,
        })
        .collect()
}

fn side_outputs(r: &Run) -> Vec<i64> {
    r.outputs
        .iter()
        .filter_map(|o| match o {
            Output::Late { id, .. } => Some(*id),
            _ => None,
        })
        .collect()
}

fn ids(f: &Firing) -> Vec<i64> {
    f.ids.clone()
}

/// All twenty-two presets load, with unique ids matching their file names, in menu order.
#[test]
fn every_preset_loads() {
    let loaded = presets::load_all();
    for r in &loaded {
        if let Err(e) = r {
            panic!("{e}");
        }
    }
    let all = presets::all();
    assert_eq!(all.len(), 22);
    let ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, presets::ids());
    assert_eq!(
        ids,
        [
            "lab-6-1",
            "lab-6-2",
            "lab-6-2-recovery",
            "lab-6-3",
            "tenant-cost-aggregate",
            "model-latency-sliding",
            "model-latency-p50-p99",
            "worked-timeline",
            "one-hour-sliding",
            "sliding-96-copies",
            "session-bridge",
            "time-windows-events-1-7",
            "count-trigger",
            "early-firing-duplicates",
            "lab-6-4",
            "lab-6-4-no-ttl",
            "request-assembler-timers",
            "error-rate-alert",
            "quiet-night-stall",
            "quiet-night-idleness",
            "quiet-night-compare",
            "slowest-partition"
        ]
    );
    for p in &all {
        assert_eq!(p.scenario.name, p.id, "the scenario is named after its preset");
        assert!(p.default_step <= p.steps(), "{}: default_step past the end", p.id);
        assert!(!p.title.is_empty() && !p.goal.is_empty() && !p.source.is_empty());
        let r = run(&p.scenario);
        assert!(r.error.is_none(), "{}: {:?}", p.id, r.error);
    }
    assert!(presets::by_id("lab-6-4").is_some(), "lab 6.4 runs on the engine's part two");
}

/// A broken preset file is a readable error naming the field, not a panic.
#[test]
fn broken_presets_are_errors() {
    let e = presets::parse(
        "x",
        r#"{"id": "x", "title": "t", "goal": "g", "source": "s", "value_format": "euro", "scenario": {}}"#,
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(e.as_deref(), Some(r#"preset x: value_format: unknown format "euro" (usd_cents, count, ms, plain)"#));
    let e = presets::parse(
        "x",
        r#"{"id": "x", "title": "t", "goal": "g", "source": "s", "value_format": "count",
            "scenario": {"assigner": {"kind": "tumbling", "size": 60000}, "input": [{"id": 1, "ts": 5}]}}"#,
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        e.as_deref(),
        Some(
            "preset x: scenario.input[0].key: is missing (an item is an element {\"id\",\"key\",\"ts\"} or a watermark {\"wm\"})"
        )
    );
    let e = presets::parse(
        "x",
        r#"{"id": "x", "title": "t", "goal": "g", "source": "s", "value_format": "count", "default_step": 9,
            "scenario": {"assigner": {"kind": "tumbling", "size": 60000}, "input": []}}"#,
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(e.as_deref(), Some("preset x: default_step: 9 is past the last step 1"));
    assert!(presets::parse("x", "{").is_err());
}

/// A recorded scenario or golden by name: `tests/flink/`, else `tests/flink-ext/` (the course's
/// aggregate forms, recorded by `tests/oracle-ext`).
fn corpus(dir: &str, name: &str, ext: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let file = format!("{name}.{ext}");
    let parity = root.join("tests/flink").join(dir).join(&file);
    if parity.exists() { parity } else { root.join("tests/flink-ext").join(dir).join(&file) }
}

/// Golden lines with each tie group (timer firings of one advance with one timestamp, whose
/// order Flink leaves open) sorted, so that two runs compare in emission order otherwise.
fn normalised(lines: &[Value]) -> Vec<String> {
    let tie = |l: &Value| -> Option<(i64, i64)> {
        let cause = l.get("cause")?;
        if cause.get("kind")?.as_str()? == "timer" {
            Some((l.get("wm")?.as_i64()?, cause.get("time")?.as_i64()?))
        } else {
            None
        }
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let group = tie(&lines[i]);
        let mut j = i + 1;
        while j < lines.len() && group.is_some() && tie(&lines[j]) == group {
            j += 1;
        }
        let mut chunk: Vec<String> = lines[i..j].iter().map(|l| l.to_string()).collect();
        chunk.sort();
        out.extend(chunk);
        i = j;
    }
    out
}

/// Every preset backed by a recorded course scenario uses its exact numbers (configuration and
/// input, or the first `golden_prefix` input items with the input left running), and its
/// outputs are the real-Flink golden's (or a prefix of them).
#[test]
fn presets_reproduce_the_real_flink_goldens() {
    let mut backed = 0;
    for p in presets::all() {
        let Some(golden) = &p.golden else { continue };
        backed += 1;
        let text = std::fs::read_to_string(corpus("scenarios", golden, "json")).expect("recorded scenario");
        let recorded = Scenario::from_json_str(&text).expect("recorded scenario loads");
        let expected_input = match p.golden_prefix {
            Some(k) => {
                assert!(!p.scenario.end_of_input, "{}: a prefix preset leaves the input running", p.id);
                recorded.input[..k].to_vec()
            }
            None => {
                assert_eq!(p.scenario.end_of_input, recorded.end_of_input, "{}", p.id);
                recorded.input.clone()
            }
        };
        assert_eq!(p.scenario.input, expected_input, "{}: input differs from {golden}", p.id);
        assert_eq!(p.scenario.assigner, recorded.assigner, "{}", p.id);
        assert_eq!(p.scenario.allowed_lateness, recorded.allowed_lateness, "{}", p.id);
        assert_eq!(p.scenario.trigger, recorded.trigger, "{}", p.id);
        assert_eq!(p.scenario.evictor, recorded.evictor, "{}", p.id);
        assert_eq!(p.scenario.watermarks, recorded.watermarks, "{}", p.id);
        assert_eq!(p.scenario.side_output, recorded.side_output, "{}", p.id);
        assert_eq!(p.scenario.function, recorded.function, "{}", p.id);

        let golden_lines: Vec<Value> = std::fs::read_to_string(corpus("golden", golden, "jsonl"))
            .expect("golden")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str::<Value>(l).expect("golden line"))
            // OracleExt's goldens also log the source's watermarks (tests/flink_ext_parity.rs
            // compares those): the preset's outputs are the job's lines.
            .filter(|l| {
                !matches!(
                    l.get("out").and_then(Value::as_str),
                    Some("partition_watermark" | "watermark" | "idle" | "active")
                )
            })
            .collect();
        let r = run(&p.scenario);
        let ours: Vec<Value> = r.outputs.iter().map(|o| o.to_oracle_json(&r.keys)).collect();
        let expected = match p.golden_prefix {
            Some(_) => &golden_lines[..ours.len().min(golden_lines.len())],
            None => &golden_lines[..],
        };
        assert!(!ours.is_empty(), "{}: no outputs", p.id);
        assert_eq!(normalised(&ours), normalised(expected), "{}: outputs differ from the golden {golden}", p.id);
    }
    assert_eq!(
        backed, 16,
        "every window preset, the two process-function presets and the course's aggregate forms are backed by a real-Flink golden"
    );
}

/// Lab 6.1: element 3 (10:01:21) moves the watermark to 10:01:21 − 20 s − 1 ms = 10:01:00.999,
/// past 10:00:59.999, and (acme, window_end 10:01:00) fires with $4.10.
#[test]
fn lab_6_1_first_window_fires() {
    let p = preset("lab-6-1");
    assert_eq!(p.value_format, ValueFormat::UsdCents);
    let r = run(&p.scenario);
    assert_eq!(r.watermark_after_step[2], at(10, 1, 0, 999));
    let f = firings(&r);
    assert_eq!(f.len(), 1);
    assert_eq!(r.key_name(f[0].key), "acme");
    assert_eq!(f[0].window, window((10, 0), (10, 1)));
    assert_eq!(f[0].window.bounds().1, Some(at(10, 1, 0, 0)), "window_end 10:01:00");
    assert_eq!(f[0].sum, 410);
    assert_eq!(f[0].kind, FiringKind::Main);
    assert_eq!(f[0].step, 2, "fires in the third step");
    let cx = Context::new(&p.scenario, &r).with_values(p.value_format);
    assert!(cx.narrate_step(3).headline.contains("sum = $4.10"));
    assert_eq!(at_step(&r, 2).outputs, 0, "nothing before element 3");
}

/// Lab 6.2: two results for (acme, [10:00, 10:01)): $4.10 from the main firing, then $4.31
/// from the late firing that element 4 (10:00:45, 21 cents, within 120 s lateness) causes.
#[test]
fn lab_6_2_two_results_for_the_same_minute() {
    let p = preset("lab-6-2");
    assert_eq!(p.default_step, 3);
    let r = run(&p.scenario);
    let f: Vec<&Firing> = firings(&r).into_iter().filter(|f| f.window == window((10, 0), (10, 1))).collect();
    assert_eq!(f.len(), 2);
    assert_eq!((f[0].sum, f[0].kind, f[0].n), (410, FiringKind::Main, 0));
    assert_eq!((f[1].sum, f[1].kind, f[1].n), (431, FiringKind::Late, 1));
    assert_eq!(ids(f[1]), vec![1, 2, 4]);
    assert_eq!(f[1].cause, FireCause::Element { id: 4 });
    assert_eq!(ValueFormat::UsdCents.value(f[0].sum), "$4.10");
    assert_eq!(ValueFormat::UsdCents.value(f[1].sum), "$4.31");
    // Main then late, in emission order: the first output is the main firing.
    assert!(matches!(&r.outputs[0], Output::Fire(x) if x.sum == 410));
    assert!(matches!(&r.outputs[1], Output::Fire(x) if x.sum == 431));
    let v = at_step(&r, 4);
    assert_eq!(v.elements[3], Some(ElementOutcome::InLateFiring));
    assert_eq!(firings(&r).len(), 2, "the job keeps running: nothing else fires");
}

/// Lab 6.3 on the course's timeline: element 5 (10:04:00) moves the watermark to 10:03:39.999
/// (the course's axis: 10:04:00 − 20 s = 10:03:40), past the cleanup time 10:02:59.999 =
/// 10:00:59.999 + 2 min; [10:00, 10:01) is removed without output, and "the record at 10:03:40"
/// (10:00:50) goes to the late side output, which prints `LATE 6`. With two minutes of lateness
/// three of acme's minutes are alive at once.
#[test]
fn lab_6_3_past_cleanup_side_output() {
    let p = preset("lab-6-3");
    let r = run(&p.scenario);
    let cleaned = r.trace.iter().find_map(|e| match &e.kind {
        TraceKind::CleanedUp { window: w, time, .. } if *w == window((10, 0), (10, 1)) => Some((e.step, *time)),
        _ => None,
    });
    assert_eq!(cleaned, Some((4, at(10, 2, 59, 999))));
    assert_eq!(r.watermark_after_step[4], at(10, 3, 39, 999), "the course's 10:03:40, exactly");
    assert_eq!(side_outputs(&r), vec![6]);
    let late = r.outputs.iter().find_map(|o| match o {
        Output::Late { ts, step, .. } => Some((*ts, *step)),
        _ => None,
    });
    assert_eq!(late, Some((at(10, 0, 50, 0), 5)));
    assert_eq!(r.watermark_after_step[5], at(10, 3, 39, 999), "it arrives at the watermark 10:03:40");
    let v = at_step(&r, 6);
    assert_eq!(v.elements[5], Some(ElementOutcome::SideOutput));
    let w = v.windows.iter().find(|w| w.window == window((10, 0), (10, 1))).expect("window");
    assert_eq!(w.state, WindowState::CleanedUp);
    // The sums of the whole lab: 410, 431, then [10:01,10:02) 100 (fired by element 5) and
    // [10:04,10:05) 75 at the end of input.
    let sums: Vec<(i64, usize)> = firings(&r).iter().map(|f| (f.sum, f.step)).collect();
    assert_eq!(sums, vec![(410, 2), (431, 3), (100, 4), (75, 6)]);
    // State cost: the fired [10:00, 10:01) is still alive next to [10:01, 10:02) until cleanup.
    let alive: Vec<Window> = at_step(&r, 4).live_windows().map(|w| w.window).collect();
    assert_eq!(alive, vec![window((10, 0), (10, 1)), window((10, 1), (10, 2))]);
    // "With two minutes, three are": the course's rule for a key with steady traffic.
    assert_eq!(tidemark::sinks::course_live_windows_per_key(&p.scenario), Some(3));
    // The lab's side-output line.
    let d = tidemark::sinks::Downstream::new(&p.scenario, &r);
    let lines: Vec<String> = d.side_output_at(r.steps).records.iter().map(|l| l.lab_line()).collect();
    assert_eq!(lines, vec!["LATE 6"]);
    assert!(d.side_output_at(5).records.is_empty(), "not before the record arrives");
    // The description says which reading of "the record at 10:03:40" it takes.
    assert!(p.scenario.description.contains("read on its figure's axis, the operator's watermark"));
}

/// ModelLatency: SlidingEventTimeWindows.of(5 min, 1 min) puts every record into exactly five
/// windows; the watermark 10:04:59.999 fires the windows ending 10:03, 10:04, 10:05 of both models.
#[test]
fn model_latency_every_record_in_five_windows() {
    let p = preset("model-latency-sliding");
    assert_eq!(p.value_format, ValueFormat::Ms);
    let r = run(&p.scenario);
    for (i, e) in r.elements.iter().enumerate() {
        let assigned = r.trace.iter().find_map(|ev| match &ev.kind {
            TraceKind::WindowsAssigned { elem, windows, .. } if *elem as usize == i => Some(windows.len()),
            _ => None,
        });
        assert_eq!(assigned, Some(5), "element {}", e.id);
        let added = r
            .trace
            .iter()
            .filter(|ev| matches!(ev.kind, TraceKind::ElementAdded { elem, .. } if elem as usize == i))
            .count();
        assert_eq!(added, 5, "element {}", e.id);
    }
    assert_eq!(r.stats.assignments, 15);
    let at_wm: Vec<&Firing> = firings(&r).into_iter().filter(|f| f.step == 3).collect();
    assert_eq!(at_wm.len(), 6);
    let mut ends: Vec<i64> = at_wm.iter().filter_map(|f| f.window.bounds().1).collect();
    ends.sort();
    ends.dedup();
    assert_eq!(ends, vec![at(10, 3, 0, 0), at(10, 4, 0, 0), at(10, 5, 0, 0)]);
    assert_eq!(firings(&r).len(), 11);
}

/// The worked timeline: element 3 is after the window end but its watermark 10:00:57.999 is
/// before 10:00:59.999, so nothing fires; element 4 fires [1,2] (sum 3); element 5 re-fires
/// (sum 19); element 6 passes the cleanup time 10:01:29.999; element 7 goes to the side output.
#[test]
fn worked_timeline_elements_1_to_7() {
    let p = preset("worked-timeline");
    let r = run(&p.scenario);
    assert_eq!(r.watermark_after_step[2], at(10, 0, 57, 999));
    assert!(firings(&r).iter().all(|f| f.step != 2), "element 3 fires nothing");
    let f = firings(&r);
    assert_eq!((ids(f[0]), f[0].sum, f[0].kind, f[0].step), (vec![1, 2], 3, FiringKind::Main, 3));
    assert_eq!((ids(f[1]), f[1].sum, f[1].kind, f[1].step), (vec![1, 2, 5], 19, FiringKind::Late, 4));
    assert_eq!(r.watermark_after_step[5], at(10, 1, 34, 999));
    let cleaned = r
        .trace
        .iter()
        .any(|e| e.step == 5 && matches!(&e.kind, TraceKind::CleanedUp { time, .. } if *time == at(10, 1, 29, 999)));
    assert!(cleaned);
    assert_eq!(side_outputs(&r), vec![7]);
    assert_eq!((ids(f[2]), f[2].sum), (vec![3, 4, 6], 44));
}

/// One hour sliding every minute: one element in 60 windows (starts 09:31 to 10:30); 30 fire at
/// the watermark 10:59:59.999, the other 30 at the end of input.
#[test]
fn one_hour_sliding_sixty_copies() {
    let p = preset("one-hour-sliding");
    let r = run(&p.scenario);
    let assigned = r.trace.iter().find_map(|ev| match &ev.kind {
        TraceKind::WindowsAssigned { windows, .. } => Some(windows.clone()),
        _ => None,
    });
    let assigned = assigned.expect("assigned");
    assert_eq!(assigned.len(), 60);
    let mut starts: Vec<i64> = assigned.iter().filter_map(|w| w.bounds().0).collect();
    starts.sort();
    assert_eq!(starts.first(), Some(&at(9, 31, 0, 0)));
    assert_eq!(starts.last(), Some(&at(10, 30, 0, 0)));
    assert_eq!(at_step(&r, 1).live_windows().count(), 60);
    assert_eq!(firings(&r).iter().filter(|f| f.step == 1).count(), 30);
    assert_eq!(firings(&r).iter().filter(|f| f.step == 2).count(), 30);
}

/// A late element bridges two fired sessions: [10:00, 10:06) and [10:10, 10:15) merge into
/// [10:00, 10:15), which fires at once with all four elements; 10:03 later goes to the side output.
#[test]
fn session_bridge_late_element_merges_two_sessions() {
    let p = preset("session-bridge");
    let r = run(&p.scenario);
    let f = firings(&r);
    assert_eq!(f.len(), 3);
    assert_eq!((f[0].window, ids(f[0])), (window((10, 0), (10, 6)), vec![1, 2]));
    assert_eq!((f[1].window, ids(f[1])), (window((10, 10), (10, 15)), vec![3]));
    assert_eq!(f[2].window, window((10, 0), (10, 15)));
    assert_eq!((ids(f[2]), f[2].sum, f[2].kind), (vec![1, 2, 3, 4], 4, FiringKind::Late));
    assert_eq!(f[2].cause, FireCause::Element { id: 4 });
    let merged = at_step(&r, 5);
    let absorbed = merged.windows.iter().filter(|w| matches!(w.state, WindowState::Merged { .. })).count();
    assert_eq!(absorbed, 3, "[10:00,10:05), [10:00,10:06) and [10:10,10:15) were merged away");
    assert_eq!(side_outputs(&r), vec![5]);
}

/// The events 1-7 figure: event 4 fires [1,2,3]; event 5 re-fires [1,2,3,5]; event 6 removes
/// the window's state (cleanup time 10:00:29.999) with no output; event 7 goes to the side output.
#[test]
fn time_windows_events_1_to_7() {
    let p = preset("time-windows-events-1-7");
    let r = run(&p.scenario);
    let f = firings(&r);
    assert_eq!((ids(f[0]), f[0].kind, f[0].step), (vec![1, 2, 3], FiringKind::Main, 3));
    assert_eq!(r.watermark_after_step[3], at(10, 0, 0, 999));
    assert_eq!((ids(f[1]), f[1].kind, f[1].step), (vec![1, 2, 3, 5], FiringKind::Late, 4));
    assert!(firings(&r).iter().all(|x| x.step != 5), "event 6 emits nothing");
    let v = at_step(&r, 6);
    let w = v.windows.iter().find(|w| w.window == window((9, 59), (10, 0))).expect("window");
    assert_eq!(w.state, WindowState::CleanedUp);
    assert_eq!(side_outputs(&r), vec![7]);
    assert_eq!(ids(f[2]), vec![4, 6]);
}

/// CountTrigger.of(3) replaces time: the watermark passing 10:01 fires nothing, the third
/// element fires [1,2,3]; [10:01, 10:02) never fires, not even at the end of input.
#[test]
fn count_trigger_replaces_time() {
    let p = preset("count-trigger");
    let r = run(&p.scenario);
    assert!(firings(&r).iter().all(|f| f.step != 2));
    let f = firings(&r);
    assert_eq!(f.len(), 1);
    assert_eq!((ids(f[0]), f[0].cause), (vec![1, 2, 3], FireCause::Element { id: 3 }));
    let end = at_step(&r, r.steps);
    assert_eq!(end.elements[3], Some(ElementOutcome::Discarded), "element 4 never emitted");
    assert_eq!(end.elements[4], Some(ElementOutcome::Discarded));
    assert_eq!(end.elements[5], Some(ElementOutcome::Discarded));
    assert_eq!(side_outputs(&r), vec![7]);
}

/// ContinuousEventTimeTrigger.of(15 min) on [10:00, 11:00): one watermark jump to 10:30 fires
/// the 10:15 and 10:30 timers with the same contents (duplicates on purpose), then 10:45 and
/// the capped 10:59:59.999: four cumulative results, no 11:00 timer.
#[test]
fn early_firing_duplicates() {
    let p = preset("early-firing-duplicates");
    let r = run(&p.scenario);
    let f = firings(&r);
    let causes: Vec<FireCause> = f.iter().map(|x| x.cause).collect();
    assert_eq!(
        causes,
        vec![
            FireCause::Timer { time: at(10, 15, 0, 0) },
            FireCause::Timer { time: at(10, 30, 0, 0) },
            FireCause::Timer { time: at(10, 45, 0, 0) },
            FireCause::Timer { time: at(10, 59, 59, 999) },
        ]
    );
    assert_eq!(ids(f[0]), ids(f[1]), "identical duplicates at one watermark");
    assert_eq!((f[0].step, f[1].step), (2, 2));
    assert_eq!(ids(f[2]), vec![1, 2, 3]);
    assert_eq!(ids(f[3]), vec![1, 2, 3]);
    assert!(
        !r.trace.iter().any(|e| matches!(&e.kind, TraceKind::TimerRegistered { time, .. } if *time == at(11, 0, 0, 0)))
    );
}

/// Every course preset (a crash and its restore among them, merging sessions, count triggers,
/// process functions), stepped forward to the end, back to the start and in jumps through the
/// page's fold cache (its settled order kept across steps): each view equals the one folded from
/// zero.
#[test]
fn every_preset_steps_through_the_fold_cache_as_folded_from_zero() {
    for p in presets::all() {
        let r = run(&p.scenario);
        let mut cache = FoldCache::new(&r);
        let walk = (0..=r.steps).chain((0..=r.steps).rev()).chain([r.steps / 2, r.steps, 1, r.steps / 3]);
        for s in walk {
            assert_eq!(cache.at(&r, s), at_step(&r, s), "{} at step {s}", p.id);
        }
    }
}
