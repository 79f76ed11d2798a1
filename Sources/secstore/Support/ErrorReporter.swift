import ArgumentParser
import SecStore
import SecStoreSync

/// Turns a failure into its exit status and messages: `secstore: error: <message>` on
/// standard error always, and with `--json` also a JSON object on standard output:
///
/// ```json
/// { "error": { "code": "itemNotFound", "exitCode": 3, "message": "…", "osStatus": -25300 } }
/// ```
enum ErrorReporter {
    static func report(_ error: Error, json: Bool) -> ExitStatus {
        let status: ExitStatus
        let name: String
        let message: String
        var osStatus: Int32?
        switch error {
        case let error as SecStoreError:
            status = ExitStatus(error.code)
            name = error.code.name
            message = error.message
            osStatus = error.status
        case let error as CLIError:
            status = error.status
            name = error.name
            message = error.message
        case let error as SyncError:
            status = ExitStatus(error)
            name = "sync"
            message = error.description
        case let error as ExitCode:
            return ExitStatus(error)
        case let error as ValidationError:
            status = .usage
            name = "usage"
            message = error.message
        default:
            // ArgumentParser's own errors and requests (help, version, completion scripts).
            return ExitStatus(rawValue: SecstoreCommand.reportParseFailure(error)) ?? .failure
        }
        Console.error(message)
        if json {
            var object: [String: JSONValue] = ["code": .string(name), "exitCode": .number(Int64(status.rawValue)),
                                               "message": .string(message)]
            if let osStatus { object["osStatus"] = .number(Int64(osStatus)) }
            JSONOutput.print(["error": .object(object)])
        }
        return status
    }
}
