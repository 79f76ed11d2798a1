import Foundation

/// Apple's rules for attribute values (reference §2): which attributes a class has, how a
/// value of each kind is converted, the defaults of omitted primary-key attributes, and
/// how values are compared.
enum AttributeRules {
    /// Checks that every key belongs to `itemClass` and converts every value to its
    /// stored form.
    static func normalize(_ attributes: Attributes, for itemClass: ItemClass) throws -> Attributes {
        try checkCustom(attributes.custom)
        var result = attributes
        for (key, value) in attributes {
            guard itemClass.has(key) else {
                throw SecStoreError(.noSuchAttribute, "\(itemClass) items have no attribute \(key.rawValue). Remove it from the dictionary.")
            }
            let normalized = try normalize(value, for: key)
            if normalized != value { result[key] = normalized }
        }
        return result
    }

    static func normalize(_ value: AttributeValue, for key: AttributeKey) throws -> AttributeValue {
        try checkSize(value, of: key)
        if key == .accessControl {
            // Only flags Apple defines, as a number: any other value would read back as no
            // access control at all.
            guard case .number(let number) = value, let raw = UInt(exactly: number),
                  AccessControlFlags.known.isSuperset(of: AccessControlFlags(rawValue: raw)) else {
                throw SecStoreError.invalid("accc takes access-control flags (a SecAccessControl), not \(value).")
            }
            return value
        }
        switch (key.kind, value) {
        case (.blob, .date):
            throw SecStoreError.invalid("\(key.rawValue) takes a string, data or a number, not a date.")
        case (.blob, _):
            return value
        case (.number, .number):
            return value
        case (.number, .string(let string)):
            // As Apple's copyNumber: "443" is 443, "htps" stays a string.
            if let number = Int64(string), String(number) == string { return .number(number) }
            return value
        case (.number, _):
            throw SecStoreError.invalid("\(key.rawValue) takes a number or a four-character code.")
        case (.string, .string):
            return value
        case (.string, .data(let data)):
            guard let string = String(data: data, encoding: .utf8) else {
                throw SecStoreError.invalid("\(key.rawValue) given as data must be valid UTF-8.")
            }
            return .string(string)
        case (.string, _):
            throw SecStoreError.invalid("\(key.rawValue) takes a string.")
        case (.accessibility, .string(let raw)):
            guard Accessibility(rawValue: raw) != nil else {
                throw SecStoreError.invalid("\"\(raw)\" is not an accessibility value. Use one of \(Accessibility.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return value
        case (.accessibility, _):
            throw SecStoreError.invalid("pdmn takes an accessibility value such as \"ak\".")
        case (.synchronizable, .number(let number)):
            return .bool(number != 0)
        case (.synchronizable, _):
            throw SecStoreError.invalid("sync takes a boolean.")
        case (.date, .date):
            return value
        case (.date, _):
            throw SecStoreError.invalid("\(key.rawValue) takes a date.")
        }
    }

    /// The largest string or data value of one attribute, in bytes (UTF-8 for a string). Apple
    /// sets none. SecStore keeps one because an item's attributes are sealed, decrypted and
    /// backed up together: a label of hundreds of megabytes would make every search that
    /// opens the item as large, and the item impossible to export (a backup record holds at
    /// most 256 MiB, ``Item/maximumDataByteCount`` of it the secret). 1 MiB is far beyond any
    /// label, comment or `kSecAttrGeneric` blob seen in practice.
    static let maximumValueByteCount = 1 << 20

    /// Refuses a string or data value over ``maximumValueByteCount``: in an item, a query and
    /// an update alike, before the value is hashed into a tag or sealed.
    static func checkSize(_ value: AttributeValue, of key: AttributeKey) throws {
        let byteCount = switch value {
        case .string(let string): string.utf8.count
        case .data(let data): data.count
        case .number, .date: 0
        }
        guard byteCount <= maximumValueByteCount else {
            throw SecStoreError(.dataTooLarge, "The value of \(key.rawValue) has \(byteCount) bytes; an attribute holds at most \(maximumValueByteCount >> 20) MiB. Keep large data in the item's secret (up to \(Item.maximumDataByteCount >> 20) MiB) or in a file.")
        }
    }

    /// The value an omitted primary-key attribute has: empty for blobs, 0 for numbers,
    /// false for `sync` (reference §2, flags E and Z).
    /// The most free-form attributes one item may carry, and the largest name, value and
    /// total (names and values together, in UTF-8 bytes). Generous for every Secret Service
    /// client seen (a handful of short pairs), small enough that a hostile caller cannot
    /// make one item's metadata huge.
    static let maximumCustomCount = 64
    static let maximumCustomNameByteCount = 256
    static let maximumCustomValueByteCount = 4096
    static let maximumCustomTotalByteCount = 16384

    /// Free-form attributes (``Attributes/custom``) of an item, a query or an update: names
    /// not empty, and every size within the limits above.
    static func checkCustom(_ custom: [String: String]) throws {
        guard !custom.isEmpty else { return }
        guard custom.count <= maximumCustomCount else {
            throw SecStoreError(.dataTooLarge, "An item may carry at most \(maximumCustomCount) free-form attributes; \(custom.count) were given.")
        }
        var total = 0
        for (name, value) in custom {
            guard !name.isEmpty else {
                throw SecStoreError.invalid("A free-form attribute needs a name; an empty one was given.")
            }
            guard name.utf8.count <= maximumCustomNameByteCount, value.utf8.count <= maximumCustomValueByteCount else {
                throw SecStoreError(.dataTooLarge, "A free-form attribute's name may have at most \(maximumCustomNameByteCount) bytes and its value \(maximumCustomValueByteCount) (UTF-8).")
            }
            total += name.utf8.count + value.utf8.count
        }
        guard total <= maximumCustomTotalByteCount else {
            throw SecStoreError(.dataTooLarge, "An item's free-form attributes may total at most \(maximumCustomTotalByteCount) bytes (UTF-8); these total \(total).")
        }
    }

    static func defaultValue(for key: AttributeKey) -> AttributeValue? {
        switch key.kind {
        case .blob: .string("")
        case .number: .number(0)
        case .synchronizable: .bool(false)
        case .string, .accessibility, .date: nil
        }
    }

    /// `attributes` with every omitted primary-key attribute set to its default.
    static func fillingPrimaryKeyDefaults(_ attributes: Attributes, for itemClass: ItemClass) -> Attributes {
        var filled = attributes
        for key in itemClass.primaryKey where filled[key] == nil {
            filled[key] = defaultValue(for: key)
        }
        return filled
    }

    /// The bytes a value is indexed and compared by. Blobs compare by content whatever
    /// their type, so `"a"` and `Data("a".utf8)` are one value (reference §4.6); numbers and
    /// strings of number attributes stay distinct.
    static func canonicalBytes(_ value: AttributeValue, kind: AttributeKind) -> [UInt8] {
        var bytes: [UInt8] = []
        appendCanonicalBytes(value, kind: kind, lengthPrefixed: false, to: &bytes)
        return bytes
    }

    /// Appends ``canonicalBytes(_:kind:)``, optionally after their length (4 bytes,
    /// big-endian), without intermediate arrays: tags are computed on every query, their
    /// messages written straight into the hash (``DigestWriter``).
    static func appendCanonicalBytes(_ value: AttributeValue, kind: AttributeKind, lengthPrefixed: Bool,
                                     to out: inout some ByteSink) {
        func length(_ count: Int) {
            // Values are at most `maximumValueByteCount` (checked when a request is
            // validated), so the length always fits; a value that skipped the rules must not
            // stop the process with a conversion trap (a checked conversion here also cost
            // the tag's inlining: 0.3k instructions a read).
            if lengthPrefixed { out.append(bigEndian: UInt32(truncatingIfNeeded: count)) }
        }
        func eight<T: FixedWidthInteger>(_ value: T, marker: UInt8?) {
            length(8 + (marker == nil ? 0 : 1))
            if let marker { out.append(marker) }
            out.append(littleEndian: value)
        }
        switch (kind, value) {
        case (.blob, .string(let string)), (.string, .string(let string)), (.accessibility, .string(let string)):
            length(string.utf8.count)
            out.append(utf8: string)
        case (.blob, .data(let data)), (.string, .data(let data)), (.accessibility, .data(let data)):
            length(data.count)
            data.withUnsafeBytes { out.append(contentsOf: $0) }
        case (.blob, .number(let number)), (.string, .number(let number)), (.accessibility, .number(let number)):
            eight(number, marker: nil)
        case (.blob, .date), (.string, .date), (.accessibility, .date):
            length(0)
        case (_, .number(let number)):
            eight(number, marker: 0x6E)
        case (_, .string(let string)):
            length(string.utf8.count + 1)
            out.append(0x73)
            out.append(utf8: string)
        case (_, .date(let date)):
            eight(date.timeIntervalSinceReferenceDate.bitPattern, marker: nil)
        case (_, .data(let data)):
            length(data.count + 1)
            out.append(0x64)
            data.withUnsafeBytes { out.append(contentsOf: $0) }
        }
    }

    /// Whether a stored value satisfies a query's equality filter. An attribute the item
    /// does not have matches nothing (Apple's NULL column); primary-key attributes always
    /// have a value, since an add stores their defaults.
    static func matches(_ stored: AttributeValue?, _ wanted: AttributeValue, key: AttributeKey, caseInsensitive: Bool) -> Bool {
        guard let stored else { return false }
        if canonicalBytes(stored, kind: key.kind) == canonicalBytes(wanted, kind: key.kind) { return true }
        guard caseInsensitive, key.kind != .date,
              let left = stored.stringValue, let right = wanted.stringValue
        else { return false }
        if key.kind == .number, stored.integerValue != nil || wanted.integerValue != nil { return false }
        return left.compare(right, options: [.caseInsensitive]) == .orderedSame
    }

    /// `kSecMatchHostOrSubdomainOfHost`: the server is `host` or ends in `.host`.
    static func isHostOrSubdomain(_ server: AttributeValue?, of host: String) -> Bool {
        guard let server = server?.stringValue?.lowercased() else { return false }
        let host = host.lowercased()
        return server == host || server.hasSuffix("." + host)
    }
}
