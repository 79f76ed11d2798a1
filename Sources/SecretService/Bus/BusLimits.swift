/// The size of message the provider sends, in one place: every reply is measured against it
/// before it is built (``BusConnection``), and `GetSecrets`, whose reply grows with the secrets
/// it carries, keeps a running total against it so that it never holds more than one item past
/// the limit in memory.
///
/// The D-Bus specification allows messages of up to 128 MiB with arrays of up to 64 MiB, but a
/// bus daemon refuses anything above its own `max_message_size` and disconnects a connection
/// that sends one: `dbus-daemon`'s built-in default is 32 MiB (the stock `session.conf` raises
/// it to 1 GB; a bus may lower it). The bus does not tell a client its limit, so the provider
/// keeps to the built-in default, 32 MiB, a whole message, header included: a reply that would
/// be larger is answered with `org.freedesktop.DBus.Error.LimitsExceeded` instead.
///
///     BusLimits.fits([.bytes(secret)])   // false for a 33 MiB secret
enum BusLimits {
    /// The largest message the provider sends, header included: 32 MiB.
    static let maximumMessage = 32 << 20

    /// Room kept for a reply's header: the fixed 12 bytes and the fields a method return
    /// carries (reply serial, destination and sender names of at most 255 bytes each, the body's
    /// signature of at most 255), with padding, come to well under this.
    static let headerAllowance = 4096

    /// The largest body that fits in ``maximumMessage``.
    static let maximumBody = maximumMessage - headerAllowance

    /// Whether a message whose body is `values` is small enough to send.
    static func fits(_ values: [BusValue]) -> Bool {
        bodyEnd(of: values, after: 0) <= maximumBody
    }

    /// Where the body ends when `values` are marshalled one after the other from byte `offset`
    /// (alignment counted from the body's start, as D-Bus counts it). Stops counting once past
    /// ``maximumBody``, so measuring a huge reply costs no more than measuring one that fits.
    static func bodyEnd(of values: [BusValue], after offset: Int) -> Int {
        var end = offset
        for value in values {
            end = value.marshalledEnd(after: end)
            if end > maximumBody { break }
        }
        return end
    }

    /// The error a reply beyond ``maximumMessage`` is answered with.
    static func exceeded(_ what: String) -> BusError {
        .limitsExceeded("\(what) would be larger than the \(maximumMessage >> 20) MiB a D-Bus message may be here (docs/secret-service.md, \"Limits\").")
    }
}

extension BusValue {
    /// The offset right after this value when it is marshalled (D-Bus wire format) starting at
    /// `offset`: the padding to its alignment, then its bytes.
    func marshalledEnd(after offset: Int) -> Int {
        switch self {
        case .byte: return offset + 1
        case .boolean, .int32, .uint32: return Self.align(offset, 4) + 4
        case .int64, .uint64, .double: return Self.align(offset, 8) + 8
        case .string(let text), .objectPath(let text): return Self.align(offset, 4) + 4 + text.utf8.count + 1
        case .signature(let text): return offset + 1 + text.utf8.count + 1
        case .bytes(let bytes): return Self.align(offset, 4) + 4 + bytes.count
        case .array(let element, let values):
            let start = Self.align(Self.align(offset, 4) + 4, Self.alignment(of: element))
            return BusLimits.bodyEnd(of: values, after: start)
        case .dictEntry(let key, let value):
            return value.marshalledEnd(after: key.marshalledEnd(after: Self.align(offset, 8)))
        case .structure(let fields):
            return BusLimits.bodyEnd(of: fields, after: Self.align(offset, 8))
        case .variant(let inner):
            return inner.marshalledEnd(after: offset + 1 + inner.signature.utf8.count + 1)
        }
    }

    private static func align(_ offset: Int, _ boundary: Int) -> Int {
        (offset + boundary - 1) / boundary * boundary
    }

    /// The alignment of a value of the (complete) type `signature`.
    private static func alignment(of signature: String) -> Int {
        switch signature.utf8.first {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4
        }
    }
}
