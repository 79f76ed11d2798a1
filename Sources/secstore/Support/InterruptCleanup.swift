import Dispatch
import Foundation
import SecStore
import Synchronization

/// Removes SecStore's temporary files (a backup half exported, a store half built) and wipes
/// the tool's private scratch files (a secret being edited) when the user interrupts the tool
/// (Ctrl-C, Ctrl-\), or a service manager stops it (SIGTERM, SIGHUP), then dies of the same
/// signal, as the user asked. The signals are taken with dispatch sources, so the cleanup runs
/// as ordinary code on a queue, not inside a signal handler.
///
/// While a child program owns the terminal (`secstore edit` running `$EDITOR`), Ctrl-C and
/// Ctrl-\ are the child's to handle, as git does for its editor: the tool ignores SIGINT and
/// SIGQUIT until the child exits (``whileChildRuns(_:)``).
///
/// Installed when the process first has something to clean up (``installWhenNeeded()``): a
/// command that makes no temporary file (`get`, `list`, `info`) has nothing to remove, so a
/// signal takes its default action (or none, when the parent set it to be ignored), and the
/// command never starts the dispatch threads and signal sources the cleanup takes (0.2–0.3 ms
/// of a `secstore get`; docs/decisions.md).
enum InterruptCleanup {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    /// The signals whose disposition was not "ignore" before the tool took them: a child
    /// program gets them back as default (one started under `nohup` keeps SIGHUP ignored).
    /// Empty until the cleanup is installed, when the tool has changed no disposition.
    nonisolated(unsafe) private(set) static var signalsToDefaultInChildren: [Int32] = []
    private static let childRunning = Atomic<Bool>(false)
    /// Runs ``install()`` once, whichever thread first needs it.
    private static let installation: Void = install()

    /// Has the cleanup installed before the first SecStore temporary is registered; a
    /// ``PrivateScratch`` installs it itself (``ensureInstalled()``).
    static func installWhenNeeded() {
        TemporaryFiles.whenRegistering.withLock { $0 = { ensureInstalled() } }
    }

    /// Installs the cleanup unless it is installed already.
    static func ensureInstalled() {
        _ = installation
    }

    private static func install() {
        let queue = DispatchQueue(label: "secstore.interrupt")
        signalsToDefaultInChildren = []
        sources = signals.map { signalNumber in
            let previous = signal(signalNumber, SIG_IGN)
            // SIG_IGN is the handler address 1.
            if unsafeBitCast(previous, to: Int.self) != 1 { signalsToDefaultInChildren.append(signalNumber) }
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                if childRunning.load(ordering: .sequentiallyConsistent) && (signalNumber == SIGINT || signalNumber == SIGQUIT) {
                    return
                }
                PrivateScratch.wipeAll()
                PlaintextFile.wipeAll()
                TemporaryFiles.removeAll()
                // Die of the signal here and now: this queue's thread blocks signals, and a
                // process started with them blocked would never take one sent to it.
                signal(signalNumber, SIG_DFL)
                var only = sigset_t()
                sigemptyset(&only)
                sigaddset(&only, signalNumber)
                pthread_sigmask(SIG_UNBLOCK, &only, nil)
                raise(signalNumber)
            }
            source.resume()
            return source
        }
    }

    /// Runs `body` (which waits for a child on the terminal) with Ctrl-C and Ctrl-\ left to
    /// the child.
    static func whileChildRuns<T>(_ body: () throws -> T) rethrows -> T {
        childRunning.store(true, ordering: .sequentiallyConsistent)
        defer { childRunning.store(false, ordering: .sequentiallyConsistent) }
        return try body()
    }
}
