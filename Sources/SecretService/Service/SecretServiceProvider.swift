import Foundation
import SecStore

/// The Secret Service (API 0.2) over one store: routes each call by object path, interface and
/// member, checks its signature against ``Interfaces`` and runs the method. Every object a
/// caller may not see (a collection outside its groups, an item in one) answers as if it did
/// not exist.
final class SecretServiceProvider {
    /// The well-known name the provider owns.
    static let busName = "org.freedesktop.secrets"

    let backend: SecretBackend
    let access: CollectionAccess
    var sessions = Sessions()
    /// Sends a signal (path, interface, member, arguments, and a unique name to unicast it to,
    /// or `nil` to broadcast it); set to the connection's.
    var emitSignal: (String, String, String, [BusValue], String?) -> Void = { _, _, _, _, _ in }
    /// The file `GetMachineId` answers from (``machineID()``): systemd's, which `dbus-daemon`
    /// reads too; another one in tests.
    var machineIDFile = MachineIDFile.systemPath

    /// `createsSynchronizable`: `CreateItem` adds synchronizable items (``SyncSetting``).
    init(store: SecretStore, access: CollectionAccess, createsSynchronizable: Bool = false) {
        backend = SecretBackend(store: store, createsSynchronizable: createsSynchronizable)
        self.access = access
    }

    /// What a method sees of its call.
    final class Context {
        let call: BusCall
        let object: ObjectPaths.Object
        private let access: CollectionAccess
        /// The call's arguments, read once its signature matched the method's (``BusCall``).
        private(set) var arguments: [BusValue] = []

        init(call: BusCall, object: ObjectPaths.Object, access: CollectionAccess) {
            self.call = call
            self.object = object
            self.access = access
        }

        /// The access groups (collections) the caller may use, the default one first. Read
        /// from the caller's policy at the first use in a call and kept for the rest of it: a
        /// call that needs none (Ping, Introspect of the service, GetMachineId) reads no
        /// policy, and the next call reads it afresh, so a changed policy file applies at once.
        lazy var groups: VisibleGroups = access.visibleGroups(for: call.sender)

        /// Reads the arguments, whose shape the method's signature has been checked to be.
        func readArguments() throws(BusError) {
            arguments = try call.readArguments()
        }
    }

    func handle(_ call: BusCall) throws(BusError) -> [BusValue] {
        // Every object's, at any path ("it does not matter which object path", says the D-Bus
        // specification), whoever calls: nothing in it depends on a collection.
        if call.interface == Interfaces.peer.name { return try peerMethod(call) }
        if let children = intermediateChildren(call) {
            // `…/collection` and `…/aliases` are only nodes of the tree: introspectable, so that
            // recursive introspection (gdbus introspect -r, D-Feet) reaches every object.
            guard call.interface == Interfaces.introspectable.name, call.member == "Introspect", call.signature.isEmpty else {
                throw .unknownObject("No object at \(call.path).")
            }
            return [.string(Introspection.xml(for: nil, children: children))]
        }
        guard let object = ObjectPaths.parse(call.path, defaultGroup: access.defaultGroup) else {
            throw .unknownObject("No object at \(call.path).")
        }
        let context = Context(call: call, object: object, access: access)
        try checkVisible(context)
        guard case .item(let group, let id) = object else { return try dispatch(context) }
        // The method that uses an item looks it up (one read, not one before it). A call that
        // fails for another reason (a wrong signature or argument, a foreign session) on an item
        // that is not there answers as a call to a missing object does: in a D-Bus object table
        // the object comes before the call. Only a lookup that finds no item changes the
        // answer; a locked store, or a lookup that fails, leaves the call's own error.
        do throws(BusError) {
            return try dispatch(context)
        } catch where error.name != BusError.unknownObject("").name {
            let callError = error
            var missing = false
            if !backend.isLocked {
                do throws(BusError) { missing = try backend.item(group: group, id: id) == nil } catch {}
            }
            throw missing ? .unknownObject("No object at \(call.path).") : callError
        }
    }

    /// Runs the call on its (visible) object: interface, method and signature, then the method.
    private func dispatch(_ context: Context) throws(BusError) -> [BusValue] {
        let call = context.call
        let interfaces = Interfaces.of(context.object)
        let interface: Interfaces.Interface
        if call.interface.isEmpty {
            guard let found = interfaces.first(where: { $0.method(call.member) != nil }) else {
                throw .unknownMethod("No method \(call.member) at \(call.path).")
            }
            interface = found
        } else {
            guard let found = interfaces.first(where: { $0.name == call.interface }) else {
                throw .unknownInterface("No interface \(call.interface) at \(call.path).")
            }
            interface = found
        }
        guard let method = interface.method(call.member) else {
            throw .unknownMethod("No method \(call.member) in \(interface.name).")
        }
        guard call.signature == method.signature else {
            throw .invalidArgs("\(interface.name).\(method.name) takes (\(method.signature)), not (\(call.signature)).")
        }
        try context.readArguments()
        switch interface.name {
        case Interfaces.service.name: return try serviceMethod(method.name, context)
        case Interfaces.collection.name: return try collectionMethod(method.name, context)
        case Interfaces.item.name: return try itemMethod(method.name, context)
        case Interfaces.session.name:
            try sessions.close(call.path, for: call.sender)
            return []
        case Interfaces.properties.name: return try propertiesMethod(method.name, context)
        case Interfaces.introspectable.name:
            return [.string(Introspection.xml(for: context.object, children: try children(of: context)))]
        default:
            // A Peer method called without its interface name.
            return try peerMethod(call)
        }
    }

    /// `org.freedesktop.DBus.Peer`: `Ping` and `GetMachineId` (``machineID()``).
    private func peerMethod(_ call: BusCall) throws(BusError) -> [BusValue] {
        guard let method = Interfaces.peer.method(call.member) else {
            throw .unknownMethod("No method \(call.member) in \(Interfaces.peer.name).")
        }
        guard call.signature == method.signature else {
            throw .invalidArgs("\(Interfaces.peer.name).\(method.name) takes (\(method.signature)), not (\(call.signature)).")
        }
        return method.name == "GetMachineId" ? [.string(try machineID())] : []
    }

    /// `org.freedesktop.DBus.Peer.GetMachineId`: the machine id of ``machineIDFile`` as 32
    /// lowercase hex digits, the form the D-Bus specification gives it. A file that is missing
    /// or holds no machine id is a D-Bus error, as `dbus-daemon` answers then
    /// (`org.freedesktop.DBus.Error.FileNotFound` when there is no file,
    /// `org.freedesktop.DBus.Error.InvalidFileContent` otherwise), never a reply that is not a
    /// machine id; a FIFO or a huge file there is refused, never waited on or read whole
    /// (``MachineIDFile``).
    func machineID() throws(BusError) -> String {
        switch MachineIDFile.read(machineIDFile) {
        case .success(let id):
            return Hex.string(id)
        case .failure(let problem):
            let message = "No machine id to answer with: \(machineIDFile) cannot be used, as \(problem). Create it with `systemd-machine-id-setup` (as root)."
            if case .unreadable(.cannotOpen(ENOENT)) = problem { throw .fileNotFound(message) }
            throw .invalidFileContent(message)
        }
    }

    /// Collections outside the caller's groups, and sessions of other clients, do not exist
    /// for it. (Items are checked when read, as they may also be gone.)
    private func checkVisible(_ context: Context) throws(BusError) {
        switch context.object {
        case .collection(let group), .item(let group, _):
            guard context.groups.contains(group) else { throw .unknownObject("No object at \(context.call.path).") }
        case .session(let path):
            do { try sessions.check(path, for: context.call.sender) } catch { throw .unknownObject("No object at \(path).") }
        case .service: break
        }
    }

    /// The children of the two intermediate nodes, or `nil` for any other path.
    private func intermediateChildren(_ call: BusCall) -> [String]? {
        switch call.path {
        case ObjectPaths.collections:
            access.visibleGroups(for: call.sender).names.map { String(ObjectPaths.collection($0).dropFirst(ObjectPaths.collections.count + 1)) }
        case ObjectPaths.aliases: [ObjectPaths.defaultAlias]
        default: nil
        }
    }

    /// The element names of the object's children, for introspection.
    private func children(of context: Context) throws(BusError) -> [String] {
        switch context.object {
        case .service: ["collection", "aliases"]
        case .collection(let group): backend.isLocked ? [] : try backend.search(group: group, attributes: [:]).map(\.id)
        default: []
        }
    }

    /// The item an item path names, or `UnknownObject`.
    func existingItem(group: String, id: String, path: String, withSecret: Bool = false) throws(BusError) -> ServiceItem {
        guard let item = try backend.item(group: group, id: id, withSecret: withSecret) else {
            throw .unknownObject("No object at \(path).")
        }
        return item
    }

    /// `Created` and `Modified`: whole seconds since 1970. A stored date is within
    /// ``StorableDates``; one from before that rule reads as 0 or the largest value rather
    /// than stopping the provider.
    static func seconds(_ date: Date?) -> BusValue {
        let seconds = (date?.timeIntervalSince1970 ?? 0).rounded(.down)
        guard seconds > 0 else { return .uint64(0) }   // also a NaN
        return .uint64(UInt64(exactly: seconds) ?? .max)
    }
}
