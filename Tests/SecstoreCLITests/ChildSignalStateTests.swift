import Foundation
import SecStoreTestSupport
import Testing

/// Every way the tests start a program gives it the signal state a shell gives it (no signal
/// blocked, none ignored), not the test thread's: ``CleanSignals`` says why it matters.
@Suite struct ChildSignalStateTests {
    /// The `SigBlk` and `SigIgn` lines of a shell's /proc status, standard signals (1 to 31)
    /// only: glibc keeps 32 and 33 for itself and sets them up in every process.
    static let probe = ["-c", "grep -E '^(SigBlk|SigIgn):' /proc/self/status"]

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
        let result = try ProgramRun.run(URL(filePath: "/bin/sh"), Self.probe, environment: [:])
        #expect(Self.standardSignals(result.stdout) == Self.clean, "\(result)")
    }

    @Test func cliRunStartsAProgramAsAShellWould() throws {
        let home = FileManager.default.temporaryDirectory
        let result = try CLI.run(Self.probe, home: home, executable: URL(filePath: "/bin/sh"))
        #expect(Self.standardSignals(result.stdout) == Self.clean, "\(result)")
    }

    @Test func aProcessStartedDirectlyStartsAsAShellWould() throws {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/sh")
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
}
