import Foundation
import SecStoreTestSupport
import Testing
@testable import DeviceIdentity
import SecStore

@Suite struct DerivationTests {
    /// systemd's own test vector (src/test/test-id128.c).
    @Test func matchesSystemdAppSpecificID() throws {
        let machineID = try #require(Hex.bytes("51df0b4bc3b04c9780e299b98ca373b8"))
        let appID = try MachineIDDerivation.applicationID(forVendor: "f03daaeb1c334b43a732172944bf772e")
        let derived = try MachineIDDerivation.appSpecificID(machineID: machineID, applicationID: appID)
        #expect(derived.uuidString.lowercased() == "1dee5954-e75c-4d6f-b96c-c6c04ca18a86")
    }

    @Test func vendorsGetUnrelatedVersion4UUIDs() throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appending(path: "machine-id")
        try "0123456789abcdef0123456789abcdef\n".write(to: file, atomically: true, encoding: .ascii)
        let first = try MachineIDDerivation.derive(.machineID(vendorID: "com.example", machineIDFile: file))
        let second = try MachineIDDerivation.derive(.machineID(vendorID: "org.other", machineIDFile: file))
        #expect(first != second)
        for uuid in [first, second] {
            let bytes = withUnsafeBytes(of: uuid.uuid, Array.init)
            #expect(bytes[6] >> 4 == 4, "version 4")
            #expect(bytes[8] >> 6 == 0b10, "RFC 4122 variant")
        }
        #expect(try MachineIDDerivation.derive(.machineID(vendorID: "com.example", machineIDFile: file)) == first)
    }

    @Test func badMachineIDIsAClearError() throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appending(path: "machine-id")
        try "not hex".write(to: file, atomically: true, encoding: .ascii)
        #expect(throws: (any Error).self) { try MachineIDDerivation.derive(.machineID(vendorID: "v", machineIDFile: file)) }
        #expect(throws: (any Error).self) {
            try MachineIDDerivation.derive(.machineID(vendorID: "v", machineIDFile: directory.url.appending(path: "missing")))
        }
    }

    /// Before: the machine-id file was read whoever could have written it, so a file another
    /// user can write (theirs, or one whose mode lets group or others write) let them choose the
    /// derived device identifier. Now it must be this user's or root's, and writable by no one
    /// else; `/etc/machine-id` (root's, `0444`) is.
    @Test func aMachineIDFileOthersCouldWriteIsRefused() throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appending(path: "machine-id")
        try "0123456789abcdef0123456789abcdef\n".write(to: file, atomically: true, encoding: .ascii)
        let derivation = DeviceIdentity.Derivation.machineID(vendorID: "com.example", machineIDFile: file)
        for mode: mode_t in [0o666, 0o620, 0o602] {
            #expect(chmod(file.path, mode) == 0)
            let error = try #require(throws: SecStoreError.self, "mode \(String(mode, radix: 8))") { try MachineIDDerivation.derive(derivation) }
            #expect(error.code == .storeUnavailable && error.message.contains(file.path)
                    && error.message.contains(String(mode, radix: 8)), "\(error)")
        }
        for mode: mode_t in [0o644, 0o444, 0o600] {
            #expect(chmod(file.path, mode) == 0)
            _ = try MachineIDDerivation.derive(derivation)
        }
    }

    /// The same with real users: as root, a file of another user is refused; the test helper,
    /// run as a second user (`setpriv`), derives from a file of root's (`0444`, as
    /// `/etc/machine-id` is) and of its own, and refuses one of a third user.
    @Test(.enabled(if: getuid() == 0 && ProgramRun.which("setpriv") != nil, "needs root and setpriv"))
    func anotherUsersMachineIDFileIsRefusedRootsIsNot() throws {
        let directory = TemporaryDirectory()
        let (user, third): (uid_t, uid_t) = (3_870_040 + uid_t.random(in: 0..<1000), 3_871_040 + uid_t.random(in: 0..<1000))
        func machineID(_ name: String, owner: uid_t, mode: mode_t) throws -> URL {
            let file = directory.url.appending(path: name)
            try "0123456789abcdef0123456789abcdef\n".write(to: file, atomically: true, encoding: .ascii)
            #expect(chown(file.path, owner, owner) == 0 && chmod(file.path, mode) == 0)
            return file
        }
        let roots = try machineID("root-machine-id", owner: 0, mode: 0o444)
        let users = try machineID("user-machine-id", owner: user, mode: 0o644)
        let thirds = try machineID("third-machine-id", owner: third, mode: 0o644)

        let error = try #require(throws: SecStoreError.self) {
            try MachineIDDerivation.derive(.machineID(vendorID: "com.example", machineIDFile: thirds))
        }
        #expect(error.code == .storeUnavailable && error.message.contains("\(third)"), "\(error)")

        // A fresh store each time, made by the user in a directory of theirs: nothing is kept
        // from one derivation to the next.
        func derive(from file: URL) throws -> ProgramRun.Result {
            let home = directory.url.appending(path: "home-\(file.lastPathComponent)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            #expect(chown(home.path, user, user) == 0)
            return try ProgramRun.run(try #require(ProgramRun.which("setpriv")),
                                      ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--", helper.executableURL.path, "identity",
                                       "--store", home.appending(path: "s.secstore").path, "--device-key", home.appending(path: "device.key").path,
                                       "--vendor-group", TestApp.vendorGroup, "--group", TestApp.vendorGroup, "--first-unlock-cache", "process",
                                       "--derive-vendor", "com.example", "--machine-id", file.path],
                                      environment: ["HOME": home.path, "SECSTORE_KEYRING": "off", "PATH": "/usr/bin:/bin"])
        }
        let refused = try derive(from: thirds)
        #expect(refused.status != 0 && refused.stdout.hasPrefix("error storeUnavailable"), "\(refused)")
        for file in [roots, users] {
            let derived = try derive(from: file)
            #expect(derived.status == 0 && derived.stdout.hasSuffix(" derived\n"), "\(file.lastPathComponent): \(derived)")
        }
    }
}
