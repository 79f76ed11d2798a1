import Foundation

/// A stable handle on one item (`kSecValuePersistentRef`): 20 bytes, the class's four
/// letters followed by the item's 16-byte id (its row id and 8 random bytes), unchanged by
/// updates. A reference to a deleted item finds nothing, even if its row id is reused.
///
/// ```swift
/// let found = try store.items(matching: Query(service: "api", account: "alice",
///                                             returning: .persistentReference))
/// let again = try store.items(matching: Query(persistentReference: found[0].persistentReference!))
/// ```
public struct PersistentReference: Sendable, Hashable, CustomStringConvertible {
    /// The class of the item referred to: the reference's first four bytes.
    public let itemClass: ItemClass
    /// The item's id, also its row's `ref` column: row id (8 bytes, big-endian) ‖ 8 random bytes.
    let id: [UInt8]

    static let idByteCount = 16
    /// The length of ``data``: four letters of class and the id.
    package static let byteCount = 4 + idByteCount

    init(itemClass: ItemClass, id: [UInt8]) {
        precondition(id.count == Self.idByteCount)
        self.itemClass = itemClass
        self.id = id
    }

    /// Reads a reference produced by ``data``; `nil` when the bytes are not one.
    ///
    /// ```swift
    /// if let reference = PersistentReference(data: savedBytes) {
    ///     let item = try store.items(matching: Query(persistentReference: reference, returning: .data))[0]
    /// }
    /// ```
    public init?(data: Data) {
        guard data.count == Self.byteCount,
              let prefix = String(data: data.prefix(4), encoding: .ascii),
              let itemClass = ItemClass(rawValue: prefix)
        else { return nil }
        self.itemClass = itemClass
        self.id = Array(data.dropFirst(4))
    }

    /// The 20-byte form Apple's API hands out.
    public var data: Data { Data(itemClass.rawValue.utf8) + Data(id) }

    /// The reference in lowercase hex, as `secstore` prints it.
    public var hexString: String { Hex.string(data) }

    /// Reads the hex form printed by `secstore`.
    ///
    /// ```swift
    /// if let reference = PersistentReference(hexString: "67656e70000000000000000c1f2e3d4c5b6a7988") {
    ///     let item = try store.items(matching: Query(persistentReference: reference, returning: .data))[0]
    /// }
    /// ```
    public init?(hexString: String) {
        guard hexString.count == 2 * Self.byteCount, let bytes = Hex.bytes(hexString) else { return nil }
        self.init(data: Data(bytes))
    }

    /// The reference in lowercase hex, as ``hexString``.
    public var description: String { hexString }
}
