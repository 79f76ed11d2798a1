import Foundation
import Testing

/// The Collection signals clients (GNOME Seahorse, SecretStorage users) watch, seen by a real
/// `dbus-monitor` on the private bus.
@Suite("Signals")
struct SignalTests {
    @Test("ItemCreated, ItemChanged and ItemDeleted are emitted from the collection")
    func itemSignals() throws {
        let provider = try Provider(bus: try PrivateBus())
        let output = provider.directory.url.appending(path: "monitor.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let monitor = Process()
        monitor.executableURL = try Programs.require("dbus-monitor")
        monitor.arguments = ["--address", provider.bus.address, "type='signal',interface='org.freedesktop.Secret.Collection'"]
        monitor.standardOutput = try FileHandle(forWritingTo: output)
        monitor.standardError = FileHandle.nullDevice
        try monitor.run()
        defer { kill(monitor.processIdentifier, SIGKILL); monitor.waitUntilExit() }
        func seen() -> String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }
        // The monitor prints its own NameAcquired signal once it is connected.
        try Programs.waitFor("dbus-monitor to connect") { !seen().isEmpty }

        _ = try provider.secretTool(["store", "--label=a", "service", "s"], stdin: "one")
        _ = try provider.secretTool(["store", "--label=b", "service", "s"], stdin: "two")   // replaces: changed
        _ = try provider.secretTool(["clear", "service", "s"])
        for member in ["ItemCreated", "ItemChanged", "ItemDeleted"] {
            try Programs.waitFor("the \(member) signal") { seen().contains("member=\(member)") }
        }
        #expect(seen().contains("path=/org/freedesktop/secrets/collection/default; interface=org.freedesktop.Secret.Collection; member=ItemCreated"))
    }
}
