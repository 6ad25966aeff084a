//! Engine benchmarks (criterion). Figures go to the README's table; `scripts/bench` runs them.
//!
//! - `assign/*`: 300k out-of-order elements over 8 keys through tumbling 60 s, sliding
//!   60 s/10 s and session windows, trace off (throughput) and on (what the UI records).
//! - `rerun_1000`: a 1,000-element scenario re-run from scratch with the full trace (`run`), and
//!   with the step view folded from it too (`run_and_view`), which is what every drag frame costs.
//!
//! - `incremental/{n}/*`: issue 15's stream (20 keys, an element about every second with up to 20 s of
//!   disorder, bounded out-of-orderness 5 s) at 10k and 100k elements, one element of one key
//!   dragged without moving the watermark: a full run with the trace (`full`) against
//!   `engine::incremental::rerun` (`rerun`). `full` at 100k is also the run-with-trace figure
//!   that the compact `TraceEvent` moves.
//! - `fold_100k/*`: the step view at the middle of a 100k run: folded from zero (`at_step`),
//!   and one step forward then one back through the saved fold states (`FoldCache`).
//!
//! Why the thread's CPU clock instead of criterion's wall clock: the targets are per core
//! ("2 M assignments/s on one core"), and this 2-core machine usually runs builds beside the
//! bench; wall time then measures the scheduler. CPU time still rises a little under load
//! (shared caches), so the README notes the load average with every figure.

use std::hint::black_box;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tidemark::engine::incremental::{Rerun, rerun};
use tidemark::engine::scenario::{AssignerSpec, Element, InputItem, WatermarkSpec};
use tidemark::engine::{RunOptions, Scenario, run, run_with, view};

/// Deterministic pseudo-random out-of-order input: event time advances ~100 ms per element with
/// up to 5 s of jitter, 8 keys; bounded out-of-orderness 5 s makes the watermark.
fn workload(n: usize, assigner: AssignerSpec) -> Scenario {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let input = (0..n)
        .map(|i| {
            let r = next();
            InputItem::Element(Element {
                id: i as i64,
                key: format!("k{}", r % 8).into(),
                ts: (i as i64) * 100 + ((r >> 8) % 5_000) as i64,
                value: (r >> 20) as i64 % 100,
                ..Element::default()
            })
        })
        .collect();
    Scenario {
        assigner,
        allowed_lateness: Some(2_000),
        watermarks: WatermarkSpec::BoundedOutOfOrderness { bound: 5_000 },
        input,
        ..Scenario::default()
    }
}

fn assignments_per_element(assigner: &AssignerSpec) -> u64 {
    match assigner {
        AssignerSpec::Sliding { size, slide, .. } => (size / slide) as u64,
        _ => 1,
    }
}

fn assign(c: &mut Criterion<ThreadCpuTime>) {
    let mut group = c.benchmark_group("assign");
    group.sample_size(10);
    let n: usize = std::env::var("TIDEMARK_BENCH_N").ok().and_then(|v| v.parse().ok()).unwrap_or(300_000);
    for (name, assigner) in [
        ("tumbling_60s", AssignerSpec::Tumbling { size: 60_000, offset: 0 }),
        ("sliding_60s_10s", AssignerSpec::Sliding { size: 60_000, slide: 10_000, offset: 0 }),
        ("session_gap_1s", AssignerSpec::Session { gap: 1_000 }),
    ] {
        let scenario = workload(n, assigner.clone());
        group.throughput(Throughput::Elements(n as u64 * assignments_per_element(&assigner)));
        for (mode, trace) in [("no_trace", false), ("trace", true)] {
            group.bench_function(format!("{name}/{mode}"), |b| {
                b.iter(|| black_box(run_with(black_box(&scenario), RunOptions { trace })).outputs.len())
            });
        }
    }
    group.finish();
}

fn rerun_1000(c: &mut Criterion<ThreadCpuTime>) {
    let mut group = c.benchmark_group("rerun_1000");
    for (name, assigner) in [
        ("tumbling_60s", AssignerSpec::Tumbling { size: 60_000, offset: 0 }),
        ("sliding_60s_10s", AssignerSpec::Sliding { size: 60_000, slide: 10_000, offset: 0 }),
        ("session_gap_1s", AssignerSpec::Session { gap: 1_000 }),
    ] {
        let scenario = workload(1_000, assigner);
        // The re-run alone (issue 3's target), then with the step view the UI folds from it.
        group.bench_function(format!("{name}/run"), |b| {
            b.iter(|| black_box(run_with(black_box(&scenario), RunOptions::default()).trace.len()))
        });
        group.bench_function(format!("{name}/run_and_view"), |b| {
            b.iter(|| {
                let r = run_with(black_box(&scenario), RunOptions::default());
                black_box(view::at_step(&r, r.steps / 2).windows.len())
            })
        });
    }
    group.finish();
}

/// Issue 15's stream: 20 keys, event time about 1 s apart plus up to 20 s of disorder, bounded
/// out-of-orderness 5 s.
fn stream_20_keys(n: usize, assigner: AssignerSpec) -> Scenario {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let input = (0..n)
        .map(|i| {
            let r = next();
            InputItem::Element(Element {
                id: i as i64,
                key: format!("k{}", r % 20).into(),
                ts: (i as i64) * 1_000 + ((r >> 8) % 20_000) as i64,
                value: (r >> 20) as i64 % 100,
                ..Element::default()
            })
        })
        .collect();
    Scenario {
        assigner,
        watermarks: WatermarkSpec::BoundedOutOfOrderness { bound: 5_000 },
        input,
        ..Scenario::default()
    }
}

/// The drag: the first element from the middle on that is 2 s or more below the running maximum
/// timestamp, moved 1 s earlier (the watermark does not move).
fn drag_middle(s: &Scenario) -> Scenario {
    let mut next = s.clone();
    let ts = |it: &InputItem| match it {
        InputItem::Element(e) => e.ts,
        _ => i64::MIN,
    };
    let mut max = i64::MIN;
    let middle = s.input.len() / 2;
    for (i, it) in s.input.iter().enumerate() {
        if i >= middle && ts(it) + 2_000 <= max {
            if let InputItem::Element(e) = &mut next.input[i] {
                e.ts -= 1_000;
            }
            break;
        }
        max = max.max(ts(it));
    }
    next
}

const ISSUE_15_ASSIGNERS: [(&str, AssignerSpec); 3] = [
    ("tumbling_30s", AssignerSpec::Tumbling { size: 30_000, offset: 0 }),
    ("sliding_60s_20s", AssignerSpec::Sliding { size: 60_000, slide: 20_000, offset: 0 }),
    ("session_gap_1500ms", AssignerSpec::Session { gap: 1_500 }),
];

fn incremental(c: &mut Criterion<ThreadCpuTime>) {
    let mut group = c.benchmark_group("incremental");
    group.sample_size(10);
    group.warm_up_time(std::time::Duration::from_secs(1));
    group.measurement_time(std::time::Duration::from_secs(3));
    for n in [10_000, 100_000] {
        for (name, assigner) in ISSUE_15_ASSIGNERS {
            let s = stream_20_keys(n, assigner);
            let next = drag_middle(&s);
            let base = run(&s);
            let (_, how) = rerun(&s, &base, &next);
            assert!(matches!(how, Rerun::Incremental { .. }), "{name} {n}: {how:?}");
            group.bench_function(format!("{n}/{name}/full"), |b| {
                b.iter(|| black_box(run(black_box(&next)).trace.len()))
            });
            group.bench_function(format!("{n}/{name}/rerun"), |b| {
                b.iter(|| black_box(rerun(&s, &base, black_box(&next)).0.trace.len()))
            });
        }
    }
    group.finish();
}

fn fold_100k(c: &mut Criterion<ThreadCpuTime>) {
    let mut group = c.benchmark_group("fold_100k");
    group.sample_size(10);
    group.warm_up_time(std::time::Duration::from_secs(1));
    group.measurement_time(std::time::Duration::from_secs(3));
    for (name, assigner) in ISSUE_15_ASSIGNERS {
        let r = run(&stream_20_keys(100_000, assigner));
        let mid = r.steps / 2 + 7;
        group.bench_function(format!("{name}/at_step_from_zero"), |b| {
            b.iter(|| black_box(view::at_step(&r, black_box(mid)).windows.len()))
        });
        let mut cache = view::FoldCache::new(&r);
        cache.at(&r, r.steps);
        cache.at(&r, mid);
        group.bench_function(format!("{name}/step_forward_then_back"), |b| {
            b.iter(|| {
                let forward = cache.at(&r, mid + 1).windows.len();
                black_box(forward + cache.at(&r, mid).windows.len())
            })
        });
    }
    group.finish();
}

/// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), in nanoseconds.
struct ThreadCpuTime;

fn thread_cpu_nanos() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec we pass; the clock id is valid on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_nanos()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_nanos().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuTimeFormatter
    }
}

/// Criterion's own duration formatter is private; this prints the same units (time per
/// iteration, elements per second) for CPU nanoseconds.
struct CpuTimeFormatter;

impl ValueFormatter for CpuTimeFormatter {
    fn scale_values(&self, typical_ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical_ns {
            t if t < 1e3 => (1.0, "ns (cpu)"),
            t if t < 1e6 => (1e-3, "µs (cpu)"),
            t if t < 1e9 => (1e-6, "ms (cpu)"),
            _ => (1e-9, "s (cpu)"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    fn scale_throughputs(&self, _typical_ns: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let (Throughput::Elements(n) | Throughput::Bytes(n) | Throughput::BytesDecimal(n) | Throughput::Bits(n)) =
            *throughput;
        let per_iteration = n as f64;
        values.iter_mut().for_each(|ns| *ns = per_iteration * 1e9 / *ns / 1e6);
        "M/s (cpu)"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpuTime);
    targets = assign, rerun_1000, incremental, fold_100k
}
criterion_main!(benches);
