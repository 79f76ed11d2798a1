#!/usr/bin/env bash
# The long kill -9 campaign: the suite's CrashCampaignTests, IdentityCrashTests and the SIGKILL passphrase-change
# test, with many trials. A writer acknowledging each committed operation is killed at a
# random moment; every acknowledged operation must be in the store, none half-applied, and
# verify must find the store intact.
#
#   scripts/crash-campaign.sh            # 200 trials
#   scripts/crash-campaign.sh 1000       # more
set -euo pipefail
cd "$(dirname "$0")/.."
trials="${1:-200}"
swift build --build-tests
start=$SECONDS
SECSTORE_CRASH_TRIALS="$trials" swift test --skip-build --filter 'CrashCampaignTests|sigkillDuringPassphraseChange|IdentityCrashTests'
echo "crash-campaign: $trials kill -9 trials passed in $((SECONDS - start)) s" >&2
