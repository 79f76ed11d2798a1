import CredentialBridge
import Foundation
import SecStore

/// git's credential helper protocol as `git-credential-secstore` reads it. The first byte
/// chooses:
/// - even: the rest as the `key=value` lines git writes to a helper, through
///   `GitCredential(parsing:)`, then what `store` and `erase` check before they open a store
///   (`checkStorable`, `checkErasable`), the secret `store` seals (`GitSecret`) and the
///   answer `get` would print for it.
/// - odd: the rest as a stored secret, through `GitSecret(decoding:)` (any bytes: another
///   tool may have written the item), and the answer `get` would print for it.
///
/// Checked: every refusal's message is free of ``FuzzMarker/secret`` (the seeds write it into
/// passwords, refresh tokens and URLs; a message names a line by its number, never its text);
/// a parse fails only as `malformedInput`, `checkStorable` only as `incomplete` or
/// `malformedInput`, `checkErasable` only as `refused` or `malformedInput`; descriptions and
/// mirrors do not depend on a password or a refresh token. A credential `store` accepts
/// seals into a secret that decodes back to the same password, expiry and refresh token,
/// that `erase` with that password matches, and that `get` can answer; a decoded secret
/// encodes to bytes that decode to it again; the answer lines `get` prints read back as the
/// same username, password, expiry and refresh token (but for a value ending in a carriage
/// return, which git's own reader drops from the end of a line, as this one does).
enum GitCredentialFuzz {
    static func run(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        var input = FuzzInput(bytes)
        let mode = input.byte()
        let rest = input.rest()
        return mode % 2 == 0 ? try request(rest) : try storedSecret(rest)
    }

    static func violation(_ message: String) -> FuzzViolation { FuzzViolation(.gitCredential, message) }

    /// A refusal: of one of `kinds`, and quoting no secret.
    static func check(_ error: BridgeError, of kinds: [BridgeError.Kind], _ step: String) throws(FuzzViolation) {
        guard kinds.contains(error.kind) else { throw violation("\(step) failed as \(error.kind): \(error.message)") }
        guard !FuzzMarker.isQuoted(in: error.message) else { throw violation("\(step)'s message quotes a secret: \(error.message)") }
    }

    static func request(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        let credential: GitCredential
        do {
            credential = try GitCredential(parsing: bytes)
        } catch {
            try check(error, of: [.malformedInput], "GitCredential(parsing:)")
            return .refused("parse: \(error.kind)")
        }
        try checkRedaction(credential)
        var outcome: [String] = []
        do {
            try GitCredentialStore.checkErasable(credential)
            outcome.append("erasable")
        } catch {
            try check(error, of: [.refused, .malformedInput], "checkErasable")
        }
        do {
            try GitCredentialStore.checkStorable(credential)
        } catch {
            try check(error, of: [.incomplete, .malformedInput], "checkStorable")
            return .accepted((outcome + ["not storable"]).joined(separator: ", "))
        }
        guard let username = credential.username, let password = credential.password else {
            throw violation("checkStorable accepted a credential without a username or password: \(credential)")
        }
        // What `store` seals, and what `get` and `erase` read back from it.
        let secret = GitSecret(password: password, expiry: credential.passwordExpiryUTC, refreshToken: credential.oauthRefreshToken)
        let sealed = secret.encoded
        let read = GitSecret(decoding: sealed)
        guard read == secret else { throw violation("the sealed secret of \(credential) decodes as \(read)") }
        guard GitSecret.storedPassword(of: sealed, is: password), read.hasPassword(password) else {
            throw violation("an erase with the stored password does not match the sealed secret of \(credential)")
        }
        guard GitSecret.isUTF8(sealed), carriable(username), carriable(read.password),
              read.refreshToken.map(carriable) ?? true else {
            throw violation("get would never answer the stored \(credential)")
        }
        // A later bare store of the same password keeps what it leaves out.
        let bare = GitSecret(password: password, expiry: nil, refreshToken: nil).replacing(read)
        guard bare == read else { throw violation("a bare store of the same password over \(read) made \(bare)") }
        try checkAnswer(GitCredential(username: username, password: read.password, passwordExpiryUTC: read.expiry,
                                      oauthRefreshToken: read.refreshToken))
        return .accepted((outcome + ["storable"]).joined(separator: ", "))
    }

    static func storedSecret(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        let secret = GitSecret(decoding: Data(bytes))
        let again = GitSecret(decoding: secret.encoded)
        guard again == secret else { throw violation("\(secret) encodes to bytes that decode as \(again)") }
        let redacted = GitSecret(password: "x", expiry: secret.expiry, refreshToken: secret.refreshToken.map { _ in "y" })
        guard secret.description == redacted.description,
              String(reflecting: Mirror(reflecting: secret).children.map(\.value)) ==
                String(reflecting: Mirror(reflecting: redacted).children.map(\.value)) else {
            throw violation("the description or mirror of a GitSecret depends on its password or refresh token")
        }
        // What `get` answers for it (a credential of the username "u").
        guard GitSecret.isUTF8(Data(bytes)), carriable(secret.password),
              secret.refreshToken.map(carriable) ?? true else { return .refused("not answered") }
        if !secret.password.isEmpty, !secret.isExpired(at: Date()) {
            try checkAnswer(GitCredential(username: "u", password: secret.password, passwordExpiryUTC: secret.expiry,
                                          oauthRefreshToken: secret.refreshToken))
            return .accepted("answered")
        }
        if let refreshToken = secret.refreshToken {
            try checkAnswer(GitCredential(username: "u", oauthRefreshToken: refreshToken))
            return .accepted("answered with the refresh token")
        }
        return .accepted("expired or empty")
    }

    /// Whether git's protocol can carry `text` as a value: no newline, no NUL (gitcredentials(7)).
    static func carriable(_ text: String) -> Bool {
        !text.utf8.contains(0x0A) && !text.utf8.contains(0)
    }

    /// The answer lines `get` prints for `answer` read back (as git reads them) as its
    /// username, password, expiry and refresh token.
    static func checkAnswer(_ answer: GitCredential) throws(FuzzViolation) {
        let lines = answer.answer
        let read: GitCredential
        do {
            read = try GitCredential(parsing: Array(lines.utf8))
        } catch {
            throw violation("the answer of \(answer) does not parse: \(error.message)")
        }
        // git's reader, as this one, drops a carriage return before each line's newline; an
        // empty value is then absent, but for the username.
        func carried(_ value: String?, emptyIsAbsent: Bool = true) -> String? {
            guard let value else { return nil }
            let bytes = Array(value.utf8)
            let kept = bytes.last == 0x0D ? bytes.dropLast() : bytes[...]
            return kept.isEmpty && emptyIsAbsent ? nil : String(decoding: kept, as: UTF8.self)
        }
        let expected = GitCredential(username: carried(answer.username, emptyIsAbsent: false), password: carried(answer.password),
                                     passwordExpiryUTC: answer.passwordExpiryUTC, oauthRefreshToken: carried(answer.oauthRefreshToken))
        guard read == expected else { throw violation("the answer of \(answer) reads back as \(read)") }
    }

    /// The description and the mirror of a credential do not change with its password or
    /// refresh token: they show neither.
    static func checkRedaction(_ credential: GitCredential) throws(FuzzViolation) {
        var redacted = credential
        redacted.password = credential.password.map { _ in "x" }
        redacted.oauthRefreshToken = credential.oauthRefreshToken.map { _ in "y" }
        guard credential.description == redacted.description,
              String(reflecting: Mirror(reflecting: credential).children.map(\.value)) ==
                String(reflecting: Mirror(reflecting: redacted).children.map(\.value)) else {
            throw violation("the description or mirror of a GitCredential depends on its password or refresh token")
        }
    }
}

/// The text the seeds of the bridges' and the import's targets write into secrets, so that a
/// message quoting one can be told: `TOPSECRET`, as the suite's own leak tests write it
/// (PlaintextInterchangeTests, GitProtocolEdgeTests). Compared without regard to ASCII case:
/// some messages lowercase what they quote.
public enum FuzzMarker {
    public static let secret = "TOPSECRET"

    /// Whether `message` holds the marker, in any ASCII case.
    public static func isQuoted(in message: String) -> Bool {
        String(decoding: message.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self).contains(secret)
    }
}
