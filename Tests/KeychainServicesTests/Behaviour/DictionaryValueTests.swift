import Foundation
@testable import KeychainServices
import SecStore
import Testing

/// How values arriving as `Any` are read: what counts as a boolean, a whole number, or no value.
@Suite("Dictionary values") struct DictionaryValueTests {
    @Test("Booleans: Bool and kCFBoolean values, not numbers")
    func booleans() {
        #expect(DictionaryValue.boolean(true) == true)
        #expect(DictionaryValue.boolean(kCFBooleanFalse as Any) == false)
        #expect(DictionaryValue.boolean(NSNumber(value: true)) == true)
        #expect(DictionaryValue.boolean(NSNumber(value: 1)) == nil)
        #expect(DictionaryValue.boolean(1) == nil)
        #expect(DictionaryValue.boolean("true") == nil)
    }

    @Test("Whole numbers: integers and integral doubles, not booleans or fractions")
    func integers() {
        #expect(DictionaryValue.integer(443) == 443)
        #expect(DictionaryValue.integer(NSNumber(value: Int32(-7))) == -7)
        #expect(DictionaryValue.integer(8443.0) == 8443)
        #expect(DictionaryValue.integer(2.5) == nil)
        #expect(DictionaryValue.integer(true) == nil)
        #expect(DictionaryValue.integer(UInt64.max) == nil)
        #expect(DictionaryValue.integer("443") == nil)
    }

    @Test("Optionals are unwrapped; nil and NSNull are no value")
    func unwrapping() {
        let none: String? = nil
        let nested: String?? = .some("x")
        #expect(DictionaryValue.unwrapped(none as Any) == nil)
        #expect(DictionaryValue.unwrapped(NSNull()) == nil)
        #expect(DictionaryValue.unwrapped(nested as Any) as? String == "x")
        #expect(DictionaryValue.unwrapped(kCFBooleanTrue as Any).map(DictionaryValue.boolean) == true)
    }

    @Test("Attribute values keep their type")
    func attributeValues() {
        #expect(DictionaryValue.attributeValue("a") == .string("a"))
        #expect(DictionaryValue.attributeValue(NSString(string: "a")) == .string("a"))
        #expect(DictionaryValue.attributeValue(Data([1])) == .data(Data([1])))
        #expect(DictionaryValue.attributeValue(NSData(data: Data([1]))) == .data(Data([1])))
        #expect(DictionaryValue.attributeValue(NSNumber(value: 5)) == .number(5))
        #expect(DictionaryValue.attributeValue(false) == .number(0))
        let date = Date(timeIntervalSinceReferenceDate: 1234.5)
        #expect(DictionaryValue.attributeValue(date) == .date(date))
        #expect(DictionaryValue.attributeValue(NSDate(timeIntervalSinceReferenceDate: 1234.5)) == .date(date))
        #expect(DictionaryValue.attributeValue([1, 2]) == nil)
    }

    @Test("Errors from the store keep their status; anything else is errSecNotAvailable")
    func statusMapping() {
        #expect(SecItemCall.status(for: SecStoreError(.corruptData, "damaged")) == errSecDecode)
        #expect(SecItemCall.status(for: SecStoreError(.interactionNotAllowed, "locked")) == errSecInteractionNotAllowed)
        #expect(SecItemCall.status(for: SecStoreError(.noSuchAttribute, "x")) == errSecNoSuchAttr)
        #expect(SecItemCall.status(for: CocoaError(.fileReadUnknown)) == errSecNotAvailable)
    }
}
