import Foundation

/// The encrypted backup file written by `secstore export`.
///
/// ```
/// "SECSTORE-BACKUP1"                        16 bytes, magic and version
/// Argon2id operations, memory (u64 LE)      16 bytes
/// Argon2id salt                             16 bytes
/// secretstream header                       24 bytes
/// records, each: length (u32 LE) ‖ crypto_secretstream_xchacha20poly1305 message
///   1. manifest: source store id (16) ‖ created (f64 LE, seconds since 2001) ‖ item count (u64 LE)
///      associated data: the 72 header bytes above, so no header byte can be changed
///   2. one per item: class (1) ‖ accessibility (1) ‖ metadata length (u32 LE) ‖ metadata
///      (the store's metadata encoding) ‖ secret
///   3. final (tag FINAL): item count (u64 LE), so a truncated file is detected
/// ```
/// The key is Argon2id(backup passphrase, salt, limits).
enum BackupFormat {
    static let magic = Array("SECSTORE-BACKUP1".utf8)
    static let headerByteCount = magic.count + 16 + PasswordHashing.saltByteCount + SecretStream.headerByteCount
    /// Largest record written or read: bounds what a damaged length field can make a reader allocate.
    static let maximumRecordByteCount = 256 << 20

    struct Header {
        var limits: PasswordHashingLimits
        var salt: [UInt8]
        var streamHeader: [UInt8]

        var bytes: [UInt8] {
            magic + le(limits.operations) + le(UInt64(limits.memoryBytes)) + salt + streamHeader
        }

        init(limits: PasswordHashingLimits, salt: [UInt8], streamHeader: [UInt8]) {
            self.limits = limits
            self.salt = salt
            self.streamHeader = streamHeader
        }

        init(parsing bytes: [UInt8]) throws {
            guard bytes.count == headerByteCount, Array(bytes[0..<magic.count]) == magic else {
                throw SecStoreError(.corruptData, "This file is not a SecStore backup (no SECSTORE-BACKUP1 header). Check the file name.")
            }
            var offset = magic.count
            let operations: UInt64 = readLE(bytes, &offset)
            let memory: UInt64 = readLE(bytes, &offset)
            salt = Array(bytes[offset..<(offset + PasswordHashing.saltByteCount)])
            offset += PasswordHashing.saltByteCount
            streamHeader = Array(bytes[offset...])
            limits = PasswordHashingLimits(operations: operations, memoryBytes: Int(clamping: memory))
            guard limits.isAcceptable, memory <= UInt64(Int.max) else {
                throw SecStoreError(.corruptData, "The backup's key-derivation limits (\(limits)) are outside what SecStore accepts (\(limits.acceptableRange)): the file is damaged or was not made by SecStore.")
            }
        }
    }

    struct Manifest {
        var sourceStoreID: [UInt8]
        var created: Date
        var itemCount: UInt64

        var bytes: [UInt8] {
            sourceStoreID + le(created.timeIntervalSinceReferenceDate.bitPattern) + le(itemCount)
        }

        init(sourceStoreID: [UInt8], created: Date, itemCount: UInt64) {
            self.sourceStoreID = sourceStoreID
            self.created = created
            self.itemCount = itemCount
        }

        init(parsing bytes: [UInt8]) throws {
            guard bytes.count == 32 else { throw damaged }
            var offset = 16
            sourceStoreID = Array(bytes[0..<16])
            created = Date(timeIntervalSinceReferenceDate: Double(bitPattern: readLE(bytes, &offset) as UInt64))
            itemCount = readLE(bytes, &offset)
        }
    }

    struct ItemRecord {
        var itemClass: ItemClass
        var accessibility: Accessibility
        var attributes: Attributes
        var secret: Data

        var bytes: [UInt8] {
            let metadata = MetadataCodec.encode(attributes)
            return [itemClass.code, accessibility.code] + le(UInt32(metadata.count)) + metadata + Array(secret)
        }

        init(itemClass: ItemClass, accessibility: Accessibility, attributes: Attributes, secret: Data) {
            self.itemClass = itemClass
            self.accessibility = accessibility
            self.attributes = attributes
            self.secret = secret
        }

        init(parsing bytes: [UInt8]) throws {
            guard bytes.count >= 6, let itemClass = ItemClass(code: bytes[0]), let accessibility = Accessibility(code: bytes[1]) else {
                throw damaged
            }
            var offset = 2
            let length = Int(readLE(bytes, &offset) as UInt32)
            guard length <= bytes.count - offset else { throw damaged }
            self.itemClass = itemClass
            self.accessibility = accessibility
            // Decoded in place: no second copy of the plaintext attributes is left behind.
            attributes = try bytes.withUnsafeBytes { try MetadataCodec.decode(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + length)])) }
            secret = Data(bytes[(offset + length)...])
        }
    }

    static let damaged = SecStoreError(.corruptData, "The backup is damaged: a record does not decode. Use another copy of the backup.")

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }

    static func readLE<T: FixedWidthInteger>(_ bytes: [UInt8], _ offset: inout Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size {
            value |= T(bytes[offset + index]) << (8 * index)
        }
        offset += MemoryLayout<T>.size
        return value
    }
}
