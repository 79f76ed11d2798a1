import Foundation
import GRDB
import SecStoreTestSupport
import Testing
@testable import SecStore

/// The index SQLite picks for each query shape. Before: listing one service from an
/// entitled handle (class, group, service) walked every item of the app's group through
/// `items_by_group`, so listing 1,000 items cost 600 µs per item at 1M items.
@Suite struct QueryPlanIndexTests {
    func plan(_ shape: QueryPlan.Shape, in dir: TemporaryDirectory) throws -> String {
        _ = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        let sql = ItemsTable.selectText(shape)
        let arguments = Array(repeating: DatabaseValue.null, count: sql.filter { $0 == "?" }.count)
        return try DatabaseQueue(path: dir.storeURL.path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(arguments))
                .map { $0["detail"] as String }.joined(separator: "; ")
        }
    }

    @Test func eachShapeUsesTheMostSelectiveIndex() throws {
        let dir = TemporaryDirectory()
        #expect(try plan(.init(groupTags: 1, nameTags: 1), in: dir).contains("items_by_name"))
        #expect(try plan(.init(groupTags: 2, nameTags: 1, accountTags: 1), in: dir).contains("items_by_name"))
        #expect(try plan(.init(groupTags: 1, accountTags: 1), in: dir).contains("items_by_account"))
        #expect(try plan(.init(primaryKeyTags: 2, groupTags: 0), in: dir).contains("pk_tag"))
        #expect(try plan(.init(groupTags: 1), in: dir).contains("items_by_group"))
        #expect(try plan(.init(byReference: true, groupTags: 1), in: dir).contains("INTEGER PRIMARY KEY"))
    }

    /// Before: listing every item of a service copied each whole row (both blobs) into a
    /// temporary B-tree for `ORDER BY id`. A search that wants every row now takes them in
    /// index order and the engine sorts them; a limited one still sorts in SQL (the limit
    /// must keep the first rows by id).
    @Test func listingsSortInTheEngineNotInATemporaryBTree() throws {
        let dir = TemporaryDirectory()
        #expect(try plan(.init(groupTags: 1, nameTags: 1, unordered: true), in: dir).contains("TEMP B-TREE") == false)
        #expect(try plan(.init(groupTags: 1, nameTags: 1, limit: 5), in: dir).contains("TEMP B-TREE"))
    }

    /// Results still come in insertion (id) order, whatever order the index holds them in.
    @Test func listingsComeInIdOrder() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        let accounts = (0..<40).map { "account-\(($0 * 17) % 40)" }
        for account in accounts {
            try store.add(.genericPassword(service: "svc", account: account, data: Data(account.utf8), accessGroup: "g"))
        }
        let listed = try store.items(matching: Query(service: "svc", limit: .all, returning: .attributes))
        #expect(listed.compactMap(\.attributes.account) == accounts)
    }
}
