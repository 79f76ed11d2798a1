import Foundation
import SeededRandom
#if canImport(Glibc)
import Glibc
#endif

/// Monotonic nanoseconds (`CLOCK_MONOTONIC`): immune to wall-clock changes.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// CPU time this thread has used, in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`): unlike wall
/// time, it does not grow while other processes have the cores.
func threadCPUNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Wall and thread-CPU time of `body`, in nanoseconds.
func measureWallAndCPU(_ body: () throws -> Void) rethrows -> (wall: UInt64, cpu: UInt64) {
    let wall = monotonicNanoseconds()
    let cpu = threadCPUNanoseconds()
    try body()
    return (monotonicNanoseconds() - wall, threadCPUNanoseconds() - cpu)
}

/// How long `body` takes, in nanoseconds.
func measureNanoseconds(_ body: () throws -> Void) rethrows -> UInt64 {
    let start = monotonicNanoseconds()
    try body()
    return monotonicNanoseconds() - start
}

/// The median of `values`, which must not be empty.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The process's resident memory, from `/proc/self/status` (Linux).
struct MemoryStatus: Codable, Equatable {
    /// `VmHWM`: the peak resident set since the process started, in KiB.
    var peakKiB: Int
    /// `VmRSS`: the resident set now, in KiB.
    var currentKiB: Int

    /// `nil` where `/proc/self/status` is unavailable (not Linux). `trimmingFreedHeap` first
    /// calls glibc's `malloc_trim(0)`, which returns freed heap pages to the kernel, so the
    /// resident figure is live memory rather than what the allocator keeps for reuse.
    static func current(trimmingFreedHeap: Bool = false) -> MemoryStatus? {
        if trimmingFreedHeap { trimFreedHeap() }
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        var peak: Int?
        var current: Int?
        for line in text.split(separator: "\n") {
            // Lines look like "VmHWM:\t   12345 kB".
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let value = Int(fields[1]) else { continue }
            if fields[0] == "VmHWM:" { peak = value }
            if fields[0] == "VmRSS:" { current = value }
        }
        guard let peak, let current else { return nil }
        return MemoryStatus(peakKiB: peak, currentKiB: current)
    }
}

/// glibc's `malloc_trim(0)`, looked up at run time (the Glibc module does not import
/// `malloc.h`); nothing where it does not exist.
private func trimFreedHeap() {
    typealias MallocTrim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
}

/// The first three fields of `/proc/loadavg`, or "n/a".
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "n/a" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

/// The items both sides store: item `i` of a store of `size` items has account `acct-<i>`,
/// service `svc-<i mod S>` where `S = max(1, size / 1,000)`, a 32-byte secret and (for the
/// baseline) a 16-byte lookup key, all derived from `i`, so nothing proportional to the store
/// size is kept in memory and every read can be checked.
///
/// `S` makes every service hold exactly 1,000 items at any size that is a multiple of 1,000
/// (one service at 1,000 items, 100 at 100,000, 1,000 at 1,000,000), each service's items
/// spread evenly through the table as if added over time: the listing targets list one of them.
enum Workload {
    static let secretByteCount = 32
    static let keyByteCount = 16
    static let batchSize = 10_000
    /// Items per service when the size is a multiple of this.
    static let itemsPerService = 1_000

    static func serviceCount(size: Int) -> Int { max(1, size / itemsPerService) }
    static func service(_ index: Int, size: Int) -> String { "svc-\(index % serviceCount(size: size))" }
    static func account(_ index: Int) -> String { "acct-\(index)" }
    /// The service the listing targets list: `svc-0`, with ``listedItemCount(size:)`` items.
    static let listedService = "svc-0"
    /// How many items ``listedService`` holds in a store of `size` items.
    static func listedItemCount(size: Int) -> Int {
        let services = serviceCount(size: size)
        return (size + services - 1) / services
    }

    /// Item `index`'s secret.
    static func secret(_ index: Int) -> [UInt8] {
        bytes(count: secretByteCount, seed: 0x5EC2_E700_0000_0000 ^ UInt64(index))
    }

    /// Item `index`'s 16-byte key in the baseline table: random-looking, like SecStore's
    /// keyed-hash tags, so both B-trees see the same key distribution.
    static func baselineKey(_ index: Int) -> [UInt8] {
        bytes(count: keyByteCount, seed: 0xBA5E_0000_0000_0000 ^ UInt64(index))
    }

    private static func bytes(count: Int, seed: UInt64) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var word = 0
        while result.count < count {
            let value = SplitMix64.mix(seed &+ UInt64(word) &* 0x9E37_79B9_7F4A_7C15)
            withUnsafeBytes(of: value.littleEndian) { result.append(contentsOf: $0.prefix(count - result.count)) }
            word += 1
        }
        return result
    }

    /// `count` item indexes in `0..<size`, in a fixed pseudo-random order.
    static func readOrder(count: Int, size: Int, seed: UInt64) -> [Int] {
        var generator = SplitMix64(seed: seed ^ UInt64(size))
        return (0..<count).map { _ in Int.random(in: 0..<size, using: &generator) }
    }
}

/// Progress lines on standard error, so that `--json` output stays clean.
func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
