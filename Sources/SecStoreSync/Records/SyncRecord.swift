import Foundation
import SecStore

/// One item as it travels through etcd: a live item or a tombstone, with the version that
/// orders it against every other change to the same primary key.
///
/// Sealed (``seal(tag:keys:)``) it is `"SSR1" ‖ epoch (u32 BE) ‖ group id (16) ‖ XChaCha20-Poly1305`,
/// the associated data naming the circle, the epoch, the group and the record's tag: a value
/// moved to another key, another circle or another group, or flipped by one bit, does not open.
struct SyncRecord: Sendable {
    var version: SyncVersion
    /// The item; `nil` for a tombstone.
    var item: SyncedItem?
    /// The group whose key seals the record.
    var groupID: [UInt8]

    private static let magic = Array("SSR1".utf8)
    private static let payloadFormat: UInt8 = 1
    private static let headerByteCount = 4 + 4 + CircleKeys.idByteCount

    /// The sealed value for etcd.
    func seal(tag: [UInt8], keys: CircleKeys) throws -> [UInt8] {
        var payload = encodedPayload()
        defer { Wipe.bytes(&payload) }
        let header = Self.magic + Self.bigEndian(keys.epoch) + groupID
        let sealed = AEAD.seal(payload, key: try keys.groupKey(groupID),
                               associatedData: Self.associatedData(header: header, circleID: keys.circleID, tag: tag))
        return header + Array(sealed)
    }

    /// The epoch a sealed value names, before it is opened (which key to open it with).
    static func epoch(of value: [UInt8]) -> UInt32? {
        var reader = ByteReader(bytes: Array(value.prefix(8)))
        guard value.count > headerByteCount, reader.bytes(4) == magic, let epoch = reader.integer(4) else { return nil }
        return UInt32(epoch)
    }

    /// Opens a sealed value found at `tag`'s key. Throws ``SyncRefusal`` when it is not one
    /// a member of this circle sealed for this key.
    static func open(_ value: [UInt8], tag: [UInt8], keys: CircleKeys) throws(SyncRefusal) -> SyncRecord {
        guard epoch(of: value) == keys.epoch else { throw .malformed }
        let header = Array(value.prefix(headerByteCount))
        let groupID = Array(header.suffix(CircleKeys.idByteCount))
        var payload: Data
        do {
            payload = try AEAD.open(Array(value.dropFirst(headerByteCount)), key: try keys.groupKey(groupID),
                                    associatedData: associatedData(header: header, circleID: keys.circleID, tag: tag))
        } catch {
            throw .unauthentic
        }
        defer { Wipe.data(&payload) }
        let record = try decode(payload, groupID: groupID)
        if let item = record.item {
            // A member's record names its own group and primary key: anything else was moved.
            guard let group = item.attributes.accessGroup, keys.groupID(group) == groupID,
                  keys.tag(for: item) == tag, item.isSynchronizable
            else { throw .mismatched }
            // Sync's own group holds its settings and keys, and nothing arrives there from
            // outside: no import, backup or tool writes there, and no record either.
            guard !ImportRules.isReserved(group) else { throw .unstorable }
        }
        return record
    }

    private static func associatedData(header: [UInt8], circleID: [UInt8], tag: [UInt8]) -> [UInt8] {
        Array("secstore/sync/v1/record".utf8) + circleID + header + tag
    }

    // MARK: Payload

    /// `format ‖ deleted ‖ modified (i64 BE) ‖ device (16) ‖ class ‖ metadata length (u32 BE)
    /// ‖ metadata ‖ secret length (u32 BE) ‖ secret`; a tombstone has no metadata or secret.
    private func encodedPayload() -> [UInt8] {
        var metadata = item.map { MetadataCodec.encode($0.attributes) } ?? []
        defer { Wipe.bytes(&metadata) }
        let secret = item?.secret ?? Data()
        // Its whole size reserved first: growing it would free copies of the secret unwiped.
        var out: [UInt8] = []
        out.reserveCapacity(2 + 8 + version.device.count + 1 + 4 + metadata.count + 4 + secret.count)
        out += [Self.payloadFormat, item == nil ? 1 : 0]
        out += withUnsafeBytes(of: version.modified.bigEndian, Array.init)
        out += version.device
        out.append(item?.itemClass.code ?? 0)
        out += Self.bigEndian(UInt32(metadata.count))
        out += metadata
        out += Self.bigEndian(UInt32(secret.count))
        out.append(contentsOf: secret)
        return out
    }

    private static func decode(_ payload: Data, groupID: [UInt8]) throws(SyncRefusal) -> SyncRecord {
        var reader = ByteReader(bytes: Array(payload))
        defer { reader.wipe() }
        guard let format = reader.byte(), format == payloadFormat, let deleted = reader.byte(), deleted <= 1,
              let modified = reader.integer(8), let device = reader.bytes(CircleKeys.idByteCount), let classCode = reader.byte(),
              let metadataCount = reader.integer(4), var metadata = reader.bytes(Int(metadataCount)),
              let secretCount = reader.integer(4), var secret = reader.bytes(Int(secretCount)), reader.isAtEnd
        else { throw .malformed }
        // The plaintext copies taken from the reader: wiped whatever happens (it wipes its own).
        defer {
            Wipe.bytes(&metadata)
            Wipe.bytes(&secret)
        }
        // A version outside the dates an item may carry (StorableDates) is no device's clock:
        // refused, as every later version computed from it would overflow.
        let version = SyncVersion(modified: Int64(bitPattern: modified), device: device)
        guard StorableDates.microseconds.contains(version.modified) else { throw .malformed }
        guard deleted == 0 else { return SyncRecord(version: version, item: nil, groupID: groupID) }
        let attributes: Attributes? = metadata.withUnsafeBytes { try? MetadataCodec.decode($0) }
        guard let itemClass = ItemClass(code: classCode), let attributes else {
            throw .malformed
        }
        return SyncRecord(version: version, item: SyncedItem(itemClass: itemClass, attributes: attributes, secret: Data(secret)),
                          groupID: groupID)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
}

/// Reads a byte string front to back, failing softly at its end.
struct ByteReader {
    private(set) var bytes: [UInt8]
    private var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8? { bytes(1)?.first }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A big-endian unsigned integer of `count` bytes.
    mutating func integer(_ count: Int) -> UInt64? {
        bytes(count)?.reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func wipe() { Wipe.bytes(&bytes) }
}
