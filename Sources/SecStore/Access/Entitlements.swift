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
    /// identifier and no groups, every call fails with `missingEntitlement` (``none``). An
    /// empty name is no group (``accessGroups`` leaves it out), as a file may not hold one.
    ///
    /// ```swift
    /// let app = Entitlements(applicationIdentifier: "ABCDE12345.com.example.app",
    ///                        keychainAccessGroups: ["ABCDE12345.com.example.shared"])
    /// let store = try SecretStore(options: .init(access: .entitled(app)))
    /// ```
    public init(applicationIdentifier: String?, keychainAccessGroups: [String] = [], applicationGroups: [String] = []) {
        self.applicationIdentifier = applicationIdentifier
        self.keychainAccessGroups = keychainAccessGroups
        self.applicationGroups = applicationGroups
    }

    /// No entitlements at all: every call fails with `missingEntitlement`, as on Apple systems.
    ///
    /// ```swift
    /// let nobody = try SecretStore(options: .init(access: .entitled(.none)))   // every item call: missingEntitlement
    /// ```
    public static let none = Entitlements(applicationIdentifier: nil)

    /// The groups this process may use, in Apple's order (`SecTaskCopyAccessGroups`):
    /// keychain access groups, then the application identifier, then application groups.
    ///
    /// ```swift
    /// Entitlements(applicationIdentifier: "T.app", keychainAccessGroups: ["T.shared"]).accessGroups   // ["T.shared", "T.app"]
    /// ```
    public var accessGroups: [String] { AccessRules.accessGroups(of: self) }

    /// Where an item goes when an add names no group: the first `keychain-access-groups`
    /// entry, else the application identifier (`AccessRules`).
    ///
    /// ```swift
    /// Entitlements(applicationIdentifier: "T.app").defaultAccessGroup   // "T.app"
    /// ```
    public var defaultAccessGroup: String? { AccessRules.defaultGroup(of: self) }

    /// The application identifier and the access groups in Apple's order, for diagnostics.
    public var description: String {
        "Entitlements(application-identifier: \(applicationIdentifier ?? "none"), access groups: \(accessGroups))"
    }

    // MARK: Property lists

    /// Reads an Apple entitlements property list (XML or binary).
    ///
    /// ```swift
    /// let entitlements = try Entitlements(contentsOf: URL(filePath: "/etc/myapp/App.entitlements"))
    /// ```
    ///
    /// - Throws: ``SecStoreError`` with code ``SecStoreError/Code/invalidEntitlements`` when the
    ///   file is missing, is not a property list, or declares neither an application identifier
    ///   nor keychain access groups.
    public init(contentsOf url: URL) throws {
        let data: Data
        // A larger file is refused unread (one that grows meanwhile, once read).
        try PropertyListLimits.checkSize(ofFileAt: url)
        do {
            // Foundation opens with O_NONBLOCK and refuses what is not a regular file: a FIFO
            // at the path must not block the reader (`PerBinaryAccessTests`).
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
        // PropertyListDecoder, not PropertyListSerialization: on Linux the latter crashes (a null
        // pointer while bridging an NSSet) on any binary property list that holds a set, which a
        // damaged or hostile file can (Fixtures/fuzz/entitlements/crashes/), and leaks on every
        // malformed one. The decoder reads XML, binary and OpenStep lists in Swift, and only the
        // keys asked for.
        // Before the decoder: its XML reader recurses once per level (PropertyListLimits).
        try PropertyListLimits.check(data, source: source)
        let file: EntitlementsFile
        do {
            file = try PropertyListDecoder().decode(EntitlementsFile.self, from: data)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw SecStoreError(.invalidEntitlements, "\(source) is a property list but not a dictionary. Its top level must be a <dict>.")
        } catch DecodingError.typeMismatch(_, let context) {
            let key = context.codingPath[0].stringValue
            throw SecStoreError(.invalidEntitlements, EntitlementsFile.CodingKeys(stringValue: key)?.isArray == true
                ? "\(source): `\(key)` must be an array of strings." : "\(source): `\(key)` must be a string.")
        } catch {
            throw SecStoreError(.invalidEntitlements, "\(source) is not a property list. Write it as an XML or binary plist with `application-identifier` and `keychain-access-groups`.")
        }
        let appID = file.applicationIdentifier
        let groups = file.keychainAccessGroups
        let appGroups = file.applicationGroups
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

/// The keys of an entitlements property list that SecStore reads; every other key is skipped
/// unread. `com.apple.application-identifier` (macOS's spelling) is read only when
/// `application-identifier` is absent, as before.
private struct EntitlementsFile: Decodable {
    var applicationIdentifier: String?
    var keychainAccessGroups: [String]
    var applicationGroups: [String]

    enum CodingKeys: String, CodingKey {
        case applicationIdentifier = "application-identifier"
        case macOSApplicationIdentifier = "com.apple.application-identifier"
        case keychainAccessGroups = "keychain-access-groups"
        case applicationGroups = "com.apple.security.application-groups"

        var isArray: Bool { self == .keychainAccessGroups || self == .applicationGroups }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        applicationIdentifier = try container.decodeIfPresent(String.self, forKey: .applicationIdentifier)
            ?? container.decodeIfPresent(String.self, forKey: .macOSApplicationIdentifier)
        keychainAccessGroups = try container.decodeIfPresent([String].self, forKey: .keychainAccessGroups) ?? []
        applicationGroups = try container.decodeIfPresent([String].self, forKey: .applicationGroups) ?? []
    }
}
