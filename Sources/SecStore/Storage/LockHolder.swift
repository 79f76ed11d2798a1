import Foundation

/// Who holds a store's write lock, from the kernel's table of file locks (`/proc/locks`),
/// so that "the store stayed locked" can say which process to look at. SQLite in WAL mode
/// takes its write lock as a POSIX lock on byte 120 of the `-shm` file.
enum LockHolder {
    /// `process 1234 (name)` holding a write lock on the store's `-shm` file (byte 120) or
    /// on the store file itself; nil when none can be found (another machine over NFS, no
    /// /proc, or the lock is gone).
    static func describe(storePath: String) -> String? {
        guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let candidates: [(path: String, start: String?)] = [(storePath + "-shm", "120"), (storePath, nil)]
        for candidate in candidates {
            var info = stat()
            guard stat(candidate.path, &info) == 0 else { continue }
            let inode = String(info.st_ino)
            for line in table.split(separator: "\n") {
                // "1: POSIX  ADVISORY  WRITE 1234 08:01:5678 120 120"
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 8, fields[1] == "POSIX", fields[3] == "WRITE",
                      fields[5].split(separator: ":").last.map(String.init) == inode,
                      candidate.start.map({ String(fields[6]) == $0 }) ?? true,
                      let pid = Int32(fields[4]), pid != getpid() else { continue }
                let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                return "process \(pid)" + (name.map { " (\($0))" } ?? "")
            }
        }
        return nil
    }
}
