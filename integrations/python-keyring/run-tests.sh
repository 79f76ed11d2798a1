#!/usr/bin/env bash
# Tests the Python keyring backend (keyring_secstore) with the real `keyring` package from PyPI:
# keyring's own conformance tests (keyring.testing.backend.BackendBasicTests), the `keyring`
# command-line tool, and the backend's error cases.
#
#   SECSTORE_BIN=/path/to/secstore integrations/python-keyring/run-tests.sh [PYTEST ARGS…]
#
# The secstore executable: $SECSTORE_BIN, else `secstore` on PATH, else .build/debug/secstore.
# The virtual environment lives outside the repository, one per checkout, and is reused:
#   ${SECSTORE_PYTHON_KEYRING_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/secstore-python-keyring-venv/<checkout>}
# Its first creation downloads keyring, pytest and setuptools from PyPI; later runs need no
# network. It is rebuilt when the pinned requirements or pyproject.toml change.
# Needs python3 (3.9 or later) with the venv module (Debian/Ubuntu: python3-venv).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}

# Versions the tests are written against (the conformance class changes between majors).
requirements=("keyring>=25.7,<26" "pytest>=8,<9" "setuptools>=70.1")

if ! command -v "$python" >/dev/null 2>&1; then
    echo "run-tests.sh: $python not found; install Python 3 (Debian/Ubuntu: apt-get install python3 python3-venv)" >&2
    exit 3
fi

if [ -z "${SECSTORE_BIN:-}" ]; then
    if command -v secstore >/dev/null 2>&1; then
        SECSTORE_BIN=$(command -v secstore)
    elif [ -x "$repo/.build/debug/secstore" ]; then
        SECSTORE_BIN=$repo/.build/debug/secstore
    else
        echo "run-tests.sh: no secstore executable: set SECSTORE_BIN, put secstore on PATH, or run swift build" >&2
        exit 2
    fi
fi
export SECSTORE_BIN

checkout_id=$(printf %s "$here" | cksum | cut -d' ' -f1)
venv=${SECSTORE_PYTHON_KEYRING_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/secstore-python-keyring-venv/$checkout_id}
mkdir -p "$(dirname "$venv")"

# What the environment was built from: rebuilt when any of it changes.
stamp_text=$(
    printf '%s\n' "${requirements[@]}"
    printf 'checkout %s\n' "$here"
    "$python" -c 'import sys; print("python", sys.version)'
    cksum < "$here/pyproject.toml"
)

build_venv() {
    if [ -f "$venv/stamp" ] && [ "$(cat "$venv/stamp")" = "$stamp_text" ] && [ -x "$venv/bin/python" ]; then
        return 0
    fi
    echo "run-tests.sh: building the virtual environment $venv (downloads from PyPI)" >&2
    rm -rf "$venv"
    if ! "$python" -m venv "$venv" >&2; then
        echo "run-tests.sh: $python -m venv failed; install the venv module (Debian/Ubuntu: apt-get install python3-venv)" >&2
        rm -rf "$venv"
        return 1
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}" >&2
    # Editable: the tests import this checkout's keyring_secstore, and its entry point is
    # registered so keyring finds the backend as it would after `pip install`.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps \
        --editable "$here" >&2
    printf '%s\n' "$stamp_text" > "$venv/stamp"
}

# One build at a time per environment (test runs may start together).
if command -v flock >/dev/null 2>&1; then
    exec 9>"$venv.lock"
    flock 9
    build_venv
    flock -u 9
    exec 9>&-
else
    build_venv
fi

# No bytecode or pytest cache written into the repository.
export PYTHONDONTWRITEBYTECODE=1
cd "$here"
exec "$venv/bin/python" -m pytest -p no:cacheprovider -v -rs "$@" tests
