"""A Python keyring backend that keeps passwords in a SecStore store.

Every password is a generic password (``genp``) item: the keyring *service* is the item's
service, the keyring *username* its account. The backend drives the ``secstore`` command-line
tool through its JSON interface (``--json`` and its exit statuses, docs/cli.md): one
``secstore`` process per operation, started without a shell, with every secret passed on
standard input (``--value-stdin``) and read from standard output — never on a command line.

Configuration (all optional):

``SECSTORE_BIN``
    the ``secstore`` executable; else ``secstore`` on ``PATH``. Without either the backend is
    not viable (its ``priority`` raises ``RuntimeError``, as keyring expects).
``SECSTORE_PATH``, ``SECSTORE_DEVICE_KEY``, ``SECSTORE_ENTITLEMENTS``
    read by ``secstore`` itself: the store file, its device key, the default access group.
``SECSTORE_TIMEOUT``
    how many seconds one ``secstore`` run may take (default 60; ``0`` waits for ever). A run
    that takes longer is killed and the operation raises ``keyring.errors.KeyringError``, so a
    hung ``secstore`` (a store file on a stalled network mount, say) never hangs its caller.
    Killing it loses nothing: each write is one SQLite transaction.
``SECSTORE_PASSPHRASE_FILE``
    a private file (mode 0600) whose first line is the store's passphrase; the backend passes
    it to each command as ``--passphrase-file``. Without it, a protected store is readable
    while a ``secstore unlock --for DURATION`` lasts, and a locked one raises
    ``keyring.errors.KeyringLocked``.
keyring properties (``KEYRING_PROPERTY_STORE=…`` in the environment, or
``SecStoreKeyring().with_properties(store=…)``)
    ``store`` and ``device_key`` (``--store``, ``--device-key``), ``group`` (every item in,
    and every query limited to, that access group) and ``accessibility`` (for new items, e.g.
    ``afterFirstUnlock``; ``whenUnlocked`` by default).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Optional

from keyring import errors
from keyring.backend import KeyringBackend
from keyring.credentials import SimpleCredential

try:  # keyring 25 vendors jaraco.classes' properties here
    from keyring.compat import properties
except ImportError:  # pragma: no cover - older keyring
    from jaraco.classes import properties  # type: ignore[no-redef]

__all__ = ["SecStoreKeyring", "find_secstore"]
__version__ = "1.0.0"

# The exit statuses the backend tells apart (docs/cli.md, "Exit statuses").
_SUCCESS = 0
_NOT_FOUND = 3
_DUPLICATE = 4
_LOCKED = 5

_LOCKED_HINT = (
    "the SecStore store is locked: unlock it for a while with `secstore unlock --for 8h`, "
    "or name a private passphrase file in SECSTORE_PASSPHRASE_FILE"
)


def find_secstore() -> str:
    """The ``secstore`` executable: ``$SECSTORE_BIN``, else ``secstore`` on ``PATH``.

    Raises ``RuntimeError`` naming the cause when there is none, which is how a keyring
    backend's ``priority`` says it is not viable.
    """
    configured = os.environ.get("SECSTORE_BIN", "")
    if configured:
        if os.sep not in configured:
            found = shutil.which(configured)
            if found is None:
                raise RuntimeError(f"SECSTORE_BIN names {configured!r}, which is not on PATH")
            return found
        if os.path.isfile(configured) and os.access(configured, os.X_OK):
            return configured
        raise RuntimeError(f"SECSTORE_BIN is {configured!r}, which is not an executable file")
    found = shutil.which("secstore")
    if found is None:
        raise RuntimeError(
            "the secstore command is not on PATH; install it or set SECSTORE_BIN to its path"
        )
    return found


def _timeout() -> Optional[float]:
    """``$SECSTORE_TIMEOUT`` in seconds (default 60), ``None`` for ``0``: how long one run may take."""
    configured = os.environ.get("SECSTORE_TIMEOUT", "")
    if not configured:
        return 60.0
    try:
        seconds = float(configured)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0 or seconds == float("inf"):
        raise errors.KeyringError(
            f"SECSTORE_TIMEOUT is {configured!r}; give a number of seconds (0 waits for ever)."
        )
    return seconds or None


class _Result:
    """What one ``secstore`` run gave: its status, its JSON document, its error message."""

    def __init__(self, command: str, status: int, document: Any, message: str):
        self.command = command
        self.status = status
        self.document = document
        self.message = message


def _text(value: Any) -> str:
    """An attribute value from the JSON shapes: text, or ``{"base64": …}`` for bytes."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("base64"), str):
        return base64.b64decode(value["base64"]).decode("utf-8", errors="replace")
    return ""


# A secret that cannot be converted is reported without the conversion's exception: a
# UnicodeEncodeError's or UnicodeDecodeError's args hold the whole text (its repr shows it to
# any error reporter, its message one character of it), and an exception raised while
# handling another keeps that one as __context__ even with `from None`. So these two
# return None, and the caller raises outside the handler.

def _encoded_secret(password: str) -> Optional[bytes]:
    """The password's UTF-8 bytes, or None when it is not valid Unicode text (a lone surrogate)."""
    try:
        return password.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _decoded_secret(encoded: str) -> Optional[str]:
    """The text of a base64 secret, or None when it is not base64 of UTF-8 text."""
    try:
        return base64.b64decode(encoded).decode("utf-8")
    except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
        return None


@contextlib.contextmanager
def _failures_as(error: type):
    """Reports every failure but a lock as ``error`` (PasswordSetError, PasswordDeleteError)."""
    try:
        yield
    except (errors.KeyringLocked, error):
        raise
    except errors.KeyringError as exc:
        raise error(str(exc)) from exc


class SecStoreKeyring(KeyringBackend):
    """Passwords as generic-password items of a SecStore store, through the ``secstore`` CLI.

    service = the item's service (``svce``), username = its account (``acct``).
    """

    #: keyring properties (``KEYRING_PROPERTY_<NAME>``); ``None`` leaves the choice to secstore.
    store: Optional[str] = None
    device_key: Optional[str] = None
    group: Optional[str] = None
    accessibility: Optional[str] = None

    @properties.classproperty
    def priority(cls) -> float:
        """1 when ``secstore`` can be run; raises ``RuntimeError`` (not viable) otherwise.

        Above keyring's fail and null backends, below the desktop's Secret Service (5): on a
        headless machine, where nothing else is viable, keyring picks SecStore by itself;
        next to a desktop keyring, choose it with ``PYTHON_KEYRING_BACKEND`` or keyringrc.cfg.
        """
        find_secstore()
        return 1

    @properties.classproperty
    def name(cls) -> str:
        return "SecStore"

    # -- keyring's API ---------------------------------------------------------------------

    def get_password(self, service: str, username: str) -> Optional[str]:
        if not self._store_exists():
            return None
        item = self._find(service, username)
        return None if item is None else self._secret(item)

    def set_password(self, service: str, username: str, password: str) -> None:
        secret = _encoded_secret(password)
        if secret is None:
            raise errors.PasswordSetError("The password is not valid Unicode text.")
        with _failures_as(errors.PasswordSetError):
            self._ensure_store()
            # Replace the item when it exists, else add it. Another process may add or delete
            # the same item in between: add then reports a duplicate, update a missing item,
            # and the other one is tried again.
            for _ in range(5):
                if self._update(service, username, secret) or self._add(service, username, secret):
                    return
        raise errors.PasswordSetError(
            "The item kept being added and deleted by another process; try again."
        )

    def delete_password(self, service: str, username: str) -> None:
        with _failures_as(errors.PasswordDeleteError):
            if not self._store_exists():
                raise errors.PasswordDeleteError("Password not found")
            result = self._run("delete", *self._names(service, username))
            if result.status == _NOT_FOUND:
                raise errors.PasswordDeleteError("Password not found")
            self._check(result, errors.PasswordDeleteError)

    def get_credential(self, service: str, username: Optional[str]) -> Optional[SimpleCredential]:
        if username is not None:
            return super().get_credential(service, username)
        if not self._store_exists():
            return None
        # The first match in `secstore list` order (by account, then access group).
        for summary in self._list(service):
            item = self._get_ref(summary.get("ref", ""))
            if item is not None:
                account = _text(item.get("attributes", {}).get("account"))
                return SimpleCredential(account, self._secret(item))
        return None

    # -- operations ------------------------------------------------------------------------

    def _find(self, service: str, username: str) -> Optional[dict]:
        """The item (with its secret) for service and username, or None."""
        return self._get(*self._names(service, username))

    def _get_ref(self, ref: str) -> Optional[dict]:
        return self._get("--ref=" + ref)

    def _get(self, *selection: str) -> Optional[dict]:
        result = self._run("get", *selection)
        if result.status == _NOT_FOUND:
            return None
        self._check(result, errors.KeyringError)
        if not isinstance(result.document, dict):
            raise errors.KeyringError("secstore get did not print a JSON item.")
        return result.document

    def _list(self, service: str) -> list:
        """The service's generic passwords, attributes only (no secret is decrypted)."""
        result = self._run("list", *self._names(service, None))
        self._check(result, errors.KeyringError)
        if not isinstance(result.document, list):
            raise errors.KeyringError("secstore list did not print a JSON array.")
        return [item for item in result.document if isinstance(item, dict)]

    def _update(self, service: str, username: str, secret: bytes) -> bool:
        """Replaces the secret of an existing item; False when there is none."""
        result = self._run("update", *self._names(service, username), "--value-stdin", "--allow-empty", secret=secret)
        if result.status == _NOT_FOUND:
            return False
        self._check(result, errors.PasswordSetError)
        return True

    def _add(self, service: str, username: str, secret: bytes) -> bool:
        """Adds the item; False when it exists already (added by someone else meanwhile)."""
        options = self._names(service, username)
        if self.accessibility:
            options.append("--accessibility=" + self.accessibility)
        result = self._run("add", *options, "--value-stdin", "--allow-empty", secret=secret)
        if result.status == _DUPLICATE:
            return False
        self._check(result, errors.PasswordSetError)
        return True

    def _ensure_store(self) -> None:
        """Creates the store (without a passphrase) on first write, as SecStore's clients do."""
        if self._store_exists():
            return
        result = self._run("create", passphrase=False)
        if result.status not in (_SUCCESS, _DUPLICATE):  # 4: created by someone else meanwhile
            self._check(result, errors.PasswordSetError)

    # -- running secstore ------------------------------------------------------------------

    def _store_path(self) -> Path:
        """The store file, chosen as secstore chooses it (docs/cli.md, "Which store")."""
        if self.store:
            return Path(self.store)
        configured = os.environ.get("SECSTORE_PATH", "")
        if configured:
            return Path(configured)
        data = os.environ.get("XDG_DATA_HOME", "")
        base = Path(data) if data.startswith("/") else Path.home() / ".local" / "share"
        return base / "secstore" / "default.secstore"

    def _store_exists(self) -> bool:
        # Without secstore every operation fails, even one a missing store would answer.
        self._executable()
        # Only a missing file answers "nothing stored" here; any other problem opening the
        # store (busy, another device key, unreadable) is reported by secstore itself.
        return os.path.lexists(self._store_path())

    @staticmethod
    def _executable() -> str:
        try:
            return find_secstore()
        except RuntimeError as exc:
            raise errors.KeyringError(str(exc)) from exc

    def _names(self, service: str, username: Optional[str]) -> list:
        # `--option=value`: a value that starts with "-" stays a value. The empty service and
        # the empty username are `--service ""` and `--account ""`, since `--service=` is a
        # missing value to secstore's parser (and an empty argument cannot be taken for an
        # option). So an empty username is named like any other, and two items of it in two
        # access groups are ambiguous, as for any username.
        options = ["--class=genp"] + (["--service=" + service] if service else ["--service", ""])
        if username is not None:
            options.extend(["--account=" + username] if username else ["--account", ""])
        if self.group:
            options.append("--group=" + self.group)
        return options

    def _run(self, command: str, *options: str, secret: Optional[bytes] = None,
             passphrase: bool = True) -> _Result:
        executable = self._executable()
        arguments = [command, "--json"]
        if self.store:
            arguments.append("--store=" + self.store)
        if self.device_key:
            arguments.append("--device-key=" + self.device_key)
        passphrase_file = os.environ.get("SECSTORE_PASSPHRASE_FILE", "")
        if passphrase and passphrase_file:
            arguments.append("--passphrase-file=" + passphrase_file)
        arguments.extend(options)
        if any("\0" in argument for argument in arguments):
            raise errors.KeyringError(
                "A service, username or option contains a NUL character, which secstore cannot take."
            )
        try:
            argv = [os.fsencode(executable)] + [argument.encode("utf-8") for argument in arguments]
        except UnicodeEncodeError as exc:
            raise errors.KeyringError("A service or username is not valid Unicode text.") from exc
        timeout = _timeout()
        try:
            completed = subprocess.run(
                argv,
                input=secret if secret is not None else b"",
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                shell=False,
                check=False,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            timed_out = True
        except OSError as exc:
            raise errors.KeyringError(f"Cannot run {executable}: {exc.strerror or exc}") from exc
        else:
            timed_out = False
        if timed_out:
            # Raised outside the handler: TimeoutExpired holds what the run had printed.
            raise errors.KeyringError(
                f"secstore {command} did not finish within {timeout:g} s and was stopped "
                "(SECSTORE_TIMEOUT sets the limit; 0 waits for ever)."
            )
        document: Any = None
        if completed.stdout.strip():
            try:
                document = json.loads(completed.stdout)
            except ValueError:
                document = None
        return _Result(command, completed.returncode, document,
                       self._message(completed.returncode, document, completed.stderr))

    @staticmethod
    def _message(status: int, document: Any, stderr: bytes) -> str:
        """The error secstore reported (its JSON error, else its last line on standard error).

        secstore never puts a secret in a message, and neither does this backend.
        """
        if isinstance(document, dict) and isinstance(document.get("error"), dict):
            message = document["error"].get("message")
            if isinstance(message, str) and message:
                return message
        lines = [line.strip() for line in stderr.decode("utf-8", errors="replace").splitlines()]
        errors_only = [line for line in lines if line.startswith("secstore: error:")]
        chosen = (errors_only or [line for line in lines if line] or [""])[-1]
        chosen = chosen[len("secstore: error:"):].strip() if chosen.startswith("secstore: error:") else chosen
        if chosen:
            return chosen
        if status < 0:
            return f"secstore was killed by signal {-status}"
        return f"secstore exited with status {status}"

    @staticmethod
    def _check(result: _Result, error: type) -> None:
        if result.status == _SUCCESS:
            return
        if result.status == _LOCKED:
            raise errors.KeyringLocked(f"{_LOCKED_HINT} ({result.message})")
        raise error(f"secstore {result.command} failed (status {result.status}): {result.message}")

    @staticmethod
    def _secret(item: dict) -> str:
        secret = item.get("secret")
        if isinstance(secret, str):
            return secret
        encoded = item.get("secretBase64")
        if not isinstance(encoded, str):
            raise errors.KeyringError("secstore get printed no secret.")
        secret = _decoded_secret(encoded)
        if secret is None:
            raise errors.KeyringError(
                "The stored secret is not UTF-8 text, so it cannot be a keyring password; "
                "read it with `secstore get`."
            )
        return secret
