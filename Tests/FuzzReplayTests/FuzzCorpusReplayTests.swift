import Foundation
import SecStoreFuzzing
import Testing

/// The files of `Fixtures/fuzz/<target>/`, seeds and minimised crashers alike.
enum FuzzCorpus {
    static let root = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Fixtures/fuzz").standardizedFileURL

    /// Every regular file under `Fixtures/fuzz/<target>/`, recursively, sorted; README files excepted.
    static func files(of target: String) -> [URL] {
        let directory = root.appending(path: target, directoryHint: .isDirectory)
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .filter { !$0.lastPathComponent.hasPrefix("README") }
            .sorted { $0.path < $1.path }
    }

    /// A file's path below `Fixtures/fuzz`, for messages.
    static func name(_ url: URL) -> String {
        String(url.path.dropFirst(root.path.count + 1))
    }

    /// Runs `entry` on every file of `target`; expects a typed answer from each (a crash would
    /// end the test process, a violated property is recorded as an issue) and at least
    /// `minimum` files.
    static func replay(_ target: String, minimum: Int = 3,
                       _ entry: ([UInt8]) throws(FuzzViolation) -> FuzzOutcome) throws {
        let files = files(of: target)
        #expect(files.count >= minimum, "Fixtures/fuzz/\(target) holds \(files.count) files")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            do {
                _ = try entry(bytes)
            } catch {
                Issue.record("\(name(file)): \(error)")
            }
        }
    }
}

/// The ordinary suite replays every fuzz corpus file through the entry the fuzzer ran
/// (`scripts/fuzz.sh` builds the same functions into libFuzzer binaries): every seed and
/// every minimised crasher must get a typed answer, never a crash. The SecItem target's
/// replay is in KeychainServicesTests, beside the other users of the default store.
@Suite("Fuzz corpus replay") struct FuzzCorpusReplayTests {
    @Test(arguments: [FuzzTarget.entitlements, .backup, .backupSealed, .metadata, .gitCredential, .dockerCredentials])
    func replay(_ target: FuzzTarget) throws {
        try FuzzCorpus.replay(target.rawValue) { bytes throws(FuzzViolation) in try target.run(bytes) }
    }

    @Test func replayCLIArguments() throws {
        try FuzzCorpus.replay(CLIArgumentsFuzz.name) { bytes throws(FuzzViolation) in try CLIArgumentsFuzz.run(bytes) }
    }

    @Test func replayPlaintextImport() throws {
        try FuzzCorpus.replay(PlaintextImportFuzz.name) { bytes throws(FuzzViolation) in try PlaintextImportFuzz.run(bytes) }
    }

    /// What each crasher the fuzzers found does now (docs/reliability.md, "Fuzzing").
    @Test func crashersGetTheirTypedAnswer() throws {
        // Foundation's PropertyListSerialization crashed on any binary property list holding a
        // set; the entitlements reader no longer uses it.
        for file in FuzzCorpus.files(of: "entitlements").filter({ $0.path.contains("/crashes/") }) {
            let outcome = try FuzzTarget.entitlements.run(try [UInt8](Data(contentsOf: file)))
            #expect(outcome == .refused("invalidEntitlements"), "\(FuzzCorpus.name(file)): \(outcome)")
        }
        // Docker server URLs. Text before `://` that is no scheme was refused as "unsupported
        // scheme: <all of that text>", user information and password included. A host that
        // begins with a combining mark hid the "/" before it, read by Character: `list` named
        // a credential by a URL that read back as the host "https", and a URL written with
        // `https://` was stored under that host; one holding a colon was listed in brackets,
        // "[\u{323}:]:2", and the bracket was hidden in turn.
        let docker: [String: FuzzOutcome] = [
            "json-host-beginning-with-a-combining-acute": .accepted("https://\u{301}registry.example.com"),
            "json-userinfo-before-the-scheme": .refused("url: unsupported scheme"),
            "url-host-beginning-with-a-combining-acute": .accepted("https://\u{301}registry.example.com/v2/"),
            "url-host-beginning-with-a-combining-mark": .accepted("https://\u{7AC}"),
            "url-host-with-a-colon-beginning-with-a-combining-mark": .accepted("https://[\u{323}:]:2"),
            "url-scheme-quoting-the-text-before-colon-slash-slash": .refused("url: invalid server URL"),
            "url-userinfo-before-the-scheme": .refused("url: unsupported scheme"),
        ]
        let crashers = FuzzCorpus.files(of: "docker-credentials").filter { $0.path.contains("/crashes/") }
        #expect(Set(crashers.map(\.lastPathComponent)) == Set(docker.keys))
        for file in crashers {
            let outcome = try FuzzTarget.dockerCredentials.run(try [UInt8](Data(contentsOf: file)))
            #expect(outcome == docker[file.lastPathComponent], "\(FuzzCorpus.name(file)): \(outcome)")
        }
    }

    /// Every target has a corpus directory, and every directory is a target: a corpus nobody
    /// replays would rot.
    @Test func everyCorpusBelongsToATarget() throws {
        let targets = Set(FuzzTarget.allCases.map(\.rawValue) + [CLIArgumentsFuzz.name, PlaintextImportFuzz.name])
        let directories = try FileManager.default.contentsOfDirectory(atPath: FuzzCorpus.root.path)
            .filter { var isDirectory: ObjCBool = false
                      return FileManager.default.fileExists(atPath: FuzzCorpus.root.appending(path: $0).path, isDirectory: &isDirectory) && isDirectory.boolValue }
        #expect(Set(directories) == targets)
    }
}
