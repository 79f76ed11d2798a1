import ArgumentParser
import Foundation
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
        "A file holding etcd's password (else $SECSTORE_ETCD_PASSWORD).", valueName: "path"), completion: .file())
    var passwordFile: String?

    func validate() throws {
        let urls = endpointList
        guard !urls.isEmpty, urls.allSatisfy({ URL(string: $0)?.scheme == "http" && URL(string: $0)?.host != nil }) else {
            throw ValidationError("--endpoints takes etcd client URLs such as http://127.0.0.1:2379, comma-separated.")
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
                guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                    throw ValidationError("Cannot read the password file \(passwordFile).")
                }
                password = text.trimmingCharacters(in: .newlines)
            } else {
                password = ProcessInfo.processInfo.environment["SECSTORE_ETCD_PASSWORD"]
            }
        }
        return SyncConnection(endpoints: endpointList, prefix: prefix, user: user, password: password)
    }
}
