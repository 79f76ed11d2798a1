import CSystemdBus
import Glibc

/// Appends an `ay` to an sd-bus message as a memfd part (`sd_bus_message_append_array_memfd`):
/// the bytes go into a memfd of their own (an anonymous file, kept in kernel memory) with
/// write(2), and never into the message's body, which sd-bus grows with `realloc` and whose
/// earlier blocks it frees unzeroed. Sending the message to a socket (the bus daemon), sd-bus
/// maps the part read-only and writes it with the rest; freeing the message, it unmaps the part
/// and closes its descriptor, and the kernel frees the file's pages with it. The process never
/// maps the file writable, so the bytes are nowhere in its memory once the message is freed.
///
/// One memfd per `ay`: sd-bus seals each one it is given (`F_SEAL_SEAL` among the seals), and a
/// sealed memfd cannot be sealed again, so two parts cannot share one at different offsets. The
/// message holds a duplicate of each descriptor until it is freed; this one is closed here.
///
/// A message that carries such a part must not be marked sensitive while it is unsent:
/// libsystemd 252 zeroes each part of a marked message it frees unsent, a memfd part through its
/// data pointer, null until the part is mapped for sending (read-only after), and crashes
/// (``BusConnection`` builds replies unmarked).
///
/// ```swift
/// try MemfdPart.append(secret, to: reply)   // secret.count > 0
/// ```
enum MemfdPart {
    /// Appends the non-empty `bytes` to `message` as an `ay` in a memfd of its own. Running out
    /// of descriptors is `LimitsExceeded`, of memory `NoMemory`; nothing is appended then.
    static func append(_ bytes: [UInt8], to message: OpaquePointer) throws(BusError) {
        precondition(!bytes.isEmpty, "sd-bus takes no empty memfd part")
        let descriptor = csystemdbus_memfd_create("secstore-secret-service")
        guard descriptor >= 0 else { throw failure(-descriptor) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            written += count
        }
        errno = 0
        let result = sd_bus_message_append_array_memfd(message, CChar(UInt8(ascii: "y")), descriptor, 0, UInt64(bytes.count))
        guard result >= 0 else {
            // libsystemd 252 returns fcntl's -1 itself when it cannot duplicate the descriptor.
            throw failure(result == -1 && errno != 0 ? errno : -result)
        }
    }

    /// Raises this process's soft limit on open descriptors to its hard limit, for the
    /// provider's connection: a reply holds one descriptor per secret until it is sent, and
    /// a `GetSecrets` may serve 4,096 items, where systemd starts services with a soft limit of
    /// 1,024 (and a hard one of 524,288). Nothing here uses select(2), which the soft limit
    /// protects. A limit still too low makes such a reply `LimitsExceeded`, never a crash.
    ///
    /// ```swift
    /// MemfdPart.raiseDescriptorLimit()
    /// ```
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// The protocol's error for `code` (an errno).
    private static func failure(_ code: Int32) -> BusError {
        switch code {
        case EMFILE, ENFILE:
            .limitsExceeded("The provider has too many open files to send these secrets (each travels in a memory file of its own); ask for fewer items per call.")
        case ENOMEM, ENOSPC:
            .noMemory("The provider has not the memory to send these secrets.")
        default:
            .failed("The reply could not be built (error \(code)).")
        }
    }
}
