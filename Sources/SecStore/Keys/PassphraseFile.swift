import Foundation

/// A store passphrase kept in a file, for services that start without a terminal
/// (`SECSTORE_PASSPHRASE_FILE`, systemd's `LoadCredential=`), and the rule for every other
/// password SecStore's programs read from a file (the provider's `--passphrase-file`, etcd's
/// password for `secstore sync`). The file must be as private as
/// the device key (``FileSecurity/checkPrivate(descriptor:path:what:)``): a passphrase
/// others can read protects nothing, so SecStore refuses it rather than warn.
///
/// ```swift
/// let passphrase = try PassphraseFile.passphrase(at: URL(filePath: "/run/credentials/app.service/secstore"))
/// try store.unlock(passphrase: passphrase)
/// ```
package enum PassphraseFile {
    /// The longest file read; a passphrase is a line, not a document.
    static let maximumByteCount = 64 * 1024

    /// The passphrase: the file's first line (without its newline), UTF-8. `what` names the
    /// file in messages.
    package static func passphrase(at url: URL, describing what: String = "passphrase file") throws(SecStoreError) -> String {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw SecStoreError(.storeUnavailable, "Cannot open the \(what) \(url.path): \(String(cString: strerror(errno))). It must be a regular file you own with mode 0600 or 0400.")
        }
        defer { close(descriptor) }
        do {
            try FileSecurity.checkPrivate(descriptor: descriptor, path: url.path, what: what)
        } catch {
            throw SecStoreError.translating(error, path: url.path)
        }
        var bytes = [UInt8](repeating: 0, count: maximumByteCount + 1)
        defer { Wipe.bytes(&bytes) }
        let total = try DescriptorReader.fill(&bytes, from: descriptor, path: url.path, describing: "the \(what)")
        guard total <= maximumByteCount else {
            throw SecStoreError.invalid("The \(what) \(url.path) is larger than 64 KiB. It should hold the passphrase on its first line.")
        }
        var line = bytes[..<total].prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        guard !line.isEmpty, let passphrase = String(validating: line, as: UTF8.self) else {
            throw SecStoreError.invalid("The \(what) \(url.path) is empty or not UTF-8 text. Put the passphrase on its first line.")
        }
        return passphrase
    }
}
