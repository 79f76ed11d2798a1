import ArgumentParser

/// `secstore`: create, inspect, edit, lock, verify and back up a SecStore store.
@main
struct SecstoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secstore",
        abstract: "Create, inspect, edit, lock, verify and back up a SecStore store.")
}
