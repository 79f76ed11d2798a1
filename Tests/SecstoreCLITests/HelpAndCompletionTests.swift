import Foundation
import Testing

@Suite("secstore help, usage errors and completion")
struct HelpAndCompletionTests {
    static let commands: [[String]] = [
        ["create"], ["info"], ["list"], ["get"], ["add"], ["update"], ["delete"], ["generate"], ["edit"], ["exec"],
        ["lock"], ["unlock"],
        ["passphrase"], ["passphrase", "set"], ["passphrase", "change"], ["passphrase", "remove"],
        ["export"], ["import"], ["verify"], ["identity"], ["identity", "show"], ["identity", "reset"],
    ]

    @Test("Every command's --help has examples", arguments: commands)
    func helpHasExamples(_ command: [String]) throws {
        let home = FileManager.default.temporaryDirectory
        let result = try CLI.run(command + ["--help"], home: home)
        #expect(result.status == Exit.success)
        #expect(result.stdout.contains("Examples:"), "\(command): \(result.stdout)")
        #expect(result.stdout.contains("secstore \(command.joined(separator: " "))"))
        #expect(result.stderr.isEmpty)
    }

    @Test("The root help names the store options and the exit statuses")
    func rootHelp() throws {
        let result = try CLI.run(["--help"], home: FileManager.default.temporaryDirectory)
        #expect(result.status == Exit.success)
        #expect(result.stdout.contains("USAGE: secstore [--store <path>] [--device-key <path>] <subcommand>"))
        #expect(result.stdout.contains("3 not found, 4 duplicate, 5 locked"))
    }

    @Test("Parse errors exit 2 with `secstore: error:` and the usage")
    func parseErrors() throws {
        let home = FileManager.default.temporaryDirectory
        for arguments in [["frobnicate"], ["list", "--no-such-option"], ["get", "--port", "http"], ["export"]] {
            let result = try CLI.run(arguments, home: home)
            #expect(result.status == Exit.usage, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("secstore: error: "), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("The committed completion scripts match what the tool generates", arguments: ["bash", "zsh", "fish"])
    func completionScripts(_ shell: String) throws {
        let result = try CLI.run(["--generate-completion-script", shell], home: FileManager.default.temporaryDirectory)
        #expect(result.status == Exit.success)
        #expect(result.stdout.contains("secstore"))
        let committed = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "docs/completions/secstore.\(shell)")
        let text = try String(contentsOf: committed, encoding: .utf8)
        #expect(text == result.stdout, "docs/completions/secstore.\(shell) is stale: regenerate it (see docs/cli.md, Shell completion)")
    }
}
