import Foundation
import SecStore

/// An open store plus the means to unlock it: the passphrase options of the command.
///
/// A passphrase named with `--passphrase-…` is read, and the store unlocked, as soon as
/// the session opens (so several passphrases on standard input are read in a fixed order).
/// Without one, a command runs as is; if it meets a locked class and a terminal is there,
/// the session asks for the passphrase, unlocks and runs the command again.
///
/// ```swift
/// let session = try StoreSession(store: storeOptions, passphrase: passphraseOptions)
/// let items = try session.unlockingIfNeeded { try session.store.items(matching: query) }
/// ```
final class StoreSession {
    let store: SecretStore
    private let passphraseSource: PassphraseSource?
    private var triedUnlocking = false
    /// With a duration, the unlock is shared with the user's processes for that long
    /// (`secstore unlock --for`).
    private let sharingUnlockFor: TimeInterval?
    /// Whether the unlock could be shared; `nil` until a shared unlock ran.
    private(set) var unlockShared: Bool?

    init(store options: StoreOptions, passphrase: PassphraseOptions, sharingUnlockFor: TimeInterval? = nil) throws {
        store = try options.open()
        passphraseSource = passphrase.source
        self.sharingUnlockFor = sharingUnlockFor
        if passphraseSource != nil {
            let passphrase = try readPassphrase()
            if try store.lockState == .noPassphrase {
                Console.warn("The store has no passphrase; the one given was not needed.")
            } else {
                try unlock(with: passphrase)
            }
        }
    }

    /// Runs `body`; when it fails because a class is locked, unlocks (asking at the
    /// terminal) and runs it once more.
    func unlockingIfNeeded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SecStoreError where error.code == .interactionNotAllowed {
            let problem = Self.firstSentence(of: error.message)
            guard !triedUnlocking, try store.lockState == .locked else { throw Self.lockedError(problem) }
            try unlockAskingUpToThreeTimes(problem: problem)
            return try body()
        }
    }

    /// Before asking at the terminal for a new secret of an item of `accessibility`: a locked
    /// store's passphrase is asked first, so the user is not asked for the secret, then told
    /// the store is locked, then asked for the passphrase.
    func unlockBeforeAskingForASecret(of accessibility: Accessibility) throws {
        guard passphraseSource == nil, !triedUnlocking, accessibility.isPassphraseProtected, Terminal.canPrompt,
              try store.lockState == .locked else { return }
        try unlockAskingUpToThreeTimes(problem: "The store is locked.")
    }

    /// The passphrase from its option (once), or from the terminal with three tries, as
    /// `sudo` gives.
    private func unlockAskingUpToThreeTimes(problem: String) throws {
        let tries = passphraseSource == nil && Terminal.canPrompt ? 3 : 1
        for attempt in 1...tries {
            do {
                try unlock(with: try readPassphrase(problem: problem))
                return
            } catch let error as CLIError where error.status == .authenticationFailed && attempt < tries {
                Console.prompt("Sorry, try again.")
            }
        }
    }

    /// Unlocks the store for this process when it is locked (asking at the terminal when no
    /// passphrase option was given); used by `secstore unlock`. A shared unlock always asks:
    /// it is a fresh proof of the passphrase.
    func unlockIfLocked() throws {
        guard !triedUnlocking else { return }
        if sharingUnlockFor == nil {
            guard try store.lockState == .locked else { return }
        }
        try unlockAskingUpToThreeTimes(problem: "The store is locked.")
    }

    private func readPassphrase(problem: String = "The store is locked.") throws -> String {
        try Prompter.passphrase(from: passphraseSource, what: "store passphrase", confirm: false,
                                unavailable: Self.lockedError(problem))
    }

    /// "An item's accessibility class (whenUnlocked) is locked." without the engine's advice,
    /// which the tool replaces with its own options.
    private static func firstSentence(of message: String) -> String {
        guard let end = message.range(of: ". ") else { return message }
        return String(message[..<end.lowerBound]) + "."
    }

    private func unlock(with passphrase: String) throws {
        triedUnlocking = true
        do {
            if let sharingUnlockFor {
                unlockShared = try store.unlock(passphrase: passphrase, sharedFor: sharingUnlockFor)
            } else {
                try store.unlock(passphrase: passphrase)
            }
        } catch let error as SecStoreError where error.code == .authenticationFailed {
            throw CLIError(.authenticationFailed, "The store passphrase is not correct. Check it and try again (a --passphrase-file is read up to its first newline).",
                           name: error.code.name)
        }
    }

    static func lockedError(_ problem: String) -> CLIError {
        CLIError(.locked, "\(problem) Pass the store passphrase with --passphrase-stdin, --passphrase-file PATH or --passphrase-env NAME, or run the command in a terminal to be asked for it.",
                 name: SecStoreError.Code.interactionNotAllowed.name)
    }
}
