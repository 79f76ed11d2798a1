"""keyring's own backend conformance tests, run against SecStoreKeyring.

`keyring.testing.backend.BackendBasicTests` sets, gets and deletes passwords with unicode,
whitespace and punctuation in every field, empty passwords and usernames, several users per
service, credentials, and keyring properties. Each test starts from a store that does not
exist yet (conftest.py), so the first set_password also creates it.
"""

from keyring.testing.backend import BackendBasicTests

from keyring_secstore import SecStoreKeyring


class TestSecStoreKeyring(BackendBasicTests):
    def init_keyring(self):
        return SecStoreKeyring()
