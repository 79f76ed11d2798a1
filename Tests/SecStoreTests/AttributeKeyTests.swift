import Foundation
import Testing
@testable import SecStore

/// Attribute names are looked up as packed four-byte numbers, and attributes, classes and
/// accessibilities by code through a table; each look-up must answer what a plain search
/// answers, for every value and for near misses.
@Suite struct AttributeKeyTests {
    @Test("Every attribute is found by its name, and nothing else is")
    func lookupAgreesWithTheNames() {
        for key in AttributeKey.all {
            #expect(AttributeKey(rawValue: key.rawValue) == key, "\(key)")
            #expect(AttributeKey(rawValue: key.rawValue)?.rawValue == key.rawValue)
        }
        let nearMisses = ["", "acc", "accta", "ACCT", "acct ", " acct", "a\u{0}ct", "ácct", "acçt", "😀", "svc", "nleg", "clip"]
        for name in nearMisses {
            let expected = AttributeKey.all.first { $0.rawValue == name }
            #expect(AttributeKey(rawValue: name) == expected, "\(name)")
            #expect(expected == nil, "\(name) is no attribute")
        }
        // Each name with its last letter replaced: found only when that spells an attribute.
        for key in AttributeKey.all {
            for replacement in UInt8(ascii: "a")...UInt8(ascii: "z") {
                var bytes = Array(key.rawValue.utf8)
                bytes[3] = replacement
                let name = String(decoding: bytes, as: UTF8.self)
                #expect(AttributeKey(rawValue: name) == AttributeKey.all.first { $0.rawValue == name }, "\(name)")
            }
        }
    }

    @Test("Codes turn back into the values that have them, and unknown codes into nothing")
    func codesRoundTrip() {
        for key in AttributeKey.all { #expect(AttributeKey(code: key.code) == key) }
        for accessibility in Accessibility.allCases { #expect(Accessibility(code: accessibility.code) == accessibility) }
        for itemClass in ItemClass.allCases { #expect(ItemClass(code: itemClass.code) == itemClass) }
        let used = Set(AttributeKey.all.map(\.code))
        for code in UInt8.min...UInt8.max where !used.contains(code) { #expect(AttributeKey(code: code) == nil) }
        let accessibilityCodes = Set(Accessibility.allCases.map(\.code))
        for code in UInt8.min...UInt8.max where !accessibilityCodes.contains(code) { #expect(Accessibility(code: code) == nil) }
        for code in UInt8.min...UInt8.max where code != 1 && code != 2 { #expect(ItemClass(code: code) == nil) }
    }
}
