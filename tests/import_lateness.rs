//! The lateness report (`tidemark::import::lateness`): its numbers equal engine runs, by a
//! property test over random scenarios and on the seeded data of `tests/data/`, whose late
//! counts also equal the generator's own model of the watermark.

mod import_common;

use proptest::prelude::*;

use import_common::{data, manifest, sensors_spec};
use tidemark::engine::Scenario;
use tidemark::engine::scenario::{
    AssignerSpec, BaseTrigger, Element, EvictorKind, EvictorSpec, InputItem, ProcessFunctionSpec, TriggerSpec, TvfSpec,
    WatermarkSpec,
};
use tidemark::import::lateness;
use tidemark::import::{self, BadRowPolicy, Method, ReportError, ScenarioOptions, build_scenario};

fn sensors(partitions: bool, options: &ScenarioOptions) -> Scenario {
    let mut spec = sensors_spec("sensors.csv");
    if !partitions {
        spec.mapping.partition = None;
    }
    let parsed = import::parse(data("sensors.csv"), &spec).expect("parse");
    build_scenario(&parsed, BadRowPolicy::Cancel, options).expect("build").scenario
}

fn manifest_bounds() -> Vec<i64> {
    manifest()["bounds"].as_array().expect("bounds").iter().map(|b| b.as_i64().expect("bound")).collect()
}

/// On the data, every number of the report equals engine runs, for tumbling, sliding (with
/// allowed lateness, so late firings happen) and session windows; the late counts also equal
/// the generator's own model of the watermark.
#[test]
fn report_on_the_data_equals_engine_runs_and_the_generators_model() {
    let m = manifest();
    let windows = [
        ScenarioOptions::default(),
        ScenarioOptions {
            assigner: AssignerSpec::Sliding { size: 60_000, slide: 10_000, offset: 0 },
            allowed_lateness: Some(5_000),
            ..ScenarioOptions::default()
        },
        ScenarioOptions {
            assigner: AssignerSpec::Session { gap: 3_000 },
            allowed_lateness: Some(2_000),
            ..ScenarioOptions::default()
        },
    ];
    for partitions in [true, false] {
        let model = &m[if partitions { "late_with_partitions" } else { "late_one_partition" }];
        for options in &windows {
            let s = sensors(partitions, options);
            let mut bounds = lateness::default_bounds(&s);
            bounds.extend(manifest_bounds());
            let fast = lateness::report(&s, &bounds).expect("report");
            let slow = lateness::report_by_runs(&s, &bounds).expect("runs");
            assert_eq!(fast.rows, slow.rows, "{:?} partitions {partitions}", options.assigner);
            assert_eq!(fast.late_method, Method::Analytic);
            let merging = matches!(options.assigner, AssignerSpec::Session { .. });
            assert_eq!(fast.outcome_method, if merging { Method::EngineRuns } else { Method::Analytic });
            for row in &fast.rows {
                assert_eq!(row.on_time + row.late_fired + row.all_dropped(), s.elements().count() as u64);
                if let Some(late) = model.get(row.bound.to_string()) {
                    assert_eq!(Some(row.late), late.as_u64(), "bound {}", row.bound);
                }
            }
        }
    }
    // The numbers the table shows for the single-partition stream at bound 0 and 1 s.
    let s = sensors(false, &windows[1]);
    let r = lateness::report(&s, &[0, 1000]).expect("report");
    let summary: Vec<(u64, u64, u64, u64)> =
        r.rows.iter().map(|r| (r.late, r.on_time, r.late_fired, r.side_output)).collect();
    assert_eq!(summary, [(311, 1048, 19, 0), (51, 1055, 12, 0)]);
    assert_eq!(r.rows[1].result_delay, 61_000);
}

fn arb_scenario() -> impl Strategy<Value = Scenario> {
    let assigner = prop_oneof![
        (prop::sample::select(vec![1i64, 7, 250, 1000, 5000, 60_000]), -3i64..3)
            .prop_map(|(size, o)| AssignerSpec::Tumbling { size, offset: o * size / 4 }),
        (
            prop::sample::select(vec![1000i64, 2000, 3000, 5000]),
            1i64..5,
            prop::sample::select(vec![0i64, 500, -700]),
            -1i64..2
        )
            .prop_map(|(slide, k, extra, o)| AssignerSpec::Sliding {
                size: (slide * k + extra).max(1),
                slide,
                offset: o * slide / 3
            }),
        prop::sample::select(vec![1000i64, 4000]).prop_map(|gap| AssignerSpec::Session { gap }),
    ];
    let trigger = prop::sample::select(vec![
        TriggerSpec::DEFAULT,
        TriggerSpec { base: BaseTrigger::EventTime, purging: true },
        TriggerSpec { base: BaseTrigger::ContinuousEventTime { interval: 2000 }, purging: false },
    ]);
    let base = prop::sample::select(vec![0i64, 1_710_057_600_000, -50_000]);
    // Timestamps on a grid (1 ms, 250 ms or 1 s) so that a watermark, a window end and a bound
    // often meet exactly: the ties where `<` and `<=` differ.
    let elements = prop::sample::select(vec![1i64, 250, 1000]).prop_flat_map(|grid| {
        prop::collection::vec((0u8..4, (0i64..30_000 / grid).prop_map(move |n| n * grid), 0u32..3), 0..50)
    });
    (
        assigner,
        trigger,
        base,
        elements,
        1u32..4,
        prop::option::of(prop::sample::select(vec![0i64, 1, 250, 1000, 5000])),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(assigner, trigger, base, elements, partitions, lateness, side_output, evict, declare_more)| {
            let input = elements
                .into_iter()
                .enumerate()
                .map(|(i, (k, ts, p))| {
                    InputItem::Element(Element {
                        id: i as i64,
                        key: format!("k{k}").into(),
                        ts: base + ts,
                        value: 1,
                        partition: p % partitions,
                        ..Element::default()
                    })
                })
                .collect();
            let mut s = Scenario {
                assigner,
                trigger,
                allowed_lateness: lateness,
                side_output,
                evictor: evict.then_some(EvictorSpec { kind: EvictorKind::Count { n: 2 }, do_evict_after: false }),
                watermarks: WatermarkSpec::BoundedOutOfOrderness { bound: 0 },
                input,
                ..Scenario::default()
            };
            if declare_more {
                s.source.partitions = Some(partitions + 1);
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// The analytic report equals engine runs: the late count (against a probe run), and on
    /// time / late-fired / dropped (against a run per bound), for random tumbling, sliding and
    /// session scenarios, partitions (some never read), lateness, side output, triggers, evictors.
    #[test]
    fn analytic_report_equals_engine_runs(
        s in arb_scenario(),
        bounds in prop::collection::vec(prop::sample::select(vec![0i64, 1, 249, 250, 999, 1000, 1001, 5000, 30_000]), 1..4),
    ) {
        let fast = lateness::report(&s, &bounds).expect("report");
        let slow = lateness::report_by_runs(&s, &bounds).expect("runs");
        prop_assert_eq!(&fast.rows, &slow.rows);
        prop_assert_eq!(fast.late_method, Method::Analytic);
        for row in &fast.rows {
            prop_assert_eq!(row.on_time + row.late_fired + row.all_dropped(), s.elements().count() as u64);
        }
    }
}

/// What the report does not cover, and what Flink rejects, are errors; sources the analytic
/// way does not model are computed from runs.
#[test]
fn report_limits() {
    let s = sensors(true, &ScenarioOptions::default());
    let unsupported = |s: Scenario| match lateness::report(&s, &[0]) {
        Err(ReportError::Unsupported(why)) => why,
        other => panic!("{other:?}"),
    };
    assert!(unsupported(Scenario { tvf: Some(TvfSpec::Tumble { size: 1000 }), ..s.clone() }).contains("TVF"));
    assert!(
        unsupported(Scenario {
            process_function: Some(ProcessFunctionSpec::ErrorRateAlert { size: 60_000, threshold_pct: 5 }),
            ..s.clone()
        })
        .contains("process function")
    );
    assert!(unsupported(Scenario { assigner: AssignerSpec::Global, ..s.clone() }).contains("global"));
    assert!(
        unsupported(Scenario { assigner: AssignerSpec::TumblingProcessing { size: 10, offset: 0 }, ..s.clone() })
            .contains("processing-time")
    );
    assert!(
        unsupported(Scenario {
            trigger: TriggerSpec { base: BaseTrigger::Count { n: 3 }, purging: false },
            ..s.clone()
        })
        .contains("CountTrigger")
    );
    assert!(lateness::report(&s, &[-1]).is_err());
    assert_eq!(
        lateness::report(&Scenario { assigner: AssignerSpec::Tumbling { size: 0, offset: 0 }, ..s.clone() }, &[0]),
        Err(ReportError::Rejected(
            "java.lang.IllegalArgumentException: TumblingEventTimeWindows parameters must satisfy abs(offset) < size"
                .into()
        ))
    );
    let mut periodic = s.clone();
    periodic.source.periodic = true;
    periodic.source.idleness = Some(30_000);
    let r = lateness::report(&periodic, &[0, 5000]).expect("report");
    assert_eq!((r.late_method, r.outcome_method), (Method::EngineRuns, Method::EngineRuns));
    assert_eq!(r.rows, lateness::report_by_runs(&periodic, &[0, 5000]).expect("runs").rows);
    // Default bounds: 0, a 1-2-5 series to past the largest disorder, the current and the suggested bound.
    assert_eq!(
        lateness::default_bounds(&s),
        [0, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 7200, 10_000, 20_000, 50_000, 100_000]
    );
}
