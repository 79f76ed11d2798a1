#!/usr/bin/env bash
# The main job: builds the `secstore` tool and runs a short session on the default store
# ($SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore, else
# ~/.local/share/secstore/default.secstore): create it if needed,
# store a secret, read it back after the store is reopened, list, verify, and show the
# device identity. Installs missing system libraries first (scripts/bootstrap.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
# As users get it (scripts/build-release.sh says how and why); secstore-benchmark says
# whether it timed such a binary.
scripts/build-release.sh secstore
secstore() { .build/release/secstore "$@"; }

# The man page (docs/man/secstore.1, generated from the command definitions) where `man`
# looks for a user's pages.
man_dir="${XDG_DATA_HOME:-$HOME/.local/share}/man/man1"
mkdir -p "$man_dir" && install -m 0644 docs/man/secstore.1 "$man_dir/secstore.1"
echo "== man page installed as $man_dir/secstore.1 (man secstore; or man -l docs/man/secstore.1)"
# Steps that read locked classes prompt for the passphrase on a terminal; otherwise
# the session would stop with exit status 5 and say how to pass it.

if ! secstore info >/dev/null 2>&1; then
    echo "== creating the default store"
    secstore create
fi

echo "== storing a secret (service secstore.readme, account demo)"
secret="demo secret written $(date -u +%Y-%m-%dT%H:%M:%SZ)"
if ! printf %s "$secret" | secstore add --service secstore.readme --account demo --label "README demo" --value-stdin 2>/dev/null; then
    printf %s "$secret" | secstore update --service secstore.readme --account demo --value-stdin
fi

echo "== reading it back (a new process, so the store was reopened)"
secstore get --service secstore.readme --account demo
echo

echo "== listing the store (attributes only, never secrets)"
secstore list

echo "== verifying every row"
secstore verify

echo "== this device's identity (a UUID kept in the store)"
secstore identity show

echo "== the store"
secstore info
