import Foundation
import Testing
@testable import SecStore

/// The metadata codec's own shortcuts agree with the slow, obvious code they replace.
@Suite struct MetadataCodecTests {
    /// `MetadataCodec.text` replaces `String(validating:as:)` on the read path: every input
    /// must get the same answer, invalid UTF-8 included (a repaired string would otherwise
    /// be returned as an item's attribute).
    @Test("text(_:) answers exactly what String(validating:as:) answers")
    func textAgreesWithValidatingInitializer() {
        var inputs: [[UInt8]] = [
            [], Array("svc-1".utf8), Array("a much longer account name, past the small-string size".utf8),
            Array("ünïcödé ✓ 🔑".utf8), [0x00], [0x61, 0x00, 0x62],
            [0xFF], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],   // invalid byte, overlong, surrogate
            [0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98, 0x41],                       // truncated four-byte sequences
            [0xE2, 0x82], [0xE2, 0x82, 0x41], [0x80], [0xF4, 0x90, 0x80, 0x80], // past U+10FFFF
        ]
        // Every one- and two-byte input, and seeded random three- to six-byte ones.
        inputs += (0...255).map { [UInt8($0)] }
        inputs += (0..<65_536).map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        var generator = SystemRandomNumberGenerator()
        inputs += (0..<20_000).map { _ in (0..<Int.random(in: 3...6, using: &generator)).map { _ in UInt8.random(in: 0x7E...0xFF, using: &generator) } }
        var invalid = 0
        for bytes in inputs {
            let expected = String(validating: bytes, as: UTF8.self)
            let actual = bytes.withUnsafeBytes(MetadataCodec.text)
            // Bytes, not String equality (which merges canonically equivalent spellings).
            #expect(actual.map { Array($0.utf8) } == expected.map { Array($0.utf8) }, "\(bytes)")
            if expected == nil { invalid += 1 }
        }
        #expect(invalid > 10_000, "the inputs include plenty of invalid UTF-8")
    }

    /// Decoding from a buffer (the read path) and from `Data` give the same attributes.
    @Test func decodeFromBufferEqualsDecodeFromData() throws {
        var attributes: Attributes = [.service: "api", .account: "alice", .label: "Ünïcödé label", .port: .number(443)]
        attributes.custom = ["xdg:schema": "org.example", "user": "alice"]
        let encoded = MetadataCodec.encode(attributes)
        let fromData = try MetadataCodec.decode(Data(encoded))
        let fromBuffer = try encoded.withUnsafeBytes { try MetadataCodec.decode($0) }
        // Compared as encodings: byte for byte, which String equality is not.
        #expect(MetadataCodec.encode(fromData) == encoded && MetadataCodec.encode(fromBuffer) == encoded)
        #expect(fromBuffer.custom == attributes.custom)
    }
}
