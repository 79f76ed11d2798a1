import Foundation
import SecStore
import SecStoreTestSupport
import Testing
@testable import DeviceIdentity

@Suite struct ConcurrentFirstLaunchTests {
    /// 32 processes released at the same moment on an empty store all print one UUID.
    @Test func thirtyTwoProcessesAgreeOnOneIdentifier() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        let gate = directory.url.appending(path: "go")
        let running = try (0..<32).map { _ in
            try helper.start(app.helperArguments(["--start-after", gate.path, "--vendor-group", TestApp.vendorGroup]))
        }
        #expect(FileManager.default.createFile(atPath: gate.path, contents: Data()))
        let outcomes = try running.map { try $0.finish() }
        #expect(outcomes.allSatisfy { $0.status == 0 }, "\(outcomes.filter { $0.status != 0 }.map(\.output))")
        let values = Set(outcomes.compactMap { $0.lines.first?.split(separator: " ").first.map(String.init) })
        #expect(values.count == 1, "processes disagree: \(values)")
        let provenances = outcomes.compactMap { $0.lines.first?.split(separator: " ").last.map(String.init) }
        #expect(provenances.filter { $0 == "generated" }.count == 1, "exactly one process creates the value: \(provenances)")
        // And the store holds exactly that one value.
        let stored = try app.identity(.vendor(accessGroup: TestApp.vendorGroup), mirror: false).identifier()
        #expect(values == [stored.string])
        #expect(stored.provenance == .store)
    }

    /// Many threads of one process do the same.
    @Test func concurrentThreadsAgree() throws {
        let directory = TemporaryDirectory()
        let identity = try TestApp(appID: "ABCDE12345.com.example.app", directory: directory).identity()
        let results = LockedArray<String>()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if let value = try? identity.identifier().string { results.append(value) }
        }
        #expect(results.values.count == 16)
        #expect(Set(results.values).count == 1)
    }
}

/// Collects values from concurrent closures.
final class LockedArray<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []
    func append(_ value: Element) { lock.withLock { storage.append(value) } }
    var values: [Element] { lock.withLock { storage } }
}
