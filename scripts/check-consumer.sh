#!/usr/bin/env bash
# Proves the package's products work for someone who depends on it:
#  1. a throwaway consumer package (written here, under the ignored .build-consumer/) that
#     depends on this checkout with .package(path:), imports SecStore, KeychainServices and
#     DeviceIdentity, uses one symbol of each, builds and runs;
#  2. `swift build --product secstore` in this package.
# The consumer's build directory is kept, so a rerun only rebuilds what changed.
# SECSTORE_SCRATCH names this package's build directory for step 2 (default .build, the one
# scripts/test.sh has just built, so the step is nearly free there).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
work="$root/.build-consumer"
consumer="$work/package"
mkdir -p "$consumer/Sources/Consumer"

# SwiftPM names a path dependency after its directory.
identity="$(basename "$root" | tr '[:upper:]' '[:lower:]')"
case "$root" in
    *'"'*|*'\'*) echo "check-consumer: cannot put the path $root in a Swift string; move the checkout." >&2; exit 1 ;;
esac

# Writes $1 from stdin only when it changed, so an unchanged consumer is not recompiled.
write_if_changed() {
    local new
    new="$(cat)"
    [ -f "$1" ] && [ "$(cat "$1")" = "$new" ] && return 0
    printf '%s\n' "$new" >"$1"
}

write_if_changed "$consumer/Package.swift" <<EOF
// swift-tools-version:6.1
// Written by scripts/check-consumer.sh: a package that uses SecStore's products.
import PackageDescription

let package = Package(
    name: "SecStoreConsumer",
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [
                .product(name: "SecStore", package: "$identity"),
                .product(name: "KeychainServices", package: "$identity"),
                .product(name: "DeviceIdentity", package: "$identity"),
            ]
        ),
    ]
)
EOF

write_if_changed "$consumer/Sources/Consumer/main.swift" <<'EOF'
// Written by scripts/check-consumer.sh. Touches no store: it only proves that each product
// can be imported, linked and used from another package.
import DeviceIdentity
import KeychainServices
import SecStore

let notFound = SecStoreError.Code.itemNotFound.status     // SecStore
let genericPassword = kSecClassGenericPassword as String    // KeychainServices
let provenances = Provenance.allCases.map(\.rawValue)       // DeviceIdentity
print("consumer: \(notFound) \(genericPassword) \(provenances.joined(separator: ","))")
EOF

start=$SECONDS
echo "check-consumer: building a package that depends on $root" >&2
if ! swift build --package-path "$consumer" --scratch-path "$work/scratch" -q; then
    # SwiftPM's incremental build of a path dependency can miss source files added to it
    # since the last run (the build fails in code that is fine); a clean build settles it.
    echo "check-consumer: retrying from a clean scratch directory" >&2
    rm -rf "$work/scratch"
    swift build --package-path "$consumer" --scratch-path "$work/scratch" -q
fi
output="$("$work/scratch/debug/Consumer")"
expected="consumer: -25300 genp "
case "$output" in
    "$expected"*) ;;
    *) echo "check-consumer: the consumer printed '$output', expected it to start with '$expected'." >&2; exit 1 ;;
esac

echo "check-consumer: swift build --product secstore" >&2
swift build --scratch-path "${SECSTORE_SCRATCH:-.build}" --product secstore -q
echo "check-consumer: passed in $((SECONDS - start)) s ($output)" >&2
