import Foundation
import SecStoreTestSupport
import KeychainServices
import Testing

extension DefaultStoreTests {
    /// The `secstore` tool and the SecItem functions follow one rule for where a new item
    /// goes, so an item a user adds from the shell is the one the application finds.
    @Suite("secstore and SecItemAdd agree") struct ToolAgreementTests {
        @Test("Under the same entitlements, `secstore add` and SecItemAdd use the same default group: the first keychain group, not the application identifier")
        func sameDefaultGroup() throws {
            // keychain-access-groups [G1, G2] and application-identifier A: Apple's default is G1.
            let keychain = try KeychainFixture()
            #expect(add(.itemA).status == errSecSuccess)

            let tool = try runSecstore(["add", "--service", "from-tool", "--account", "a", "--value-stdin", "--json"],
                                       stdin: "tool-pw", environment: keychain.environment)
            #expect(tool.status == 0, "\(tool.stderr)")
            let toolJSON = try #require(try JSONSerialization.jsonObject(with: tool.stdout) as? [String: Any])
            let toolGroup = try #require((toolJSON["attributes"] as? [String: Any])?["accessGroup"] as? String)

            let fromAPI = copyMatching(.queryQ.with([kSecReturnAttributes as String: true]))
            let apiGroup = try #require(fromAPI.dictionary?[kSecAttrAccessGroup as String] as? String)
            #expect(apiGroup == KeychainFixture.g1)
            #expect(toolGroup == apiGroup)

            // And the application finds the tool's item without naming a group.
            let found = copyMatching([kSecClass as String: kSecClassGenericPassword,
                                      kSecAttrService as String: "from-tool", kSecReturnData as String: true])
            #expect(found.status == errSecSuccess)
            #expect(found.data == "tool-pw".utf8Data)
        }
    }
}

/// Runs the `secstore` binary built next to the test bundle.
private func runSecstore(_ arguments: [String], stdin: String, environment: [String: String]) throws -> (status: Int32, stdout: Data, stderr: String) {
    let process = Process()
    process.executableURL = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appending(path: "secstore")
    process.arguments = arguments
    var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SECSTORE_") }
    variables["SECSTORE_KEYRING"] = "off"
    for (key, value) in environment { variables[key] = value }
    process.environment = variables
    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.runWithCleanSignals()
    try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    // Small outputs: reading to the end before waiting cannot deadlock here.
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
}
