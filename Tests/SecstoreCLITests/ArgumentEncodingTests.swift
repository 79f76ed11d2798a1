import Foundation
import Testing

/// Arguments that are not UTF-8 text (a Latin-1 name from an old script or file name) are
/// refused before anything is parsed: decoded with replacement characters, two different
/// names would become the same item.
@Suite("Arguments are UTF-8")
struct ArgumentEncodingTests {
    /// Runs `secstore --store … --device-key … ARGUMENTS…` through `/bin/sh`, which can pass
    /// bytes a Swift `String` cannot hold: each argument is a printf(1) format, where `\ooo`
    /// is one byte.
    static func run(_ store: CLIStore, _ printfArguments: [String], stdin: String = "") throws -> CLI.Result {
        let words = (store.storeArguments + printfArguments).map { "\"$(printf -- '\($0)')\"" }.joined(separator: " ")
        return try CLI.run(["-c", "exec '\(CLI.executableURL.path)' \(words)"], stdin: Data(stdin.utf8), home: store.directory,
                           executable: URL(filePath: "/bin/sh"))
    }

    /// The message for the `position`th of the ARGUMENTS of ``run(_:_:stdin:)``, which come
    /// after the four store arguments.
    static func refusal(_ store: CLIStore, _ position: Int) -> String {
        "Argument \(store.storeArguments.count + position) is not UTF-8"
    }

    @Test("Two Latin-1 names are refused (status 2), not merged into one item")
    func latin1NamesAreRefused() throws {
        let store = try CLIStore.created()
        let first = try Self.run(store, ["add", "-s", "caf\\351", "-a", "u", "--value-stdin"], stdin: "first")
        #expect(first.status == Exit.usage, "\(first)")
        #expect(first.stderr.contains(Self.refusal(store, 3)), "\(first.stderr)")
        #expect(!first.stderr.contains("caf"), "the message names the position, not the bytes: \(first.stderr)")
        let second = try Self.run(store, ["add", "-s", "caf\\350", "-a", "u", "--value-stdin", "--update"], stdin: "second")
        #expect(second.status == Exit.usage, "\(second)")
        #expect(try store.run("list", "--json").jsonArray().isEmpty, "nothing was added")
    }

    @Test("Every argument is checked: options, their values, a command's words after --", arguments: [
        (["list", "--glob", "-s", "\\377*"], 4),
        (["get", "--ref", "\\300\\200"], 3),
        (["exec", "-e", "T=api/ci", "--", "echo", "\\351"], 6),
        (["--label\\351", "list"], 1),
    ])
    func everyArgument(_ arguments: [String], position: Int) throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        let result = try Self.run(store, arguments)
        #expect(result.status == Exit.usage, "\(result)")
        #expect(result.stderr.contains(Self.refusal(store, position)), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "nothing ran: \(result.stdout)")
    }

    @Test("UTF-8 names outside ASCII are arguments like any other")
    func utf8NamesWork() throws {
        let store = try CLIStore.created()
        let added = try Self.run(store, ["add", "-s", "caf\\303\\251", "-a", "u", "--value-stdin"], stdin: "s")
        #expect(added.status == Exit.success, "\(added)")
        #expect(try store.run("get", "-s", "café", "-a", "u").stdout == "s")
    }
}
