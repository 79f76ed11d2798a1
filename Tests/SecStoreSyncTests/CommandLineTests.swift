import Foundation
import Testing
import SecStore
import SecStoreTestSupport
@testable import SecStoreSync

/// The `secstore sync` commands as a person runs them, as real processes.
@Suite struct CommandLineTests {
    func secstore(_ device: SyncDevice, _ arguments: String..., stdin: String = "") throws -> ProgramRun.Result {
        try ProgramRun.run(ProgramRun.productsDirectory.appending(path: "secstore"),
                           ["--store", device.directory.storeURL.path, "--device-key", device.directory.deviceKeyURL.path] + arguments,
                           stdin: Data(stdin.utf8), environment: ProcessInfo.processInfo.environment, timeout: 120)
    }

    @Test func initJoinApproveAndSync() async throws {
        let cluster = try await SharedCluster.cluster
        let endpoints = cluster.clientURLs.map(\.absoluteString).joined(separator: ",")
        let prefix = "cli" + UUID().uuidString.prefix(8).lowercased()
        let (a, b) = (try SyncDevice(), try SyncDevice())
        let added = try secstore(a, "add", "--service", "web", "--account", "alice", "--group", SyncDevice.group, "--value-stdin",
                                 "--synchronizable", stdin: "pw")
        #expect(added.status == 0, "\(added)")
        let pinned = try secstore(a, "add", "--service", "web", "--account", "pinned", "--group", SyncDevice.group, "--value-stdin",
                                  "--synchronizable", "--accessibility", "afterFirstUnlockThisDeviceOnly", stdin: "x")
        #expect(pinned.status == 2 && pinned.stderr.contains("ThisDeviceOnly"), "\(pinned)")
        // `generate` takes the same option (it was accepted and ignored).
        let generated = try secstore(a, "generate", "--service", "web", "--account", "generated", "--group", SyncDevice.group,
                                     "--synchronizable")
        #expect(generated.status == 0, "\(generated)")
        #expect(try a.contents(synchronizable: .yes).keys.contains("web/generated"))
        try a.add("local-only", "x", service: "web", synchronizable: false)
        let created = try secstore(a, "sync", "init", "--endpoints", endpoints, "--prefix", prefix)
        #expect(created.status == 0, "\(created)")
        let joined = try secstore(b, "sync", "join", "--endpoints", endpoints, "--prefix", prefix)
        #expect(joined.status == 0, "\(joined)")
        let code = try #require(joined.stdout.split(separator: "\n").last.map(String.init))
        #expect(code.count == 14)
        #expect(try secstore(b, "sync", "now").status != 0)   // not approved yet
        #expect(try secstore(a, "sync", "approve", "--code-stdin", stdin: "AAAA-AAAA-AAAA\n").status == 3)
        // Not on the command line, where other users read it (/proc/PID/cmdline); before, it was taken.
        let onCommandLine = try secstore(a, "sync", "approve", code)
        #expect(onCommandLine.status == 2 && onCommandLine.stderr.contains("--code-stdin"), "\(onCommandLine)")
        // Without a terminal, the error says how to give it.
        let noTerminal = try secstore(a, "sync", "approve")
        #expect(noTerminal.status == 2 && noTerminal.stderr.contains("--code-stdin"), "\(noTerminal)")
        let approved = try secstore(a, "sync", "approve", "--code-stdin", stdin: code + "\n")
        #expect(approved.status == 0, "\(approved)")
        let synced = try secstore(b, "sync", "now", "--json")
        #expect(synced.status == 0, "\(synced)")
        let received = try b.contents()
        #expect(received["web/alice"] == "pw" && Set(received.keys) == ["web/alice", "web/generated"])
        let listed = try secstore(b, "list", "--synchronizable", "--group", SyncDevice.group, "--json")
        #expect(listed.stdout.contains("alice"))
        let status = try secstore(b, "sync", "status", "--json")
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect((object?["devices"] as? [String])?.count == 2)
        #expect(object?["isMember"] as? Bool == true)
        #expect(object?["pending"] as? Int == 0)
    }

    /// etcd's own authentication is passed through: the user on the command line, the
    /// password from a file (never an argument), kept in the store for later passes.
    @Test func etcdsAuthenticationIsPassedThrough() async throws {
        let cluster = try await EtcdCluster.start(members: 1, options: .init(rootPassword: "root-secret-5521"))
        defer { cluster.stop() }
        let endpoints = cluster.clientURLs.map(\.absoluteString).joined(separator: ",")
        let a = try SyncDevice()
        try a.add("alice", "pw")
        let passwordFile = a.directory.url.appending(path: "etcd-password")
        // A password others can read protects nothing: the file is held to the rule of a
        // passphrase file (PassphraseSource), before etcd is asked. It was read whatever its mode.
        try Data("root-secret-5521\n".utf8).write(to: passwordFile)
        chmod(passwordFile.path, 0o644)
        let exposed = try secstore(a, "sync", "init", "--endpoints", endpoints, "--user", "root", "--password-file", passwordFile.path)
        #expect(exposed.status == 8 && exposed.stderr.contains("chmod 600 \(passwordFile.path)"), "\(exposed)")
        #expect(!exposed.stderr.contains("root-secret"), "\(exposed)")
        chmod(passwordFile.path, 0o600)
        try Data("wrong\n".utf8).write(to: passwordFile)
        let refused = try secstore(a, "sync", "init", "--endpoints", endpoints, "--user", "root", "--password-file", passwordFile.path)
        #expect(refused.status == 8 && refused.stderr.contains("etcd"), "\(refused)")
        // The refused attempt left nothing behind: init runs again. A stream is read as it
        // comes, as the tool's passphrase files are (`<(pass etcd)`; here a FIFO, which the
        // library's regular-file rule refused).
        let fifo = a.directory.url.appending(path: "etcd-password.fifo")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let writer = Thread { try? Data("root-secret-5521\n".utf8).write(to: fifo) }
        writer.start()
        let created = try secstore(a, "sync", "init", "--endpoints", endpoints, "--user", "root", "--password-file", fifo.path)
        #expect(created.status == 0, "\(created)")
        try a.add("later", "pw2")
        let synced = try secstore(a, "sync", "now", "--json")
        #expect(synced.status == 0, "\(synced)")
        #expect(!synced.stdout.contains("root-secret") && !synced.stderr.contains("root-secret"))
    }

    /// etcd's TLS is passed through: https endpoints, its CA, and a client certificate for a
    /// cluster that requires one; without the certificate the cluster refuses.
    @Test func etcdsTLSIsPassedThrough() async throws {
        let cluster = try await EtcdCluster.start(members: 1, options: .init(clientCertificates: true))
        defer { cluster.stop() }
        let endpoints = cluster.clientURLs.map(\.absoluteString).joined(separator: ",")
        #expect(endpoints.hasPrefix("https://"))
        let ca = try #require(cluster.certificateAuthorityFile).path
        let certificate = try #require(cluster.clientCertificateFile).path, key = try #require(cluster.clientKeyFile).path
        let (a, b) = (try SyncDevice(), try SyncDevice())
        try a.add("over-tls", "pw")
        let refused = try secstore(a, "sync", "init", "--endpoints", endpoints, "--ca-file", ca)
        #expect(refused.status == 8, "\(refused)")
        let created = try secstore(a, "sync", "init", "--endpoints", endpoints, "--ca-file", ca, "--cert-file", certificate, "--key-file", key)
        #expect(created.status == 0, "\(created)")
        let joined = try secstore(b, "sync", "join", "--endpoints", endpoints, "--ca-file", ca, "--cert-file", certificate, "--key-file", key)
        let code = try #require(joined.stdout.split(separator: "\n").last.map(String.init))
        #expect(try secstore(a, "sync", "approve", "--code-stdin", stdin: code).status == 0)
        #expect(try secstore(b, "sync", "now").status == 0)
        #expect(try b.contents() == ["api/over-tls": "pw"])
    }

    @Test func theDaemonAppliesAndPushesAsChangesHappen() async throws {
        let cluster = try await SharedCluster.cluster
        let circle = try await TestCircle.make(2, on: cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        let daemon = try SecstoreProcess.start(["--store", b.directory.storeURL.path, "--device-key", b.directory.deviceKeyURL.path,
                                                "sync", "daemon"])
        defer { _ = daemon.kill() }
        try a.add("pushed-by-a", "1")
        try await a.syncNow()
        try await Self.waitUntil { try b.contents()["api/pushed-by-a"] == "1" }
        // A write by another process on b's store is pushed by b's daemon.
        try b.add("written-on-b", "2")
        try await Self.waitUntil {
            try await a.syncNow()
            return try a.contents()["api/written-on-b"] == "2"
        }
    }

    /// Polls `condition` until it holds, for at most 60 s (a bound, not a timing assertion).
    static func waitUntil(_ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the condition did not hold within 60 s")
    }
}

/// Code written for Apple's API (`SecItemAdd` with `kSecAttrSynchronizable`, `SecItemUpdate`,
/// `SecItemDelete`), run unchanged in its own process on a device's default store: its items
/// sync like any other.
@Suite struct SecItemSyncTests {
    func secItem(_ device: SyncDevice, _ arguments: String...) throws -> ProgramRun.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["SECSTORE_PATH"] = device.directory.storeURL.path
        environment["SECSTORE_DEVICE_KEY"] = device.directory.deviceKeyURL.path
        environment["SECSTORE_ENTITLEMENTS"] = Self.entitlements.path
        environment["SECSTORE_KEYRING"] = "off"
        return try ProgramRun.run(ProgramRun.productsDirectory.appending(path: "secstore-test-helper"), ["secitem-write"] + arguments,
                                  environment: environment, timeout: 60)
    }

    static let entitlements = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Fixtures/entitlements/Mail.entitlements")
    static let group = "ABCDE12345.com.example.mail"

    func secret(on device: SyncDevice, account: String) throws -> String? {
        let items = try device.store.find(Query(itemClass: .genericPassword, attributes: [.account: .string(account), .accessGroup: .string(Self.group)],
                                                synchronizable: .any, limit: .all, returning: .data))
        return items.first.map { String(decoding: $0.data ?? Data(), as: UTF8.self) }
    }

    @Test func itemsWrittenThroughSecItemSync() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        #expect(try secItem(a, "add", "--service", "mail", "--account", "synced", "--value", "v1", "--synchronizable").stdout == "ok\n")
        #expect(try secItem(a, "add", "--service", "mail", "--account", "local", "--value", "x").stdout == "ok\n")
        try await circle.converge()
        #expect(try secret(on: b, account: "synced") == "v1")
        #expect(try secret(on: b, account: "local") == nil)
        #expect(try secItem(a, "update", "--service", "mail", "--account", "synced", "--value", "v2", "--synchronizable").stdout == "ok\n")
        try await circle.converge()
        #expect(try secret(on: b, account: "synced") == "v2")
        #expect(try secItem(a, "delete", "--service", "mail", "--account", "synced", "--synchronizable").stdout == "ok\n")
        try await circle.converge()
        #expect(try secret(on: b, account: "synced") == nil)
    }
}
