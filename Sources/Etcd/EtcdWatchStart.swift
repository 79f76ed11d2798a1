import Synchronization

/// Whether a watch stream's first line came before its deadline: whichever of the two
/// happens first wins, so a line that comes as the deadline passes is either delivered or
/// refused, never both.
final class EtcdWatchStart: Sendable {
    private let state = Mutex<(started: Bool, gaveUp: Bool)>((false, false))

    /// Called with the first lines; false when the deadline had already passed.
    func markStarted() -> Bool {
        state.withLock { state in
            if !state.gaveUp { state.started = true }
            return state.started
        }
    }

    /// Called at the deadline; true (cancel the exchange) when no line had come.
    func giveUpUnlessStarted() -> Bool {
        state.withLock { state in
            if !state.started { state.gaveUp = true }
            return state.gaveUp
        }
    }

    var gaveUp: Bool { state.withLock { $0.gaveUp } }
}
