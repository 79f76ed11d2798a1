import Foundation

/// What a process may see in a store: an application identifier and keychain access
/// groups, as an Apple entitlements file declares them.
///
/// ```swift
/// let entitlements = Entitlements(applicationIdentifier: "ABCDE12345.com.example.app",
///                                 keychainAccessGroups: ["ABCDE12345.com.example.shared"])
/// let fromFile = try Entitlements(contentsOf: URL(filePath: "App.entitlements"))
/// ```
///
/// Within one Unix user this is an API contract, not an OS boundary: any process of the
/// user can open the store file with other entitlements. See `docs/access-groups.md`.
public struct Entitlements: Sendable, Hashable, CustomStringConvertible {
    /// `application-identifier`: the team-prefixed app id, the last-resort access group.
    public var applicationIdentifier: String?
    /// `keychain-access-groups`, in order: the first is the default group for new items.
    public var keychainAccessGroups: [String]
    /// `com.apple.security.application-groups`, searched after the app id.
    public var applicationGroups: [String]

    /// Entitlements as an entitlements file would declare them. With no application
    /// identifier and no groups, every call fails with `missingEntitlement` (``none``).
    public init(applicationIdentifier: String?, keychainAccessGroups: [String] = [], applicationGroups: [String] = []) {
        self.applicationIdentifier = applicationIdentifier
        self.keychainAccessGroups = keychainAccessGroups
        self.applicationGroups = applicationGroups
    }

    /// No entitlements at all: every call fails with `missingEntitlement`, as on Apple systems.
    public static let none = Entitlements(applicationIdentifier: nil)

    /// The groups this process may use, in Apple's order (`SecTaskCopyAccessGroups`):
    /// keychain access groups, then the application identifier, then application groups.
    public var accessGroups: [String] { AccessRules.accessGroups(of: self) }

    /// Where an item goes when an add names no group: the first `keychain-access-groups`
    /// entry, else the application identifier (`AccessRules`).
    public var defaultAccessGroup: String? { AccessRules.defaultGroup(of: self) }

    /// The application identifier and the access groups in Apple's order, for diagnostics.
    public var description: String {
        "Entitlements(application-identifier: \(applicationIdentifier ?? "none"), access groups: \(accessGroups))"
    }

    // MARK: Property lists

    /// Reads an Apple entitlements property list (XML or binary).
    ///
    /// - Throws: ``SecStoreError`` with code ``SecStoreError/Code/invalidEntitlements`` when the
    ///   file is missing, is not a property list, or declares neither an application identifier
    ///   nor keychain access groups.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SecStoreError(.invalidEntitlements, "Cannot read the entitlements file \(url.path): \((error as NSError).localizedDescription). Check the path (SECSTORE_ENTITLEMENTS names it).")
        }
        try self.init(propertyList: data, source: url.path)
    }

    /// Reads entitlements from property-list bytes (XML or binary); `source` names them in
    /// error messages.
    ///
    /// ```swift
    /// let entitlements = try Entitlements(propertyList: Data(xml.utf8), source: "embedded entitlements")
    /// ```
    ///
    /// - Throws: ``SecStoreError`` with code ``SecStoreError/Code/invalidEntitlements``, as
    ///   ``init(contentsOf:)`` does.
    public init(propertyList data: Data, source: String = "entitlements") throws {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw SecStoreError(.invalidEntitlements, "\(source) is not a property list. Write it as an XML or binary plist with `application-identifier` and `keychain-access-groups`.")
        }
        guard let dictionary = plist as? [String: Any] else {
            throw SecStoreError(.invalidEntitlements, "\(source) is a property list but not a dictionary. Its top level must be a <dict>.")
        }
        func strings(_ key: String) throws(SecStoreError) -> [String] {
            guard let value = dictionary[key] else { return [] }
            guard let array = value as? [Any], let strings = array as? [String] else {
                throw SecStoreError(.invalidEntitlements, "\(source): `\(key)` must be an array of strings.")
            }
            return strings
        }
        func string(_ key: String) throws(SecStoreError) -> String? {
            guard let value = dictionary[key] else { return nil }
            guard let string = value as? String else {
                throw SecStoreError(.invalidEntitlements, "\(source): `\(key)` must be a string.")
            }
            return string
        }
        var appID = try string("application-identifier")
        if appID == nil { appID = try string("com.apple.application-identifier") }
        let groups = try strings("keychain-access-groups")
        let appGroups = try strings("com.apple.security.application-groups")
        if appID == nil && groups.isEmpty {
            throw SecStoreError(.invalidEntitlements, "\(source) declares neither `application-identifier` nor `keychain-access-groups`. Add at least one.")
        }
        for name in groups + appGroups + [appID].compactMap({ $0 }) {
            if name.isEmpty {
                throw SecStoreError(.invalidEntitlements, "\(source) contains an empty group name. Remove it.")
            }
            if name.contains("$(") {
                throw SecStoreError(.invalidEntitlements, "\(source) contains the unexpanded build variable in `\(name)`. Replace `$(AppIdentifierPrefix)` with your team prefix (for example `ABCDE12345.`).")
            }
        }
        self.init(applicationIdentifier: appID, keychainAccessGroups: groups, applicationGroups: appGroups)
    }
}
