import Foundation
import SecStore

/// Gets a passphrase or secret from the source the user named, or asks at the terminal
/// when none was named and a terminal is there; otherwise fails with `unavailable`, whose
/// message says which option to use.
///
/// ```swift
/// let passphrase = try Prompter.passphrase(from: options.source, what: "store passphrase",
///                                          confirm: false, unavailable: .lockedStore)
/// ```
enum Prompter {
    static func passphrase(from source: PassphraseSource?, what: String, confirm: Bool,
                           unavailable: @autoclosure () -> CLIError) throws -> String {
        if let source { return try source.read(what: what) }
        guard Terminal.canPrompt else { throw unavailable() }
        var bytes = try ask(what: what, confirm: confirm)
        defer { Wipe.bytes(&bytes) }
        guard !bytes.isEmpty else { throw CLIError.usage("The \(what) is empty. Type a non-empty passphrase.") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError.usage("The \(what) is not valid UTF-8 text.")
        }
        return text
    }

    /// Asks at the terminal with echo off; with `confirm`, asks twice and compares.
    /// The caller wipes the bytes returned; the repetition is wiped here.
    static func ask(what: String, confirm: Bool) throws -> [UInt8] {
        var first = try NoEchoPrompt.read("\(what.capitalizedFirst): ")
        guard confirm else { return first }
        var second = try NoEchoPrompt.read("Repeat the \(what): ")
        defer { Wipe.bytes(&second) }
        guard first == second else {
            Wipe.bytes(&first)
            throw CLIError.usage("The two \(what) entries differ. Nothing was changed; try again.")
        }
        return first
    }

    /// Asks a yes/no question at the terminal; only "y" or "yes" is yes.
    static func confirm(_ question: String) throws -> Bool {
        let answer = String(decoding: try NoEchoPrompt.read("\(question) [y/N] ", echo: true), as: UTF8.self)
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The error for a passphrase that is needed where no terminal can ask for it.
    static func noTerminal(what: String, flagPrefix: String) -> CLIError {
        CLIError.usage("No \(what) given and no terminal to ask for it. Pass \(flagPrefix)-stdin, \(flagPrefix)-file PATH or \(flagPrefix)-env NAME.")
    }
}

extension String {
    /// The string with its first letter in upper case ("store passphrase" → "Store passphrase").
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
