"""SecStoreKeyring beyond keyring's conformance tests: viability, which store, protected stores,
error reporting, and how secrets travel to and from `secstore`."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import time
import traceback

import pytest
from keyring import errors
from keyring.credentials import SimpleCredential

from keyring_secstore import SecStoreKeyring

from conftest import PASSPHRASE


# -- viability -------------------------------------------------------------------------------

def test_viable_with_secstore_bin():
    assert SecStoreKeyring.viable
    assert SecStoreKeyring.priority == 1


def test_not_viable_without_the_binary(monkeypatch, tmp_path):
    monkeypatch.setenv("SECSTORE_BIN", str(tmp_path / "nowhere" / "secstore"))
    assert not SecStoreKeyring.viable
    with pytest.raises(RuntimeError, match="not an executable file"):
        SecStoreKeyring.priority  # noqa: B018
    # Used anyway (keyring.set_keyring), every operation says why.
    with pytest.raises(errors.KeyringError, match="not an executable file"):
        SecStoreKeyring().get_password("svc", "user")


def test_not_viable_when_not_executable(monkeypatch, tmp_path):
    plain = tmp_path / "secstore"
    plain.write_text("#!/bin/sh\n")
    plain.chmod(0o644)
    monkeypatch.setenv("SECSTORE_BIN", str(plain))
    assert not SecStoreKeyring.viable


def test_not_viable_without_secstore_on_path(monkeypatch, tmp_path):
    monkeypatch.delenv("SECSTORE_BIN")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not SecStoreKeyring.viable
    with pytest.raises(RuntimeError, match="not on PATH"):
        SecStoreKeyring.priority  # noqa: B018


def test_found_on_path(monkeypatch, tmp_path):
    binary = os.environ["SECSTORE_BIN"]
    (tmp_path / "secstore").symlink_to(binary)
    monkeypatch.delenv("SECSTORE_BIN")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert SecStoreKeyring.viable
    keyring = SecStoreKeyring()
    keyring.set_password("svc", "user", "pw")
    assert keyring.get_password("svc", "user") == "pw"


# -- which store -----------------------------------------------------------------------------

def test_reads_never_create_a_store(secstore_location):
    keyring = SecStoreKeyring()
    assert keyring.get_password("svc", "user") is None
    assert keyring.get_credential("svc", None) is None
    assert keyring.get_credential("svc", "user") is None
    with pytest.raises(errors.PasswordDeleteError):
        keyring.delete_password("svc", "user")
    assert not secstore_location.store.exists()
    assert not secstore_location.device_key.exists()


def test_first_write_creates_the_store(secstore_location):
    SecStoreKeyring().set_password("svc", "user", "pw")
    assert stat.S_IMODE(secstore_location.store.stat().st_mode) == 0o600
    info = json.loads(secstore_location.run("info", "--json").stdout)
    assert info["itemCount"] == 1 and info["kdf"] is None


def test_store_and_device_key_properties(secstore_location, tmp_path, monkeypatch):
    other_store, other_key = tmp_path / "other" / "x.secstore", tmp_path / "other" / "x.key"
    keyring = SecStoreKeyring().with_properties(store=str(other_store), device_key=str(other_key))
    keyring.set_password("svc", "user", "elsewhere")
    assert other_store.exists() and other_key.exists()
    assert not secstore_location.store.exists()
    assert keyring.get_password("svc", "user") == "elsewhere"
    assert SecStoreKeyring().get_password("svc", "user") is None
    # The same from the environment, as keyring reads KEYRING_PROPERTY_*.
    monkeypatch.setenv("KEYRING_PROPERTY_STORE", str(other_store))
    monkeypatch.setenv("KEYRING_PROPERTY_DEVICE_KEY", str(other_key))
    assert SecStoreKeyring().get_password("svc", "user") == "elsewhere"


def test_secstore_path_from_the_environment(secstore_location, tmp_path, monkeypatch):
    SecStoreKeyring().set_password("svc", "user", "first")
    monkeypatch.setenv("SECSTORE_PATH", str(tmp_path / "second.secstore"))
    keyring = SecStoreKeyring()
    assert keyring.get_password("svc", "user") is None
    keyring.set_password("svc", "user", "second")
    monkeypatch.setenv("SECSTORE_PATH", str(secstore_location.store))
    assert keyring.get_password("svc", "user") == "first"


def test_default_store_under_home(secstore_location, monkeypatch):
    monkeypatch.delenv("SECSTORE_PATH")
    monkeypatch.delenv("SECSTORE_DEVICE_KEY")
    SecStoreKeyring().set_password("svc", "user", "pw")
    assert (secstore_location.home / ".local/share/secstore/default.secstore").exists()
    monkeypatch.setenv("XDG_DATA_HOME", str(secstore_location.root / "xdg"))
    assert SecStoreKeyring().get_password("svc", "user") is None
    SecStoreKeyring().set_password("svc", "user", "xdg")
    assert (secstore_location.root / "xdg/secstore/default.secstore").exists()


def test_group_and_accessibility_properties(secstore_location):
    keyring = SecStoreKeyring().with_properties(group="com.example.shared", accessibility="afterFirstUnlock")
    keyring.set_password("svc", "user", "grouped")
    item = json.loads(secstore_location.run("get", "--json", "--service", "svc", "--account", "user").stdout)
    assert item["attributes"]["accessGroup"] == "com.example.shared"
    assert item["attributes"]["accessibility"] == "afterFirstUnlock"
    # The same names in the default group are another item; each keyring sees its own.
    SecStoreKeyring().with_properties(group="local.secstore").set_password("svc", "user", "default")
    assert keyring.get_password("svc", "user") == "grouped"
    assert SecStoreKeyring().with_properties(group="local.secstore").get_password("svc", "user") == "default"
    # Without a group, two matches are ambiguous: secstore's message says so, no guess is made.
    with pytest.raises(errors.KeyringError, match="2 items match"):
        SecStoreKeyring().get_password("svc", "user")


@pytest.mark.filterwarnings("ignore:Empty usernames are deprecated")
def test_an_empty_username_in_two_groups_is_ambiguous_too(secstore_location):
    # The empty username was found by listing the service and taking the first item with the
    # empty account, so with one in each of two groups get_password answered with the first
    # group's password (and delete_password deleted it) instead of refusing to guess.
    secstore_location.create()
    for group, secret in (("com.example.a", b"first"), ("com.example.b", b"second")):
        secstore_location.run("add", "--service", "svc", "--group", group, "--value-stdin", stdin=secret)
    with pytest.raises(errors.KeyringError, match="2 items match"):
        SecStoreKeyring().get_password("svc", "")
    with pytest.raises(errors.PasswordDeleteError, match="2 items match"):
        SecStoreKeyring().delete_password("svc", "")
    with pytest.raises(errors.PasswordSetError, match="2 items match"):
        SecStoreKeyring().set_password("svc", "", "third")
    assert SecStoreKeyring().with_properties(group="com.example.b").get_password("svc", "") == "second"
    stored = json.loads(secstore_location.run("list", "--json", "--show-secrets").stdout)
    assert sorted(item["secret"] for item in stored) == ["first", "second"]


def test_items_are_generic_passwords_with_service_and_account(secstore_location):
    SecStoreKeyring().set_password("api.example.com", "alice", "pw")
    items = json.loads(secstore_location.run("list", "--json").stdout)
    assert len(items) == 1
    assert items[0]["class"] == "genp"
    assert items[0]["attributes"]["service"] == "api.example.com"
    assert items[0]["attributes"]["account"] == "alice"
    assert items[0]["attributes"]["accessGroup"] == "local.secstore"
    assert items[0]["attributes"]["accessibility"] == "whenUnlocked"


def test_internet_passwords_are_not_generic_passwords(secstore_location):
    secstore_location.create()
    secstore_location.run("add", "--server", "svc", "--protocol", "https", "--account", "user", "--value-stdin", stdin=b"inet")
    keyring = SecStoreKeyring()
    assert keyring.get_password("svc", "user") is None
    assert keyring.get_credential("svc", None) is None


# -- secrets and names -----------------------------------------------------------------------

@pytest.mark.parametrize("service,username", [
    ("-starts-with-dash", "--"),
    ("--json", "-h"),
    ("a=b", "=c"),
    ("line\nbreak", "\r\n"),
    ("x" * 4096, "y" * 4096),
], ids=["dashes", "option-names", "equals-signs", "line-breaks", "long"])
def test_names_that_look_like_options_or_are_odd(secstore_location, service, username):
    keyring = SecStoreKeyring()
    keyring.set_password(service, username, "pw")
    assert keyring.get_password(service, username) == "pw"
    first = keyring.get_credential(service, None)
    assert (first.username, first.password) == (username, "pw")
    keyring.delete_password(service, username)
    assert keyring.get_password(service, username) is None


@pytest.mark.parametrize("password", ["trailing newline\n", "\n", " ", "tab\tand\x00nul", "\u00e9\u20ac\U0001f511", "p" * 1_000_000],
                         ids=["trailing-newline", "newline", "space", "tab-and-nul", "non-ascii", "one-megabyte"])
def test_passwords_are_kept_exactly(secstore_location, password):
    keyring = SecStoreKeyring()
    keyring.set_password("svc", "user", password)
    assert keyring.get_password("svc", "user") == password
    stored = secstore_location.run("get", "--service", "svc", "--account", "user").stdout
    assert stored == password.encode("utf-8")


@pytest.mark.filterwarnings("ignore:Empty usernames are deprecated")
@pytest.mark.parametrize("username", ["user", ""], ids=["user", "empty-user"])
def test_an_empty_service_is_a_service(secstore_location, username):
    # `--service=` (nothing after the =) is a missing value to secstore's parser: every
    # operation on the empty service failed with status 2, and a read raised instead of
    # answering None.
    keyring = SecStoreKeyring()
    assert keyring.get_password("", username) is None
    keyring.set_password("other", username, "other-pw")
    assert keyring.get_password("", username) is None
    keyring.set_password("", username, "pw")
    keyring.set_password("", username, "pw2")
    assert keyring.get_password("", username) == "pw2"
    assert keyring.get_credential("", None).password == "pw2"
    stored = json.loads(secstore_location.run("list", "--json", "--class", "genp").stdout)
    assert sorted(item["attributes"]["service"] for item in stored) == ["", "other"]
    keyring.delete_password("", username)
    assert keyring.get_password("", username) is None
    assert keyring.get_password("other", username) == "other-pw"
    with pytest.raises(errors.PasswordDeleteError, match="Password not found"):
        keyring.delete_password("", username)


def test_nul_in_a_name_is_refused(secstore_location):
    with pytest.raises(errors.KeyringError, match="NUL"):
        SecStoreKeyring().set_password("s\x00vc", "user", "pw")


def test_a_name_too_long_for_a_command_line_is_an_error(secstore_location):
    keyring = SecStoreKeyring()
    keyring.set_password("svc", "user", "pw")
    huge = "n" * 200_000  # beyond Linux's 128 KiB for one argument
    with pytest.raises(errors.PasswordSetError, match="Argument list too long"):
        keyring.set_password(huge, "user", "pw")
    with pytest.raises(errors.KeyringError, match="Argument list too long"):
        keyring.get_password("svc", huge)
    assert json.loads(secstore_location.run("info", "--json").stdout)["itemCount"] == 1


@pytest.mark.filterwarnings("ignore:Empty usernames are deprecated")
def test_secrets_never_on_a_command_line(secstore_location, tmp_path, monkeypatch):
    # A wrapper that records every argument list and environment secstore is run with.
    log = tmp_path / "argv.log"
    wrapper = tmp_path / "secstore-wrapper"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"printf '%s\\n' \"$@\" >> '{log}'\n"
        f"env >> '{log}'\n"
        f"exec '{os.environ['SECSTORE_BIN']}' \"$@\"\n"
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("SECSTORE_BIN", str(wrapper))
    keyring = SecStoreKeyring()
    secret = "hunter2-\u00e9-SECRET-VALUE"
    keyring.set_password("svc", "user", secret)
    keyring.set_password("svc", "user", secret + "-replaced")
    keyring.set_password("svc", "", secret + "-empty-user")
    keyring.set_password("svc", "", secret + "-empty-user-replaced")
    assert keyring.get_password("svc", "user") == secret + "-replaced"
    assert keyring.get_credential("svc", None).password == secret + "-empty-user-replaced"
    keyring.delete_password("svc", "user")
    recorded = log.read_text(encoding="utf-8")
    assert "--value-stdin" in recorded
    assert "SECRET-VALUE" not in recorded


def test_a_secret_that_is_not_text_is_not_returned_garbled(secstore_location):
    secstore_location.create()
    secstore_location.run("add", "--service", "bin", "--account", "user", "--value-stdin", stdin=b"\xff\xfe\x00binary")
    with pytest.raises(errors.KeyringError, match="not UTF-8 text"):
        SecStoreKeyring().get_password("bin", "user")


def _exception_chain_text(error: BaseException) -> str:
    """What an error reporter may show of an exception and of the ones behind it: each one's
    printed line and its repr (its args), following __cause__ and __context__ whether or not
    they are suppressed. (Not the traceback's source lines: they quote the caller's code.)"""
    parts, seen, pending = [], set(), [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        parts += traceback.format_exception_only(type(current), current) + [repr(current)]
        pending += [current.__cause__, current.__context__]
    return "\n".join(parts)


def test_no_secret_behind_an_error(secstore_location):
    # A UnicodeEncodeError's or UnicodeDecodeError's args hold the whole text it could not
    # convert: chained behind keyring's error (`raise … from exc`), the password travelled
    # with it to every error reporter, and the printed traceback showed its bad character.
    keyring = SecStoreKeyring()
    with pytest.raises(errors.PasswordSetError) as raised:
        keyring.set_password("svc", "user", "hunter2-SECRET-\ud800")
    assert "SECRET" not in _exception_chain_text(raised.value)
    assert raised.value.__cause__ is None and raised.value.__context__ is None

    secstore_location.create()
    secstore_location.run("add", "--service", "bin", "--account", "user", "--value-stdin", stdin=b"SECRET-\xff-SECRET")
    with pytest.raises(errors.KeyringError, match="not UTF-8 text") as raised:
        keyring.get_password("bin", "user")
    text = _exception_chain_text(raised.value)
    assert "SECRET" not in text and "xff" not in text
    assert raised.value.__cause__ is None and raised.value.__context__ is None


def test_a_hung_secstore_does_not_hang_its_caller(secstore_location, tmp_path, monkeypatch):
    # Before: secstore ran with no time limit, so a run that never ended (a stalled mount)
    # hung the program that asked for a password. Now it is stopped and reported.
    hung = tmp_path / "secstore-hung"
    hung.write_text("#!/bin/sh\nexec sleep 30\n")
    hung.chmod(0o755)
    monkeypatch.setenv("SECSTORE_BIN", str(hung))
    monkeypatch.setenv("SECSTORE_TIMEOUT", "0.5")
    started = time.monotonic()
    with pytest.raises(errors.KeyringError, match=r"did not finish within 0\.5 s") as raised:
        SecStoreKeyring().set_password("svc", "user", "hunter2-SECRET")
    assert time.monotonic() - started < 10
    text = _exception_chain_text(raised.value)
    assert "SECRET" not in text and "TimeoutExpired" not in text


@pytest.mark.parametrize("configured", ["soon", "-1", "nan", "inf"])
def test_a_bad_timeout_is_refused(secstore_location, monkeypatch, configured):
    monkeypatch.setenv("SECSTORE_TIMEOUT", configured)
    with pytest.raises(errors.KeyringError, match="SECSTORE_TIMEOUT is"):
        SecStoreKeyring().set_password("svc", "user", "pw")


def test_no_timeout_with_zero(secstore_location, monkeypatch):
    monkeypatch.setenv("SECSTORE_TIMEOUT", "0")
    keyring = SecStoreKeyring()
    keyring.set_password("svc", "user", "pw")
    assert keyring.get_password("svc", "user") == "pw"


# -- protected stores ------------------------------------------------------------------------

def protected_store_with_item(location) -> None:
    location.create(passphrase=True)
    location.run("add", "--service", "svc", "--account", "user", "--value-stdin",
                 "--passphrase-file", str(location.passphrase_file()), stdin=b"locked-secret")


def test_locked_store_raises_keyring_locked(secstore_location):
    protected_store_with_item(secstore_location)
    keyring = SecStoreKeyring()
    for operation in (
        lambda: keyring.get_password("svc", "user"),
        lambda: keyring.get_credential("svc", None),
        lambda: keyring.set_password("svc", "user", "new-secret"),
        lambda: keyring.set_password("svc", "other", "new-secret"),
        lambda: keyring.set_password("svc", "", "new-secret"),
        lambda: keyring.delete_password("svc", "user"),
    ):
        with pytest.raises(errors.KeyringLocked) as raised:
            operation()
        message = str(raised.value)
        assert "secstore unlock --for" in message and "SECSTORE_PASSPHRASE_FILE" in message
        assert "secret" not in message.replace("SECSTORE", "")
    # A username no item has is found missing by its names alone, the empty one as any other.
    assert keyring.get_password("svc", "other") is None
    assert keyring.get_password("svc", "") is None
    # Nothing changed.
    stored = secstore_location.run("list", "--json", "--passphrase-file", str(secstore_location.passphrase_file()))
    assert [item["attributes"]["account"] for item in json.loads(stored.stdout)] == ["user"]


def test_passphrase_file_unlocks(secstore_location, monkeypatch):
    protected_store_with_item(secstore_location)
    monkeypatch.setenv("SECSTORE_PASSPHRASE_FILE", str(secstore_location.passphrase_file()))
    keyring = SecStoreKeyring()
    assert keyring.get_password("svc", "user") == "locked-secret"
    keyring.set_password("svc", "user", "changed")
    keyring.set_password("svc", "other", "added")
    first = keyring.get_credential("svc", None)
    assert isinstance(first, SimpleCredential)
    assert (first.username, first.password) == ("other", "added")
    keyring.delete_password("svc", "other")
    assert keyring.get_password("svc", "user") == "changed"


def test_passphrase_file_on_a_store_without_passphrase_is_harmless(secstore_location, monkeypatch):
    monkeypatch.setenv("SECSTORE_PASSPHRASE_FILE", str(secstore_location.passphrase_file()))
    keyring = SecStoreKeyring()
    keyring.set_password("svc", "user", "pw")  # creates the store, without a passphrase
    assert keyring.get_password("svc", "user") == "pw"
    assert json.loads(secstore_location.run("info", "--json").stdout)["kdf"] is None


def test_passphrase_file_others_can_read_is_an_error_not_a_lock(secstore_location, monkeypatch):
    protected_store_with_item(secstore_location)
    monkeypatch.setenv("SECSTORE_PASSPHRASE_FILE", str(secstore_location.passphrase_file(mode=0o644)))
    with pytest.raises(errors.KeyringError) as raised:
        SecStoreKeyring().get_password("svc", "user")
    assert not isinstance(raised.value, errors.KeyringLocked)
    assert "chmod 600" in str(raised.value)
    assert PASSPHRASE not in str(raised.value)


def test_wrong_passphrase_is_an_error(secstore_location, monkeypatch):
    protected_store_with_item(secstore_location)
    monkeypatch.setenv("SECSTORE_PASSPHRASE_FILE", str(secstore_location.passphrase_file("wrong passphrase", mode=0o400)))
    with pytest.raises(errors.PasswordSetError, match="status 6") as raised:
        SecStoreKeyring().set_password("svc", "user", "never-stored-secret")
    assert "never-stored-secret" not in str(raised.value)


def test_shared_unlock_for_a_while(secstore_location, monkeypatch):
    protected_store_with_item(secstore_location)
    monkeypatch.delenv("SECSTORE_KEYRING")
    passphrase = str(secstore_location.passphrase_file())
    unlocked = json.loads(secstore_location.run("unlock", "--for", "5m", "--json", "--passphrase-file", passphrase).stdout)
    try:
        if unlocked.get("sharedWith") != "kernelKeyring":
            pytest.skip(f"the kernel keyring is not available here: {unlocked.get('notSharedBecause')}")
        keyring = SecStoreKeyring()
        assert keyring.get_password("svc", "user") == "locked-secret"
        keyring.set_password("svc", "user", "during-unlock")
        assert keyring.get_password("svc", "user") == "during-unlock"
        secstore_location.run("lock")
        with pytest.raises(errors.KeyringLocked):
            keyring.get_password("svc", "user")
    finally:
        secstore_location.run("lock", check=False)


# -- other failures --------------------------------------------------------------------------

def test_store_of_another_device_key_is_an_error_with_secstores_message(secstore_location, tmp_path, monkeypatch):
    SecStoreKeyring().set_password("svc", "user", "pw")
    # The same store opened with another device key: secstore refuses it (status 8).
    other = tmp_path / "other-key" / "device.key"
    other.parent.mkdir()
    subprocess.run([os.environ["SECSTORE_BIN"], "create", "--store", str(tmp_path / "throwaway.secstore"),
                    "--device-key", str(other)], check=True, capture_output=True)
    monkeypatch.setenv("SECSTORE_DEVICE_KEY", str(other))
    with pytest.raises(errors.KeyringError, match=r"secstore get failed \(status 8\)"):
        SecStoreKeyring().get_password("svc", "user")
    with pytest.raises(errors.PasswordSetError, match=r"status 8") as raised:
        SecStoreKeyring().set_password("svc", "user", "not-this-secret")
    assert "not-this-secret" not in str(raised.value)
    with pytest.raises(errors.PasswordDeleteError, match=r"status 8"):
        SecStoreKeyring().delete_password("svc", "user")


def test_concurrent_writers_keep_one_item(secstore_location):
    SecStoreKeyring().set_password("svc", "init", "x")  # the store exists before the race
    script = (
        "import sys\n"
        "from keyring_secstore import SecStoreKeyring\n"
        "k = SecStoreKeyring()\n"
        "for i in range(5):\n"
        "    k.set_password('race', 'user', sys.argv[1] + str(i))\n"
    )
    import sys
    processes = [subprocess.Popen([sys.executable, "-c", script, name]) for name in ("a", "b", "c")]
    assert [process.wait() for process in processes] == [0, 0, 0]
    items = json.loads(secstore_location.run("list", "--json", "--service", "race").stdout)
    assert len(items) == 1
    assert SecStoreKeyring().get_password("race", "user") in {"a4", "b4", "c4"}
