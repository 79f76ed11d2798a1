import Foundation
import SecStoreTestSupport
import Testing

/// Every way the tests start a program gives it the signal state a shell gives it (no signal
/// blocked, none ignored), not the test thread's: ``CleanSignals`` says why it matters.
@Suite(.enabled(if: CleanSignals.envResetsSignals, "this env has no --default-signal (coreutils before 8.31)"))
struct ChildSignalStateTests {
    /// `grep` reading its own `SigBlk` and `SigIgn`; not a shell, as dash clears the mask it
    /// starts with. Compared for the standard signals (1 to 31) only: glibc keeps 32 and 33 for
    /// itself and sets them up in every process.
    static let grep = ProgramRun.which("grep") ?? URL(filePath: "/usr/bin/grep")
    static let probe = ["-E", "^(SigBlk|SigIgn):", "/proc/self/status"]

    static func standardSignals(_ text: String) -> [String] {
        text.split(separator: "\n").map { line in
            guard let colon = line.firstIndex(of: ":"), let mask = UInt64(line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces), radix: 16) else { return String(line) }
            return "\(line[..<colon]) \(String(mask & 0x7FFF_FFFF, radix: 16))"
        }
    }

    static let clean = ["SigBlk 0", "SigIgn 0"]

    /// Before: `SigBlk 3bfbea27` (the Dispatch worker's mask) and `SigIgn 1000` (SIGPIPE, which
    /// ``CLI`` ignores in the test process).
    @Test func programRunStartsAProgramAsAShellWould() throws {
        let result = try ProgramRun.run(Self.grep, Self.probe, environment: [:])
        #expect(Self.standardSignals(result.stdout) == Self.clean, "\(result)")
    }

    @Test func cliRunStartsAProgramAsAShellWould() throws {
        let home = FileManager.default.temporaryDirectory
        let result = try CLI.run(Self.probe, home: home, executable: Self.grep)
        #expect(Self.standardSignals(result.stdout) == Self.clean, "\(result)")
    }

    @Test func aProcessStartedDirectlyStartsAsAShellWould() throws {
        let process = Process()
        process.executableURL = Self.grep
        process.arguments = Self.probe
        let output = Pipe()
        process.standardOutput = output
        try process.runWithCleanSignals()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(Self.standardSignals(text) == Self.clean, "\(text)")
    }

    @Test func aTerminalSessionStartsAsAShellWould() throws {
        // `secstore` under the pseudo-terminal: its own status, read by the test while it waits
        // at a passphrase prompt.
        let store = try CLIStore.created(passphrase: true)
        try store.add(service: "api", account: "alice", secret: "the-secret", "--passphrase-file", try store.passphraseFile())
        let session = try PseudoTerminalSession(arguments: ["get", "-s", "api", "-a", "alice"] + store.storeArguments,
                                                home: store.directory)
        #expect(session.waitFor("Store passphrase: "), "\(session.text)")
        let status = try String(contentsOfFile: "/proc/\(session.processIdentifier)/status", encoding: .utf8)
        let lines = status.split(separator: "\n").filter { $0.hasPrefix("SigBlk:") || $0.hasPrefix("SigIgn:") }.joined(separator: "\n")
        #expect(Self.standardSignals(lines) == Self.clean, "\(lines)")
        session.type(CLIStore.passphrase + "\n")
        #expect(session.finish() == Exit.success, "\(session.text)")
    }

    /// The `env` in between execs the program: the process id and the exit status are the program's.
    @Test func theProgramKeepsTheProcessIdAndItsExitStatus() throws {
        let result = try ProgramRun.run(URL(filePath: "/bin/sh"), ["-c", "exit 3"], environment: [:])
        #expect(result.status == 3)
        let process = Process()
        process.executableURL = URL(filePath: "/bin/sh")
        process.arguments = ["-c", "echo $$"]
        let output = Pipe()
        process.standardOutput = output
        try process.runWithCleanSignals()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text == "\(process.processIdentifier)\n")
    }

    /// The rule holds in every test target: no `Process.run()` but through
    /// `runWithCleanSignals()`, no `posix_spawn` without ``CleanSignals/setDefaults(_:)``.
    @Test func everyTestStartsProgramsThroughCleanSignals() throws {
        let tests = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "CleanSignals.swift" }
        #expect(files.count > 100)
        var offenders: [String] = []
        let plainRun = "." + "run()"   // not written whole, or this file would name itself
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                if code.contains(plainRun) { offenders.append("\(file.lastPathComponent):\(number + 1): \(code)") }
            }
            if (text.contains("posix_spawn(") || text.contains("posix_spawnp(")) && !text.contains("CleanSignals.setDefaults") {
                offenders.append("\(file.lastPathComponent): posix_spawn without CleanSignals.setDefaults")
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
