import Foundation
import Glibc
import SecStoreTestSupport
import Testing

/// Runs `secstore` in a new session whose controlling terminal, standard input, output and
/// error are the slave side of a pseudo-terminal, as if a user ran it in a terminal. The
/// test plays the user on the master side: it reads what the terminal shows (the
/// transcript, including anything the terminal echoes) and types answers.
final class PseudoTerminalSession {
    private let master: Int32
    private let pid: pid_t
    /// The process id of the program on the terminal.
    var processIdentifier: pid_t { pid }
    /// Everything the terminal has shown so far.
    private(set) var transcript = Data()

    /// glibc's `POSIX_SPAWN_SETSID` (0x80): the child starts a new session, so the
    /// terminal it opens next becomes its controlling terminal.
    private static let spawnSetSID: Int32 = 0x80

    init(arguments: [String], home: URL, environment extra: [String: String] = [:]) throws {
        let pty = try PTYFunctions()
        master = pty.openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0, "posix_openpt failed: errno \(errno)")
        try #require(pty.grantpt(master) == 0 && pty.unlockpt(master) == 0)
        var name = [CChar](repeating: 0, count: 128)
        try #require(pty.ptsname_r(master, &name, name.count) == 0)
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after setsid() and without O_NOCTTY: the slave becomes the controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(Self.spawnSetSID))
        // As a shell starts it: no signal blocked or ignored (CleanSignals says why).
        CleanSignals.setDefaults(&attributes)

        let executable = CLI.executableURL.path
        let argv = [executable] + arguments
        let envp = CLI.environment(home: home, extra: extra).map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let status = Self.withCStrings(argv) { argvPointers in
            Self.withCStrings(envp) { envPointers in
                posix_spawn(&child, executable, &actions, &attributes, argvPointers, envPointers)
            }
        }
        try #require(status == 0, "posix_spawn failed: \(status)")
        pid = child
    }

    deinit {
        close(master)
    }

    /// Reads until the transcript contains `text`; false after `timeout` seconds or at end.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !contains(text) {
            guard Date() < deadline, readSome(until: deadline) else { return contains(text) }
        }
        return true
    }

    /// Waits until `text` has appeared `count` times (a prompt asked again).
    func waitFor(_ text: String, count: Int, timeout: TimeInterval = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while self.text.components(separatedBy: text).count - 1 < count {
            guard Date() < deadline, readSome(until: deadline) else { return self.text.components(separatedBy: text).count - 1 >= count }
        }
        return true
    }

    /// Types `text` at the terminal.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads the rest of the output and waits for the process; returns its exit status.
    func finish(timeout: TimeInterval = 20) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, readSome(until: deadline) {}
        var status: Int32 = 0
        // The child closes the terminal just before it exits: give it until the deadline.
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return -1
            }
            usleep(5_000)
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }

    var text: String { String(decoding: transcript, as: UTF8.self) }

    func contains(_ text: String) -> Bool { self.text.contains(text) }

    /// One read when data arrives before `deadline`; false at end of output (EIO once the
    /// child has closed the terminal) or timeout.
    private func readSome(until deadline: Date) -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        guard count > 0 else { return false }
        transcript.append(contentsOf: buffer[..<count])
        return true
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> R) rethrows -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return try pointers.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }
}

/// glibc's pseudo-terminal functions, looked up at run time: Swift's Glibc module leaves
/// out `posix_openpt`, `grantpt`, `unlockpt` and `ptsname_r` (they sit behind
/// `_XOPEN_SOURCE` in <stdlib.h>).
private struct PTYFunctions {
    let openpt: @convention(c) (Int32) -> Int32
    let grantpt: @convention(c) (Int32) -> Int32
    let unlockpt: @convention(c) (Int32) -> Int32
    let ptsname_r: @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    init() throws {
        func lookUp<F>(_ name: String, as type: F.Type) throws -> F {
            let symbol = try #require(dlsym(nil, name), "libc has no \(name)")
            return unsafeBitCast(symbol, to: type)
        }
        openpt = try lookUp("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        grantpt = try lookUp("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        unlockpt = try lookUp("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        ptsname_r = try lookUp("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
    }
}
