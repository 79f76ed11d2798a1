import Foundation
import Glibc
import SecStore

/// Per-binary access: which access groups (collections) an executable may use, beyond the
/// default collection every caller has. The policy for `/usr/bin/tool` is the entitlements
/// file `<directory>/usr/bin/tool.entitlements` (SecStore's entitlements format:
/// `keychain-access-groups`, `application-identifier`, `com.apple.security.application-groups`);
/// its ``Entitlements/accessGroups`` are the groups granted.
///
/// A policy file counts only when it and every directory up to `directory` belong to the
/// provider's user (or root) and are not writable by group or others: a policy anyone else
/// could write would grant nothing.
struct BinaryPolicy {
    let directory: URL
    /// Receives one line when a policy file is ignored (never a secret).
    var log: (String) -> Void = { _ in }

    /// The default location: `$XDG_CONFIG_HOME/secstore/secret-service`, else `~/.config/…`.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(filePath: $0) : nil }
            ?? URL(filePath: environment["HOME"] ?? NSHomeDirectory()).appending(path: ".config")
        return config.appending(path: "secstore/secret-service", directoryHint: .isDirectory)
    }

    /// The policy file of an executable.
    func file(for executable: String) -> URL {
        URL(filePath: directory.path + executable + ".entitlements")
    }

    /// The groups granted to `executable`; none without a (trustworthy, valid) policy file.
    func groups(for executable: String) -> [String] {
        guard executable.hasPrefix("/"), !executable.contains("/../") else { return [] }
        let url = file(for: executable)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        guard isTrusted(url) else {
            log("ignoring the policy \(url.path): it or a directory above it is writable by others or owned by another user")
            return []
        }
        do {
            // Safe against a FIFO or device at the path (which would block the provider, one
            // thread for every client): Foundation opens with O_NONBLOCK and refuses anything
            // but a regular file on the open descriptor (PerBinaryAccessTests.fifoPolicy).
            return try Entitlements(contentsOf: url).accessGroups
        } catch {
            log("ignoring the policy \(url.path): \(error)")
            return []
        }
    }

    /// The file and its directories up to ``directory`` are owned by this user or root and not
    /// group- or world-writable.
    private func isTrusted(_ url: URL) -> Bool {
        var path = url.path
        let stop = directory.deletingLastPathComponent().path
        while path.count > 1 && path != stop {
            var info = stat()
            guard lstat(path, &info) == 0 else { return false }
            let owner = info.st_uid
            guard owner == getuid() || owner == 0, info.st_mode & (S_IWGRP | S_IWOTH) == 0 else { return false }
            path = (path as NSString).deletingLastPathComponent
        }
        return true
    }
}
