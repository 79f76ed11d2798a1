import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one reading of a machine-id file (machine-id(5), `/etc/machine-id`): DeviceIdentity's
/// derivation computes from it and the Secret Service provider answers `GetMachineId` with it.
/// A bounded read of a regular file (``DescriptorReader/contentsOrRefusal(ofRegularFile:atMost:writtenOnlyBy:)``:
/// a FIFO, a device or a huge file there is refused, never waited on or read whole) that holds
/// 32 hex digits, not all zero, with whitespace around them allowed (the file ends with a line
/// break).
///
/// ```swift
/// switch MachineIDFile.read(MachineIDFile.systemPath) {
/// case .success(let id): print(Hex.string(id))
/// case .failure(let problem): print("\(MachineIDFile.systemPath): \(problem)")
/// }
/// ```
package enum MachineIDFile {
    /// systemd's machine id, which `dbus-daemon` answers `GetMachineId` with too.
    package static let systemPath = "/etc/machine-id"

    /// The longest file read: a well-formed one has 33 bytes.
    package static let maximumByteCount = 4096

    /// Why a file gave no machine id.
    package enum Problem: Error, Equatable, CustomStringConvertible {
        /// It could not be read as a small regular file (``DescriptorReader/Refusal``).
        case unreadable(DescriptorReader.Refusal)
        /// It was read, and is not 32 hex digits (or is all zeros, systemd's "no id").
        case malformed

        /// The problem in a few words: "there is no such file".
        package var description: String {
            switch self {
            case .unreadable(.cannotOpen(ENOENT)): "there is no such file"
            case .unreadable(.cannotOpen(let code)): "it cannot be opened (\(String(cString: strerror(code))))"
            case .unreadable(.notRegularFile): "it is not a regular file (a FIFO, a device, a socket or a directory)"
            case .unreadable(.writableByOthers(let owner, let mode)):
                "someone other than you or root could have written it (it belongs to user \(owner), mode \(String(mode, radix: 8)))"
            case .unreadable(.readFailed): "reading it failed"
            case .unreadable(.tooLarge): "it is larger than \(MachineIDFile.maximumByteCount) bytes"
            case .malformed: "it does not hold a machine id (32 hex digits, not all zero)"
            }
        }
    }

    /// The 16 bytes of the machine id in the file at `path`, or why there are none. With
    /// `writers`, a file someone else could have written is refused
    /// (``FileSecurity/othersCouldHaveWritten(descriptor:besides:)``): whoever can write a
    /// machine id chooses what is computed from it.
    package static func read(_ path: String, writtenOnlyBy writers: FileSecurity.Writers? = nil) -> Result<[UInt8], Problem> {
        let contents: [UInt8]
        switch DescriptorReader.contentsOrRefusal(ofRegularFile: path, atMost: maximumByteCount, writtenOnlyBy: writers) {
        case .success(let bytes): contents = bytes
        case .failure(let refusal): return .failure(.unreadable(refusal))
        }
        guard let text = String(validating: contents, as: UTF8.self),
              let id = Hex.bytes(text.trimmingCharacters(in: .whitespacesAndNewlines)),
              id.count == 16, id.contains(where: { $0 != 0 })
        else { return .failure(.malformed) }
        return .success(id)
    }
}
