import CredentialBridge
import Foundation
import SecStore

/// The docker credential helper's input, as `docker-credential-secstore` reads it. The first
/// byte chooses:
/// - even: the rest as the JSON object `store` reads, through `DockerCredentials(json:)`,
///   then its server URL through `RegistryURL.location(of:)`, as `store` does before it opens
///   a store.
/// - odd: the rest (as UTF-8, invalid sequences replaced) as the server URL `get` and
///   `erase` read, through `RegistryURL.location(of:)`.
///
/// Checked: a refusal of the JSON is `malformedInput` or `incomplete`, of a URL
/// `malformedInput`; no message holds ``FuzzMarker/secret`` (the seeds write it into secrets
/// and into URLs' user information) — a URL's message may name its scheme, as Go's does,
/// and nothing else of it; descriptions and mirrors do not depend on the secret. Credentials
/// that parse print (`get`'s JSON) as text that parses back to them. A location that parses
/// is the one `list` names: its URL parses back to the same location, and the attributes
/// `store` gives its item (with the store's defaults for an absent port and path) read back
/// as that location and match it exactly, as `get` and `erase` look the item up.
enum DockerCredentialsFuzz {
    static func run(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        var input = FuzzInput(bytes)
        let mode = input.byte()
        let rest = input.rest()
        if mode % 2 == 1 {
            return try serverURL(String(decoding: rest, as: UTF8.self))
        }
        let credentials: DockerCredentials
        do {
            credentials = try DockerCredentials(json: rest)
        } catch {
            guard error.kind == .malformedInput || error.kind == .incomplete else {
                throw violation("DockerCredentials(json:) failed as \(error.kind): \(error.message)")
            }
            guard !FuzzMarker.isQuoted(in: error.message) else { throw violation("a JSON refusal quotes a secret: \(error.message)") }
            return .refused("json: \(error.kind)")
        }
        let redacted = DockerCredentials(serverURL: credentials.serverURL, username: credentials.username, secret: "x")
        guard credentials.description == redacted.description,
              String(reflecting: Mirror(reflecting: credentials).children.map(\.value)) ==
                String(reflecting: Mirror(reflecting: redacted).children.map(\.value)) else {
            throw violation("the description or mirror of DockerCredentials depends on the secret")
        }
        // `get` prints this; docker reads it back.
        do {
            let printed = try DockerCredentials(json: Array(credentials.json.utf8))
            guard printed == credentials else { throw violation("get's JSON of \(credentials) reads back as \(printed)") }
        } catch let error as FuzzViolation {
            throw error
        } catch {
            throw violation("get's JSON of \(credentials) does not parse: \(error)")
        }
        return try serverURL(credentials.serverURL)
    }

    static func violation(_ message: String) -> FuzzViolation { FuzzViolation(.dockerCredentials, message) }

    static func serverURL(_ text: String) throws(FuzzViolation) -> FuzzOutcome {
        let location: InternetLocation
        do {
            location = try RegistryURL.location(of: text)
        } catch {
            guard error.kind == .malformedInput else { throw violation("RegistryURL.location(of:) failed as \(error.kind): \(error.message)") }
            // The message may name the scheme (Go's: letters, digits, +, -, . before the first colon).
            let scheme = String(text.unicodeScalars.prefix { ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                                                             || "+-.".unicodeScalars.contains($0) })
            if FuzzMarker.isQuoted(in: error.message) && !FuzzMarker.isQuoted(in: scheme) {
                throw violation("a server URL's refusal quotes more of it than its scheme: \(error.message)")
            }
            return .refused("url: \(error.message.prefix { $0 != ":" })")
        }
        guard location.scheme == "http" || location.scheme == "https", location.hostAndPort != nil else {
            throw violation("\(text.debugDescription) became a location without a host or with the scheme \(location.scheme ?? "none")")
        }
        // `list` prints location.url; docker then runs `get` and `erase` with it.
        do {
            let listed = try RegistryURL.location(of: location.url)
            guard listed == location else { throw violation("\(text.debugDescription) is listed as \(location.url.debugDescription), which reads as \(listed)") }
        } catch let error as FuzzViolation {
            throw error
        } catch {
            throw violation("\(text.debugDescription) is listed as \(location.url.debugDescription), which is refused: \(error)")
        }
        // The item `store` adds, as the store keeps it: an absent port is 0, an absent path "".
        var attributes = location.attributes(account: "u")
        if attributes.port == nil { attributes.port = 0 }
        if attributes.path == nil { attributes.path = "" }
        guard InternetLocation(item: attributes) == location else {
            throw violation("the item stored for \(text.debugDescription) reads back as \(String(describing: InternetLocation(item: attributes))), not \(location)")
        }
        guard location.matches(attributes, exactly: true) else {
            throw violation("the item stored for \(text.debugDescription) does not match its own location \(location)")
        }
        return .accepted(location.url)
    }
}
