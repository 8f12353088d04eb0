#!/usr/bin/env bash
# Runs the Korean habit coach demo — the README's first command. On a fresh clone it:
#   1. checks (and on Debian/Ubuntu installs) cmake, a C++ compiler, libclang, python3/pip
#   2. fetches the Gemma 3 270M model once (~253 MB, verified, cached in ~/.cache/agent-rs)
#   3. builds habit-demo in release mode (the first build compiles llama.cpp: minutes)
#   4. runs `habit-demo prepare`: a model's one-time start-up work (its preamble evaluated, the
#      tools' examples read: ~12 s on 2 cores, kept in ~/.cache/agent-rs/prefix), so that the
#      chat's first message never waits for it; on a prepared machine it restores the files (~1.5 s)
#   5. starts the chat, passing its arguments through:
#        scripts/demo.sh --help            all flags
#        scripts/demo.sh --db /tmp/h.db    a throwaway habit database
#        scripts/demo.sh --model other.gguf
# With $GEMMA_MODEL or --model set, step 2 is skipped.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '==> %s\n' "$*" >&2; }

step "checking build prerequisites"
scripts/prereqs.sh

explicit_model=""
for arg in "$@"; do
    case "$arg" in
    --model | --model=*) explicit_model=yes ;;
    esac
done
if [[ -z "$explicit_model" && -z "${GEMMA_MODEL:-}" ]]; then
    step "model"
    GEMMA_MODEL="$(scripts/fetch-model.sh | tail -n 1)"
    export GEMMA_MODEL
fi

step "building habit-demo (release; the first build compiles llama.cpp and takes several minutes)"
cargo build --release -p habit-demo

# Asked of cargo rather than assumed, so CARGO_TARGET_DIR and cargo config are honoured.
target_dir="$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
demo="$target_dir/release/habit-demo"

# Prepared for the model the chat will load (--model, else $GEMMA_MODEL); not for the other
# modes, for --help/--version, or for the hidden scripted test mode, which loads no model.
prepare=yes
prepare_args=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[i]}" in
    mcp | prepare | -h | --help | -V | --version | --script | --script=*) prepare="" ;;
    --model | --threads) prepare_args+=("${args[i]}" "${args[i + 1]:-}") && i=$((i + 1)) ;;
    --model=* | --threads=*) prepare_args+=("${args[i]}") ;;
    --db | --max-turns | --script-log) i=$((i + 1)) ;;
    esac
done
if [[ -n "$prepare" ]]; then
    step "preparing the model for the habit tools (once per model: later runs restore it)"
    "$demo" prepare "${prepare_args[@]}"
fi

exec "$demo" "$@"
