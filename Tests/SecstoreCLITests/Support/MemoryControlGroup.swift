import Foundation

/// A memory control group of its own with a limit, for running one command as a container with
/// that much memory would (cgroup v1's memory hierarchy, or cgroup v2 with the memory controller
/// enabled at its root). Needs root; ``isAvailable`` says whether this machine allows it.
/// Removed (`rmdir`) by ``remove()`` once the command has exited.
struct MemoryControlGroup {
    let directory: String
    let version: Int

    private static let version1Root = "/sys/fs/cgroup/memory"
    private static let version2Root = "/sys/fs/cgroup"

    /// Root, and a memory hierarchy this process may create groups in: a probe group is made
    /// with a limit and removed (a container's read-only or delegated hierarchy refuses).
    static let isAvailable: Bool = {
        guard getuid() == 0 else { return false }
        if !FileManager.default.fileExists(atPath: version1Root + "/cgroup.procs") {
            let control = (try? String(contentsOfFile: version2Root + "/cgroup.subtree_control", encoding: .utf8)) ?? ""
            guard control.split(whereSeparator: \.isWhitespace).contains("memory") else { return false }
        }
        guard let probe = try? MemoryControlGroup(limit: 64 << 20) else { return false }
        probe.remove()
        return true
    }()

    /// A new group limited to `limit` bytes of memory (and no swap where the kernel lets that be said).
    init(limit: Int) throws {
        let name = "secstore-test-\(UUID().uuidString)"
        if FileManager.default.fileExists(atPath: Self.version1Root + "/cgroup.procs") {
            directory = Self.version1Root + "/" + name
            version = 1
        } else {
            directory = Self.version2Root + "/" + name
            version = 2
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        do {
            try write("\(limit)", to: version == 1 ? "memory.limit_in_bytes" : "memory.max")
        } catch {
            remove()
            throw error
        }
        if version == 2 { try? write("0", to: "memory.swap.max") }
    }

    /// `/bin/sh` arguments that move the shell into this group, then run `executable` with
    /// `arguments` there.
    func shellArguments(running executable: URL, _ arguments: [String]) -> [String] {
        ["-c", "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"", directory, executable.path] + arguments
    }

    /// Removes the group; its processes must have exited.
    func remove() {
        rmdir(directory)
    }

    private func write(_ text: String, to file: String) throws {
        try Data(text.utf8).write(to: URL(filePath: directory + "/" + file))
    }
}
