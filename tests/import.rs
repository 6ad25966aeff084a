//! Import of CSV, TSV and JSON Lines (`tidemark::import`) over the seeded data in `tests/data/`
//! (see `generate.py`: heavy-tailed delays, a quiet partition, a burst, ISO timestamps with
//! zones, quoted fields, a BOM): every encoding gives the same stream, previews guess the
//! mapping, bad rows are reported by line, limits are errors, the chunked parse equals the whole.

mod import_common;

use import_common::{data, import_sensors, manifest, name, sensors_spec};
use tidemark::engine::Scenario;
use tidemark::engine::scenario::{AssignerSpec, Element, WatermarkSpec};
use tidemark::import::lateness::round_up_two_digits;
use tidemark::import::{
    self, BadRowPolicy, Column, Format, ImportError, ImportJob, ImportSpec, Limits, Mapping, Role, ScenarioOptions,
    TimeUnit, UtcOffset, Warning, build_scenario, preview,
};

fn elements(s: &Scenario) -> Vec<&Element> {
    s.elements().collect()
}

/// CSV with a BOM, zoned ISO times and quoted fields; TSV in epoch ms; JSON Lines in decimal epoch
/// seconds with nested fields; `;`-CSV with naive local times at +01:00: one and the same
/// stream, element for element, in arrival order. Ids are the line numbers of each file (the
/// CSV's note spanning two lines shifts the CSV's later ids by one).
#[test]
fn every_encoding_gives_the_same_stream() {
    let m = manifest();
    let options = ScenarioOptions::default();
    let csv = import_sensors("sensors.csv", &options);
    let s = &csv.scenario;
    let es = elements(s);
    assert_eq!(es.len() as u64, m["rows"].as_u64().expect("rows"));
    let keys: std::collections::BTreeSet<&str> = es.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys.len() as u64, m["keys"].as_u64().expect("keys"));
    assert!(keys.contains("Hall B, east") && keys.contains("door \"front\"") && keys.contains("Café-3"), "{keys:?}");
    assert_eq!(s.partition_count(), 3);
    for p in 0..3u32 {
        let n = es.iter().filter(|e| e.partition == p).count() as u64;
        assert_eq!(n, m["per_partition"][p.to_string()].as_u64().expect("count"), "partition {p}");
    }
    assert_eq!(es.iter().map(|e| e.ts).min(), m["first_ts"].as_i64());
    assert_eq!(es.iter().map(|e| e.ts).max(), m["last_ts"].as_i64());
    // The burst: 150 readings of sensor-06, 10 ms apart, from 300 s.
    let burst = es
        .iter()
        .filter(|e| {
            e.key == "sensor-06"
                && (e.ts - 1_710_057_900_000) % 10 == 0
                && e.ts >= 1_710_057_900_000
                && e.ts < 1_710_057_901_500
        })
        .count();
    assert!(burst >= 150, "{burst}");
    // Arrival: file order is arrival order; processing time is shifted back by whole hours.
    assert_eq!(csv.arrival_shift, 1_710_057_600_000);
    let arrivals: Vec<i64> = es.iter().map(|e| e.arrival.expect("arrival")).collect();
    assert!(arrivals.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(arrivals[0], 947);
    // Ids are lines: the header is line 1, the note with a line break is on row `note`.
    let note = m["multi_line_note_row"].as_u64().expect("row") as usize;
    for (i, e) in es.iter().enumerate() {
        let line = i as i64 + 2 + i64::from(i > note);
        assert_eq!(e.id, line, "row {i}");
    }
    let strip = |s: &Scenario| -> Vec<(String, i64, i64, u32, Option<i64>)> {
        s.elements().map(|e| (e.key.to_string(), e.ts, e.value, e.partition, e.arrival)).collect()
    };
    for file in ["sensors.tsv", "sensors.jsonl", "sensors_local.csv"] {
        let other = import_sensors(file, &options);
        assert_eq!(strip(&other.scenario), strip(s), "{file}");
        assert_eq!(other.suggestion, csv.suggestion, "{file}");
        let ids: Vec<i64> = other.scenario.elements().map(|e| e.id).collect();
        let first_line = if file.ends_with(".jsonl") { 1 } else { 2 };
        assert_eq!(ids, (first_line..first_line + es.len() as i64).collect::<Vec<_>>(), "{file}: ids are lines");
    }
    // Loads as any scenario does, and round-trips through the JSON format.
    let again = Scenario::from_value(&s.to_json()).expect("valid scenario");
    assert_eq!(&again, s);
    assert_eq!(s.watermarks, WatermarkSpec::BoundedOutOfOrderness { bound: 7200 });
}

/// The suggested bound follows the rule, checked against the generator's own computation:
/// the 99th percentile of per-partition disorder, rounded up to two digits.
#[test]
fn suggested_bound_matches_the_generators_model() {
    let m = manifest();
    let with = import_sensors("sensors.csv", &ScenarioOptions::default()).suggestion;
    let expect = &m["suggestion_with_partitions"];
    assert_eq!(with.bound, expect["bound"].as_i64().expect("bound"));
    assert_eq!(with.quantile_disorder, expect["quantile_disorder"].as_i64().expect("q"));
    assert_eq!(with.max_disorder, expect["max_disorder"].as_i64().expect("max"));
    assert_eq!(with.out_of_order, expect["out_of_order"].as_u64().expect("ooo"));
    let mut spec = sensors_spec("sensors.csv");
    spec.mapping.partition = None;
    let parsed = import::parse(data("sensors.csv"), &spec).expect("parse");
    let one = build_scenario(&parsed, BadRowPolicy::Cancel, &ScenarioOptions::default()).expect("build").suggestion;
    assert_eq!(one.bound, m["suggestion_one_partition"]["bound"].as_i64().expect("bound"));
    assert_eq!(one.quantile_disorder, m["suggestion_one_partition"]["quantile_disorder"].as_i64().expect("q"));
    assert_eq!([round_up_two_digits(4732), round_up_two_digits(12_345), round_up_two_digits(87)], [4800, 13_000, 87]);
    assert_eq!(round_up_two_digits(7100), 7100);
}

/// The preview sniffs the format and header and guesses every column and unit of each file.
#[test]
fn preview_guesses_the_mapping() {
    for file in ["sensors.csv", "sensors.tsv", "sensors.jsonl", "sensors_local.csv"] {
        let p = preview(&data(file), 5).expect(file);
        assert!(p.whole_file, "{file}");
        assert_eq!(p.rows.len(), 5);
        assert_eq!(p.spec, sensors_spec(file).clone_without_offset(), "{file}");
    }
    let p = preview(&data("sensors.csv"), 3).expect("preview");
    assert_eq!(p.rows[0].line, 2);
    assert_eq!(
        p.rows[0].cells,
        ["2024-03-10T10:00:00.572+02:00", "sensor-05", "150", "1", "1710057600947", "said \"hi\""]
    );
    let names: Vec<&str> = p.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["event_time", "sensor", "reading", "partition", "ingest_ms", "note"],
        "the BOM is not in a name"
    );
    let kinds: Vec<import::ColumnKind> = p.columns.iter().map(|c| c.kind).collect();
    use import::ColumnKind as K;
    assert_eq!(kinds, [K::DateTime, K::Text, K::Integer, K::Integer, K::Integer, K::Text]);
    assert_eq!(p.unit_of(&Column::Name("ingest_ms".into())), TimeUnit::Millis);
    assert_eq!(p.unit_of(&Column::Name("EVENT_TIME".into())), TimeUnit::Iso);
    // Naive local times: the trial parse asks for the offset, then says it used it.
    let local = preview(&data("sensors_local.csv"), 1).expect("preview");
    assert_eq!(local.columns[0].kind, K::NaiveDateTime);
    match local.trial(&local.spec) {
        Err(ImportError::NeedsOffset { role: Role::EventTime, line: 2, text }) => {
            assert_eq!(text, "2024-03-10 09:00:00.572")
        }
        other => panic!("{other:?}"),
    }
    let parsed = local.trial(&sensors_spec("sensors_local.csv")).expect("trial");
    assert_eq!(parsed.elements.len(), 1067);
    assert!(parsed.warnings.contains(&Warning::NaiveTimestamps {
        role: Role::EventTime,
        count: 1067,
        offset: UtcOffset { minutes: 60 }
    }));
    // A headerless file: positions, not names.
    let headerless = preview(b"A,1710057600000,3\nB,1710057601000,4\nA,1710057602000,5\n", 10).expect("preview");
    assert!(!headerless.spec.has_header);
    assert_eq!(headerless.spec.mapping.key, Some(Column::Index(0)));
    assert_eq!(headerless.spec.mapping.ts, Some(Column::Index(1)));
    assert_eq!(headerless.spec.mapping.ts_unit, TimeUnit::Millis);
    assert_eq!(headerless.columns[2].name, "column 3");
}

trait WithoutOffset {
    fn clone_without_offset(&self) -> ImportSpec;
}

impl WithoutOffset for ImportSpec {
    /// A preview cannot know the offset of naive times: the user gives it.
    fn clone_without_offset(&self) -> ImportSpec {
        let mut s = self.clone();
        s.mapping.offset = None;
        s
    }
}

fn bad_rows_spec() -> ImportSpec {
    ImportSpec {
        format: Format::CSV,
        has_header: true,
        mapping: Mapping {
            key: name("sensor"),
            ts: name("event_time"),
            value: name("reading"),
            partition: name("partition"),
            ts_unit: TimeUnit::Iso,
            ..Mapping::default()
        },
    }
}

/// Every bad row is reported with its line and reason (a quoted key spanning two lines and a
/// blank line included); cancel loads nothing, skip loads the rest and counts what it left out.
#[test]
fn bad_rows_are_reported_with_lines_then_skipped_or_cancelled() {
    let m = manifest();
    let parsed = import::parse(data("bad_rows.csv"), &bad_rows_spec()).expect("parse");
    let expected = m["bad_rows"]["bad"].as_array().expect("bad rows");
    assert_eq!(parsed.bad_rows.len(), expected.len());
    for (got, want) in parsed.bad_rows.iter().zip(expected) {
        assert_eq!(got.line, want["line"].as_u64().expect("line"));
        assert!(got.reason.starts_with(want["reason"].as_str().expect("reason")), "line {}: {}", got.line, got.reason);
    }
    assert_eq!(parsed.rows, m["bad_rows"]["rows"].as_u64().expect("rows"));
    assert_eq!(parsed.elements.len() as u64, m["bad_rows"]["good"].as_u64().expect("good"));
    assert_eq!(parsed.bad_rows[3].to_string(), "line 12: has 2 field(s), so no value column 'reading'");
    match build_scenario(&parsed, BadRowPolicy::Cancel, &ScenarioOptions::default()) {
        Err(ImportError::BadRows { count: 6, first }) => assert_eq!(first[0].line, 4),
        other => panic!("{other:?}"),
    }
    let imported = build_scenario(&parsed, BadRowPolicy::Skip, &ScenarioOptions::default()).expect("skip");
    assert_eq!(imported.skipped, 6);
    let ids: Vec<i64> = imported.scenario.elements().map(|e| e.id).collect();
    assert_eq!(ids, [2, 3, 5, 6, 8, 10, 11, 13, 14, 16, 18, 19, 21, 23]);
    let multi = imported.scenario.elements().find(|e| e.id == 14).expect("line 14");
    assert_eq!(multi.key, "multi\nline");
    assert!(imported.scenario.description.contains("6 bad rows skipped"));
}

/// Cells that are not what their role needs: each a bad row naming the reason.
#[test]
fn bad_cells_name_the_reason() {
    let long = "k".repeat(201);
    let text = format!(
        "key,ts,v,p\n{long},5,1,0\nA,,1,0\nA,5,x,0\nA,5,1,-1\nA,abc,1,0\nA,2024-03-10T12:00:00Z,1,0\nA,5,1.0,63\n\"B\",\"7\",\"+2\",\"1\"\n"
    );
    let spec = ImportSpec {
        format: Format::CSV,
        has_header: true,
        mapping: Mapping {
            key: name("key"),
            ts: name("ts"),
            value: name("v"),
            partition: name("p"),
            ..Mapping::default()
        },
    };
    let parsed = import::parse(text.into_bytes(), &spec).expect("parse");
    let reasons: Vec<String> = parsed.bad_rows.iter().map(ToString::to_string).collect();
    assert_eq!(
        reasons,
        [
            "line 2: the key is longer than 200 characters",
            "line 3: the event time is empty",
            "line 4: the value 'x' is not a whole number (Tidemark sums 64-bit integers)",
            "line 5: the partition '-1' is not a number from 0 to 63",
            "line 6: the event time 'abc' is not a number of epoch milliseconds",
            "line 7: the event time '2024-03-10T12:00:00Z' is a date-time, not epoch milliseconds (choose ISO-8601 for this column)",
        ]
    );
    let got: Vec<(String, i64, i64, u32)> =
        parsed.elements.iter().map(|e| (e.key.to_string(), e.ts, e.value, e.partition)).collect();
    assert_eq!(got, [("A".to_string(), 5, 1, 63), ("B".to_string(), 7, 2, 1)]);
    // JSON Lines: invalid JSON, a non-object, null, nested values, missing fields, not UTF-8.
    let jsonl = b"{\"k\": \"A\", \"t\": 5}\n{\"k\": \"A\", \"t\": \n[1, 2]\n{\"k\": null, \"t\": 5}\n{\"k\": {\"x\": 1}, \"t\": 5}\n{\"t\": 5}\n\n{\"k\": 12, \"t\": \"6\"}\n";
    let spec = ImportSpec {
        format: Format::JsonLines,
        has_header: false,
        mapping: Mapping { key: name("k"), ts: name("t"), ..Mapping::default() },
    };
    let parsed = import::parse(jsonl.to_vec(), &spec).expect("parse");
    let reasons: Vec<String> = parsed.bad_rows.iter().map(ToString::to_string).collect();
    assert_eq!(reasons.len(), 5, "{reasons:?}");
    assert!(reasons[0].starts_with("line 2: is not valid JSON: "), "{reasons:?}");
    assert_eq!(reasons[1], "line 3: is JSON but not an object: '[1,2]'");
    assert_eq!(reasons[2], "line 4: the key is null");
    assert_eq!(reasons[3], "line 5: the key is an object or array, not a value");
    assert_eq!(reasons[4], "line 6: has no key field 'k'");
    assert_eq!(
        parsed.elements.iter().map(|e| (e.line, e.key.as_str(), e.ts)).collect::<Vec<_>>(),
        [(1, "A", 5), (8, "12", 6)]
    );
    let latin1 = b"key,ts\nCaf\xe9,5\n".to_vec();
    let spec = ImportSpec {
        format: Format::CSV,
        has_header: true,
        mapping: Mapping { key: name("key"), ts: name("ts"), ..Mapping::default() },
    };
    let parsed = import::parse(latin1, &spec).expect("parse");
    assert_eq!(parsed.bad_rows[0].to_string(), "line 2: the key is not UTF-8 text (invalid byte after 3 bytes)");
}

/// Problems with the file or the mapping as a whole: errors before anything is loaded.
#[test]
fn file_level_problems_are_errors() {
    let spec = |format: Format, key: Column| ImportSpec {
        format,
        has_header: true,
        mapping: Mapping { key: Some(key), ts: name("ts"), ..Mapping::default() },
    };
    let err = |bytes: &[u8], spec: &ImportSpec| import::parse(bytes.to_vec(), spec).err().map(|e| e.to_string());
    assert_eq!(
        err(b"k,ts\nA,1\n", &spec(Format::CSV, Column::Name("user".into()))).as_deref(),
        Some("the key column 'user' is not in the file (columns: 'k', 'ts')")
    );
    assert_eq!(
        err(b"{}\n", &spec(Format::JsonLines, Column::Index(0))).as_deref(),
        Some("the key column must be a field name in JSON Lines, not a position")
    );
    assert_eq!(
        err(b"\xFF\xFEk\x00", &spec(Format::CSV, Column::Index(0))).as_deref(),
        Some("line 1: the file is UTF-16 text; save it as UTF-8")
    );
    let no_ts = ImportSpec {
        mapping: Mapping { ts: None, ..spec(Format::CSV, Column::Index(0)).mapping },
        ..spec(Format::CSV, Column::Index(0))
    };
    assert_eq!(import::parse(b"k\n".to_vec(), &no_ts).err(), Some(ImportError::Unmapped(Role::EventTime)));
    // A column given by its 1-based position when no header has that name.
    let parsed = import::parse(b"k,ts\nA,1\n".to_vec(), &spec(Format::CSV, Column::Name("1".into()))).expect("parse");
    assert_eq!(parsed.elements[0].key, "A");
    // Only a header: nothing to load.
    let parsed = import::parse(b"k,ts\n".to_vec(), &spec(Format::CSV, Column::Index(0))).expect("parse");
    assert_eq!(
        build_scenario(&parsed, BadRowPolicy::Cancel, &ScenarioOptions::default()).err(),
        Some(ImportError::Empty)
    );
    assert_eq!(preview(b"", 5).err(), Some(ImportError::Empty));
}

/// Over a limit: a clear error naming the line, never a truncated scenario.
#[test]
fn limits_are_errors_not_truncation() {
    let spec = sensors_spec("sensors.tsv");
    let job = ImportJob::new(data("sensors.tsv"), &spec)
        .expect("job")
        .with_limits(Limits { max_elements: 10, max_keys: 1000 });
    assert_eq!(job.finish().err(), Some(ImportError::TooManyElements { limit: 10, line: 12 }));
    let job = ImportJob::new(data("sensors.tsv"), &spec)
        .expect("job")
        .with_limits(Limits { max_elements: 10_000, max_keys: 3 });
    match job.finish() {
        Err(ImportError::TooManyKeys { limit: 3, line }) => assert!(line > 4),
        other => panic!("{other:?}"),
    }
    // The page's own limits (engine::scenario::limits): 100,000 elements, 10,000 keys.
    let key_spec = ImportSpec {
        format: Format::CSV,
        has_header: false,
        mapping: Mapping { key: Some(Column::Index(0)), ts: Some(Column::Index(1)), ..Mapping::default() },
    };
    let many_keys: String = (0..10_001).map(|i| format!("k{i},{i}\n")).collect();
    assert_eq!(
        import::parse(many_keys.into_bytes(), &key_spec).err(),
        Some(ImportError::TooManyKeys { limit: 10_000, line: 10_001 })
    );
    let many: String = (0..100_001).map(|i| format!("k{},{i}\n", i % 10)).collect();
    assert_eq!(
        import::parse(many.into_bytes(), &key_spec).err(),
        Some(ImportError::TooManyElements { limit: 100_000, line: 100_001 })
    );
    // Sliding windows beyond the element-window assignments limit.
    let parsed = import::parse(data("sensors.tsv"), &spec).expect("parse");
    let options = ScenarioOptions {
        assigner: AssignerSpec::Sliding { size: 3_600_000, slide: 1000, offset: 0 },
        ..ScenarioOptions::default()
    };
    match build_scenario(&parsed, BadRowPolicy::Cancel, &options) {
        Err(ImportError::Scenario(e)) => assert!(e.to_string().contains("element-window assignments"), "{e}"),
        other => panic!("{other:?}"),
    }
}

/// The chunked parse (what a Web Worker runs) gives exactly the whole parse, with progress
/// that only grows and ends at the file size; the callback can cancel.
#[test]
fn chunked_parse_equals_whole_parse_with_progress() {
    for file in ["sensors.csv", "sensors.jsonl"] {
        let spec = sensors_spec(file);
        let whole = import::parse(data(file), &spec).expect("whole");
        let mut seen = Vec::new();
        let chunked = import::parse_with_progress(data(file), &spec, 100, |p| {
            seen.push(p);
            true
        })
        .expect("chunked");
        assert_eq!(chunked, whole, "{file}");
        assert_eq!(seen.len(), 11, "{file}: 1067 rows in chunks of 100, the last one ending the file");
        assert!(seen.windows(2).all(|w| w[0].bytes_read <= w[1].bytes_read && w[0].rows <= w[1].rows));
        let last = seen[seen.len() - 1];
        assert!(last.done && last.bytes_read == last.total_bytes && last.total_bytes == data(file).len() as u64);
        assert_eq!(seen[0].rows, 100);
        let mut calls = 0;
        let cancelled = import::parse_with_progress(data(file), &spec, 100, |_| {
            calls += 1;
            calls < 3
        });
        assert_eq!((cancelled.err(), calls), (Some(ImportError::Cancelled), 3));
    }
}

/// Seconds read as milliseconds (the course's failure): a warning before loading, with the
/// dates both ways; the span of one window says the same for relative times.
#[test]
fn a_likely_unit_mistake_is_warned() {
    let spec = |unit| ImportSpec {
        format: Format::CSV,
        has_header: true,
        mapping: Mapping { key: name("sensor"), ts: name("ts"), ts_unit: unit, ..Mapping::default() },
    };
    let p = preview(&data("sensors_seconds.csv"), 0).expect("preview");
    assert_eq!(p.spec.mapping.ts_unit, TimeUnit::Seconds, "the guess is right");
    let wrong = import::parse(data("sensors_seconds.csv"), &spec(TimeUnit::Millis)).expect("parse");
    let Some(Warning::LikelyUnitMistake {
        role: Role::EventTime,
        chosen: TimeUnit::Millis,
        likely: TimeUnit::Seconds,
        ..
    }) = wrong.warnings.first()
    else {
        panic!("{:?}", wrong.warnings)
    };
    let message = wrong.warnings[0].message();
    assert!(
        message.starts_with("the event time column read as epoch milliseconds puts the median at 1970-01-20 "),
        "{message}"
    );
    assert!(message.contains("read as epoch seconds it is 2024-03-10 08:0"), "{message}");
    let imported = build_scenario(&wrong, BadRowPolicy::Cancel, &ScenarioOptions::default()).expect("build");
    assert!(
        imported
            .warnings
            .iter()
            .any(|w| matches!(w, Warning::SpanWithinOneWindow { elements: 200, window: 60_000, .. })),
        "{:?}",
        imported.warnings
    );
    let right = import::parse(data("sensors_seconds.csv"), &spec(TimeUnit::Seconds)).expect("parse");
    assert_eq!(right.warnings, []);
    assert_eq!(
        preview(&data("sensors_seconds.csv"), 0).expect("p").trial(&spec(TimeUnit::Millis)).expect("t").warnings.len(),
        1
    );
}

/// With an arrival column, elements load in arrival order (ties in file order), whatever the
/// file order.
#[test]
fn arrival_column_sets_the_order() {
    let text = b"k,ts,arrival\nA,10,3000\nB,20,1000\nC,30,3000\nD,40,2000\n".to_vec();
    let spec = ImportSpec {
        format: Format::CSV,
        has_header: true,
        mapping: Mapping { key: name("k"), ts: name("ts"), arrival: name("arrival"), ..Mapping::default() },
    };
    let parsed = import::parse(text, &spec).expect("parse");
    let s = build_scenario(&parsed, BadRowPolicy::Cancel, &ScenarioOptions::default()).expect("build").scenario;
    let order: Vec<(&str, Option<i64>)> = s.elements().map(|e| (e.key.as_str(), e.arrival)).collect();
    assert_eq!(order, [("B", Some(1000)), ("D", Some(2000)), ("A", Some(3000)), ("C", Some(3000))]);
}

/// The committed files are exactly the generator's output (`generate.py --check`), so the
/// counts above are the seeded script's, not hand edits.
#[test]
fn data_files_are_the_generators_output() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/generate.py");
    let out = std::process::Command::new("python3").arg(&script).arg("--check").output().expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
