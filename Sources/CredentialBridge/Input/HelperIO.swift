#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SecStore

/// A helper's three streams: its input, its answer, its diagnostics. ``standard`` is the
/// process's; tests pass their own.
///
/// ```swift
/// let status = GitCredentialHelper.run(arguments: ["get"], io: .standard, opener: opener)
/// ```
public struct HelperIO: Sendable {
    /// Reads the whole request (``BoundedInput``); `true` stops at the first empty line.
    public var readInput: @Sendable (_ stoppingAtBlankLine: Bool) throws(BridgeError) -> [UInt8]
    /// Writes to the answer stream (standard output).
    public var writeOutput: @Sendable (String) -> Void
    /// Writes to the diagnostics stream (standard error).
    public var writeError: @Sendable (String) -> Void

    /// Streams from these functions.
    ///
    /// ```swift
    /// let io = HelperIO(readInput: { _ in Array("protocol=https\nhost=example.com\n".utf8) },
    ///                   writeOutput: { print($0, terminator: "") }, writeError: { _ in })
    /// ```
    public init(readInput: @escaping @Sendable (_ stoppingAtBlankLine: Bool) throws(BridgeError) -> [UInt8],
                writeOutput: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void) {
        self.readInput = readInput
        self.writeOutput = writeOutput
        self.writeError = writeError
    }

    /// Standard input (bounded), standard output and standard error.
    public static let standard = HelperIO(
        readInput: { stopping throws(BridgeError) in try BoundedInput.read(from: STDIN_FILENO, stoppingAtBlankLine: stopping) },
        writeOutput: { writeAll($0, to: STDOUT_FILENO) },
        writeError: { writeAll($0, to: STDERR_FILENO) })

    /// Writes every byte of `text` (SecStore's one write loop, ``DescriptorWriter``); a closed
    /// stream drops the rest.
    private static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        defer { BoundedInput.wipe(&bytes) }
        _ = bytes.withUnsafeBytes { DescriptorWriter.writeAll($0, to: descriptor) }
    }
}
