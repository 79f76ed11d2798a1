import Foundation
import Glibc
import SecStoreTestSupport

/// Finding and running the programs the tests drive.
enum Programs {
    /// What one run produced.
    typealias Result = ProgramRun.Result

    /// The directory of the built products: the test bundle sits beside the executables.
    static var productsDirectory: URL { ProgramRun.productsDirectory }

    /// The absolute path of a program on `PATH`, or an error naming the package to install.
    static func require(_ name: String) throws -> URL {
        guard let url = ProgramRun.which(name) else {
            throw ProgramError("\(name) is not installed: run scripts/bootstrap.sh (dbus-daemon, libsecret-tools).")
        }
        return url
    }

    /// Polls `condition` every 10 ms. The 60-second deadline is not an assertion about speed:
    /// it only turns a process that never gets ready into a failure instead of a hung suite.
    static func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else { throw ProgramError("gave up waiting for \(what)") }
            usleep(10_000)
        }
    }

    /// Runs a program to its end (``ProgramRun``); one still running after 60 s is terminated,
    /// so a client waiting for a prompt that never completes fails instead of hanging the suite.
    static func run(_ executable: URL, _ arguments: [String], stdin: Data = Data(),
                    environment: [String: String]) throws -> Result {
        try ProgramRun.run(executable, arguments, stdin: stdin, environment: environment, timeout: 60)
    }
}

/// A test environment that could not be set up.
struct ProgramError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
