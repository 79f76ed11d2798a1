import Foundation
import SecStore

/// `--format env`: `NAME=value` lines (``PlaintextImport/env(_:source:service:)``).
extension PlaintextImport {
    /// `NAME=value` lines: `#` comments and blank lines skipped, an `export ` prefix allowed;
    /// a value bare (up to a ` #` comment, spaces around it dropped), in single quotes
    /// (literal), or in double quotes (`\\ \" \$ \` \n \r \t` escapes; it may span lines).
    ///
    /// Read by Unicode scalar, never by `Character`: a secret that begins with a combining mark
    /// (or a joiner, a variation selector) would make one `Character` of it and the quote,
    /// `=` or backslash written before it, hiding that delimiter.
    static func env(_ text: String, source: String, service: String) throws -> [Entry] {
        var entries: [Entry] = []
        var seen: [String: String] = [:]
        // Lines end at LF; a CR before it is part of the ending (CRLF files).
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.last == "\r" ? $0.dropLast() : $0 }
        var index = 0
        while index < lines.count {
            let number = index + 1
            let origin = "\(source):\(number)"
            let raw = lines[index]
            // Slices of `raw`, so that a position in them is a column of the line.
            var line = raw.drop(while: \.isTrimmedBlank)
            while line.last?.isTrimmedBlank == true { line = line.dropLast() }
            index += 1
            if line.isEmpty || line.first == "#" { continue }
            if line.starts(with: "export ".unicodeScalars) { line = line.dropFirst("export ".count).drop(while: \.isTrimmedBlank) }
            guard let equals = line.firstIndex(of: "=") else {
                throw CLIError.usage("\(origin): expected NAME=value (no '=' on this line). A value that spans lines goes in double quotes.")
            }
            var nameText = line[..<equals]
            while nameText.last?.isTrimmedBlank == true { nameText = nameText.dropLast() }
            let name = String(nameText)
            guard EnvironmentBinding.isValidName(name) else {
                let bad = EnvironmentBinding.firstInvalidCharacter(in: Substring(nameText)) ?? nameText.endIndex
                let column = raw.distance(from: raw.startIndex, to: bad) + 1
                throw CLIError.usage("\(origin):\(column): the text before '=' is not a variable name (letters, digits and _, not starting with a digit). A `NAME: value` line, or a line of an unquoted value that spans lines? Write NAME=value, with a value that spans lines in double quotes.")
            }
            if let earlier = seen[name] { throw CLIError.usage("\(origin): this name is already set at \(earlier).") }
            seen[name] = origin
            var rest = line[line.index(after: equals)...]
            while rest.first == " " || rest.first == "\t" { rest = rest.dropFirst() }
            var value = String.UnicodeScalarView()
            if rest.first == "'" {
                guard let close = rest.dropFirst().firstIndex(of: "'") else {
                    throw CLIError.usage("\(origin): the single quote is not closed (a single-quoted value has no escapes and ends on its line).")
                }
                value.append(contentsOf: rest[rest.index(after: rest.startIndex)..<close])
                try requireOnlyComment(after: rest[rest.index(after: close)...], origin: origin)
            } else if rest.first == "\"" {
                // A double-quoted value may continue on the next lines.
                var body = rest.dropFirst()
                var escaped = false
                var closed = false
                while !closed {
                    var position = body.startIndex
                    while position < body.endIndex {
                        let scalar = body[position]
                        if escaped {
                            switch scalar {
                            case "n": value.append("\n")
                            case "r": value.append("\r")
                            case "t": value.append("\t")
                            case "\\", "\"", "$", "`": value.append(scalar)
                            default: value.append(contentsOf: ["\\", scalar])
                            }
                            escaped = false
                        } else if scalar == "\\" {
                            escaped = true
                        } else if scalar == "\"" {
                            closed = true
                            try requireOnlyComment(after: body[body.index(after: position)...], origin: origin)
                            break
                        } else {
                            value.append(scalar)
                        }
                        position = body.index(after: position)
                    }
                    if closed { break }
                    guard index < lines.count else {
                        throw CLIError.usage("\(origin): the double quote is not closed.")
                    }
                    if escaped { escaped = false } else { value.append("\n") }
                    body = lines[index]
                    index += 1
                }
            } else {
                // Up to a ` #` comment, blanks around it dropped.
                var bare = rest
                if let comment = bare.indices.first(where: { $0 > bare.startIndex && bare[$0] == "#" && [" ", "\t"].contains(bare[bare.index(before: $0)]) }) {
                    bare = bare[..<comment]
                }
                bare = bare.drop(while: \.isTrimmedBlank)
                while bare.last?.isTrimmedBlank == true { bare = bare.dropLast() }
                value.append(contentsOf: bare)
            }
            var attributes = Attributes()
            attributes.service = service
            attributes.account = name
            entries.append(Entry(item: Item(itemClass: .genericPassword, attributes: attributes, data: Data(String(value).utf8)), origin: origin))
        }
        return entries
    }

    private static func requireOnlyComment(after rest: Substring.UnicodeScalarView, origin: String) throws {
        let trailing = rest.drop(while: \.isTrimmedBlank)
        guard trailing.isEmpty || trailing.first == "#" else {
            throw CLIError.usage("\(origin): unexpected text after the closing quote.")
        }
    }
}
