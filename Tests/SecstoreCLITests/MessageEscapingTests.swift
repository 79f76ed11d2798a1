import Foundation
import Testing

/// What the tool says about what the user gave it (a group, an option, a path, a class)
/// reaches the terminal with its control characters escaped, as names from files and stores
/// do (HostileImportTests): a name copied from a hostile file or directory listing can
/// hold an escape sequence that would clear the screen, retitle the window or hide text.
@Suite("secstore messages escape the controls in what they repeat")
struct MessageEscapingTests {
    /// An ESC sequence that clears the screen, the C1 CSI (U+009B) and a right-to-left override.
    static let hostile = "x\u{1b}[2J\u{9b}2J\u{202e}y"

    @Test("Errors, usage errors and hints repeat arguments and paths escaped", arguments: [
        "group", "option", "class", "store path", "passphrase file",
    ])
    func argumentsAreEscaped(_ place: String) throws {
        let store = try CLIStore.created()
        let result: CLI.Result
        switch place {
        case "group": result = try store.run("get", "-s", "s", "-a", "a", "-g", Self.hostile)
        case "option": result = try store.run("list", "--\(Self.hostile)")
        case "class": result = try store.run("list", "--class", Self.hostile)
        case "store path":
            result = try CLI.run(["list", "--store", store.file(Self.hostile).appending(path: "s.db").path,
                                  "--device-key", store.deviceKeyURL.path], home: store.directory)
        default:
            let file = store.file(Self.hostile)
            try Data("pw".utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            result = try store.run("list", "--passphrase-file", file.path)
        }
        #expect(result.status != Exit.success, "\(result)")
        #expect(result.stderr.contains("x\\u{1b}[2J\\u{9b}2J\\u{202e}y"), "\(result.stderr)")
        #expect(HostileImportTests.raw(result.stderr).isEmpty, "raw controls \(HostileImportTests.raw(result.stderr)) in \(result.stderr)")
    }
}
