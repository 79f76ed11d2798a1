#!/usr/bin/env bash
# The fsync audit (issue 15, item 2): runs every writer of SecStore — the `secstore` commands
# that write (create with its device key, add, update, delete, passphrase set / change /
# remove, export, import, identity show / reset, unlock and lock) and DeviceIdentity with its
# mirror file and a store made by a plain open (through secstore-test-helper) — under
#
#   strace -f -y -e trace=openat,write,pwrite64,fsync,fdatasync,rename,renameat,renameat2,link,linkat,unlink,unlinkat,mkdir,mkdirat
#
# and checks, for every file in the test directory:
#   R1  a file renamed or linked into place was fsynced after its last write;
#   R2  after a rename or link, the destination's directory is fsynced;
#   R3  a file the step created that still exists after it: its directory fsynced after the
#       creation (SQLite's -shm is exempt: it is shared memory, rebuilt after a crash);
#   R4  a file the step wrote that still exists: fsynced after its last write (-shm exempt);
#   R5  a directory the step created: its parent fsynced after the mkdir.
# Every violation is printed with the step, the rule, the file and its syscalls.
#
#   scripts/fsync-audit.sh                       # builds, audits, exits 1 on a violation
#   SECSTORE_BIN_DIR=/path/to/debug scripts/fsync-audit.sh   # use built binaries
#   FSYNC_AUDIT_KEEP=1 scripts/fsync-audit.sh    # keep the traces (printed path)
#   FSYNC_AUDIT_CONTROL=1 scripts/fsync-audit.sh # add a writer with no fsync at all: must fail
#
# Needs strace (scripts/bootstrap.sh installs it) and python3. ReliabilityTests.FsyncAuditTests
# runs it in the suite when strace is there.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v strace >/dev/null || { echo "fsync-audit: strace is not installed (scripts/bootstrap.sh installs it)" >&2; exit 77; }
if [ -z "${SECSTORE_BIN_DIR:-}" ]; then
    scratch="${SECSTORE_SCRATCH:-.build}"
    swift build --scratch-path "$scratch" --product secstore >&2
    swift build --scratch-path "$scratch" --product secstore-test-helper >&2
    SECSTORE_BIN_DIR="$(swift build --scratch-path "$scratch" --show-bin-path)"
fi
secstore="$SECSTORE_BIN_DIR/secstore"
helper="$SECSTORE_BIN_DIR/secstore-test-helper"

work="$(mktemp -d "${TMPDIR:-/tmp}/secstore-fsync-audit.XXXXXX")"
[ -n "${FSYNC_AUDIT_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
export SECSTORE_KEYRING=off
dir="$work/t"
mkdir -p "$dir"
printf 'old-pass\n' > "$work/pass-old"; printf 'new-pass\n' > "$work/pass-new"; printf 'backup-pass\n' > "$work/pass-backup"
chmod 600 "$work"/pass-*
kdf=(--kdf-ops 1 --kdf-memory 8K)
store=(--store "$dir/data/a.secstore" --device-key "$dir/keys/device.key")
store2=(--store "$dir/data/b.secstore" --device-key "$dir/keys/device.key")
steps=0

# step NAME COMMAND…: runs the command under strace, with snapshots of the directory before
# and after, and appends the analysis to the report.
step() {
    local name="$1"; shift
    steps=$((steps + 1))
    local prefix="$work/$(printf '%02d' "$steps")-$name"
    (cd "$dir" && find . -mindepth 1 | sort) > "$prefix.before"
    local status=0
    strace -f -y -qq -o "$prefix.trace" \
        -e trace=openat,open,creat,write,pwrite64,fsync,fdatasync,rename,renameat,renameat2,link,linkat,unlink,unlinkat,mkdir,mkdirat \
        "$@" > "$prefix.out" 2>&1 || status=$?
    (cd "$dir" && find . -mindepth 1 | sort) > "$prefix.after"
    echo "$name $status $prefix" >> "$work/steps"
}

step create-with-device-key "$secstore" "${store[@]}" create --passphrase-file "$work/pass-old" "${kdf[@]}"
step add            "$secstore" "${store[@]}" add --service s --account a --value one --passphrase-file "$work/pass-old"
step update         "$secstore" "${store[@]}" update --service s --account a --value two --passphrase-file "$work/pass-old"
step add-second     "$secstore" "${store[@]}" add --service s --account b --value three --passphrase-file "$work/pass-old"
step delete         "$secstore" "${store[@]}" delete --service s --account b --passphrase-file "$work/pass-old"
step passphrase-change "$secstore" "${store[@]}" passphrase change --passphrase-file "$work/pass-old" --new-passphrase-file "$work/pass-new" "${kdf[@]}"
step passphrase-remove "$secstore" "${store[@]}" passphrase remove --passphrase-file "$work/pass-new"
step passphrase-set "$secstore" "${store[@]}" passphrase set --passphrase-file "$work/pass-old" "${kdf[@]}"
step unlock         "$secstore" "${store[@]}" unlock --passphrase-file "$work/pass-old"
step lock           "$secstore" "${store[@]}" lock
step export         "$secstore" "${store[@]}" export "$work/t/backup.ssb" --backup-passphrase-file "$work/pass-backup" --passphrase-file "$work/pass-old" "${kdf[@]}"
step export-force   "$secstore" "${store[@]}" export "$work/t/backup.ssb" --force --backup-passphrase-file "$work/pass-backup" --passphrase-file "$work/pass-old" "${kdf[@]}"
step create-second  "$secstore" "${store2[@]}" create
step import         "$secstore" "${store2[@]}" import "$work/t/backup.ssb" --backup-passphrase-file "$work/pass-backup"
step identity-show  "$secstore" "${store2[@]}" identity show
step identity-reset "$secstore" "${store2[@]}" identity reset
step verify         "$secstore" "${store2[@]}" verify
step identity-mirror-new-store "$helper" identity --store "$dir/apps/c.secstore" --device-key "$dir/keys/device.key" \
    --app-id ABCDE12345.com.example.app --mirror "$dir/mirror/identity"
step identity-mirror-repair "$helper" identity --store "$dir/apps/c.secstore" --device-key "$dir/keys/device.key" \
    --app-id ABCDE12345.com.example.app --mirror "$dir/mirror/identity" --reset yes
step device-key-only "$helper" op --op add --service s --account a --store "$dir/other/d.secstore" --device-key "$dir/newkeys/device.key" --app-id X.y

status=0
# The control (FSYNC_AUDIT_CONTROL=1): a writer that renames and links without any fsync,
# which the audit must catch under every rule, or its silence proves nothing.
if [ -n "${FSYNC_AUDIT_CONTROL:-}" ]; then
    step control-no-fsync sh -c 'mkdir "$1/ctl" && printf x > "$1/ctl/a.tmp" && mv "$1/ctl/a.tmp" "$1/ctl/a" && printf y > "$1/ctl/b.tmp" && ln "$1/ctl/b.tmp" "$1/ctl/b"' sh "$dir"
fi

python3 - "$work" "$dir" <<'PY' || status=$?
import os, re, sys
work, root = sys.argv[1], sys.argv[2]
call = re.compile(r'^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+|\?)(?:<([^>]*)>)?')
fdpath = re.compile(r'^-?\d+<([^>]*)>')
strarg = re.compile(r'"((?:[^"\\]|\\.)*)"')

def lines(path):
    pending = {}
    for raw in open(path, errors='replace'):
        raw = raw.rstrip('\n')
        m = re.match(r'^(\d+)\s+(.*) <unfinished \.\.\.>$', raw)
        if m:
            pending[m.group(1)] = m.group(2); continue
        m = re.match(r'^(\d+)\s+<\.\.\. \w+ resumed>(.*)$', raw)
        if m:
            raw = m.group(1) + ' ' + pending.pop(m.group(1), '') + m.group(2)
        yield raw

def inside(p): return p.startswith(root + '/') or p == root
def rel(p): return os.path.relpath(p, root) if inside(p) else p
def exempt(p): return p.endswith('-shm')

violations, steps = [], []
for entry in open(os.path.join(work, 'steps')):
    name, status, prefix = entry.split()
    steps.append(name)
    before = {l.strip()[2:] for l in open(prefix + '.before')}
    after = {l.strip()[2:] for l in open(prefix + '.after')}
    unsynced = {}          # path -> index of last unsynced write
    synced_at = {}         # path -> last fsync index
    created = {}           # path -> index of creation
    published = []         # (index, src, dst, unsynced?)
    mkdirs = {}            # dir -> index
    history = {}           # path -> [syscall lines]
    events = []
    for i, line in enumerate(lines(prefix + '.trace')):
        m = call.match(line)
        if not m: continue
        pid, name_, args, result, resultpath = m.groups()
        if result == '?' or result.startswith('-'): continue
        def note(p):
            if inside(p): history.setdefault(p, []).append(line.split(' ', 1)[1][:200])
        if name_ in ('openat', 'open', 'creat'):
            s = strarg.search(args)
            path = resultpath or (s.group(1) if s else None)
            if path and inside(path):
                note(path)
                if ('O_CREAT' in args or name_ == 'creat') and rel(path) not in before and path not in created:
                    created[path] = i
        elif name_ in ('write', 'pwrite64'):
            p = fdpath.match(args)
            if p and inside(p.group(1)):
                unsynced[p.group(1)] = i; note(p.group(1))
        elif name_ in ('fsync', 'fdatasync'):
            p = fdpath.match(args)
            if p and inside(p.group(1)):
                synced_at[p.group(1)] = i; unsynced.pop(p.group(1), None); note(p.group(1))
        elif name_ in ('rename', 'renameat', 'renameat2', 'link', 'linkat'):
            paths = [x for x in strarg.findall(args)]
            if len(paths) >= 2 and inside(paths[-1]):
                src, dst = paths[0], paths[-1]
                note(src); note(dst)
                published.append((i, src, dst, src in unsynced, name_))
                if name_.startswith('rename'):
                    if src in unsynced: unsynced[dst] = unsynced.pop(src)
                    else: unsynced.pop(dst, None)
                    if src in created: created[dst] = created.pop(src)
                else:
                    if src in unsynced: unsynced[dst] = unsynced[src]
                    if src in created: created[dst] = i
        elif name_ in ('unlink', 'unlinkat'):
            s = strarg.findall(args)
            if s and inside(s[-1]):
                note(s[-1]); unsynced.pop(s[-1], None); created.pop(s[-1], None)
        elif name_ in ('mkdir', 'mkdirat'):
            s = strarg.findall(args)
            if s and inside(s[-1]):
                mkdirs[s[-1]] = i; note(s[-1])
    def dir_synced_after(d, i):
        return synced_at.get(d, -1) > i
    def report(rule, path, what):
        violations.append(f"{name}: {rule} {rel(path)}: {what}\n      " + "\n      ".join(history.get(path, [])[-12:]))
    for (i, src, dst, was_unsynced, how) in published:
        if was_unsynced:
            report('R1', dst, f'{how} from {rel(src)} before an fsync of what was written')
        if not dir_synced_after(os.path.dirname(dst), i):
            report('R2', dst, f'{how} into {rel(os.path.dirname(dst))}, whose directory is not fsynced afterwards')
    for path, i in created.items():
        if rel(path) in after and not exempt(path) and not dir_synced_after(os.path.dirname(path), i):
            report('R3', path, f'created, and {rel(os.path.dirname(path))} never fsynced afterwards')
    for path, i in unsynced.items():
        if rel(path) in after and not exempt(path):
            report('R4', path, 'written and never fsynced afterwards')
    for d, i in mkdirs.items():
        if rel(d) in after and not dir_synced_after(os.path.dirname(d), i):
            report('R5', d, f'directory created, and its parent {rel(os.path.dirname(d))} never fsynced afterwards')
    if status != '0':
        violations.append(f"{name}: the command failed (status {status}): " + open(prefix + '.out').read()[-400:])

print(f"fsync-audit: {len(steps)} writers audited: {', '.join(steps)}")
if violations:
    print(f"fsync-audit: {len(violations)} violations")
    for v in violations: print("  " + v)
    sys.exit(1)
print("fsync-audit: no violation")
PY
[ -n "${FSYNC_AUDIT_KEEP:-}" ] && echo "fsync-audit: traces kept in $work" >&2
exit $status
