import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-user device key: 32 random bytes in a `0600` file that never leaves the machine,
/// the analogue of an iPhone's device UID key. Every store key is wrapped under it.
///
/// File format: the 23-byte ASCII header `secstore-device-key-v1\n` followed by the key.
enum DeviceKeyFile {
    static let header = Array("secstore-device-key-v1\n".utf8)
    static let keyByteCount = 32

    /// Reads the key at `url`, creating it first when it does not exist and `create` is true.
    static func load(at url: URL, create: Bool) throws -> SecureBytes {
        if let key = try readKey(at: url) { return key }
        guard create else {
            throw SecStoreError(.storeUnavailable, "The device key \(url.path) does not exist. Point SECSTORE_DEVICE_KEY at the key this store was created with.")
        }
        try FileSecurity.ensurePrivateDirectory(url.deletingLastPathComponent())
        try publishNewKey(at: url)
        guard let key = try readKey(at: url) else {
            throw SecStoreError(.ioFailure, "The device key \(url.path) vanished right after it was created. Check for another program removing files there.")
        }
        return key
    }

    /// `nil` when there is no file; throws when there is one SecStore must not use.
    private static func readKey(at url: URL) throws -> SecureBytes? {
        // O_NONBLOCK: a FIFO placed at the path must not block the open forever; checkPrivate
        // then refuses anything but a regular file (where the flag changes nothing).
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw SecStoreError(.insecureKeyFile, "Cannot open the device key \(url.path): \(String(cString: strerror(errno))). It must be a regular file you own with mode 0600.")
        }
        defer { close(descriptor) }
        try FileSecurity.checkPrivate(descriptor: descriptor, path: url.path, what: "device key")
        var contents = [UInt8](repeating: 0, count: header.count + keyByteCount + 1)
        defer { Wipe.bytes(&contents) }
        let total = try DescriptorReader.fill(&contents, from: descriptor, path: url.path, describing: "the device key")
        guard total == header.count + keyByteCount, Array(contents[..<header.count]) == header else {
            throw SecStoreError(.insecureKeyFile, "The device key \(url.path) is not a SecStore device key (wrong size or header). Restore the original file; a new key cannot open existing stores.")
        }
        return try contents.withUnsafeBytes { bytes in
            try SecureBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[header.count..<(header.count + keyByteCount)]))
        }
    }

    /// Writes a fresh key to a temporary file and links it into place, so a concurrent
    /// first run in another process either wins or reads the winner's complete file: a key
    /// already at `url` is never replaced.
    private static func publishNewKey(at url: URL) throws {
        let writer = try AtomicFileWriter(destination: url, describing: "the device key")
        let key = try SecureBytes.random(count: keyByteCount)
        var contents = header
        key.withUnsafeBytes { contents.append(contentsOf: $0) }
        defer { Wipe.bytes(&contents) }
        try writer.write(contents)
        // Losing the race (a key already there) is fine: the caller reads the winner's key.
        try writer.commit(.createOnly)
    }
}
