import Foundation
import SecStore

/// SecStore's entries in the kernel user keyring, by store, each store judged by its
/// location records: is the store still where a handle of it last was?
///
/// The rule (`secstore keyring prune` removes exactly the ``State/gone`` and ``State/empty``
/// stores): a store's entries stay unless **every** recorded location is positively known not
/// to hold it — the file is missing, or opening it with its recorded device key shows another
/// store (or the device key no longer opens it). A location that cannot be checked (busy,
/// damaged, unreadable) keeps the store; so does the absence of any record (entries written
/// by a SecStore before records, or by a program that shared keys without going through an
/// unlock). Removing entries never loses data: the store is locked as after a reboot.
///
/// ```swift
/// let survey = try KeyringSurvey.take()
/// let gone = survey.stores.filter(\.prunable).map(\.storeID)
/// ```
struct KeyringSurvey {
    /// Whether a store's entries may be pruned, and why.
    enum State: String {
        /// A recorded location holds the store: kept.
        case exists
        /// Every recorded location is missing or holds another store: pruned.
        case gone
        /// No key: only location records, or an empty store keyring (an unlock stopped after
        /// making it). Pruned: nothing to protect.
        case empty
        /// A recorded location could not be checked: kept.
        case unknown
        /// No location record: kept (only `--all`, `secstore lock` or reboot remove them).
        case unrecorded
    }

    struct Store {
        let storeID: UUID
        /// The entries' names after the store id, location records left out, sorted.
        let names: [String]
        /// The recorded store files.
        let paths: [String]
        let state: State
        /// Why a location could not be checked (``State/unknown``), or why `prune` kept a
        /// store it had listed as prunable.
        var note: String?

        var prunable: Bool { state == .gone || state == .empty }
        /// Every entry, location records included; an empty keyring counts as one.
        let entryCount: Int
        /// Only the store's keyring, with nothing in it.
        var isEmptyKeyring = false
    }

    /// Why the kernel keyring cannot be read here (a container that refuses keyrings), or
    /// nil; when it is set there are no stores.
    let unavailable: String?
    let stores: [Store]

    /// Reads the keyring and checks every recorded location.
    static func take() throws -> KeyringSurvey {
        let entries: [FirstUnlockCache.KeyringEntry], emptyKeyrings: Set<UUID>
        do {
            // The empty keyrings first: one an unlock fills meanwhile then has entries below.
            emptyKeyrings = try FirstUnlockCache.emptyStoreKeyrings()
            entries = try FirstUnlockCache.keyringEntries()
        } catch let error as SecStoreError where error.code == .unsupported {
            return KeyringSurvey(unavailable: error.message, stores: [])
        }
        var stores = Dictionary(grouping: entries, by: \.storeID).map { storeID, entries in
            judge(storeID, entries)
        }
        for storeID in emptyKeyrings.subtracting(entries.map(\.storeID)) {
            stores.append(Store(storeID: storeID, names: [], paths: [], state: .empty, note: nil, entryCount: 1, isEmptyKeyring: true))
        }
        return KeyringSurvey(unavailable: nil, stores: stores.sorted { ($0.state.rawValue, $0.storeID.uuidString) < ($1.state.rawValue, $1.storeID.uuidString) })
    }

    private static func judge(_ storeID: UUID, _ entries: [FirstUnlockCache.KeyringEntry]) -> Store {
        let keys = entries.filter(\.kind.countsAsKey).map(\.name).sorted()
        let records = entries.filter { $0.kind == .location }
        let paths = records.compactMap { $0.storeURL?.path }.sorted()
        func store(_ state: State, _ note: String? = nil) -> Store {
            Store(storeID: storeID, names: keys, paths: paths, state: state, note: note, entryCount: entries.count)
        }
        if records.isEmpty { return store(.unrecorded) }
        if keys.isEmpty { return store(.empty) }
        var notes: [String] = []
        for record in records {
            guard let storeURL = record.storeURL, let deviceKeyURL = record.deviceKeyURL else {
                notes.append("a location record (\(record.name)) could not be read")
                continue
            }
            switch check(storeID, at: storeURL, deviceKey: deviceKeyURL) {
            case .holdsIt: return store(.exists)
            case .notThere: continue
            case .cannotTell(let why): notes.append("\(storeURL.path): \(why)")
            }
        }
        return notes.isEmpty ? store(.gone) : store(.unknown, notes.joined(separator: "; "))
    }

    private enum Check {
        case holdsIt, notThere
        case cannotTell(String)
    }

    /// Whether the file at `url`, opened with `deviceKey`, is the store `storeID`.
    private static func check(_ storeID: UUID, at url: URL, deviceKey: URL) -> Check {
        var status = stat()
        if stat(url.path, &status) != 0 {
            let error = errno
            // Missing (or a dangling link): the store is not there. Anything else — a
            // directory we may not search, say — cannot tell.
            return error == ENOENT || error == ENOTDIR ? .notThere : .cannotTell(String(cString: strerror(error)))
        }
        do {
            let store = try SecretStore(at: url, options: SecretStore.Options(access: .owner, deviceKeyURL: deviceKey,
                                                                                createIfMissing: false, firstUnlockCache: .processMemory))
            return store.storeID == storeID ? .holdsIt : .notThere
        } catch let error as SecStoreError where error.code == .wrongDeviceKey {
            // Another store made with another key, or the key that opened it is gone: no
            // process with that device key can use these entries.
            return .notThere
        } catch let error as SecStoreError {
            return .cannotTell(error.message)
        } catch {
            return .cannotTell("\(error)")
        }
    }
}

extension KeyringSurvey.Store {
    /// The JSON shape of one store in `keyring list` and `keyring prune` (docs/cli.md).
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "storeID": .string(storeID.uuidString), "state": .string(state.rawValue),
            "entries": .array(names.map(JSONValue.string)), "paths": .array(paths.map(JSONValue.string)),
            "prunable": .bool(prunable),
        ]
        if let note { object["note"] = .string(note) }
        return .object(object)
    }
}

extension KeyringSurvey {
    /// A table of `stores`: store id, state, entry names, recorded store files.
    static func table(_ stores: [Store], style: Table.Style = .aligned) -> String {
        var table = Table(columns: ["Store ID", "State", "Entries", "Store file"])
        for store in stores {
            table.append([store.storeID.uuidString, store.state.rawValue,
                          store.isEmptyKeyring ? "(an empty keyring)"
                              : store.names.isEmpty ? "(location record only)" : store.names.joined(separator: ", "),
                          store.paths.isEmpty ? "-" : store.paths.joined(separator: ", ")])
        }
        return table.render(style)
    }

    /// Warnings about the stores that are kept although they may be gone.
    func warnAboutUncheckedStores() {
        for store in stores {
            switch store.state {
            case .unknown:
                Console.warn("Kept the entries of store \(store.storeID.uuidString): \(store.note ?? "its location could not be checked").")
            default:
                break
            }
        }
    }
}
