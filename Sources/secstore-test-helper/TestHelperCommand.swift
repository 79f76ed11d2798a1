import ArgumentParser
import CrashVFS
import Foundation
import SecStore

/// `secstore-test-helper`: a small program the test suites start as separate processes, for
/// behaviour that is about processes: sharing a store, locking, crashes, races. Not shipped
/// as a product.
///
/// ```
/// secstore-test-helper COMMAND --store PATH --device-key PATH [options]
/// ```
///
/// The tests read its standard output and exit status, so both are part of its interface:
/// results go to stdout, one per line, with exit status 0; a failed SecStore call prints
/// `error <name> <OSStatus>` (``reportFailure(_:)``) and exits 1; a bad command line exits
/// 64 (`EX_USAGE`, ArgumentParser's `ExitCode.validationFailure`) with the message on stderr.
/// `main()` replaces ArgumentParser's so that a failed call is reported that way rather
/// than as ArgumentParser's `Error: …` on stderr.
@main
struct TestHelperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secstore-test-helper",
        abstract: "Separate processes for the multi-process tests of SecStore.",
        discussion: """
        Prints results on standard output, one per line, and exits 0; prints \
        `error <name> <OSStatus>` and exits 1 when a SecStore call fails; exits 64 on a bad \
        command line.
        """,
        subcommands: [
            ReadCommand.self, UnlockCommand.self, ChurnPassphraseCommand.self, IdentityCommand.self,
            OperationCommand.self, ContentionCommand.self, HoldLockCommand.self, SecItemReadCommand.self, SecItemWriteCommand.self, AckWriterCommand.self,
            PowerLossCommand.self, SearchAndHoldCommand.self,
        ])

    static func main() {
        // CRASHVFS=1: every SQLite file goes through the power-cut simulating VFS
        // (Tests/CrashVFS), and SecStore's own files through its model of them (the
        // FileSystem seam), whatever the command; without it, nothing changes.
        switch crashvfs_install_from_environment() {
        case ..<0:
            print("error crashvfs could not be installed")
            terminate(70)
        case 1:
            FileSystem.current = .crashSimulating
        default:
            break
        }
        let command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            // Help exits 0; every parse or validation error exits 64.
            exit(withError: error)
        }
        // Only the root parsed: no command was named. A usage error, as it always was.
        if command is TestHelperCommand {
            exit(withError: ValidationError("Name a command: \(commandNames.joined(separator: ", "))."))
        }
        do {
            var runnable = command
            try runnable.run()
        } catch {
            // `--help` parses to ArgumentParser's own help command, whose run "fails" with
            // the help text; every other error comes from the call under test.
            if isArgumentParserRequest(error) { exit(withError: error) }
            reportFailure(error)
            terminate(1)
        }
        terminate(0)
    }

    /// Help (exit 0) or a usage error (exit 64): ArgumentParser prints these itself.
    private static func isArgumentParserRequest(_ error: Error) -> Bool {
        let code = exitCode(for: error)
        return code == .success || code == .validationFailure
    }

    private static var commandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }
}

/// Ends the process. A free function: inside a command type, `exit` means ArgumentParser's
/// `exit(withError:)`.
func terminate(_ status: Int32) -> Never {
    exit(status)
}
