"""keyring's own conformance tests for a backend (BackendBasicTests), run with keyring's
SecretService backend against secstore-secret-service on the bus in DBUS_SESSION_BUS_ADDRESS."""

import pytest
from keyring.backends import SecretService
from keyring.testing.backend import BackendBasicTests


class TestSecretServiceKeyring(BackendBasicTests):
    def init_keyring(self):
        assert SecretService.Keyring.priority > 0  # viable: the service answers on the bus
        return SecretService.Keyring()
