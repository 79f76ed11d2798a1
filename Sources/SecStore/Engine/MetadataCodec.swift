import Foundation

/// The plaintext layout of an item's sealed metadata: a version byte, then one entry per
/// attribute in attribute-code order, each `code (1) ‖ type (1) ‖ length (LEB128) ‖ bytes`.
///
/// Types: 0 UTF-8 string, 1 data, 2 number (8 bytes, little-endian two's complement),
/// 3 date (8 bytes, little-endian IEEE-754 seconds since 2001-01-01), 4 a free-form
/// attribute (``Attributes/custom``: `name length (LEB128) ‖ name ‖ value`, both UTF-8),
/// under code ``customCode`` after every other entry, one entry per pair in name order
/// (format version 3; older stores have none).
package enum MetadataCodec {
    static let version: UInt8 = 1
    /// The code of free-form attribute entries: above every ``AttributeKey`` code, so they
    /// come last and scans for an attribute stop before them.
    static let customCode: UInt8 = 0xC0

    private enum ValueType: UInt8 {
        case string = 0, data = 1, number = 2, date = 3, custom = 4
    }

    package static func encode(_ attributes: Attributes) -> [UInt8] {
        var out: [UInt8] = [version]
        out.reserveCapacity(128)
        for (key, value) in attributes {  // in code order
            let (type, bytes): (ValueType, [UInt8]) = switch value {
            case .string(let string): (.string, Array(string.utf8))
            case .data(let data): (.data, Array(data))
            case .number(let number): (.number, withUnsafeBytes(of: number.littleEndian, Array.init))
            case .date(let date):
                (.date, withUnsafeBytes(of: date.timeIntervalSinceReferenceDate.bitPattern.littleEndian, Array.init))
            }
            out.append(key.code)
            out.append(type.rawValue)
            appendLength(bytes.count, to: &out)
            out.append(contentsOf: bytes)
        }
        for (name, value) in attributes.custom.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            var payload: [UInt8] = []
            appendLength(name.utf8.count, to: &payload)
            payload += name.utf8
            payload += value.utf8
            out.append(customCode)
            out.append(ValueType.custom.rawValue)
            appendLength(payload.count, to: &out)
            out += payload
            Wipe.bytes(&payload)
        }
        return out
    }

    /// Decodes authenticated metadata. A layout error here means a bug or an unknown
    /// future encoding, never tampering (the AEAD tag already verified), but it is still
    /// reported as corruption rather than trusted.
    package static func decode(_ bytes: Data) throws -> Attributes {
        try bytes.withUnsafeBytes(decode(_:))
    }

    /// The same, over plaintext in a buffer (the read path decodes in the wiped buffer the
    /// blob was opened into).
    package static func decode(_ buffer: UnsafeRawBufferPointer) throws -> Attributes {
        var reader = Reader(buffer: buffer)
        guard try reader.byte() == version else { throw SecStoreError.corrupt("An item's metadata encoding") }
        // Room for exactly the entries there are: no regrowth while decoding, no slack kept.
        var attributes = Attributes(minimumCapacity: try entryCount(reader))
        while !reader.isAtEnd {
            let code = try reader.byte()
            let typeByte = try reader.byte()
            let length = try reader.length()
            let payload = try reader.bytes(length)
            if code == customCode {
                let (name, value) = try customPair(typeByte, payload)
                guard attributes.custom.updateValue(value, forKey: name) == nil else {
                    throw SecStoreError.corrupt("An item's metadata encoding")
                }
                continue
            }
            guard let key = AttributeKey(code: code), let type = ValueType(rawValue: typeByte), type != .custom else {
                throw SecStoreError.corrupt("An item's metadata encoding")
            }
            attributes.appendInCodeOrder(key, try value(type, payload))
        }
        return attributes
    }

    /// How many standard (not free-form) entries follow the reader's position.
    private static func entryCount(_ reader: Reader) throws -> Int {
        var reader = reader, count = 0
        while !reader.isAtEnd {
            let code = try reader.byte()
            _ = try reader.byte()
            _ = try reader.bytes(try reader.length())
            if code != customCode { count += 1 }
        }
        return count
    }

    /// The access-control flags in authenticated metadata, found without decoding the other
    /// attributes (the read path checks them before it decrypts a secret); `nil` when the
    /// item has none.
    package static func accessControlFlags(in bytes: Data) throws -> AccessControlFlags? {
        try bytes.withUnsafeBytes { try accessControlFlags(in: $0) }
    }

    /// The same, over plaintext in a buffer.
    static func accessControlFlags(in buffer: UnsafeRawBufferPointer) throws -> AccessControlFlags? {
        var reader = Reader(buffer: buffer)
        guard try reader.byte() == version else { throw SecStoreError.corrupt("An item's metadata encoding") }
        let wanted = AttributeKey.accessControl.code
        while !reader.isAtEnd {
            let code = try reader.byte()
            let typeByte = try reader.byte()
            let payload = try reader.bytes(try reader.length())
            // Entries are in code order: past the wanted code, it is absent.
            guard code <= wanted else { return nil }
            guard code == wanted else { continue }
            guard typeByte == ValueType.number.rawValue, payload.count == 8,
                  let raw = UInt(exactly: Int64(littleEndian: payload.loadUnaligned(as: Int64.self))) else {
                throw SecStoreError.corrupt("An item's metadata encoding")
            }
            return AccessControlFlags(rawValue: raw)
        }
        return nil
    }

    private static func value(_ type: ValueType, _ payload: UnsafeRawBufferPointer) throws -> AttributeValue {
        switch type {
        case .string:
            guard let string = text(payload) else {
                throw SecStoreError.corrupt("An item's metadata encoding")
            }
            return .string(string)
        case .data:
            return .data(Data(payload))
        case .number:
            guard payload.count == 8 else { throw SecStoreError.corrupt("An item's metadata encoding") }
            return .number(Int64(littleEndian: payload.loadUnaligned(as: Int64.self)))
        case .date:
            guard payload.count == 8 else { throw SecStoreError.corrupt("An item's metadata encoding") }
            let bits = UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self))
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
        case .custom:
            throw SecStoreError.corrupt("An item's metadata encoding")
        }
    }

    private static func customPair(_ typeByte: UInt8, _ payload: UnsafeRawBufferPointer) throws -> (String, String) {
        var reader = Reader(buffer: payload)
        guard typeByte == ValueType.custom.rawValue,
              let name = text(try reader.bytes(try reader.length())), !name.isEmpty,
              let value = text(try reader.bytes(payload.count - reader.offset))
        else { throw SecStoreError.corrupt("An item's metadata encoding") }
        return (name, value)
    }

    /// The string `bytes` spell when they are valid UTF-8, else `nil`: what
    /// `String(validating:as:)` answers, at a third of its cost (a search decodes several
    /// strings per item). Decoding repairs invalid bytes, so the string's bytes differ from
    /// `bytes` exactly when they were not valid.
    static func text(_ bytes: UnsafeRawBufferPointer) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        return UTF8Bytes.equal(string, bytes) ? string : nil
    }

    private static func appendLength(_ length: Int, to out: inout [UInt8]) {
        var remaining = UInt64(length)
        repeat {
            var byte = UInt8(remaining & 0x7F)
            remaining >>= 7
            if remaining != 0 { byte |= 0x80 }
            out.append(byte)
        } while remaining != 0
    }

    private struct Reader {
        let buffer: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset >= buffer.count }

        mutating func byte() throws -> UInt8 {
            guard offset < buffer.count else { throw SecStoreError.corrupt("An item's metadata encoding") }
            defer { offset += 1 }
            return buffer[offset]
        }

        mutating func length() throws -> Int {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                result |= UInt64(next & 0x7F) << shift
                if next & 0x80 == 0 { break }
                shift += 7
                guard shift < 35 else { throw SecStoreError.corrupt("An item's metadata encoding") }
            }
            return Int(result)
        }

        mutating func bytes(_ count: Int) throws -> UnsafeRawBufferPointer {
            guard count <= buffer.count - offset else { throw SecStoreError.corrupt("An item's metadata encoding") }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + count)])
        }
    }
}
