import Foundation
import SecStoreTestSupport
import Testing

@Suite("secstore verify")
struct VerifyTests {
    @Test("verify of an intact store exits 0 and reports every item checked")
    func intact() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "a")
        try store.add(service: "api", account: "bob", secret: "b")
        let text = try store.run("verify")
        #expect(text.status == Exit.success, "\(text)")
        #expect(text.stdout == "Verified 2 items: no damage found.\n")
        #expect(text.stderr.isEmpty, "no progress bar when stderr is not a terminal")

        let json = try store.run("verify", "--json").jsonObject()
        #expect(json["intact"] as? Bool == true)
        #expect(json["verifiedItems"] as? Int == 2)
        #expect((json["damagedItems"] as? [Any])?.isEmpty == true)
        #expect((json["databaseProblems"] as? [Any])?.isEmpty == true)
        #expect((json["lockedItems"] as? [Any])?.isEmpty == true)
    }

    @Test("verify finds a deliberately damaged row, names it, and exits 7")
    func damagedRow() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "a")
        try store.add(service: "api", account: "bob", secret: "b")
        let listed = try store.run("list", "--account", "bob", "--json").jsonArray()
        let reference = try #require(listed.first?["ref"] as? String)
        try StoreTampering.flipSecretByte(store: store.storeURL, referenceHex: reference)

        let text = try store.run("verify")
        #expect(text.status == Exit.damaged, "\(text)")
        #expect(text.stdout.contains("\(reference)  its secret failed authentication"), "\(text.stdout)")
        #expect(text.stdout.contains("Verified 1 item: 1 damaged."))
        #expect(text.stderr.hasPrefix("secstore: error: The store is damaged: 1 damaged item and database problems."), "\(text.stderr)")
        #expect(text.stdout.contains("database: the items do not match the store's digest"), "\(text.stdout)")

        let json = try store.run("verify", "--json")
        #expect(json.status == Exit.damaged)
        let report = try json.jsonObject()
        #expect(report["intact"] as? Bool == false)
        let damaged = try #require(report["damagedItems"] as? [[String: Any]])
        #expect(damaged.count == 1)
        #expect(damaged.first?["ref"] as? String == reference)
        #expect((damaged.first?["problem"] as? String)?.contains("secret") == true)

        // Reading it fails as damaged too; the intact item still reads.
        #expect(try store.run("get", "--service", "api", "--account", "bob").status == Exit.damaged)
        #expect(try store.run("get", "--service", "api", "--account", "alice").stdout == "a")

        // Accepting the items as they are is refused while one is damaged.
        #expect(try store.run("verify", "--accept-current-items").status == Exit.damaged)
        let removed = try store.run("delete", "--ref", reference, "--damaged")
        #expect(removed.status == Exit.success, "\(removed)")
        let afterRemoval = try store.run("verify", "--json")
        #expect(afterRemoval.status == Exit.damaged)
        #expect(try afterRemoval.jsonObject()["itemsMatchDigest"] as? Bool == false)
        let accepted = try store.run("verify", "--accept-current-items")
        #expect(accepted.status == Exit.success, "\(accepted)")
        #expect(try store.run("verify").status == Exit.success)
    }

    /// Before: `delete` printed "Deleted 1 item." and exited 0, `get` still printed the secret,
    /// and `verify` found the store intact (the second trigger keeps the items digest as it was).
    @Test("A store file with planted triggers is refused by every command, verify included (status 7, naming them); nothing is deleted")
    func plantedTriggersAreRefused() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "a")
        try StoreTampering.execute(PlantedSchema.undoDeletes, store: store.storeURL)
        for command in [["delete", "--service", "api", "--account", "alice"], ["get", "--service", "api", "--account", "alice"], ["verify"]] {
            let result = try store.run(command, stdin: Data())
            #expect(result.status == Exit.damaged, "\(command): \(result)")
            #expect(result.stdout.isEmpty, "\(command): \(result)")
            #expect(result.stderr.contains("added: trigger “keep” on items, trigger “keepDigest” on store"), "\(command): \(result)")
        }
        // Removed by their owner, they leave the store as it was: the item is still there.
        try StoreTampering.execute("DROP TRIGGER keep; DROP TRIGGER keepDigest", store: store.storeURL)
        #expect(try store.run("get", "--service", "api", "--account", "alice").stdout == "a")
        #expect(try store.run("verify").status == Exit.success)
    }

    @Test("verify counts items in locked classes apart, and checks them with the passphrase")
    func lockedItems() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphrase = try store.passphraseFile()
        try store.add(service: "api", account: "alice", secret: "a", "--passphrase-file", passphrase)
        try store.add(service: "api", account: "bob", secret: "b", "--accessibility", "always")

        let locked = try store.run("verify", "--json").jsonObject()
        #expect(locked["verifiedItems"] as? Int == 1)
        #expect((locked["lockedItems"] as? [String])?.count == 1)
        #expect(try store.run("verify").stdout.contains("Not checked: 1 item in locked classes"))

        let unlocked = try store.run("verify", "--json", "--passphrase-file", passphrase).jsonObject()
        #expect(unlocked["verifiedItems"] as? Int == 2)
    }
}

/// One damaged item does not hide the rest of the store from `list`.
@Suite("list with a damaged item") struct ListDamageTests {
    @Test("list shows the intact items, names the damaged one on standard error, and exits 7")
    func listCarriesOn() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "a")
        try store.add(service: "api", account: "bob", secret: "b")
        let listed = try store.run("list", "--json").jsonArray()
        let bob = try #require(listed.first { $0["account"] as? String == "bob" || ($0["attributes"] as? [String: Any])?["account"] as? String == "bob" })
        let reference = try #require(bob["ref"] as? String)
        try StoreTampering.flipSecretByte(store: store.storeURL, referenceHex: reference)

        let table = try store.run("list")
        #expect(table.status == Exit.damaged, "\(table)")
        #expect(table.stdout.contains("alice") && !table.stdout.contains("bob"), "\(table.stdout)")
        #expect(table.stderr.contains(reference) && table.stderr.contains("is damaged"), "\(table.stderr)")

        let json = try store.run("list", "--json")
        #expect(json.status == Exit.damaged)
        #expect(try json.jsonArray().count == 1, "stdout stays one JSON document")
        // Apple's API keeps its contract: a search that meets the damaged item fails.
        #expect(try store.run("get", "--service", "api", "--account", "bob").status == Exit.damaged)

        // export: nothing without --skip-damaged; a partial backup (status 7) with it.
        let backup = store.file("partial.ssb")
        let refused = try store.run(["export", backup.path, "--backup-passphrase-stdin"] + CLIStore.fastKDF, stdin: Data("bp\n".utf8))
        #expect(refused.status == Exit.damaged && !FileManager.default.fileExists(atPath: backup.path), "\(refused)")
        let partial = try store.run(["export", backup.path, "--skip-damaged", "--backup-passphrase-stdin"] + CLIStore.fastKDF,
                                    stdin: Data("bp\n".utf8))
        #expect(partial.status == Exit.damaged && partial.stderr.contains(reference), "\(partial)")
        // With --json, one document: the summary and the failure together (before: the summary,
        // then a second document with the error, which no JSON parser reads).
        for plaintext in [false, true] {
            let target = store.file("partial-\(plaintext).out")
            let arguments = ["export", target.path, "--skip-damaged", "--json"] + (plaintext ? ["--format", "json", "--plaintext"]
                                                                                           : ["--backup-passphrase-stdin"] + CLIStore.fastKDF)
            let summary = try store.run(arguments, stdin: Data("bp\n".utf8))
            #expect(summary.status == Exit.damaged, "\(summary)")
            let document = try summary.jsonObject()
            #expect(document["exported"] as? Int == 1 && document["skippedDamaged"] as? Int == 1, "\(document)")
            #expect((document["error"] as? [String: Any])?["code"] as? String == "partialBackup", "\(document)")
        }
        let restored = try CLIStore.created()
        #expect(try restored.run(["import", backup.path, "--backup-passphrase-stdin"], stdin: Data("bp\n".utf8)).status == Exit.success)
        #expect(try restored.run("get", "--service", "api", "--account", "alice").stdout == "a")
        #expect(try restored.run("get", "--service", "api", "--account", "bob").status == Exit.notFound)
    }

    @Test("list and export --plaintext --skip-damaged carry on past malformed rows (an unknown accessibility byte, a bad reference), as the encrypted export does")
    func malformedRowsAreLeftOut() throws {
        let store = try CLIStore.created()
        for account in ["alice", "bob", "carol"] { try store.add(service: "api", account: account, secret: account) }
        let listed = try store.run("list", "--json").jsonArray()
        func reference(_ account: String) throws -> String {
            let item = try #require(listed.first { ($0["attributes"] as? [String: Any])?["account"] as? String == account })
            return try #require(item["ref"] as? String)
        }
        let bob = try reference("bob"), carol = try reference("carol")
        try StoreTampering.setColumn("accessibility", to: 99, store: store.storeURL, referenceHex: bob)
        // A reference of the wrong length: the row cannot be named.
        try StoreTampering.setColumn("ref", to: Data([0x00]), store: store.storeURL, referenceHex: carol)

        let table = try store.run("list")
        #expect(table.status == Exit.damaged, "\(table)")
        #expect(table.stdout.contains("alice") && !table.stdout.contains("bob"), "\(table.stdout)")
        #expect(table.stderr.contains(bob) && table.stderr.contains("1 row is too malformed to name an item"), "\(table.stderr)")
        let json = try store.run("list", "--json")
        #expect(json.status == Exit.damaged, "\(json)")
        #expect(try json.jsonArray().count == 1, "stdout stays one JSON document")

        // Plaintext export: nothing without --skip-damaged; the rest, status 7, with it.
        let refused = store.file("refused.json")
        let stopped = try store.run("export", "--format", "json", "--plaintext", refused.path)
        #expect(stopped.status == Exit.damaged && !FileManager.default.fileExists(atPath: refused.path), "\(stopped)")
        let partial = store.file("partial.json")
        let skipped = try store.run("export", "--format", "json", "--plaintext", "--skip-damaged", partial.path)
        #expect(skipped.status == Exit.damaged, "\(skipped)")
        #expect(skipped.stderr.contains(bob) && skipped.stderr.contains("too malformed"), "\(skipped.stderr)")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: partial)) as? [[String: Any]]
        #expect(written?.count == 1 && written?.first?["secret"] as? String == "alice")
        let document = try store.run("export", "--format", "json", "--plaintext", "--skip-damaged", "--json", "--force", partial.path)
        #expect(try document.jsonObject()["skippedDamaged"] as? Int == 2, "\(document)")

        // The encrypted export leaves out the same rows.
        let backup = store.file("partial.ssb")
        let encrypted = try store.run(["export", backup.path, "--skip-damaged", "--json", "--backup-passphrase-stdin"] + CLIStore.fastKDF,
                                      stdin: Data("bp\n".utf8))
        #expect(try encrypted.jsonObject()["skippedDamaged"] as? Int == 2, "\(encrypted)")
    }
}
