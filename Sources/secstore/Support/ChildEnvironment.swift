import Foundation

/// The environment of a program the tool starts (the command of `secstore exec`, the
/// `$EDITOR` of `secstore edit`): the one rule both follow, and the only way to start one
/// (``ProcessLauncher`` takes nothing else).
///
/// It is the tool's own environment without the variable the store passphrase was read from
/// (`--passphrase-env NAME`: the passphrase opened the store for the tool; the child, and all
/// it starts in turn, must not inherit it), then the secrets `exec` sets. It remembers which
/// variables hold secrets, so that a message about the child never prints their values
/// (``holdsSecret(_:)``).
///
/// ```swift
/// let environment = ChildEnvironment(passphrase: passphrase, secrets: [("API_TOKEN", Array(token))])
/// throw ProcessLauncher.replaceProcess(with: ["./deploy.sh"], environment: environment)
/// ```
struct ChildEnvironment {
    /// `NAME=value` byte strings, as execve(2) and posix_spawn(3) take them.
    let entries: [[UInt8]]
    /// The names whose values are secrets from the store.
    private let secretNames: Set<String>

    /// This process's environment without the variable `passphrase` names and without the
    /// variables being set, then `secrets` (in order).
    init(passphrase: PassphraseOptions, secrets: [(name: String, value: [UInt8])] = []) {
        var withheld = Set(secrets.map(\.name))
        if case .environment(let name)? = passphrase.source { withheld.insert(name) }
        var entries: [[UInt8]] = []
        var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        while let entry = pointer?.pointee {
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self),
                                                  count: strlen(entry)))
            let name = String(decoding: bytes.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self)
            if !withheld.contains(name) { entries.append(bytes) }
            pointer = pointer?.advanced(by: 1)
        }
        for (name, value) in secrets { entries.append(Array(name.utf8) + [UInt8(ascii: "=")] + value) }
        self.entries = entries
        secretNames = Set(secrets.map(\.name))
    }

    /// The value of `name`, or `nil` when it is not set.
    func value(of name: String) -> String? {
        let prefix = Array(name.utf8) + [UInt8(ascii: "=")]
        guard let entry = entries.last(where: { $0.starts(with: prefix) }) else { return nil }
        return String(decoding: entry.dropFirst(prefix.count), as: UTF8.self)
    }

    /// Whether `name` was set from a secret: its value must not appear in any message.
    func holdsSecret(_ name: String) -> Bool {
        secretNames.contains(name)
    }
}
