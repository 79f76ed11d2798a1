#!/usr/bin/env bash
# Installs the system libraries SecStore builds against, when they are missing:
# libsodium-dev (crypto), libsqlite3-dev (SQLite), pkg-config (finds libsodium); and what
# the tests run: git (the credential helper's tests drive the real git binary), python3 and
# python3-venv (the Python keyring backend's tests build a venv with keyring from PyPI),
# strace (scripts/fsync-audit.sh and its test trace every writer's file calls); libsystemd-dev
# (sd-bus, the Secret Service provider's D-Bus library), dbus-daemon and libsecret-tools (its
# tests start a private session bus and drive the real `secret-tool`), and
# golang-docker-credential-helpers (docker-credential-secretservice, driven against it);
# etcd-server and etcd-client (the sync tests start a 3-member etcd cluster on loopback), and
# libcurl4 (FoundationNetworking, etcd's JSON gateway client), openssl (the sync TLS test's certificates).
# SwiftPM cannot install them itself. Uses sudo when not root.
set -euo pipefail

needed=()
for package in libsodium-dev libsqlite3-dev pkg-config git python3 python3-venv strace libsystemd-dev dbus-daemon libsecret-tools golang-docker-credential-helpers etcd-server etcd-client libcurl4 openssl; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || needed+=("$package")
done
[ ${#needed[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "bootstrap: missing ${needed[*]} and apt-get is not available; install them with your package manager." >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "bootstrap: run as root or install sudo to install ${needed[*]}." >&2; exit 1; }
    sudo="sudo"
fi
echo "bootstrap: installing ${needed[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y --no-install-recommends "${needed[@]}" >/dev/null 2>&1; then
    $sudo apt-get update >/dev/null
    $sudo apt-get install -y --no-install-recommends "${needed[@]}" >/dev/null
fi
