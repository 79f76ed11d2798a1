import Foundation
import Testing
import Etcd
import SecStoreTestSupport

extension EtcdTests {
    @Suite struct KV {
        @Test func putRangePrefixAndDelete() async throws {
            let cluster = try await EtcdCluster.start(members: 1)
            let client = try EtcdTests.client(cluster)
            let b = EtcdTests.bytes

            let first = try await client.put(key: b("items/a"), value: b("one"))
            let second = try await client.put(key: b("items/b"), value: [0, 255, 10])
            try await client.put(key: b("itemsX"), value: b("outside the prefix"))
            #expect(second > first)

            let one = try await client.range(key: b("items/a"))
            #expect(one.keyValues == [EtcdKeyValue(key: b("items/a"), value: b("one"), createRevision: first,
                                                   modRevision: first, version: 1)])
            #expect(one.count == 1 && !one.more && one.revision >= second)

            let prefixed = try await client.range(prefix: b("items/"))
            #expect(prefixed.keyValues.map(\.key) == [b("items/a"), b("items/b")])
            #expect(prefixed.keyValues[1].value == [0, 255, 10])

            let page = try await client.range(prefix: b("items/"), limit: 1, keysOnly: true)
            #expect(page.keyValues.count == 1 && page.more && page.count == 2 && page.keyValues[0].value.isEmpty)

            let past = try await client.range(prefix: b("items/"), revision: first)
            #expect(past.keyValues.map(\.key) == [b("items/a")])

            let missing = try await client.range(key: b("nothing"))
            #expect(missing.keyValues.isEmpty && missing.count == 0)

            let (deleteRevision, deleted) = try await client.delete(key: b("items/a"))
            #expect(deleted == 1 && deleteRevision > second)
            #expect(try await client.delete(key: b("items/a")).deleted == 0)
            #expect(try await client.delete(prefix: b("items")).deleted == 2)
            #expect(try await client.range(prefix: []).count == 0)
        }

        /// A pull reads every record under a prefix: pages that would be larger than the client
        /// reads at once shrink until they fit, at one snapshot, and nothing is lost or repeated.
        /// (Pages were a fixed 1,000 keys; with values averaging over 48 KiB a page passed the
        /// 64 MiB answer limit and a pull could never finish.)
        @Test func rangeAllShrinksPagesThatDoNotFit() async throws {
            let cluster = try await EtcdCluster.start(members: 1)
            let writer = try EtcdTests.client(cluster)
            let b = EtcdTests.bytes
            let value = [UInt8](repeating: 0x5A, count: 4_000)   // about 5.4 KB of base64 in JSON
            for index in 0..<60 { try await writer.put(key: b("records/\(1000 + index)"), value: value) }
            try await writer.put(key: b("recordsX"), value: b("outside the prefix"))
            // 60 values are about 330 KB of JSON: over a 64 KiB answer, and 16 of them fit.
            let small = try EtcdClient(endpoints: cluster.clientURLs, maximumResponseBytes: 64 << 10)
            await #expect(throws: EtcdError.self) { _ = try await small.range(prefix: b("records/")) }
            let (found, revision) = try await small.rangeAll(prefix: b("records/"))
            #expect(found.map(\.key) == (0..<60).map { b("records/\(1000 + $0)") })
            #expect(found.allSatisfy { $0.value == value })
            #expect(revision >= found.map(\.modRevision).max() ?? 0)
            // One value over the limit is an error, not an endless loop.
            try await writer.put(key: b("records/9999"), value: [UInt8](repeating: 1, count: 100_000))
            do {
                _ = try await small.rangeAll(prefix: b("records/"))
                Issue.record("a value larger than the answer limit was read")
            } catch EtcdError.responseTooLarge(let limit) {
                #expect(limit == 64 << 10)
            }
        }

        @Test func txnCompareAndSwap() async throws {
            let cluster = try await EtcdCluster.start(members: 1)
            let client = try EtcdTests.client(cluster)
            let key = EtcdTests.bytes("cas")

            let created = try await client.txn(compare: [.absent(key)], success: [.put(key: key, value: [1])],
                                               failure: [.range(key: key)])
            #expect(created.succeeded && created.responses == [.put(revision: created.revision)])

            let again = try await client.txn(compare: [.absent(key)], success: [.put(key: key, value: [2])],
                                             failure: [.range(key: key)])
            #expect(!again.succeeded)
            guard case let .range(current) = again.responses.first else { Issue.record("no range response"); return }
            #expect(current.keyValues.first?.value == [1] && current.keyValues.first?.modRevision == created.revision)

            let stale = try await client.txn(compare: [.unchanged(key, modRevision: created.revision - 1)],
                                             success: [.put(key: key, value: [3])])
            #expect(!stale.succeeded && stale.responses.isEmpty)

            let swapped = try await client.txn(compare: [.unchanged(key, modRevision: created.revision),
                                                         EtcdCompare(key: key, target: .value([1]), result: .equal),
                                                         EtcdCompare(key: key, target: .version(1), result: .equal)],
                                               success: [.put(key: key, value: [4]), .delete(key: EtcdTests.bytes("other"))])
            #expect(swapped.succeeded && swapped.responses == [.put(revision: swapped.revision), .delete(deleted: 0)])
            #expect(try await client.range(key: key).keyValues.first?.value == [4])

            let greater = try await client.txn(compare: [EtcdCompare(key: key, target: .version(1), result: .greater),
                                                         EtcdCompare(key: key, target: .createRevision(created.revision + 1), result: .less),
                                                         EtcdCompare(key: key, target: .value([9]), result: .notEqual)],
                                               success: [.delete(key: key)])
            #expect(greater.succeeded && greater.responses == [.delete(deleted: 1)])
        }

        @Test func readingACompactedRevisionIsACompactedError() async throws {
            let cluster = try await EtcdCluster.start(members: 1)
            let client = try EtcdTests.client(cluster)
            let first = try await client.put(key: [1], value: [1])
            let second = try await client.put(key: [1], value: [2])
            try await client.compact(revision: second)
            await #expect(throws: EtcdError.compacted(revision: 0)) {
                try await client.range(key: [1], revision: first)
            }
        }

        @Test func prefixRangeEnd() {
            #expect(EtcdPrefix.rangeEnd(for: Array("a/".utf8)) == Array("a0".utf8))
            #expect(EtcdPrefix.rangeEnd(for: [1, 0xff, 0xff]) == [2])
            #expect(EtcdPrefix.rangeEnd(for: [0xff]) == [0])
            #expect(EtcdPrefix.rangeEnd(for: []) == [0])
        }
    }
}
