//! "Why?" explanations state the rule that decided an element's, a window's or a timer's state
//! at a playhead, with the course's numbers: ts + allowed lateness against the watermark,
//! cleanup time against the watermark, max timestamp against the watermark.

mod common;

use common::{at, preset, presets_and_parity_scenarios, scenario};
use tidemark::engine::view::at_step;
use tidemark::engine::{TimeWindow, Window, run};
use tidemark::teach::{Context, Explanation, why_element, why_timer, why_window};

fn minute(h: i64, m: i64) -> Window {
    Window::Time(TimeWindow::new(at(h, m, 0, 0), at(h, m + 1, 0, 0)))
}

fn text(e: &Explanation) -> String {
    format!("{} | {}", e.summary, e.reasons.join(" | "))
}

fn has(e: &Explanation, needle: &str) {
    assert!(text(e).contains(needle), "missing {needle:?} in:\n{}", text(e));
}

/// Lab 6.3's element 6 (10:00:50) went to the side output rather than into [10:00, 10:01):
/// the window's cleanup time 10:02:59.999 ≤ watermark 10:03:39.999 and 10:00:50 + 2 min =
/// 10:02:50 ≤ 10:03:39.999.
#[test]
fn why_the_side_output_rather_than_added() {
    let (p, r) = preset("lab-6-3");
    let cx = Context::new(&p.scenario, &r).with_values(p.value_format);
    let e = cx.why_element(5, 6);
    assert_eq!(
        e.summary,
        "Element 6 went to the late side output: its window [10:00, 10:01) was already past its cleanup time (10:02:59.999 ≤ watermark 10:03:39.999) and timestamp 10:00:50 + allowed lateness 2 min = 10:02:50 ≤ watermark 10:03:39.999."
    );
    assert_eq!(
        e.reasons,
        vec![
            "When element 6 arrived (step 6), the watermark was 10:03:39.999: its timestamp 10:00:50 ≤ 10:03:39.999, so it is late (a watermark t says the stream is complete up to t).",
            "It is too late for the allowed lateness as well: timestamp 10:00:50 + allowed lateness 2 min = 10:02:50 ≤ watermark 10:03:39.999; if no window takes it, it cannot be kept.",
            "[10:00, 10:01) was already past its cleanup time: 10:02:59.999 ≤ watermark 10:03:39.999 (isWindowLate), so it could not take the element.",
            "Why the side output rather than added: no window took it and the element itself is too late; with sideOutputLateData configured, Flink emits such an element to the late side output instead of dropping it.",
        ]
    );
    // Before it arrives there is nothing to explain yet.
    assert_eq!(
        cx.why_element(5, 5).summary,
        "Element 6 has not arrived yet: it is input item 6, and the playhead is after step 5."
    );
}

/// Lab 6.2's element 4 (10:00:45) is late (≤ watermark 10:01:00.999) but within the allowed
/// lateness (10:02:45 > 10:01:00.999), so it was added and caused the $4.31 late firing.
#[test]
fn why_late_but_added() {
    let (p, r) = preset("lab-6-2");
    let cx = Context::new(&p.scenario, &r).with_values(p.value_format);
    let e = cx.why_element(3, 4);
    assert_eq!(
        e.summary,
        "Element 4 arrived late but within the allowed lateness (timestamp 10:00:45 + allowed lateness 2 min = 10:02:45 > watermark 10:01:00.999), so it was added to [10:00, 10:01) and emitted by a late firing at step 4 (sum = $4.31)."
    );
    has(&e, "its timestamp 10:00:45 ≤ 10:01:00.999, so it is late");
    has(
        &e,
        "[10:00, 10:01) was alive: its cleanup time 10:02:59.999 > watermark 10:01:00.999, so the element was added",
    );
    has(&e, "so EventTimeTrigger fires at once: a late firing, sum = $4.31");
    // Element 2 was not late: 10:00:40 > 09:59:44.999.
    let e2 = cx.why_element(1, 4);
    has(&e2, "its timestamp 10:00:40 > 09:59:44.999, so it is not late");
    assert!(e2.summary.contains("emitted by the main firing of [10:00, 10:01) at step 3 (sum = $4.10)"));
    // Still waiting: element 3 in [10:01, 10:02) until the watermark reaches 10:01:59.999.
    assert_eq!(
        cx.why_element(2, 4).summary,
        "Element 3 arrived on time (10:01:21 > watermark 10:00:19.999) and waits in [10:01, 10:02) until the watermark (now 10:01:00.999) reaches 10:01:59.999."
    );
}

/// A fired window still exists until the watermark reaches its cleanup time; then it is gone.
#[test]
fn why_a_window_still_exists() {
    let (p, r) = preset("lab-6-3");
    let cx = Context::new(&p.scenario, &r).with_values(p.value_format);
    let e = cx.why_window(0, minute(10, 0), 4);
    assert_eq!(
        e.summary,
        "[10:00, 10:01) still exists although it fired: its cleanup time 10:02:59.999 (max timestamp 10:00:59.999 + allowed lateness 2 min) is after the watermark 10:01:00.999; a window does not vanish when it fires, and until then a late element can change its result."
    );
    has(&e, "It fired twice: main firing at step 3 (sum = $4.10) and late firing at step 4 (sum = $4.31).");
    has(&e, "It holds 3 elements (1, 2 and 4), sum = $4.31.");
    let gone = cx.why_window(0, minute(10, 0), 5);
    assert_eq!(
        gone.summary,
        "[10:00, 10:01) no longer exists: at step 5 the watermark 10:03:39.999 reached its cleanup time 10:02:59.999 (max timestamp 10:00:59.999 + allowed lateness 2 min), and Flink removed its state."
    );
    // Not created yet.
    has(&cx.why_window(0, minute(10, 4), 4), "does not exist at this point");
}

/// The worked timeline after element 3: [10:00, 10:01) has not fired, because its max
/// timestamp 10:00:59.999 is after the watermark 10:00:57.999.
#[test]
fn why_a_window_has_not_fired() {
    let (p, r) = preset("worked-timeline");
    let e = why_window(&p.scenario, &r, 0, minute(10, 0), 3);
    assert_eq!(
        e.summary,
        "[10:00, 10:01) exists and has not fired yet: its max timestamp 10:00:59.999 is after the watermark 10:00:57.999."
    );
    has(&e, "EventTimeTrigger fires it when the watermark reaches its max timestamp 10:00:59.999");
    has(
        &e,
        "its cleanup time 10:01:29.999 (max timestamp 10:00:59.999 + allowed lateness 30 s) is after the watermark 10:00:57.999",
    );
    has(&e, "It holds 2 elements (1 and 2), sum = 3.");
}

/// Timers: waiting (watermark below), fired (with what it did), and a trigger timer that is
/// also the cleanup timer when the allowed lateness is 0.
#[test]
fn why_timers() {
    let (p, r) = preset("lab-6-3");
    let cx = Context::new(&p.scenario, &r).with_values(p.value_format);
    let cleanup = at(10, 2, 59, 999);
    let waiting = cx.why_timer(0, minute(10, 0), cleanup, 4);
    assert_eq!(
        waiting.summary,
        "The timer at 10:02:59.999 for [10:00, 10:01) is waiting: event-time timers fire when the watermark reaches their time, and the watermark is 10:01:00.999."
    );
    has(
        &waiting,
        "It is the window's cleanup timer at 10:02:59.999 (max timestamp 10:00:59.999 + allowed lateness 2 min)",
    );
    let fired = cx.why_timer(0, minute(10, 0), cleanup, 5);
    assert_eq!(
        fired.summary,
        "The timer at 10:02:59.999 for [10:00, 10:01) fired at step 5, when the watermark advanced to 10:03:39.999 ≥ 10:02:59.999: the window's state was removed."
    );
    let trigger = cx.why_timer(0, minute(10, 0), at(10, 0, 59, 999), 3);
    has(
        &trigger,
        "fired at step 3, when the watermark advanced to 10:01:00.999 ≥ 10:00:59.999: the window fired (the main firing, sum = $4.10)",
    );
    has(&trigger, "EventTimeTrigger registered it at the window's max timestamp 10:00:59.999 = end − 1 ms");
    has(&cx.why_timer(0, minute(10, 0), at(10, 9, 0, 0), 3), "There is no timer at 10:09 for [10:00, 10:01)");

    let (m, mr) = preset("model-latency-sliding");
    let w = Window::Time(TimeWindow::new(at(9, 58, 0, 0), at(10, 3, 0, 0)));
    let both = why_timer(&m.scenario, &mr, 0, w, at(10, 2, 59, 999), 1);
    has(&both, "the trigger's timer and the cleanup timer are one timer here");
}

/// Count trigger: element 3 is too late by `ts + lateness ≤ watermark` (10:00:30 + 30 s =
/// 10:01 ≤ 10:01), yet [10:00, 10:01) is still alive, so it is added (Flink's two different
/// tests); element 4 is never emitted because the window is cleaned before a third count.
#[test]
fn why_count_trigger_elements() {
    let (p, r) = preset("count-trigger");
    let e3 = why_element(&p.scenario, &r, 2, 4);
    has(
        &e3,
        "It is too late for the allowed lateness as well: timestamp 10:00:30 + allowed lateness 30 s = 10:01 ≤ watermark 10:01",
    );
    has(&e3, "[10:00, 10:01) was alive: its cleanup time 10:01:29.999 > watermark 10:01, so the element was added");
    has(&e3, "CountTrigger.of(3) fires: the main firing, sum = 3");
    let e4 = why_element(&p.scenario, &r, 3, 9);
    assert_eq!(
        e4.summary,
        "Element 4 was never emitted: [10:00, 10:01) reached its cleanup time 10:01:29.999 at step 8 before any firing included it, and its state was removed."
    );
    let w = why_window(&p.scenario, &r, 0, minute(10, 1), 9);
    has(&w, "CountTrigger.of(3) fires it by count, never by time.");
}

/// Sessions: the merged window says where it came from; absorbed windows say where they went;
/// their deleted timers say why.
#[test]
fn why_merged_sessions() {
    let (p, r) = preset("session-bridge");
    let merged = Window::Time(TimeWindow::new(at(10, 0, 0, 0), at(10, 15, 0, 0)));
    let e = why_window(&p.scenario, &r, 0, merged, 5);
    has(&e, "It was formed at step 5 by merging the new session window with [10:00, 10:06) and [10:10, 10:15).");
    has(&e, "It fired once: late firing at step 5 (sum = 4).");
    let absorbed = Window::Time(TimeWindow::new(at(10, 10, 0, 0), at(10, 15, 0, 0)));
    assert_eq!(
        why_window(&p.scenario, &r, 0, absorbed, 5).summary,
        "[10:10, 10:15) no longer exists on its own: at step 5 an overlapping session window merged it into [10:00, 10:15)."
    );
    let first = Window::Time(TimeWindow::new(at(10, 0, 0, 0), at(10, 5, 0, 0)));
    let t = why_timer(&p.scenario, &r, 0, first, at(10, 4, 59, 999), 2);
    assert_eq!(
        t.summary,
        "The timer at 10:04:59.999 for [10:00, 10:05) was deleted at step 2: its window was merged into [10:00, 10:06), and a merge deletes the absorbed windows' timers (the merged window gets its own), so it will never fire."
    );
}

/// Without a side output a too-late element is dropped and counted; an element whose windows
/// are gone but which is not late itself is dropped silently (FINDINGS §4).
#[test]
fn why_dropped() {
    let s = scenario(
        r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 0, "side_output": false,
            "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 70000}, {"id": 2, "key": "A", "ts": 2000}]}"#,
    );
    let r = run(&s);
    let e = why_element(&s, &r, 1, 3);
    assert_eq!(
        e.summary,
        "Element 2 was dropped and counted in numLateRecordsDropped: its window [0, 60000) was already past its cleanup time (59999 ≤ watermark 70000) and timestamp 2000 ≤ watermark 70000 (allowed lateness 0), and there is no side output."
    );
    has(&e, "there is no side output, so Flink drops it and counts it in numLateRecordsDropped");

    // Sliding with slide > size: 15000 falls in the gap [10000, 20000); not late, so dropped silently.
    let gaps = scenario(
        r#"{"assigner": {"kind": "sliding", "size": 10000, "slide": 20000},
            "input": [{"id": 1, "key": "A", "ts": 15000}]}"#,
    );
    let gr = run(&gaps);
    let g = why_element(&gaps, &gr, 0, 1);
    has(&g, "assigned it to no window");
    has(&g, "dropped silently");
}

/// No explanation panics, whatever is asked: every element, window and timer of every preset
/// and every Flink parity scenario, at every playhead, and ids that do not exist.
#[test]
fn every_question_has_an_answer() {
    let scenarios = presets_and_parity_scenarios();
    let mut answers = 0;
    for s in &scenarios {
        let r = run(s);
        let cx = Context::new(s, &r);
        for playhead in 0..=r.steps + 1 {
            for elem in 0..=r.elements.len() as u32 {
                let e = cx.why_element(elem, playhead);
                assert!(e.summary.ends_with('.'), "{}: {}", s.name, e.summary);
                answers += 1;
            }
            let v = at_step(&r, playhead);
            for w in &v.windows {
                let e = cx.why_window(w.key, w.window, playhead);
                assert!(e.summary.ends_with('.'), "{}: {}", s.name, e.summary);
                answers += 1;
            }
            for t in &v.timers {
                let e = cx.why_timer(t.key, t.window, t.time, playhead);
                assert!(e.summary.ends_with('.') && !e.reasons.is_empty(), "{}: {}", s.name, e.summary);
                answers += 1;
            }
        }
    }
    assert!(answers > 5000, "{answers}");
}
