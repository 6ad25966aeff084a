//! Import and lateness-report benchmarks (criterion, wall clock): 100,000 rows, the size the
//! page accepts.
//!
//! - `import/parse_*`: a 100,000-row CSV (20 keys, 2 partitions, ISO-8601 times with an offset,
//!   or epoch milliseconds) parsed into rows; `import/build`: the rows into a scenario (arrival
//!   order, the suggested bound).
//! - `lateness/*`: the report over the default bounds for tumbling 60 s, sliding 60 s/10 s
//!   (analytic) and session 30 s windows (late count analytic, outcomes from one engine run per
//!   bound), and tumbling from engine runs only (`tumbling_by_runs`, what the analytic way saves).
//!
//! Run with `nice -n 5 cargo bench --bench import`; the machine's load goes beside the figures.

use std::hint::black_box;

use chrono::DateTime;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tidemark::engine::Scenario;
use tidemark::engine::scenario::AssignerSpec;
use tidemark::import::{
    self, BadRowPolicy, Column, Format, ImportSpec, Mapping, Parsed, ScenarioOptions, TimeUnit, lateness,
};

const ROWS: usize = 100_000;

/// Deterministic rows: event time ~100 ms apart with heavy-tailed lateness (most under 1 s, one
/// in 50 up to 60 s), rows in arrival order.
fn csv(iso: bool) -> Vec<u8> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = String::from("key,event_time,value,partition\n");
    for i in 0..ROWS {
        let r = next();
        let delay = (if r % 50 == 0 { (r >> 8) % 60_000 } else { (r >> 8) % 1_000 }) as i64;
        let ts = 1_710_057_600_000 + i as i64 * 100 - delay;
        let time = if iso {
            DateTime::from_timestamp_millis(ts).map_or_else(String::new, |d| d.to_rfc3339())
        } else {
            ts.to_string()
        };
        out.push_str(&format!("sensor-{:02},{time},{},{}\n", (r >> 20) % 20, (r >> 30) % 100, (r >> 40) % 2));
    }
    out.into_bytes()
}

fn spec(iso: bool) -> ImportSpec {
    let name = |n: &str| Some(Column::Name(n.into()));
    ImportSpec {
        format: Format::CSV,
        has_header: true,
        mapping: Mapping {
            key: name("key"),
            ts: name("event_time"),
            value: name("value"),
            partition: name("partition"),
            ts_unit: if iso { TimeUnit::Iso } else { TimeUnit::Millis },
            ..Mapping::default()
        },
    }
}

fn parsed() -> Parsed {
    import::parse(csv(false), &spec(false)).expect("the bench's CSV parses")
}

fn scenario(assigner: AssignerSpec) -> Scenario {
    let options = ScenarioOptions { assigner, allowed_lateness: Some(2_000), ..ScenarioOptions::default() };
    import::build_scenario(&parsed(), BadRowPolicy::Cancel, &options).expect("the bench's rows build").scenario
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ROWS as u64));
    for iso in [true, false] {
        let bytes = csv(iso);
        let spec = spec(iso);
        let name = if iso { "parse_csv_iso_100k" } else { "parse_csv_ms_100k" };
        group.bench_function(name, |b| {
            b.iter(|| black_box(import::parse(bytes.clone(), &spec).map(|p| p.elements.len())))
        });
    }
    let rows = parsed();
    group.bench_function("build_100k", |b| {
        b.iter(|| {
            black_box(
                import::build_scenario(&rows, BadRowPolicy::Cancel, &ScenarioOptions::default())
                    .map(|i| i.scenario.input.len()),
            )
        })
    });
    group.finish();
}

fn report(c: &mut Criterion) {
    let mut group = c.benchmark_group("lateness");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ROWS as u64));
    let cases = [
        ("tumbling_100k", AssignerSpec::Tumbling { size: 60_000, offset: 0 }, false),
        ("sliding_100k", AssignerSpec::Sliding { size: 60_000, slide: 10_000, offset: 0 }, false),
        ("session_100k", AssignerSpec::Session { gap: 30_000 }, false),
        ("tumbling_by_runs_100k", AssignerSpec::Tumbling { size: 60_000, offset: 0 }, true),
    ];
    for (name, assigner, by_runs) in cases {
        let s = scenario(assigner);
        let bounds = lateness::default_bounds(&s);
        eprintln!("lateness/{name}: {} bounds", bounds.len());
        group.bench_function(name, |b| {
            b.iter(|| {
                let r = if by_runs { lateness::report_by_runs(&s, &bounds) } else { lateness::report(&s, &bounds) };
                black_box(r.map(|r| r.rows.len()))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, parse, report);
criterion_main!(benches);
