import ArgumentParser
import Foundation
import SecStore
import SecStoreSync

/// How `sync init` and `sync join` reach etcd. The password never comes from the command
/// line (other users can read a process's arguments): from `--password-file` or
/// `$SECSTORE_ETCD_PASSWORD`.
///
/// ```
/// secstore sync init --endpoints http://10.0.0.1:2379,http://10.0.0.2:2379 --user alice --password-file ~/.etcd-pass
/// ```
struct SyncConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("etcd's client URLs, comma-separated (each member of the cluster).", valueName: "urls"))
    var endpoints: String

    @Option(help: ArgumentHelp("The etcd key prefix the circle lives under.", valueName: "prefix"))
    var prefix = "secstore"

    @Option(help: ArgumentHelp("etcd's user, when etcd has authentication on.", valueName: "name"))
    var user: String?

    @Option(name: .customLong("password-file"), help: ArgumentHelp(
        "A file whose first line is etcd's password (else $SECSTORE_ETCD_PASSWORD); a regular file must be private to you (mode 0600 or 0400), a stream such as <(pass etcd) is read as it comes.", valueName: "path"),
        completion: .file())
    var passwordFile: String?

    @Option(name: .customLong("ca-file"), help: ArgumentHelp(
        "TLS: a PEM file of the certificate authorities that sign etcd's certificates (default: the system's).",
        valueName: "path"), completion: .file())
    var certificateAuthorityFile: String?

    @Option(name: .customLong("cert-file"), help: ArgumentHelp(
        "TLS: a client certificate (PEM) for etcd's --client-cert-auth.", valueName: "path"), completion: .file())
    var clientCertificateFile: String?

    @Option(name: .customLong("key-file"), help: ArgumentHelp(
        "TLS: the client certificate's private key (PEM).", valueName: "path"), completion: .file())
    var clientKeyFile: String?

    func validate() throws {
        let urls = endpointList
        guard !urls.isEmpty, urls.allSatisfy({ ["http", "https"].contains(URL(string: $0)?.scheme ?? "") && URL(string: $0)?.host != nil }) else {
            throw ValidationError("--endpoints takes etcd client URLs such as http://127.0.0.1:2379 or https://etcd1:2379, comma-separated.")
        }
        let tlsFiles = [certificateAuthorityFile, clientCertificateFile, clientKeyFile].compactMap { $0 }
        if !tlsFiles.isEmpty && !urls.allSatisfy({ $0.hasPrefix("https://") }) {
            throw ValidationError("--ca-file, --cert-file and --key-file apply to https:// endpoints; give every endpoint as https://.")
        }
        if (clientCertificateFile == nil) != (clientKeyFile == nil) {
            throw ValidationError("--cert-file and --key-file go together.")
        }
        guard !prefix.isEmpty, !prefix.contains("/"), prefix.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ValidationError("--prefix takes one word without '/' or spaces, such as secstore.")
        }
    }

    var endpointList: [String] {
        endpoints.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func connection() throws -> SyncConnection {
        var password: String?
        if user != nil {
            if let passwordFile {
                // The tool's rule for a passphrase file: its first line; a regular file must be
                // private to this user; a stream (`<(pass etcd)`, a FIFO) is read as it comes.
                password = try PassphraseSource.file(passwordFile).read(what: "etcd password")
            } else {
                password = ProcessInfo.processInfo.environment["SECSTORE_ETCD_PASSWORD"]
            }
        }
        // Absolute paths: the daemon runs later, from another directory.
        func absolute(_ path: String?) -> String? { path.map { URL(filePath: $0).standardizedFileURL.path } }
        return SyncConnection(endpoints: endpointList, prefix: prefix, user: user, password: password,
                              certificateAuthorityFile: absolute(certificateAuthorityFile),
                              clientCertificateFile: absolute(clientCertificateFile), clientKeyFile: absolute(clientKeyFile))
    }
}
