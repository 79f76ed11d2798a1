internal import GRDB

/// The store's tables, and the steps that bring an older file up to date.
///
/// `PRAGMA user_version` holds the format version; `PRAGMA application_id` marks the file
/// as a SecStore store. `docs/design.md` describes every column.
enum Schema {
    /// `'SSt1'`: lets `file(1)`-style tools and SecStore itself recognise a store file.
    static let applicationID: Int32 = 0x5353_7431
    /// The format this library writes.
    static let currentVersion = 1

    /// Steps from version `n` to `n + 1`, indexed by `n`. Version 0 is an empty file.
    private static let migrations: [@Sendable (Database) throws -> Void] = [createVersion1]

    static func version(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    }

    /// Brings the schema to ``currentVersion`` inside the caller's write transaction.
    /// Returns true when the file was empty and has just been created.
    @discardableResult
    static func migrate(_ db: Database, path: String) throws -> Bool {
        let start = try version(db)
        if start > currentVersion {
            throw SecStoreError(.unsupportedFormat, "The store \(path) has format version \(start); this SecStore reads up to \(currentVersion). Upgrade SecStore to open it.")
        }
        if start == 0 {
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            guard tables == 0 else {
                throw SecStoreError(.storeUnavailable, "\(path) is an SQLite database but not a SecStore store. Choose another path.")
            }
        }
        for step in start..<currentVersion {
            try migrations[step](db)
            try db.execute(sql: "PRAGMA user_version = \(step + 1)")
        }
        return start == 0
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
}
