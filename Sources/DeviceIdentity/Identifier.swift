import Foundation

/// A device identifier and where this read got it from.
///
/// ```swift
/// let id = try DeviceIdentity(store: store).identifier()
/// print(id.string, id.provenance)   // "E621E1F8-C36C-495A-93FC-0C247A3E6E5F" store
/// ```
public struct Identifier: Sendable, Hashable, CustomStringConvertible {
    /// The identifier's value.
    public let uuid: UUID
    /// Where this call got the value: the store, the mirror, a derivation, or a new random UUID.
    public let provenance: Provenance

    /// The canonical string: uppercase, as `UUID.uuidString` and Apple's APIs print it.
    public var string: String { uuid.uuidString }

    /// The canonical string in lowercase, as Linux tools (`uuidgen`, systemd) print it.
    public var lowercaseString: String { uuid.uuidString.lowercased() }

    /// The uppercase string and the provenance: `E621E1F8-C36C-495A-93FC-0C247A3E6E5F (store)`.
    public var description: String { "\(string) (\(provenance))" }
}

/// Where an identifier came from.
public enum Provenance: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The item already in the store: the usual case after the first run.
    case store
    /// The store had none, and the local mirror copy restored it.
    case mirror
    /// The store and mirror had none; computed from `/etc/machine-id` for this vendor.
    case derived
    /// Nothing existed: a new random (version 4) UUID.
    case generated

    /// The case name, such as `store`.
    public var description: String { rawValue }
}
