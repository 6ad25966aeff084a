//! Engine benchmarks (criterion). Figures go to the README's table; `scripts/bench` runs them.
//!
//! - `assign/*`: 300k out-of-order elements over 8 keys through tumbling 60 s, sliding
//!   60 s/10 s and session windows, trace off (throughput) and on (what the UI records).
//! - `rerun_1000`: a 1,000-element scenario re-run from scratch with the full trace (`run`), and
//!   with the step view folded from it too (`run_and_view`), which is what every drag frame costs.
//!
//! Why the thread's CPU clock instead of criterion's wall clock: the targets are per core
//! ("2 M assignments/s on one core"), and this 2-core machine usually runs builds beside the
//! bench; wall time then measures the scheduler. CPU time still rises a little under load
//! (shared caches), so the README notes the load average with every figure.

use std::hint::black_box;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tidemark::engine::scenario::{AssignerSpec, Element, InputItem, WatermarkSpec};
use tidemark::engine::{RunOptions, Scenario, run_with, view};

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
                key: format!("k{}", r % 8),
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
    targets = assign, rerun_1000
}
criterion_main!(benches);
