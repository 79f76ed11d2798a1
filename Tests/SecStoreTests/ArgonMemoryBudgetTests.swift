import Foundation
@testable import SecStore
import Testing

/// The memory Argon2id may take before it runs (`ArgonMemoryBudget`). The command-line tests
/// run it for real under `ulimit -v` and in a memory control group; these read this machine's
/// own files, and file trees in the formats of the hierarchies this machine does not have
/// (cgroup v2 here, v1 on a v2 host), laid out under a temporary root.
@Suite("Argon2id's memory budget") struct ArgonMemoryBudgetTests {
    /// A temporary root with `files` (path → contents) under it.
    private func tree(_ files: [String: String]) throws -> (root: URL, cleanup: () -> Void) {
        let root = FileManager.default.temporaryDirectory.appending(path: "argon-budget-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appending(path: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return (root, { try? FileManager.default.removeItem(at: root) })
    }

    private let plentyOfMemory = "MemTotal: 67108864 kB\nMemFree: 1024 kB\nMemAvailable: 33554432 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n"

    @Test("This machine's budget is positive and no more than its memory and swap")
    func thisMachine() throws {
        let budget = try #require(ArgonMemoryBudget.current(), "/proc/meminfo is readable on Linux")
        let meminfo = try String(contentsOfFile: "/proc/meminfo", encoding: .utf8)
        let total = meminfo.split(separator: "\n").filter { $0.hasPrefix("MemTotal:") || $0.hasPrefix("SwapTotal:") }
            .compactMap { $0.split(whereSeparator: { $0 == " " }).dropFirst().first.flatMap { Int($0) } }.reduce(0, +) * 1024
        #expect(budget.bytes > 0 && budget.bytes <= total, "\(budget) of \(total) bytes")
    }

    @Test("MemAvailable and SwapFree add up; a text without MemAvailable sets no bound")
    func machineFree() {
        #expect(ArgonMemoryBudget.machineFree(meminfo: "MemTotal: 4096 kB\nMemAvailable:    2048 kB\nSwapTotal: 1024 kB\nSwapFree: 512 kB\n")
                == (2048 + 512) * 1024)
        #expect(ArgonMemoryBudget.machineFree(meminfo: "MemTotal: 4096 kB\nMemFree: 2048 kB\n") == nil)
    }

    @Test("cgroup v2: the tightest group from the process's own up to the root, counting its reclaimable file pages")
    func controlGroupVersion2() throws {
        let (root, cleanup) = try tree([
            "proc/meminfo": plentyOfMemory,
            "proc/self/cgroup": "0::/user.slice/app.scope\n",
            "sys/fs/cgroup/user.slice/app.scope/memory.max": "268435456\n",          // 256 MiB
            "sys/fs/cgroup/user.slice/app.scope/memory.current": "104857600\n",      // 100 MiB used,
            "sys/fs/cgroup/user.slice/app.scope/memory.stat": "anon 94371840\ninactive_file 10485760\n",   // 10 MiB reclaimable
            "sys/fs/cgroup/user.slice/memory.max": "max\n",
            "sys/fs/cgroup/user.slice/memory.current": "999999999\n",
        ])
        defer { cleanup() }
        let budget = try #require(ArgonMemoryBudget.current(fileSystemRoot: root.path))
        #expect(budget.bytes == (256 - 100 + 10) << 20)
        #expect(budget.source.contains("control group") && budget.source.contains("/user.slice/app.scope"), "\(budget)")
    }

    @Test("cgroup v1 in a container: /proc names the host's path, the mount shows the container's own group at its root")
    func controlGroupVersion1InAContainer() throws {
        let (root, cleanup) = try tree([
            "proc/meminfo": plentyOfMemory,
            "proc/self/cgroup": "12:pids:/docker/abc\n4:memory:/docker/abc\n1:name=systemd:/docker/abc\n",
            "sys/fs/cgroup/memory/memory.limit_in_bytes": "536870912\n",            // 512 MiB
            "sys/fs/cgroup/memory/memory.usage_in_bytes": "134217728\n",            // 128 MiB
            "sys/fs/cgroup/memory/memory.stat": "cache 0\ntotal_inactive_file 0\n",
        ])
        defer { cleanup() }
        let budget = try #require(ArgonMemoryBudget.current(fileSystemRoot: root.path))
        #expect(budget.bytes == 384 << 20)
        #expect(budget.source.contains("control group"), "\(budget)")
    }

    @Test("cgroup v1's 'no limit' and unreadable files set no bound: the machine's memory does")
    func noLimit() throws {
        let (root, cleanup) = try tree([
            "proc/meminfo": plentyOfMemory,
            "proc/self/cgroup": "4:memory:/\n0::/\n",
            "sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
            "sys/fs/cgroup/memory/memory.usage_in_bytes": "1073741824\n",
        ])
        defer { cleanup() }
        let budget = try #require(ArgonMemoryBudget.current(fileSystemRoot: root.path))
        #expect(budget.bytes == 32 << 30 && budget.source.contains("machine"), "\(budget)")
        #expect(ArgonMemoryBudget.current(fileSystemRoot: root.appending(path: "nothing-here").path) == nil)
    }
}
