import Foundation
import SecStoreTestSupport
@testable import SecretService
import Testing

/// A granted collection's signals are unicast: they reach the clients whose executable is granted
/// the collection, and are not delivered to any other client. Delivery is observed the way a
/// client observes it, by a match rule on its own connection (a `dbus-monitor` is an eavesdropper
/// and sees unicast traffic too, which the last check shows).
@Suite("Signals of granted collections")
struct GrantedSignalTests {
    /// `Python/signal_listener.py` under python3 (another executable, granted nothing): prints
    /// what its own connection receives until a signal names `marker`.
    final class Listener: @unchecked Sendable {
        let output: URL
        let process = Process()

        init(python: URL, environment: [String: String], marker: String, in directory: URL) throws {
            output = directory.appending(path: "listener-\(UUID().uuidString).out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.executableURL = try Programs.require("timeout")
            process.arguments = ["60", python.path, PythonClientTests.directory.appending(path: "signal_listener.py").path, marker]
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: output)
            try process.runWithCleanSignals()
            try Programs.waitFor("the listener to connect") { seen.hasPrefix("ready\n") || !process.isRunning }
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        var seen: String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }
    }

    static let service = "/org/freedesktop/secrets"
    static let defaultCollection = "/org/freedesktop/secrets/collection/default"

    @Test("ItemCreated and CollectionCreated of a granted collection reach a granted client, not another",
          .enabled(if: PythonClientTests.python3 != nil, "python3 is not installed (scripts/bootstrap.sh installs python3 and python3-venv)"))
    func unicastToGrantedClients() throws {
        let python = try PythonClientTests.venvPython()
        let me = try #require(CallerExecutable.path(of: getpid()))
        let setup = try PerBinaryAccessTests.Setup(alsoGranted: [me])
        let monitor = try SignalTests.Monitor(bus: setup.bus, rule: "type='signal',sender='org.freedesktop.secrets'", in: setup.binaries.url)

        // Granted: a connection of this test process (its policy grants TEAM.shared). It calls the
        // provider first, as every client does, so that the provider has seen it.
        let granted = try BusConnection(address: setup.bus.address)
        var received: [BusSignal] = []
        try granted.watchSignals("type='signal',path_namespace='/org/freedesktop/secrets'") { received.append($0) }
        func call(_ path: String, _ interface: String, _ member: String, _ values: [BusValue]) throws -> [BusValue] {
            try granted.call(destination: "org.freedesktop.secrets", path: path, interface: interface, member: member, values)
        }
        _ = try call(Self.service, "org.freedesktop.Secret.Service", "OpenSession", [.string("plain"), .variant(.string(""))])
        // Not granted: python3, which has called the provider too.
        var environment = setup.bus.clientEnvironment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let listener = try Listener(python: python, environment: environment, marker: Self.defaultCollection, in: setup.binaries.url)

        let created = try call(Self.service, "org.freedesktop.Secret.Service", "CreateCollection",
                               [.properties(["org.freedesktop.Secret.Collection.Label": .string("TEAM.shared")]), .string("")])
        #expect(created.first == .objectPath(PerBinaryAccessTests.teamCollection))
        let stored = try setup.run(setup.granted, ["store", "--label=Team", "--collection=\(PerBinaryAccessTests.teamCollection)", "app", "team"],
                                   stdin: "team-secret")
        #expect(stored.status == 0, "\(stored)")
        // The marker, broadcast last: a signal sent before it to a client arrives before it, so
        // once a client has the marker, it has every signal that was sent to it.
        _ = try call(Self.defaultCollection, "org.freedesktop.DBus.Properties", "Set",
                     [.string("org.freedesktop.Secret.Collection"), .string("Label"), .variant(.string("Mine"))])

        let marker = BusSignal(path: Self.service, interface: "org.freedesktop.Secret.Service", member: "CollectionChanged",
                               arguments: [.objectPath(Self.defaultCollection)])
        try Programs.waitFor("the granted client to receive the marker") { granted.processIncoming(); return received.contains(marker) }
        listener.process.waitUntilExit()
        #expect(listener.process.terminationStatus == 0, "\(listener.seen)")

        let teamSignals = received.filter { $0.arguments.first?.text?.hasPrefix(PerBinaryAccessTests.teamCollection) == true }
        #expect(teamSignals.map(\.member) == ["CollectionCreated", "ItemCreated"], "\(received)")
        #expect(teamSignals.first?.path == Self.service)
        #expect(teamSignals.last?.path == PerBinaryAccessTests.teamCollection)
        #expect(listener.seen.contains("/org/freedesktop/secrets CollectionChanged \(Self.defaultCollection)"), "\(listener.seen)")
        #expect(!listener.seen.contains("TEAM"), "\(listener.seen)")
        // An eavesdropper (the same user may become a monitor of the session bus) sees it all.
        try monitor.waitFor("member=CollectionChanged")
        #expect(monitor.seen.contains("interface=org.freedesktop.Secret.Collection; member=ItemCreated"))
        #expect(monitor.seen.contains("TEAM_2eshared"))
    }
}
