import Foundation
import SecStore

/// The values of the circle's own etcd keys (``EtcdLayout``), each authenticated: by the
/// circle key (the circle and member entries), by the join code's key (a join and its
/// grant), or by the previous epoch's circle key (the grants of a rotation).
enum CircleEntries {
    // MARK: P/circle: "SSC1" ‖ circle id ‖ epoch ‖ MAC

    static func circle(_ keys: CircleKeys) -> [UInt8] {
        let body = Array("SSC1".utf8) + keys.circleID + SyncRecord.bigEndian(keys.epoch)
        return body + keys.mac(Array("circle".utf8) + body)
    }

    /// The circle id and epoch an entry claims (authenticated later, by whoever holds the key).
    static func parseCircle(_ value: [UInt8]) -> (circleID: [UInt8], epoch: UInt32)? {
        var reader = ByteReader(bytes: value)
        guard reader.bytes(4) == Array("SSC1".utf8), let id = reader.bytes(CircleKeys.idByteCount),
              let epoch = reader.integer(4), reader.bytes(32) != nil, reader.isAtEnd else { return nil }
        return (id, UInt32(epoch))
    }

    // MARK: P/join/DEVICE: public key ‖ salt ‖ MAC(code key)

    static func join(circleID: [UInt8], device: [UInt8], publicKey: [UInt8], salt: [UInt8], codeKey: SecureBytes) throws -> [UInt8] {
        publicKey + salt + (try codeMAC(codeKey, Array("join".utf8) + circleID + device + publicKey))
    }

    /// A join entry's public key and salt, and whether its MAC verifies under the key `code` gives with its salt.
    static func parseJoin(_ value: [UInt8], circleID: [UInt8], device: [UInt8], code: JoinCode)
        throws -> (publicKey: [UInt8], codeKey: SecureBytes)? {
        var reader = ByteReader(bytes: value)
        guard let publicKey = reader.bytes(SealedBox.publicKeyByteCount), let salt = reader.bytes(JoinCode.saltByteCount),
              let mac = reader.bytes(32), reader.isAtEnd else { return nil }
        let codeKey = try code.key(salt: salt)
        let expected = try codeMAC(codeKey, Array("join".utf8) + circleID + device + publicKey)
        return ConstantTime.equals(expected, mac) ? (publicKey, codeKey) : nil
    }

    static func codeMAC(_ key: SecureBytes, _ message: [UInt8]) throws -> [UInt8] {
        try BlindIndexer(key: key).digest(message, byteCount: 32)
    }

    // MARK: P/grant/EPOCH/DEVICE: sealed box(circle id ‖ epoch ‖ circle key ‖ naming key) ‖ MAC

    /// What a grant hands over.
    struct Grant {
        var circleID: [UInt8]
        var epoch: UInt32
        var circleKey: SecureBytes
        var namingKey: SecureBytes
    }

    /// The sealed part of a grant, for `publicKey`.
    static func sealGrant(_ grant: Grant, to publicKey: [UInt8]) throws -> [UInt8] {
        // Its whole size reserved first: growing it would free a copy of the keys unwiped.
        var plain: [UInt8] = []
        plain.reserveCapacity(grant.circleID.count + 4 + grant.circleKey.count + grant.namingKey.count)
        plain += grant.circleID
        plain += SyncRecord.bigEndian(grant.epoch)
        grant.circleKey.withUnsafeBytes { plain += $0 }
        grant.namingKey.withUnsafeBytes { plain += $0 }
        defer { Wipe.bytes(&plain) }
        return try SealedBox.seal(plain, to: publicKey)
    }

    /// The message a grant's MAC covers.
    static func grantMessage(epoch: UInt32, device: [UInt8], sealed: [UInt8]) -> [UInt8] {
        Array("grant".utf8) + SyncRecord.bigEndian(epoch) + device + sealed
    }

    /// Opens the sealed part of a grant with this device's key pair.
    static func openGrant(_ sealed: [UInt8], with keyPair: SealedBox.KeyPair) throws -> Grant? {
        let opened = try SealedBox.open(sealed, with: keyPair)
        return try opened.withUnsafeBytes { bytes -> Grant? in
            let id = CircleKeys.idByteCount, key = CircleKeys.keyByteCount
            guard bytes.count == id + 4 + 2 * key else { return nil }
            var reader = ByteReader(bytes: Array(bytes[id..<id + 4]))
            defer { reader.wipe() }
            let epoch = UInt32(reader.integer(4) ?? 0)
            return Grant(circleID: Array(bytes[0..<id]), epoch: epoch,
                         circleKey: try SecureBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[id + 4..<id + 4 + key])),
                         namingKey: try SecureBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[(id + 4 + key)...])))
        }
    }

    // MARK: P/member/DEVICE: public key ‖ epoch ‖ MAC(circle key)

    static func member(device: [UInt8], publicKey: [UInt8], keys: CircleKeys) -> [UInt8] {
        let body = publicKey + SyncRecord.bigEndian(keys.epoch)
        return body + keys.mac(Array("member".utf8) + device + body)
    }

    /// A member entry's public key, when it authenticates under `keys`.
    static func parseMember(_ value: [UInt8], device: [UInt8], keys: CircleKeys) -> [UInt8]? {
        guard value.count == SealedBox.publicKeyByteCount + 4 + 32 else { return nil }
        let body = Array(value.prefix(SealedBox.publicKeyByteCount + 4))
        guard keys.verify(mac: Array(value.suffix(32)), of: Array("member".utf8) + device + body) else { return nil }
        return Array(body.prefix(SealedBox.publicKeyByteCount))
    }
}
