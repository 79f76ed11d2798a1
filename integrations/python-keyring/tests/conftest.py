"""Fixtures: a fresh, empty SecStore location per test, and a way to run `secstore` directly.

Every test gets its own HOME, store path and device key in a temporary directory (the store
itself is created by the first write, or by a test), with the kernel keyring off unless the
test turns it on, so nothing of the user's is read or left behind.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

# Minimal Argon2id cost: passphrase work takes milliseconds in tests.
FAST_KDF = ["--kdf-ops", "1", "--kdf-memory", "8192"]
PASSPHRASE = "correct horse battery staple"


def secstore_bin() -> str:
    path = os.environ.get("SECSTORE_BIN", "")
    if not path:
        pytest.exit("SECSTORE_BIN must name the secstore executable (run-tests.sh sets it)", returncode=2)
    return path


@dataclass
class Location:
    """One test's SecStore files and environment."""

    root: Path
    home: Path
    store: Path
    device_key: Path

    def run(self, *arguments: str, stdin: bytes = b"", env: dict | None = None,
            check: bool = True) -> subprocess.CompletedProcess:
        """Runs `secstore ARGS` on this location's store (from its environment)."""
        completed = subprocess.run(
            [secstore_bin(), *arguments], input=stdin, capture_output=True,
            env=env if env is not None else os.environ.copy(), check=False,
        )
        if check and completed.returncode != 0:
            raise AssertionError(
                f"secstore {' '.join(arguments)} failed with {completed.returncode}: "
                f"{completed.stderr.decode(errors='replace')}"
            )
        return completed

    def create(self, passphrase: bool = False) -> None:
        if passphrase:
            self.run("create", "--passphrase-stdin", *FAST_KDF, stdin=(PASSPHRASE + "\n").encode())
        else:
            self.run("create")

    def passphrase_file(self, passphrase: str = PASSPHRASE, mode: int = 0o600) -> Path:
        path = self.root / f"passphrase-{mode:o}"
        path.write_text(passphrase + "\n")
        path.chmod(mode)
        return path


@pytest.fixture(autouse=True)
def secstore_location(tmp_path, monkeypatch) -> Location:
    """A fresh location, set in the environment before the keyring under test is made."""
    secstore_bin()
    for name in list(os.environ):
        if (name.startswith("SECSTORE_") and name != "SECSTORE_BIN") or name.startswith("KEYRING_PROPERTY_"):
            monkeypatch.delenv(name)
    for name in ("PYTHON_KEYRING_BACKEND", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    location = Location(root=tmp_path, home=home, store=tmp_path / "data" / "test.secstore",
                        device_key=tmp_path / "keys" / "device.key")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("SECSTORE_PATH", str(location.store))
    monkeypatch.setenv("SECSTORE_DEVICE_KEY", str(location.device_key))
    monkeypatch.setenv("SECSTORE_KEYRING", "off")
    # No desktop Secret Service can answer: keyring's automatic choice is made here alone.
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + str(tmp_path / "no-dbus"))
    return location
