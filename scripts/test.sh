#!/usr/bin/env bash
# Runs the whole test suite: installs missing system libraries, builds, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build "$@"
