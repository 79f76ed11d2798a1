import Foundation
import SecStoreTestSupport
@testable import SecretService
import Testing

/// The signals clients (Seahorse, libsecret's and SecretStorage's property caches) watch, seen
/// by a real `dbus-monitor` on the private bus.
@Suite("Signals")
struct SignalTests {
    /// `dbus-monitor` on `bus` with `rule`, writing to a file the test reads.
    final class Monitor: @unchecked Sendable {
        let output: URL
        let process = Process()

        init(bus: PrivateBus, rule: String, in directory: URL) throws {
            output = directory.appending(path: "monitor-\(UUID().uuidString).out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.executableURL = try Programs.require("dbus-monitor")
            process.arguments = ["--address", bus.address, rule]
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            try process.runWithCleanSignals()
            // The monitor prints its own NameAcquired signal once it is connected.
            try Programs.waitFor("dbus-monitor to connect") { !self.seen.isEmpty }
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        var seen: String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }

        func waitFor(_ text: String) throws {
            try Programs.waitFor(text) { seen.contains(text) }
        }
    }

    @Test("ItemCreated, ItemChanged, ItemDeleted and PropertiesChanged for the default collection")
    func itemSignals() throws {
        let provider = try Provider(bus: try PrivateBus())
        let monitor = try Monitor(bus: provider.bus, rule: "type='signal',sender='org.freedesktop.secrets'", in: provider.directory.url)
        _ = try provider.secretTool(["store", "--label=a", "service", "s"], stdin: "one")
        _ = try provider.secretTool(["store", "--label=b", "service", "s"], stdin: "two")   // replaces: changed
        _ = try provider.secretTool(["clear", "service", "s"])
        for member in ["ItemCreated", "ItemChanged", "ItemDeleted", "PropertiesChanged"] {
            try monitor.waitFor("member=\(member)")
        }
        #expect(monitor.seen.contains("path=/org/freedesktop/secrets/collection/default; interface=org.freedesktop.Secret.Collection; member=ItemCreated"))
        #expect(!monitor.seen.contains("two"))
    }

    @Test("CollectionChanged (and the collection's PropertiesChanged) when the default collection's label is set")
    func collectionChanged() throws {
        let provider = try Provider(bus: try PrivateBus())
        let monitor = try Monitor(bus: provider.bus, rule: "type='signal',sender='org.freedesktop.secrets'", in: provider.directory.url)
        let connection = try BusConnection(address: provider.bus.address)
        _ = try connection.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets/aliases/default",
                                interface: "org.freedesktop.DBus.Properties", member: "Set",
                                [.string("org.freedesktop.Secret.Collection"), .string("Label"), .variant(.string("Mine"))])
        try monitor.waitFor("member=CollectionChanged")
        try monitor.waitFor("member=PropertiesChanged")
        #expect(monitor.seen.contains("path=/org/freedesktop/secrets; interface=org.freedesktop.Secret.Service; member=CollectionChanged\n   object path \"/org/freedesktop/secrets/collection/default\""),
                "\(monitor.seen)")
    }
}
