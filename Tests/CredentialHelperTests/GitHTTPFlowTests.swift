import Foundation
import SecStore
import Testing

/// The whole flow a user sees: `git ls-remote` against an HTTP server that wants a login.
/// The first time git asks (askpass), the server accepts, git approves and the helper stores;
/// the next time the helper answers and nothing is asked; when the server stops accepting
/// the stored password, git rejects it and the helper erases it.
@Suite struct GitHTTPFlowTests {
    @Test func promptOnceThenTheStoreAnswersThenARejectedPasswordIsErased() throws {
        let home = try HelperHome()
        let server = try BasicAuthServer(username: "alice", password: "s3cr3t")
        defer { server.stop() }

        // An askpass that answers like a user and records each prompt.
        let log = home.directory.appending(path: "askpass.log")
        let askpass = home.directory.appending(path: "askpass.sh")
        try """
        #!/bin/sh
        echo "$1" >> '\(log.path)'
        case "$1" in Username*) echo alice ;; *) echo s3cr3t ;; esac
        """.write(to: askpass, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: askpass.path)
        func prompts() -> [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        home.extraEnvironment["GIT_ASKPASS"] = askpass.path
        let first = try home.git(["ls-remote", server.url])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("\(BasicAuthServer.commit)\trefs/heads/main"))
        #expect(prompts().count == 2, "git asked for the username and the password once: \(prompts())")

        let item = try #require(try home.internetPasswords().first, "git approved the login and the helper stored it")
        #expect(item.attributes.protocol == .http)
        #expect(item.attributes.server == "127.0.0.1")
        #expect(item.attributes.port == Int(server.port))
        #expect(item.attributes.account == "alice")
        #expect(item.data == Data("s3cr3t".utf8))

        // Now nothing may be asked: a failing askpass proves the helper answered.
        home.extraEnvironment["GIT_ASKPASS"] = "/bin/false"
        let second = try home.git(["ls-remote", server.url])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("refs/heads/main"))
        #expect(prompts().count == 2)

        // The password changes on the server: git rejects the stored one and the helper erases it.
        server.setLogin(username: "alice", password: "rotated")
        let third = try home.git(["ls-remote", server.url])
        #expect(third.status != 0)
        #expect(try home.internetPasswords().isEmpty, "the rejected password was erased")
    }
}
