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
            JSONOutput.print(["error": .object(object(name: name, status: status, message: message, osStatus: osStatus))])
        }
        return status
    }

    /// The `"error"` member of a JSON document: `code`, `exitCode`, `message`, and `osStatus`
    /// when the engine reported the failure.
    static func object(name: String, status: ExitStatus, message: String, osStatus: Int32? = nil) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["code": .string(name), "exitCode": .number(Int64(status.rawValue)),
                                           "message": .string(message)]
        if let osStatus { object["osStatus"] = .number(Int64(osStatus)) }
        return object
    }

    /// Ends a command whose result is printed but which still fails (a partial export): with
    /// `--json`, `summary` and the failure as one document (`"error"` beside the summary's
    /// members, since `--json` prints one document); else the summary was reported already
    /// and only the failure is. Returns the error to throw: the exit status alone.
    static func failing(_ error: CLIError, after summary: [String: JSONValue], json: Bool) -> ExitCode {
        Console.error(error.message)
        if json {
            var document = summary
            document["error"] = .object(object(name: error.name, status: error.status, message: error.message))
            JSONOutput.print(.object(document))
        }
        return ExitCode(error.status.rawValue)
    }
}
