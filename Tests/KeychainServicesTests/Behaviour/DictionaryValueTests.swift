import Foundation
@testable import KeychainServices
import SecStore
import Testing

/// How values arriving as `Any` are sorted: what counts as a boolean, a whole number, or no value.
@Suite("Dictionary values") struct DictionaryValueTests {
    @Test("Booleans: Bool and kCFBoolean values, not numbers")
    func booleans() {
        #expect(DictionaryValue(true)?.boolean == true)
        #expect(DictionaryValue(kCFBooleanFalse as Any)?.boolean == false)
        #expect(DictionaryValue(NSNumber(value: true))?.boolean == true)
        #expect(DictionaryValue(NSNumber(value: 1))?.boolean == nil)
        #expect(DictionaryValue(1)?.boolean == nil)
        #expect(DictionaryValue("true")?.boolean == nil)
    }

    @Test("Whole numbers: integers and integral doubles, not booleans or fractions")
    func integers() {
        #expect(DictionaryValue(443)?.integer == 443)
        #expect(DictionaryValue(NSNumber(value: Int32(-7)))?.integer == -7)
        #expect(DictionaryValue(8443.0)?.integer == 8443)
        #expect(DictionaryValue(2.5)?.integer == nil)
        #expect(DictionaryValue(true)?.integer == nil)
        #expect(DictionaryValue(UInt64.max)?.integer == nil)
        #expect(DictionaryValue("443")?.integer == nil)
    }

    @Test("Optionals are unwrapped; nil and NSNull are no value")
    func unwrapping() {
        let none: String? = nil
        let nested: String?? = .some("x")
        #expect(DictionaryValue(none as Any) == nil)
        #expect(DictionaryValue(NSNull()) == nil)
        #expect(DictionaryValue(nested as Any)?.string == "x")
        #expect(DictionaryValue(kCFBooleanTrue as Any)?.boolean == true)
    }

    @Test("Attribute values keep their type")
    func attributeValues() {
        #expect(DictionaryValue("a")?.attributeValue == .string("a"))
        #expect(DictionaryValue(NSString(string: "a"))?.attributeValue == .string("a"))
        #expect(DictionaryValue(Data([1]))?.attributeValue == .data(Data([1])))
        #expect(DictionaryValue(NSData(data: Data([1])))?.attributeValue == .data(Data([1])))
        #expect(DictionaryValue(NSNumber(value: 5))?.attributeValue == .number(5))
        #expect(DictionaryValue(false)?.attributeValue == .number(0))
        let date = Date(timeIntervalSinceReferenceDate: 1234.5)
        #expect(DictionaryValue(date)?.attributeValue == .date(date))
        #expect(DictionaryValue(NSDate(timeIntervalSinceReferenceDate: 1234.5))?.attributeValue == .date(date))
        #expect(DictionaryValue([1, 2])?.attributeValue == nil)
    }

    @Test("Error messages name the type the value arrived as")
    func typeNames() {
        #expect(DictionaryValue("a")?.typeName == "String")
        #expect(DictionaryValue(NSNumber(value: 1))?.typeName == "NSNumber")
        #expect(DictionaryValue(NSDecimalNumber(value: 1.5))?.typeName == "NSDecimalNumber")
        #expect(DictionaryValue(kCFBooleanTrue as Any)?.typeName == "Bool")
        #expect(DictionaryValue([1, 2])?.typeName == "Array<Int>")
    }

    @Test("A value's description and mirror leave a secret's bytes out")
    func secretsRedacted() throws {
        let value = try #require(DictionaryValue(Data("hunter2-secret".utf8)))
        var dumped = ""
        dump(value, to: &dumped)
        for text in [String(describing: value), String(reflecting: value), dumped] {
            #expect(!text.contains("hunter2") && !text.contains("104"), "\(text)")   // 104: "h" as a byte
            #expect(text.contains("14 bytes, redacted"), "\(text)")
        }
    }

    @Test("Keys are counted and dispatched by UTF-16 unit, as CFStringGetLength and CFStringGetCharacterAtIndex do")
    func keyKinds() {
        #expect(DictionaryKey("acct") == .attribute)
        #expect(DictionaryKey("😀ab") == .attribute, "two units for the emoji, four in all")
        #expect(DictionaryKey("class") == .itemClass)
        #expect(DictionaryKey("clazz") == .invalid)
        #expect(DictionaryKey("m_Limit") == .match)
        // A combining mark after the first letter: one grapheme "m̀", but its first unit is "m".
        #expect(DictionaryKey("m\u{300}_Foo") == .match)
        #expect(DictionaryKey("r_Data") == .returning)
        #expect(DictionaryKey("u_AuthUI") == .use)
        #expect(DictionaryKey("v_Data") == .value)
        #expect(DictionaryKey("f_Anything") == .ignored)
        #expect(DictionaryKey("persistref") == .invalid)
        #expect(DictionaryKey("") == .invalid)
    }

    @Test("Errors from the store keep their status; anything else is errSecNotAvailable")
    func statusMapping() {
        #expect(SecItemCall.status(for: SecStoreError(.corruptData, "damaged")) == errSecDecode)
        #expect(SecItemCall.status(for: SecStoreError(.interactionNotAllowed, "locked")) == errSecInteractionNotAllowed)
        #expect(SecItemCall.status(for: SecStoreError(.noSuchAttribute, "x")) == errSecNoSuchAttr)
        #expect(SecItemCall.status(for: CocoaError(.fileReadUnknown)) == errSecNotAvailable)
    }
}
