/// Why a value found in etcd was refused and never applied (docs/sync.md, "Threat model").
/// Every refusal is counted in the ``SyncReport`` and named in the daemon's log.
enum SyncRefusal: Error, Equatable, CustomStringConvertible {
    /// Its tag does not verify: flipped, sealed for another key, circle or group, or
    /// written by someone without the circle key.
    case unauthentic
    /// It opened, but names another group or primary key than its key says: moved.
    case mismatched
    /// Not a record SecStore writes (wrong layout or format).
    case malformed
    /// Older than what this device already applied at that key: replayed.
    case stale
    /// Sealed under an epoch this device holds no key for, or under a retired epoch after
    /// its successor began (a removed device writing).
    case wrongEpoch
    /// Authentic, but this store cannot keep it (an attribute or size it refuses).
    case unstorable
    /// Its version is more than a day ahead of this device's clock
    /// (``ConflictRules/maximumClockSkew``).
    case aheadOfClock

    var description: String {
        switch self {
        case .unauthentic: "it does not authenticate under the circle's keys (altered, or not written by a member)"
        case .mismatched: "its contents belong to another key (moved)"
        case .malformed: "it is not a record SecStore writes"
        case .stale: "it is older than the version this device already has (replayed)"
        case .wrongEpoch: "it is sealed under a key epoch this device does not accept (written by a removed device?)"
        case .unstorable: "it is authentic but this store cannot keep it (an attribute or a size it refuses)"
        case .aheadOfClock: "its version is more than a day ahead of this device's clock (a member's clock is wrong, or it was forged)"
        }
    }
}
