//! Engine benchmarks (criterion). Figures go to the README's table; `scripts/bench` runs them.
//!
//! - `assign/*`: 300k out-of-order elements over 8 keys through tumbling 60 s, sliding
//!   60 s/10 s and session windows, trace off (throughput) and on (what the UI records).
//! - `rerun_1000`: a 1,000-element scenario re-run from scratch with the full trace and the
//!   step view, which is what every drag frame costs.

use std::hint::black_box;

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

fn assign(c: &mut Criterion) {
    let mut group = c.benchmark_group("assign");
    group.sample_size(10);
    let n = 300_000;
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

fn rerun_1000(c: &mut Criterion) {
    let mut group = c.benchmark_group("rerun_1000");
    for (name, assigner) in [
        ("tumbling_60s", AssignerSpec::Tumbling { size: 60_000, offset: 0 }),
        ("sliding_60s_10s", AssignerSpec::Sliding { size: 60_000, slide: 10_000, offset: 0 }),
        ("session_gap_1s", AssignerSpec::Session { gap: 1_000 }),
    ] {
        let scenario = workload(1_000, assigner);
        group.bench_function(format!("{name}/run_and_view"), |b| {
            b.iter(|| {
                let r = run_with(black_box(&scenario), RunOptions::default());
                black_box(view::at_step(&r, r.steps / 2).windows.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, assign, rerun_1000);
criterion_main!(benches);
