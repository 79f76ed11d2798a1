/// Finds an object in a JSON document that names one key twice: `JSONSerialization` keeps
/// one of the values without a word, and so does Swift's bridging of its dictionaries when two
/// keys are different bytes of the same text (`"café"` precomposed and decomposed). A file
/// that reads one way to a person (the first `"accessGroup"`) and another way to the import
/// (the last) is refused instead, as is one whose two custom attributes would become one.
///
/// Runs over a document `JSONSerialization` has already read, so it only follows the
/// structure (strings, objects, arrays) and never judges the syntax.
///
/// ```swift
/// let json = Data(#"[{"service": "a", "service": "b"}]"#.utf8)
/// json.withUnsafeBytes { JSONDuplicateKeys.first(in: $0) }   // (item: 1, key: "service")
/// ```
enum JSONDuplicateKeys {
    /// The first key named twice in one object, and the element of the top-level array it is
    /// in (counted from 1; 0 when the document is not an array); `nil` when there is none.
    /// Keys are compared as Swift compares text, so two spellings of the same text count as
    /// one key. Reads the document where it is: values (secrets) are passed over, never copied.
    static func first(in json: UnsafeRawBufferPointer) -> (item: Int, key: String)? {
        var containers: [Container] = []
        var item = 0
        var index = 0
        while index < json.count {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = closingQuote(in: json, after: index)
                if containers.last?.expectsKey == true {
                    let key = decodedString(json[(index + 1)..<end])
                    guard containers[containers.count - 1].keys.insert(key).inserted else { return (item, key) }
                    containers[containers.count - 1].expectsKey = false
                }
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if containers.isEmpty && byte == UInt8(ascii: "[") { item = 1 }
                containers.append(Container(isObject: byte == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                // Never more closings than openings in a document JSONSerialization read.
                if !containers.isEmpty { containers.removeLast() }
            case UInt8(ascii: ","):
                if containers.last?.isObject == true {
                    containers[containers.count - 1].expectsKey = true
                } else if containers.count == 1 {
                    item += 1
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// An object (its keys so far, and whether a key comes next) or an array.
    private struct Container {
        let isObject: Bool
        var expectsKey: Bool
        var keys: Set<String> = []

        init(isObject: Bool) {
            self.isObject = isObject
            expectsKey = isObject
        }
    }

    /// The index of the quote that closes the string whose opening quote is at `start`.
    private static func closingQuote(in json: UnsafeRawBufferPointer, after start: Int) -> Int {
        var index = start + 1
        while index < json.count && json[index] != UInt8(ascii: "\"") {
            index += json[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return min(index, json.count)   // past the end only in a document JSONSerialization refused
    }

    /// A string's text between its quotes, its escapes decoded (`\u` escapes as UTF-16 code
    /// units, so a surrogate pair is one character and a lone surrogate U+FFFD).
    private static func decodedString(_ body: Slice<UnsafeRawBufferPointer>) -> String {
        guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
        var units: [UInt16] = []
        var index = body.startIndex
        while index < body.endIndex {
            var end = index
            while end < body.endIndex && body[end] != UInt8(ascii: "\\") { end += 1 }
            units.append(contentsOf: String(decoding: body[index..<end], as: UTF8.self).utf16)
            guard end + 1 < body.endIndex else { break }
            let escaped = body[end + 1]
            index = end + 2
            switch escaped {
            case UInt8(ascii: "u"):
                let hex = String(decoding: body[index..<min(index + 4, body.endIndex)], as: UTF8.self)
                units.append(UInt16(hex, radix: 16) ?? 0xFFFD)
                index += 4
            case UInt8(ascii: "b"): units.append(0x08)
            case UInt8(ascii: "f"): units.append(0x0C)
            case UInt8(ascii: "n"): units.append(0x0A)
            case UInt8(ascii: "r"): units.append(0x0D)
            case UInt8(ascii: "t"): units.append(0x09)
            default: units.append(UInt16(escaped))   // \" \\ \/
            }
        }
        return String(decoding: units, as: UTF16.self)
    }
}
