import Foundation
import SecStoreTestSupport
import Testing

/// `secstore edit`: the secret goes through a private file that `$EDITOR` (here: shell scripts
/// standing in for editors) changes; the file is wiped and removed afterwards.
@Suite("secstore edit")
struct EditTests {
    /// A directory playing `$XDG_RUNTIME_DIR` (mode 0700), a log directory, and an editor script.
    struct Editor {
        let runtime: URL
        let logs: URL
        let script: URL

        init(_ store: CLIStore, body: String) throws {
            runtime = store.file("runtime")
            logs = store.file("logs")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            script = store.file("editor.sh")
            try Data("#!/bin/sh\nLOGS='\(logs.path)'\nprintf %s \"$1\" > \"$LOGS/path\"\n\(body)\n".utf8).write(to: script)
            chmod(script.path, 0o700)
        }

        var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime.path, "EDITOR": script.path, "VISUAL": ""] }
        func log(_ name: String) -> String { (try? String(contentsOf: logs.appending(path: name), encoding: .utf8)) ?? "" }
        var editedPath: String { log("path") }
    }

    /// A refused edit: the secret is still "v1", and the private directory is gone.
    func expectNothingChanged(_ store: CLIStore, _ editor: Editor) throws {
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "v1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: editor.runtime.path).isEmpty, "the private directory is gone")
    }

    @Test("The secret is edited in a private file under $XDG_RUNTIME_DIR, then saved, wiped and removed")
    func editInPlace() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "old-secret")
        let editor = try Editor(store, body: """
        stat -c '%a' "$1" "$(dirname "$1")" > "$LOGS/modes"
        cat "$1" > "$LOGS/seen"
        ln "$1" "$LOGS/link"
        printf 'new-secret\\n' > "$1"
        printf 'swap' > "$(dirname "$1")/.secret.swp"
        """)
        let result = try store.run(["edit", "-s", "api", "-a", "alice"], stdin: Data(), environment: editor.environment)
        #expect(result.status == Exit.success, "\(result)")
        #expect(result.stdout == "Updated the secret of genp item (service \"api\", account \"alice\").\n")
        #expect(editor.log("modes") == "600\n700\n", "a 0600 file in a 0700 directory")
        #expect(editor.log("seen") == "old-secret")
        #expect(editor.editedPath.hasPrefix(editor.runtime.path + "/secstore-edit-"))
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "new-secret", "the newline the editor added is dropped")
        // The file was overwritten before it was removed: the hard link sees zeros.
        let linked = try Data(contentsOf: editor.logs.appending(path: "link"))
        #expect(!linked.isEmpty && linked.allSatisfy { $0 == 0 }, "\(Array(linked))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: editor.runtime.path).isEmpty, "the private directory is gone")
        #expect(!result.stdout.contains("-secret") && !result.stderr.contains("-secret"), "no secret in messages")
    }

    @Test("An editor that saves a new file over the old one: the old file's bytes are wiped too")
    func editorThatRenames() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "first\n")
        let editor = try Editor(store, body: """
        ln "$1" "$LOGS/link"
        printf 'second\\n' > "$1.tmp" && mv "$1.tmp" "$1"
        """)
        let result = try store.run(["edit", "-s", "api", "-a", "alice", "--json"], stdin: Data(), environment: editor.environment)
        #expect(try result.jsonObject()["updated"] as? Int == 1, "\(result)")
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "second\n", "a secret that ended in a newline keeps it")
        let linked = try Data(contentsOf: editor.logs.appending(path: "link"))
        #expect(linked == Data(count: 6), "the original file, replaced by the editor, was zeroed through its descriptor")
    }

    @Test("Nothing changes when the editor fails, leaves the text as it was, or empties it")
    func nothingChanges() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "keep")
        let failing = try Editor(store, body: "printf 'changed' > \"$1\"; exit 3")
        let failed = try store.run(["edit", "-s", "api", "-a", "alice"], stdin: Data(), environment: failing.environment)
        #expect(failed.status == Exit.failure && failed.stderr.contains("exited with status 3"), "\(failed)")

        let untouched = try Editor(store, body: "true")
        let same = try store.run(["edit", "-s", "api", "-a", "alice"], stdin: Data(), environment: untouched.environment)
        #expect(same.status == Exit.success && same.stdout == "No change: the secret is as it was.\n", "\(same)")

        let emptying = try Editor(store, body: ": > \"$1\"")
        let empty = try store.run(["edit", "-s", "api", "-a", "alice"], stdin: Data(), environment: emptying.environment)
        #expect(empty.status == Exit.failure && empty.stderr.contains("--allow-empty"), "\(empty)")
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "keep")
        let allowed = try store.run(["edit", "-s", "api", "-a", "alice", "--allow-empty"], stdin: Data(), environment: emptying.environment)
        #expect(allowed.status == Exit.success, "\(allowed)")
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: emptying.runtime.path).isEmpty)

        #expect(try store.run(["edit", "-s", "nobody"], stdin: Data(), environment: emptying.environment).status == Exit.notFound)
    }

    @Test("$EDITOR is a shell command (it may carry arguments); $VISUAL comes first")
    func editorCommandLine() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "v1")
        let editor = try Editor(store, body: "printf '%s' \"$EXTRA\" > \"$1\"")
        var environment = editor.environment
        environment["EDITOR"] = "EXTRA=from-editor '\(editor.script.path)'"
        #expect(try store.run(["edit", "-s", "api", "-a", "alice"], stdin: Data(), environment: environment).status == Exit.success)
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "from-editor")
        environment["VISUAL"] = "EXTRA=from-visual '\(editor.script.path)'"
        #expect(try store.run(["edit", "-s", "api", "-a", "alice"], stdin: Data(), environment: environment).status == Exit.success)
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "from-visual")
    }

    @Test("Without $XDG_RUNTIME_DIR the private file is in /dev/shm", .enabled(if: FileManager.default.fileExists(atPath: "/dev/shm")))
    func devShm() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "v1")
        let editor = try Editor(store, body: "printf v2 > \"$1\"")
        var environment = editor.environment
        environment["XDG_RUNTIME_DIR"] = ""
        #expect(try store.run(["edit", "-s", "api", "-a", "alice"], stdin: Data(), environment: environment).status == Exit.success)
        #expect(editor.editedPath.hasPrefix("/dev/shm/secstore-edit-"), "\(editor.editedPath)")
        #expect(!FileManager.default.fileExists(atPath: URL(filePath: editor.editedPath).deletingLastPathComponent().path))
    }

    @Test("Another process changing the item while the editor runs wins: the edit is not saved")
    func concurrentChange() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "v1")
        let tool = CLI.executableURL.path
        let storeArguments = store.storeArguments.map { "'\($0)'" }.joined(separator: " ")
        let editor = try Editor(store, body: """
        printf 'mine' > "$1"
        printf 'theirs' | '\(tool)' update -s api -a alice --value-stdin \(storeArguments) > /dev/null
        """)
        let result = try store.run(["edit", "-s", "api", "-a", "alice"], stdin: Data(), environment: editor.environment)
        #expect(result.status == Exit.failure && result.stderr.contains("Another process changed the item"), "\(result)")
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "theirs")
    }

    @Test("The store passphrase named by --passphrase-env is not in the editor's environment")
    func passphraseNotHandedToEditor() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphraseFile = try store.passphraseFile()
        try store.add(service: "api", account: "alice", secret: "v1", "--passphrase-file", passphraseFile)
        let editor = try Editor(store, body: """
        printf '%s|%s' "${STORE_PASS-unset}" "${OTHER-unset}" > "$LOGS/environment"
        printf v2 > "$1"
        """)
        var environment = editor.environment
        environment["STORE_PASS"] = CLIStore.passphrase
        environment["OTHER"] = "kept"
        let result = try store.run(["edit", "-s", "api", "-a", "alice", "--passphrase-env", "STORE_PASS"], stdin: Data(), environment: environment)
        #expect(result.status == Exit.success, "\(result)")
        #expect(editor.log("environment") == "unset|kept", "the rest of the environment is the editor's")
        #expect(try store.run("get", "-s", "api", "-a", "alice", "--passphrase-file", passphraseFile).stdout == "v2")
    }

    @Test("An edited file replaced by a symbolic link or a directory: refused, nothing saved, nothing left", arguments: [
        #"printf from-link > "$LOGS/target"; rm "$1"; ln -s "$LOGS/target" "$1""#,
        #"rm "$1"; mkdir "$1"; printf from-directory > "$1/inside""#,
    ])
    func notARegularFile(_ body: String) throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "v1")
        let editor = try Editor(store, body: body)
        let result = try store.run(["edit", "-s", "api", "-a", "alice"], stdin: Data(), environment: editor.environment)
        #expect(result.status == Exit.failure, "\(result)")
        #expect(result.stderr.contains("is no longer a regular file") && result.stderr.contains("Nothing was changed"), "\(result.stderr)")
        try expectNothingChanged(store, editor)
    }

    @Test("An edited file replaced by a FIFO: refused at once (no wait for a writer), nothing saved, nothing left")
    func replacedByFIFO() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "v1")
        // A writer waits on the FIFO, so that a reader that opens it unguarded gets its text
        // (and returns) instead of waiting forever. Refused without being read, the FIFO is
        // removed with the writer still waiting: the test ends it once secstore has exited.
        let editor = try Editor(store, body: """
        rm "$1"; mkfifo "$1"
        (printf from-fifo > "$1") </dev/null >/dev/null 2>&1 &
        echo $! > "$LOGS/writer"
        """)
        let errors = store.file("stderr")
        try #require(FileManager.default.createFile(atPath: errors.path, contents: nil))
        let process = Process()
        process.executableURL = CLI.executableURL
        process.arguments = ["edit", "-s", "api", "-a", "alice"] + store.storeArguments
        process.environment = CLI.environment(home: store.directory, extra: editor.environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.runWithCleanSignals()
        // Foundation learns that a child ended when every holder of a descriptor it gave the
        // child closed it, and the waiting writer holds one: wait until secstore is gone (a
        // bound for a hung secstore only), end the writer, then collect secstore.
        let deadline = Date().addingTimeInterval(60)
        func ended() -> Bool {
            let state = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
            return state.isEmpty || state.contains(") Z ")
        }
        while !ended() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if let writer = pid_t(editor.log("writer").trimmingCharacters(in: .whitespacesAndNewlines)) { kill(writer, SIGKILL) }
        if !ended() { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(process.terminationReason == .exit && process.terminationStatus == Exit.failure, "\(stderr)")
        #expect(stderr.contains("is no longer a regular file (the editor left a FIFO in its place). Nothing was changed."), "\(stderr)")
        try expectNothingChanged(store, editor)
    }

    @Test("SIGTERM while the editor runs wipes and removes the private file; Ctrl-C is the editor's")
    func interrupted() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "secret-on-disk")
        let editor = try Editor(store, body: """
        ln "$1" "$LOGS/link"
        echo $$ > "$LOGS/editor-pid"
        trap 'printf after-interrupt > "$1"; exit 0' USR1
        while :; do sleep 0.05; done
        """)
        func start() throws -> Process {
            let process = Process()
            process.executableURL = CLI.executableURL
            process.arguments = ["edit", "-s", "api", "-a", "alice"] + store.storeArguments
            process.environment = CLI.environment(home: store.directory, extra: editor.environment)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.runWithCleanSignals()
            let deadline = Date().addingTimeInterval(20)
            while editor.log("editor-pid").isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            return process
        }

        // Ctrl-C reaches the whole foreground group; secstore leaves it to the editor and waits.
        let patient = try start()
        kill(patient.processIdentifier, SIGINT)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(patient.isRunning, "secstore ignores SIGINT while the editor runs")
        kill(pid_t(editor.log("editor-pid").trimmingCharacters(in: .whitespacesAndNewlines))!, SIGUSR1)
        patient.waitUntilExit()
        #expect(patient.terminationReason == .exit && patient.terminationStatus == Exit.success)
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "after-interrupt")

        try FileManager.default.removeItem(at: editor.logs.appending(path: "editor-pid"))
        try FileManager.default.removeItem(at: editor.logs.appending(path: "link"))
        let stopped = try start()
        let editorPID = pid_t(editor.log("editor-pid").trimmingCharacters(in: .whitespacesAndNewlines))!
        kill(stopped.processIdentifier, SIGTERM)
        // Foundation learns that a child ended when every holder of a descriptor it gave the
        // child closed it, and the editor (which outlives secstore here) holds one: wait until
        // secstore is gone, then end the editor, then collect secstore.
        let deadline = Date().addingTimeInterval(20)
        func ended() -> Bool {
            let state = (try? String(contentsOfFile: "/proc/\(stopped.processIdentifier)/stat", encoding: .utf8)) ?? ""
            return state.isEmpty || state.contains(") Z ")
        }
        while !ended() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        kill(editorPID, SIGKILL)
        stopped.waitUntilExit()
        #expect(stopped.terminationReason == .uncaughtSignal && stopped.terminationStatus == SIGTERM)
        let linked = try Data(contentsOf: editor.logs.appending(path: "link"))
        #expect(!linked.isEmpty && linked.allSatisfy { $0 == 0 }, "wiped on SIGTERM")
        #expect(try FileManager.default.contentsOfDirectory(atPath: editor.runtime.path).isEmpty, "removed on SIGTERM")
        #expect(try store.run("get", "-s", "api", "-a", "alice").stdout == "after-interrupt", "nothing saved")
    }
}
