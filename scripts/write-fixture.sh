#!/usr/bin/env bash
# Writes Fixtures/format-vN: a store written by the SecStore of COMMIT, a commit whose format
# version is N (the fixture stands for the files that SecStore left on users' disks, so it must
# be written by that version's own code, never by today's migration steps).
#
#   scripts/write-fixture.sh N COMMIT [WORKTREE]
#
# COMMIT is checked out in a git worktree (WORKTREE, default a new temporary directory; an
# existing worktree already at COMMIT is reused, with its build). A throwaway executable,
# secstore-fixture-writer, is added to that worktree only (never committed): this checkout's
# fixture descriptions (Tests/SecStoreTests/Support/StoreFixture.swift, FixtureWriter.swift and
# FixtureContentsV1..N.swift, which use only the public API of the SecStore they are compiled
# against) and a main that runs FixtureWriter.write(StoreFixture.formatVN). It writes the store,
# device key, passphrase file and README into Fixtures/format-vN of this checkout, and refuses
# (writing nothing) when that SecStore writes another version. FixtureTests then checks it.
#
# The last commit of each format: `git log -S currentVersion -- Sources/SecStore/Storage/Schema.swift`
# names the commits that raised it; the parent of each is the last of the version before.
# Environment: FIXTURE_NICE (niceness of the build, default 10: others share the machine).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
version=${1:?usage: scripts/write-fixture.sh N COMMIT [WORKTREE]}
commit=$(git rev-parse --verify "${2:?usage: scripts/write-fixture.sh N COMMIT [WORKTREE]}^{commit}")
work=${3:-$(mktemp -d)/secstore-format-v$version}
support="$root/Tests/SecStoreTests/Support"
[[ -f "$support/FixtureContentsV$version.swift" ]] || { echo "write-fixture: no StoreFixture.formatV$version ($support/FixtureContentsV$version.swift)" >&2; exit 2; }

if [[ -d "$work" ]]; then
    [[ $(git -C "$work" rev-parse HEAD) == "$commit" ]] || { echo "write-fixture: $work is not at $commit" >&2; exit 2; }
else
    git worktree add --detach "$work" "$commit" >&2
fi
short=$(git -C "$work" rev-parse --short=7 HEAD)

writer="$work/Sources/secstore-fixture-writer"
rm -rf "$writer" && mkdir -p "$writer"
cp "$support/StoreFixture.swift" "$support/FixtureWriter.swift" "$writer/"
for ((v = 1; v <= version; v++)); do cp "$support/FixtureContentsV$v.swift" "$writer/"; done
cat >"$writer/main.swift" <<EOF
import Foundation
try FixtureWriter.write(StoreFixture.formatV$version, to: URL(filePath: CommandLine.arguments[1]), commit: "$short")
EOF
if ! grep -q secstore-fixture-writer "$work/Package.swift"; then
    cat >>"$work/Package.swift" <<'EOF'
// Added by scripts/write-fixture.sh in this throwaway worktree only.
package.targets.append(.executableTarget(name: "secstore-fixture-writer",
                                         dependencies: ["SecStore", .product(name: "GRDB", package: "GRDB.swift")]))
EOF
fi

(cd "$work" && nice -n "${FIXTURE_NICE:-10}" swift build --product secstore-fixture-writer >&2)
"$work/.build/debug/secstore-fixture-writer" "$root/Fixtures/format-v$version"
echo "write-fixture: Fixtures/format-v$version written by $short" >&2
