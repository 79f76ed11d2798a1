import Foundation
import SecStoreFuzzing
import Testing

extension DefaultStoreTests {
    /// The SecItem fuzz target's corpus (`Fixtures/fuzz/secitem/`, seeds and minimised
    /// crashers), replayed through the entry `scripts/fuzz.sh` builds into the libFuzzer binary:
    /// random dictionaries through the public SecItem functions on a real store, each call a
    /// status of Apple's table, never a crash. Here because it uses the process-wide default
    /// store, which this serialized suite owns.
    @Suite("SecItem fuzz corpus replay") struct SecItemFuzzReplayTests {
        static let corpus = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "../../../Fixtures/fuzz/secitem").standardizedFileURL

        @Test func everyCorpusFileGetsAStatus() throws {
            let enumerator = FileManager.default.enumerator(at: Self.corpus, includingPropertiesForKeys: [.isRegularFileKey])
            let files = (enumerator?.allObjects as? [URL] ?? [])
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
                .filter { !$0.lastPathComponent.hasPrefix("README") }
                .sorted { $0.path < $1.path }
            #expect(files.count >= 3, "Fixtures/fuzz/secitem holds \(files.count) files")
            for file in files {
                do {
                    _ = try FuzzTarget.secItem.run(try [UInt8](Data(contentsOf: file)))
                } catch {
                    Issue.record("\(file.lastPathComponent): \(error)")
                }
            }
        }
    }
}
