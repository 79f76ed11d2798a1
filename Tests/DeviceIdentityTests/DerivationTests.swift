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
}
