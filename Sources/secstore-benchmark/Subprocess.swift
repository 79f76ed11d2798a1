import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Child processes started with `posix_spawn` and reaped with `wait4`, so that a timed run
/// of a whole process pays no run-loop polling (Foundation's `Process.waitUntilExit` does)
/// and its CPU time comes from the kernel's accounting.
enum Subprocess {
    /// This executable, for the worker processes (``WorkerCommand``).
    static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One finished run: wall time from just before `posix_spawn` to `wait4`'s return, the
    /// child's user + system CPU time, and its exit status (or 128 + signal).
    struct Run {
        var wallNanoseconds: UInt64
        var cpuNanoseconds: UInt64
        var status: Int32
    }

    /// Runs `path` with `arguments` to the end: standard input from `/dev/null`, standard
    /// output to the file `outputPath` (created or truncated), standard error to
    /// `errorPath`. `environment` (`NAME=value` entries) replaces this process's when given.
    static func run(_ path: String, _ arguments: [String], outputPath: String, errorPath: String,
                    environment: [String]? = nil) throws -> Run {
        let start = monotonicNanoseconds()
        let pid = try launch(path, arguments, outputPath: outputPath, errorPath: errorPath, environment: environment)
        let (status, usage) = try reap(pid)
        let wall = monotonicNanoseconds() - start
        return Run(wallNanoseconds: wall, cpuNanoseconds: cpuNanoseconds(usage), status: status)
    }

    /// Starts `path` in the background, as ``run(_:_:outputPath:errorPath:environment:)`` does,
    /// and returns its PID without waiting; ``stop(_:)`` ends it.
    static func launch(_ path: String, _ arguments: [String], outputPath: String, errorPath: String,
                       environment: [String]? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        return try spawn(path, arguments, &actions, environment: environment)
    }

    /// Kills a process started by ``launch(_:_:outputPath:errorPath:environment:)`` and reaps it.
    static func stop(_ pid: pid_t) {
        kill(pid, SIGKILL)
        _ = try? reap(pid)
    }

    /// Starts `path` with pipes on its standard input and output; standard error is this
    /// process's.
    static func start(_ path: String, _ arguments: [String]) throws -> Child {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        // Close-on-exec, so that no other child inherits them (the benchmark starts its
        // children from one thread, so there is no race between pipe and fcntl).
        guard pipe(&input) == 0, pipe(&output) == 0 else {
            throw BenchmarkError("pipe failed: \(String(cString: strerror(errno)))")
        }
        for descriptor in input + output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies; the originals close at exec.
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        let pid: pid_t
        do {
            pid = try spawn(path, arguments, &actions)
        } catch {
            [input[0], input[1], output[0], output[1]].forEach { _ = Glibc.close($0) }
            throw error
        }
        _ = Glibc.close(input[0])
        _ = Glibc.close(output[1])
        return Child(pid: pid, input: input[1], output: output[0])
    }

    /// A worker started by ``start(_:_:)``: lines go to its standard input and come from its
    /// standard output.
    final class Child {
        let pid: pid_t
        private var input: Int32
        private let output: Int32
        private var buffered: [UInt8] = []
        private var reaped = false

        fileprivate init(pid: pid_t, input: Int32, output: Int32) {
            self.pid = pid
            self.input = input
            self.output = output
        }

        deinit {
            if input >= 0 { _ = Glibc.close(input) }
            _ = Glibc.close(output)
            if !reaped {
                kill(pid, SIGKILL)
                _ = try? Subprocess.reap(pid)
            }
        }

        func send(_ line: String) throws {
            let bytes = Array((line + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw BenchmarkError("worker \(pid): cannot write to it") }
                offset += written
            }
        }

        /// The next line, without its newline; `nil` at the end of its output.
        func readLine() throws -> String? {
            while true {
                if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffered[..<newline], as: UTF8.self)
                    buffered.removeSubrange(...newline)
                    return line
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    if buffered.isEmpty { return nil }
                    defer { buffered = [] }
                    return String(decoding: buffered, as: UTF8.self)
                }
                buffered += chunk.prefix(count)
            }
        }

        /// The next line, which must start with `word`; the words after it.
        func expect(_ word: String) throws -> [Substring] {
            guard let line = try readLine() else {
                throw BenchmarkError("worker \(pid) ended without saying \"\(word)\"")
            }
            let words = line.split(separator: " ")
            guard words.first.map(String.init) == word else {
                throw BenchmarkError("worker \(pid) said \"\(line)\" instead of \"\(word) …\"")
            }
            return Array(words.dropFirst())
        }

        /// Closes its standard input and waits for it to exit; throws unless it exits 0.
        func finish() throws {
            if input >= 0 {
                _ = Glibc.close(input)
                input = -1
            }
            let (status, _) = try Subprocess.reap(pid)
            reaped = true
            guard status == 0 else { throw BenchmarkError("worker \(pid) exited with status \(status)") }
        }
    }

    private static func spawn(_ path: String, _ arguments: [String], _ actions: inout posix_spawn_file_actions_t,
                              environment: [String]? = nil) throws -> pid_t {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid = pid_t()
        let result = envp.map { posix_spawn(&pid, path, &actions, nil, argv, $0) } ?? posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard result == 0 else {
            throw BenchmarkError("cannot start \(path): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Waits for `pid`: its exit status (128 + signal when a signal ended it) and usage.
    fileprivate static func reap(_ pid: pid_t) throws -> (Int32, rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let signal = status & 0x7F
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, usage)
    }

    private static func cpuNanoseconds(_ usage: rusage) -> UInt64 {
        func nanoseconds(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000 }
        return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
    }
}

/// Sleeps until the monotonic clock reads `nanoseconds`.
func sleep(untilMonotonic nanoseconds: UInt64) {
    var deadline = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
}
