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
        let found = try #require(try CrashState.whileWaitingForInput(helper, ["get"], environment: home.environment))
        #expect(found.leavesNothing, "\(helper.lastPathComponent): \(found)")
    }
}
