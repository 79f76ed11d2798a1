"""SecretStorage (jeepney: its own D-Bus implementation, and the DH session first) against
secstore-secret-service on the bus in DBUS_SESSION_BUS_ADDRESS."""

import secretstorage


def test_item_lifecycle():
    connection = secretstorage.dbus_init()
    assert secretstorage.check_service_availability(connection)
    collection = secretstorage.get_default_collection(connection)
    assert not collection.is_locked()
    assert collection.unlock() is False  # no prompt was needed: "dismissed" is False

    item = collection.create_item("Label one", {"application": "pytest", "user": "alice"},
                                  b"first secret", replace=True, content_type="application/octet-stream")
    assert item.get_secret() == b"first secret"
    assert item.get_secret_content_type() == "application/octet-stream"
    assert item.get_label() == "Label one"
    assert item.get_attributes() == {"application": "pytest", "user": "alice"}
    assert item.get_created() > 0 and item.get_modified() >= item.get_created()

    # replace=True with the same attributes updates the same item.
    again = collection.create_item("Label two", {"application": "pytest", "user": "alice"}, b"second", replace=True)
    assert again.item_path == item.item_path
    assert item.get_secret() == b"second"
    assert item.get_label() == "Label two"

    item.set_label("Renamed")
    item.set_attributes({"application": "pytest", "user": "bob"})
    item.set_secret(b"third")
    assert [i.item_path for i in collection.search_items({"user": "bob"})] == [item.item_path]
    assert list(collection.search_items({"user": "alice"})) == []
    assert [i.item_path for i in secretstorage.search_items(connection, {"application": "pytest"})] == [item.item_path]
    assert item.get_secret() == b"third"
    assert item.get_label() == "Renamed"

    assert item.item_path in [i.item_path for i in collection.get_all_items()]
    assert collection.get_label() == "Default"
    # SecretStorage addresses the default collection by its alias path; Collections lists its real path.
    assert [c.collection_path for c in secretstorage.get_all_collections(connection)] == ["/org/freedesktop/secrets/collection/default"]

    item.delete()
    assert list(collection.search_items({"application": "pytest"})) == []
    connection.close()


def test_unknown_item_is_an_error():
    connection = secretstorage.dbus_init()
    collection = secretstorage.get_default_collection(connection)
    missing = collection.collection_path + "/0123456789abcdef0123456789abcdef"
    try:
        secretstorage.Item(connection, missing).get_label()
    except secretstorage.exceptions.ItemNotFoundException:
        pass
    else:
        raise AssertionError("an unknown item was found")
    connection.close()
