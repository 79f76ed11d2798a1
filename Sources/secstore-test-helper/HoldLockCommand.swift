import Foundation
import GRDB

/// `hold-lock --store PATH`: takes the store's write lock (`BEGIN IMMEDIATE`), prints
/// `holding`, and keeps it until killed: a stuck writer, for the busy-timeout test.
enum HoldLockCommand {
    static func run(_ arguments: HelperArguments) throws {
        let queue = try DatabaseQueue(path: try arguments.required("store"))
        try queue.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            print("holding")
            fflush(nil)
            while true { sleep(60) }
        }
    }
}
