#!/usr/bin/env bash
# The long power-loss campaign (issue 15): PowerLossTests with many simulated power cuts.
# secstore-test-helper runs seeded adds, updates, deletes, imports, passphrase set / change /
# removal, DeviceIdentity creation and resets and store creation under the crash-simulating
# SQLite VFS (Tests/CrashVFS: unsynced writes kept, dropped or torn at a random write or
# sync); the test reopens the store after each cut and checks that every acknowledged
# operation is there, the one in flight all or nothing, one passphrase (old or new) opens
# it, and verify finds it intact. docs/reliability.md has the last results.
#
#   scripts/power-loss.sh                 # 10,000 cuts
#   scripts/power-loss.sh 500             # fewer
#   SECSTORE_POWERLOSS_SEED=123 scripts/power-loss.sh 60    # replay a campaign
#   SECSTORE_SCRATCH=/tmp/build scripts/power-loss.sh       # another build folder
#
# Run it at low priority on a shared machine: nice -n 19 scripts/power-loss.sh
set -euo pipefail
cd "$(dirname "$0")/.."
trials="${1:-10000}"
scratch="${SECSTORE_SCRATCH:-.build}"
swift build --scratch-path "$scratch" --build-tests
start=$SECONDS
SECSTORE_POWERLOSS_TRIALS="$trials" swift test --scratch-path "$scratch" --skip-build \
    --filter 'PowerLossTests/acknowledgedOperationsSurviveSimulatedPowerCuts' 2>&1 | grep -v '^↳' | tee /dev/stderr |
    grep -q '✔ Test acknowledgedOperationsSurviveSimulatedPowerCuts() passed' || {
        echo "power-loss: FAILED (the failing store is kept in \$TMPDIR/secstore-powerloss-failure-<seed>)" >&2; exit 1; }
echo "power-loss: $trials trials passed in $((SECONDS - start)) s" >&2
