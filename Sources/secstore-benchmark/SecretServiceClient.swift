import CSystemdBus
import Foundation
import Glibc

/// A minimal Secret Service client over sd-bus, for timing lookups the way a library client
/// makes them: one connection, one `plain` session, then per lookup `SearchItems` on the
/// Service with attribute pairs and `GetSecrets` for what it found. Only the non-variadic
/// sd-bus calls import into Swift, so messages are built one value or container at a time.
///
/// ```swift
/// let client = try SecretServiceClient(address: "unix:path=/tmp/x/bus")
/// let secret = try client.lookup(["bench-id": "item-7"])   // the item's secret, or nil
/// ```
final class SecretServiceClient {
    static let destination = "org.freedesktop.secrets"
    static let servicePath = "/org/freedesktop/secrets"
    static let serviceInterface = "org.freedesktop.Secret.Service"

    private let bus: OpaquePointer
    private var session = ""

    /// Connects to the bus at `address` and opens a `plain` session.
    init(address: String) throws {
        var bus: OpaquePointer?
        guard sd_bus_new(&bus) >= 0, let bus else { throw BenchmarkError("sd-bus: cannot allocate a connection") }
        self.bus = bus
        sd_bus_set_address(bus, address)
        sd_bus_set_bus_client(bus, 1)
        let started = sd_bus_start(bus)
        guard started >= 0 else { throw BenchmarkError("sd-bus: cannot connect to the private bus (\(Self.describe(started)))") }
        session = try openSession()
    }

    deinit {
        sd_bus_flush_close_unref(bus)
    }

    /// `SearchItems(attributes)` on the Service, then `GetSecrets` of the first unlocked item
    /// found: that item's secret, or `nil` when nothing matched.
    func lookup(_ attributes: [String: String]) throws -> [UInt8]? {
        let found = try call("SearchItems") { message in
            try check(sd_bus_message_open_container(message, code("a"), "{ss}"))
            for (name, value) in attributes {
                try check(sd_bus_message_open_container(message, code("e"), "ss"))
                try appendString(message, "s", name)
                try appendString(message, "s", value)
                try check(sd_bus_message_close_container(message))
            }
            try check(sd_bus_message_close_container(message))
        } read: { reply in
            try readPaths(reply)   // unlocked; the locked ones (the second array) are not read
        }
        guard let item = found.first else { return nil }
        return try call("GetSecrets") { message in
            try check(sd_bus_message_open_container(message, code("a"), "o"))
            try appendString(message, "o", item)
            try check(sd_bus_message_close_container(message))
            try appendString(message, "o", session)
        } read: { reply in
            // a{o(oayays)}: the first entry's secret value.
            try check(sd_bus_message_enter_container(reply, code("a"), "{o(oayays)}"))
            guard try check(sd_bus_message_enter_container(reply, code("e"), "o(oayays)")) > 0 else { return nil }
            _ = try readString(reply, "o")
            try check(sd_bus_message_enter_container(reply, code("r"), "oayays"))
            _ = try readString(reply, "o")
            _ = try readBytes(reply)       // parameters: empty for plain
            return try readBytes(reply)
        }
    }

    private func openSession() throws -> String {
        try call("OpenSession") { message in
            try appendString(message, "s", "plain")
            try check(sd_bus_message_open_container(message, code("v"), "s"))
            try appendString(message, "s", "")
            try check(sd_bus_message_close_container(message))
        } read: { reply in
            try check(sd_bus_message_skip(reply, "v"))
            return try readString(reply, "o")
        }
    }

    /// One method call on the Service, waited for: `write` appends the arguments, `read` the
    /// reply's values.
    private func call<T>(_ member: String, write: (OpaquePointer) throws -> Void,
                         read: (OpaquePointer) throws -> T) throws -> T {
        var message: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &message, Self.destination, Self.servicePath,
                                                 Self.serviceInterface, member))
        defer { sd_bus_message_unref(message) }
        try write(message!)
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, message, 0, &error, &reply)
        guard result >= 0, let reply else {
            let name = error.name.map { String(cString: $0) } ?? Self.describe(result)
            throw BenchmarkError("Secret Service \(member) failed: \(name)")
        }
        defer { sd_bus_message_unref(reply) }
        return try read(reply)
    }

    private func readPaths(_ reply: OpaquePointer) throws -> [String] {
        var paths: [String] = []
        try check(sd_bus_message_enter_container(reply, code("a"), "o"))
        while sd_bus_message_at_end(reply, 0) == 0 { paths.append(try readString(reply, "o")) }
        try check(sd_bus_message_exit_container(reply))
        return paths
    }

    private func readString(_ reply: OpaquePointer, _ type: String) throws -> String {
        var pointer: UnsafePointer<CChar>?
        try check(sd_bus_message_read_basic(reply, code(type), &pointer))
        return pointer.map { String(cString: $0) } ?? ""
    }

    private func readBytes(_ reply: OpaquePointer) throws -> [UInt8] {
        var pointer: UnsafeRawPointer?
        var size = 0
        try check(sd_bus_message_read_array(reply, code("y"), &pointer, &size))
        guard let pointer, size > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: size))
    }

    private func appendString(_ message: OpaquePointer, _ type: String, _ text: String) throws {
        try check(text.withCString { sd_bus_message_append_basic(message, code(type), $0) })
    }

    private func code(_ type: String) -> CChar { CChar(bitPattern: type.utf8.first!) }

    /// Throws on a negative sd-bus result; returns it otherwise.
    @discardableResult
    private func check(_ result: Int32) throws -> Int32 {
        guard result >= 0 else { throw BenchmarkError("sd-bus: \(Self.describe(result))") }
        return result
    }

    private static func describe(_ result: Int32) -> String { String(cString: strerror(-result)) }
}
