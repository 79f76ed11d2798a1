#!/usr/bin/env bash
# Builds the DocC documentation of the library targets with the toolchain's own `docc`, with
# no package plugin dependency: the compiler writes symbol graphs while it builds the
# libraries, then `docc convert` turns each target's symbol graphs and its `.docc` catalog
# into a documentation archive.
#
#   scripts/docs.sh                  build every library's archive, print every warning
#   scripts/docs.sh --strict         the same, but exit 1 when there is any warning
#   scripts/docs.sh --analyze        also print DocC's notes (missing abstracts, …)
#   scripts/docs.sh --target SecStore --output /tmp/docs
#
# Builds in .build-docs (its own scratch path, so it never waits for or disturbs .build).
# Archives go to .build-docs/docs/<Target>.doccarchive; serve one with any static web server
# (`python3 -m http.server -d .build-docs/docs/SecStore.doccarchive`, then open
# /documentation/secstore). Diagnostics go to standard output, one a line, as
# `file:line:column: warning: text`; build progress and the summary go to standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    cat <<'EOF'

Options:
  --strict            treat DocC warnings as errors (docc --warnings-as-errors) and exit 1 on any
  --analyze           include DocC's note-level diagnostics (docc --analyze)
  --target NAME       document only this target (repeatable); default: every library
  --output DIR        where the .doccarchive directories go (default: .build-docs/docs)
  --hosting-base-path PATH
                      the base path the archives will be served under (docc --hosting-base-path)
  -h, --help          this help
EOF
}

libraries=(SecStore KeychainServices DeviceIdentity CredentialBridge)
targets=()
strict=false
analyze=false
output="$root/.build-docs/docs"
hosting=()
while [ $# -gt 0 ]; do
    case "$1" in
        --strict) strict=true ;;
        --analyze) analyze=true ;;
        --target) [ $# -ge 2 ] || { echo "docs: --target needs a name" >&2; exit 2; }; targets+=("$2"); shift ;;
        --output) [ $# -ge 2 ] || { echo "docs: --output needs a directory" >&2; exit 2; }; output="$2"; shift ;;
        --hosting-base-path) [ $# -ge 2 ] || { echo "docs: --hosting-base-path needs a path" >&2; exit 2; }; hosting=(--hosting-base-path "$2"); shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "docs: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ ${#targets[@]} -gt 0 ] || targets=("${libraries[@]}")
for target in "${targets[@]}"; do
    [ -d "Sources/$target/$target.docc" ] || { echo "docs: no catalog Sources/$target/$target.docc" >&2; exit 2; }
done
case "$output" in /*) ;; *) output="$root/$output" ;; esac

# The toolchain ships docc next to swift.
docc=${DOCC:-}
if [ -z "$docc" ]; then
    docc=$(command -v docc || true)
    [ -n "$docc" ] || docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
[ -x "$docc" ] || { echo "docs: docc not found; set DOCC to its path (it ships with the Swift toolchain)" >&2; exit 1; }

scripts/bootstrap.sh

scratch="$root/.build-docs"
graphs="$scratch/symbol-graphs"          # every module's graphs, as the compiler writes them
mkdir -p "$graphs"
started=$SECONDS

# 1. Build the libraries, the compiler writing each module's public symbols and doc comments.
#    A module's graph is rewritten whenever the module is recompiled, so the directory is kept
#    between runs: an up-to-date module is not recompiled and its graph stays current.
for target in "${targets[@]}"; do
    echo "docs: building $target" >&2
    swift build --scratch-path "$scratch" --target "$target" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >&2
done
built=$SECONDS

# 2. One archive per target, from its catalog and its own graphs (the module's, plus
#    `<Module>@<Other>.symbols.json` for its extensions of other modules' types).
mkdir -p "$output"
total=0
status=0
for target in "${targets[@]}"; do
    if [ ! -f "$graphs/$target.symbols.json" ]; then
        echo "docs: no symbol graph for $target in $graphs (it was built without one); remove .build-docs and run again" >&2
        exit 1
    fi
    own="$scratch/graphs-by-target/$target"
    rm -rf "$own" && mkdir -p "$own"
    cp "$graphs/$target.symbols.json" "$own/"
    for extension in "$graphs/$target@"*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "$own/"
    done

    flags=(--ide-console-output)
    $analyze && flags+=(--analyze)
    $strict && flags+=(--warnings-as-errors)
    log="$scratch/docc-$target.log"
    echo "docs: converting $target" >&2
    set +e
    "$docc" convert "Sources/$target/$target.docc" \
        --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$target" \
        --fallback-bundle-identifier "org.secstore.$target" \
        --fallback-default-module-kind "Library" \
        --output-path "$output/$target.doccarchive" \
        "${hosting[@]}" "${flags[@]}" >"$log" 2>&1
    result=$?
    set -e
    # One line per diagnostic, `path:line:column: severity: text`, paths relative to the
    # package. DocC wraps a long message after a trailing space; such lines are joined.
    # Fix-it suggestions are dropped; anything else DocC says goes to standard error.
    awk -v root="$root/" '
        function flush() { if (line != "") print line; line = "" }
        /^[^ ]*:[0-9]+:[0-9]+(-[0-9]+:[0-9]+)?: (error|warning|note|fixit): / || /^(error|warning|note): / {
            flush()
            skipping = ($0 ~ /: fixit: /)
            if (!skipping) {
                line = $0
                sub(/^file:\/\//, "", line)
                if (index(line, root) == 1) line = substr(line, length(root) + 1)
            }
            wrapped = ($0 ~ / $/)
            next
        }
        {
            if (skipping) next      # the rest of a fix-it (its replacement text)
            if (wrapped && line != "") { line = line $0; wrapped = ($0 ~ / $/); next }
            flush(); wrapped = 0
            if ($0 !~ /^[[:space:]]*$/) print > "/dev/stderr"
        }
        END { flush() }
    ' "$log" | sort -t: -k1,1 -k2,2n -k3,3n >"$log.lines"
    cat "$log.lines"
    count=$(grep -cE '(^|: )(error|warning): ' "$log.lines" || true)
    total=$((total + count))
    echo "docs: $target: $count warning(s)$([ $result -ne 0 ] && echo ", docc exited with $result") -> ${output#$root/}/$target.doccarchive" >&2
    [ $result -eq 0 ] || status=1
done

echo "docs: $total warning(s) in ${#targets[@]} target(s); build $((built - started)) s, docc $((SECONDS - built)) s" >&2
if $strict && [ $total -gt 0 ]; then status=1; fi
exit $status
