import Foundation
@testable import KeychainServices
import SecStore
import Testing

/// The facade's fast paths read and build exactly what Foundation's generic bridging would:
/// a dictionary walked through `allKeys` and `allValues` with class checks gives the pairs
/// Foundation's iteration gives, and the objects returned cast back to the same values.
@Suite("Fast reading and results") struct FastReadingTests {
    /// A Foundation dictionary subclass, which `DictionaryEntries` reads through Foundation's
    /// iteration: the reference the fast path is compared with.
    final class ForwardingDictionary: NSDictionary {
        let base: NSDictionary
        init(_ base: NSDictionary) {
            self.base = base
            super.init(objects: nil, forKeys: nil, count: 0)
        }
        required init(objects: UnsafePointer<AnyObject>!, forKeys keys: UnsafePointer<NSObject>!, count: Int) { fatalError("unused") }
        required init?(coder: NSCoder) { nil }
        required convenience init(dictionaryLiteral elements: (Any, Any)...) { fatalError("unused") }
        override var count: Int { base.count }
        override func object(forKey key: Any) -> Any? { base.object(forKey: key) }
        override func keyEnumerator() -> NSEnumerator { base.keyEnumerator() }
        override var allKeys: [Any] { base.allKeys }
    }

    /// Every kind of value a SecItem dictionary holds, under 40 keys: the pairs must not mix.
    static var mixed: [String: Any] {
        var values: [String: Any] = [
            "str": "text", "nsstring": NSString(string: "ns"), "mutable": NSMutableString(string: "mutable"),
            "empty": "", "unicode": "é😀", "long": String(repeating: "long-", count: 20),
            "true": true, "false": kCFBooleanFalse as Any, "nsbool": NSNumber(value: true),
            "int": 443, "negative": Int32(-7), "double": 2.5, "u64": UInt64.max, "nsnumber": NSNumber(value: 8),
            "data": Data([1, 2, 3]), "emptydata": Data(), "nsdata": NSData(data: Data([9])),
            "mutabledata": NSMutableData(data: Data([4, 5])),
            "date": Date(timeIntervalSinceReferenceDate: 1234.5), "nsdate": NSDate(timeIntervalSinceReferenceDate: 99),
            "optional": Optional("wrapped") as Any, "nested": Optional(Optional(7)) as Any,
            "array": ["a", "b"], "dictionary": ["k": "v"],
            "control": SecAccessControl(protection: .whenUnlocked, flags: .userPresence),
        ]
        for index in 0..<15 { values["k\(index)"] = "v\(index)" }
        return values
    }

    @Test("A dictionary reads as Foundation's iteration reads it, value for value")
    func sameEntriesAsFoundation() throws {
        let concrete = Self.mixed as NSDictionary
        // Both fast paths: CoreFoundation's listing of an immutable dictionary, `allKeys` and
        // `allValues` of a mutable one.
        for dictionary in [concrete, NSMutableDictionary(dictionary: Self.mixed)] {
            try Self.expectReadAsFoundationReads(dictionary)
        }
        let entries = try DictionaryEntries(concrete)
        func lookUp(_ key: String) -> DictionaryValue? { entries.value(of: key, kind: DictionaryKey(key)) }
        #expect(lookUp("k7")?.string == "v7")
        #expect(lookUp("true")?.boolean == true)
        #expect(lookUp("int")?.integer == 443)
        #expect(lookUp("nsdata")?.data == Data([9]))
        #expect(lookUp("nsstring")?.string == "ns")
        #expect(lookUp("double").map { "\($0)" } == "number(2.5)")
        #expect(lookUp("double")?.integer == nil, "a fraction is no whole number")
        #expect(lookUp("date")?.attributeValue == .date(Date(timeIntervalSinceReferenceDate: 1234.5)))
        if case .other(let control) = lookUp("control") {
            #expect(control is SecAccessControl)
        } else {
            Issue.record("an access control is not read as an object")
        }
        #expect(lookUp("missing") == nil)
        #expect(entries.value(of: "k7", kind: .attribute) == nil, "a key is looked up among its kind only")
    }

    /// `dictionary`, read by its fast path, gives the entries Foundation's iteration gives.
    static func expectReadAsFoundationReads(_ dictionary: NSDictionary) throws {
        #if os(Linux)
        // The comparison means something only if the fast path ran (on Darwin, class
        // clusters keep every dictionary on Foundation's iteration).
        var listed = 0
        let fastPath = DictionaryEntries.forEachStoredPair(of: dictionary) { _, _ in listed += 1 }
        #expect(fastPath && listed == dictionary.count, "the fast path did not take Foundation's own \(type(of: dictionary))")
        #endif
        let fast = Array(try DictionaryEntries(dictionary))
        let reference = Array(try DictionaryEntries(ForwardingDictionary(dictionary)))
        #expect(fast.map(\.key) == reference.map(\.key))
        #expect(fast.count == Self.mixed.count)
        for (entry, expected) in zip(fast, reference) {
            #expect(entry.kind == expected.kind, "\(entry.key)")
            // The case and its payload: `string("text")`, `number(443)`, `other(Array<String>)`;
            // data by its bytes, which the description leaves out.
            #expect(String(describing: entry.value) == String(describing: expected.value), "\(entry.key)")
            #expect(entry.value.data == expected.value.data, "\(entry.key)")
        }
    }

    @Test("A mutable dictionary and nil values read as before")
    func mutableAndMissing() throws {
        let mutable = NSMutableDictionary(dictionary: Self.mixed)
        #expect(Array(try DictionaryEntries(mutable)).count == Self.mixed.count)
        let none: String? = nil
        for value: Any in [NSNull(), none as Any] {
            #expect(throws: SecStoreError.self) { try DictionaryEntries(["acct": value] as NSDictionary) }
        }
    }

    @Test("Returned data is NSData that casts to the same Data in one copy, equal to a plain NSData")
    func resultData() throws {
        let secret = Data((0..<40).map { UInt8($0) })
        let object: CFTypeRef = ResultData(secret)
        #expect(object as? Data == secret)
        #expect(object is ContiguousBytes, "what lets `as? Data` copy at once")
        let data = try #require(object as? NSData)
        #expect(data.length == 40)
        #expect(data.isEqual(NSData(data: secret)) && NSData(data: secret).isEqual(data))
        #expect(data.hash == NSData(data: secret).hash)
        #expect(Data(referencing: data) == secret)
        #expect((ResultData(Data()) as CFTypeRef) as? Data == Data())
        let archived = try NSKeyedArchiver.archivedData(withRootObject: data, requiringSecureCoding: false)
        #expect(try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(archived) as? Data == secret)
        let dictionary = NSMutableDictionary()
        dictionary["v_Data"] = data
        #expect(dictionary["v_Data"] as? Data == secret)
        #expect((dictionary as? [String: Any])?["v_Data"] as? Data == secret)
    }
}
