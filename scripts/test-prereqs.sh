#!/usr/bin/env bash
# Tests scripts/prereqs.sh's decisions against fake machines: each case builds a file tree
# (PREREQS_ROOT) and a PATH of stub commands, runs prereqs.sh, and compares what it decided to
# install (and, in the install cases, what it asked apt-get) with what bindgen would need there.
# Runs on any machine, including one that already has everything. Part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
prereqs="$PWD/scripts/prereqs.sh"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
cases=0

# A file that starts like a 64-bit (class 2) or 32-bit (class 1) ELF shared object.
elf64() { mkdir -p "$(dirname "$1")" && printf '\177ELF\002\001\001\000rest' >"$1"; }
elf32() { mkdir -p "$(dirname "$1")" && printf '\177ELF\001\001\001\000rest' >"$1"; }
link() { mkdir -p "$(dirname "$2")" && ln -s "$1" "$2"; }

stub() { # stub NAME [BODY]: an executable in the fake PATH
    local body="${2:-exit 0}"
    printf '#!%s\n%s\n' "$BASH" "$body" >"$bin/$1"
    chmod +x "$bin/$1"
}

# A fresh case: an empty tree with libclang-cpp14 as on Debian 12, and every tool but libclang.
new_case() {
    cases=$((cases + 1))
    tree="$work/case$cases/root"
    bin="$work/case$cases/bin"
    mkdir -p "$tree/usr/lib/x86_64-linux-gnu" "$tree/usr/lib/llvm-14/lib" "$bin"
    elf64 "$tree/usr/lib/x86_64-linux-gnu/libclang-cpp.so.14"
    link ../../x86_64-linux-gnu/libclang-cpp.so.14 "$tree/usr/lib/llvm-14/lib/libclang-cpp.so.14"
    elf64 "$tree/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1"
    stub cargo
    stub cmake
    stub c++
    stub python3 '[[ "$*" == "-m pip --version" ]] && exit 0; exit 1'
}

# run_check [VAR=value...]: prereqs.sh --check in the fake machine; sets $got.
run_check() {
    got="$(env -i PATH="$bin" PREREQS_ROOT="$tree" "$@" "$BASH" "$prereqs" --check 2>&1)" || got="exit $?: $got"
}

expect() { # expect WHAT DESCRIPTION
    if [[ "$got" == "$1" ]]; then
        printf 'ok   %s\n' "$2"
    else
        printf 'FAIL %s\n     expected: %s\n     got:      %s\n' "$2" "$1" "$got"
        failures=$((failures + 1))
    fi
}

new_case
run_check
expect "missing: libclang-dev" "fresh Debian 12: libclang-cpp.so.14 is not libclang"

new_case
elf64 "$tree/usr/lib/llvm-14/lib/libclang-14.so.1"
link libclang-14.so.1 "$tree/usr/lib/llvm-14/lib/libclang.so.1"
link libclang.so.1 "$tree/usr/lib/llvm-14/lib/libclang.so"
link ../lib/llvm-14/lib/libclang-14.so.1 "$tree/usr/lib/x86_64-linux-gnu/libclang-14.so.1"
run_check
expect "missing: none" "libclang-dev installed (llvm-14 layout)"

new_case
elf64 "$tree/usr/lib/x86_64-linux-gnu/libclang-14.so.1"
run_check
expect "missing: none" "only libclang1-14's versioned file (bindgen loads it at run time)"

new_case
link libclang-14.so.1 "$tree/usr/lib/llvm-14/lib/libclang.so"
run_check
expect "missing: libclang-dev" "a dangling libclang.so symlink"

new_case
elf32 "$tree/usr/lib/i386-linux-gnu/libclang.so.1"
run_check
expect "missing: libclang-dev" "only a 32-bit libclang"

new_case
printf 'not a library' >"$tree/usr/lib/x86_64-linux-gnu/libclang.so"
run_check
expect "missing: libclang-dev" "a libclang.so that is not an ELF file"

new_case
elf64 "$tree/usr/local/lib/libclang.so"
run_check
expect "missing: none" "libclang in /usr/local/lib"

new_case
elf64 "$tree/opt/llvm/lib/libclang.so.18.1"
run_check LD_LIBRARY_PATH="$tree/opt/llvm/lib"
expect "missing: none" "libclang found through LD_LIBRARY_PATH"

new_case
elf64 "$tree/opt/llvm/lib64/libclang.so"
stub llvm-config "[[ \$1 == --prefix ]] && echo '$tree/opt/llvm'"
run_check
expect "missing: none" "libclang found through llvm-config --prefix"

new_case
elf64 "$tree/usr/lib/llvm-14/lib/libclang.so"
mkdir -p "$tree/empty"
run_check LIBCLANG_PATH="$tree/empty"
expect "missing: libclang-dev" "LIBCLANG_PATH names a folder without libclang (clang-sys looks nowhere else)"

new_case
elf64 "$tree/opt/clang/libclang.so.1"
run_check LIBCLANG_PATH="$tree/opt/clang/libclang.so.1"
expect "missing: none" "LIBCLANG_PATH names the library file"

new_case
run_check LIBCLANG_PATH="$tree/usr/lib/x86_64-linux-gnu/libclang-cpp.so.14"
expect "missing: libclang-dev" "LIBCLANG_PATH names libclang-cpp"

new_case
rm "$bin/cmake" "$bin/c++"
elf64 "$tree/usr/lib/llvm-14/lib/libclang.so"
run_check
expect "missing: cmake clang" "no cmake, no C++ compiler"

new_case
rm "$bin/c++"
stub clang++
elf64 "$tree/usr/lib/llvm-14/lib/libclang.so"
run_check
expect "missing: none" "clang++ is a C++ compiler too"

new_case
stub python3 'exit 1'
elf64 "$tree/usr/lib/llvm-14/lib/libclang.so"
run_check
expect "missing: python3-pip" "python3 without pip"

new_case
rm "$bin/cargo"
run_check
expect "exit 1: prereqs: error: cargo is not installed; install Rust from https://rustup.rs and run this again" \
    "no cargo: stop with the rustup hint"

# The install path, as root: apt-get is asked for exactly what is missing, and the script checks
# afterwards that bindgen can now find libclang.
new_case
stub apt-get "echo \"apt-get \$*\" >>'$work/apt.log'; [[ \$1 == install ]] && printf '\\177ELF\\002' >'$tree/usr/lib/llvm-14/lib/libclang.so'; exit 0"
: >"$work/apt.log"
got="$(env -i PATH="$bin" PREREQS_ROOT="$tree" "$BASH" "$prereqs" 2>&1 | tail -n 1)"
expect "prereqs: installed: libclang-dev" "fresh Debian 12 as root: installs libclang-dev"
got="$(tr '\n' ';' <"$work/apt.log")"
expect "apt-get update -qq;apt-get install -y -qq libclang-dev;" "apt-get was asked for libclang-dev only"

new_case
stub apt-get 'exit 0' # "installs" nothing
got="$(env -i PATH="$bin" PREREQS_ROOT="$tree" "$BASH" "$prereqs" 2>&1 | tail -n 1)" || true
expect "prereqs: error: libclang-dev was installed but no libclang.so is where bindgen looks; set LIBCLANG_PATH" \
    "an install that leaves no libclang is an error, not a later bindgen failure"

if ((EUID == 0)); then
    printf 'note: running as root, so the non-root (sudo) path was not exercised\n'
fi

if ((failures > 0)); then
    printf 'test-prereqs: %d of %d cases failed\n' "$failures" "$cases" >&2
    exit 1
fi
printf 'test-prereqs: all %d cases passed\n' "$cases"
