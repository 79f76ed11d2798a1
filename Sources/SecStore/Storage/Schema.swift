internal import GRDB

/// The store's tables, and the steps that bring an older file up to date.
///
/// `PRAGMA user_version` holds the format version; `PRAGMA application_id` marks the file
/// as a SecStore store. `docs/design.md` describes every column.
enum Schema {
    /// `'SSt1'`: lets `file(1)`-style tools and SecStore itself recognise a store file.
    static let applicationID: Int32 = 0x5353_7431
    /// The format this library writes.
    static let currentVersion = 4

    /// Steps from version `n` to `n + 1`, indexed by `n`. Version 0 is an empty file. A step
    /// changes tables only; what needs the store's keys (binding key rows, the items digest)
    /// is done by ``StoreOpener`` in the same transaction. What the steps up to a version make
    /// is all a file of that version may hold (``checkObjects(_:version:path:)``): a new step
    /// changes ``currentObjects`` too.
    static let migrations: [@Sendable (Database) throws -> Void] = [
        createVersion1, addIntegrityColumns, addCustomAttributes, addSyncJournal,
    ]

    /// The file's format version. SQLite keeps it as a signed 32-bit integer in the file's
    /// header, so a damaged header can hold a negative one: that is damage, never a version.
    static func version(_ db: Database, path: String) throws -> Int {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard version >= 0 else {
            throw SecStoreError(.corruptData, "The store \(path)'s header records format version \(version), which no SecStore writes: the file was damaged or altered. Restore it from a backup (`secstore import`).")
        }
        return version
    }

    /// Brings the schema to ``currentVersion`` inside the caller's write transaction, from a
    /// file holding exactly its version's objects (checked again here, under the write lock:
    /// the version may have changed since the open read it). Returns the version the file
    /// had: 0 when it was empty and has just been created.
    @discardableResult
    static func migrate(_ db: Database, path: String) throws -> Int {
        let start = try version(db, path: path)
        if start > currentVersion {
            throw SecStoreError(.unsupportedFormat, "The store \(path) has format version \(start); this SecStore reads up to \(currentVersion). Upgrade SecStore to open it.")
        }
        if start == 0 {
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            guard tables == 0 else {
                throw SecStoreError(.storeUnavailable, "\(path) is an SQLite database but not a SecStore store. Choose another path.")
            }
        } else {
            try checkObjects(db, version: start, path: path)
        }
        for step in start..<currentVersion {
            try migrations[step](db)
            try db.execute(sql: "PRAGMA user_version = \(step + 1)")
        }
        return start
    }

    static func checkApplicationID(_ db: Database, path: String) throws {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if id != 0 && id != applicationID {
            throw SecStoreError(.storeUnavailable, "\(path) is an SQLite database of another application (application_id \(id)). Choose another path.")
        }
    }

    private static func createVersion1(_ db: Database) throws {
        try db.execute(sql: """
            PRAGMA application_id = \(applicationID);
            CREATE TABLE store (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                storeID BLOB NOT NULL CHECK (length(storeID) = 16),
                keyEpoch INTEGER NOT NULL DEFAULT 0,
                passphraseSalt BLOB,
                passphraseOperations INTEGER,
                passphraseMemory INTEGER
            );
            CREATE TABLE keys (
                name TEXT PRIMARY KEY NOT NULL,
                protection INTEGER NOT NULL,
                sealed BLOB NOT NULL
            ) WITHOUT ROWID;
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
            );
            CREATE INDEX items_by_name ON items(name_tag, account_tag);
            CREATE INDEX items_by_account ON items(account_tag);
            CREATE INDEX items_by_group ON items(group_tag);
            """)
    }

    /// Version 2: the tamper evidence inside one file (docs/design.md).
    /// - `store.itemsDigest`: the keyed digest over every item row (``ItemsDigest``);
    /// - `keys.binding`: each class key row bound to the passphrase state (``KeyTable``);
    /// - `items.format`: how a row is sealed (``ItemSealing/Format``); rows of version 1
    ///   keep 1 until they are next written, and an index finds them at no cost once none is left.
    private static func addIntegrityColumns(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE store ADD COLUMN itemsDigest BLOB;
            ALTER TABLE keys ADD COLUMN binding BLOB;
            ALTER TABLE items ADD COLUMN format INTEGER NOT NULL DEFAULT 1;
            CREATE INDEX items_of_version1 ON items(accessibility) WHERE format = 1;
            """)
    }

    /// Version 3: free-form attributes (``Attributes/custom``). The pairs are sealed in the
    /// metadata; this table holds one blind-index tag per pair, found by tag (the primary
    /// key, a covering index for searches) or by item (to replace or delete an item's).
    private static func addCustomAttributes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE item_attributes (
                tag BLOB NOT NULL,
                item_id INTEGER NOT NULL,
                PRIMARY KEY (tag, item_id)
            ) WITHOUT ROWID;
            CREATE INDEX item_attributes_by_item ON item_attributes(item_id);
            """)
    }

    /// Version 4: the sync journal (docs/sync.md), owned by ``SyncJournal``.
    /// - `sync_state`: whether the store is in a sync circle, the last etcd revision applied,
    ///   when the device was last up to date (microseconds; 0 before), and the outbox's next
    ///   sequence number (never reused);
    /// - `sync_outbox`: one row per live item changed locally and not yet pushed, written in
    ///   the same transaction as the change (`changed`: when, in microseconds);
    /// - `sync_records`: what this store last pushed or applied for each record tag (opaque
    ///   keyed digests of the items' primary keys): the version that a record must beat, the
    ///   etcd revision, the local item, the record's group id (a tombstone is sealed under it),
    ///   `pending_delete`: when the synced item was deleted here, until its tombstone is pushed;
    ///   `recorded_at`: when this device pushed or applied the record (a tombstone's age).
    ///
    /// Indexes keep each pass's reads small whatever the number of records: the outbox by
    /// sequence (the next number, the oldest first), pending deletions, and tombstones by age
    /// (the purge).
    private static func addSyncJournal(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sync_state (
                singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                enabled INTEGER NOT NULL DEFAULT 0,
                revision INTEGER NOT NULL DEFAULT 0,
                synced_at INTEGER NOT NULL DEFAULT 0,
                next_sequence INTEGER NOT NULL DEFAULT 1
            );
            CREATE TABLE sync_outbox (
                item_id INTEGER PRIMARY KEY,
                sequence INTEGER NOT NULL,
                changed INTEGER NOT NULL
            );
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
            ) WITHOUT ROWID;
            CREATE INDEX sync_outbox_by_sequence ON sync_outbox(sequence);
            CREATE INDEX sync_records_pending ON sync_records(pending_delete) WHERE pending_delete <> 0;
            CREATE INDEX sync_records_tombstones ON sync_records(recorded_at) WHERE deleted = 1 AND pending_delete = 0 AND revision > 0;
            """)
    }
}
