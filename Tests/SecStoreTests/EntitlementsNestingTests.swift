import Foundation
import Testing
@testable import SecStore

/// Entitlements files too deep or too large to read. Foundation's XML property-list reader
/// recurses once per nesting level: a list 40,000 arrays deep (a 640 KB file) overflowed the
/// stack (SIGSEGV) in the library, in the SecItem functions (`SECSTORE_ENTITLEMENTS`) and in
/// the `secstore` tool, before ``PropertyListLimits`` measured it first. The OpenStep and
/// binary readers stopped such files by themselves; the tests pin that too.
@Suite struct EntitlementsNestingTests {
    /// A valid entitlements dictionary whose key "x" holds `depth` nested arrays.
    static func deepXML(_ depth: Int) -> Data {
        Data((#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>application-identifier</key><string>A.b</string><key>x</key>"#
            + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</dict></plist>").utf8)
    }

    /// The same in the OpenStep text format.
    static func deepOpenStep(_ depth: Int) -> Data {
        Data(("{ \"application-identifier\" = \"A.b\"; x = " + String(repeating: "(", count: depth)
            + String(repeating: ")", count: depth) + "; }").utf8)
    }

    /// The same as a binary property list (`bplist00`): object 0 the dictionary, 1 and 2 its
    /// keys, 3 the identifier, then `depth` arrays each holding the next (the last empty).
    static func deepBinary(_ depth: Int) -> Data {
        let count = 4 + depth
        let referenceSize = 3
        func reference(_ index: Int) -> [UInt8] { [UInt8(index >> 16 & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF)] }
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.append(bytes.count); bytes += [0xD2] + reference(1) + reference(2) + reference(3) + reference(4)
        offsets.append(bytes.count); bytes += [0x5F, 0x10, 22] + Array("application-identifier".utf8)
        offsets.append(bytes.count); bytes += [0x51] + Array("x".utf8)
        offsets.append(bytes.count); bytes += [0x53] + Array("A.b".utf8)
        for level in 0..<depth {
            offsets.append(bytes.count)
            bytes += level == depth - 1 ? [0xA0] : [0xA1] + reference(4 + level + 1)
        }
        let tableOffset = bytes.count
        for offset in offsets { bytes += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        bytes += [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)]
        bytes += withUnsafeBytes(of: UInt64(count).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
        bytes += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        return Data(bytes)
    }

    /// The error reading `data` gives, which must be `invalidEntitlements`.
    static func refusal(_ data: Data) -> SecStoreError? {
        do {
            _ = try Entitlements(propertyList: data, source: "deep.entitlements")
            Issue.record("a list nested far beyond any entitlements file was accepted")
            return nil
        } catch let error as SecStoreError {
            #expect(error.code == .invalidEntitlements)
            return error
        } catch {
            Issue.record("\(error)")
            return nil
        }
    }

    @Test func deepXMLIsRefused() {
        // 40,000 levels: 640 KB, under the size limit, and deep enough to overflow the stack before.
        #expect(Self.refusal(Self.deepXML(40_000))?.message.contains("nested more than 64 levels") == true)
    }

    /// The limit counts the top dictionary: 63 arrays inside it read, 64 do not.
    @Test func xmlDepthLimitIsSixtyFourLevels() throws {
        #expect(try Entitlements(propertyList: Self.deepXML(63)).applicationIdentifier == "A.b")
        #expect(Self.refusal(Self.deepXML(64))?.message.contains("nested") == true)
        // Self-closing containers open nothing.
        let flat = Data((#"<plist><dict><key>application-identifier</key><string>A.b</string><key>x</key><array>"#
            + String(repeating: "<array/><dict />", count: 1000) + "</array></dict></plist>").utf8)
        #expect(try Entitlements(propertyList: flat).applicationIdentifier == "A.b")
    }

    @Test func deepOpenStepIsRefused() {
        #expect(Self.refusal(Self.deepOpenStep(100_000)) != nil)
    }

    /// The binary reader reads only the keys asked for: the deep array under "x" is never walked.
    @Test func deepBinaryUnderAnotherKeyIsNeverWalked() throws {
        #expect(try Entitlements(propertyList: Self.deepBinary(100_000)).applicationIdentifier == "A.b")
    }

    /// A file over 1 MiB is refused before it is read.
    @Test func oversizedFileIsRefused() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appending(path: "large.entitlements")
        let padding = String(repeating: " ", count: PropertyListLimits.maximumByteCount)
        try Data((#"<plist><dict><key>application-identifier</key><string>A.b</string></dict></plist>"# + padding).utf8).write(to: url)
        let error = expectError(.invalidEntitlements) { try Entitlements(contentsOf: url) }
        #expect(error?.message.contains("larger than 1024 KiB") == true)
    }

    /// Real entitlements nest three levels (a dictionary of arrays of strings); a few more
    /// levels of someone else's keys still read.
    @Test(arguments: [deepXML(20), deepOpenStep(20), deepBinary(20)])
    func modestNestingStillReads(_ data: Data) throws {
        #expect(try Entitlements(propertyList: data).applicationIdentifier == "A.b")
    }
}
