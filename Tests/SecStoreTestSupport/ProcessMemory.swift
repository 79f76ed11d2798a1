import Foundation
import Glibc

/// Reads another process's writable memory (`/proc/PID/maps` and `/proc/PID/mem`) to look for
/// bytes that should no longer be there: a secret a process (the Secret Service provider, a
/// program that searched the store) held, after it was done with it. Freed heap blocks keep
/// their bytes until reused, so a copy that was freed unwiped is found; one that was zeroed is
/// not.
///
/// The provider makes itself non-dumpable (`CrashHygiene`), so only a reader with
/// `CAP_SYS_PTRACE` may read its memory: ``canReadNonDumpableProcesses`` says whether this one
/// can.
///
/// ```swift
/// let found = try ProcessMemory.copies(of: secret, in: provider.processIdentifier)
/// #expect(found.isEmpty, "\(found)")
/// ```
public enum ProcessMemory {
    /// Whether this process has `CAP_SYS_PTRACE` (bit 19 of `CapEff`), which reading a
    /// non-dumpable process's memory takes.
    public static let canReadNonDumpableProcesses: Bool = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
              let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << 19) != 0
    }()

    /// How far apart the pieces of a long secret that are looked for start, and how long each
    /// is. A freed heap block's first bytes are overwritten by the allocator's own pointers, so
    /// a long secret is looked for piece by piece: any copy of at least `stride + length` bytes
    /// of it contains a whole piece. A shorter secret is looked for whole.
    static let stride = 128
    static let length = 32

    /// Writable mappings larger than this are passed over: only a sanitizer's shadow memory is
    /// that large (under `scripts/sanitizers.sh`, ASan's high shadow is a 14 TiB mapping;
    /// TSan's shadow and meta maps are 5 to 20 TiB, and a 32 GiB part of them once touched),
    /// reserved and almost all untouched, and it holds the sanitizer's record of the program's
    /// memory, never the program's bytes. Reading it would take hours (a scan of one ASan
    /// provider was still in its high shadow after 30 minutes; TSan's 32 GiB, read for each of
    /// 192 secrets, stalled `servedManySecrets`). No heap, stack or data mapping of the
    /// provider comes near 4 GiB.
    static let largestScannedMapping: UInt64 = 1 << 32

    /// What a process whose memory will be scanned adds to its environment: under
    /// AddressSanitizer (`scripts/sanitizers.sh address`), no fake stacks. ASan, detecting
    /// use after return (on by default on Linux), gives each instrumented function's frame a
    /// slot in a "fake stack" of its own (an anonymous mapping of some MiB) and leaves a
    /// returned frame there until that slot comes round again, where on the real stack the next
    /// call writes over it: a 12-byte secret, inline in a `Data` local, was found in dozens of
    /// dead frames after every call, and in none with `detect_stack_use_after_return=0` or in
    /// the ordinary build. Only these processes go without; the rest of the run keeps it.
    ///
    /// ```swift
    /// let provider = try Provider(bus: try PrivateBus(), environment: ProcessMemory.scannedProcessEnvironment)
    /// ```
    public static var scannedProcessEnvironment: [String: String] {
        guard let options = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] else { return [:] }
        return ["ASAN_OPTIONS": options + ":detect_stack_use_after_return=0"]
    }

    /// Where `secret` (or, for a long one, pieces of it) occurs in the writable memory of
    /// process `pid`: one line per hit, naming the mapping and the offset. Fails when the
    /// memory cannot be read at all (a test must not pass by reading nothing). A secret of at
    /// least 8 random bytes is found nowhere by chance.
    public static func copies(of secret: [UInt8], in pid: pid_t) throws -> [String] {
        precondition(secret.count >= 8, "a secret of at least 8 bytes")
        let pieces = secret.count < stride + length ? [secret]
            : Swift.stride(from: 0, through: secret.count - length, by: stride).map { Array(secret[$0..<$0 + length]) }
        let overlap = pieces[0].count
        let maps = try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)
        let descriptor = open("/proc/\(pid)/mem", O_RDONLY)
        guard descriptor >= 0 else { throw ReadFailure(message: "cannot open /proc/\(pid)/mem: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var hits = Set<String>()   // a piece in the overlap of two reads is found twice
        var bytesRead = 0
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk + overlap)
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("rw") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard bounds.count == 2, bounds[1] - bounds[0] <= largestScannedMapping else { continue }
            let name = fields.count >= 6 ? String(fields[5]) : "[anonymous]"
            var start = bounds[0]
            while start < bounds[1] {
                // Each read overlaps the previous one by a piece, so no piece is split between two.
                let want = Int(min(UInt64(chunk + overlap), bounds[1] - start))
                let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, off_t(Int64(bitPattern: start))) }
                guard got > 0 else { break }   // a mapping the kernel will not read (a guard page): skip it
                bytesRead += got
                buffer.withUnsafeBytes { memory in
                    for (index, piece) in pieces.enumerated() {
                        for offset in Self.occurrences(of: piece, in: UnsafeRawBufferPointer(rebasing: memory[..<got])) {
                            hits.insert("piece \(index) of the secret at \(name) + 0x\(String(start + UInt64(offset) - bounds[0], radix: 16))")
                        }
                    }
                }
                guard got > overlap else { break }
                start += UInt64(got - overlap)
            }
        }
        guard bytesRead > 0 else { throw ReadFailure(message: "read nothing of process \(pid)'s memory") }
        return hits.sorted()
    }

    /// The process's memory could not be read at all.
    public struct ReadFailure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The offsets of `needle` in `memory`: `memchr` for its first byte, then a comparison.
    private static func occurrences(of needle: [UInt8], in memory: UnsafeRawBufferPointer) -> [Int] {
        guard let base = memory.baseAddress, memory.count >= needle.count else { return [] }
        var offsets: [Int] = []
        var from = 0
        let last = memory.count - needle.count
        needle.withUnsafeBytes { needle in
            while from <= last, let found = memchr(base + from, Int32(needle[0]), last - from + 1) {
                let offset = base.distance(to: UnsafeRawPointer(found))
                if memcmp(found, needle.baseAddress!, needle.count) == 0 { offsets.append(offset) }
                from = offset + 1
            }
        }
        return offsets
    }
}
