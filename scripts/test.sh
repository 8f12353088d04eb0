#!/usr/bin/env bash
# Runs every check of the project — the command CI runs (.ci/run) and the README's test command.
#
#   1. prerequisites: the prereqs decisions tested on fake machines, then checked here (cmake, C++
#      compiler, libclang, python3/pip; installed with apt-get when missing)
#   2. the Gemma 3 270M model, fetched once into ~/.cache/agent-rs/models (or $GEMMA_MODEL), and
#      the MCP clients habit-demo's MCP test talks to: the official Python SDK and TypeScript
#      SDK, pinned, installed once into ~/.cache/agent-rs/mcp-python-VERSION
#      (scripts/mcp-client.sh) and ~/.cache/agent-rs/mcp-ts-VERSION (scripts/mcp-client-ts.sh,
#      which installs Node.js with apt-get when it is missing)
#   3. cargo fmt --check, clippy -D warnings, rustdoc -D warnings
#   4. cargo test over the whole workspace with all features: unit, integration, trybuild,
#      doctests, and the live tests that run the real model through llama.cpp
#
# The first run builds llama.cpp from source (about 7 minutes on 2 cores); later runs reuse target/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n==> %s\n' "$*" >&2; }
started=$SECONDS

step "prerequisites"
scripts/test-prereqs.sh
scripts/prereqs.sh

step "model"
if [[ -z "${GEMMA_MODEL:-}" ]]; then
    GEMMA_MODEL="$(scripts/fetch-model.sh | tail -n 1)"
fi
export GEMMA_MODEL
printf 'using %s\n' "$GEMMA_MODEL" >&2

step "MCP clients (the official Python and TypeScript SDKs)"
MCP_CLIENT_PYTHON="$(scripts/mcp-client.sh | tail -n 1)"
export MCP_CLIENT_PYTHON
printf 'using %s\n' "$MCP_CLIENT_PYTHON" >&2
MCP_CLIENT_TS="$(scripts/mcp-client-ts.sh | tail -n 1)"
export MCP_CLIENT_TS
printf 'using %s\n' "$MCP_CLIENT_TS" >&2

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy -D warnings (first run: builds llama.cpp)"
cargo clippy --workspace --all-targets --all-features --locked -- -D warnings

step "rustdoc -D warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --all-features --no-deps --locked --quiet
# The tool layer alone (agent-core's default features) is how most apps start; its docs
# must hold without the llama backend's items to link to.
RUSTDOCFLAGS="-D warnings" cargo doc -p agent-core --no-deps --locked --quiet

step "cargo test (with live-model tests)"
cargo test --workspace --all-features --locked

step "all checks passed in $((SECONDS - started)) s"
