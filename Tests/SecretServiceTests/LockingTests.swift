import Foundation
import Glibc
import SecStore
import SecStoreTestSupport
@testable import SecretService
import Testing

/// A store with a passphrase: locked until the passphrase file unlocks it, and never a prompt —
/// clients fail at once instead of waiting.
@Suite("Locking without prompts")
struct LockingTests {
    static let passphrase = "correct horse battery staple"

    /// Creates the store with a passphrase, with one item stored while it was unlocked.
    static func makeLockedStore(_ directory: TemporaryDirectory) throws {
        try makeLockedStore(directory, id: ItemMapping.newID())
    }

    /// The same, with the item's id (the last element of its object path) chosen by the caller.
    static func makeLockedStore(_ directory: TemporaryDirectory, id: String) throws {
        try FileManager.default.createDirectory(at: directory.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let options = SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL, firstUnlockCache: .processMemory)
        let store = try SecretStore.create(at: directory.storeURL, options: options)
        var item = Item.genericPassword(service: ItemMapping.service, account: id, data: Data("secret".utf8),
                                        accessGroup: "default", label: "x")
        item.attributes.custom = ["service": "s"]
        try store.add(item)
        try store.setPassphrase(passphrase, limits: .minimumForTesting)
    }

    @Test("a locked store: store and lookup fail at once, Unlock unlocks nothing and returns no prompt")
    func lockedStore() throws {
        let provider = try Provider(bus: try PrivateBus(), prepare: Self.makeLockedStore)
        let stored = try provider.secretTool(["store", "--label=x", "service", "s"], stdin: "secret")
        #expect(stored.status != 0, "\(stored)")
        let lookup = try provider.secretTool(["lookup", "service", "s"])
        #expect(lookup.status != 0, "\(lookup)")
        #expect(!lookup.stdout.contains("secret"), "\(lookup)")
        // Straight over the bus: the collection says it is locked, and Unlock returns nothing
        // unlocked and the prompt "/" (no prompt) rather than a prompt that would never complete.
        let connection = try BusConnection(address: provider.bus.address)
        let collection = "/org/freedesktop/secrets/collection/default"
        let locked = try connection.call(destination: "org.freedesktop.secrets", path: collection, interface: "org.freedesktop.DBus.Properties",
                                         member: "Get", [.string("org.freedesktop.Secret.Collection"), .string("Locked")])
        #expect(locked.first?.unwrapped == .boolean(true))
        let unlock = try connection.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
                                         interface: "org.freedesktop.Secret.Service", member: "Unlock", [.objectPaths([collection])])
        #expect(unlock == [.objectPaths([]), .objectPath("/")])
        // The item is there, and locked: its attributes are sealed with its class key, so a
        // search of a locked store finds nothing to report (docs/secret-service.md), while the
        // store itself refuses to read it rather than saying it is missing.
        let found = try connection.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
                                        interface: "org.freedesktop.Secret.Service", member: "SearchItems",
                                        [.stringDictionary(["service": "s"])])
        #expect(found == [.objectPaths([]), .objectPaths([])], "\(found)")
        let direct = try SecretStore(at: provider.directory.storeURL, options: .init(access: .owner, deviceKeyURL: provider.directory.deviceKeyURL,
                                                                                     createIfMissing: false, firstUnlockCache: .processMemory))
        #expect(throws: SecStoreError.self) { try direct.items(matching: Query(service: ItemMapping.service, limit: .all)) }
        do {
            _ = try direct.items(matching: Query(service: ItemMapping.service, limit: .all))
        } catch let error as SecStoreError {
            #expect(error.code == .interactionNotAllowed, "\(error)")
        }
        #expect(provider.isRunning)
    }

    /// Before: GetSecrets read each item with `try?`, so a locked store answered an empty
    /// dict as if the items did not exist, while GetSecret on the same item failed IsLocked.
    @Test("GetSecrets on a locked item fails IsLocked, as GetSecret does")
    func getSecretsLocked() throws {
        let id = ItemMapping.newID()
        let provider = try Provider(bus: try PrivateBus()) { try Self.makeLockedStore($0, id: id) }
        let connection = try BusConnection(address: provider.bus.address)
        let root = "/org/freedesktop/secrets", item = "/org/freedesktop/secrets/collection/default/\(id)"
        let session = try connection.call(destination: "org.freedesktop.secrets", path: root, interface: "org.freedesktop.Secret.Service",
                                          member: "OpenSession", [.string("plain"), .variant(.string(""))])[1]
        func errorName(_ path: String, _ interface: String, _ member: String, _ values: [BusValue]) -> String? {
            do throws(BusError) {
                _ = try connection.call(destination: "org.freedesktop.secrets", path: path, interface: interface, member: member, values)
                return nil
            } catch { return error.name }
        }
        #expect(errorName(item, "org.freedesktop.Secret.Item", "GetSecret", [session]) == "org.freedesktop.Secret.Error.IsLocked")
        #expect(errorName(root, "org.freedesktop.Secret.Service", "GetSecrets", [.objectPaths([item]), session])
                == "org.freedesktop.Secret.Error.IsLocked")
        // Writes find the item themselves (no read before them): a locked store still refuses
        // them with IsLocked, and leaves the item as it was.
        let secret = BusValue.structure([session, .bytes([]), .bytes(Array("changed".utf8)), .string("text/plain")])
        #expect(errorName(item, "org.freedesktop.Secret.Item", "SetSecret", [secret]) == "org.freedesktop.Secret.Error.IsLocked")
        #expect(errorName(item, "org.freedesktop.DBus.Properties", "Set", [.string("org.freedesktop.Secret.Item"), .string("Label"),
                                                                           .variant(.string("y"))]) == "org.freedesktop.Secret.Error.IsLocked")
        #expect(errorName(item, "org.freedesktop.Secret.Item", "Delete", []) == "org.freedesktop.Secret.Error.IsLocked")
        let store = try provider.openStore()
        try store.unlock(passphrase: Self.passphrase)
        let items = try store.items(matching: Query(service: ItemMapping.service, limit: .all, returning: [.attributes, .data]))
        #expect(items.map(\.attributes.label) == ["x"])
        #expect(items.map(\.data) == [Data("secret".utf8)])
        #expect(provider.isRunning)
    }

    /// Writes to an item that is not there answer UnknownObject, as reads do, whatever their
    /// arguments or session: the object comes before them, as in a D-Bus object table. Before:
    /// a wrongly typed `Set`, a `SetSecret` of another signature and a `GetSecret` with a
    /// session that is not one answered InvalidArgs or NoSession.
    @Test("SetSecret, Set and Delete on a missing item are UnknownObject")
    func writesToMissingItem() throws {
        let provider = try Provider(bus: try PrivateBus())
        let connection = try BusConnection(address: provider.bus.address)
        let root = "/org/freedesktop/secrets", item = "/org/freedesktop/secrets/collection/default/\(ItemMapping.newID())"
        let session = try connection.call(destination: "org.freedesktop.secrets", path: root, interface: "org.freedesktop.Secret.Service",
                                          member: "OpenSession", [.string("plain"), .variant(.string(""))])[1]
        func errorName(_ interface: String, _ member: String, _ values: [BusValue]) -> String? {
            do throws(BusError) {
                _ = try connection.call(destination: "org.freedesktop.secrets", path: item, interface: interface, member: member, values)
                return nil
            } catch { return error.name }
        }
        let secret = BusValue.structure([session, .bytes([]), .bytes(Array("v".utf8)), .string("text/plain")])
        let unknown = "org.freedesktop.DBus.Error.UnknownObject"
        #expect(errorName("org.freedesktop.Secret.Item", "SetSecret", [secret]) == unknown)
        #expect(errorName("org.freedesktop.DBus.Properties", "Set", [.string("org.freedesktop.Secret.Item"), .string("Label"),
                                                                     .variant(.string("y"))]) == unknown)
        #expect(errorName("org.freedesktop.DBus.Properties", "Set", [.string("org.freedesktop.Secret.Item"), .string("Label"),
                                                                     .variant(.uint64(1))]) == unknown)
        #expect(errorName("org.freedesktop.DBus.Properties", "Set", [.string("org.freedesktop.Secret.Item"), .string("Attributes"),
                                                                     .variant(.string("y"))]) == unknown)
        #expect(errorName("org.freedesktop.Secret.Item", "SetSecret", [.string("not a secret")]) == unknown)
        #expect(errorName("org.freedesktop.Secret.Item", "GetSecret", [.objectPath("/org/freedesktop/secrets/session/none")]) == unknown)
        #expect(errorName("org.freedesktop.Secret.Item", "Delete", []) == unknown)
    }

    @Test("--passphrase-file unlocks the store at start")
    func passphraseFile() throws {
        let (directory, file) = try Self.passphraseFile(mode: 0o600)
        defer { _ = directory }
        let provider = try Provider(bus: try PrivateBus(), arguments: ["--passphrase-file", file.path], prepare: Self.makeLockedStore)
        let stored = try provider.secretTool(["store", "--label=x", "service", "s"], stdin: "unlocked secret")
        #expect(stored.status == 0, "\(stored)")
        #expect(try provider.secretTool(["lookup", "service", "s"]).stdout == "unlocked secret")
        #expect(!provider.log.contains(Self.passphrase))
    }

    /// The provider reads its passphrase file by the library's rule (`PassphraseFile`), as
    /// `SECSTORE_PASSPHRASE_FILE` does (a daemon's file, never a stream): a file others can read
    /// is refused and the provider does not start; it read any file before.
    @Test("--passphrase-file refuses a file others can read, and the provider does not start")
    func exposedPassphraseFileIsRefused() throws {
        let (directory, file) = try Self.passphraseFile(mode: 0o644)
        defer { _ = directory }
        do {
            let provider = try Provider(bus: try PrivateBus(), arguments: ["--passphrase-file", file.path], prepare: Self.makeLockedStore)
            Issue.record("the provider started with a passphrase file of mode 0644: \(provider.log)")
        } catch let error as ProgramError {
            #expect(error.description.contains("chmod 600 \(file.path)"), "\(error)")
            #expect(!error.description.contains(Self.passphrase), "\(error)")
        }
    }

    /// A file holding the store's passphrase on its first line, with `mode`, in a directory
    /// removed when the returned value goes.
    static func passphraseFile(mode: mode_t) throws -> (TemporaryDirectory, URL) {
        let directory = TemporaryDirectory("secret-service-passphrase")
        let file = directory.url.appending(path: "passphrase")
        try (passphrase + "\n").write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, mode)
        return (directory, file)
    }

    /// The provider holds unwrapped keys and, while it answers, secrets: like the `secstore`
    /// tool it writes no core file and takes back the runtime backtracer's crash handlers. It
    /// kept the core limit it was started with before.
    @Test("the running provider has core files disabled and no crash handler of the runtime's backtracer",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/limits")))
    func noCoreFileNoBacktracer() throws {
        let provider = try Provider(bus: try PrivateBus(), coreLimited: true)
        let state = try #require(CrashState(pid: provider.processIdentifier))
        #expect(state.leavesNothing, "\(state)")
    }

    @Test("`secstore unlock --for` unlocks the running provider's store, `secstore lock` locks it again")
    func sharedUnlock() throws {
        let provider = try Provider(bus: try PrivateBus(), kernelKeyring: true, prepare: Self.makeLockedStore)
        let passphraseFile = provider.directory.url.appending(path: "passphrase")
        try Self.passphrase.write(to: passphraseFile, atomically: true, encoding: .utf8)
        chmod(passphraseFile.path, 0o600)
        let secstore = Programs.productsDirectory.appending(path: "secstore")
        let common = ["--store", provider.directory.storeURL.path, "--device-key", provider.directory.deviceKeyURL.path]
        var environment = provider.bus.clientEnvironment
        environment["SECSTORE_KEYRING"] = nil
        // Whatever happens below, the shared unlock ends with the test.
        defer { _ = try? Programs.run(secstore, common + ["lock"], environment: environment) }

        #expect(try provider.secretTool(["store", "--label=x", "service", "s"], stdin: "v").status != 0)
        let unlocked = try Programs.run(secstore, common + ["unlock", "--for", "5m", "--passphrase-file", passphraseFile.path],
                                        environment: environment)
        try #require(unlocked.status == 0, "\(unlocked)")
        #expect(try provider.secretTool(["store", "--label=x", "service", "s"], stdin: "shared").status == 0)
        #expect(try provider.secretTool(["lookup", "service", "s"]).stdout == "shared")
        // Lock over the bus cannot end the shared unlock: nothing is reported locked.
        let connection = try BusConnection(address: provider.bus.address)
        let collection = "/org/freedesktop/secrets/collection/default"
        let lockReply = try connection.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
                                            interface: "org.freedesktop.Secret.Service", member: "Lock", [.objectPaths([collection])])
        #expect(lockReply == [.objectPaths([]), .objectPath("/")])
        #expect(try provider.secretTool(["lookup", "service", "s"]).stdout == "shared")
        let locked = try Programs.run(secstore, common + ["lock"], environment: environment)
        #expect(locked.status == 0, "\(locked)")
        let after = try provider.secretTool(["lookup", "service", "s"])
        #expect(after.status != 0)
        #expect(after.stdout.isEmpty)
    }
}
