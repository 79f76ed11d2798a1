import Foundation
import GRDB

/// `hold-lock --store PATH [--seconds N]`: takes the store's write lock (`BEGIN IMMEDIATE`),
/// prints `holding`, and keeps it for N seconds then commits, or until killed: a slow or
/// stuck writer, for the busy-timeout tests.
enum HoldLockCommand {
    static func run(_ arguments: HelperArguments) throws {
        let queue = try DatabaseQueue(path: try arguments.required("store"))
        let seconds = arguments.optional("seconds").flatMap(Double.init)
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
