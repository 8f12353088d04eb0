#!/usr/bin/env bash
# Installs the second MCP client habit-demo's MCP test talks to: the official TypeScript SDK
# (`@modelcontextprotocol/sdk` on npm), pinned, in a folder of its own in the cache, so the
# server is checked against both official SDKs.
#
# Usage: scripts/mcp-client-ts.sh
#   The SDK's folder is printed on stdout as the last line; progress goes to stderr. The cache
#   is ${XDG_CACHE_HOME:-$HOME/.cache}/agent-rs/mcp-ts-VERSION/. A second run only checks the
#   installed version. scripts/test.sh exports the folder as MCP_CLIENT_TS for
#   habit-demo/tests/mcp.rs, which runs habit-demo/tests/mcp_client.mjs with node.
#
# Node.js 18 or newer (with npm) is needed; on Debian/Ubuntu it is installed with apt-get
# (nodejs, npm) when missing.
set -euo pipefail

# 1.x validates a result's structuredContent against the tool's outputSchema even when the
# result is an error: the behaviour the server must not trip over.
readonly VERSION="1.32.2"

dir="${XDG_CACHE_HOME:-$HOME/.cache}/agent-rs/mcp-ts-$VERSION"
package="$dir/node_modules/@modelcontextprotocol/sdk/package.json"

say() { printf 'mcp-client-ts: %s\n' "$*" >&2; }
die() {
    say "error: $*"
    exit 1
}
have() { command -v "$1" >/dev/null 2>&1; }

node_ok() {
    have node && have npm && node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)'
}

if ! node_ok; then
    have apt-get || die "Node.js 18+ with npm is needed; install it and run this again"
    as_root=()
    if [[ $EUID -ne 0 ]]; then
        have sudo || die "Node.js 18+ with npm is needed: run  sudo apt-get install -y nodejs npm"
        as_root=(sudo)
    fi
    say "installing Node.js with apt-get: nodejs npm"
    "${as_root[@]}" apt-get update -qq >&2
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >&2
    node_ok || die "Node.js $(node --version 2>/dev/null || echo '?') is older than 18"
fi

installed() {
    [[ -f "$package" ]] &&
        node -e "process.exit(require('$package').version === '$VERSION' ? 0 : 1)" 2>/dev/null
}

if installed; then
    printf '%s\n' "$dir"
    exit 0
fi

say "installing the TypeScript MCP SDK @modelcontextprotocol/sdk@$VERSION into $dir"
rm -rf "$dir"
mkdir -p "$dir"
printf '{"private": true}\n' >"$dir/package.json"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/sdk@$VERSION" >&2
installed || die "the SDK did not install into $dir"
printf '%s\n' "$dir"
