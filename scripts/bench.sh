#!/usr/bin/env bash
# Speed figures of the Gemma backend (issue 12) in one command: builds llama.cpp's C reference
# (minibench, from ../shared/bench/ beside the workspace, against the llama.cpp of the locked
# llama-cpp-sys-2), then runs `cargo bench -p habit-demo --bench gemma`, which runs the
# reference itself with the same threads and prints both side by side.
#   scripts/bench.sh                      # default threads (auto), 5 repetitions
#   GEMMA_THREADS=2 BENCH_REPS=3 scripts/bench.sh
#   BENCH_QUICK=1 scripts/bench.sh        # smoke test of the bench, not figures
#   BENCH_ONLY=calls,first scripts/bench.sh
# Run it on an idle machine: figures taken beside a build or a test measure those instead.
# Without the reference (no ../shared/bench, or MINIBENCH_BUILD pointing nowhere, and no
# /tmp/minibench/minibench), the project's figures are printed without ratios. A minibench
# already in /tmp/minibench is reused as it is: delete it to rebuild against another llama.cpp.
# The model: $GEMMA_MODEL or the cache of scripts/fetch-model.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '==> %s\n' "$*" >&2; }

step "checking build prerequisites"
scripts/prereqs.sh
if [[ -z "${GEMMA_MODEL:-}" ]]; then
    step "model"
    GEMMA_MODEL="$(scripts/fetch-model.sh | tail -n 1)"
fi
export GEMMA_MODEL
# Unset, the bench runs with the library's default (`auto`: the cores other processes leave
# free) and gives the C reference the count that chose.

build_script="${MINIBENCH_BUILD:-../shared/bench/build-minibench.sh}"
if [[ -z "${MINIBENCH:-}" && -f "$build_script" ]]; then
    if [[ -z "${LLAMA_SRC:-}" ]]; then
        # The llama.cpp this workspace builds, not just the newest one in cargo's registry.
        version="$(awk '/^name = "llama-cpp-sys-2"$/ { getline; gsub(/version = |"/, ""); print }' Cargo.lock)"
        source_dir="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"llama-cpp-sys-2-$version"/llama.cpp 2>/dev/null | head -n 1 || true)"
        if [[ -z "$source_dir" ]]; then
            step "fetching llama-cpp-sys-2 $version's sources"
            cargo fetch --locked
            source_dir="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"llama-cpp-sys-2-$version"/llama.cpp | head -n 1)"
        fi
        export LLAMA_SRC="$source_dir"
    fi
    step "building the C reference (the first build compiles llama.cpp: minutes)"
    MINIBENCH="$(bash "$build_script" | tail -n 1)"
    export MINIBENCH
elif [[ -z "${MINIBENCH:-}" ]]; then
    step "$build_script not found: the bench uses /tmp/minibench/minibench if it is there, else prints no C reference"
fi

step "running the bench (threads: ${GEMMA_THREADS:-auto}; the first build compiles llama.cpp: minutes)"
exec cargo bench -p habit-demo --bench gemma
