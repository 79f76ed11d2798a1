import CSystemdBus
import SecStore

/// Reads a whole sd-bus message body into ``BusValue``s, whatever its signature: the handlers
/// then check the signature against the method's and take the values apart in Swift.
///
/// Each `ay` is copied out of the message into a `[UInt8]` of its own, which whoever is done
/// with the values zeroes (``BusValue/wipeBytes(of:)``); when a body cannot be read to its end,
/// the arrays read of it are zeroed here.
struct BusMessageReader {
    let message: OpaquePointer

    /// Every remaining top-level value.
    func readAll() throws(BusError) -> [BusValue] {
        // Every `ay` read, for a body that fails further on (a secret before a malformed string).
        var arrays: [[UInt8]] = []
        do throws(BusError) {
            var values: [BusValue] = []
            while try peek() != nil { values.append(try readValue(&arrays)) }
            return values
        } catch {
            // The values read so far went with the throw: `arrays` holds their bytes alone.
            for index in arrays.indices { Wipe.bytes(&arrays[index]) }
            throw error
        }
    }

    /// The type code and contents signature of the next value, `nil` at the end of the container.
    private func peek() throws(BusError) -> (type: UInt8, contents: String?)? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let result = sd_bus_message_peek_type(message, &type, &contents)
        guard result >= 0 else { throw .invalidArgs("The message body cannot be read.") }
        if result == 0 { return nil }
        return (UInt8(bitPattern: type), contents.map { String(cString: $0) })
    }

    private func readValue(_ arrays: inout [[UInt8]]) throws(BusError) -> BusValue {
        guard let (type, contents) = try peek() else { throw .invalidArgs("The message body ends too early.") }
        switch type {
        case UInt8(ascii: "a"):
            let element = contents ?? ""
            if element == "y" {
                let bytes = try readByteArray()
                arrays.append(bytes)
                return .bytes(bytes)
            }
            try enter(type, contents)
            var values: [BusValue] = []
            while try peek() != nil { values.append(try readValue(&arrays)) }
            try exit()
            return .array(element: element, values)
        case UInt8(ascii: "e"):
            try enter(type, contents)
            let key = try readValue(&arrays), value = try readValue(&arrays)
            try exit()
            return .dictEntry(key, value)
        case UInt8(ascii: "r"):
            try enter(type, contents)
            var fields: [BusValue] = []
            while try peek() != nil { fields.append(try readValue(&arrays)) }
            try exit()
            return .structure(fields)
        case UInt8(ascii: "v"):
            try enter(type, contents)
            let inner = try readValue(&arrays)
            try exit()
            return .variant(inner)
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>?
            try check(sd_bus_message_read_basic(message, CChar(bitPattern: type), &pointer))
            let text = pointer.map { String(cString: $0) } ?? ""
            return type == UInt8(ascii: "s") ? .string(text) : type == UInt8(ascii: "o") ? .objectPath(text) : .signature(text)
        case UInt8(ascii: "y"): return .byte(try readBasic(type, UInt8(0)))
        case UInt8(ascii: "b"): return .boolean(try readBasic(type, Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int32(Int32(try readBasic(type, Int16(0))))
        case UInt8(ascii: "q"): return .uint32(UInt32(try readBasic(type, UInt16(0))))
        case UInt8(ascii: "i"), UInt8(ascii: "h"): return .int32(try readBasic(type, Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try readBasic(type, UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try readBasic(type, Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try readBasic(type, UInt64(0)))
        case UInt8(ascii: "d"): return .double(try readBasic(type, Double(0)))
        default: throw .invalidArgs("The message carries a type this service does not read.")
        }
    }

    private func readBasic<T: BitwiseCopyable>(_ type: UInt8, _ initial: T) throws(BusError) -> T {
        var value = initial
        try check(sd_bus_message_read_basic(message, CChar(bitPattern: type), &value))
        return value
    }

    private func readByteArray() throws(BusError) -> [UInt8] {
        var pointer: UnsafeRawPointer?
        var size = 0
        try check(sd_bus_message_read_array(message, CChar(UInt8(ascii: "y")), &pointer, &size))
        guard let pointer, size > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: size))
    }

    private func enter(_ type: UInt8, _ contents: String?) throws(BusError) {
        try check(sd_bus_message_enter_container(message, CChar(bitPattern: type), contents))
    }

    private func exit() throws(BusError) {
        try check(sd_bus_message_exit_container(message))
    }

    private func check(_ result: Int32) throws(BusError) {
        if result < 0 { throw .invalidArgs("The message body cannot be read.") }
    }
}
