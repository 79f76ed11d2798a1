import Foundation

/// The order of a synchronized item's versions, decided alike on every device: the later
/// modification wins, and of two made in the same microsecond, the greater device id
/// (docs/sync.md, "Conflicts").
///
/// ```swift
/// let mine = SyncVersion(modified: 1_700_000_000_000_000, device: myDeviceID)
/// if incoming.version > mine { /* theirs wins */ }
/// ```
package struct SyncVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Microseconds since 1970: an item's modification date, or when it was deleted.
    package var modified: Int64
    /// The 16-byte id of the device that made the change.
    package var device: [UInt8]

    package init(modified: Int64, device: [UInt8]) {
        self.modified = modified
        self.device = device
    }

    /// `date` in the microseconds a version counts. Dates outside ``StorableDates`` never
    /// reach the store; one there from before that rule counts as the nearest end of `Int64`
    /// (a NaN as the start) rather than stopping the program.
    package static func microseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1_000_000).rounded()
        if let exact = Int64(exactly: value) { return exact }
        return value > 0 ? .max : .min
    }

    package static func < (lhs: SyncVersion, rhs: SyncVersion) -> Bool {
        lhs.modified != rhs.modified ? lhs.modified < rhs.modified : lhs.device.lexicographicallyPrecedes(rhs.device)
    }

    package var description: String { "\(modified)@\(Hex.string(device))" }
}

/// What this store last pushed or applied for one record (one item's primary key, under
/// the circle's tag key): the version a newer record must beat, and where it stands in etcd.
package struct SyncRecordState: Sendable, Hashable {
    /// The record's opaque tag (its etcd key names it).
    package var tag: [UInt8]
    /// The local item it is, or `nil` for a deletion.
    package var itemID: Int64?
    /// The opaque id of the item's access group, whose key seals the record.
    package var groupID: [UInt8]
    package var version: SyncVersion
    /// The etcd revision that last wrote the record (its `mod_revision`), 0 before any.
    package var revision: Int64
    package var deleted: Bool
    /// When the synced item was deleted here (microseconds), until its tombstone is pushed.
    package var pendingDeletion: Int64?

    package init(tag: [UInt8], itemID: Int64?, groupID: [UInt8], version: SyncVersion, revision: Int64, deleted: Bool,
                 pendingDeletion: Int64? = nil) {
        self.tag = tag
        self.itemID = itemID
        self.groupID = groupID
        self.version = version
        self.revision = revision
        self.deleted = deleted
        self.pendingDeletion = pendingDeletion
    }
}

/// A local change to a live item waiting to be pushed: the item, and the journal's sequence
/// number that a push must still find for the entry to be cleared (a newer change renumbers it).
/// Deletions wait in ``SyncRecordState/pendingDeletion`` instead.
package struct SyncOutboxEntry: Sendable, Hashable {
    package var itemID: Int64
    package var sequence: Int64
    /// When the change was made, in microseconds.
    package var changed: Int64
}

/// An item as sync carries it: its class, every attribute (dates, group and free-form pairs
/// included) and its secret.
package struct SyncedItem: Sendable {
    package var itemClass: ItemClass
    package var attributes: Attributes
    package var secret: Data

    package init(itemClass: ItemClass, attributes: Attributes, secret: Data) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.secret = secret
    }

    /// Whether Apple would sync it: `synchronizable` true and a class that is not `…ThisDeviceOnly`.
    package var isSynchronizable: Bool { SyncJournal.isEligible(attributes) }
}
