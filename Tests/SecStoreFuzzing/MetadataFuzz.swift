import Foundation
import SecStore

/// The metadata codec (the plaintext inside every item's sealed metadata, and inside every
/// backup record): `MetadataCodec.decode` of any bytes.
///
/// Checked: a refusal is `corruptData`; what decodes encodes to bytes that decode to the same
/// attributes and encode to the same bytes again (one canonical encoding); when the input is
/// itself canonical, the read path's shortcut `accessControlFlags(in:)` agrees with the full
/// decode.
enum MetadataFuzz {
    static func run(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        let input = Data(bytes)
        // The shortcut must never crash either, whatever the full decode says.
        let shortcut = Result { try MetadataCodec.accessControlFlags(in: input) }
        let attributes: Attributes
        do {
            attributes = try MetadataCodec.decode(input)
        } catch let error as SecStoreError where error.code == .corruptData {
            return .refused(error.code.name)
        } catch {
            throw FuzzViolation(.metadata, "decode failed with an error that is not corruptData: \(error)")
        }
        let encoded = MetadataCodec.encode(attributes)
        let again: Attributes
        do {
            again = try MetadataCodec.decode(Data(encoded))
        } catch {
            throw FuzzViolation(.metadata, "the encoding of \(attributes) does not decode: \(error)")
        }
        let reencoded = MetadataCodec.encode(again)
        guard reencoded == encoded else {
            throw FuzzViolation(.metadata, "encode(decode(encode(a))) != encode(a) for \(attributes)")
        }
        // Equal as values, except that a date whose bit pattern is a NaN is never equal to itself.
        guard again == attributes || attributes.contains(where: { $0.value.dateValue?.timeIntervalSinceReferenceDate.isNaN == true }) else {
            throw FuzzViolation(.metadata, "\(attributes) decodes back as \(again)")
        }
        if encoded == bytes, case .success(let flags) = shortcut, flags != attributes.accessControlFlags {
            throw FuzzViolation(.metadata, "accessControlFlags(in:) read \(String(describing: flags)), decode \(String(describing: attributes.accessControlFlags))")
        }
        return .accepted("\(attributes.count) attributes")
    }
}
