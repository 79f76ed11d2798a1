"""The `keyring` command-line tool over SecStore: chosen by PYTHON_KEYRING_BACKEND, by
keyringrc.cfg, by `-b`, and by keyring's own choice through the package's entry point."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

BACKEND = "keyring_secstore.SecStoreKeyring"


def keyring_cli(*arguments: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    """Runs `python -m keyring ARGS` (the `keyring` script of this environment) as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "keyring", *arguments], input=stdin.encode(), capture_output=True,
        env=env if env is not None else os.environ.copy(), check=False,
    )


def with_backend_env(**extra: str) -> dict:
    env = os.environ.copy()
    env["PYTHON_KEYRING_BACKEND"] = BACKEND
    env.update(extra)
    return env


def test_set_get_del_with_python_keyring_backend(secstore_location):
    env = with_backend_env()
    result = keyring_cli("set", "api.example.com", "alice", stdin="s3cr3t pass\n", env=env)
    assert result.returncode == 0, result.stderr
    # keyring strips the one newline a pipe adds; the item holds exactly the password.
    assert secstore_location.run("get", "--service", "api.example.com", "--account", "alice").stdout == b"s3cr3t pass"

    result = keyring_cli("get", "api.example.com", "alice", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == "s3cr3t pass\n"

    # Replacing keeps one item.
    assert keyring_cli("set", "api.example.com", "alice", stdin="second\n", env=env).returncode == 0
    assert keyring_cli("get", "api.example.com", "alice", env=env).stdout.decode() == "second\n"
    listed = json.loads(secstore_location.run("list", "--json").stdout)
    assert [(item["class"], item["attributes"]["service"], item["attributes"]["account"]) for item in listed] == [
        ("genp", "api.example.com", "alice")
    ]

    result = keyring_cli("del", "api.example.com", "alice", env=env)
    assert result.returncode == 0, result.stderr
    result = keyring_cli("get", "api.example.com", "alice", env=env)
    assert result.returncode == 1 and result.stdout == b""
    # Deleting what is not there is keyring's PasswordDeleteError.
    result = keyring_cli("del", "api.example.com", "alice", env=env)
    assert result.returncode != 0
    assert b"PasswordDeleteError" in result.stderr


def test_get_creds_mode_returns_the_first_account(secstore_location):
    env = with_backend_env()
    for account, password in (("bob", "pw-bob"), ("alice", "pw-alice")):
        assert keyring_cli("set", "pypi", account, stdin=password, env=env).returncode == 0
    result = keyring_cli("--mode", "creds", "--output", "json", "get", "pypi", env=env)
    assert result.returncode == 0, result.stderr
    # First in `secstore list` order: by account.
    assert json.loads(result.stdout) == {"username": "alice", "password": "pw-alice"}


def test_items_added_by_secstore_are_read_by_keyring(secstore_location):
    secstore_location.create()
    secstore_location.run("add", "--service", "ci", "--account", "deploy", "--value-stdin", stdin="tok\u00e9n".encode())
    result = keyring_cli("get", "ci", "deploy", env=with_backend_env())
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == "tok\u00e9n\n"


def test_keyringrc_cfg_selects_the_backend(secstore_location):
    config = secstore_location.home / ".config" / "python_keyring"
    config.mkdir(parents=True)
    (config / "keyringrc.cfg").write_text(f"[backend]\ndefault-keyring={BACKEND}\n")
    env = os.environ.copy()
    assert keyring_cli("set", "svc", "user", stdin="from-config", env=env).returncode == 0
    assert keyring_cli("get", "svc", "user", env=env).stdout.decode() == "from-config\n"
    assert secstore_location.run("get", "--service", "svc", "--account", "user").stdout == b"from-config"


def test_backend_option_selects_the_backend(secstore_location):
    assert keyring_cli("-b", BACKEND, "set", "svc", "user", stdin="pw").returncode == 0
    assert keyring_cli("-b", BACKEND, "get", "svc", "user").stdout.decode() == "pw\n"


def test_entry_point_lists_and_chooses_the_backend(secstore_location):
    # Installed with pip, the package's keyring.backends entry point makes keyring load it.
    result = keyring_cli("--list-backends")
    assert result.returncode == 0, result.stderr
    assert "keyring_secstore.SecStoreKeyring (priority: 1)" in result.stdout.decode()
    # With no Secret Service on D-Bus (conftest points D-Bus nowhere), keyring chooses SecStore itself.
    chosen = subprocess.run(
        [sys.executable, "-c", "import keyring; print(type(keyring.get_keyring()).__name__)"],
        capture_output=True, check=True,
    )
    assert chosen.stdout.decode().strip() == "SecStoreKeyring"
    assert keyring_cli("set", "auto", "user", stdin="pw").returncode == 0
    assert secstore_location.run("get", "--service", "auto", "--account", "user").stdout == b"pw"


def test_without_secstore_the_backend_is_not_listed(secstore_location, tmp_path):
    env = os.environ.copy()
    env["SECSTORE_BIN"] = str(tmp_path / "missing" / "secstore")
    result = keyring_cli("--list-backends", env=env)
    assert result.returncode == 0, result.stderr
    assert "keyring_secstore" not in result.stdout.decode()
    # Named explicitly, keyring refuses a backend that is not viable, with the reason.
    env["PYTHON_KEYRING_BACKEND"] = BACKEND
    result = keyring_cli("get", "svc", "user", env=env)
    assert result.returncode != 0
    assert b"not an executable file" in result.stderr


@pytest.mark.parametrize("password", ["with\ttab and  spaces", "\u05d6\u05d4 \u03be\u03b5 \u0421\u044a", "-starts-with-dash", "a=b;$(rm -rf /)`x`"])
def test_passwords_round_trip_through_the_cli(secstore_location, password):
    env = with_backend_env()
    assert keyring_cli("set", "svc with space", "user;name", stdin=password, env=env).returncode == 0
    result = keyring_cli("get", "svc with space", "user;name", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == password + "\n"
