import Foundation
import Testing
import Etcd
import SecStoreTestSupport

extension EtcdTests {
    @Suite struct TLS {
        let b = EtcdTests.bytes

        @Test func httpsWithTheClusterCAWorksForCallsAndWatches() async throws {
            let cluster = try await EtcdCluster.start(members: 1, options: .init(tls: true))
            #expect(cluster.clientURLs[0].scheme == "https")
            let client = try EtcdClient(endpoints: cluster.clientURLs,
                                        tls: EtcdTLS(certificateAuthorityFile: cluster.certificateAuthorityFile!.path))
            let revision = try await client.put(key: b("t"), value: b("over TLS"))
            #expect(try await client.range(key: b("t")).keyValues.first?.value == b("over TLS"))
            let events = try await EtcdTests.events(client.watch(key: b("t"), startRevision: revision), count: 1)
            #expect(events.first?.keyValue.modRevision == revision)
        }

        @Test func aCertificateFromAnUntrustedCAIsRefusedWithoutRetrying() async throws {
            let cluster = try await EtcdCluster.start(members: 1, options: .init(tls: true))
            // The system's CAs do not include the test's.
            let client = try EtcdClient(endpoints: cluster.clientURLs, retryWindow: 600)
            await #expect {
                try await client.put(key: [1], value: [1])
            } throws: { error in
                guard case let EtcdError.tls(reason)? = error as? EtcdError else { return false }
                return reason.contains("certificate")
            }
        }

        @Test func clientCertificateAuthNeedsTheClientCertificate() async throws {
            let cluster = try await EtcdCluster.start(members: 1, options: .init(clientCertificates: true))
            let ca = cluster.certificateAuthorityFile!.path
            let client = try EtcdClient(endpoints: cluster.clientURLs,
                                        tls: EtcdTLS(certificateAuthorityFile: ca,
                                                     clientCertificateFile: cluster.clientCertificateFile!.path,
                                                     clientKeyFile: cluster.clientKeyFile!.path))
            try await client.put(key: [1], value: [1])
            #expect(try await client.range(key: [1]).count == 1)

            // Refused by the member, and not retried: the window would outlast the test.
            let withoutCertificate = try EtcdClient(endpoints: cluster.clientURLs, tls: EtcdTLS(certificateAuthorityFile: ca),
                                                    retryWindow: 600)
            await #expect {
                try await withoutCertificate.range(key: [1])
            } throws: { error in
                guard case let EtcdError.tls(reason)? = error as? EtcdError else { return false }
                return reason.contains("certificate")
            }
        }

        @Test func unusableTLSFilesFailAtCreation() {
            #expect(throws: EtcdError.self) {
                try EtcdClient(endpoints: [URL(string: "https://127.0.0.1:2379")!],
                               tls: EtcdTLS(certificateAuthorityFile: "/nonexistent/ca.pem"))
            }
            #expect(throws: EtcdError.self) {
                try EtcdClient(endpoints: [URL(string: "https://127.0.0.1:2379")!],
                               tls: EtcdTLS(clientCertificateFile: "/nonexistent/client.pem"))
            }
            #expect(throws: EtcdError.self) {
                try EtcdClient(endpoints: [URL(string: "ftp://127.0.0.1:2379")!])
            }
        }
    }
}
