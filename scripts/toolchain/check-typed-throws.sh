#!/usr/bin/env bash
# Does this Swift toolchain compile the client idiom that blocks typed throws on SecStore's
# public API? Exit 0: it does (the signatures can become `throws(SecStoreError)`); 1: it
# still crashes or rejects it.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
if swiftc -parse-as-library -c "$here/typed-throws-crash.swift" -o "$out/probe.o" >"$out/log" 2>&1; then
    echo "$(swiftc --version 2>&1 | head -1): compiles typed-throws client code; typed signatures can land."
    exit 0
fi
echo "$(swiftc --version 2>&1 | head -1): still fails on typed-throws client code:"
grep -E "error:|While running pass" "$out/log" | head -3
exit 1
