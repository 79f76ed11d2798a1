import Foundation
import Glibc
import SecStore
import SecStoreTestSupport
@testable import SecretService
import Testing

/// `org.freedesktop.DBus.Peer.GetMachineId`. Before: sd-bus answered every `Peer` call itself
/// (its built-in handler runs before any object's), and with `/etc/machine-id` missing or empty
/// — as in many container images — its `GetMachineId` failed the connection instead of
/// replying: one client's call stopped the provider for every client ("The bus connection
/// failed: No medium found."). The provider's own answer, never reached, read the file whole
/// with no bound, waited forever on a FIFO there, and answered an empty string when there was
/// no file. Now the provider answers `Peer` at every path, from a bounded read of a regular
/// file, and a missing or malformed machine id is a D-Bus error, as `dbus-daemon` answers then.
@Suite struct MachineIdTests {
    /// The provider's answer to `method` of `org.freedesktop.DBus.Peer` at `path`, or its error.
    static func peer(_ provider: SecretServiceProvider, _ member: String, path: String = ObjectPaths.service)
        -> Result<[BusValue], BusError> {
        let call = BusCall(path: path, interface: "org.freedesktop.DBus.Peer", member: member, sender: ":1.7",
                           signature: "", readArguments: { () throws(BusError) in [] })
        do throws(BusError) {
            return .success(try provider.handle(call))
        } catch {
            return .failure(error)
        }
    }

    static func provider(in directory: TemporaryDirectory) throws -> SecretServiceProvider {
        let store = try SecretStore(at: directory.url.appending(path: "s.secstore"),
                                    options: .init(access: .owner, deviceKeyURL: directory.url.appending(path: "device.key")))
        return SecretServiceProvider(store: store, access: CollectionAccess())
    }

    @Test("a machine id is answered as 32 lowercase hex digits, at any path")
    func wellFormed() throws {
        let directory = TemporaryDirectory()
        let provider = try Self.provider(in: directory)
        let file = directory.url.appending(path: "machine-id")
        try "0123456789ABCDEF0123456789abcdef\n".write(to: file, atomically: true, encoding: .ascii)
        provider.machineIDFile = file.path
        for path in [ObjectPaths.service, "/", "/org/freedesktop/secrets/collection"] {
            #expect(try Self.peer(provider, "GetMachineId", path: path).get() == [.string("0123456789abcdef0123456789abcdef")], "\(path)")
            #expect(try Self.peer(provider, "Ping", path: path).get().isEmpty, "\(path)")
        }
        #expect(throws: BusError.self) { try Self.peer(provider, "NoSuchMethod").get() }
    }

    @Test("no file is FileNotFound; one that holds no machine id is InvalidFileContent")
    func missingOrMalformed() throws {
        let directory = TemporaryDirectory()
        let provider = try Self.provider(in: directory)
        let file = directory.url.appending(path: "machine-id")
        provider.machineIDFile = file.path
        let missing = try #require(throws: BusError.self) { try Self.peer(provider, "GetMachineId").get() }
        #expect(missing.name == "org.freedesktop.DBus.Error.FileNotFound", "\(missing)")
        #expect(missing.message.contains(file.path) && missing.message.contains("systemd-machine-id-setup"), "\(missing)")
        for contents in ["", "\n", "uninitialized\n", "not hex", "00000000000000000000000000000000\n", "0123456789abcdef\n"] {
            try contents.write(to: file, atomically: true, encoding: .ascii)
            let error = try #require(throws: BusError.self, "\(contents.debugDescription)") { try Self.peer(provider, "GetMachineId").get() }
            #expect(error.name == "org.freedesktop.DBus.Error.InvalidFileContent", "\(contents.debugDescription): \(error)")
        }
    }

    /// Before: `String(contentsOfFile:)` read a 64 MiB file whole and answered it (a reply the
    /// bus daemon refuses); a FIFO with no writer blocked the provider's only thread for good.
    @Test("a FIFO or a huge file at the path is refused at once, never waited on or read whole")
    func fifoAndHugeFile() throws {
        let directory = TemporaryDirectory()
        let provider = try Self.provider(in: directory)
        let huge = directory.url.appending(path: "huge")
        let descriptor = open(huge.path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        #expect(descriptor >= 0 && ftruncate(descriptor, 64 << 20) == 0)
        close(descriptor)
        provider.machineIDFile = huge.path
        // The answer dropped: a failure must not print 64 MiB.
        let error = try #require(throws: BusError.self) { _ = try Self.peer(provider, "GetMachineId").get() }
        #expect(error.name == "org.freedesktop.DBus.Error.InvalidFileContent", "\(error)")

        let fifo = directory.url.appending(path: "fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        provider.machineIDFile = fifo.path
        let answered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: Result<[BusValue], BusError>?
        nonisolated(unsafe) let calledProvider = provider   // used by that thread alone until it signals
        Thread.detachNewThread {
            answer = Self.peer(calledProvider, "GetMachineId")
            answered.signal()
        }
        let inTime = answered.wait(timeout: .now() + 10) == .success
        if !inTime {
            // A writer that comes and goes ends the blocked open and read, so the thread ends.
            let writer = open(fifo.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if writer >= 0 { close(writer) }
            answered.wait()
        }
        #expect(inTime, "GetMachineId waited on a FIFO")
        guard case .failure(let fifoError) = answer else {
            Issue.record("a FIFO was answered: \(String(describing: answer))")
            return
        }
        #expect(fifoError.name == "org.freedesktop.DBus.Error.InvalidFileContent", "\(fifoError)")
    }

    @Test("over the bus: the provider answers with /etc/machine-id, at any path")
    func overTheBus() throws {
        let bus = try PrivateBus()
        let provider = try Provider(bus: bus)
        let connection = try BusConnection(address: bus.address)
        let answer = try connection.call(destination: "org.freedesktop.secrets", path: "/", interface: "org.freedesktop.DBus.Peer",
                                         member: "GetMachineId", [])
        if case .success(let id) = MachineIDFile.read(MachineIDFile.systemPath) {
            #expect(answer == [.string(Hex.string(id))])
        }
        _ = try connection.call(destination: "org.freedesktop.secrets", path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping", [])
        #expect(provider.isRunning)
    }

    @Test("over the bus, with an empty /etc/machine-id: GetMachineId is an error and the provider goes on",
          .enabled(if: Provider.machineIDNamespaceUnavailableBecause == nil))
    func emptyMachineIDOverTheBus() throws {
        let files = TemporaryDirectory()
        let empty = files.url.appending(path: "machine-id")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        let bus = try PrivateBus()
        let provider = try Provider(bus: bus, machineID: empty)
        let connection = try BusConnection(address: bus.address)
        for path in ["/org/freedesktop/secrets", "/"] {
            let error = try #require(throws: BusError.self, "\(path)") {
                try connection.call(destination: "org.freedesktop.secrets", path: path, interface: "org.freedesktop.DBus.Peer",
                                    member: "GetMachineId", [])
            }
            #expect(error.name == "org.freedesktop.DBus.Error.InvalidFileContent", "\(path): \(error) \(provider.log)")
        }
        _ = try connection.call(destination: "org.freedesktop.secrets", path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping", [])
        _ = try connection.call(destination: "org.freedesktop.secrets", path: ObjectPaths.service,
                                interface: "org.freedesktop.Secret.Service", member: "SearchItems", [.stringDictionary([:])])
        #expect(provider.isRunning, "\(provider.log)")
    }
}
