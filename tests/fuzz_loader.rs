//! Fuzzing the scenario loader and the engine with proptest: arbitrary bytes, arbitrary JSON
//! trees shaped like scenarios, and hostile numbers. Nothing may panic (a panic in wasm kills
//! the page); every rejection names a field or says what is wrong. Longer runs:
//! `PROPTEST_CASES=100000 cargo test --release --test fuzz_loader` (see the README's figures).

mod common;

use proptest::prelude::*;
use serde_json::{Value, json};
use tidemark::engine::{Scenario, run, view};

/// Values that are interesting to a loader: wrong types, extremes, the LONG strings.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        (-200i64..200).prop_map(|i| json!(i)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
        Just(json!(u64::MAX)),
        Just(json!("LONG_MAX")),
        Just(json!("LONG_MIN")),
        "[a-z_<>/\"' ]{0,12}".prop_map(Value::String),
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("kind".to_string()),
                    Just("size".to_string()),
                    Just("slide".to_string()),
                    Just("gap".to_string()),
                    Just("n".to_string()),
                    Just("ts".to_string()),
                    Just("wm".to_string()),
                    Just("key".to_string()),
                    Just("id".to_string()),
                    "[a-z]{1,6}"
                ],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn kind() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("tumbling")),
        Just(json!("sliding")),
        Just(json!("session")),
        Just(json!("dynamic_session")),
        Just(json!("global")),
        Just(json!("global_eos")),
        Just(json!("tumbling_processing")),
        Just(json!("sliding_processing")),
        Just(json!("count")),
        Just(json!("purging_count")),
        Just(json!("continuous_event_time")),
        Just(json!("time")),
        Just(json!("bounded_out_of_orderness")),
        Just(json!("request_assembler")),
        Just(json!("error_rate_alert")),
        Just(json!("hop")),
        Just(json!("cumulate")),
        leaf(),
    ]
}

fn small_num() -> impl Strategy<Value = Value> {
    prop_oneof![(-5i64..200_000).prop_map(|i| json!(i)), leaf()]
}

fn part() -> impl Strategy<Value = Value> {
    (kind(), small_num(), small_num(), small_num(), small_num(), any::<bool>()).prop_map(|(k, a, b, c, d, e)| {
        json!({"kind": k, "size": a, "slide": b, "gap": c, "n": d, "interval": a, "bound": b, "offset": 0,
               "do_evict_after": e, "default_gap": c, "timeout": a, "idleness": d, "step": b})
    })
}

fn item() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0i64..50, "[A-C]", small_num(), small_num(), prop::option::of(0u8..4), prop::option::of(small_num()))
            .prop_map(|(id, key, ts, value, partition, arrival)| {
                let mut o = json!({"id": id, "key": key, "ts": ts, "value": value});
                if let Some(p) = partition {
                    o["partition"] = json!(p);
                }
                if let Some(a) = arrival {
                    o["arrival"] = a;
                }
                o
            }),
        small_num().prop_map(|wm| json!({"wm": wm})),
        any_json(),
    ]
}

/// A scenario-shaped tree: mostly valid structure, any part possibly broken.
fn scenario_json() -> impl Strategy<Value = Value> {
    (
        part(),
        prop::option::of(part()),
        prop::option::of(part()),
        prop::option::of(part()),
        prop::option::of(small_num()),
        prop::collection::vec(item(), 0..25),
        any::<bool>(),
        prop::option::of(prop_oneof![part(), any_json()]),
    )
        .prop_map(|(assigner, trigger, evictor, watermarks, lateness, input, eoi, extra)| {
            let mut s = json!({"assigner": assigner, "input": input, "end_of_input": eoi});
            if let Some(t) = trigger {
                s["trigger"] = t;
            }
            if let Some(e) = evictor {
                s["evictor"] = e;
            }
            if let Some(w) = watermarks {
                s["watermarks"] = w;
            }
            if let Some(l) = lateness {
                s["allowed_lateness"] = l;
            }
            if let Some(x) = extra {
                s["process_function"] = x.clone();
                s["tvf"] = x;
            }
            s
        })
}

/// 2,000 cases per property in `scripts/test`; `PROPTEST_CASES` sets more for a long run (an
/// explicit `cases` would otherwise override proptest's own reading of that variable).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Arbitrary bytes: the loader answers with a scenario or an error, never a panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        if let Err(e) = Scenario::from_json_bytes(&bytes) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    /// Arbitrary JSON trees: loaded or refused with a message naming the field.
    #[test]
    fn arbitrary_json_never_panics(v in any_json()) {
        if let Err(e) = Scenario::from_value(&v) {
            prop_assert!(!e.message.is_empty());
        }
    }

    /// Scenario-shaped trees: whatever loads also runs (to an output or a Flink error), and its
    /// trace folds into a view at every step, without a panic.
    #[test]
    fn scenario_shaped_input_loads_and_runs(v in scenario_json()) {
        match Scenario::from_value(&v) {
            Ok(s) => {
                let r = run(&s);
                for step in [0, r.steps / 2, r.steps] {
                    let _ = view::at_step(&r, step);
                }
                // A round trip through the share-link JSON gives the same scenario.
                let again = Scenario::from_value(&s.to_json());
                prop_assert_eq!(again.as_ref().ok(), Some(&s));
                // The direct writer (run requests, links, the autosave) writes the same text.
                prop_assert_eq!(s.to_json_string(), s.to_json().to_string());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

/// The direct JSON writer (`Scenario::to_json_string`: run requests to the worker, links, the
/// autosave) writes the text of `to_json().to_string()` for every preset and parity scenario, and
/// for elements with every optional field, escapes in keys and events, and the LONG extremes.
#[test]
fn the_direct_json_writer_writes_what_the_value_writes() {
    let mut all = common::presets_and_parity_scenarios();
    all.push(
        Scenario::from_value(&json!({
            "partitions": 2,
            "input": [
                {"id": 1, "key": "a \"quoted\" key\n", "ts": "LONG_MAX", "value": "LONG_MIN", "partition": 1,
                 "arrival": 5, "event": "é \\ \u{1} 🙂"},
                {"id": 2, "key": "", "ts": -7, "value": 0, "event": "x"},
                {"wm": 100},
                {"id": 3, "key": "B", "ts": 12, "value": 3, "arrival": 9}
            ]
        }))
        .expect("valid scenario"),
    );
    for s in &all {
        assert_eq!(s.to_json_string(), s.to_json().to_string(), "{}", s.name);
    }
    assert!(all.len() > 100, "presets and the parity corpus: {}", all.len());
}
