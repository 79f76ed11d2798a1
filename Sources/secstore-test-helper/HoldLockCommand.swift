import ArgumentParser
import Foundation
import GRDB

/// `hold-lock --store PATH [--seconds N]`: takes the store's write lock (`BEGIN IMMEDIATE`),
/// prints `holding`, and keeps it for N seconds then commits, or until killed: a slow or
/// stuck writer, for the busy-timeout tests. It opens the file with plain SQLite, so it
/// needs no device key.
struct HoldLockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hold-lock",
        abstract: "Hold the store's write lock for a while, or until killed.")

    @Option(name: .customLong("store"), help: ArgumentHelp("The store file.", valueName: "path"))
    var storePath: String

    @Option(help: "Commit and exit after this many seconds (fractions allowed). Default: hold until killed.")
    var seconds: Double?

    func run() throws {
        let queue = try DatabaseQueue(path: storePath)
        try queue.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            print("holding")
            fflush(nil)
            guard let seconds else { while true { sleep(60) } }
            Thread.sleep(forTimeInterval: seconds)
            try db.execute(sql: "COMMIT")
        }
    }
}
