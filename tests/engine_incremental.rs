//! Incremental re-runs equal full runs (issue 15): `engine::incremental::rerun` after an edit of
//! one key's elements gives exactly `run` of the edited scenario (outputs, trace with sequence
//! numbers, emission order, statistics), whether it re-ran one key or fell back to a full run.
//! Random scenarios (tumbling, sliding, session; count, continuous and purging triggers;
//! evictors; allowed lateness; side output; bounded out-of-orderness, partitions, idleness,
//! periodic emission) and random drags, many of which move the watermark (the fallback). Keys
//! share few timestamps, so timers of different keys tie at one time often.

use std::rc::Rc;

use proptest::prelude::*;
use tidemark::engine::incremental::{FullReason, Rerun, RunCache, rerun};
use tidemark::engine::scenario::{
    AssignerSpec, BaseTrigger, Element, EvictorKind, EvictorSpec, InputItem, SourceSpec, TriggerSpec, WatermarkSpec,
};
use tidemark::engine::{Run, Scenario, run};

fn assert_same(a: &Run, b: &Run) -> Result<(), TestCaseError> {
    prop_assert_eq!(&a.keys, &b.keys);
    prop_assert_eq!(&a.elements, &b.elements);
    prop_assert_eq!(&a.outputs, &b.outputs);
    prop_assert_eq!(a.trace.len(), b.trace.len());
    for (x, y) in a.trace.iter().zip(&b.trace) {
        prop_assert_eq!(x, y);
    }
    prop_assert_eq!(&a.watermark_after_step, &b.watermark_after_step);
    prop_assert_eq!(a.steps, b.steps);
    prop_assert_eq!(a.stats, b.stats);
    prop_assert_eq!(&a.error, &b.error);
    // Byte for byte, as the trace JSON the UI and the CLI write.
    prop_assert_eq!(serde_json::to_string(&a.trace).ok(), serde_json::to_string(&b.trace).ok());
    Ok(())
}

fn assigner() -> impl Strategy<Value = AssignerSpec> {
    prop_oneof![
        (1i64..=4).prop_map(|size| AssignerSpec::Tumbling { size: size * 10, offset: 0 }),
        (1i64..=3, 1i64..=2).prop_map(|(slides, slide)| AssignerSpec::Sliding {
            size: slide * 10 * slides,
            slide: slide * 10,
            offset: 0
        }),
        (1i64..=3).prop_map(|g| AssignerSpec::Session { gap: g * 10 }),
    ]
}

fn trigger() -> impl Strategy<Value = TriggerSpec> {
    prop_oneof![
        5 => Just(TriggerSpec::DEFAULT),
        1 => Just(TriggerSpec { base: BaseTrigger::EventTime, purging: true }),
        1 => (1i64..=3, any::<bool>()).prop_map(|(n, purging)| TriggerSpec { base: BaseTrigger::Count { n }, purging }),
        1 => (1i64..=3).prop_map(|i| TriggerSpec { base: BaseTrigger::ContinuousEventTime { interval: i * 10 }, purging: false }),
        1 => (1i64..=3, any::<bool>()).prop_map(|(n, purging)| TriggerSpec { base: BaseTrigger::EarlyCount { n }, purging }),
    ]
}

fn evictor() -> impl Strategy<Value = Option<EvictorSpec>> {
    prop_oneof![
        5 => Just(None),
        1 => (1i64..=3, any::<bool>()).prop_map(|(n, after)| Some(EvictorSpec { kind: EvictorKind::Count { n }, do_evict_after: after })),
    ]
}

fn watermarks() -> impl Strategy<Value = WatermarkSpec> {
    prop_oneof![
        1 => Just(WatermarkSpec::Explicit),
        3 => (0i64..=30).prop_map(|b| WatermarkSpec::BoundedOutOfOrderness { bound: b }),
        1 => Just(WatermarkSpec::Monotonous),
    ]
}

fn source() -> impl Strategy<Value = SourceSpec> {
    prop_oneof![
        3 => Just(SourceSpec::default()),
        1 => (any::<bool>(), 1i64..=4, prop::option::of(1i64..=5)).prop_map(|(periodic, interval, idle)| SourceSpec {
            partitions: None,
            periodic,
            interval: interval * 100,
            idleness: idle.map(|i| i * 100),
        }),
    ]
}

/// Elements of four keys on a coarse grid of timestamps (ties across keys are common), with
/// some explicit watermarks; partitions 0 and 1.
fn input() -> impl Strategy<Value = Vec<InputItem>> {
    prop::collection::vec(
        prop_oneof![
            6 => (0usize..4, 0i64..30, -2i64..10, 0u32..2).prop_map(|(k, ts, v, p)| Some((k, ts * 5, v, p))),
            1 => Just(None),
        ],
        1..40,
    )
    .prop_flat_map(|items| {
        let n = items.len();
        (Just(items), prop::collection::vec(0i64..160, n))
    })
    .prop_map(|(items, wms)| {
        items
            .into_iter()
            .zip(wms)
            .enumerate()
            .map(|(i, (e, wm))| match e {
                Some((k, ts, value, partition)) => InputItem::Element(Element {
                    id: i as i64,
                    key: ["A", "B", "C", "D"][k].into(),
                    ts,
                    value,
                    partition,
                    ..Element::default()
                }),
                None => InputItem::Watermark(wm),
            })
            .collect()
    })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        assigner(),
        trigger(),
        evictor(),
        prop_oneof![Just(None), (0i64..=4).prop_map(|l| Some(l * 10))],
        watermarks(),
        source(),
        any::<bool>(),
        prop_oneof![4 => Just(true), 1 => Just(false)],
        input(),
    )
        .prop_map(
            |(assigner, trigger, evictor, allowed_lateness, watermarks, source, side_output, end_of_input, input)| {
                Scenario {
                    assigner,
                    trigger,
                    evictor,
                    allowed_lateness,
                    watermarks,
                    source,
                    side_output,
                    end_of_input,
                    input,
                    ..Scenario::default()
                }
            },
        )
}

/// A drag: moves elements of one key (the key of the element at `pick`), by `shift` each; with
/// `values`, changes their values too. `how_many` elements of that key move (1 mostly).
#[derive(Clone, Debug)]
struct Drag {
    pick: usize,
    shift: i64,
    how_many: usize,
    values: bool,
}

fn drag() -> impl Strategy<Value = Drag> {
    (any::<usize>(), -60i64..60, prop_oneof![4 => Just(1usize), 1 => 2usize..4], any::<bool>())
        .prop_map(|(pick, shift, how_many, values)| Drag { pick, shift, how_many, values })
}

fn apply(s: &Scenario, d: &Drag) -> Scenario {
    let mut next = s.clone();
    let elems: Vec<usize> =
        next.input.iter().enumerate().filter(|(_, it)| matches!(it, InputItem::Element(_))).map(|(i, _)| i).collect();
    if elems.is_empty() {
        return next;
    }
    let first = elems[d.pick % elems.len()];
    let key = match &next.input[first] {
        InputItem::Element(e) => e.key.clone(),
        _ => return next,
    };
    let mut moved = 0;
    for i in (first..next.input.len()).chain(0..first) {
        if moved == d.how_many {
            break;
        }
        if let InputItem::Element(e) = &mut next.input[i]
            && e.key == key
        {
            e.ts = (e.ts + d.shift).max(0);
            if d.values {
                e.value += 1;
            }
            moved += 1;
        }
    }
    next
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(200),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// A re-run after a drag equals the full run of the dragged scenario, and a chain of drags
    /// through the cache stays equal at every link.
    #[test]
    fn incremental_equals_full(s in scenario(), drags in prop::collection::vec(drag(), 1..4)) {
        let mut cache = RunCache::default();
        let mut current = Rc::new(s);
        let first = cache.run(&current);
        assert_same(&first, &run(&current))?;
        for d in &drags {
            let next = apply(&current, d);
            let (incremental, _) = rerun(&current, &run(&current), &next);
            let full = run(&next);
            assert_same(&incremental, &full)?;
            current = Rc::new(next);
            let cached = cache.run(&current);
            assert_same(&cached, &full)?;
        }
    }
}

fn element(id: i64, key: &str, ts: i64) -> InputItem {
    InputItem::Element(Element { id, key: key.into(), ts, value: id, ..Element::default() })
}

fn moved(s: &Scenario, id: i64, ts: i64) -> Scenario {
    let mut next = s.clone();
    for it in &mut next.input {
        if let InputItem::Element(e) = it
            && e.id == id
        {
            e.ts = ts;
        }
    }
    next
}

/// Twenty keys, bounded out-of-orderness: a drag that stays under the running maximum timestamp
/// re-runs one key; one past it moves the watermark and falls back; both equal full runs.
#[test]
fn drags_below_the_max_are_incremental_and_past_it_fall_back() {
    let input: Vec<InputItem> =
        (0..400).map(|i| element(i, &format!("k{}", i % 20), i * 1_000 + (i * 7919) % 5_000)).collect();
    for assigner in [
        AssignerSpec::Tumbling { size: 30_000, offset: 0 },
        AssignerSpec::Sliding { size: 60_000, slide: 20_000, offset: 0 },
        AssignerSpec::Session { gap: 1_500 },
    ] {
        let s = Scenario {
            assigner,
            allowed_lateness: Some(2_000),
            watermarks: WatermarkSpec::BoundedOutOfOrderness { bound: 5_000 },
            input: input.clone(),
            ..Scenario::default()
        };
        let base = run(&s);
        // From element 200 on, the first one 2 s or more below the running maximum timestamp, 1 s
        // earlier: the maximum (and so the watermark) stays.
        let ts: Vec<i64> = (0..400).map(|i| i * 1_000 + (i * 7919) % 5_000).collect();
        let pick = (200..400).find(|&i| ts[i as usize] + 2_000 <= ts[..i as usize].iter().copied().max().unwrap_or(0));
        let pick = pick.unwrap_or_else(|| panic!("no element below the maximum"));
        let earlier = moved(&s, pick, ts[pick as usize] - 1_000);
        let (r, how) = rerun(&s, &base, &earlier);
        assert!(matches!(how, Rerun::Incremental { .. }), "{how:?}");
        assert!(r.trace == run(&earlier).trace && r.outputs == run(&earlier).outputs);
        // Far into the future: the watermark jumps.
        let later = moved(&s, 200, 330_000);
        let (r, how) = rerun(&s, &base, &later);
        assert_eq!(how, Rerun::Full(FullReason::WatermarkChanged));
        assert!(r.trace == run(&later).trace);
    }
}

/// Timers of different keys at the same time fire in key order (first appearance); a drag of
/// one key keeps the interleaving the full run has.
#[test]
fn timer_ties_across_keys_keep_the_full_runs_order() {
    let s = Scenario {
        assigner: AssignerSpec::Tumbling { size: 10, offset: 0 },
        watermarks: WatermarkSpec::Explicit,
        input: vec![
            element(1, "B", 3),
            element(2, "A", 5),
            element(3, "C", 12),
            element(4, "A", 14),
            element(5, "B", 15),
            InputItem::Watermark(30),
        ],
        ..Scenario::default()
    };
    let base = run(&s);
    for (id, ts) in [(2, 13), (4, 2), (5, 4), (1, 25)] {
        let next = moved(&s, id, ts);
        let (r, how) = rerun(&s, &base, &next);
        assert!(matches!(how, Rerun::Incremental { .. }), "{how:?}");
        let full = run(&next);
        assert!(r.trace == full.trace, "element {id} to {ts}");
        assert!(r.outputs == full.outputs && r.stats == full.stats);
    }
}

/// The step view's saved fold states (`FoldCache`): every course preset folded forward step by
/// step, then back, equals folding from zero at every playhead.
#[test]
fn presets_fold_through_saved_states_like_from_zero() {
    use tidemark::engine::view::{FoldCache, at_step};
    for p in tidemark::teach::presets::all() {
        let r = run(&p.scenario);
        let mut cache = FoldCache::new(&r);
        for s in (0..=r.steps).chain((0..=r.steps).rev()).chain([r.steps / 2, 0, r.steps]) {
            assert!(cache.at(&r, s) == at_step(&r, s), "{} at {s}", p.id);
        }
    }
}
