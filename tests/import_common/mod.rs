//! The seeded data of `tests/data/` (see `generate.py`) and the mapping of each of its files,
//! shared by the import tests.
// Each test binary uses part of these helpers.
#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value;

use tidemark::import::{
    self, BadRowPolicy, Column, Format, ImportSpec, Mapping, ScenarioOptions, TimeUnit, UtcOffset, build_scenario,
};

pub fn data(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn manifest() -> Value {
    serde_json::from_slice(&data("sensors.manifest.json")).expect("manifest")
}

pub fn name(n: &str) -> Option<Column> {
    Some(Column::Name(n.into()))
}

/// The mapping of each encoding of the sensor stream (key, event time, value, partition, arrival).
pub fn sensors_spec(file: &str) -> ImportSpec {
    let (format, key, ts, value, partition, arrival, unit, arrival_unit, offset) = match file {
        "sensors.csv" => (
            Format::CSV,
            "sensor",
            "event_time",
            "reading",
            "partition",
            "ingest_ms",
            TimeUnit::Iso,
            Some(TimeUnit::Millis),
            None,
        ),
        "sensors.tsv" => {
            (Format::TSV, "sensor", "ts_ms", "reading", "partition", "ingest_ms", TimeUnit::Millis, None, None)
        }
        "sensors.jsonl" => (
            Format::JsonLines,
            "sensor",
            "ts",
            "reading",
            "meta.partition",
            "meta.ingest_ms",
            TimeUnit::Seconds,
            Some(TimeUnit::Millis),
            None,
        ),
        "sensors_local.csv" => (
            Format::Delimited { delimiter: b';' },
            "device",
            "time",
            "value",
            "partition",
            "received",
            TimeUnit::Iso,
            None,
            UtcOffset::parse("+01:00"),
        ),
        other => panic!("no spec for {other}"),
    };
    ImportSpec {
        format,
        has_header: format != Format::JsonLines,
        mapping: Mapping {
            key: name(key),
            ts: name(ts),
            value: name(value),
            partition: name(partition),
            arrival: name(arrival),
            ts_unit: unit,
            arrival_unit,
            offset,
        },
    }
}

pub fn import_sensors(file: &str, options: &ScenarioOptions) -> import::Imported {
    let parsed = import::parse(data(file), &sensors_spec(file)).expect(file);
    assert_eq!((parsed.bad_row_count, parsed.bad_rows.len()), (0, 0), "{file}: {:?}", parsed.bad_rows.first());
    build_scenario(&parsed, BadRowPolicy::Cancel, options).expect(file)
}
