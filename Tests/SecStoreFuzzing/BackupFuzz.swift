internal import CSodium
import Foundation
import SecStore
import Synchronization

/// The backup reader, through `SecretStore.importBackup` on a real store, in two modes:
///
/// - ``runFile(_:)`` (`backup`): the input is the backup file. Reaches the header, the
///   Argon2id limits check, the record framing and the MAC; a fuzzer cannot forge a MAC, so
///   this mode stops at the first record.
/// - ``runSealed(_:)`` (`backup-sealed`): the input describes a manifest and records, which
///   this target seals the way `exportBackup` does, with the key of a fixed passphrase and
///   salt at the smallest Argon2id limits. The MAC then holds, and the record parser, the
///   metadata codec and the import itself (class rules, groups, duplicates under each
///   conflict policy, the final record's count, bytes after it) run on the fuzzer's bytes.
///
/// Checked: a refusal is a typed `SecStoreError` and leaves the store as it was; an import
/// that succeeds accounts for every record and leaves a store that `verify` finds intact.
/// Every input starts from the same store: one item that a record may collide with.
enum BackupFuzz {
    static let passphrase = "fuzz backup passphrase"
    static let salt = [UInt8](repeating: 0x5A, count: Int(crypto_pwhash_SALTBYTES))
    static let magic = Array("SECSTORE-BACKUP1".utf8)

    // MARK: The file mode

    static func runFile(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        try importBackup(cheapLimits(bytes), policy: .skip, records: nil, target: .backup)
    }

    /// The file with acceptable but costly Argon2id limits (up to 4 GiB) brought down to at
    /// most 2 passes and 64 KiB, so that every execution takes microseconds. Cheap limits (a
    /// real backup's, such as the seeds') and limits outside the acceptable range are left as
    /// they are: refusing the latter is what is under test.
    static func cheapLimits(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 32 else { return bytes }
        var file = bytes
        let operations = littleEndian(file[16..<24])
        let memory = littleEndian(file[24..<32])
        let acceptable = PasswordHashingLimits(operations: operations, memoryBytes: Int(clamping: memory))
        guard acceptable.isAcceptable, memory <= UInt64(Int.max), operations > 2 || memory > 64 << 10 else { return bytes }
        file.replaceSubrange(16..<24, with: le(1 + operations % 2))
        file.replaceSubrange(24..<32, with: le(8192 + memory % (56 << 10)))
        return file
    }

    // MARK: The sealed mode

    /// Input layout, every part read with ``FuzzInput`` (so any bytes make a backup):
    /// a flags byte (bit 0: the manifest is the fuzzer's bytes rather than well formed; bit 1: no
    /// final record; bit 2: the final record's count is the fuzzer's; bit 3: bytes after the
    /// final record; bits 4–5: the conflict policy; bit 6: cut the file at a chosen length),
    /// the manifest's bytes (a length byte, then the bytes), the final count (8 bytes, with
    /// bit 2), the length to cut at (2 bytes, with bit 6), then up to 12 records, each a kind
    /// byte and its body:
    /// - kind 0: the body as given;
    /// - kind 1: class byte, accessibility byte, metadata and secret as given, with the right length;
    /// - kind 2: the same, with metadata made of chosen attributes (and an access group);
    /// - kind 3: a raw body sealed with the tag of the kind byte's high bits (push, rekey, final).
    static func runSealed(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let policy: ImportConflictPolicy = [.skip, .replace, .fail, .skip][Int(flags >> 4) & 3]
        var manifestBody = input.bytes(maximum: 40)
        let chosenFinalCount = flags & 4 == 0 ? nil : input.integer(UInt64.self)
        let cut = flags & 64 == 0 ? nil : Int(input.integer(UInt16.self))
        var records: [(body: [UInt8], tag: UInt8)] = []
        while !input.isAtEnd, records.count < 12 {
            let kind = input.byte()
            switch kind % 4 {
            case 0: records.append((input.bytes(maximum: 600), 0))
            case 1:
                let head = [input.byte(), input.byte()]
                let metadata = input.bytes(maximum: 300)
                let secret = input.bytes(maximum: 64)
                records.append((head + le32(metadata.count) + metadata + secret, 0))
            case 2:
                let head = [input.pick([1, 2, 0, 3] as [UInt8]), input.pick([6, 7, 8, 9, 10, 11, 12, 0, 13] as [UInt8])]
                let metadata = chosenMetadata(&input, withGroup: kind & 0x80 == 0)
                let secret = input.bytes(maximum: 64)
                records.append((head + le32(metadata.count) + metadata + secret, 0))
            default:
                records.append((input.bytes(maximum: 64), [1, 2, 3, 3][Int(kind >> 6)]))
            }
        }
        let itemRecords = UInt64(records.count)
        if flags & 1 == 0 {
            manifestBody = Array(repeating: 0xAB, count: 16) + le(Date(timeIntervalSinceReferenceDate: 800_000_000).timeIntervalSinceReferenceDate.bitPattern)
                + le(itemRecords)
        }
        if flags & 2 == 0 {
            records.append((le(chosenFinalCount ?? itemRecords), 3))
        }
        var file = seal(manifest: manifestBody, records: records)
        if flags & 8 != 0 { file += [0x00, 0x01] }
        if let cut { file = Array(file.prefix(cut)) }
        // The count is checked only when every record is an item: a record with another tag (a
        // final one in the middle, say) may end the import early, or not.
        let checkedCount = records.dropLast(flags & 2 == 0 ? 1 : 0).allSatisfy { $0.tag == 0 } ? Int(itemRecords) : nil
        return try importBackup(file, policy: policy, records: checkedCount, target: .backupSealed)
    }

    /// Metadata in the codec's layout (version 1; entries of code, type, LEB128 length and
    /// bytes) made of attributes the input chooses, codes and types slightly beyond the known
    /// ones included; with an access group first when `withGroup`.
    static func chosenMetadata(_ input: inout FuzzInput, withGroup: Bool) -> [UInt8] {
        var out: [UInt8] = [1]
        func entry(_ code: UInt8, _ type: UInt8, _ payload: [UInt8]) {
            out += [code, type]
            var length = payload.count
            repeat {
                out.append(UInt8(length & 0x7F) | (length > 0x7F ? 0x80 : 0))
                length >>= 7
            } while length > 0
            out += payload
        }
        var codes: [UInt8] = (0..<input.index(6)).map { _ in UInt8(input.index(25)) }
        if withGroup { codes.append(11) }
        for code in codes.sorted() {
            if code == 11, withGroup {
                entry(code, 0, Array(input.pick([FuzzStores.g1, FuzzStores.g2, FuzzStores.foreignGroup, ""]).utf8))
                continue
            }
            let type = UInt8(input.index(5))
            switch type {
            case 0: entry(code, type, Array(input.pick(SecItemFuzz.values).utf8))
            case 1: entry(code, type, input.bytes(maximum: 24))
            case 2, 3: entry(code, type, input.bool() ? input.take(8) : input.bytes(maximum: 9))
            default: entry(code, type, input.bytes(maximum: 9))
            }
        }
        return out
    }

    /// The backup `exportBackup` would write around these plaintexts.
    static func seal(manifest: [UInt8], records: [(body: [UInt8], tag: UInt8)]) -> [UInt8] {
        let key = derivedKey
        var state = crypto_secretstream_xchacha20poly1305_state()
        var streamHeader = [UInt8](repeating: 0, count: Int(crypto_secretstream_xchacha20poly1305_HEADERBYTES))
        _ = crypto_secretstream_xchacha20poly1305_init_push(&state, &streamHeader, key)
        let header = magic + le(UInt64(1)) + le(UInt64(8192)) + salt + streamHeader
        func sealed(_ message: [UInt8], _ associated: [UInt8], _ tag: UInt8) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: message.count + Int(crypto_secretstream_xchacha20poly1305_ABYTES))
            _ = crypto_secretstream_xchacha20poly1305_push(&state, &out, nil, message, UInt64(message.count),
                                                           associated.isEmpty ? nil : associated, UInt64(associated.count), tag)
            return le32(out.count) + out
        }
        var file = header + sealed(manifest, header, 0)
        for record in records { file += sealed(record.body, [], record.tag) }
        return file
    }

    /// Argon2id of ``passphrase`` and ``salt`` at libsodium's smallest limits, once.
    static let derivedKey: [UInt8] = {
        precondition(sodium_init() >= 0)
        var key = [UInt8](repeating: 0, count: Int(crypto_secretstream_xchacha20poly1305_KEYBYTES))
        let password = Array(passphrase.utf8).map { CChar(bitPattern: $0) }
        let status = crypto_pwhash(&key, UInt64(key.count), password, UInt64(password.count), salt,
                                   1, 8192, crypto_pwhash_ALG_ARGON2ID13)
        precondition(status == 0)
        return key
    }()

    // MARK: The import

    private static let store = Mutex<SecretStore?>(nil)
    private static let storeChanged = Mutex(true)

    /// Imports `file` into the target's store; checks the properties above.
    static func importBackup(_ file: [UInt8], policy: ImportConflictPolicy, records: Int?,
                             target: FuzzTarget) throws(FuzzViolation) -> FuzzOutcome {
        let url = FuzzStores.scratchFile("input.backup")
        let store: SecretStore
        do {
            store = try prepareStore()
            try Data(file).write(to: url)
        } catch {
            throw FuzzViolation(target, "cannot prepare the target's store and input file: \(error)")
        }
        let summary: ImportSummary
        do {
            summary = try store.importBackup(from: url, passphrase: passphrase, conflictPolicy: policy)
        } catch let error as SecStoreError {
            return .refused(error.code.name)
        } catch {
            throw FuzzViolation(target, "an error that is not a SecStoreError: \(error)")
        }
        storeChanged.withLock { $0 = true }
        if let records, summary.added + summary.skipped + summary.replaced != records {
            throw FuzzViolation(target, "an import of \(records) records reported \(summary)")
        }
        do {
            let report = try store.verify()
            guard report.isIntact, report.itemsMatchDigest else {
                throw FuzzViolation(target, "the store does not verify after an import that succeeded: \(report)")
            }
        } catch let violation as FuzzViolation {
            throw violation
        } catch {
            throw FuzzViolation(target, "verify failed after an import that succeeded: \(error)")
        }
        return .accepted("\(summary)")
    }

    /// The owner store the imports go to, holding one item (`svc` / `acct` in G1) that
    /// records may collide with; emptied and refilled after an input changed it.
    private static func prepareStore() throws -> SecretStore {
        let store = try store.withLock { store in
            if let store { return store }
            let opened = try FuzzStores.openStore("backup", access: .owner)
            store = opened
            return opened
        }
        let changed = storeChanged.withLock { changed in
            defer { changed = false }
            return changed
        }
        if changed {
            for itemClass in ItemClass.allCases {
                do {
                    try store.delete(matching: Query(itemClass: itemClass, synchronizable: .any, limit: .all))
                } catch let error as SecStoreError where error.code == .itemNotFound {}
            }
            try store.add(.genericPassword(service: "svc", account: "acct", data: Data("secret".utf8), accessGroup: FuzzStores.g1))
        }
        return store
    }

    // MARK: Bytes

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    static func le32(_ value: Int) -> [UInt8] { le(UInt32(truncatingIfNeeded: value)) }

    static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
