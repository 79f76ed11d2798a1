#!/usr/bin/env bash
# Builds release products as users get them, the one home of how: `scripts/build-release.sh
# secstore [more products…]`, binaries in .build/release. scripts/run.sh builds `secstore` with
# it; the benchmark's command in the README builds its three products with it.
#
# - `--static-swift-stdlib`: the Swift runtime linked in, not loaded: about 5 ms of every
#   process (docs/performance.md, "Command line: where start-up goes").
# - `-disable-concrete-type-metadata-mangled-name-accessors` (a Swift frontend option): code
#   asks for a generic type's metadata through a direct accessor instead of by its mangled
#   name, which the runtime resolves on first use by scanning every protocol conformance in the
#   binary; ArgumentParser's option types alone make dozens of such first uses. About 1.4 ms of
#   every `secstore get`, the same code otherwise (docs/decisions.md).
# - libstdc++ linked in as well, from its archive (the Swift runtime is C++): the loader no
#   longer maps libstdc++.so, binds its 4,300 symbol references and runs its initializers.
#   About 0.3 ms of every process (docs/performance.md, "ninth session"). `-lstdc++` finds the
#   archive first in a directory that holds only it. The archive is the one the toolchain's
#   clang (beside the real `swift`), else `clang` or `g++` on the PATH, names; without one, or
#   if linking with it fails, the shared library (and the script says so).
# - `--disable-local-rpath`: no `$ORIGIN` run path. The binaries need no library from their own
#   directory (the Swift runtime is linked in), and with one the loader first looks there for
#   every shared library it loads (libsqlite3, libsodium, libc, …: 16 failed `openat`s and 10
#   failed `stat`s a process), and would load a library planted beside the binary.
#
# A toolchain without the static runtime, or one that no longer knows the frontend option,
# builds the ordinary way instead (and says so).
set -euo pipefail
cd "$(dirname "$0")/.."
fast=(--static-swift-stdlib --disable-local-rpath -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
static_cxx=()
swift_path=$(readlink -f "$(command -v swift)" 2>/dev/null || true)
for compiler in "${swift_path%/*}/clang" clang g++; do
    archive=$("$compiler" -print-file-name=libstdc++.a 2>/dev/null || true)
    if [[ "$archive" == /* && -f "$archive" ]]; then
        mkdir -p .build/static-libstdc++
        ln -sfn "$archive" .build/static-libstdc++/libstdc++.a
        static_cxx=(-Xswiftc -L -Xswiftc "$PWD/.build/static-libstdc++")
        break
    fi
done
((${#static_cxx[@]})) || echo "build-release: no libstdc++ archive found; linking the shared libstdc++" >&2
for product in "$@"; do
    swift build -c release "${fast[@]}" "${static_cxx[@]}" --product "$product" >&2 && continue
    if ((${#static_cxx[@]})) && swift build -c release "${fast[@]}" --product "$product" >&2; then
        echo "build-release: built $product with the shared libstdc++ (linking its archive failed)" >&2
        continue
    fi
    echo "build-release: building $product without ${fast[*]}" >&2
    swift build -c release --disable-local-rpath --product "$product" >&2
done
