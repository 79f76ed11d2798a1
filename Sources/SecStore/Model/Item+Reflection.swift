/// `Mirror`, `dump` and debuggers show an item without its secret: Foundation's `Data`
/// reflects its bytes one by one, so the default mirror would print the secret.
///
/// ```swift
/// dump(item)   // ▿ Item … - data: "<12 bytes, redacted>"
/// ```
extension Item: CustomReflectable {
    /// The class, attributes and persistent reference; the secret as its length only.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "itemClass": itemClass, "attributes": attributes,
            "data": data.map { "<\($0.count) bytes, redacted>" } as Any,
            "persistentReference": persistentReference as Any,
        ], displayStyle: .struct)
    }
}

extension ItemChanges: CustomReflectable {
    /// The attributes; a new secret as its length only.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "attributes": attributes, "data": data.map { "<\($0.count) bytes, redacted>" } as Any,
        ], displayStyle: .struct)
    }
}
