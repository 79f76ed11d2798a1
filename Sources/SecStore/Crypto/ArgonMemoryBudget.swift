import Foundation

/// How much memory Argon2id may take in this process now, read before it runs.
///
/// Argon2id's memory is allocated at once and touched block by block, and Linux grants the
/// allocation whatever is free (overcommit): when the limits a store or a backup header names
/// exceed what the machine or the process's control group can give, the kernel's OOM killer
/// ends the process mid-derivation (SIGKILL, no message) or, worse, another process. A backup
/// made on a large machine restored in a small container, or a hostile header within
/// ``PasswordHashingLimits/maximum``, did exactly that. So the derivation is refused first, with
/// what it needs and what there is.
///
/// The budget is the smallest of:
/// - the machine: `MemAvailable` plus `SwapFree` of `/proc/meminfo` (memory that can be had
///   without killing anything, page cache included);
/// - every memory control group the process is in, from its own up to the root (cgroup v2:
///   `memory.max` less `memory.current`, plus the group's reclaimable `inactive_file`;
///   cgroup v1: `memory.limit_in_bytes` less `memory.usage_in_bytes`, plus
///   `total_inactive_file`), as container runtimes compute a container's free memory;
/// - the process's address-space limit (`ulimit -v`, `RLIMIT_AS`) less its `VmSize`.
///
/// A source that cannot be read sets no bound: a missing `/proc` never refuses a derivation.
/// A control group's swap allowance is not counted, so a container that may swap is held to its
/// memory limit.
package struct ArgonMemoryBudget: Equatable, Sendable, CustomStringConvertible {
    /// Bytes Argon2id may take.
    package var bytes: Int
    /// What set the bound, for messages: "the machine's free memory and swap" or "its control
    /// group's memory limit (…)".
    package var source: String

    /// "about 650 MiB (its control group's memory limit, /user.slice)".
    package var description: String { "about \(Self.describe(bytes)) (\(source))" }

    /// The budget now, or `nil` when nothing bounds it (no source could be read).
    package static func current(fileSystemRoot root: String = "/") -> ArgonMemoryBudget? {
        var budgets: [ArgonMemoryBudget] = []
        if let meminfo = read(root, "proc/meminfo"), let free = machineFree(meminfo: meminfo) {
            budgets.append(ArgonMemoryBudget(bytes: free, source: "the machine's free memory and swap"))
        }
        if let membership = read(root, "proc/self/cgroup") {
            budgets += controlGroups(membership: membership, root: root)
        }
        if root == "/", let free = addressSpaceFree() {
            budgets.append(ArgonMemoryBudget(bytes: free, source: "its address-space limit, ulimit -v"))
        }
        return budgets.min { $0.bytes < $1.bytes }
    }

    /// `MemAvailable` + `SwapFree` of a `/proc/meminfo` text, in bytes.
    package static func machineFree(meminfo: String) -> Int? {
        var available: Int?, swapFree = 0
        for line in meminfo.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == ":" })
            guard fields.count >= 2, let kibibytes = Int(fields[1]) else { continue }
            switch fields[0] {
            case "MemAvailable": available = kibibytes.multipliedReportingOverflow(by: 1024).partialValue
            case "SwapFree": swapFree = kibibytes.multipliedReportingOverflow(by: 1024).partialValue
            default: break
            }
        }
        return available.map { $0 &+ swapFree }
    }

    /// The budget of each memory control group with a limit, from the process's own upwards.
    package static func controlGroups(membership: String, root: String) -> [ArgonMemoryBudget] {
        var budgets: [ArgonMemoryBudget] = []
        for line in membership.split(separator: "\n") {
            // "hierarchy-ID:controllers:path"; the path may itself hold colons.
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2].hasPrefix("/") else { continue }
            let path = String(parts[2])
            if parts[0] == "0", parts[1].isEmpty {
                budgets += groupsUpwards(mount: "sys/fs/cgroup", path: path, root: root, version: .two)
            } else if parts[1].split(separator: ",").contains("memory") {
                budgets += groupsUpwards(mount: "sys/fs/cgroup/memory", path: path, root: root, version: .one)
            }
        }
        return budgets
    }

    enum Version { case one, two }

    /// Each group from `path` up to the mount's root. Inside a container the mount shows the
    /// container's own group at its root while `/proc/self/cgroup` may name the host's path:
    /// then only the groups that exist under the mount are read.
    private static func groupsUpwards(mount: String, path: String, root: String, version: Version) -> [ArgonMemoryBudget] {
        var budgets: [ArgonMemoryBudget] = []
        var components = path.split(separator: "/").map(String.init)
        while true {
            let group = components.isEmpty ? "/" : "/" + components.joined(separator: "/")
            let directory = mount + (components.isEmpty ? "" : "/" + components.joined(separator: "/"))
            if let free = groupFree(directory: directory, root: root, version: version) {
                budgets.append(ArgonMemoryBudget(bytes: free, source: "its control group's memory limit, \(group)"))
            }
            if components.isEmpty { break }
            components.removeLast()
        }
        return budgets
    }

    /// A group's limit less its use plus its reclaimable file pages; `nil` without a limit.
    private static func groupFree(directory: String, root: String, version: Version) -> Int? {
        let (limitFile, usageFile, inactiveKey) = switch version {
        case .two: ("memory.max", "memory.current", "inactive_file")
        case .one: ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file")
        }
        guard let limitText = read(root, directory + "/" + limitFile),
              let limit = Int(limitText.trimmingCharacters(in: .whitespacesAndNewlines)),
              // cgroup v1 writes "no limit" as the largest page-aligned Int64.
              limit < Int.max / 2,
              let usageText = read(root, directory + "/" + usageFile),
              let usage = Int(usageText.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        let inactive = read(root, directory + "/memory.stat").flatMap { statValue(inactiveKey, in: $0) } ?? 0
        return max(0, limit - usage + min(inactive, usage))
    }

    /// `RLIMIT_AS` less this process's `VmSize`; `nil` without a limit.
    private static func addressSpaceFree() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
              let status = read("/", "proc/self/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmSize:") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let kibibytes = Int(fields[1]) else { return nil }
            return max(0, Int(clamping: limit.rlim_cur) - kibibytes * 1024)
        }
        return nil
    }

    /// The value of `key` in a `memory.stat` text ("key value" lines).
    package static func statValue(_ key: String, in stat: String) -> Int? {
        for line in stat.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == key { return Int(fields[1]) }
        }
        return nil
    }

    /// A small system file's text, or `nil`; at most 16 KiB are read (each of these files is
    /// a few hundred bytes to a few KiB), through ``DescriptorReader``, the one read(2) loop
    /// for small files. Opened non-blocking: nothing here waits on a file that is not one.
    private static func read(_ root: String, _ path: String) -> String? {
        let descriptor = open(root.hasSuffix("/") ? root + path : root + "/" + path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        guard let count = try? DescriptorReader.fill(&buffer, from: descriptor, path: path, describing: "a memory statistic") else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// "650 MiB", "2.0 GiB".
    package static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 30 ? String(format: "%.1f GiB", Double(bytes) / Double(1 << 30)) : "\(bytes >> 20) MiB"
    }
}
