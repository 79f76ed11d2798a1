import Foundation
import Testing
import SecStore

/// Whether a test checks its expectations on the handle that wrote the items, or on a
/// fresh ``SecretStore`` opened on the same file after the first one was released.
enum Handle: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sameHandle
    case reopened

    var testDescription: String { rawValue }
}

/// One test's store: a temporary directory, its device key, and the open handle, which
/// ``settle(_:)`` can replace by a freshly opened one.
final class StoreHarness: @unchecked Sendable {
    let directory: TemporaryDirectory
    let access: StoreAccess
    private(set) var store: SecretStore!

    init(access: StoreAccess = .entitled(TestEntitlements.app)) throws {
        directory = TemporaryDirectory()
        self.access = access
        store = try directory.openStore(access: access)
    }

    /// For ``Handle/reopened``, drops the current handle (closing its SQLite connections)
    /// and opens the file again with the same device key and access.
    func settle(_ handle: Handle) throws {
        guard handle == .reopened else { return }
        store = nil
        store = try directory.openStore(access: access, createIfMissing: false)
    }

    /// Another handle on the same file with other access (another "process").
    func open(as access: StoreAccess) throws -> SecretStore {
        try directory.openStore(access: access, createIfMissing: false)
    }
}

/// Short builders for the reference's base dictionaries (§6: A, Q and I).
enum Sample {
    /// A = {genp, svce "s", acct "a", v_Data "pw"}
    static func a(accessGroup: String? = nil, synchronizable: Bool? = nil) -> Item {
        .genericPassword(service: "s", account: "a", data: "pw".utf8Data, accessGroup: accessGroup,
                         synchronizable: synchronizable)
    }

    /// I = {inet, srvr "example.com", acct "u", port 443, ptcl "htps", atyp "dflt", v_Data "pw"}
    static func i(server: String = "example.com") -> Item {
        .internetPassword(server: server, account: "u", data: "pw".utf8Data, protocol: .https, port: 443,
                          authenticationType: .default)
    }

    /// Q = {genp, svce "s", acct "a"}, returning `returning`.
    static func q(returning: ReturnOptions = .attributes, limit: MatchLimit = .one) -> Query {
        Query(service: "s", account: "a", limit: limit, returning: returning)
    }

    /// A generic-password query over raw attributes.
    static func genp(_ attributes: Attributes, limit: MatchLimit = .all, returning: ReturnOptions = .attributes,
                     synchronizable: SynchronizableMatch = .no, caseInsensitive: Bool = false) -> Query {
        Query(itemClass: .genericPassword, attributes: attributes, synchronizable: synchronizable, limit: limit,
              caseInsensitive: caseInsensitive, returning: returning)
    }

    /// An internet-password query over raw attributes.
    static func inet(_ attributes: Attributes, limit: MatchLimit = .all, returning: ReturnOptions = .attributes,
                     hostOrSubdomain: String? = nil) -> Query {
        Query(itemClass: .internetPassword, attributes: attributes, limit: limit, hostOrSubdomain: hostOrSubdomain,
              returning: returning)
    }
}

extension SecretStore {
    /// How many items `query` finds with no limit; 0 instead of `itemNotFound`.
    func count(_ query: Query) throws -> Int {
        var query = query
        query.limit = .all
        query.returning = []
        do {
            return try items(matching: query).count
        } catch let error as SecStoreError where error.code == .itemNotFound {
            return 0
        }
    }

    /// The secret of the one item `query` finds.
    func secret(_ query: Query) throws -> Data? {
        var query = query
        query.returning = .data
        query.limit = .one
        return try items(matching: query).first?.data
    }
}
