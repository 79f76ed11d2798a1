import Foundation

/// The Secret Service's `Secret` struct, `(oayays)`: session, parameters (empty for `plain`),
/// value, content type.
struct SecretValue {
    var session: String
    var value: Data
    var contentType: String

    init(session: String, value: Data, contentType: String) {
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
        self.init(session: session, value: Data(value), contentType: contentType.isEmpty ? ItemMapping.defaultContentType : contentType)
    }

    var busValue: BusValue {
        .structure([.objectPath(session), .bytes([]), .bytes(Array(value)), .string(contentType)])
    }
}
