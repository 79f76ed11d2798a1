import Foundation
import SecStore
import SecStoreTestSupport
@testable import SecStoreSync

/// One device of a test circle: its own store file and device key in a temporary
/// directory, opened by its owner, and its sync engine once it is in the circle.
final class SyncDevice: @unchecked Sendable {
    let directory = TemporaryDirectory("secstore-sync")
    let store: SecretStore
    var engine: SyncEngine?

    init() throws {
        store = try SecretStore(at: directory.storeURL,
                                options: SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL, createIfMissing: true))
    }

    /// Reopens the store and the engine, as a restarted process would.
    func reopened() throws -> SyncEngine {
        let store = try SecretStore(at: directory.storeURL,
                                    options: SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL))
        return try SyncEngine.open(store: store)
    }

    var syncEngine: SyncEngine {
        get throws {
            guard let engine else { throw SyncError.notConfigured }
            return engine
        }
    }

    @discardableResult
    func syncNow() async throws -> SyncReport { try await syncEngine.syncNow() }

    // MARK: Items

    static let group = "com.example.shared"

    func add(_ account: String, _ secret: String, service: String = "api", synchronizable: Bool = true,
             accessibility: Accessibility = .afterFirstUnlock) throws {
        var attributes = Attributes()
        attributes.service = service
        attributes.account = account
        attributes.accessGroup = Self.group
        attributes.accessibility = accessibility
        attributes.isSynchronizable = synchronizable
        attributes.label = "label of \(account)"
        try store.add(Item(itemClass: .genericPassword, attributes: attributes, data: Data(secret.utf8)))
    }

    /// `count` synchronizable items of service `bulk` in one transaction: `account-N` holding `secret-N`.
    func addBulk(_ count: Int) throws {
        try store.write { transaction in
            for index in 0..<count {
                var attributes: Attributes = [.service: "bulk", .account: .string("account-\(index)"), .accessGroup: .string(Self.group)]
                attributes.isSynchronizable = true
                try transaction.add(Item(itemClass: .genericPassword, attributes: attributes, data: Data("secret-\(index)".utf8)))
            }
        }
    }

    func update(_ account: String, _ secret: String, service: String = "api") throws {
        var query = Query(itemClass: .genericPassword, attributes: [.service: .string(service), .account: .string(account)],
                          synchronizable: .yes)
        query.limit = .all
        _ = try store.update(matching: query, with: ItemChanges(data: Data(secret.utf8)))
    }

    func delete(_ account: String, service: String = "api") throws {
        _ = try store.delete(matching: Query(itemClass: .genericPassword,
                                             attributes: [.service: .string(service), .account: .string(account)],
                                             synchronizable: .yes, limit: .all))
    }

    /// Every item of the test group, as service/account → secret (reserved sync entries aside).
    func contents(synchronizable: SynchronizableMatch = .any) throws -> [String: String] {
        var attributes = Attributes()
        attributes.accessGroup = Self.group
        let items = try store.find(Query(itemClass: .genericPassword, attributes: attributes, synchronizable: synchronizable,
                                         limit: .all, returning: [.attributes, .data]))
        var contents: [String: String] = [:]
        for item in items {
            let sync = item.attributes.isSynchronizable == true ? "" : " (local)"
            contents["\(item.attributes.service ?? "")/\(item.attributes.account ?? "")\(sync)"] =
                String(decoding: item.data ?? Data(), as: UTF8.self)
        }
        return contents
    }

    /// `verify` finds every row intact.
    func verifyIsClean() throws -> Bool {
        let report = try store.verify()
        return report.isIntact && report.itemsMatchDigest
    }
}
