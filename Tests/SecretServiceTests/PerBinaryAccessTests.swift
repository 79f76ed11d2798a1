import Foundation
import SecStoreTestSupport
@testable import SecretService
import Testing

/// Per-binary access across real processes: two copies of `secret-tool` under different
/// names are two executables; a policy file grants one of them the access group `TEAM.shared`
/// (collection `…/collection/TEAM_2eshared`). The other, and this test process (no policy),
/// cannot see, read, change or delete that group's items through any method.
@Suite("Per-binary access")
struct PerBinaryAccessTests {
    static let teamCollection = "/org/freedesktop/secrets/collection/TEAM_2eshared"

    /// A provider with a policy directory, and the two executables.
    final class Setup: @unchecked Sendable {
        let bus: PrivateBus
        let provider: Provider
        let binaries = TemporaryDirectory("secret-service-binaries")
        var granted: URL { binaries.url.appending(path: "granted-tool") }
        var other: URL { binaries.url.appending(path: "other-tool") }

        /// `alsoGranted`: more executables (this test process, for calls over
        /// ``BusConnection``) with the policy granting `theirGroups`, by default the same as
        /// the granted tool's `groups`.
        init(policyMode: mode_t = 0o644, groups: [String] = ["TEAM.shared"], alsoGranted: [String] = [],
             theirGroups: [String]? = nil) throws {
            let secretTool = try Programs.require("secret-tool")
            for copy in [binaries.url.appending(path: "granted-tool"), binaries.url.appending(path: "other-tool")] {
                try FileManager.default.copyItem(at: secretTool, to: copy)
            }
            let policyDirectory = binaries.url.appending(path: "policy")
            let policies = [(binaries.url.appending(path: "granted-tool").path, groups)] + alsoGranted.map { ($0, theirGroups ?? groups) }
            for (executable, granted) in policies {
                let policyFile = BinaryPolicy(directory: policyDirectory).file(for: executable)
                try FileManager.default.createDirectory(at: policyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                try """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>keychain-access-groups</key><array>\(granted.map { "<string>\($0)</string>" }.joined())</array>
                </dict></plist>
                """.write(to: policyFile, atomically: true, encoding: .utf8)
                chmod(policyFile.path, policyMode)
            }
            bus = try PrivateBus()
            provider = try Provider(bus: bus, arguments: ["--policy-directory", policyDirectory.path])
        }

        func run(_ tool: URL, _ arguments: [String], stdin: String = "") throws -> Programs.Result {
            try Programs.run(tool, arguments, stdin: Data(stdin.utf8), environment: bus.clientEnvironment)
        }
    }

    @Test("only the granted executable sees, reads, changes or deletes the group's items")
    func twoExecutables() throws {
        let setup = try Setup()
        let stored = try setup.run(setup.granted, ["store", "--label=Team", "--collection=\(Self.teamCollection)", "app", "team"], stdin: "team-secret")
        #expect(stored.status == 0, "\(stored)")
        _ = try setup.run(setup.other, ["store", "--label=Mine", "app", "mine"], stdin: "default-secret")

        #expect(try setup.run(setup.granted, ["lookup", "app", "team"]).stdout == "team-secret")
        #expect(try setup.run(setup.other, ["lookup", "app", "team"]).stdout == "")
        // Both see the default collection.
        #expect(try setup.run(setup.granted, ["lookup", "app", "mine"]).stdout == "default-secret")
        #expect(try setup.run(setup.other, ["lookup", "app", "mine"]).stdout == "default-secret")
        // The other cannot list, overwrite (store into the group) or clear the item.
        #expect(!(try setup.run(setup.other, ["search", "--all", "app", "team"]).stdout.contains("team-secret")))
        #expect(try setup.run(setup.other, ["store", "--label=X", "--collection=\(Self.teamCollection)", "app", "team"], stdin: "overwritten").status != 0)
        _ = try setup.run(setup.other, ["clear", "app", "team"])
        #expect(try setup.run(setup.granted, ["lookup", "app", "team"]).stdout == "team-secret")
        #expect(setup.provider.isRunning)
        #expect(!setup.provider.log.contains("team-secret"))
    }

    @Test("a process without a policy gets UnknownObject for every method on the group's item")
    func everyMethodRefused() throws {
        let setup = try Setup()
        _ = try setup.run(setup.granted, ["store", "--label=Team", "--collection=\(Self.teamCollection)", "app", "team"], stdin: "team-secret")
        let listing = try setup.run(setup.granted, ["search", "app", "team"])
        // secret-tool prints each item as "[/<id>]" (its path below the collection).
        let idLine = try #require((listing.stdout + listing.stderr).split(separator: "\n").first { $0.hasPrefix("[/") })
        let item = Self.teamCollection + "/" + idLine.dropFirst(2).dropLast()

        let connection = try BusConnection(address: setup.bus.address)
        func call(_ path: String, _ interface: String, _ member: String, _ values: [BusValue]) -> Result<[BusValue], BusError> {
            do throws(BusError) {
                return .success(try connection.call(destination: "org.freedesktop.secrets", path: path, interface: interface, member: member, values))
            } catch { return .failure(error) }
        }
        let session = try call("/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "OpenSession",
                               [.string("plain"), .variant(.string(""))]).get()[1]
        let secret = BusValue.structure([session, .bytes([]), .bytes(Array("changed".utf8)), .string("text/plain")])
        let attempts: [(String, String, String, [BusValue])] = [
            (item, "org.freedesktop.Secret.Item", "GetSecret", [session]),
            (item, "org.freedesktop.Secret.Item", "SetSecret", [secret]),
            (item, "org.freedesktop.Secret.Item", "Delete", []),
            (item, "org.freedesktop.DBus.Properties", "GetAll", [.string("org.freedesktop.Secret.Item")]),
            (item, "org.freedesktop.DBus.Properties", "Set", [.string("org.freedesktop.Secret.Item"), .string("Label"), .variant(.string("x"))]),
            (Self.teamCollection, "org.freedesktop.Secret.Collection", "SearchItems", [.stringDictionary([:])]),
            (Self.teamCollection, "org.freedesktop.Secret.Collection", "CreateItem", [.properties([:]), secret, .boolean(true)]),
        ]
        for (path, interface, member, values) in attempts {
            guard case .failure(let error) = call(path, interface, member, values) else {
                Issue.record("\(member) on \(path) succeeded"); continue
            }
            #expect(error.name == "org.freedesktop.DBus.Error.UnknownObject", "\(member)")
        }
        // Service-wide methods leave the item out.
        let secrets = try call("/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "GetSecrets", [.objectPaths([item]), session]).get()
        #expect(secrets.first?.elements?.isEmpty == true)
        let found = try call("/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "SearchItems", [.stringDictionary(["app": "team"])]).get()
        #expect(found.first?.paths == [])
        let collections = try call("/org/freedesktop/secrets", "org.freedesktop.DBus.Properties", "Get",
                                   [.string("org.freedesktop.Secret.Service"), .string("Collections")]).get()
        #expect(collections.first?.unwrapped.paths == ["/org/freedesktop/secrets/collection/default"])
        // Untouched.
        #expect(try setup.run(setup.granted, ["lookup", "app", "team"]).stdout == "team-secret")
    }

    @Test("a policy file others can write grants nothing")
    func untrustedPolicy() throws {
        let setup = try Setup(policyMode: 0o666)
        let stored = try setup.run(setup.granted, ["store", "--label=Team", "--collection=\(Self.teamCollection)", "app", "team"], stdin: "s")
        #expect(stored.status != 0)
        #expect(setup.provider.log.contains("ignoring the policy"))
    }

    /// A FIFO at a policy's path must not block the provider (one thread for every client) in
    /// `open` or `read` waiting for a writer. Foundation's `Data(contentsOf:)` already opens
    /// with O_NONBLOCK and refuses what is not a regular file, so this passed before too: it
    /// keeps that so if the reading changes.
    @Test("a FIFO at a policy's path grants nothing and blocks nothing")
    func fifoPolicy() throws {
        let me = try #require(CallerExecutable.path(of: getpid()))
        let setup = try Setup(alsoGranted: [me])
        let policyFile = BinaryPolicy(directory: setup.binaries.url.appending(path: "policy")).file(for: me)
        try FileManager.default.removeItem(at: policyFile)
        try #require(mkfifo(policyFile.path, 0o644) == 0)
        let connection = try BusConnection(address: setup.bus.address)
        let collections = try connection.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string("org.freedesktop.Secret.Service"), .string("Collections")])
        #expect(collections.first?.unwrapped.paths == ["/org/freedesktop/secrets/collection/default"])
        #expect(setup.provider.log.contains("ignoring the policy"))
        #expect(setup.provider.isRunning)
    }

    /// Before: every call read the caller's policy, even Ping and Introspect, which use no
    /// collection. A policy the provider ignores says so in its log each time it is read, which
    /// shows when it is read.
    @Test("calls that use no collection read no policy; the next call that does reads it afresh")
    func policyReadOnlyWhenUsed() throws {
        let me = try #require(CallerExecutable.path(of: getpid()))
        let setup = try Setup(policyMode: 0o666, alsoGranted: [me])
        let connection = try BusConnection(address: setup.bus.address)
        func call(_ interface: String, _ member: String, _ values: [BusValue] = []) throws(BusError) -> [BusValue] {
            try connection.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
                                interface: interface, member: member, values)
        }
        _ = try call("org.freedesktop.DBus.Peer", "Ping")
        _ = try call("org.freedesktop.DBus.Peer", "GetMachineId")
        _ = try call("org.freedesktop.DBus.Introspectable", "Introspect")
        #expect(!setup.provider.log.contains("ignoring the policy"), "\(setup.provider.log)")
        _ = try call("org.freedesktop.Secret.Service", "SearchItems", [.stringDictionary([:])])
        _ = try call("org.freedesktop.Secret.Service", "SearchItems", [.stringDictionary([:])])
        let reads = setup.provider.log.components(separatedBy: "ignoring the policy").count - 1
        #expect(reads == 2, "\(setup.provider.log)")
    }

    @Test("CreateCollection answers with a granted group's collection, and refuses any other")
    func createCollection() throws {
        let me = try #require(CallerExecutable.path(of: getpid()))
        let setup = try Setup(alsoGranted: [me])
        let connection = try BusConnection(address: setup.bus.address)
        func create(_ label: String, alias: String = "") throws(BusError) -> [BusValue] {
            try connection.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
                                interface: "org.freedesktop.Secret.Service", member: "CreateCollection",
                                [.properties(["org.freedesktop.Secret.Collection.Label": .string(label)]), .string(alias)])
        }
        #expect(try create("TEAM.shared") == [.objectPath(Self.teamCollection), .objectPath("/")])
        #expect(try create("", alias: "default") == [.objectPath("/org/freedesktop/secrets/collection/default"), .objectPath("/")])
        // Before: the default group's name relabelled the default collection "default" (and
        // announced it as created). It is the default collection, unchanged.
        #expect(try create("default") == [.objectPath("/org/freedesktop/secrets/collection/default"), .objectPath("/")])
        let label = try connection.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets/collection/default",
                                        interface: "org.freedesktop.DBus.Properties", member: "Get",
                                        [.string("org.freedesktop.Secret.Collection"), .string("Label")])
        #expect(label.first?.unwrapped == .string("Default"))
        #expect(throws: BusError.notSupported("Collections are access groups granted by the provider's policy (docs/secret-service.md); this caller is granted no group of that name.")) {
            try create("OTHER.group")
        }
        // This process is granted the group, so it sees the collection too.
        let collections = try connection.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string("org.freedesktop.Secret.Service"), .string("Collections")])
        #expect(collections.first?.unwrapped.paths == ["/org/freedesktop/secrets/collection/default", Self.teamCollection])
    }
}
