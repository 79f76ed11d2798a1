#!/usr/bin/env bash
# Fuzzes SecStore's parsers with libFuzzer (issue 15): the SecItem dictionary reader (secitem),
# the entitlements reader (entitlements), the backup reader (backup as a file, backup-sealed
# sealed with the right key so records get past the MAC), the metadata codec (metadata), the
# secstore tool's argument types (cli-arguments); and the parsers of outside input added later:
# the plaintext files `secstore import` reads, env, json and csv (plaintext-import), git's
# key=value credential lines and stored secrets (git-credential), the docker helper's JSON and
# server URLs (docker-credentials). What each run found: docs/reliability.md, "Fuzzing".
#
#   scripts/fuzz.sh list                      the targets
#   scripts/fuzz.sh build [TARGET...]         build the targets' binaries (default: every one)
#   scripts/fuzz.sh run TARGET|all [SECONDS]  build (linking only the targets run), then fuzz
#                                             each target SECONDS (default 60)
#   scripts/fuzz.sh reproduce TARGET FILE...  run a target's binary once on each FILE
#   scripts/fuzz.sh seeds                     build, then rewrite the seed-* files of Fixtures/fuzz
#   scripts/fuzz.sh coverage TARGET [REGEX]   edges the target's corpus reaches, per file of Sources/
#                                             matching REGEX (out-of-line code only: the release
#                                             build inlines, so read it as a rough map)
#
# SwiftPM cannot link libFuzzer executables, so this script does: it builds the Swift modules
# with SwiftPM (release, -sanitize=fuzzer,address, -enable-testing) into its own scratch path,
# compiles scripts/fuzz/driver.c once per target and links it with those objects. The entry
# functions are the ones the ordinary suite replays Fixtures/fuzz through
# (Tests/SecStoreFuzzing; Tests/FuzzReplayTests/CLIArgumentsFuzz.swift and
# PlaintextImportFuzz.swift, which need the secstore executable's module: this script compiles
# them itself against it).
#
# A run reads Fixtures/fuzz/<target>/ (seeds and minimised crashers) and keeps what it finds
# in $FUZZ_WORK/<target>/corpus; crashes, timeouts and leaks go to $FUZZ_WORK/<target>/artifacts/.
# Minimise a crasher with `<binary> -minimize_crash=1 -runs=10000 FILE`, add it to
# Fixtures/fuzz/<target>/crashes/, fix the cause; the suite then replays it.
#
# Environment: FUZZ_SCRATCH (build directory, default /tmp/build-fuzz), FUZZ_WORK (corpora and
# artifacts, default /tmp/secstore-fuzz), FUZZ_NICE (niceness, default 19: others share the
# machine), FUZZ_FLAGS (more libFuzzer flags, e.g. "-jobs=2 -workers=2": each job then logs to
# $FUZZ_WORK/<target>/fuzz-N.log, since a run works in that directory, and the summary adds
# up their executions).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch="${FUZZ_SCRATCH:-/tmp/build-fuzz}"
mkdir -p "$scratch" && scratch=$(cd "$scratch" && pwd)
work="${FUZZ_WORK:-/tmp/secstore-fuzz}"
# Absolute: a run works in its target's directory (libFuzzer's -jobs write fuzz-N.log there).
mkdir -p "$work" && work=$(cd "$work" && pwd)
niceness="${FUZZ_NICE:-19}"
targets=(secitem entitlements backup backup-sealed metadata cli-arguments plaintext-import git-credential docker-credentials)

usage() { sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; }

# Per-target libFuzzer options: the largest input worth trying.
max_len() {
    case "$1" in
        secitem|cli-arguments) echo 512 ;;
        metadata|git-credential|docker-credentials) echo 1024 ;;
        plaintext-import) echo 2048 ;;
        *) echo 4096 ;;
    esac
}

is_target() {
    local candidate
    for candidate in "${targets[@]}"; do [ "$candidate" = "$1" ] && return 0; done
    return 1
}

# Builds the Swift modules, then links the binaries of the targets given (default: all).
build() {
    local linked=("$@")
    [ ${#linked[@]} -gt 0 ] || linked=("${targets[@]}")
    scripts/bootstrap.sh
    # One -sanitize= flag: given twice, the driver keeps only the last.
    local swift_flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)
    local c_flags=(-Xcc -fsanitize=fuzzer-no-link,address)
    for target in SecStoreFuzzing secstore; do
        echo "fuzz: building $target" >&2
        nice -n "$niceness" swift build --scratch-path "$scratch" -c release --target "$target" \
            "${swift_flags[@]}" "${c_flags[@]}" >&2
    done
    local products="$scratch/release"
    local out="$scratch/fuzzers"
    mkdir -p "$out"
    # C modules a testable import of `secstore` may load: libsodium, the keyring, prctl and
    # SQLite-configuration shims, SQLite.
    local module_maps=(-Xcc "-fmodule-map-file=$root/Sources/CSodium/module.modulemap"
                       -Xcc "-fmodule-map-file=$products/CKeyring.build/module.modulemap"
                       -Xcc "-I$root/Sources/CKeyring/include"
                       -Xcc "-fmodule-map-file=$products/CProcessControl.build/module.modulemap"
                       -Xcc "-I$root/Sources/CProcessControl/include"
                       -Xcc "-fmodule-map-file=$products/CSQLiteConfig.build/module.modulemap"
                       -Xcc "-I$root/Sources/CSQLiteConfig/include"
                       -Xcc "-fmodule-map-file=$scratch/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap")
    # The entries that need the tool's module, compiled as one module (one object: -wmo).
    echo "fuzz: compiling the cli-arguments and plaintext-import entries" >&2
    (cd "$out" && nice -n "$niceness" swiftc -c -O -wmo -parse-as-library -module-name SecstoreFuzzEntries \
        -sanitize=fuzzer,address -enable-testing -I "$products/Modules" "${module_maps[@]}" \
        "$root/Tests/FuzzReplayTests/CLIArgumentsFuzz.swift" "$root/Tests/FuzzReplayTests/PlaintextImportFuzz.swift" \
        -o "$out/SecstoreFuzzEntries.o")
    local objects=("$out/SecstoreFuzzEntries.o")
    for module in SecStoreFuzzing KeychainServices CredentialBridge secstore DeviceIdentity SecStoreSync Etcd SecStore GRDB \
                  Logging CKeyring CProcessControl CSQLiteConfig ArgumentParser ArgumentParserToolInfo; do
        objects+=("$products/$module.build/"*.o)
    done
    for target in "${linked[@]}"; do
        echo "fuzz: linking fuzz-$target" >&2
        nice -n "$niceness" clang -c -O1 "-DFUZZ_TARGET=${target//-/_}" "$root/scripts/fuzz/driver.c" -o "$out/driver-$target.o"
        nice -n "$niceness" swiftc -sanitize=fuzzer,address -use-ld=lld "$out/driver-$target.o" "${objects[@]}" \
            -o "$out/fuzz-$target"
    done
    echo "fuzz: binaries in $out" >&2
}

# The last coverage line and the final statistics of a libFuzzer run, as one summary line.
# With -jobs, each job logs to fuzz-N.log beside the run's log (which repeats their final
# statistics): executions are summed over the jobs' logs alone, coverage is the last line of any.
summarize() {
    local target="$1" log="$2" seconds="$3" artifacts="$4"
    local last executions crashes logs=()
    for job in "$(dirname "$log")"/fuzz-*.log; do [ -f "$job" ] && logs+=("$job"); done
    [ ${#logs[@]} -gt 0 ] || logs=("$log")
    last=$(cat "${logs[@]}" | grep -E '^#[0-9]+' | grep -E 'cov: ' | tail -1 || true)
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "${logs[@]}" | awk '{ sum += $1 } END { if (NR) print sum }')
    crashes=$(find "$artifacts" -type f 2>/dev/null | wc -l)
    printf 'fuzz: %-14s %6s s  %12s executions  %s  artifacts: %s\n' "$target" "$seconds" "${executions:-?}" \
        "$(echo "$last" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' || echo 'no coverage line')" "$crashes"
}

run_one() {
    local target="$1" seconds="$2"
    local binary="$scratch/fuzzers/fuzz-$target"
    local corpus="$work/$target/corpus" artifacts="$work/$target/artifacts"
    mkdir -p "$corpus" "$artifacts"
    local options=(-max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048
                   -print_final_stats=1 -artifact_prefix="$artifacts/" -close_fd_mask=1)
    [ -f "scripts/fuzz/$target.dict" ] && options+=(-dict="$root/scripts/fuzz/$target.dict")
    # shellcheck disable=SC2206
    options+=(${FUZZ_FLAGS:-})
    local log="$work/$target/last-run.log"
    rm -f "$work/$target"/fuzz-*.log   # the jobs' logs of an earlier run would be counted
    echo "fuzz: $target for $seconds s (log: $log)" >&2
    local status=0
    # In the target's directory, not the checkout: libFuzzer's -jobs write their logs where it runs.
    cd "$work/$target"
    LSAN_OPTIONS="suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0" \
        nice -n "$niceness" "$binary" "${options[@]}" "$corpus" "$root/Fixtures/fuzz/$target" >"$log" 2>&1 || status=$?
    grep -E '^#[0-9]+.*(INITED|DONE|NEW)' "$log" | tail -3 >&2 || true
    cd "$root"
    summarize "$target" "$log" "$seconds" "$artifacts"
    if [ "$status" -ne 0 ]; then
        echo "fuzz: $target stopped with status $status; see $log and $artifacts" >&2
        grep -E 'ERROR|Fatal error|SUMMARY|Test unit written' "$log" | head -5 >&2 || true
    fi
    return "$status"
}

command="${1:-}"
case "$command" in
    list) printf '%s\n' "${targets[@]}" ;;
    build)
        shift
        for target in "$@"; do is_target "$target" || { echo "fuzz: no target $target (see list)" >&2; exit 2; }; done
        build "$@"
        ;;
    run)
        [ $# -ge 2 ] || { usage >&2; exit 2; }
        selected=("$2")
        [ "$2" = all ] && selected=("${targets[@]}")
        for target in "${selected[@]}"; do is_target "$target" || { echo "fuzz: no target $target (see list)" >&2; exit 2; }; done
        seconds="${3:-60}"
        build "${selected[@]}"
        failed=0
        for target in "${selected[@]}"; do run_one "$target" "$seconds" || failed=1; done
        exit "$failed"
        ;;
    reproduce)
        [ $# -ge 3 ] && is_target "$2" || { usage >&2; exit 2; }
        target="$2"; shift 2
        "$scratch/fuzzers/fuzz-$target" -runs=1 "$@"
        ;;
    seeds)
        build
        for target in "${targets[@]}"; do
            SECSTORE_FUZZ_WRITE_SEEDS="$root/Fixtures/fuzz/$target" "$scratch/fuzzers/fuzz-$target"
            echo "fuzz: $(find "Fixtures/fuzz/$target" -name 'seed-*' | wc -l) seeds in Fixtures/fuzz/$target" >&2
        done
        ;;
    coverage)
        [ $# -ge 2 ] && is_target "$2" || { usage >&2; exit 2; }
        target="$2"; pattern="${3:-.}"
        mkdir -p "$work/$target/corpus"
        "$scratch/fuzzers/fuzz-$target" -runs=0 -print_coverage=1 "$work/$target/corpus" "Fixtures/fuzz/$target" 2>&1 |
            grep -E '^(UN)?COVERED_FUNC: .*/Sources/' |
            awk '{ split($5, edges, "/"); file = $NF; sub(/:[0-9]+$/, "", file); sub(/.*\/Sources\//, "", file)
                   covered[file] += edges[1]; total[file] += edges[2] }
                 END { for (file in covered) printf "%6d / %6d edges  %5.1f%%  %s\n", covered[file], total[file],
                                                    total[file] ? 100 * covered[file] / total[file] : 0, file }' |
            grep -E -- "$pattern" | sort -k6
        ;;
    -h|--help|help) usage ;;
    *) usage >&2; exit 2 ;;
esac
