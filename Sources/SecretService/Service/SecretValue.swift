/// The Secret Service's `Secret` struct, `(oayays)`: session, parameters (empty for `plain`),
/// value, content type.
///
/// The value is a `[UInt8]` shared with the message's values, never copied: read from a call,
/// it is the argument's own array, and written, it becomes the reply's. So the bus layer, which
/// zeroes every `ay` of a call and of a reply once it is done with them
/// (``BusValue/wipeBytes(of:)``), zeroes the provider's one copy; a `SecretValue` is not kept
/// past its call.
struct SecretValue {
    var session: String
    var value: [UInt8]
    var contentType: String

    init(session: String, value: [UInt8], contentType: String) {
        self.session = session
        self.value = value
        self.contentType = contentType
    }

    /// Reads a `(oayays)` argument.
    init(_ argument: BusValue) throws(BusError) {
        guard let fields = argument.fields, fields.count == 4, case .objectPath(let session) = fields[0],
              let value = fields[2].byteArray, let contentType = fields[3].text else {
            throw .invalidArgs("A secret is a (oayays) struct.")
        }
        self.init(session: session, value: value, contentType: contentType.isEmpty ? ItemMapping.defaultContentType : contentType)
    }

    var busValue: BusValue {
        .structure([.objectPath(session), .bytes([]), .bytes(value), .string(contentType)])
    }
}
