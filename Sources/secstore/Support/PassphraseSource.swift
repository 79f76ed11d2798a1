import ArgumentParser
import Foundation
import SecStore

/// Where one passphrase comes from. Without a source the tool asks at the terminal.
///
/// Every source yields one line without its line ending: the first line of a file, the
/// next line of standard input (so several passphrases can be piped, one per line), or
/// an environment variable's whole value. Environment variables are read only when named
/// with a `--…-env` option: they leak into child processes and `/proc/PID/environ`.
///
/// ```swift
/// let passphrase = try PassphraseSource.file("/run/secrets/store").read()
/// ```
enum PassphraseSource: Equatable {
    case stdin
    case file(String)
    case environment(String)

    init?(stdin: Bool, file: String?, environment: String?) {
        if stdin {
            self = .stdin
        } else if let file {
            self = .file(file)
        } else if let environment {
            self = .environment(environment)
        } else {
            return nil
        }
    }

    static func validate(stdin: Bool, file: String?, environment: String?, prefix: String) throws {
        if [stdin, file != nil, environment != nil].filter({ $0 }).count > 1 {
            throw ValidationError("Give at most one of \(prefix)-stdin, \(prefix)-file and \(prefix)-env.")
        }
        if let environment, environment.isEmpty {
            throw ValidationError("\(prefix)-env takes the name of an environment variable.")
        }
    }

    /// The passphrase. Throws a usage error for an empty one or an unreadable source.
    func read(what: String) throws -> String {
        var bytes: [UInt8] = []
        // Every byte copy made here is wiped; the String returned is the one copy kept.
        defer { Wipe.bytes(&bytes) }
        switch self {
        case .stdin:
            bytes = StandardInput.readLine()
            guard !bytes.isEmpty else {
                throw CLIError.usage("Standard input gave no \(what) (an empty line or end of input). Write it as one line.")
            }
        case .file(let path):
            var data = try InputFile.read(path, what: what, limit: 64 * 1024) { try Self.refuseIfShared($0, path: path, what: what) }
            defer { Wipe.data(&data) }
            bytes = Array(data.prefix { $0 != UInt8(ascii: "\n") })
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        case .environment(let name):
            guard let value = ProcessInfo.processInfo.environment[name] else {
                throw CLIError.usage("The environment variable \(name) is not set. Export it, or pass the \(what) another way.")
            }
            bytes = Array(value.utf8)
        }
        guard !bytes.isEmpty else {
            throw CLIError.usage("The \(what) is empty. Give a non-empty passphrase.")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError.usage("The \(what) is not valid UTF-8 text.")
        }
        return text
    }

    /// A passphrase in a regular file another user owns, or others can read, protects nothing:
    /// refused by the library's own rule for `SECSTORE_PASSPHRASE_FILE` and key files
    /// (``FileSecurity/checkPrivate(descriptor:path:what:)``), on the opened descriptor, so the
    /// file cannot be swapped after the check. Streams (`/dev/stdin`, `<(…)`, FIFOs) have no
    /// such mode and are read as they come.
    private static func refuseIfShared(_ descriptor: Int32, path: String, what: String) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        try FileSecurity.checkPrivate(descriptor: descriptor, path: path, what: "\(what) file")
    }
}
