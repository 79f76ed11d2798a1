import Foundation
import SecStore

/// Which of several stored credentials a helper answers with: the most recently stored
/// first, whatever its kind; of two stored in the same instant, the synchronizable one.
///
/// Both kinds can exist for one location (a credential kept on this device and one that
/// arrived from another device, or was added with `secstore add --synchronizable`): the newer
/// is the one most likely to work (a token rotated on another device arrives newer), and
/// the tie goes to the one every device of the owner answers with.
///
/// ```swift
/// let best = items.min { CredentialOrder.precedes($0.attributes, $1.attributes) }
/// ```
enum CredentialOrder {
    /// Whether `first` is preferred to `second`.
    static func precedes(_ first: Attributes, _ second: Attributes) -> Bool {
        let firstDate = first.modificationDate ?? .distantPast, secondDate = second.modificationDate ?? .distantPast
        guard firstDate == secondDate else { return firstDate > secondDate }
        return (first.isSynchronizable ?? false) && !(second.isSynchronizable ?? false)
    }
}
