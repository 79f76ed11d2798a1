import Foundation
import SecStoreTestSupport
import Testing

/// The helpers hold a store's keys and the credential they answer with: like the `secstore`
/// tool, a crash of either leaves no core file and prints no register dump.
@Suite struct CrashHygieneTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/limits")),
          arguments: [Run.gitHelperURL, Run.dockerHelperURL])
    func theRunningHelperWritesNoCoreFile(helper: URL) throws {
        let home = try HelperHome()
        let launch = CrashState.launcher(for: helper, ["get"])
        let process = Process()
        process.executableURL = launch.executable
        process.arguments = launch.arguments
        process.environment = home.environment
        let input = Pipe()
        process.standardInput = input   // held open: the helper waits for its request
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        // Wait until the helper (the shell has exec'd it) is reading standard input.
        let pid = process.processIdentifier
        func waitsForInput() -> Bool {
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            let waitChannel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            return !name.hasPrefix("sh") && waitChannel.contains("pipe")
        }
        let deadline = Date().addingTimeInterval(10)
        while !waitsForInput() && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let state = CrashState(pid: pid)
        let found = try #require(state)
        #expect(found.leavesNothing, "\(helper.lastPathComponent): \(found)")
    }
}
