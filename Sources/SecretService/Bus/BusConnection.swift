import CSystemdBus
import Glibc

/// The provider's one connection to the session bus, through sd-bus: the only type that holds
/// the `sd_bus` handle. It owns a well-known name, routes every method call below one object
/// path prefix to a Swift handler, sends the handler's reply or D-Bus error, and emits signals.
///
/// Method calls are dispatched by hand (`sd_bus_add_fallback` and a switch on path, interface
/// and member) because sd-bus's vtable macros do not import into Swift.
package final class BusConnection {
    /// Whether this libsystemd can mark messages sensitive (`sd_bus_message_sensitive`,
    /// systemd 247 and later), so that it zeroes a message's memory when it frees it. Where it
    /// cannot (Ubuntu 20.04's 245), messages are sent and received the same, unzeroed.
    package static var marksMessagesSensitive: Bool { csystemdbus_can_mark_sensitive() != 0 }

    /// Handles one call: the reply's values, or a D-Bus error to send instead.
    typealias Handler = (BusCall) throws(BusError) -> [BusValue]

    private let bus: OpaquePointer
    private var handler: Handler?
    private var slot: OpaquePointer?
    private var peerSlot: OpaquePointer?
    private var departureHandler: ((String) -> Void)?
    private var departureSlot: OpaquePointer?
    private var signalHandler: ((BusSignal) -> Void)?
    private var signalSlot: OpaquePointer?

    /// Connects to the session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    init() throws(BusConnectionError) {
        var bus: OpaquePointer?
        let result = sd_bus_open_user(&bus)
        guard result >= 0, let bus else {
            throw BusConnectionError("Cannot connect to the session bus: \(Self.describe(result)). Set DBUS_SESSION_BUS_ADDRESS or start a session bus.")
        }
        self.bus = bus
        MemfdPart.raiseDescriptorLimit()
    }

    /// Connects to the bus at `address` (a D-Bus address such as `unix:path=/tmp/x/bus`), as
    /// a client: the tests use it to send what no ordinary client sends.
    package init(address: String) throws(BusConnectionError) {
        var bus: OpaquePointer?
        guard sd_bus_new(&bus) >= 0, let bus else { throw BusConnectionError("Cannot allocate a bus connection.") }
        self.bus = bus
        sd_bus_set_address(bus, address)
        sd_bus_set_bus_client(bus, 1)
        let result = sd_bus_start(bus)
        guard result >= 0 else { throw BusConnectionError("Cannot connect to \(address): \(Self.describe(result)).") }
    }

    deinit {
        if let slot { sd_bus_slot_unref(slot) }
        if let peerSlot { sd_bus_slot_unref(peerSlot) }
        if let departureSlot { sd_bus_slot_unref(departureSlot) }
        if let signalSlot { sd_bus_slot_unref(signalSlot) }
        sd_bus_flush_close_unref(bus)
    }

    /// Takes `name` on the bus. `replace` takes it from a provider that allows replacement
    /// (GNOME Keyring does not); without it, an owned name is an error naming the owner's kind.
    func requestName(_ name: String, replace: Bool) throws(BusConnectionError) {
        let flags: UInt64 = replace ? UInt64(SD_BUS_NAME_REPLACE_EXISTING) : 0
        let result = sd_bus_request_name(bus, name, flags)
        if result == -EEXIST {
            throw BusConnectionError("Another Secret Service provider already owns \(name) on this bus (GNOME Keyring, KWallet, KeePassXC or another secstore-secret-service). Stop it first\(replace ? "; it does not allow replacement" : ", or pass --replace if it allows replacement").")
        }
        guard result >= 0 else { throw BusConnectionError("Cannot own \(name) on the bus: \(Self.describe(result)).") }
    }

    /// Sends every method call addressed to `prefix` or below to `handler`, and every call of
    /// `org.freedesktop.DBus.Peer` (`Ping`, `GetMachineId`), at any path.
    ///
    /// sd-bus answers `Peer` calls itself unless a filter takes them first (its built-in
    /// handler runs before any object's), and its `GetMachineId` fails the whole connection
    /// when `/etc/machine-id` is missing or empty (as in many container images):
    /// `sd_bus_process` returns the error instead of replying, and the provider stopped for
    /// every client. A filter gives them to `handler`, which answers a D-Bus error then.
    func serve(below prefix: String, _ handler: @escaping Handler) throws(BusConnectionError) {
        self.handler = handler
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        var slot: OpaquePointer?
        let result = sd_bus_add_fallback(bus, &slot, prefix, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            return Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue().dispatch(message)
        }, userdata)
        guard result >= 0 else { throw BusConnectionError("Cannot serve \(prefix): \(Self.describe(result)).") }
        self.slot = slot
        var peerSlot: OpaquePointer?
        let filtered = sd_bus_add_filter(bus, &peerSlot, { message, userdata, _ in
            guard let message, let userdata, sd_bus_message_is_method_call(message, BusConnection.peerInterface, nil) > 0 else { return 0 }
            return Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue().dispatch(message)
        }, userdata)
        guard filtered >= 0 else { throw BusConnectionError("Cannot answer \(Self.peerInterface): \(Self.describe(filtered)).") }
        self.peerSlot = peerSlot
    }

    /// The interface every object of every connection answers (`Ping`, `GetMachineId`).
    static let peerInterface = "org.freedesktop.DBus.Peer"

    /// Calls `handler` with the unique name of every client that leaves the bus (the daemon's
    /// `NameOwnerChanged` with no new owner), so that its sessions and cached PID are dropped.
    func onClientDeparture(_ handler: @escaping (String) -> Void) throws(BusConnectionError) {
        departureHandler = handler
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        var slot: OpaquePointer?
        let result = sd_bus_match_signal(bus, &slot, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                         "NameOwnerChanged", { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue().nameOwnerChanged(message)
            return 0
        }, userdata)
        guard result >= 0 else { throw BusConnectionError("Cannot watch clients leaving the bus: \(Self.describe(result)).") }
        departureSlot = slot
    }

    private func nameOwnerChanged(_ message: OpaquePointer) {
        guard let values = try? BusMessageReader(message: message).readAll(), values.count == 3,
              let name = values[0].text, let newOwner = values[2].text,
              name.hasPrefix(":"), newOwner.isEmpty else { return }
        departureHandler?(name)
    }

    /// Processes messages until the connection is closed (the bus went away).
    func run() throws(BusConnectionError) {
        while true {
            let processed = sd_bus_process(bus, nil)
            if processed < 0 {
                if processed == -ECONNRESET || processed == -ENOTCONN { return }
                throw BusConnectionError("The bus connection failed: \(Self.describe(processed)).")
            }
            if processed > 0 { continue }
            let waited = sd_bus_wait(bus, UInt64.max)
            if waited < 0 && waited != -EINTR {
                if waited == -ECONNRESET || waited == -ENOTCONN { return }
                throw BusConnectionError("The bus connection failed: \(Self.describe(waited)).")
            }
        }
    }

    /// Emits a signal from `path`: broadcast to every connection whose match rules ask for it,
    /// or, with a `destination` (a unique name), unicast to that connection alone, which the
    /// bus daemon delivers to no other client (only to monitors). A signal that cannot be sent
    /// is dropped: clients re-read properties anyway, and a failed notification must not fail
    /// the change behind it.
    func emitSignal(path: String, interface: String, member: String, _ values: [BusValue], destination: String? = nil) {
        var message: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &message, path, interface, member) >= 0, let message else { return }
        defer { sd_bus_message_unref(message) }
        if let destination, sd_bus_message_set_destination(message, destination) < 0 { return }
        guard (try? BusMessageWriter(message: message).append(values)) != nil else { return }
        _ = sd_bus_send(bus, message, nil)
    }

    /// As a client: asks the daemon for the signals `rule` (a D-Bus match rule) selects and
    /// gives each one this connection receives, broadcast or unicast to it, to `handler` (from
    /// ``processIncoming()``). The rule is matched here too, so it should not name a well-known
    /// sender (the messages carry the unique one): a `path_namespace` does.
    func watchSignals(_ rule: String, _ handler: @escaping (BusSignal) -> Void) throws(BusConnectionError) {
        signalHandler = handler
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        var slot: OpaquePointer?
        let result = sd_bus_add_match(bus, &slot, rule, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue().received(message)
            return 0
        }, userdata)
        guard result >= 0 else { throw BusConnectionError("Cannot watch \(rule): \(Self.describe(result)).") }
        signalSlot = slot
    }

    private func received(_ message: OpaquePointer) {
        guard sd_bus_message_is_signal(message, nil, nil) > 0 else { return }
        signalHandler?(BusSignal(path: Self.string(sd_bus_message_get_path(message)),
                                 interface: Self.string(sd_bus_message_get_interface(message)),
                                 member: Self.string(sd_bus_message_get_member(message)),
                                 arguments: (try? BusMessageReader(message: message).readAll()) ?? []))
    }

    /// As a client: handles every message already received or readable now, without waiting.
    func processIncoming() {
        while sd_bus_process(bus, nil) > 0 {}
    }

    /// Calls a method and waits for its reply: the reply's values, or the D-Bus error it carries.
    /// Both messages are marked sensitive; the values returned are the caller's (not zeroed here).
    package func call(destination: String, path: String, interface: String, member: String,
              _ values: [BusValue]) throws(BusError) -> [BusValue] {
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, destination, path, interface, member) >= 0, let message else {
            throw .failed("Cannot build the call.")
        }
        defer { sd_bus_message_unref(message) }
        // A call may carry a secret (CreateItem), its reply too (GetSecret): both zeroed when freed.
        _ = csystemdbus_message_sensitive(message)
        try BusMessageWriter(message: message).append(values)
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        if sd_bus_call(bus, message, 0, &error, &reply) < 0 {
            throw BusError(error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                           error.message.map { String(cString: $0) } ?? "")
        }
        guard let reply else { return [] }
        defer { sd_bus_message_unref(reply) }
        _ = csystemdbus_message_sensitive(reply)
        return try BusMessageReader(message: reply).readAll()
    }

    /// The process ID of the peer that owns `sender` (a unique name), as the bus daemon
    /// vouches for it (`GetConnectionUnixProcessID` under the hood).
    func processID(of sender: String) -> pid_t? {
        var creds: OpaquePointer?
        guard sd_bus_get_name_creds(bus, sender, UInt64(SD_BUS_CREDS_PID), &creds) >= 0, let creds else { return nil }
        defer { sd_bus_creds_unref(creds) }
        var pid: pid_t = 0
        return sd_bus_creds_get_pid(creds, &pid) >= 0 ? pid : nil
    }

    // MARK: Dispatch

    /// Reads the call, runs the handler, and replies. Returns 1 (handled) for every method
    /// call, so sd-bus never answers on our behalf; 0 for anything else.
    ///
    /// Every call is marked sensitive before it is read (`sd_bus_message_sensitive`, systemd
    /// 247): any of them may carry a secret (`CreateItem`, `SetSecret`) or attribute values,
    /// and the provider cannot know which before reading it. libsystemd then zeroes the call's
    /// body when it frees the message. The reply is made before that, so that it does not
    /// inherit the mark (``reply(_:to:_:)`` says why). The Swift copies of the bytes are zeroed
    /// here once the handler is done with them: the arguments' `ay`s after it returns, the
    /// reply's after it is sent (``BusValue/wipeBytes(of:)``).
    private func dispatch(_ message: OpaquePointer) -> Int32 {
        guard sd_bus_message_is_method_call(message, nil, nil) > 0, let handler else { return 0 }
        // None where the caller expects no reply (sd-bus refuses to make one): nothing is sent.
        var reply: OpaquePointer?
        if sd_bus_message_new_method_return(message, &reply) < 0 { reply = nil }
        defer { if let reply { sd_bus_message_unref(reply) } }
        _ = csystemdbus_message_sensitive(message)
        // Read by the handler through the call; this function keeps the values, to zero them.
        var arguments: [BusValue] = []
        defer { BusValue.wipeBytes(of: &arguments) }
        let call = BusCall(path: Self.string(sd_bus_message_get_path(message)),
                           interface: Self.string(sd_bus_message_get_interface(message)),
                           member: Self.string(sd_bus_message_get_member(message)),
                           sender: Self.string(sd_bus_message_get_sender(message)),
                           signature: Self.string(sd_bus_message_get_signature(message, 1)),
                           readArguments: { () throws(BusError) in
                               arguments = try BusMessageReader(message: message).readAll()
                               return arguments
                           })
        var values: [BusValue]
        do throws(BusError) {
            values = try handler(call)
        } catch {
            replyError(to: message, error)
            return 1
        }
        self.reply(reply, to: message, values)
        BusValue.wipeBytes(of: &values)
        return 1
    }

    /// Sends the handler's values in `reply` (made from `call`, unmarked), or `LimitsExceeded`
    /// when they would make a message larger than a bus daemon accepts (``BusLimits``): the
    /// daemon would disconnect the provider for sending it, ending the service for every
    /// client. Every method's reply passes here.
    ///
    /// Every non-empty `ay` (a secret, from `GetSecret` and `GetSecrets`) is written in a memfd
    /// part of its own (``MemfdPart``), not in the body: sd-bus grows a body with `realloc` and
    /// frees the blocks it leaves unzeroed, with the bytes written so far. Such a reply is not
    /// marked sensitive: nothing secret is in its body, and libsystemd 252, freeing a marked
    /// message unsent (a reply given up half-built, a send that failed), zeroes its memfd parts
    /// through a null pointer and crashes (``MemfdPart``). A reply the writer put no memfd part
    /// in (``BusMessageWriter/memfdParts``) is marked, as every reply was before. A reply that
    /// cannot be built (no descriptor or memory left for a part) is dropped and answered with
    /// the writer's error instead.
    private func reply(_ reply: OpaquePointer?, to call: OpaquePointer, _ values: [BusValue]) {
        guard BusLimits.fits(values) else {
            replyError(to: call, BusLimits.exceeded("The reply"))
            return
        }
        guard let reply else { return }
        let writer = BusMessageWriter(message: reply, bytesInMemfds: true)
        do throws(BusError) {
            try writer.append(values)
        } catch {
            replyError(to: call, error)
            return
        }
        if writer.memfdParts == 0 { _ = csystemdbus_message_sensitive(reply) }
        _ = sd_bus_send(bus, reply, nil)
    }

    private func replyError(to call: OpaquePointer, _ error: BusError) {
        var busError = sd_bus_error()
        defer { sd_bus_error_free(&busError) }
        sd_bus_error_set(&busError, error.name, error.message)
        var reply: OpaquePointer?
        guard sd_bus_message_new_method_error(call, &reply, &busError) >= 0, let reply else { return }
        defer { sd_bus_message_unref(reply) }
        _ = sd_bus_send(bus, reply, nil)
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    static func describe(_ result: Int32) -> String {
        String(cString: strerror(-result))
    }
}

/// A failure of the connection itself (no bus, name taken), reported on the command line.
package struct BusConnectionError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
