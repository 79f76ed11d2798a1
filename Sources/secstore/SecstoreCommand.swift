import ArgumentParser
import Foundation
import SecStore

/// `secstore`: create, inspect, edit, lock, verify and back up a SecStore store.
///
/// ```
/// secstore create
/// printf %s "$TOKEN" | secstore add --service api.example.com --account ci --value-stdin
/// secstore get --service api.example.com --account ci
/// ```
///
/// `main()` replaces ArgumentParser's so that every failure exits with a status from
/// ``ExitStatus`` and prints `secstore: error: <message>` on standard error.
@main
struct SecstoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secstore",
        abstract: "Create, inspect, edit, lock, verify and back up a SecStore store.",
        discussion: """
        The store is --store PATH, else $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore \
        (~/.local/share/secstore/default.secstore without XDG_DATA_HOME); the device key is --device-key PATH, \
        else $SECSTORE_DEVICE_KEY, else device.key next to the default store.

        Examples:
          secstore create
          printf %s "$TOKEN" | secstore add --service api --account ci --value-stdin
          secstore list
          secstore get --service api --account ci
          secstore exec --env API_TOKEN=api/ci -- ./deploy.sh
          secstore --store /tmp/work.secstore info --json

        Exit status: 0 ok, 1 failure, 2 usage, 3 not found, 4 duplicate, 5 locked,
        6 wrong passphrase, 7 damaged, 8 store unavailable, 9 missing entitlement;
        exec: the command's own status, 126 cannot run it, 127 not found.
        The full manual is docs/cli.md and `man secstore`.
        """,
        version: "1.0.0",
        subcommands: [
            CreateCommand.self, InfoCommand.self, ListCommand.self, GetCommand.self, AddCommand.self,
            UpdateCommand.self, DeleteCommand.self, GenerateCommand.self, EditCommand.self, ExecCommand.self,
            LockCommand.self, UnlockCommand.self,
            PassphraseCommand.self, ExportCommand.self, ImportCommand.self, VerifyCommand.self,
            IdentityCommand.self, KeyringCommand.self, SyncCommand.self,
        ])

    @OptionGroup var storeOptions: StoreOptions

    static func main() {
        CrashHygiene.apply()
        do {
            try CommandLineText.requireUTF8()
        } catch {
            terminate(ErrorReporter.report(error, json: false).rawValue)
        }
        let command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            terminate(reportParseFailure(error))
        }
        // `exec` replaces the process with the command, which must get the signals as the
        // user's shell set them; it makes no temporary file to clean up.
        if !(command is ExecCommand) { InterruptCleanup.installWhenNeeded() }
        let reporting = reportingJSON(command)
        Console.quiet = reporting?.output.quiet ?? false
        do {
            var runnable = command
            try runnable.run()
            terminate(ExitStatus.success.rawValue)
        } catch {
            terminate(ErrorReporter.report(error, json: reporting?.wantsJSON ?? false).rawValue)
        }
    }

    /// The command as ``ReportsJSON``, if it is one. Generic, so that the cast asks about the
    /// command's own type only and not first about the `any ParsableCommand` box around it: the
    /// first time the runtime is asked whether a type conforms to a protocol, it scans every
    /// conformance record in the binary (docs/performance.md, tenth session).
    private static func reportingJSON<Command: ParsableCommand>(_ command: Command) -> (any ReportsJSON)? {
        command as? any ReportsJSON
    }

    /// Help, version and completion requests print to stdout and exit 0; parse errors print
    /// ArgumentParser's message and usage, prefixed like every other error, and exit 2.
    static func reportParseFailure(_ error: Error) -> Int32 {
        let status = ExitStatus(exitCode(for: error))
        var message = fullMessage(for: error)
        if status == .success {
            if !message.isEmpty { Console.line(message) }
            return status.rawValue
        }
        if message.hasPrefix("Error: ") { message = "secstore: error: " + message.dropFirst("Error: ".count) }
        Console.writeMessage(message)
        return status.rawValue
    }
}

/// A command with `--json` (and `--quiet`), so a failure can be reported as JSON too.
protocol ReportsJSON {
    var output: OutputOptions { get }
    /// Whether the output is JSON: `--json`, or `--format json` where a command has it.
    var wantsJSON: Bool { get }
}

extension ReportsJSON {
    var wantsJSON: Bool { output.json }
}

/// Ends the process. A free function: inside a command type, `exit` means ArgumentParser's
/// `exit(withError:)`.
func terminate(_ status: Int32) -> Never {
    exit(status)
}
