//! Property tests of the engine over random scenarios (proptest), with the invariants of
//! `HOUSE_STYLE.md`, and a cross-check of tumbling/sliding windows against a naive model written
//! from the rules alone.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use tidemark::engine::output::RecoveryLine;
use tidemark::engine::scenario::{
    AssignerSpec, BaseTrigger, Control, ControlKind, DeltaFn, Element, EvictorKind, EvictorSpec, InputItem, Threshold,
    TriggerSpec, WatermarkSpec,
};
use tidemark::engine::view::{StepView, at_step};
use tidemark::engine::{Output, Run, Scenario, TimeWindow, TraceKind, Window, run};

fn assigner() -> impl Strategy<Value = AssignerSpec> {
    prop_oneof![
        (1i64..=6, 0i64..=2)
            .prop_map(|(size, off)| AssignerSpec::Tumbling { size: size * 10, offset: off.min(size - 1) * 10 }),
        (1i64..=4, 1i64..=3).prop_map(|(slides, slide)| AssignerSpec::Sliding {
            size: slide * 10 * slides,
            slide: slide * 10,
            offset: 0
        }),
        (1i64..=4).prop_map(|g| AssignerSpec::Session { gap: g * 10 }),
        Just(AssignerSpec::GlobalEos),
    ]
}

fn trigger() -> impl Strategy<Value = TriggerSpec> {
    prop_oneof![
        4 => Just(TriggerSpec::DEFAULT),
        1 => Just(TriggerSpec { base: BaseTrigger::EventTime, purging: true }),
        1 => (1i64..=3).prop_map(|n| TriggerSpec { base: BaseTrigger::Count { n }, purging: false }),
        1 => (1i64..=3).prop_map(|n| TriggerSpec { base: BaseTrigger::Count { n }, purging: true }),
        1 => (1i64..=3).prop_map(|i| TriggerSpec { base: BaseTrigger::ContinuousEventTime { interval: i * 10 }, purging: false }),
        1 => (1i64..=3, any::<bool>()).prop_map(|(n, purging)| TriggerSpec { base: BaseTrigger::EarlyCount { n }, purging }),
        1 => (1i64..=4).prop_map(|d| TriggerSpec { base: BaseTrigger::SessionMaxDuration { max_duration: d * 10 }, purging: false }),
    ]
}

fn evictor() -> impl Strategy<Value = Option<EvictorSpec>> {
    prop_oneof![
        4 => Just(None),
        1 => (1i64..=3, any::<bool>()).prop_map(|(n, after)| Some(EvictorSpec { kind: EvictorKind::Count { n }, do_evict_after: after })),
        1 => (0i64..=3, any::<bool>()).prop_map(|(s, after)| Some(EvictorSpec { kind: EvictorKind::Time { size: s * 10 }, do_evict_after: after })),
        1 => (0i64..=8, any::<bool>(), any::<bool>()).prop_map(|(t, ts, after)| Some(EvictorSpec {
            kind: EvictorKind::Delta { threshold: Threshold(t as f64 * 1.5), delta: if ts { DeltaFn::Ts } else { DeltaFn::Value } },
            do_evict_after: after,
        })),
    ]
}

fn input() -> impl Strategy<Value = Vec<InputItem>> {
    prop::collection::vec(
        prop_oneof![
            4 => (0i64..3, 0i64..200, -2i64..10).prop_map(|(k, ts, v)| (Some((k, ts, v)), 0)),
            1 => (0i64..220).prop_map(|wm| (None, wm)),
        ],
        0..40,
    )
    .prop_map(|items| {
        items
            .into_iter()
            .enumerate()
            .map(|(i, (e, wm))| match e {
                Some((k, ts, value)) => InputItem::Element(Element {
                    id: i as i64,
                    key: ["A", "B", "C"][k as usize].into(),
                    ts,
                    value,
                    ..Element::default()
                }),
                None => InputItem::Watermark(wm),
            })
            .collect()
    })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    scenario_with(assigner())
}

fn scenario_with(assigner: impl Strategy<Value = AssignerSpec>) -> impl Strategy<Value = Scenario> {
    (
        assigner,
        trigger(),
        evictor(),
        prop_oneof![Just(None), (0i64..=5).prop_map(|l| Some(l * 10))],
        prop_oneof![
            Just(WatermarkSpec::Explicit),
            (0i64..=30).prop_map(|b| WatermarkSpec::BoundedOutOfOrderness { bound: b })
        ],
        any::<bool>(),
        any::<bool>(),
        input(),
    )
        .prop_map(
            |(assigner, trigger, evictor, allowed_lateness, watermarks, side_output, end_of_input, input)| Scenario {
                assigner,
                trigger,
                evictor,
                allowed_lateness,
                watermarks,
                side_output,
                end_of_input,
                input,
                ..Scenario::default()
            },
        )
}

/// Where each element ended up, counted from the trace.
#[derive(Default)]
struct Fates {
    fired: BTreeSet<u32>,
    side_output: BTreeSet<u32>,
    dropped_counted: BTreeSet<u32>,
    dropped_silently: BTreeSet<u32>,
    added: BTreeSet<u32>,
}

fn fates(r: &Run) -> Fates {
    let mut f = Fates::default();
    for ev in &r.trace {
        match &ev.kind {
            TraceKind::Fired { output, .. } => {
                f.fired.extend(r.firing(*output).iter().flat_map(|firing| firing.elems.iter().copied()))
            }
            TraceKind::SideOutput { elem, .. } => {
                f.side_output.insert(*elem);
            }
            TraceKind::Dropped { elem, counted: true, .. } => {
                f.dropped_counted.insert(*elem);
            }
            TraceKind::Dropped { elem, counted: false, .. } => {
                f.dropped_silently.insert(*elem);
            }
            TraceKind::ElementAdded { elem, .. } => {
                f.added.insert(*elem);
            }
            _ => {}
        }
    }
    f
}

proptest! {
    #![proptest_config(ProptestConfig {
        // 256 per property in `scripts/test`; `PROPTEST_CASES` sets more for a long run.
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    /// The same input gives the same trace and outputs (the engine is deterministic).
    #[test]
    fn same_input_same_trace(s in scenario()) {
        let a = run(&s);
        let b = run(&s);
        prop_assert_eq!(&a.trace, &b.trace);
        prop_assert_eq!(&a.outputs, &b.outputs);
    }

    /// The watermark never goes back, and sequence numbers strictly increase in step order.
    #[test]
    fn watermark_never_goes_back(s in scenario()) {
        let r = run(&s);
        for pair in r.watermark_after_step.windows(2) {
            prop_assert!(pair[0] <= pair[1]);
        }
        for ev in &r.trace {
            if let TraceKind::WatermarkAdvanced { from, to } = ev.kind {
                prop_assert!(from < to);
            }
        }
        for pair in r.trace.windows(2) {
            prop_assert!(pair[0].seq < pair[1].seq && pair[0].step <= pair[1].step);
        }
    }

    /// Every element is accounted for exactly once: added to some window, side output, or
    /// dropped (counted or silently); and with the default trigger, no evictor and the end of
    /// input, every added element ends in a firing's contents.
    #[test]
    fn every_element_is_accounted_for(s in scenario()) {
        let r = run(&s);
        prop_assume!(r.error.is_none());
        let f = fates(&r);
        for e in 0..r.elements.len() as u32 {
            let places = [f.added.contains(&e), f.side_output.contains(&e), f.dropped_counted.contains(&e), f.dropped_silently.contains(&e)];
            prop_assert_eq!(places.iter().filter(|p| **p).count(), 1, "element {} in {:?}", e, places);
        }
        let plain = s.trigger == TriggerSpec::DEFAULT && s.evictor.is_none() && s.end_of_input
            && !matches!(s.assigner, AssignerSpec::GlobalEos);
        if plain {
            for e in &f.added {
                prop_assert!(f.fired.contains(e), "element {} was added but never emitted", e);
            }
            // Only elements past the window end (sliding gaps cannot happen here) drop silently:
            // never, because every window exists for every timestamp.
            prop_assert!(f.dropped_silently.is_empty());
            if s.side_output { prop_assert!(f.dropped_counted.is_empty()); } else { prop_assert!(f.side_output.is_empty()); }
        }
    }

    /// Nothing fires after its window was cleaned up (until the window is created anew).
    #[test]
    fn nothing_fires_after_cleanup(s in scenario()) {
        let r = run(&s);
        let mut cleaned: BTreeSet<(u32, Window)> = BTreeSet::new();
        for ev in &r.trace {
            match &ev.kind {
                TraceKind::CleanedUp { key, window, .. } => { cleaned.insert((*key, *window)); }
                TraceKind::WindowCreated { key, window } => { cleaned.remove(&(*key, *window)); }
                TraceKind::Fired { key, window, .. } => prop_assert!(!cleaned.contains(&(*key, *window)), "{} fired after cleanup", window),
                _ => {}
            }
        }
    }

    /// Session windows of one key never overlap (nor touch) once merged.
    #[test]
    fn sessions_never_overlap(s in scenario_with((1i64..=4).prop_map(|g| AssignerSpec::Session { gap: g * 10 }))) {
        let r = run(&s);
        let mut live: BTreeMap<u32, BTreeSet<TimeWindow>> = BTreeMap::new();
        for ev in &r.trace {
            match &ev.kind {
                TraceKind::WindowCreated { key, window: Window::Time(w) } => { live.entry(*key).or_default().insert(*w); }
                TraceKind::SessionsMerged { key, merged, into, .. } => {
                    let set = live.entry(*key).or_default();
                    for m in merged { set.remove(m); }
                    set.insert(*into);
                }
                TraceKind::CleanedUp { key, window: Window::Time(w), .. } => { live.entry(*key).or_default().remove(w); }
                TraceKind::ElementAdded { key, .. } => {
                    let windows: Vec<&TimeWindow> = live.get(key).map(|s| s.iter().collect()).unwrap_or_default();
                    for pair in windows.windows(2) {
                        prop_assert!(!pair[0].intersects(pair[1]), "{} and {} overlap", pair[0], pair[1]);
                    }
                }
                _ => {}
            }
        }
    }

    /// The step view is one fold: folding on from step to step (`StepView::advance`), or event
    /// by event (`StepView::apply`), and settling gives at every playhead what `at_step` folds
    /// from the start; and while it folds, its live windows and pending timers are already those
    /// of the settled view.
    #[test]
    fn the_view_folds_incrementally(s in scenario()) {
        let r = run(&s);
        let mut stepped = StepView::new(&r);
        let mut by_event = StepView::new(&r);
        let mut next_event = 0;
        for step in 0..=r.steps {
            stepped.advance(&r, step);
            while let Some(ev) = r.trace.get(next_event).filter(|e| e.step < step) {
                by_event.apply(&r, ev);
                next_event += 1;
            }
            let full = at_step(&r, step);
            let live: Vec<(u32, Window)> = stepped.live_windows().map(|w| (w.key, w.window)).collect();
            let full_live: Vec<(u32, Window)> = full.live_windows().map(|w| (w.key, w.window)).collect();
            prop_assert_eq!(live, full_live, "live windows at {}", step);
            let pending: Vec<_> = stepped.pending_timers().copied().collect();
            let full_pending: Vec<_> = full.pending_timers().copied().collect();
            prop_assert_eq!(pending, full_pending, "pending timers at {}", step);
            let mut settled = stepped.clone();
            settled.settle();
            prop_assert_eq!(&settled, &full, "view at {}", step);
            // Settling in the middle does not disturb folding on.
            if step % 3 == 1 { stepped.settle(); }
        }
        by_event.step = r.steps;
        by_event.settle();
        prop_assert_eq!(by_event, at_step(&r, r.steps));
    }

    /// Tumbling and sliding windows with the default trigger agree with a naive model written
    /// from the documented rules alone.
    #[test]
    fn agrees_with_naive_model(
        size_slides in 1i64..=4, slide in 1i64..=3, tumbling in any::<bool>(),
        lateness in 0i64..=4, side_output in any::<bool>(), end_of_input in any::<bool>(), input in input(),
    ) {
        let slide = slide * 10;
        let assigner = if tumbling { AssignerSpec::Tumbling { size: slide, offset: 0 } } else { AssignerSpec::Sliding { size: slide * size_slides, slide, offset: 0 } };
        let s = Scenario { assigner, allowed_lateness: Some(lateness * 10), side_output, end_of_input, input, ..Scenario::default() };
        let r = run(&s);
        let (fires, late) = naive(&s);
        let mut ours: Fires = BTreeMap::new();
        let mut ours_late = Vec::new();
        for o in &r.outputs {
            match o {
                Output::Fire(f) => {
                    let Window::Time(w) = f.window else { continue };
                    ours.entry((r.key_name(f.key).to_string(), w.start)).or_default().push((f.ids.clone(), f.n));
                }
                Output::Late { id, .. } => ours_late.push(*id),
                Output::Error(e) => prop_assert!(false, "unexpected error {}", e),
                Output::Process(_) | Output::Tvf(_) | Output::Recovery(_) => prop_assert!(false, "not a window output"),
            }
        }
        prop_assert_eq!(ours, fires);
        prop_assert_eq!(ours_late, late);
    }
}

/// Firings per (key, window start): the sorted ids and `n` of each, in order.
type Fires = BTreeMap<(String, i64), Vec<(Vec<i64>, u64)>>;

/// The rules, written down directly: an element joins every window that contains it and whose
/// `end - 1 + lateness` is above the watermark, firing at once if `end - 1 <= watermark`; a
/// watermark fires every window with `end - 1 <= watermark` that has not fired on time, and
/// forgets windows with `end - 1 + lateness <= watermark`; an element no window took goes to
/// the side output if `ts + lateness <= watermark`.
fn naive(s: &Scenario) -> (Fires, Vec<i64>) {
    let (size, slide) = match s.assigner {
        AssignerSpec::Tumbling { size, .. } => (size, size),
        AssignerSpec::Sliding { size, slide, .. } => (size, slide),
        _ => unreachable!("naive model covers tumbling and sliding"),
    };
    let lateness = s.lateness();
    #[derive(Default)]
    struct W {
        ids: Vec<i64>,
        fired_on_time: bool,
        firings: u64,
    }
    let mut windows: BTreeMap<(String, i64), W> = BTreeMap::new();
    let mut fires: Fires = BTreeMap::new();
    let mut late = Vec::new();
    let mut wm = i64::MIN;
    let fire = |fires: &mut Fires, k: &(String, i64), w: &mut W| {
        let mut ids = w.ids.clone();
        ids.sort();
        fires.entry(k.clone()).or_default().push((ids, w.firings));
        w.firings += 1;
    };
    let advance = |to: i64, windows: &mut BTreeMap<(String, i64), W>, fires: &mut Fires| {
        for (k, w) in windows.iter_mut() {
            let end = k.1 + size;
            if end - 1 <= to && !w.fired_on_time {
                w.fired_on_time = true;
                fire(fires, k, w);
            }
        }
        windows.retain(|k, _| k.1 + size - 1 + lateness > to);
    };
    for item in &s.input {
        match item {
            InputItem::Watermark(_) | InputItem::SourceWatermark(_) => {
                let t = item.watermark().unwrap_or(i64::MIN);
                if t > wm {
                    wm = t;
                    advance(wm, &mut windows, &mut fires);
                }
            }
            InputItem::Control(_) => {}
            InputItem::Element(e) => {
                let mut taken = false;
                let first = (e.ts - size).div_euclid(slide) * slide;
                let mut start = first;
                while start <= e.ts {
                    if start <= e.ts && e.ts < start + size && start + size - 1 + lateness > wm {
                        taken = true;
                        let k = (e.key.to_string(), start);
                        let w = windows.entry(k.clone()).or_default();
                        w.ids.push(e.id);
                        if start + size - 1 <= wm {
                            w.fired_on_time = true;
                            fire(&mut fires, &k, w);
                        }
                    }
                    start += slide;
                }
                if !taken && e.ts + lateness <= wm && s.side_output {
                    late.push(e.id);
                }
            }
        }
    }
    if s.end_of_input && wm < i64::MAX {
        advance(i64::MAX, &mut windows, &mut fires);
    }
    (fires, late)
}

/// The job's own lines (the oracle's), without the recovery lines.
fn job_lines(r: &Run) -> Vec<String> {
    r.outputs.iter().filter(|o| !matches!(o, Output::Recovery(_))).map(|o| o.to_oracle_line(&r.keys)).collect()
}

fn control(kind: ControlKind) -> InputItem {
    InputItem::Control(Control { kind, arrival: None })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    /// Checkpoints without a crash change no result (`course_crash_checkpoints_only`): the job's
    /// lines are those of the run without them, and the checkpoint lines count 1, 2, ...
    #[test]
    fn checkpoints_alone_change_nothing(s in scenario(), at in prop::collection::vec(0usize..40, 0..4)) {
        let mut with = s.clone();
        let mut positions: Vec<usize> = at.iter().map(|p| p % (s.input.len() + 1)).collect();
        positions.sort_unstable();
        for p in positions.iter().rev() {
            with.input.insert(*p, control(ControlKind::Checkpoint));
        }
        let (a, b) = (run(&s), run(&with));
        prop_assert_eq!(job_lines(&a), job_lines(&b));
        let numbers: Vec<u32> = b.outputs.iter().filter_map(|o| match o {
            Output::Recovery(RecoveryLine::Checkpoint { checkpoint, .. }) => Some(*checkpoint),
            _ => None,
        }).collect();
        prop_assert_eq!(numbers, (1..).take(if b.error.is_some() { numbers_len(&b) } else { positions.len() }).collect::<Vec<u32>>());
    }

    /// A crash before any checkpoint restarts from nothing: the lines before it are those of the
    /// input up to the crash (no end of input), and after `restore` come all the lines of the
    /// whole input run from scratch (the watermark and state start again).
    #[test]
    fn crash_without_checkpoint_replays_everything(s in scenario(), at in 0usize..40) {
        let p = at % (s.input.len() + 1);
        let mut crashed = s.clone();
        crashed.input.insert(p, control(ControlKind::Crash));
        let mut prefix = s.clone();
        prefix.input.truncate(p);
        prefix.end_of_input = false;
        let before = run(&prefix);
        prop_assume!(before.error.is_none());
        let whole = run(&s);
        let r = run(&crashed);
        let mut expected = job_lines(&before);
        expected.push(format!("{{\"out\":\"crash\",\"item\":{p}}}"));
        expected.push("{\"out\":\"restore\",\"checkpoint\":null,\"from_item\":0}".to_string());
        expected.extend(job_lines(&whole));
        prop_assert_eq!(r.oracle_lines(), expected);
        // The playhead still has one step per input item (the replay is inside the crash step).
        prop_assert_eq!(r.steps, crashed.input.len() + 1);
        prop_assert_eq!(r.watermark_after_step.len(), r.steps);
        let last_view = at_step(&r, r.steps);
        prop_assert_eq!(last_view.outputs, r.outputs.len());
    }
}

/// How many checkpoint lines a run printed (a run that failed stops early).
fn numbers_len(r: &Run) -> usize {
    r.outputs.iter().filter(|o| matches!(o, Output::Recovery(RecoveryLine::Checkpoint { .. }))).count()
}
