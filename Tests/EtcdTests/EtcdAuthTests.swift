import Foundation
import Testing
import Etcd
import SecStoreTestSupport

extension EtcdTests {
    @Suite struct Auth {
        static let password = "s3cret-\(UUID().uuidString.prefix(8))"

        @Test func rightPasswordWorksWrongPasswordAndNoneAreRefused() async throws {
            let cluster = try await EtcdCluster.start(members: 1, options: .init(rootPassword: Self.password))

            let good = try EtcdTests.client(cluster, credentials: EtcdCredentials(user: "root", password: Self.password))
            let revision = try await good.put(key: [1], value: [2])
            #expect(try await good.range(key: [1]).keyValues.first?.modRevision == revision)
            let watched = try await EtcdTests.events(good.watch(key: [1], startRevision: revision), count: 1)
            #expect(watched.first?.keyValue.value == [2])

            let wrong = try EtcdTests.client(cluster, credentials: EtcdCredentials(user: "root", password: "wrong"))
            await #expect {
                try await wrong.put(key: [1], value: [3])
            } throws: { error in
                guard case EtcdError.authenticationFailed? = error as? EtcdError else { return false }
                return !String(describing: error).contains("wrong")
            }

            let anonymous = try EtcdTests.client(cluster)
            await #expect {
                try await anonymous.range(key: [1])
            } throws: { error in
                guard case EtcdError.rejected(_, 3, _)? = error as? EtcdError else { return false }
                return true
            }
        }

        @Test func aRefusedTokenIsReplacedOnce() async throws {
            let cluster = try await EtcdCluster.start(members: 1, options: .init(rootPassword: Self.password))
            let client = try EtcdTests.client(cluster, credentials: EtcdCredentials(user: "root", password: Self.password))
            try await client.put(key: [1], value: [1])

            // Turning auth off and on drops every token etcd had handed out.
            for arguments in [["auth", "disable"], ["auth", "enable"]] {
                let result = try cluster.etcdctl(arguments)
                try #require(result.status == 0, "\(result)")
            }
            try await client.put(key: [1], value: [2])
            #expect(try await client.range(key: [1]).keyValues.first?.value == [2])
        }

        @Test func concurrentFirstCallsShareOneAuthentication() async throws {
            let cluster = try await EtcdCluster.start(members: 1, options: .init(rootPassword: Self.password))
            let observer = try EtcdTests.client(cluster, credentials: EtcdCredentials(user: "root", password: Self.password))
            let before = try await observer.status(of: cluster.clientURLs[0]).raftIndex

            let client = try EtcdTests.client(cluster, credentials: EtcdCredentials(user: "root", password: Self.password))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 { group.addTask { try await client.put(key: [UInt8(index)], value: [1]) } }
                try await group.waitForAll()
            }
            // One Raft entry per put and per authentication: 40 puts, 1 authentication (40 before).
            let after = try await observer.status(of: cluster.clientURLs[0]).raftIndex
            #expect(after - before < 45, "\(after - before) Raft entries for 40 puts")
        }

        @Test func credentialsNeverShowThePassword() {
            let credentials = EtcdCredentials(user: "root", password: Self.password)
            #expect(!String(describing: credentials).contains(Self.password))
            var dumped = ""
            dump(credentials, to: &dumped)
            #expect(!dumped.contains(Self.password) && dumped.contains("root"))
            #expect(!String(reflecting: credentials).contains(Self.password))
        }
    }
}
