import Foundation
import SecStoreTestSupport
import Testing

/// The programs these tests run: the built helpers, and real clients through ``ProgramRun``.
enum Run {
    /// What one run produced.
    typealias Result = ProgramRun.Result

    /// The directory of the built products: the test bundle sits beside the executables.
    static var productsDirectory: URL { ProgramRun.productsDirectory }

    static var gitHelperURL: URL { productsDirectory.appending(path: "git-credential-secstore") }
    static var dockerHelperURL: URL { productsDirectory.appending(path: "docker-credential-secstore") }

    /// The absolute path of a program on `PATH`.
    static func which(_ name: String) -> URL? { ProgramRun.which(name) }

    /// ``ProgramRun/run(_:_:stdin:environment:timeout:)``, recording a run that had to be
    /// terminated at its deadline as an issue.
    static func run(_ executable: URL, _ arguments: [String], stdin: Data = Data(),
                    environment: [String: String], timeout: TimeInterval = 60) throws -> Result {
        let result = try ProgramRun.run(executable, arguments, stdin: stdin, environment: environment, timeout: timeout)
        if result.timedOut {
            Issue.record("\(executable.lastPathComponent) \(arguments) did not finish within \(timeout) s")
        }
        return result
    }
}

