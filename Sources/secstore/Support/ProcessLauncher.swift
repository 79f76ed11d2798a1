import Foundation
import SecStore

/// Starts other programs: `secstore exec` replaces the tool with the command (execve(2), so
/// the command keeps the tool's process id, gets signals sent to it directly, and its exit
/// status is the one the caller sees), and `secstore edit` runs `$EDITOR` as a child and
/// waits for it. Neither goes through a shell unless the user's `$EDITOR` is one. Both take
/// the child's environment as a ``ChildEnvironment``, which holds the rule of what a child
/// inherits.
///
/// ```swift
/// let environment = ChildEnvironment(passphrase: passphrase, secrets: [("API_TOKEN", Array(token))])
/// throw ProcessLauncher.replaceProcess(with: ["/bin/sh", "-c", "curl -H \"Authorization: $API_TOKEN\" …"],
///                                      environment: environment)
/// ```
enum ProcessLauncher {
    /// Replaces this process with `arguments[0]`, found in `PATH` as `execvp` finds it (a name
    /// with a `/` is a path), with `environment`. Returns only when no program could be run:
    /// the error then has status 127 (not found) or 126 (found, not runnable), as shells report.
    /// A `PATH` set from a secret is searched but never printed, nor a path found in it.
    static func replaceProcess(with arguments: [String], environment: ChildEnvironment) -> CLIError {
        let command = arguments[0]
        let path = environment.value(of: "PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        let pathIsSecret = !command.contains("/") && environment.holdsSecret("PATH")
        // A path tried, for a message: its directory is part of the secret when the PATH is.
        func shown(_ candidate: String) -> String {
            pathIsSecret ? "\(command) (found in the PATH set from a secret, not shown)" : candidate
        }
        let candidates = command.contains("/") ? [command]
            : path.split(separator: ":", omittingEmptySubsequences: false).map { ($0.isEmpty ? "." : String($0)) + "/" + command }
        var deniedPath: String?
        var lastError = ENOENT
        var lastPath = command
        withCStrings(environment.entries) { envp in
            for candidate in candidates where !command.isEmpty {
                withCStrings(arguments.map { Array($0.utf8) }) { argv in
                    _ = execve(candidate, argv, envp)
                }
                let failure = errno
                if failure == ENOEXEC {
                    // A script without `#!`: run by the shell, as execvp does.
                    withCStrings((["/bin/sh", candidate] + arguments.dropFirst()).map { Array($0.utf8) }) { argv in
                        _ = execve("/bin/sh", argv, envp)
                    }
                }
                lastError = failure
                lastPath = candidate
                switch failure {
                case EACCES:
                    deniedPath = deniedPath ?? candidate
                case ENOENT, ENOTDIR, ESTALE, ELOOP, ENAMETOOLONG, ENODEV, ETIMEDOUT:
                    continue
                default:
                    return
                }
                if command.contains("/") { return }
            }
        }
        if lastError != EACCES, ![ENOENT, ENOTDIR, ESTALE, ELOOP, ENAMETOOLONG, ENODEV, ETIMEDOUT].contains(lastError) {
            return CLIError(.cannotExecute, "Cannot run \(shown(lastPath)): \(String(cString: strerror(lastError))).", name: "cannotExecute")
        }
        if let deniedPath {
            return CLIError(.cannotExecute, "Cannot run \(shown(deniedPath)): permission denied (it is not executable). Nothing was run.", name: "cannotExecute")
        }
        let where_ = command.contains("/") ? "" : pathIsSecret ? " in the PATH set from a secret (its value is not shown)" : " in PATH (\(path))"
        return CLIError(.commandNotFound, "Cannot run \(command.isEmpty ? "an empty command name" : command): not found\(where_). Nothing was run.", name: "commandNotFound")
    }

    /// How a child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// Runs `arguments` (found in this process's `PATH`) as a child on the same terminal, with
    /// `environment`, and waits for it. The child starts with the signal mask the tool started
    /// with, and the default action for the signals the tool takes for its cleanup.
    static func runAndWait(_ arguments: [String], environment: ChildEnvironment) throws -> Termination {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in InterruptCleanup.signalsToDefaultInChildren { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = CrashHygiene.startingSignalMask
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var child: pid_t = 0
        let status = withCStrings(arguments.map { Array($0.utf8) }) { argv in
            withCStrings(environment.entries) { envp in
                posix_spawnp(&child, arguments[0], nil, &attributes, argv, envp)
            }
        }
        guard status == 0 else {
            throw CLIError(.commandNotFound, "Cannot run \(arguments[0]): \(String(cString: strerror(status))).", name: "commandNotFound")
        }
        var waitStatus: Int32 = 0
        while waitpid(child, &waitStatus, 0) < 0 {
            guard errno == EINTR else {
                throw CLIError(.failure, "Cannot wait for \(arguments[0]): \(String(cString: strerror(errno))).", name: "ioFailure")
            }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signalNumber = waitStatus & 0x7F
        return signalNumber == 0 ? .exited((waitStatus >> 8) & 0xFF) : .signaled(signalNumber)
    }

    /// `body` with a NULL-terminated array of C strings copied from `strings`; the copies are
    /// zeroed (they may hold secrets) and freed after.
    private static func withCStrings<R>(_ strings: [[UInt8]], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count) }
            }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer {
            for (pointer, bytes) in zip(pointers, strings) {
                guard let pointer else { continue }
                Wipe.buffer(UnsafeMutableRawBufferPointer(start: pointer, count: bytes.count + 1))
                pointer.deallocate()
            }
        }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
