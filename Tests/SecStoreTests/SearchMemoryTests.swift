import Foundation
import SecStoreTestSupport
import Testing
@testable import SecStore

/// What a search for the secrets of many items leaves in the searching process's memory once
/// the caller has let go of its results (docs/design.md, "Secrets in memory"): no copy of any
/// secret, in the heap or anywhere else writable. The search runs in `secstore-test-helper`
/// (`search-and-hold`), which waits to be killed while this test reads its memory
/// (``ProcessMemory``; as root here, since reading another process's memory may take
/// `CAP_SYS_PTRACE`).
@Suite(.enabled(if: ProcessMemory.canReadNonDumpableProcesses, "reading another process's memory takes CAP_SYS_PTRACE"))
struct SearchMemoryTests {
    static let service = "memory"

    /// 48 items, half with 12-byte secrets (kept inline in a `Data`, so in whatever array holds
    /// them) and half with 400-byte ones (in heap blocks of their own; long enough to be found after a free, which overwrites a block's first bytes), added by this process so
    /// that only the search brings them into the helper's.
    static func storeWithSecrets(_ directory: TemporaryDirectory) throws -> [[UInt8]] {
        let store = try SecretStore(at: directory.storeURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL))
        var generator = SystemRandomNumberGenerator()
        let secrets = (0..<48).map { index in (0..<(index % 2 == 0 ? 12 : 400)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        try store.write { transaction in
            for (index, secret) in secrets.enumerated() {
                try transaction.add(.genericPassword(service: Self.service, account: "a\(index)", data: Data(secret), accessGroup: "G"))
            }
        }
        return secrets
    }

    /// Before, through `SecItemCopyMatching` (`kSecMatchLimitAll`, `kSecReturnData`), with the
    /// result released: every secret was still in the helper's heap, the short ones in the
    /// blocks the engine's array of matches left as it grew and in the array the call dropped,
    /// the long ones in the `Data` blocks the call dropped after copying each into its result
    /// object. Through the typed API, with the caller zeroing its own copies: the short ones,
    /// in the blocks the array left as it grew.
    @Test(arguments: ["secitem", "typed"])
    func aSearchOfManySecretsLeavesNoCopyOnceReleased(api: String) throws {
        let directory = TemporaryDirectory()
        let secrets = try Self.storeWithSecrets(directory)
        let helper = try HelperProcess(product: "secstore-test-helper").start([
            "search-and-hold", "--store", directory.storeURL.path, "--device-key", directory.deviceKeyURL.path,
            "--app-id", "T.app", "--group", "G", "--service", Self.service, "--api", api], environment: ProcessMemory.scannedProcessEnvironment)
        defer { helper.kill() }
        #expect(helper.waitForLine("found \(secrets.count)"))
        for (index, secret) in secrets.enumerated() {
            let found = try ProcessMemory.copies(of: secret, in: helper.process.processIdentifier)
            #expect(found.isEmpty, "secret \(index) (\(secret.count) bytes): \(found)")
        }
    }
}
