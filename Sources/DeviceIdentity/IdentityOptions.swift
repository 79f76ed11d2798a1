import Foundation
import SecStore

extension DeviceIdentity {
    /// Whose identifier: one application's, or one shared by a vendor's applications.
    public enum Scope: Sendable, Hashable {
        /// The application's own access group (its application identifier).
        case application
        /// An access group the vendor's applications share, such as
        /// `"ABCDE12345.com.example.shared"`. Every app entitled to it gets the same value.
        case vendor(accessGroup: String)
    }

    /// How the identifier is kept. The defaults follow the lessons of the seed material.
    ///
    /// ```swift
    /// var options = DeviceIdentity.Options(scope: .vendor(accessGroup: "ABCDE12345.com.example.shared"))
    /// options.mirrorURL = appSupport.appending(path: "device-id")
    /// options.derivation = .machineID(vendorID: "com.example")
    /// ```
    public struct Options: Sendable, Hashable {
        /// Whose identifier: the application's own (``Scope/application``, the default) or one
        /// shared by a vendor's applications.
        public var scope: Scope
        /// `afterFirstUnlockThisDeviceOnly` by default: readable by background processes,
        /// never copied to another machine by a backup.
        public var accessibility: Accessibility
        /// An optional second copy outside the store (the seed material's copy in user
        /// defaults): restores a wiped store. The store wins when the two disagree. The file
        /// records the scope's access group, so one file never restores another scope's value;
        /// give each scope its own file.
        public var mirrorURL: URL?
        /// An optional deterministic fallback used before generating a random value.
        public var derivation: Derivation?
        /// `false` by default: the identifier never leaves this device. `true` makes it a
        /// synchronizable item (`kSecAttrSynchronizable`), so a store in a sync circle
        /// (`secstore sync`, docs/sync.md) gives the same identifier to every device of its
        /// owner: a *user's* identifier rather than a device's. It needs an ``accessibility``
        /// that may leave the device (not `…ThisDeviceOnly`). When two devices create one
        /// before they sync, the first to reach etcd wins on both (docs/sync.md, "Conflicts").
        ///
        /// ```swift
        /// let options = DeviceIdentity.Options(scope: .vendor(accessGroup: group), accessibility: .afterFirstUnlock,
        ///                                      synchronizable: true)
        /// ```
        public var synchronizable: Bool

        /// Options; each default is the one its property documents (application scope,
        /// `afterFirstUnlockThisDeviceOnly`, no mirror, no derivation, not synchronizable).
        public init(scope: Scope = .application, accessibility: Accessibility = .afterFirstUnlockThisDeviceOnly,
                    mirrorURL: URL? = nil, derivation: Derivation? = nil, synchronizable: Bool = false) {
            self.scope = scope
            self.accessibility = accessibility
            self.mirrorURL = mirrorURL
            self.derivation = derivation
            self.synchronizable = synchronizable
        }
    }

    /// A deterministic identifier for apps that must get the same value back even after the
    /// store itself is deleted.
    public enum Derivation: Sendable, Hashable {
        /// systemd's app-specific machine id: HMAC-SHA256(key: machine id, message: a 128-bit
        /// vendor id), truncated to 128 bits and stamped as a version-4 UUID. Never the raw
        /// machine id; different vendors get unrelated values. A `vendorID` that is a UUID, or
        /// 32 hex digits, is used as the 128-bit id itself (as systemd's
        /// `sd_id128_get_machine_app_specific` takes one); any other string is hashed to 128
        /// bits with SHA-256 (its first 16 bytes).
        ///
        /// `machineIDFile` must be a regular file of this user or root that no one else may
        /// write (`/etc/machine-id` is root's, `0444`): whoever could write it would choose the
        /// derived identifier, so ``DeviceIdentity/identifier()`` refuses any other with
        /// `storeUnavailable`, as it does a missing or malformed one.
        ///
        /// ```swift
        /// options.derivation = .machineID(vendorID: "com.example")
        /// ```
        case machineID(vendorID: String, machineIDFile: URL = URL(filePath: "/etc/machine-id"))
    }

    /// The service of the identifier item, `"secstore.device-identity"`. The names are fixed
    /// so programs in other languages can find it: a generic password with this service and
    /// ``account``, whose secret is the UUID's uppercase string.
    public static let service = "secstore.device-identity"
    /// The account of the identifier item: `"device-uuid"`.
    public static let account = "device-uuid"
}
