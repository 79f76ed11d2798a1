import Foundation

/// The rule that every argument is UTF-8 text, checked on the raw bytes of `argv` before
/// anything is parsed, so that it holds for every command and option, a command's words
/// after `--` included.
///
/// Swift decodes `argv` with replacement characters: `caf\xE9` and `caf\xE8` (Latin-1
/// names from an old script or file name) would both become `caf\u{FFFD}`, two names one
/// item, and `add --update` would overwrite the other one's secret. A file that is not UTF-8
/// is refused the same way by `import --format` (``PlaintextImport``).
///
/// ```swift
/// try CommandLineText.requireUTF8()   // in main(), before parsing
/// ```
enum CommandLineText {
    /// The position of the first argument that is not UTF-8 (1 is the first after the
    /// program's name), or `nil` when all are.
    static func firstNonUTF8Argument(_ arguments: [[UInt8]]) -> Int? {
        arguments.firstIndex { String(validating: $0, as: UTF8.self) == nil }.map { $0 + 1 }
    }

    /// The process's arguments after the program's name, as the bytes it was given.
    static var rawArguments: [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)).bindMemory(to: UInt8.self))
        }
    }

    /// Throws a usage error naming the position (never the bytes) of the first argument that
    /// is not UTF-8.
    static func requireUTF8(_ arguments: [[UInt8]] = rawArguments) throws(CLIError) {
        guard let position = firstNonUTF8Argument(arguments) else { return }
        throw CLIError.usage("Argument \(position) is not UTF-8 text (counting from the first after secstore). Every argument is read as UTF-8, and one decoded with replacement characters could name another item; convert it first (for Latin-1: iconv -f latin1 -t utf-8). Nothing was done.")
    }
}
