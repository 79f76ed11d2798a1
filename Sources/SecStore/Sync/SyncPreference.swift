import Foundation

/// Which of two items stored for one place answers a lookup that wants one: the most recently
/// modified, whatever its kind; of two modified in the same instant, the synchronizable one.
///
/// Both kinds can exist for one place (an item kept on this device and one that arrived from
/// another device): the newer is the one most likely to work (a token rotated on another
/// device arrives newer), and the tie goes to the one every device of the owner answers with.
/// The credential helpers and the Secret Service provider both choose this way
/// (docs/integrations.md, "Sync").
///
/// ```swift
/// let best = items.min { SyncPreference.precedes($0.attributes, $1.attributes) }
/// ```
package enum SyncPreference {
    /// Whether an item with `first`'s attributes is preferred to one with `second`'s.
    package static func precedes(_ first: Attributes, _ second: Attributes) -> Bool {
        precedes(modified: first.modificationDate, synchronizable: first.isSynchronizable ?? false,
                 over: second.modificationDate, synchronizable: second.isSynchronizable ?? false)
    }

    /// The same rule over the two attributes it reads (an item without a date is oldest).
    package static func precedes(modified: Date?, synchronizable: Bool, over otherModified: Date?,
                                 synchronizable otherSynchronizable: Bool) -> Bool {
        let date = modified ?? .distantPast, otherDate = otherModified ?? .distantPast
        return date != otherDate ? date > otherDate : synchronizable && !otherSynchronizable
    }
}
