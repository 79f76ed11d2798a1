import Foundation
import SecStore
import Testing

@Suite("secstore passphrase, lock and unlock")
struct PassphraseAndLockTests {
    @Test("A locked class needs the passphrase: status 5 without it, 6 with a wrong one")
    func lockedItems() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphrase = try store.passphraseFile()
        try store.add(service: "api", account: "alice", secret: "pw", "--passphrase-file", passphrase)

        let locked = try store.run("get", "--service", "api", "--account", "alice")
        #expect(locked.status == Exit.locked, "\(locked)")
        #expect(locked.stderr.hasPrefix("secstore: error: An item's accessibility class (whenUnlocked) is locked."))
        #expect(locked.stderr.contains("--passphrase-stdin") && locked.stderr.contains("--passphrase-file"))
        #expect(try store.run("list").status == Exit.locked)

        #expect(try store.run("get", "--service", "api", "--account", "alice", "--passphrase-file", passphrase).stdout == "pw")
        let fromStdin = try store.run("get", "--service", "api", "--account", "alice", "--passphrase-stdin",
                                      stdin: CLIStore.passphrase + "\n")
        #expect(fromStdin.stdout == "pw")

        let wrong = try store.run("get", "--service", "api", "--account", "alice", "--passphrase-stdin", stdin: "wrong\n")
        #expect(wrong.status == Exit.authenticationFailed)
        #expect(wrong.stderr.hasPrefix("secstore: error: The store passphrase is not correct."))
        #expect(!wrong.stderr.contains("wrong\n") && wrong.stdout.isEmpty)
    }

    /// Lines from standard input are read into a buffer that grows by hand, wiping each one it
    /// leaves (SecretLine): a passphrase longer than its first buffer, with a CRLF ending, is
    /// read whole, and the line after it is left for the next reader.
    @Test("A long passphrase from standard input is read whole, up to its line ending")
    func longPassphraseFromStandardInput() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "pw")
        let long = String((0..<1500).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
        let set = try store.run(["passphrase", "set", "--passphrase-stdin"] + CLIStore.fastKDF, stdin: Data((long + "\r\n").utf8))
        #expect(set.status == Exit.success, "\(set)")
        let changed = try store.run(["passphrase", "change", "--passphrase-stdin", "--new-passphrase-stdin"] + CLIStore.fastKDF,
                                    stdin: Data((long + "\n" + long + "!\n").utf8))
        #expect(changed.status == Exit.success, "\(changed)")
        let read = try store.run("get", "--service", "api", "--account", "alice", "--passphrase-stdin", stdin: long + "!\n")
        #expect(read.stdout == "pw", "\(read)")
        let truncated = try store.run("get", "--service", "api", "--account", "alice", "--passphrase-stdin", stdin: String(long.prefix(256)) + "\n")
        #expect(truncated.status == Exit.authenticationFailed, "\(truncated)")
    }

    @Test("The passphrase is read from the environment only with --passphrase-env")
    func environmentOptIn() throws {
        let store = try CLIStore.created(passphrase: true)
        try store.add(service: "api", account: "alice", secret: "pw", "--passphrase-file", try store.passphraseFile())
        let environment = ["STORE_PASS": CLIStore.passphrase, "SECSTORE_PASSPHRASE": CLIStore.passphrase]
        let ignored = try store.run("get", "--service", "api", "--account", "alice", environment: environment)
        #expect(ignored.status == Exit.locked, "no environment variable is read without the opt-in")
        let optedIn = try store.run("get", "--service", "api", "--account", "alice", "--passphrase-env", "STORE_PASS",
                                    environment: environment)
        #expect(optedIn.stdout == "pw")
        let unset = try store.run("get", "--service", "api", "--passphrase-env", "NOT_SET_ANYWHERE")
        #expect(unset.status == Exit.usage)
        #expect(unset.stderr.contains("NOT_SET_ANYWHERE is not set"))
        #expect(try store.run("get", "--passphrase-stdin", "--passphrase-env", "X").status == Exit.usage)
    }

    @Test("passphrase set, change and remove")
    func passphraseLifecycle() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "pw")
        let set = try store.run(["passphrase", "set", "--passphrase-stdin"] + CLIStore.fastKDF, stdin: Data("first\n".utf8))
        #expect(set.status == Exit.success, "\(set)")
        #expect(set.stdout.hasPrefix("Passphrase set."))
        #expect(!set.stdout.contains("first") && !set.stderr.contains("first"))
        #expect(try store.run("info", "--json").jsonObject()["lockState"] as? String == "locked")
        #expect(try store.run(["passphrase", "set", "--passphrase-stdin"] + CLIStore.fastKDF, stdin: Data("again\n".utf8)).status == Exit.usage)
        #expect(try store.run("get", "--service", "api", "--account", "alice").status == Exit.locked)

        let wrongOld = try store.run(["passphrase", "change", "--passphrase-stdin", "--new-passphrase-stdin"] + CLIStore.fastKDF,
                                     stdin: Data("bad\nsecond\n".utf8))
        #expect(wrongOld.status == Exit.authenticationFailed)
        #expect(wrongOld.stderr.contains("current store passphrase is not correct"))

        let change = try store.run(["passphrase", "change", "--passphrase-stdin", "--new-passphrase-stdin", "--json"] + CLIStore.fastKDF,
                                   stdin: Data("first\nsecond\n".utf8))
        #expect(change.status == Exit.success, "\(change)")
        #expect(try change.jsonObject()["lockState"] as? String == "unlocked")
        #expect(try store.run("get", "--service", "api", "--account", "alice", "--passphrase-stdin", stdin: "first\n").status == Exit.authenticationFailed)
        #expect(try store.run("get", "--service", "api", "--account", "alice", "--passphrase-stdin", stdin: "second\n").stdout == "pw")

        let passcodeOnly = try store.run("add", "--service", "api", "--account", "pin", "--accessibility", "whenPasscodeSetThisDeviceOnly",
                                         "--value-stdin", "--passphrase-file", try store.passphraseFile("second"), stdin: "1234")
        #expect(passcodeOnly.status == Exit.success, "\(passcodeOnly)")

        let removed = try store.run("passphrase", "remove", "--passphrase-stdin", "--json", stdin: "second\n")
        #expect(removed.status == Exit.success, "\(removed)")
        #expect(try removed.jsonObject()["deletedItems"] as? Int == 1, "whenPasscodeSetThisDeviceOnly items go with the passphrase")
        #expect(try store.run("get", "--service", "api", "--account", "alice").stdout == "pw")
        #expect(try store.run("passphrase", "remove", "--passphrase-stdin", stdin: "x\n").status == Exit.usage)
        #expect(try store.run("passphrase", "change", "--passphrase-stdin", stdin: "x\n").status == Exit.usage)
    }

    @Test("passphrase set without a terminal or a source is a usage error; bad KDF limits too")
    func passphraseUsageErrors() throws {
        let store = try CLIStore.created()
        let noSource = try store.run("passphrase", "set")
        #expect(noSource.status == Exit.usage)
        #expect(noSource.stderr.contains("--passphrase-stdin"))
        let empty = try store.run(["passphrase", "set", "--passphrase-stdin"] + CLIStore.fastKDF, stdin: Data("\n".utf8))
        #expect(empty.status == Exit.usage)
        let tinyMemory = try store.run("passphrase", "set", "--passphrase-stdin", "--kdf-memory", "1K", stdin: "p\n")
        #expect(tinyMemory.status == Exit.usage)
        #expect(tinyMemory.stderr.contains("--kdf-memory 8K to 4G"), "\(tinyMemory.stderr)")
        #expect(try store.run("info", "--json").jsonObject()["lockState"] as? String == "noPassphrase")
    }

    @Test("lock and unlock on a store without a passphrase do nothing and say so")
    func lockWithoutPassphrase() throws {
        let store = try CLIStore.created()
        let lock = try store.run("lock")
        #expect(lock.status == Exit.success && lock.stdout.contains("no passphrase"))
        let unlock = try store.run("unlock", "--json")
        #expect(try unlock.jsonObject()["lockState"] as? String == "noPassphrase")
    }

    @Test("lock --json on a store with a passphrase reports it locked")
    func lockJSON() throws {
        let store = try CLIStore.created(passphrase: true)
        let lock = try store.run("lock", "--json")
        #expect(lock.status == Exit.success, "\(lock)")
        let object = try lock.jsonObject()
        #expect(object["lockState"] as? String == "locked")
        #expect(object["passphrase"] as? Bool == true)
    }

    @Test("unlock with a wrong passphrase fails with status 6; without one and no terminal, status 5")
    func unlockErrors() throws {
        let store = try CLIStore.created(passphrase: true)
        #expect(try store.run("unlock", "--passphrase-stdin", stdin: "wrong\n").status == Exit.authenticationFailed)
        let noPassphrase = try store.run("unlock")
        #expect(noPassphrase.status == Exit.locked)
        #expect(noPassphrase.stderr.contains("--passphrase-file"))
    }

    /// Needs the kernel user keyring; where it is unavailable (some containers) the
    /// cross-process part cannot hold and is skipped, with a note.
    @Test("unlock makes afterFirstUnlock items readable by other processes until lock")
    func unlockAcrossProcesses() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphrase = try store.passphraseFile()
        // Added with the keyring off, so nothing is published yet.
        try store.add(service: "daemon", account: "token", secret: "background", "--accessibility", "afterFirstUnlock",
                      "--passphrase-file", passphrase)
        try store.add(service: "api", account: "alice", secret: "foreground", "--passphrase-file", passphrase)
        let keyring = ["SECSTORE_KEYRING": ""]
        #expect(try store.run("get", "--service", "daemon", "--account", "token", environment: keyring).status == Exit.locked)

        let unlock = try store.run("unlock", "--passphrase-file", passphrase, "--json", environment: keyring)
        #expect(unlock.status == Exit.success, "\(unlock)")
        defer { _ = try? store.run("lock", environment: keyring) }
        guard try unlock.jsonObject()["sharedWith"] as? String == "kernelKeyring" else {
            print("note: the kernel keyring is unavailable here; skipping the cross-process checks")
            return
        }
        let read = try store.run("get", "--service", "daemon", "--account", "token", environment: keyring)
        #expect(read.status == Exit.success && read.stdout == "background", "\(read)")
        #expect(try store.run("get", "--service", "api", "--account", "alice", environment: keyring).status == Exit.locked,
                "whenUnlocked items are never shared between processes")

        let lock = try store.run("lock", environment: keyring)
        #expect(lock.status == Exit.success && lock.stdout.hasPrefix("Locked."))
        #expect(try store.run("get", "--service", "daemon", "--account", "token", environment: keyring).status == Exit.locked)
    }

    /// An unmodified program (SecItemCopyMatching on the default store the environment
    /// names) reads a whenUnlocked item of a passphrase-protected store after
    /// `secstore unlock --for`, and not after it expires or after `secstore lock`.
    @Test("unlock --for shares every class with unmodified programs until it runs out or lock")
    func sharedUnlockAcrossProcesses() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphrase = try store.passphraseFile()
        let entitlements = store.file("app.entitlements")
        let plist = try PropertyListSerialization.data(fromPropertyList: ["keychain-access-groups": ["ABCDE12345.com.example.app"]],
                                                       format: .xml, options: 0)
        try plist.write(to: entitlements)
        let environment = ["SECSTORE_KEYRING": "", "SECSTORE_ENTITLEMENTS": entitlements.path,
                           "SECSTORE_PATH": store.storeURL.path, "SECSTORE_DEVICE_KEY": store.deviceKeyURL.path]
        let added = try store.run("add", "--service", "api", "--account", "alice", "--value-stdin", "--passphrase-file", passphrase,
                                  stdin: "foreground", environment: environment)
        try #require(added.status == Exit.success, "\(added)")
        func unmodifiedProgramReads() throws -> CLI.Result {
            try CLI.run(["secitem-read", "--service", "api", "--account", "alice"], home: store.directory,
                        environment: environment, executable: CLI.helperURL)
        }
        #expect(try unmodifiedProgramReads().stdout == "status -25308\n", "locked before any unlock")

        let unlock = try store.run("unlock", "--for", "2s", "--passphrase-file", passphrase, "--json", environment: environment)
        #expect(unlock.status == Exit.success, "\(unlock)")
        defer { _ = try? store.run("lock", environment: environment) }
        guard try unlock.jsonObject()["sharedWith"] as? String == "kernelKeyring" else {
            print("note: the kernel keyring is unavailable here; skipping the cross-process checks")
            return
        }
        #expect(try unlock.jsonObject()["sharedForSeconds"] as? Int == 2)
        // Before: `info` said "locked" while every process could read.
        let info = try store.run(["info", "--json"], stdin: Data(), environment: environment)
        #expect(try info.jsonObject()["lockState"] as? String == "unlocked", "\(info)")
        let during = try unmodifiedProgramReads()
        #expect(during.status == 0 && during.stdout == "foreground\n", "\(during)")
        Thread.sleep(forTimeInterval: 2.5)
        #expect(try unmodifiedProgramReads().stdout == "status -25308\n", "the shared unlock expired")

        #expect(try store.run("unlock", "--for", "1h", "--passphrase-file", passphrase, environment: environment).status == Exit.success)
        #expect(try unmodifiedProgramReads().stdout == "foreground\n")
        // The shared unlock is also a passphrase proof: a userPresence item is readable.
        let direct = try SecretStore(at: store.storeURL, options: .init(
            access: .entitled(Entitlements(applicationIdentifier: nil, keychainAccessGroups: ["ABCDE12345.com.example.app"])),
            deviceKeyURL: store.deviceKeyURL))
        try direct.unlock(passphrase: CLIStore.passphrase)
        var present: Attributes = [.service: "api", .account: "presence"]
        present.accessControlFlags = .userPresence
        try direct.add(Item(itemClass: .genericPassword, attributes: present, data: Data("here".utf8)))
        direct.lock()
        let presence = try CLI.run(["secitem-read", "--service", "api", "--account", "presence"], home: store.directory,
                                   environment: environment, executable: CLI.helperURL)
        #expect(presence.status == 0 && presence.stdout == "here\n", "\(presence)")
        #expect(try store.run("lock", environment: environment).status == Exit.success)
        #expect(try unmodifiedProgramReads().stdout == "status -25308\n", "secstore lock ends the shared unlock")
        #expect(try store.run(["info", "--json"], stdin: Data(), environment: environment).jsonObject()["lockState"] as? String == "locked")

        // A passphrase change ends a shared unlock: its keys belonged to the old passphrase's
        // epoch (a stale shared key once sealed new items that became unreadable).
        #expect(try store.run("unlock", "--for", "1h", "--passphrase-file", passphrase, environment: environment).status == Exit.success)
        #expect(try unmodifiedProgramReads().stdout == "foreground\n")
        let newPassphrase = try store.passphraseFile("a new passphrase")
        let changed = try store.run(["passphrase", "change", "--passphrase-file", passphrase, "--new-passphrase-file", newPassphrase]
                                    + CLIStore.fastKDF, stdin: Data(), environment: environment)
        #expect(changed.status == Exit.success, "\(changed)")
        #expect(try unmodifiedProgramReads().stdout == "status -25308\n", "the change ended the shared unlock")
        let stale = try store.run(["add", "--service", "api", "--account", "later", "--accessibility", "whenPasscodeSetThisDeviceOnly",
                                   "--value-stdin"], stdin: Data("x".utf8), environment: environment)
        #expect(stale.status == Exit.locked, "no stale shared key seals new items: \(stale)")
    }

    @Test("unlock --for: a wrong passphrase shares nothing; durations are checked", arguments: ["0s", "-5m", "31d", "soon", "1x"])
    func sharedUnlockRejects(duration: String) throws {
        let store = try CLIStore.created(passphrase: true)
        let passphrase = try store.passphraseFile()
        let bad = try store.run("unlock", "--for", duration, "--passphrase-file", passphrase)
        #expect(bad.status == Exit.usage, "\(bad)")
        let wrong = store.file("wrong")
        try Data("not it\n".utf8).write(to: wrong)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: wrong.path)
        #expect(try store.run("unlock", "--for", "1h", "--passphrase-file", wrong.path).status == Exit.authenticationFailed)
    }

    /// A service without a terminal names its passphrase file in `SECSTORE_PASSPHRASE_FILE`;
    /// an exposed file is refused, not used.
    @Test("SECSTORE_PASSPHRASE_FILE unlocks the default store of an unmodified program; an exposed file is refused")
    func passphraseFileForServices() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphrase = try store.passphraseFile()
        let added = try store.run("add", "--service", "api", "--account", "alice", "--value-stdin", "--passphrase-file", passphrase,
                                  stdin: "foreground")
        try #require(added.status == Exit.success, "\(added)")
        var environment = ["SECSTORE_PATH": store.storeURL.path, "SECSTORE_DEVICE_KEY": store.deviceKeyURL.path]
        let arguments = ["secitem-read", "--service", "api", "--account", "alice"]
        // The CLI's items live in its own default group; read them as the tool's identity.
        let entitlements = store.file("tool.entitlements")
        try PropertyListSerialization.data(fromPropertyList: ["application-identifier": "local.secstore"], format: .xml, options: 0)
            .write(to: entitlements)
        environment["SECSTORE_ENTITLEMENTS"] = entitlements.path
        #expect(try CLI.run(arguments, home: store.directory, environment: environment, executable: CLI.helperURL).stdout == "status -25308\n")

        environment["SECSTORE_PASSPHRASE_FILE"] = passphrase
        let read = try CLI.run(arguments, home: store.directory, environment: environment, executable: CLI.helperURL)
        #expect(read.status == 0 && read.stdout == "foreground\n", "\(read)")

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: passphrase)
        let exposed = try CLI.run(arguments, home: store.directory, environment: environment, executable: CLI.helperURL)
        #expect(exposed.status == 1 && exposed.stdout == "status -25291\n", "\(exposed)")
    }
}
