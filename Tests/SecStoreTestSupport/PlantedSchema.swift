/// Schema objects someone who can write a store file but holds no key plants in it with the
/// sqlite3 tool, found by hand against the `secstore` tool (docs/reliability.md, "The file's
/// format and tables"). Each is SQL to run on the store file.
public enum PlantedSchema {
    /// Every column of `items`, in the order of its definition.
    public static let itemColumns = "id, ref, class, accessibility, pk_tag, name_tag, account_tag, group_tag, metadata, secret, format"

    /// A trigger that puts a deleted row back, and one that keeps the items digest as it was,
    /// so the digest still matches the rows: `delete` said "Deleted 1 item.", the secret
    /// stayed, and `verify` found the store intact.
    public static let undoDeletes = """
        CREATE TRIGGER keep AFTER DELETE ON items BEGIN
            INSERT INTO items (\(itemColumns)) VALUES (old.id, old.ref, old.class, old.accessibility, old.pk_tag,
                old.name_tag, old.account_tag, old.group_tag, old.metadata, old.secret, old.format);
        END;
        \(keepDigest)
        """

    /// A trigger that writes an updated row's old blobs back: `update` said "Updated 1 item."
    /// and `get` printed the old secret; with ``keepDigest``, `verify` found the store intact.
    public static let undoUpdates = """
        CREATE TRIGGER revert AFTER UPDATE ON items BEGIN
            UPDATE items SET metadata = old.metadata, secret = old.secret WHERE id = old.id;
        END;
        """

    /// A trigger that keeps `store.itemsDigest` as it was whatever SecStore writes there.
    public static let keepDigest = """
        CREATE TRIGGER keepDigest AFTER UPDATE OF itemsDigest ON store BEGIN
            UPDATE store SET itemsDigest = old.itemsDigest;
        END;
        """
}
