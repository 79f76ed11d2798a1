import Foundation
import Glibc

/// The executable a process runs, from `/proc/<pid>/exe`: the kernel's record of the file it
/// executed, which the process cannot rewrite (docs/secret-service.md says what it does not
/// prove: a process of the same user can still be ptraced or LD_PRELOADed).
enum CallerExecutable {
    /// The absolute path, or `nil` when the process is gone or not readable (another user's,
    /// or ptrace-restricted). A deleted or replaced file reads as `nil`: its policy no longer applies.
    static func path(of pid: pid_t) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasSuffix(" (deleted)") ? nil : path
    }
}
