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
# - The C libraries linked in from their archives: libstdc++ (the Swift runtime is C++),
#   SQLite and libsodium. The loader then maps no library but libc's, binds no symbol of
#   theirs and runs no initializer of theirs: about 0.3 ms of every process for libstdc++
#   (ninth issue-13 session), about 0.6 ms more for SQLite and libsodium (tenth; SQLite's shared
#   library alone makes 1,600 symbol look-ups at load). The archives are the ones the
#   toolchain's clang (beside the real `swift`), else `clang` or `g++` on the PATH, names:
#   Debian's, from the same -dev packages. `.build/static-libs` holds links to them and comes
#   first among the library directories: `-L` as a `swiftc` option, and the package's
#   pkg-config modules (libsodium, libsystemd) copied without their `-L` of the system
#   directory, which would otherwise be searched first and yield the shared libraries. A
#   library without an archive is linked shared, and if linking with the archives fails the
#   script says so and links every library shared, with the default linker (no packed
#   relocations).
# - A security update of any of those archives relinks: each product's stamp records the
#   archives (path, size, time) it was linked with, and a product whose stamp differs is
#   removed before the build, so the next run of this script (scripts/run.sh runs it every
#   time) links the updated code in (docs/decisions.md).
# - Packed relative relocations (`-z pack-relative-relocs`, DT_RELR), linked by the toolchain's
#   lld (gold cannot make them): the binary's 90,000 relative relocations take 17 KB instead
#   of 2.1 MB, which the loader read at every start; about 0.5 ms of every process (tenth
#   issue-13 session). glibc loads such a binary from version 2.36 on and refuses it before,
#   so the script asks for them only where this machine's glibc is that new.
# - `--disable-local-rpath`: no `$ORIGIN` run path. The binaries need no library from their own
#   directory (the Swift runtime is linked in), and with one the loader first looks there for
#   every shared library it loads (libc and libm, and libsqlite3 and libsodium when their
#   archives are missing: 16 failed `openat`s and 10 failed `stat`s a process when it loaded
#   six), and would load a library planted beside the binary.
#
# A toolchain without the static runtime, or one that no longer knows the frontend option,
# builds the ordinary way instead (and says so).
set -euo pipefail
cd "$(dirname "$0")/.."
fast=(--static-swift-stdlib --disable-local-rpath -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
archives="$PWD/.build/static-libs"
mkdir -p "$archives/pkgconfig" "$archives/stamps"
rm -f "$archives"/lib*.a "$archives"/pkgconfig/*.pc
swift_path=$(readlink -f "$(command -v swift)" 2>/dev/null || true)
for library in stdc++ sqlite3 sodium; do
    for compiler in "${swift_path%/*}/clang" clang g++; do
        archive=$("$compiler" -print-file-name="lib$library.a" 2>/dev/null || true)
        if [[ "$archive" == /* && -f "$archive" ]]; then
            ln -sfn "$archive" "$archives/lib$library.a"
            break
        fi
    done
    [[ -e "$archives/lib$library.a" ]] || echo "build-release: no lib$library.a found; linking the shared lib$library" >&2
done
static=(-Xswiftc -L -Xswiftc "$archives")
# Packed relative relocations, where this glibc can load them (see above).
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if [[ -x "${swift_path%/*}/ld.lld" && -n "$glibc" ]] && printf '2.36\n%s\n' "$glibc" | sort -V -C; then
    static+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
fi
# The package's pkg-config modules (libsodium, libsystemd) as installed, less their `-L` of the
# system directory, which the linker searches anyway, but after `.build/static-libs`.
for module in $(sed -n 's/.*pkgConfig: "\([^"]*\)".*/\1/p' Package.swift); do
    for file in /usr/lib/"$(uname -m)"-linux-gnu/pkgconfig/"$module.pc" /usr/lib/pkgconfig/"$module.pc" /usr/share/pkgconfig/"$module.pc"; do
        [[ -f "$file" ]] || continue
        sed -E '/^Libs:/ s/ ?-L *[^ ]+//g' "$file" > "$archives/pkgconfig/$module.pc"
        break
    done
done
static_env=(PKG_CONFIG_PATH="$archives/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}")
linked=$(for archive in "$archives"/lib*.a; do [[ -e "$archive" ]] && stat -L -c '%n %s %Y' "$archive"; done || true)
for product in "$@"; do
    stamp="$archives/stamps/$product"
    [[ "$(cat "$stamp" 2>/dev/null)" == "$linked" ]] || rm -f ".build/release/$product"
    if env "${static_env[@]}" swift build -c release "${fast[@]}" "${static[@]}" --product "$product" >&2; then
        printf '%s\n' "$linked" > "$stamp"
        continue
    fi
    rm -f "$stamp"
    if swift build -c release "${fast[@]}" --product "$product" >&2; then
        echo "build-release: built $product with shared C libraries (linking their archives failed)" >&2
        continue
    fi
    echo "build-release: building $product without ${fast[*]}" >&2
    swift build -c release --disable-local-rpath --product "$product" >&2
done
