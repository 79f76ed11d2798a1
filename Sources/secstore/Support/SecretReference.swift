import SecStore

/// Names one item for `secstore exec`: `service/account` for a generic password, or
/// `ref:HEX` for any item by persistent reference.
///
/// ```
/// api.example.com/ci        service "api.example.com", account "ci"
/// api.example.com           service "api.example.com", the one item of that service
/// api.example.com/          service "api.example.com", the empty account
/// https:\/\/example.com/ci  service "https://example.com", account "ci"
/// ref:67656e70…             the item with that persistent reference
/// ```
///
/// The first `/` that is not escaped separates the service from the account. A backslash
/// makes the next character literal: `\/` is a slash in a name, `\\` a backslash (and
/// `\ref:…` a service that starts with `ref:`).
enum SecretReference: Equatable, CustomStringConvertible {
    case genericPassword(service: String, account: String?)
    case persistent(PersistentReference)

    static let referencePrefix = "ref:"

    /// Parses `text`; throws a message (without the reference's source) when it is malformed.
    init(parsing text: String) throws(SecretReferenceError) {
        if text.hasPrefix(Self.referencePrefix) {
            let hex = String(text.dropFirst(Self.referencePrefix.count))
            guard let reference = PersistentReference(hexString: hex) else {
                throw SecretReferenceError("\(Table.quoted(text)) is not a persistent reference: ref: takes 40 hex digits, as `secstore list --refs` shows them",
                                           withoutText: "the reference is not a persistent reference: ref: takes 40 hex digits, as `secstore list --refs` shows them")
            }
            self = .persistent(reference)
            return
        }
        var service = ""
        var account: String?
        var escaped = false
        for character in text {
            if escaped {
                if account == nil { service.append(character) } else { account!.append(character) }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "/" && account == nil {
                account = ""
            } else if account == nil {
                service.append(character)
            } else {
                account!.append(character)
            }
        }
        guard !escaped else {
            throw SecretReferenceError("\(Table.quoted(text)) ends with a lone backslash: write \\\\ for a backslash in a name",
                                       withoutText: "the reference ends with a lone backslash: write \\\\ for a backslash in a name")
        }
        guard !service.isEmpty else {
            throw SecretReferenceError(text.isEmpty ? "the reference is empty: write service/account or ref:HEX"
                                                    : "\(Table.quoted(text)) names no service: write service/account or ref:HEX",
                                       withoutText: text.isEmpty ? "the reference is empty: write service/account or ref:HEX"
                                                                 : "the reference names no service: write service/account or ref:HEX")
        }
        self = .genericPassword(service: service, account: account)
    }

    var description: String {
        switch self {
        case .persistent(let reference): "ref \(reference.hexString)"
        case .genericPassword(let service, let account?): "service \(Table.quoted(service)), account \(Table.quoted(account))"
        case .genericPassword(let service, nil): "service \(Table.quoted(service))"
        }
    }

    /// The query that finds the item's attributes and reference (never its secret).
    var query: Query {
        switch self {
        case .persistent(let reference):
            return Query(itemClass: reference.itemClass, synchronizable: .any, limit: .all, persistentReference: reference,
                         returning: [.attributes, .persistentReference])
        case .genericPassword(let service, let account):
            var attributes = Attributes()
            attributes.service = service
            attributes.account = account
            return Query(itemClass: .genericPassword, attributes: attributes, synchronizable: .any, limit: .all,
                         returning: [.attributes, .persistentReference])
        }
    }
}

/// Why a reference or an environment file line is malformed: `message` quotes the text (for
/// what the user typed on the command line), `withoutText` does not (for a file's line, which
/// may be a secret when a real `.env` was given by mistake).
struct SecretReferenceError: Error {
    let message: String
    let withoutText: String
    init(_ message: String, withoutText: String? = nil) {
        self.message = message
        self.withoutText = withoutText ?? message
    }
}

/// `NAME=REFERENCE` pairs from `--env` and `--env-file`: what `secstore exec` puts in the
/// command's environment.
///
/// An environment file holds one `NAME=REFERENCE` per line; blank lines and lines whose first
/// non-blank character is `#` are skipped; an `export ` prefix is allowed (so the file reads
/// like a shell script); spaces around the name and the reference are dropped, and so are
/// quotes around the whole reference. Errors name the file and the line.
///
/// ```
/// # secrets.env
/// API_TOKEN=api.example.com/ci
/// export DB_PASSWORD = "db.example.com/app"
/// SIGNING_KEY=ref:67656e7080599e4e51272fa6277b626155402458
/// ```
struct EnvironmentBinding: Equatable {
    let name: String
    let reference: SecretReference
    /// Where it was given: `--env`, or `FILE:LINE`.
    let origin: String
    /// Whether messages may quote the reference: yes for `--env` (typed on the command line),
    /// no for a file's line, which may be a secret (a real `.env` given to `--env-file` by
    /// mistake holds `NAME=the-secret` lines, which read as references).
    var quotesReference: Bool { Self.quotes(origin: origin) }
    static let commandLineOrigin = "--env"

    /// Whether messages about a binding from `origin` may quote its text: only what was typed
    /// on the command line.
    static func quotes(origin: String) -> Bool { origin == commandLineOrigin }

    /// The reference as messages name it.
    var shownReference: String { quotesReference ? "\(reference)" : "the reference at \(origin)" }

    /// A portable environment variable name: a letter or `_`, then letters, digits and `_`.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && firstInvalidCharacter(in: name) == nil
    }

    /// The first character where `name` is no variable name (an ASCII letter or `_`, then
    /// also digits), or `nil` when every character may be in one; for a message that points
    /// at it without quoting the text (``PlaintextImport``).
    static func firstInvalidCharacter<Text: StringProtocol>(in name: Text) -> Text.Index? {
        name.indices.first { position in
            let character = name[position]
            let letter = character.isASCII && character.isLetter
            let digit = character.isASCII && character.isNumber && position != name.startIndex
            return !(character == "_" || letter || digit)
        }
    }

    /// One `NAME=REFERENCE`.
    init(parsing text: String, origin: String) throws(SecretReferenceError) {
        let quoting = Self.quotes(origin: origin)
        guard let equals = text.firstIndex(of: "=") else {
            throw SecretReferenceError(quoting ? "\(origin): \(Table.quoted(text)) has no '=': write NAME=service/account"
                                               : "\(origin): the line has no '=': write NAME=service/account")
        }
        let name = text[..<equals].trimmingWhitespace()
        var reference = text[text.index(after: equals)...].trimmingWhitespace()
        if reference.count >= 2, let quote = reference.first, quote == "\"" || quote == "'", reference.last == quote {
            reference = String(reference.dropFirst().dropLast())
        }
        guard Self.isValidName(name) else {
            throw SecretReferenceError(quoting ? "\(origin): \(Table.quoted(name)) is not an environment variable name (letters, digits and _, not starting with a digit)"
                                               : "\(origin): the text before '=' is not an environment variable name (letters, digits and _, not starting with a digit)")
        }
        do {
            self.reference = try SecretReference(parsing: reference)
        } catch {
            throw SecretReferenceError("\(origin): \(name): \(quoting ? error.message : error.withoutText)")
        }
        self.name = name
        self.origin = origin
    }

    /// The bindings of an environment file's text; `file` names it in errors.
    static func parseFile(_ text: String, file: String) throws(SecretReferenceError) -> [EnvironmentBinding] {
        var bindings: [EnvironmentBinding] = []
        var seen: [String: String] = [:]
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            var line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export "), line.contains("=") { line = String(line.dropFirst("export ".count)) }
            let origin = "\(file):\(index + 1)"
            let binding = try EnvironmentBinding(parsing: line, origin: origin)
            if let earlier = seen[binding.name] {
                throw SecretReferenceError("\(origin): \(binding.name) is already set at \(earlier)")
            }
            seen[binding.name] = origin
            bindings.append(binding)
        }
        return bindings
    }
}

extension StringProtocol {
    /// The text without spaces, tabs and carriage returns at either end.
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while slice.first?.isTrimmedBlank == true { slice = slice.dropFirst() }
        while slice.last?.isTrimmedBlank == true { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Character {
    /// A space, tab or carriage return: what ``StringProtocol/trimmingWhitespace()`` drops.
    var isTrimmedBlank: Bool { self == " " || self == "\t" || self == "\r" || self == "\r\n" }
}

extension Unicode.Scalar {
    /// As ``Character/isTrimmedBlank``, for readers that go by scalar (``PlaintextImport``).
    var isTrimmedBlank: Bool { self == " " || self == "\t" || self == "\r" }
}
