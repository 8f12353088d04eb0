#!/usr/bin/env bash
# Installs the MCP client that habit-demo's MCP test talks to: the official Python SDK (`mcp` on
# the Python package index), pinned, in a virtual environment of its own in the cache, so the
# test runs the server against a client this project did not write.
#
# Usage: scripts/mcp-client.sh
#   The environment's python is printed on stdout as the last line; progress goes to stderr.
#   The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/agent-rs/mcp-python-VERSION/. A second run only
#   checks the installed version (well under a second). scripts/test.sh exports the path as
#   MCP_CLIENT_PYTHON for habit-demo/tests/mcp.rs.
#
# Where python3 has no `venv` module (Debian without python3-venv), the package is installed
# with `pip --target` instead and a small `bin/python` wrapper puts it on PYTHONPATH.
set -euo pipefail

# 2.x speaks the handshake protocol up to 2025-11-25 (what the server implements) and answers
# form elicitation through ClientSession's elicitation_callback.
readonly VERSION="2.3.0"

dir="${XDG_CACHE_HOME:-$HOME/.cache}/agent-rs/mcp-python-$VERSION"
python="$dir/bin/python"

say() { printf 'mcp-client: %s\n' "$*" >&2; }
die() {
    say "error: $*"
    exit 1
}

installed() {
    [[ -x "$python" ]] &&
        "$python" -c "import sys, importlib.metadata as m; import mcp.client.stdio; sys.exit(m.version('mcp') != '$VERSION')" 2>/dev/null
}

if installed; then
    printf '%s\n' "$python"
    exit 0
fi

command -v python3 >/dev/null 2>&1 || die "python3 is not installed (scripts/prereqs.sh installs it)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
    die "mcp $VERSION needs Python 3.10 or newer; $(python3 --version 2>&1) found"

say "installing the Python MCP SDK mcp==$VERSION into $dir"
rm -rf "$dir"
mkdir -p "$(dirname "$dir")"
if python3 -m venv "$dir" >/dev/null 2>&1 && [[ -x "$python" ]]; then
    "$python" -m pip install --quiet --disable-pip-version-check "mcp==$VERSION" >&2
else
    say "python3 has no working venv module; installing with pip --target"
    rm -rf "$dir"
    mkdir -p "$dir/bin"
    python3 -m pip install --quiet --disable-pip-version-check --target "$dir/lib" "mcp==$VERSION" >&2
    host="$(command -v python3)"
    printf '#!/bin/sh\nPYTHONPATH="%s${PYTHONPATH:+:$PYTHONPATH}" exec "%s" "$@"\n' "$dir/lib" "$host" >"$python"
    chmod +x "$python"
fi
installed || die "mcp==$VERSION did not install into $dir"
say "installed mcp $VERSION"
printf '%s\n' "$python"
