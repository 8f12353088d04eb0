//! The cost of the dispatch path for a trivial tool, against calling the fn directly.
//!
//! `cargo bench -p agent-core --bench dispatch` prints, for the same `add(a, b)` tool:
//! the direct `.await` of the fn, `Dispatcher::dispatch` (lookup, schema validation,
//! deserializing the arguments, panic guard, serializing the output), the same plus the
//! confirmation decorator (approve-all), and the 2 KB result cap. The per-call overhead of
//! dispatch is the difference of the first two. Aim: under 10 µs.

use std::hint::black_box;

use std::sync::Arc;

use agent_core::{ApproveAll, Dispatcher, Registry, ResultCap, tool};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

/// Adds two numbers.
#[tool]
async fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> i64 {
    a + b
}

/// Adds two numbers, after a yes.
#[tool(destructive, summary = "{a} + {b}")]
async fn add_confirmed(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> i64 {
    a + b
}

fn dispatch(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let registry = Dispatcher::new(
        Arc::new(Registry::builder().discover().build().expect("registry")),
        ApproveAll,
    );
    let args = json!({"a": 20, "b": 22});

    let mut group = c.benchmark_group("dispatch");
    group.bench_function("direct fn call", |b| {
        b.iter(|| runtime.block_on(add(black_box(20), black_box(22))))
    });
    group.bench_function("Dispatcher::dispatch", |b| {
        b.iter(|| runtime.block_on(registry.dispatch("add", black_box(args.clone()))))
    });
    group.bench_function("Dispatcher::dispatch, destructive + approve-all", |b| {
        b.iter(|| runtime.block_on(registry.dispatch("add_confirmed", black_box(args.clone()))))
    });
    group.bench_function("clone of the args (included above)", |b| {
        b.iter(|| black_box(args.clone()))
    });
    let cap = ResultCap::default();
    let result = runtime.block_on(registry.dispatch("add", args.clone()));
    group.bench_function("ResultCap::apply (2 KB)", |b| {
        b.iter(|| cap.apply(black_box(&result)))
    });
    group.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
