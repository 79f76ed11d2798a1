import Foundation
import SecStoreTestSupport
import Testing

/// `docs/man/secstore.1` is what swift-argument-parser's manual generator (the
/// `generate-manual` plugin) makes from the command definitions. When the generator can be
/// had (built beside the tool by `swift package plugin generate-manual`, or built here once
/// into `~/.cache/secstore-generate-manual`), the committed page must equal its output
/// byte for byte, dated as the committed page is; in any case every command and option the
/// tool has must appear in it.
@Suite("secstore man page")
struct ManPageTests {
    static let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let committedURL = repository.appending(path: "docs/man/secstore.1")
    static let stale = "docs/man/secstore.1 is stale: regenerate it (docs/cli.md, \"Man page\")"

    @Test("The committed man page names every command and every option of the tool")
    func coversEveryOption() throws {
        let page = try String(contentsOf: Self.committedURL, encoding: .utf8)
        let dump = try CLI.run(["--experimental-dump-help"], home: FileManager.default.temporaryDirectory)
        let root = try #require((try dump.jsonObject()["command"]) as? [String: Any])
        var missing: [String] = []
        func visit(_ command: [String: Any], path: [String]) {
            let name = command["commandName"] as? String ?? ""
            let here = path + [name]
            if path.count > 0, !page.contains(".It Em \(name)") { missing.append(here.joined(separator: " ")) }
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool != false {
                for spelling in argument["names"] as? [[String: Any]] ?? [] {
                    let kind = spelling["kind"] as? String, text = spelling["name"] as? String ?? ""
                    let flag = kind == "long" ? "-" + text : text
                    if kind != nil, !page.contains("Fl \(flag)"), !page.contains(", \(flag)") {
                        missing.append("\(here.joined(separator: " ")) -\(flag)")
                    }
                }
            }
            for subcommand in command["subcommands"] as? [[String: Any]] ?? [] where subcommand["commandName"] as? String != "help" {
                visit(subcommand, path: here)
            }
        }
        visit(root, path: [])
        #expect(missing.isEmpty, "\(Self.stale); missing: \(missing)")
    }

    @Test("The committed man page is exactly what generate-manual makes from the tool")
    func matchesTheGenerator() throws {
        guard let generator = Self.generator() else {
            print("note: generate-manual could not be built here (no toolchain or packages offline); only the coverage test ran")
            return
        }
        let page = try String(contentsOf: Self.committedURL, encoding: .utf8)
        let dated = try #require(page.split(separator: "\n").first { $0.hasPrefix(".Dd ") }, "the page has a .Dd date")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMMM d, yyyy"
        let date = try #require(formatter.date(from: String(dated.dropFirst(4))), "\(dated)")
        formatter.dateFormat = "yyyy-MM-dd"
        let generated = try CLI.run([CLI.executableURL.path, "--date", formatter.string(from: date), "--output-directory", "-"],
                                    home: FileManager.default.temporaryDirectory, executable: generator)
        try #require(generated.status == 0, "\(generated)")
        // The plugin writes the file without a final newline; printed, the page has one.
        func trimmed(_ text: String) -> Substring { text.hasSuffix("\n") ? text.dropLast() : Substring(text) }
        #expect(trimmed(generated.stdout) == trimmed(page), "\(Self.stale)")
    }

    /// `generate-manual` beside the tool, else in the cache (built there the first time).
    static func generator() -> URL? {
        let beside = CLI.executableURL.deletingLastPathComponent().appending(path: "generate-manual")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        let cache = URL(filePath: NSHomeDirectory()).appending(path: ".cache/secstore-generate-manual")
        let built = cache.appending(path: "debug/generate-manual")
        if FileManager.default.isExecutableFile(atPath: built.path) { return built }
        let swift = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .map { URL(filePath: String($0)).appending(path: "swift") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let swift else { return nil }
        let process = Process()
        process.executableURL = swift
        process.arguments = ["build", "--package-path", repository.path, "--scratch-path", cache.path, "--disable-automatic-resolution",
                             "--product", "generate-manual"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.runWithCleanSignals()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 && FileManager.default.isExecutableFile(atPath: built.path) ? built : nil
    }
}
