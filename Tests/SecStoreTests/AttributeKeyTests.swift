import Foundation
import Testing
@testable import SecStore

/// Attribute names are looked up as packed four-byte numbers; the lookup must answer what a
/// plain search of the names answers, for every name and for near misses.
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
}
