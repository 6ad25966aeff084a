use super::*;
use crate::ui::action::Choice;

fn base() -> Scenario {
    Scenario::from_json_str(
        r#"{"assigner": {"kind": "tumbling", "size": 60000}, "input": [{"id": 1, "key": "A", "ts": 1000}]}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Applies `e` to the form over `s`; the candidate or the errors.
fn edit(form: &mut ConfigForm, s: &Scenario, e: ConfigEdit) -> Result<Scenario, BTreeMap<Field, String>> {
    form.edit(&e, s).ok_or_else(|| form.errors(s))
}

#[test]
fn parses_durations() {
    assert_eq!(parse_millis("60000"), Ok(60_000));
    assert_eq!(parse_millis(" 60s "), Ok(60_000));
    assert_eq!(parse_millis("1 min"), Ok(60_000));
    assert_eq!(parse_millis("1.5s"), Ok(1_500));
    assert_eq!(parse_millis("-5000"), Ok(-5_000));
    assert_eq!(parse_millis("LONG_MAX"), Ok(i64::MAX));
    assert!(parse_millis("").is_err());
    assert!(parse_millis("ten").is_err());
    assert!(parse_millis("1.5ms").is_err());
    assert!(parse_millis("5 weeks").is_err_and(|e| e.contains("unknown unit")));
    assert!(parse_millis("99999999999999999999").is_err());
}

/// A valid edit yields the scenario; the view is derived from it, keeping the text as typed
/// while it says the scenario's value.
#[test]
fn valid_edits_apply_and_the_view_follows_the_scenario() {
    let mut form = ConfigForm::default();
    let s = edit(&mut form, &base(), ConfigEdit::Assigner(AssignerChoice::Sliding)).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(s.assigner, AssignerSpec::Sliding { size: 60_000, slide: 10_000, offset: 0 });
    let s = edit(&mut form, &s, ConfigEdit::Text(Field::Lateness, "30s".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(s.allowed_lateness, Some(30_000));
    assert_eq!(form.view(&s).lateness, "30s", "typed text that says the scenario's value stays as typed");
    assert_eq!(form.view(&s).slide, "10000");
    // Another scenario (an undo, a load): the view says its values.
    assert_eq!(form.view(&base()).lateness, "");
    assert_eq!(form.view(&base()).assigner, AssignerChoice::Tumbling);
}

/// Flink's own rule refuses the value next to the edited field, and the text stays.
#[test]
fn invalid_values_are_refused_with_flinks_reason() {
    let s = base();
    let mut form = ConfigForm::default();
    let e = edit(&mut form, &s, ConfigEdit::Text(Field::Offset, "60000".into())).err().unwrap_or_default();
    assert_eq!(
        e.get(&Field::Offset).map(String::as_str),
        Some("Flink refuses it: TumblingEventTimeWindows parameters must satisfy abs(offset) < size")
    );
    assert_eq!(form.view(&s).offset, "60000", "nothing typed is lost");
    // Editing another field keeps the multi-field rule where it was shown.
    let e = edit(&mut form, &s, ConfigEdit::Text(Field::Size, "50000".into())).err().unwrap_or_default();
    assert!(e.contains_key(&Field::Offset), "{e:?}");
    assert_eq!((form.view(&s).size.as_str(), form.view(&s).offset.as_str()), ("50000", "60000"));
    let mut form = ConfigForm::default();
    let e = edit(&mut form, &s, ConfigEdit::Text(Field::Lateness, "-1".into())).err().unwrap_or_default();
    assert_eq!(
        e.get(&Field::Lateness).map(String::as_str),
        Some("Flink refuses it: The allowed lateness cannot be negative.")
    );
    let mut form = ConfigForm::default();
    let sessions =
        edit(&mut form, &s, ConfigEdit::Assigner(AssignerChoice::Session)).unwrap_or_else(|e| panic!("{e:?}"));
    let e = edit(&mut form, &sessions, ConfigEdit::Text(Field::Gap, "0".into())).err().unwrap_or_default();
    assert_eq!(
        e.get(&Field::Gap).map(String::as_str),
        Some("Flink refuses it: EventTimeSessionWindows parameters must satisfy 0 < size")
    );
    let e = edit(&mut form, &sessions, ConfigEdit::Text(Field::Gap, "soon".into())).err().unwrap_or_default();
    assert!(e.get(&Field::Gap).is_some_and(|m| m.contains("not a whole number")));
    // The errors belong to the configuration they were found on: another one shows none.
    assert!(form.errors(&s).is_empty());
    assert_eq!(form.view(&s).gap, "10000");
}

/// A refused assigner choice stays chosen (with its fields) until it is fixed or the scenario changes.
#[test]
fn a_refused_choice_stays_with_its_fields() {
    let mut form = ConfigForm::default();
    let s = base();
    let offset = edit(&mut form, &s, ConfigEdit::Text(Field::Offset, "30s".into())).unwrap_or_else(|e| panic!("{e:?}"));
    // Sliding's slide (10 s by default) must be more than the offset (30 s).
    let e = edit(&mut form, &offset, ConfigEdit::Assigner(AssignerChoice::Sliding)).err().unwrap_or_default();
    assert!(e.get(&Field::Assigner).is_some_and(|m| m.contains("abs(offset) < slide")), "{e:?}");
    assert_eq!(form.view(&offset).assigner, AssignerChoice::Sliding, "the refused choice stays chosen");
    let fixed =
        edit(&mut form, &offset, ConfigEdit::Text(Field::Slide, "40s".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(fixed.assigner, AssignerSpec::Sliding { size: 60_000, slide: 40_000, offset: 30_000 });
}

/// The loader's rules land on their field; the bound's message is the loader's own.
#[test]
fn loader_rules_land_on_their_field() {
    let mut form = ConfigForm::default();
    let s = base();
    let bounded =
        edit(&mut form, &s, ConfigEdit::Watermarks(WatermarkChoice::Bounded)).unwrap_or_else(|e| panic!("{e:?}"));
    let e = edit(&mut form, &bounded, ConfigEdit::Text(Field::Bound, "-5".into())).err().unwrap_or_default();
    let loader = Scenario::from_json_str(
        r#"{"assigner": {"kind": "tumbling", "size": 1}, "watermarks": {"kind": "bounded_out_of_orderness", "bound": -5}, "input": []}"#,
    )
    .err()
    .map(|e| e.message);
    assert_eq!(e.get(&Field::Bound), loader.as_ref(), "the same words as the loader");
    let mut form = ConfigForm::default();
    let sliding =
        edit(&mut form, &s, ConfigEdit::Assigner(AssignerChoice::Sliding)).unwrap_or_else(|e| panic!("{e:?}"));
    let e = edit(&mut form, &sliding, ConfigEdit::Text(Field::Slide, "1".into())).err().unwrap_or_default();
    assert!(e.get(&Field::Slide).is_some_and(|m| m.contains("more than 10000 windows")), "{e:?}");
}

/// The typed refusal names the fields of the rule the engine's `validate` applies.
#[test]
fn refusals_are_typed_by_the_rule() {
    let with = |json: &str| Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"));
    let r = refusal(&with(r#"{"assigner": {"kind": "sliding", "size": 10, "slide": 5, "offset": 5}, "input": []}"#));
    assert_eq!(r.map(|r| r.fields), Some(&[Field::Size, Field::Slide, Field::Offset][..]));
    let r = refusal(&with(r#"{"assigner": {"kind": "session", "gap": 5}, "allowed_lateness": -1, "input": []}"#));
    assert_eq!(r.map(|r| r.fields), Some(&[Field::Lateness][..]));
    let mut looping = base();
    looping.trigger.base = BaseTrigger::ContinuousEventTime { interval: -1 };
    let r = refusal(&looping);
    assert_eq!(r.as_ref().map(|r| r.fields), Some(&[Field::TriggerInterval][..]), "Tidemark's limit, by its path");
    assert_eq!(refusal(&base()), None);
}

/// The source fields: partitions (1 to 64, no fewer than the input reads), periodic emission
/// with its interval, `withIdleness`; each refusal names its field with the loader's rule, and
/// an untouched partition count stays undeclared.
#[test]
fn source_partitions_emission_and_idleness() {
    let mut form = ConfigForm::default();
    let s =
        edit(&mut form, &base(), ConfigEdit::Text(Field::Lateness, "1s".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(s.source.partitions, None, "an untouched partition count stays what the input implies");
    let s = edit(&mut form, &s, ConfigEdit::Text(Field::Partitions, "2".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!((s.source.partitions, s.partition_count()), (Some(2), 2));
    let s = edit(&mut form, &s, ConfigEdit::Text(Field::Idleness, "1s".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(s.source.idleness, Some(1000));
    let s = edit(&mut form, &s, ConfigEdit::Emission(EmissionChoice::Periodic)).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(s.source.periodic);
    let s = edit(&mut form, &s, ConfigEdit::Text(Field::Interval, "50ms".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(s.source.interval, 50);
    let s = edit(&mut form, &s, ConfigEdit::Text(Field::Idleness, "".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(s.source.idleness, None, "empty: no withIdleness");
    for (field, text, message) in [
        (Field::Partitions, "65", "must be a whole number of partitions from 1 to 64"),
        (Field::Partitions, "0", "must be a whole number of partitions from 1 to 64"),
        (Field::Interval, "0", "autoWatermarkInterval must be greater than 0, not 0"),
        (Field::Idleness, "-1s", "must be greater than 0, not -1000"),
    ] {
        let e = edit(&mut form, &s, ConfigEdit::Text(field, text.into())).err().unwrap_or_default();
        assert_eq!(e.get(&field).map(String::as_str), Some(message), "{field:?} {text}");
    }
    // Fewer partitions than the input reads: the loader's rule, at the partitions field.
    let mut two = s.clone();
    if let Some(crate::engine::scenario::InputItem::Element(e)) = two.input.first_mut() {
        e.partition = 1;
    }
    let mut form = ConfigForm::default();
    let e = edit(&mut form, &two, ConfigEdit::Text(Field::Partitions, "1".into())).err().unwrap_or_default();
    assert_eq!(
        e.get(&Field::Partitions).map(String::as_str),
        Some("reads partition 1 but the scenario declares 1 partitions")
    );
}

/// A dynamic session's gaps are edited per key: the input's keys are listed, a typed gap goes
/// into the assigner's map, an emptied one falls back to the default, `gap <= 0` is refused.
#[test]
fn dynamic_session_gaps_per_key() {
    let mut form = ConfigForm::default();
    let s = edit(&mut form, &base(), ConfigEdit::Assigner(AssignerChoice::DynamicSession))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(s.assigner, AssignerSpec::DynamicSession { default_gap: 10_000, gaps: BTreeMap::new() });
    assert_eq!(form.view(&s).key_gaps, vec![("A".to_string(), String::new())]);
    let s = edit(&mut form, &s, ConfigEdit::KeyGap("A".into(), "30s".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        s.assigner,
        AssignerSpec::DynamicSession { default_gap: 10_000, gaps: [("A".to_string(), 30_000)].into() }
    );
    assert_eq!(form.view(&s).key_gaps, vec![("A".to_string(), "30000".to_string())]);
    let e = edit(&mut form, &s, ConfigEdit::KeyGap("A".into(), "0".into())).err().unwrap_or_default();
    assert!(e.get(&Field::KeyGaps).is_some_and(|m| m.starts_with("key A: 0 is not a gap")), "{e:?}");
    let s = edit(&mut form, &s, ConfigEdit::KeyGap("A".into(), "".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(s.assigner, AssignerSpec::DynamicSession { default_gap: 10_000, gaps: BTreeMap::new() });
}

/// The course's triggers and DeltaEvictor round-trip: a loaded scenario's form shows them, an
/// edit of another field keeps them (it used to drop them), and the menu builds them.
#[test]
fn course_triggers_and_delta_evictor_round_trip() {
    let corpus = |name: &str| {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/flink-ext/scenarios/{name}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Scenario::from_json_str(&text).unwrap_or_else(|e| panic!("{e}"))
    };
    for name in [
        "course_early_count_every_2_then_watermark",
        "course_session_max_duration_boundary",
        "course_delta_evictor_value_before",
        "course_delta_evictor_fractional_threshold",
        "course_delta_evictor_ts_arrival_order",
        "course_delta_evictor_with_aggregate",
        "course_session_max_duration_two_keys_aggregate",
    ] {
        let s = corpus(name);
        let mut form = ConfigForm::default();
        // An edit elsewhere: the side output off and on again keeps trigger, evictor and function.
        let off =
            edit(&mut form, &s, ConfigEdit::SideOutput(!s.side_output)).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let back =
            edit(&mut form, &off, ConfigEdit::SideOutput(s.side_output)).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!((back.trigger, back.evictor, back.function), (s.trigger, s.evictor, s.function), "{name}");
        assert_eq!(back.assigner, s.assigner, "{name}");
    }
    // The menu builds each one from the form's fields.
    let s = base();
    let mut form = ConfigForm::default();
    let early = edit(&mut form, &s, ConfigEdit::Trigger(TriggerChoice::EarlyCount)).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(early.trigger.base, BaseTrigger::EarlyCount { n: 3 });
    let early =
        edit(&mut form, &early, ConfigEdit::Text(Field::TriggerN, "2".into())).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(early.trigger.base, BaseTrigger::EarlyCount { n: 2 });
    assert_eq!(form.view(&early).trigger, TriggerChoice::EarlyCount);
    let delta = edit(&mut form, &early, ConfigEdit::Evictor(EvictorChoice::Delta)).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        delta.evictor.map(|e| e.kind),
        Some(EvictorKind::Delta { threshold: Threshold(10.0), delta: DeltaFn::Value })
    );
    let delta = edit(&mut form, &delta, ConfigEdit::Text(Field::EvictorThreshold, "2.5".into()))
        .unwrap_or_else(|e| panic!("{e:?}"));
    let delta = edit(&mut form, &delta, ConfigEdit::DeltaFn(DeltaFn::Ts)).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        delta.evictor.map(|e| e.kind),
        Some(EvictorKind::Delta { threshold: Threshold(2.5), delta: DeltaFn::Ts })
    );
    assert_eq!((form.view(&delta).evictor_threshold.as_str(), form.view(&delta).evictor_delta), ("2.5", DeltaFn::Ts));
    let e = edit(&mut form, &delta, ConfigEdit::Text(Field::EvictorThreshold, "lots".into())).err().unwrap_or_default();
    assert!(e.get(&Field::EvictorThreshold).is_some_and(|m| m.contains("threshold is a double")), "{e:?}");
    // A session with a maximum duration.
    let mut form = ConfigForm::default();
    let session =
        edit(&mut form, &s, ConfigEdit::Assigner(AssignerChoice::Session)).unwrap_or_else(|e| panic!("{e:?}"));
    let capped = edit(&mut form, &session, ConfigEdit::Trigger(TriggerChoice::SessionMaxDuration))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(capped.trigger.base, BaseTrigger::SessionMaxDuration { max_duration: 60_000 });
    let capped = edit(&mut form, &capped, ConfigEdit::Text(Field::TriggerMaxDuration, "90s".into()))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(capped.trigger.base, BaseTrigger::SessionMaxDuration { max_duration: 90_000 });
    // The course's aggregates are in the function menu, and stay when loaded.
    assert_eq!(
        WindowFunctionSpec::from_value("latency_sketch"),
        Some(WindowFunctionSpec::Aggregate(crate::engine::aggregate::CourseAggregate::LatencySketch { k: 1000 }))
    );
}
