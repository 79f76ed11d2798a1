import Foundation
import SecStore
import SecStoreTestSupport
import Testing

/// DeviceIdentity's mirror file against a reset in another process. `identifier()` read the
/// store's value, then wrote it to the mirror when the mirror differed; a `reset` committing
/// between the two (and writing its new value to the mirror) was then overwritten with the old
/// value: the store held the new identifier and the mirror the one the user had reset away,
/// which the next reinstall (a store wiped, the mirror kept) brought back. The preload library
/// stops the reading process right before it opens the mirror (`FI_ERRNO=stop`), so the reset
/// runs in exactly that gap.
@Suite(.enabled(if: isInstalled("cc"), "needs a C compiler to build the preload library"))
struct IdentityMirrorRaceTests {
    @Test func aResetBetweenAReadAndItsMirrorRepairKeepsTheMirrorInStep() throws {
        let library = try FaultLibrary.shared()
        let scratch = TemporaryDirectory("secstore-identity-race")
        let store = scratch.url.appending(path: "data/s.secstore"), key = scratch.url.appending(path: "keys/device.key")
        let mirror = scratch.url.appending(path: "mirror/identity")
        let arguments = ["identity", "--store", store.path, "--device-key", key.path,
                         "--app-id", "ABCDE12345.com.example.app", "--mirror", mirror.path]
        let helper = HelperProcess(product: "secstore-test-helper")
        let first = try helper.run(arguments, environment: ["SECSTORE_KEYRING": "off"])
        try #require(first.status == 0, "\(first.output)")

        // A reader that has read the store's value and stops before it opens the mirror.
        let reader = Process()
        reader.executableURL = helper.executableURL
        reader.arguments = arguments
        reader.environment = ProcessInfo.processInfo.environment.merging([
            "LD_PRELOAD": library.path, "SECSTORE_KEYRING": "off",
            "FI_CALL": "open", "FI_NTH": "1", "FI_ERRNO": "stop", "FI_PATH": mirror.path,
        ]) { _, new in new }
        reader.standardOutput = FileHandle.nullDevice
        reader.standardError = FileHandle.nullDevice
        try reader.runWithCleanSignals()
        defer { if reader.isRunning { kill(reader.processIdentifier, SIGKILL) } }
        try #require(PlaintextExportAtomicTests.waitUntilStopped(reader.processIdentifier), "the reader never reached the mirror")

        let reset = try helper.run(arguments + ["--reset", "yes"], environment: ["SECSTORE_KEYRING": "off"])
        try #require(reset.status == 0, "\(reset.output)")
        let fresh = try #require(reset.output.split(separator: " ").first.map(String.init))
        kill(reader.processIdentifier, SIGCONT)
        reader.waitUntilExit()
        #expect(reader.terminationReason == .exit && reader.terminationStatus == 0)

        let owner = try SecretStore(at: store, options: .init(access: .owner, deviceKeyURL: key, createIfMissing: false))
        let stored = try owner.find(Query(service: "secstore.device-identity", account: "device-uuid", returning: .data))
        #expect(stored.map { String(decoding: $0.data ?? Data(), as: UTF8.self) } == [fresh])
        let mirrored = try String(contentsOf: mirror, encoding: .utf8)
        #expect(mirrored.hasPrefix(fresh + " "), "the store holds \(fresh), the mirror \(mirrored)")
    }
}
