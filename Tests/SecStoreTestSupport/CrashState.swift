import Foundation

/// What a running process would leave behind if it crashed now, read from `/proc`: its soft
/// core-file limit (the one the kernel's core dump obeys) and the crash signals it catches (a
/// caught one means the Swift runtime's backtracer, which prints registers and memory).
///
/// ```swift
/// let state = try #require(CrashState(pid: process.processIdentifier))
/// #expect(state.softCoreLimit == "0" && state.caughtCrashSignals.isEmpty)
/// ```
public struct CrashState: Sendable, CustomStringConvertible {
    /// The crash signals whose handlers the tools take back.
    public static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP]

    /// The soft `RLIMIT_CORE` as `/proc/PID/limits` writes it (`0`, `1000`, `unlimited`).
    public let softCoreLimit: String
    /// The crash signals the process has a handler for.
    public let caughtCrashSignals: [Int32]
    /// Whether other processes of its user may ptrace it (it is dumpable); nil when the process
    /// runs as root, whose `/proc` entries are root's either way. The kernel gives a
    /// non-dumpable process's `/proc/PID` entries to root.
    public let isTraceable: Bool?

    /// The state of process `pid`, or nil when it cannot be read (the process is gone).
    public init?(pid: Int32) {
        guard let limits = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let coreLine = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max core file size") }),
              let soft = coreLine.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first,
              let caughtLine = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let caught = UInt64(caughtLine.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
              let uidLine = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }),
              let realUID = uidLine.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap({ UInt32($0) })
        else { return nil }
        var entry = stat()
        if realUID == 0 || stat("/proc/\(pid)/status", &entry) != 0 {
            isTraceable = nil
        } else {
            isTraceable = entry.st_uid != 0
        }
        softCoreLimit = String(soft)
        caughtCrashSignals = Self.crashSignals.filter { caught & (1 << UInt64($0 - 1)) != 0 }
    }

    /// True when a crash would write no core file and print no register dump, and no other
    /// process of the user can read the memory meanwhile (as far as can be seen: see
    /// ``isTraceable``).
    public var leavesNothing: Bool { softCoreLimit == "0" && caughtCrashSignals.isEmpty && isTraceable != true }

    public var description: String {
        "soft core limit \(softCoreLimit), crash signals caught: \(caughtCrashSignals), traceable: \(isTraceable.map(String.init) ?? "unknown (root)")"
    }

    /// The state of `executable` run with `arguments` (through ``launcher(for:_:)``) once it
    /// waits for its standard input, held open until then: past its start-up, where the tools
    /// set their crash hygiene. Nil when the process could not be read.
    ///
    /// ```swift
    /// let state = try #require(try CrashState.whileWaitingForInput(helperURL, ["get"], environment: environment))
    /// #expect(state.leavesNothing, "\(state)")
    /// ```
    public static func whileWaitingForInput(_ executable: URL, _ arguments: [String],
                                            environment: [String: String]) throws -> CrashState? {
        let launch = launcher(for: executable, arguments)
        let process = Process()
        process.executableURL = launch.executable
        process.arguments = launch.arguments
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runWithCleanSignals()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        // The shell has exec'd the program, and the program reads the pipe.
        let pid = process.processIdentifier
        func waitsForInput() -> Bool {
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            let waitChannel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            // A non-dumpable process's wait channel reads as "0" to others but root: then its
            // state, sleeping, past the shell and the program's start-up.
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first
            let hidden = waitChannel == "0" && state == "S" && !["sh", "setpriv"].contains(name.trimmingCharacters(in: .whitespacesAndNewlines))
            return !name.hasPrefix("sh") && (waitChannel.contains("pipe") || hidden)
        }
        let deadline = Date().addingTimeInterval(10)
        while !waitsForInput() && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return CrashState(pid: pid)
    }

    /// `executable` with `arguments`, started by a shell that first sets the soft core limit to
    /// 1000 blocks, so that a program that leaves the limit alone is seen with a non-zero one.
    /// Where the hard limit is lower (0 in some containers) that fails and the program starts
    /// with the limit it has: only its crash handlers then tell.
    public static func launcher(for executable: URL, _ arguments: [String]) -> (executable: URL, arguments: [String]) {
        (URL(filePath: "/bin/sh"), ["-c", #"ulimit -S -c 1000 2>/dev/null; exec "$0" "$@""#, executable.path] + arguments)
    }
}
