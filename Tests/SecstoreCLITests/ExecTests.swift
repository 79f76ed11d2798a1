import Foundation
import SecStoreTestSupport
import Testing

/// `secstore exec`: real commands (`/bin/sh`, `cat`, `printenv`) get secrets in their
/// environment; secstore replaces itself with them, so their exit status and signals are
/// theirs.
@Suite("secstore exec")
struct ExecTests {
    /// `secstore exec --store … OPTIONS -- COMMAND…`.
    static func exec(_ store: CLIStore, _ options: [String], _ command: [String], stdin: String = "",
                     environment: [String: String] = [:]) throws -> CLI.Result {
        try CLI.run(["exec"] + store.storeArguments + options + ["--"] + command, stdin: Data(stdin.utf8),
                    home: store.directory, environment: environment)
    }

    static let secret = "s3cr3t with spaces, $dollars and 'quotes'"

    @Test("The command reads the secret from its environment, exactly")
    func secretInEnvironment() throws {
        let store = try CLIStore.created()
        try store.add(service: "api.example.com", account: "ci", secret: Self.secret)
        let result = try Self.exec(store, ["--env", "API_TOKEN=api.example.com/ci"], ["/bin/sh", "-c", "printf %s \"$API_TOKEN\""])
        #expect(result.status == Exit.success, "\(result)")
        #expect(result.stdout == Self.secret)
        #expect(result.stderr.isEmpty)

        // -e, several variables, a command found in PATH.
        try store.add(service: "db", account: "app", secret: "db-pw")
        let two = try Self.exec(store, ["-e", "A=api.example.com/ci", "-e", "B=db/app"], ["printenv", "B"])
        #expect(two.status == Exit.success && two.stdout == "db-pw\n", "\(two)")
    }

    @Test("The command's exit status is secstore's", arguments: [0, 1, 3, 42, 255])
    func exitStatusPassesThrough(_ status: Int) throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        let result = try Self.exec(store, ["--env", "T=api/ci"], ["/bin/sh", "-c", "exit \(status)"])
        #expect(result.status == Int32(status), "\(result)")
    }

    @Test("A command killed by a signal is reported by the shell as 128+n, as if run directly")
    func killedBySignal() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        let tool = CLI.executableURL.path
        let script = "'\(tool)' exec \(store.storeArguments.map { "'\($0)'" }.joined(separator: " ")) --env T=api/ci -- /bin/sh -c 'kill -TERM $$'; echo \"status $?\""
        let result = try CLI.run(["-c", script], home: store.directory, executable: URL(filePath: "/bin/sh"))
        #expect(result.stdout == "status 143\n", "\(result)")

        let killed = try CLI.run(["-c", script.replacingOccurrences(of: "-TERM", with: "-KILL")], home: store.directory,
                                 executable: URL(filePath: "/bin/sh"))
        #expect(killed.stdout == "status 137\n", "\(killed)")
    }

    @Test("A signal sent to secstore's process reaches the command (the same process)",
          arguments: [("TERM", SIGTERM), ("INT", SIGINT), ("HUP", SIGHUP), ("QUIT", SIGQUIT), ("USR1", SIGUSR1), ("USR2", SIGUSR2)])
    func signalsReachTheCommand(_ name: String, _ signalNumber: Int32) throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        let pidFile = store.file("pid")
        let process = Process()
        process.executableURL = CLI.executableURL
        process.arguments = ["exec"] + store.storeArguments + ["--env", "T=api/ci", "--", "/bin/sh", "-c",
            "trap 'echo caught \(name) with $T; exit 7' \(name); echo $$ > '\(pidFile.path)'; while :; do sleep 0.05; done"]
        process.environment = CLI.environment(home: store.directory, extra: [:])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.runWithCleanSignals()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(20)
        var written = ""
        while Date() < deadline {
            written = (try? String(contentsOf: pidFile, encoding: .utf8)) ?? ""
            if written.hasSuffix("\n") { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        // secstore replaced itself with the command: one process id.
        #expect(written == "\(process.processIdentifier)\n")
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 7)
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "caught \(name) with x\n")
    }

    @Test("The command starts with the signal mask, ignored signals, core limit and descriptors secstore was given")
    func processStateIsTheCallers() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        // Also the open descriptors: the store's are closed before the exec, none leaks, and one
        // the caller opened (7) reaches the command. Both probes run from one parent shell, so
        // they inherit the same descriptors: this test process spawns programs from many
        // threads at once, and a descriptor another test opens at that moment can reach one
        // child and not the other (it did, once in ~15 runs, when each was spawned from here).
        // The listing goes to a file first: `ls … | sort` let the shell's own pipe descriptors
        // (3, 4, 5, made for the pipeline while `ls` already ran) into one half and not the other.
        let probe = store.directory.appending(path: "probe.sh")
        try """
            grep -E '^(SigBlk|SigIgn):' /proc/self/status; ulimit -c; ls /proc/$$/fd > "$0.fds"; sort -n "$0.fds" | tr '\\n' ' '; echo
            for f in /proc/$$/fd/*; do printf '%s=%s ' "${f##*/}" "$(readlink "$f")"; done; echo

            """.write(to: probe, atomically: true, encoding: .utf8)
        let tool = CLI.executableURL.path
        let both = "exec 7</dev/null; /bin/sh '\(probe.path)'; echo ===; exec '\(tool)' exec "
            + store.storeArguments.map { "'\($0)'" }.joined(separator: " ") + " --env T=api/ci -- /bin/sh '\(probe.path)'"
        let run = try CLI.run(["-c", both], home: store.directory, executable: URL(filePath: "/bin/sh"))
        #expect(run.status == Exit.success, "\(run)")
        let halves = run.stdout.components(separatedBy: "===\n")
        try #require(halves.count == 2, "\(run)")
        let direct = halves[0], viaExec = halves[1]
        #expect(viaExec.split(separator: "\n").dropFirst(3).first?.split(separator: " ").contains("7") == true,
                "descriptor 7 of the caller did not reach the command: \(viaExec)")
        // The standard signals (1 to 31) only: glibc keeps 32 and 33 for its own threads and
        // installs its handlers for them in every process, so an execve resets them whatever
        // the caller had.
        func standardSignals(_ text: String) -> [String] {
            text.split(separator: "\n").map { line in
                guard let colon = line.firstIndex(of: ":"), let mask = UInt64(line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces), radix: 16) else { return String(line) }
                return "\(line[..<colon]) \(String(mask & 0x7FFF_FFFF, radix: 16))"
            }
        }
        #expect(!direct.isEmpty)
        #expect(standardSignals(viaExec).prefix(4) == standardSignals(direct).prefix(4), "\(viaExec) vs \(direct)")

        // The signal mask and ignored signals, from a caller that is not a shell: dash clears the
        // mask it starts with, so a probe run by a shell always saw none blocked. The caller
        // (env) blocks and ignores some on purpose: the tests start every program with none
        // (CleanSignals), and the command must get the caller's state, not the tool's.
        // (env's --block-signal and --ignore-signal came with --default-signal, coreutils 8.31.)
        if CleanSignals.envResetsSignals {
            let state = ["--block-signal=USR1,ALRM", "--ignore-signal=HUP,PIPE"]
            let read = ["grep", "-E", "^(SigBlk|SigIgn):", "/proc/self/status"]
            let caller = try CLI.run(state + read, home: store.directory, executable: CleanSignals.envURL)
            let command = try CLI.run(state + [tool, "exec"] + store.storeArguments + ["--env", "T=api/ci", "--"] + read,
                                      home: store.directory, executable: CleanSignals.envURL)
            #expect(standardSignals(caller.stdout) == ["SigBlk 2200", "SigIgn 1001"], "\(caller)")
            #expect(standardSignals(command.stdout) == standardSignals(caller.stdout), "\(command) vs \(caller)")
        }

        // secstore itself writes no core file, but the command gets the caller's core limit back.
        let script = "ulimit -S -c 1000 || exit 0; exec '\(tool)' exec \(store.storeArguments.map { "'\($0)'" }.joined(separator: " ")) --env T=api/ci -- /bin/sh -c 'ulimit -S -c'"
        let limited = try CLI.run(["-c", script], home: store.directory, executable: URL(filePath: "/bin/sh"))
        #expect(limited.status == Exit.success, "\(limited)")
        #expect(limited.stdout == "1000\n" || limited.stdout.isEmpty, "\(limited)")
    }

    @Test("Standard input is the command's; --passphrase-stdin takes only its first line")
    func standardInputPassesThrough() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        let plain = try Self.exec(store, ["--env", "T=api/ci"], ["cat"], stdin: "line one\nline two\n")
        #expect(plain.stdout == "line one\nline two\n", "\(plain)")

        let locked = try CLIStore.created(passphrase: true)
        let added = try locked.run(["add", "-s", "api", "-a", "ci", "--value-stdin", "--passphrase-file", try locked.passphraseFile()],
                                   stdin: Data("locked-secret".utf8))
        try #require(added.status == Exit.success, "\(added)")
        let result = try Self.exec(locked, ["--env", "T=api/ci", "--passphrase-stdin"], ["/bin/sh", "-c", "printf '%s|' \"$T\"; cat"],
                                   stdin: CLIStore.passphrase + "\nfor the command\n")
        #expect(result.status == Exit.success, "\(result)")
        #expect(result.stdout == "locked-secret|for the command\n")
    }

    @Test("A missing item, an ambiguous or malformed reference: a message, a status, and nothing runs")
    func nothingRunsOnError() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        try store.add(service: "api", account: "cd", secret: "y")
        let marker = store.file("ran")
        let command = ["/bin/sh", "-c", "touch '\(marker.path)'"]

        let missing = try Self.exec(store, ["--env", "A=api/ci", "--env", "B=api/nobody"], command)
        #expect(missing.status == Exit.notFound, "\(missing)")
        #expect(missing.stderr.contains("B (--env): no item matches service \"api\", account \"nobody\""), "\(missing.stderr)")
        #expect(missing.stderr.contains("Nothing was run"))

        let ambiguous = try Self.exec(store, ["--env", "A=api"], command)
        #expect(ambiguous.status == Exit.usage, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("2 items match service \"api\""), "\(ambiguous.stderr)")

        for bad in ["1A=api/ci", "A", "A=", "A=/ci", "A=ref:zz", "A=api\\"] {
            let result = try Self.exec(store, ["--env", bad], command)
            #expect(result.status == Exit.usage, "\(bad): \(result)")
            #expect(result.stderr.hasPrefix("secstore: error: "), "\(bad): \(result.stderr)")
        }
        let twice = try Self.exec(store, ["--env", "A=api/ci", "--env", "A=api/cd"], command)
        #expect(twice.status == Exit.usage && twice.stderr.contains("A is given twice"), "\(twice)")

        let noCommand = try CLI.run(["exec", "--env", "A=api/ci"] + store.storeArguments, home: store.directory)
        #expect(noCommand.status == Exit.usage && noCommand.stderr.contains("after --"), "\(noCommand)")
        let noEnv = try Self.exec(store, [], command)
        #expect(noEnv.status == Exit.usage, "\(noEnv)")

        #expect(!FileManager.default.fileExists(atPath: marker.path), "no failed exec ran the command")
        for result in [missing, ambiguous, twice] {
            #expect(!result.stderr.contains("\"x\"") && !result.stderr.contains("\"y\""))
        }
    }

    @Test("A locked store: status 5 and nothing runs; with the passphrase the command runs without it in its environment")
    func lockedStore() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphraseFile = try store.passphraseFile()
        let added = try store.run(["add", "-s", "api", "-a", "ci", "--value-stdin", "--passphrase-file", passphraseFile],
                                  stdin: Data("locked-secret".utf8))
        try #require(added.status == Exit.success, "\(added)")
        let marker = store.file("ran")

        let locked = try Self.exec(store, ["--env", "T=api/ci"], ["/bin/sh", "-c", "touch '\(marker.path)'"])
        #expect(locked.status == Exit.locked, "\(locked)")
        #expect(locked.stderr.contains("--passphrase-file"), "the usual locked message: \(locked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))

        let unlocked = try Self.exec(store, ["--env", "T=api/ci", "--passphrase-file", passphraseFile], ["printenv", "T"])
        #expect(unlocked.status == Exit.success && unlocked.stdout == "locked-secret\n", "\(unlocked)")

        // The store passphrase named by --passphrase-env is not handed to the command.
        let probe = ["/bin/sh", "-c", "printf '%s|%s' \"$T\" \"${STORE_PASS-unset}\""]
        let viaEnv = try Self.exec(store, ["--env", "T=api/ci", "--passphrase-env", "STORE_PASS"], probe,
                                   environment: ["STORE_PASS": CLIStore.passphrase])
        #expect(viaEnv.status == Exit.success, "\(viaEnv)")
        #expect(viaEnv.stdout == "locked-secret|unset")
    }

    @Test("Commands that cannot run: 127 when not found, 126 when not executable, as shells report")
    func commandFailures() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        let notFound = try Self.exec(store, ["--env", "T=api/ci"], ["secstore-no-such-command"])
        #expect(notFound.status == 127, "\(notFound)")
        #expect(notFound.stderr.contains("not found in PATH"))
        let notFoundPath = try Self.exec(store, ["--env", "T=api/ci"], [store.file("missing").path])
        #expect(notFoundPath.status == 127, "\(notFoundPath)")

        let script = store.file("not-executable.sh")
        try Data("#!/bin/sh\necho hi\n".utf8).write(to: script)
        let denied = try Self.exec(store, ["--env", "T=api/ci"], [script.path])
        #expect(denied.status == 126, "\(denied)")
        #expect(denied.stderr.contains("permission denied"))

        // A script without #! runs under /bin/sh, as execvp runs it.
        let bare = store.file("bare.sh")
        try Data("printf '%s' \"$T\"\n".utf8).write(to: bare)
        chmod(bare.path, 0o700)
        let ran = try Self.exec(store, ["--env", "T=api/ci"], [bare.path])
        #expect(ran.status == Exit.success && ran.stdout == "x", "\(ran)")
    }

    @Test("A PATH set from a secret is never printed: not when the command is not found, nor when it cannot run")
    func pathFromSecretNotPrinted() throws {
        let store = try CLIStore.created()
        try store.add(service: "tok", account: "ci", secret: "TOPSECRET-token-123")
        let notFound = try Self.exec(store, ["-e", "PATH=tok/ci"], ["some-tool"])
        #expect(notFound.status == 127, "\(notFound)")
        #expect(notFound.stderr.contains("not found in the PATH set from a secret"), "\(notFound.stderr)")
        #expect(!notFound.stderr.contains("TOPSECRET"), "\(notFound.stderr)")

        // A directory of that PATH holds the command, not executable: the path tried is not printed either.
        let directory = store.file("bin-TOPSECRET")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: directory.appending(path: "some-tool"))
        try store.add(service: "dirs", account: "ci", secret: directory.path)
        let denied = try Self.exec(store, ["-e", "PATH=dirs/ci"], ["some-tool"])
        #expect(denied.status == 126, "\(denied)")
        #expect(denied.stderr.contains("some-tool") && denied.stderr.contains("PATH set from a secret"), "\(denied.stderr)")
        #expect(!denied.stderr.contains("TOPSECRET"), "\(denied.stderr)")

        // A PATH of the caller's environment is no secret: still named, as before.
        let inherited = try Self.exec(store, ["-e", "T=tok/ci"], ["some-tool"], environment: ["PATH": "/nonexistent-dir"])
        #expect(inherited.status == 127 && inherited.stderr.contains("not found in PATH (/nonexistent-dir)"), "\(inherited)")
    }

    @Test("References: service/account, escaped slashes, the empty account, ref:HEX, service alone")
    func referenceSyntax() throws {
        let store = try CLIStore.created()
        try store.add(service: "https://example.com/api", account: "a/b", secret: "slashes")
        try store.add(service: "back\\slash", account: "ci", secret: "backslash")
        let empty = try store.run(["add", "-s", "solo", "--value-stdin"], stdin: Data("empty-account".utf8))
        try #require(empty.status == Exit.success, "\(empty)")
        let reference = try #require(try store.run("get", "-s", "solo", "--json").jsonObject()["ref"] as? String)

        let result = try Self.exec(store, ["--env", "A=https:\\/\\/example.com\\/api/a\\/b", "--env", "B=back\\\\slash/ci",
                                           "--env", "C=solo/", "--env", "D=ref:\(reference)", "--env", "E=solo"],
                                   ["/bin/sh", "-c", "printf '%s|%s|%s|%s|%s' \"$A\" \"$B\" \"$C\" \"$D\" \"$E\""])
        #expect(result.status == Exit.success, "\(result)")
        #expect(result.stdout == "slashes|backslash|empty-account|empty-account|empty-account")
    }

    @Test("A secret holding a zero byte cannot be an environment variable: refused")
    func zeroByte() throws {
        let store = try CLIStore.created()
        let added = try store.run(["add", "-s", "bin", "-a", "a", "--value-stdin"], stdin: Data([0x61, 0x00, 0x62]))
        try #require(added.status == Exit.success, "\(added)")
        let result = try Self.exec(store, ["--env", "B=bin/a"], ["true"])
        #expect(result.status == Exit.usage, "\(result)")
        #expect(result.stderr.contains("zero byte"))
    }

    @Test("A secret longer than one environment variable may be (Linux's 128 KiB) is refused, naming the variable, before anything runs")
    func secretTooLargeForAVariable() throws {
        let store = try CLIStore.created()
        let fits = Data(repeating: UInt8(ascii: "a"), count: 128 * 1024 - "FITS=".utf8.count - 1)
        let large = Data(repeating: UInt8(ascii: "b"), count: 200 * 1024)
        for (account, secret) in [("fits", fits), ("large", large)] {
            let added = try store.run(["add", "-s", "big", "-a", account, "--value-stdin"], stdin: secret)
            try #require(added.status == Exit.success, "\(added)")
        }
        let marker = store.file("ran")
        let result = try Self.exec(store, ["--env", "LARGE=big/large"], ["/bin/sh", "-c", "touch '\(marker.path)'"])
        #expect(result.status == Exit.usage, "\(result)")
        #expect(result.stderr.contains("LARGE (--env)") && result.stderr.contains("204800 bytes"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "nothing ran")
        #expect(!result.stderr.contains("bbbb"), "the secret is never quoted")

        // The largest variable Linux takes still runs (on 4 KiB pages).
        let fitting = try Self.exec(store, ["--env", "FITS=big/fits"], ["/bin/sh", "-c", "printf %s \"$FITS\" | wc -c"])
        #expect(fitting.status == Exit.success, "\(fitting)")
        #expect(fitting.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(fits.count)")
    }

    @Test("An environment file: comments, blank lines, export, quotes; --env overrides it; errors name the line")
    func environmentFile() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "token")
        try store.add(service: "db", account: "app", secret: "db-pw")
        try store.add(service: "db", account: "admin", secret: "root-pw")
        let file = store.file("secrets.env")
        try Data("""
        # secrets for the deploy job

        API_TOKEN=api/ci
        export DB_PASSWORD = "db/app"\r
          # indented comment
        ADMIN='db/admin'
        """.utf8).write(to: file)
        let probe = ["/bin/sh", "-c", "printf '%s|%s|%s' \"$API_TOKEN\" \"$DB_PASSWORD\" \"$ADMIN\""]
        let result = try Self.exec(store, ["--env-file", file.path], probe)
        #expect(result.status == Exit.success, "\(result)")
        #expect(result.stdout == "token|db-pw|root-pw")

        let overridden = try Self.exec(store, ["--env-file", file.path, "--env", "ADMIN=api/ci"], probe)
        #expect(overridden.stdout == "token|db-pw|token", "\(overridden)")

        let cases: [(String, String)] = [
            ("A=api/ci\nthis line has no equals sign\n", ":2: "),
            ("A=api/ci\n\n\n4BAD=api/ci\n", ":4: the text before '=' is not an environment variable name"),
            ("A=api/ci\nB=api/ci\nA=db/app\n", ":3: A is already set at "),
            ("A=\n", ":1: A: the reference is empty"),
        ]
        for (text, expected) in cases {
            let bad = store.file("bad-\(UUID().uuidString).env")
            try Data(text.utf8).write(to: bad)
            let failed = try Self.exec(store, ["--env-file", bad.path], ["true"])
            #expect(failed.status == Exit.usage, "\(text): \(failed)")
            #expect(failed.stderr.contains(bad.path + expected), "\(text): \(failed.stderr)")
        }
        let missingFile = try Self.exec(store, ["--env-file", store.file("nope.env").path], ["true"])
        #expect(missingFile.status == Exit.usage && missingFile.stderr.contains("nope.env"), "\(missingFile)")
        let missingItem = store.file("missing.env")
        try Data("A=api/ci\nB=api/gone\n".utf8).write(to: missingItem)
        let notFound = try Self.exec(store, ["--env-file", missingItem.path], ["true"])
        #expect(notFound.status == Exit.notFound && notFound.stderr.contains("B (\(missingItem.path):2)"), "\(notFound)")
    }

    /// Before: a real `.env` given to `--env-file` by mistake had its secrets printed: a line
    /// `KEY=the-secret` reads as a reference to service "the-secret", and "no item matches
    /// service "the-secret"" named it; a line without `=`, a bad name or a malformed
    /// reference was quoted too. A file's lines are named by position only.
    @Test("Errors about an environment file's lines never quote them: a real .env may be given by mistake")
    func environmentFileErrorsQuoteNothing() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "token")
        let secret = "sk_live_51Hx9QuoteMeNot"
        let cases: [(String, Int32)] = [
            ("API_KEY=\(secret)\n", Exit.notFound),
            ("API_KEY=\(secret)/x\n", Exit.notFound),
            ("\(secret)\n", Exit.usage),
            ("\(secret)-x=api/ci\n", Exit.usage),
            ("API_KEY=ref:\(secret)\n", Exit.usage),
            ("API_KEY=\(secret)\\\n", Exit.usage),
            ("API_KEY=/\(secret)\n", Exit.usage),
        ]
        for (text, status) in cases {
            let file = store.file("real-\(UUID().uuidString).env")
            try Data(text.utf8).write(to: file)
            let failed = try Self.exec(store, ["--env-file", file.path], ["true"])
            #expect(failed.status == status, "\(text): \(failed)")
            #expect(!failed.stderr.contains("sk_live") && !failed.stdout.contains("sk_live"), "\(text): \(failed)")
            #expect(failed.stderr.contains(file.path + ":1"), "\(text): \(failed)")
        }
        // What the user typed on the command line is still quoted back.
        let typed = try Self.exec(store, ["--env", "A=api/gone"], ["true"])
        #expect(typed.status == Exit.notFound && typed.stderr.contains("\"gone\""), "\(typed)")
    }

    @Test("Options after -- belong to the command")
    func terminator() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        let result = try Self.exec(store, ["--env", "T=api/ci"], ["printf", "%s,", "--store", "--json", "-e", "--"])
        #expect(result.status == Exit.success && result.stdout == "--store,--json,-e,--,", "\(result)")
    }
}
