#!/usr/bin/env bash
# The long power-loss campaign (issue 15): PowerLossTests with many simulated power cuts.
# secstore-test-helper runs seeded adds, updates, deletes, imports, passphrase set / change /
# removal, DeviceIdentity creation and resets (with its mirror file), backup exports and store
# creation (each with a new device key) under the crash simulation (Tests/CrashVFS): SQLite's
# files through its VFS, SecStore's own files (device key, store link, mirror, backup)
# through SecStore's FileSystem seam; at a random event unsynced writes are kept, dropped or
# torn and directory entries not yet fsynced undone. One cut in three is aimed at an own-file
# call. The test reopens the store after each cut and checks that every acknowledged
# operation is there, the one in flight all or nothing, one passphrase (old or new) opens
# it, verify finds it intact, and the own files are whole (a created store opens with its
# key, the mirror names the identifier, the backup imports). docs/reliability.md has the
# last results.
#
#   scripts/power-loss.sh                 # 10,000 trials (about 7,800 cuts: one trial in ten
#                                         # and the first end cleanly, as the baseline)
#   scripts/power-loss.sh 500             # fewer
#   SECSTORE_POWERLOSS_SEED=123 scripts/power-loss.sh 60    # replay a campaign
#   SECSTORE_SCRATCH=/tmp/build scripts/power-loss.sh       # another build folder
#   SECSTORE_SKIP_BUILD=1 ...             # use that folder's tests as they are built
#
# Run it at low priority on a shared machine: nice -n 19 scripts/power-loss.sh
set -euo pipefail
cd "$(dirname "$0")/.."
trials="${1:-10000}"
scratch="${SECSTORE_SCRATCH:-.build}"
[ "${SECSTORE_SKIP_BUILD:-0}" = 1 ] || swift build --scratch-path "$scratch" --build-tests
start=$SECONDS
SECSTORE_POWERLOSS_TRIALS="$trials" swift test --scratch-path "$scratch" --skip-build \
    --filter 'PowerLossTests/acknowledgedOperationsSurviveSimulatedPowerCuts' 2>&1 | grep -v '^↳' | tee /dev/stderr |
    grep -q '✔ Test acknowledgedOperationsSurviveSimulatedPowerCuts() passed' || {
        echo "power-loss: FAILED (the failing store is kept in \$TMPDIR/secstore-powerloss-failure-<seed>)" >&2; exit 1; }
echo "power-loss: $trials trials passed in $((SECONDS - start)) s" >&2
