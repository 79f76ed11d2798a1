#!/usr/bin/env bash
# Runs the whole test suite: installs missing system libraries, builds, runs every test,
# then checks that another package can use the products (scripts/check-consumer.sh) and
# that the documentation builds with every symbol link resolved (scripts/docs.sh --strict).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build "$@"
scripts/check-consumer.sh
scripts/docs.sh --strict
