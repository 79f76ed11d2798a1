import Foundation

// A small program the test suites start as separate processes, for behaviour that is about
// processes: sharing a store, locking, crashes, races. Not shipped as a product.
//
//   secstore-test-helper COMMAND --store PATH --device-key PATH [options]
//
// It prints results on stdout, one per line, and exits 0, or prints `error <name> <OSStatus>`
// and exits 1 when the SecStore call failed.

let commands: [String: (HelperArguments) throws -> Void] = [
    "read": ReadCommand.run,
    "unlock": UnlockCommand.run,
    "churn-passphrase": ChurnPassphraseCommand.run,
    "identity": IdentityCommand.run,
    "op": OperationCommand.run,
    "contend": ContentionCommand.run,
    "hold-lock": HoldLockCommand.run,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let command = commands[name] else {
    FileHandle.standardError.write(Data("usage: secstore-test-helper \(commands.keys.sorted().joined(separator: "|")) --store PATH --device-key PATH …\n".utf8))
    exit(64)
}
do {
    try command(try HelperArguments(Array(arguments.dropFirst())))
} catch let error as HelperArguments.UsageError {
    FileHandle.standardError.write(Data("secstore-test-helper: \(error.message)\n".utf8))
    exit(64)
} catch {
    reportFailure(error)
    exit(1)
}
