/// A shell-style pattern, as `fnmatch(3)` reads one without flags: `*` matches any run of
/// characters (none included), `?` one character, `[abc]`, `[a-z]` one of a set and
/// `[!abc]` (or `[^abc]`) one character not in it; a backslash makes the next character
/// literal. Matched against whole values, character by character (a `/` is an ordinary
/// character), on the decrypted attribute, never in SQL.
///
/// ```swift
/// GlobPattern("api.*.example.com").matches("api.eu.example.com")   // true
/// GlobPattern("ci-?").matches("ci-10")                             // false
/// GlobPattern("build\\*").literal                                   // "build*": no pattern at all
/// ```
struct GlobPattern: Equatable, Sendable {
    private enum Token: Equatable, Sendable {
        case character(Character)
        case any
        case run
        case set(negated: Bool, ranges: [ClosedRange<Character>])
    }

    private let tokens: [Token]

    init(_ pattern: String) {
        var tokens: [Token] = []
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\" where index + 1 < characters.count:
                tokens.append(.character(characters[index + 1]))
                index += 2
                continue
            case "*":
                if tokens.last != .run { tokens.append(.run) }
            case "?":
                tokens.append(.any)
            case "[":
                if let (set, end) = Self.parseSet(characters, from: index) {
                    tokens.append(set)
                    index = end + 1
                    continue
                }
                tokens.append(.character("["))   // no closing bracket: a literal
            default:
                tokens.append(.character(character))
            }
            index += 1
        }
        self.tokens = tokens
    }

    /// Whether `text` holds a `*`, `?` or `[` that is not escaped: whether it is a pattern at all.
    static func isPattern(_ text: String) -> Bool {
        GlobPattern(text).literal == nil
    }

    /// The value the pattern matches when it has no wildcard (its escapes removed), else nil.
    var literal: String? {
        var text = ""
        for token in tokens {
            guard case .character(let character) = token else { return nil }
            text.append(character)
        }
        return text
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: String) -> Bool {
        let characters = Array(text)
        var position = 0, token = 0
        // The last `*` seen and the text position it was tried at, for backtracking.
        var starToken = -1, starPosition = 0
        while position < characters.count {
            if token < tokens.count, tokens[token] != .run, Self.matchesOne(tokens[token], characters[position]) {
                position += 1
                token += 1
            } else if token < tokens.count, tokens[token] == .run {
                starToken = token
                starPosition = position
                token += 1
            } else if starToken >= 0 {
                starPosition += 1
                position = starPosition
                token = starToken + 1
            } else {
                return false
            }
        }
        while token < tokens.count, tokens[token] == .run { token += 1 }
        return token == tokens.count
    }

    private static func matchesOne(_ token: Token, _ character: Character) -> Bool {
        switch token {
        case .character(let expected): expected == character
        case .any: true
        case .run: true
        case .set(let negated, let ranges): ranges.contains { $0.contains(character) } != negated
        }
    }

    /// A bracket expression starting at `start` (`[`): the set and the index of its `]`, or
    /// nil when it is never closed.
    private static func parseSet(_ characters: [Character], from start: Int) -> (Token, Int)? {
        var index = start + 1
        var negated = false
        if index < characters.count, characters[index] == "!" || characters[index] == "^" {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<Character>] = []
        var first = true
        while index < characters.count {
            var character = characters[index]
            if character == "]" && !first { return (.set(negated: negated, ranges: ranges), index) }
            first = false
            if character == "\\", index + 1 < characters.count {
                index += 1
                character = characters[index]
            }
            if index + 2 < characters.count, characters[index + 1] == "-", characters[index + 2] != "]" {
                let upper = characters[index + 2]
                if character <= upper { ranges.append(character...upper) }
                index += 3
            } else {
                ranges.append(character...character)
                index += 1
            }
        }
        return nil
    }
}
