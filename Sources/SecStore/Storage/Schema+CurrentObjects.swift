/// The schema objects of the current format version, as SQLite records them in `sqlite_master`,
/// in the order ``Schema/objects(in:)`` reads them (by type, then name, bytewise): what
/// ``Schema``'s migrations make on an empty file, written out so that opening a store compares
/// with it instead of building it (running the migrations on an in-memory database costs about
/// 0.5 ms, measured in C on the 2-core machine; the open's budget is 2 ms).
/// `SchemaDamageTests.theCurrentObjectsAreWhatTheMigrationsMake` checks that it is exactly what
/// the migrations make, so a new format version that forgets it fails there.
///
/// The text is SQLite's: a column added by `ALTER TABLE … ADD COLUMN` (versions 2 and 3) is
/// spliced in before the closing parenthesis of its table's `CREATE TABLE`.
extension Schema {
    static let currentObjects: [Object] = [
        Object(type: "index", name: "item_attributes_by_item", table: "item_attributes", sql: "CREATE INDEX item_attributes_by_item ON item_attributes(item_id)"),
        Object(type: "index", name: "items_by_account", table: "items", sql: "CREATE INDEX items_by_account ON items(account_tag)"),
        Object(type: "index", name: "items_by_group", table: "items", sql: "CREATE INDEX items_by_group ON items(group_tag)"),
        Object(type: "index", name: "items_by_name", table: "items", sql: "CREATE INDEX items_by_name ON items(name_tag, account_tag)"),
        Object(type: "index", name: "items_of_version1", table: "items", sql: "CREATE INDEX items_of_version1 ON items(accessibility) WHERE format = 1"),
        Object(type: "index", name: "sqlite_autoindex_items_1", table: "items", sql: nil),
        Object(type: "index", name: "sqlite_autoindex_sync_records_2", table: "sync_records", sql: nil),
        Object(type: "index", name: "sync_outbox_by_sequence", table: "sync_outbox", sql: "CREATE INDEX sync_outbox_by_sequence ON sync_outbox(sequence)"),
        Object(type: "index", name: "sync_records_pending", table: "sync_records", sql: "CREATE INDEX sync_records_pending ON sync_records(pending_delete) WHERE pending_delete <> 0"),
        Object(type: "index", name: "sync_records_tombstones", table: "sync_records", sql: "CREATE INDEX sync_records_tombstones ON sync_records(recorded_at) WHERE deleted = 1 AND pending_delete = 0 AND revision > 0"),
        Object(type: "table", name: "item_attributes", table: "item_attributes", sql: """
            CREATE TABLE item_attributes (
                tag BLOB NOT NULL,
                item_id INTEGER NOT NULL,
                PRIMARY KEY (tag, item_id)
            ) WITHOUT ROWID
            """),
        Object(type: "table", name: "items", table: "items", sql: """
            CREATE TABLE items (
                id INTEGER PRIMARY KEY,
                ref BLOB NOT NULL,
                class INTEGER NOT NULL,
                accessibility INTEGER NOT NULL,
                pk_tag BLOB NOT NULL UNIQUE,
                name_tag BLOB,
                account_tag BLOB NOT NULL,
                group_tag BLOB NOT NULL,
                metadata BLOB NOT NULL,
                secret BLOB NOT NULL
            , format INTEGER NOT NULL DEFAULT 1)
            """),
        Object(type: "table", name: "keys", table: "keys", sql: """
            CREATE TABLE keys (
                name TEXT PRIMARY KEY NOT NULL,
                protection INTEGER NOT NULL,
                sealed BLOB NOT NULL
            , binding BLOB) WITHOUT ROWID
            """),
        Object(type: "table", name: "store", table: "store", sql: """
            CREATE TABLE store (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                storeID BLOB NOT NULL CHECK (length(storeID) = 16),
                keyEpoch INTEGER NOT NULL DEFAULT 0,
                passphraseSalt BLOB,
                passphraseOperations INTEGER,
                passphraseMemory INTEGER
            , itemsDigest BLOB)
            """),
        Object(type: "table", name: "sync_outbox", table: "sync_outbox", sql: """
            CREATE TABLE sync_outbox (
                item_id INTEGER PRIMARY KEY,
                sequence INTEGER NOT NULL,
                changed INTEGER NOT NULL
            )
            """),
        Object(type: "table", name: "sync_records", table: "sync_records", sql: """
            CREATE TABLE sync_records (
                tag BLOB PRIMARY KEY NOT NULL,
                item_id INTEGER UNIQUE,
                group_id BLOB NOT NULL,
                modified INTEGER NOT NULL,
                device BLOB NOT NULL,
                revision INTEGER NOT NULL,
                deleted INTEGER NOT NULL,
                pending_delete INTEGER NOT NULL DEFAULT 0,
                recorded_at INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID
            """),
        Object(type: "table", name: "sync_state", table: "sync_state", sql: """
            CREATE TABLE sync_state (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                enabled INTEGER NOT NULL DEFAULT 0,
                revision INTEGER NOT NULL DEFAULT 0,
                synced_at INTEGER NOT NULL DEFAULT 0,
                next_sequence INTEGER NOT NULL DEFAULT 1
            )
            """),
    ]
}
