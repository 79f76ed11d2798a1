/// The values of a type found by their one-byte on-disk code. Every row read turns codes back
/// into classes, accessibilities and attribute names, so an array indexed by code rather than
/// a search, built once from the type's own list of values (a value added to the list is found
/// without another edit).
///
/// ```swift
/// static let byCode = CodeTable(allCases, code: \.code)
/// init?(code: UInt8) { guard let value = Self.byCode[code] else { return nil }; self = value }
/// ```
struct CodeTable<Value: Sendable>: Sendable {
    private let values: [Value?]

    /// A table of `all`, each under `code(value)`; the first value with a code keeps it.
    init(_ all: [Value], code: (Value) -> UInt8) {
        var values = [Value?](repeating: nil, count: Int(all.map(code).max() ?? 0) + 1)
        for value in all where values[Int(code(value))] == nil {
            values[Int(code(value))] = value
        }
        self.values = values
    }

    /// The value with this code, or `nil` when none has it.
    subscript(code: UInt8) -> Value? {
        Int(code) < values.count ? values[Int(code)] : nil
    }
}
