import Foundation
import SecStore

/// systemd's `sd_id128_get_machine_app_specific()`, on libsodium.
enum MachineIDDerivation {
    /// `HMAC-SHA256(key: machineID, message: applicationID)[0..<16]` with the version-4 and
    /// variant bits set, exactly as systemd computes it.
    static func appSpecificID(machineID: [UInt8], applicationID: [UInt8]) throws -> UUID {
        var bytes = Array(try HMACSHA256.authenticationCode(for: applicationID, key: machineID).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    /// The 16 bytes of `/etc/machine-id` (32 hex digits), read by ``MachineIDFile``. The file
    /// must be this user's or root's and writable by no one else: whoever could write it would
    /// choose the derived identifier (`/etc/machine-id` is root's, `0444`).
    static func readMachineID(_ file: URL) throws -> [UInt8] {
        switch MachineIDFile.read(file.path, writtenOnlyBy: .thisUserOrRoot) {
        case .success(let bytes):
            return bytes
        case .failure(.unreadable(.writableByOthers(let owner, let mode))):
            throw SecStoreError(.storeUnavailable, "The machine id file \(file.path) could have been written by someone other than you or root (it belongs to user \(owner), mode \(String(mode, radix: 8))), who would then choose the derived device identifier. Derive from a machine id only you or root can write, such as /etc/machine-id, or remove the others' write access (`chmod go-w \(file.path)`, as its owner).")
        case .failure(.malformed):
            throw SecStoreError(.storeUnavailable, "\(file.path) does not hold a machine id (32 hex digits). Fix the file, or do not use derivation.")
        case .failure(let problem):
            throw SecStoreError(.storeUnavailable, "Cannot read the machine id at \(file.path): \(problem). Derived identifiers need a readable machine id (systemd-machine-id-setup creates one).")
        }
    }

    /// A vendor id as 128 bits: a UUID string's own bytes, or the first half of SHA-256.
    static func applicationID(forVendor vendor: String) throws -> [UInt8] {
        if let uuid = UUID(uuidString: vendor) {
            return withUnsafeBytes(of: uuid.uuid, Array.init)
        }
        if vendor.count == 32, let bytes = Hex.bytes(vendor) { return bytes }
        return Array(try HMACSHA256.sha256(Array(vendor.utf8)).prefix(16))
    }

    static func derive(_ derivation: DeviceIdentity.Derivation) throws -> UUID {
        switch derivation {
        case .machineID(let vendor, let file):
            return try appSpecificID(machineID: try readMachineID(file), applicationID: try applicationID(forVendor: vendor))
        }
    }
}
