import Dispatch
import Foundation
import SecStore

/// Removes SecStore's temporary files (a backup half exported, a store half built) when the
/// user interrupts the tool (Ctrl-C), or a service manager stops it (SIGTERM, SIGHUP), then
/// dies of the same signal, as the user asked. The signals are taken with dispatch sources,
/// so the cleanup runs as ordinary code on a queue, not inside a signal handler.
enum InterruptCleanup {
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install() {
        let queue = DispatchQueue(label: "secstore.interrupt")
        sources = signals.map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
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
}
