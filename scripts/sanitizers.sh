#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer (issue 15): AddressSanitizer (with LeakSanitizer)
# or ThreadSanitizer, each in its own scratch path so the two builds and the ordinary one never
# disturb each other.
#
#   scripts/sanitizers.sh address              the suite under ASan + LSan (/tmp/build-asan)
#   scripts/sanitizers.sh thread               the suite under TSan (/tmp/build-tsan)
#   scripts/sanitizers.sh thread --filter StressTests
#                                              any further arguments go to `swift test`
#   SECSTORE_STRESS_SECONDS=120 scripts/sanitizers.sh thread --filter StressTests
#                                              the concurrency stress test for two minutes
#
# Skipped, each for a reason in the code below: under ASan the fsync audit and the keyring tests
# that run `secstore` under strace (LeakSanitizer cannot run under strace); under TSan the
# power-loss campaign, a test with a 2-second window and an import under `ulimit -v`.
#
# Every process of the run is instrumented: the test bundle, and the programs the tests start
# (secstore, secstore-test-helper, the credential helpers). Reports are written to files under
# the report directory (log_path), whoever wrote them and whatever became of their stderr, and
# are listed at the end; the script fails when the suite fails or any report was written.
# Known reports in the toolchain are suppressed by scripts/sanitizers/*.supp, each with its
# evidence.
#
# Run as root: the programs are non-dumpable (CrashHygiene), and LeakSanitizer stops them with
# ptrace, which needs CAP_SYS_PTRACE then.
#
# Environment: SANITIZER_SCRATCH (build directory), SANITIZER_REPORTS (report directory,
# default <scratch>/reports, made writable by every user), SANITIZER_NICE (niceness, default
# 19: others share the machine).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

kind="${1:-}"
case "$kind" in
    address) default_scratch=/tmp/build-asan ;;
    thread) default_scratch=/tmp/build-tsan ;;
    -h|--help|"") awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; [ -n "$kind" ]; exit $? ;;
    *) echo "sanitizers: address or thread, not $kind (see --help)" >&2; exit 2 ;;
esac
shift
scratch="${SANITIZER_SCRATCH:-$default_scratch}"
reports="${SANITIZER_REPORTS:-$scratch/reports}"
niceness="${SANITIZER_NICE:-19}"

scripts/bootstrap.sh
rm -rf "$reports"
mkdir -p "$reports"
# Writable by every user, sticky like /tmp: the keyring tests run `secstore` as a fresh user id
# (KeyringUser, through setpriv), and a sanitizer that cannot open its report file prints
# "ERROR: Can't open file: …/asan.<pid> (reason: 13)" on stderr and exits 1, the report lost.
chmod 1777 "$reports"

echo "sanitizers: building the suite with --sanitize=$kind in $scratch" >&2
nice -n "$niceness" swift build --build-tests --sanitize="$kind" --scratch-path "$scratch"

supp="$root/scripts/sanitizers"
# disable_coredump=0: by default a sanitizer sets the soft core limit to 0 in every process,
# which `secstore exec` would hand to its command (ExecTests checks it gets the caller's limit).
skip=()
case "$kind" in
    address)
        # Leaks are checked at the exit of every process; the suppressions name toolchain leaks.
        export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=0:disable_coredump=0"
        export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
        # LeakSanitizer stops the world with ptrace, so it cannot run in a process traced by
        # strace: every writer of the fsync audit, and every `secstore` the keyring race tests
        # stop or kill at a keyring call with strace (StoppedRun, the EDQUOT and SIGKILL
        # injections) that gets to exit, ends in "LeakSanitizer has encountered a fatal error"
        # and status 1. Those tests run under ThreadSanitizer and in the ordinary suite.
        skip=(--skip 'FsyncAuditTests|KeyringLockRaceTests|KeyringPruneRaceTests|anUnlockKilledAtAnyKeyringCallLeavesNoKeyWithoutATimeout')
        ;;
    thread)
        export TSAN_OPTIONS="log_path=$reports/tsan:disable_coredump=0:suppressions=$supp/tsan.supp:print_suppressions=0:halt_on_error=0:second_deadlock_stack=1:history_size=4"
        # Synchronization.Mutex takes a contended lock in uninstrumented toolchain code; this
        # shim tells TSan about it (scripts/sanitizers/tsan-mutex.c), in every process.
        if [ "$(uname -m)" = x86_64 ]; then
            clang -shared -fPIC -O1 "$supp/tsan-mutex.c" -o "$scratch/tsan-mutex.so" -ldl
            export LD_PRELOAD="$scratch/tsan-mutex.so${LD_PRELOAD:+:$LD_PRELOAD}"
        else
            echo "sanitizers: no Mutex shim for $(uname -m): races reported under a contended Mutex are false" >&2
        fi
        # Not under TSan: the power-loss campaign's helper _exits at a simulated cut, sometimes
        # inside a Swift deinit TSan is tracking, and TSan then ends it with "main thread finished
        # with ignores enabled" (status 66, not the cut's 86); the shared-unlock test gives its
        # processes a 2-second window, which TSan's slowdown outlasts; a backup import run under
        # `ulimit -v 1048576` cannot start under TSan, which needs an unlimited address space
        # and cannot raise a hard limit ("ThreadSanitizer setrlimit() failed 22"). None of them
        # is about threads.
        skip=(--skip 'PowerLossTests|sharedUnlockAcrossProcesses|headerLimitsAboveTheAddressSpaceLimit')
        ;;
esac

echo "sanitizers: running the suite (reports in $reports)" >&2
start=$SECONDS
status=0
nice -n "$niceness" swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" ${skip[@]+"${skip[@]}"} "$@" || status=$?
elapsed=$((SECONDS - start))

found=$(find "$reports" -type f | sort)
count=$(printf '%s\n' "$found" | grep -c . || true)
if [ "$count" -gt 0 ]; then
    echo "sanitizers: $count report file(s):" >&2
    for file in $found; do
        echo "=== $file" >&2
        grep -E '^(WARNING|ERROR|SUMMARY)|^    #[0-3] ' "$file" | head -40 >&2
    done
fi
echo "sanitizers: $kind: suite exit status $status, $count report file(s), $elapsed s" >&2
[ "$status" -eq 0 ] && [ "$count" -eq 0 ]
