import Foundation

/// Random passwords drawn from libsodium's generator (`randombytes_buf`: getrandom(2)), every
/// character chosen uniformly from the alphabet (rejection sampling, never `random % n`, so no
/// character is likelier than another).
///
/// ```swift
/// let password = try PasswordGenerator().generate()                        // 32 characters, all four classes
/// let pin = try PasswordGenerator(length: 6, classes: .digits).generate()  // "504918"
/// let readable = try PasswordGenerator(length: 20, classes: .alphanumeric, excluding: "Il1O0").generate()
/// try store.add(.genericPassword(service: "db.example.com", account: "app", data: Data(password.utf8)))
/// ```
///
/// With ``requiresEveryClass`` (the default) the password holds at least one character of each
/// chosen class: passwords missing one are drawn again, so the result is uniform over the
/// passwords that satisfy the rule (a site's "one digit, one symbol" policy) and no position
/// is more predictable than another. The `secstore generate` command is a front end to this type.
public struct PasswordGenerator: Sendable, Hashable {
    /// The character classes a password may draw from.
    ///
    /// ```swift
    /// let pin = try PasswordGenerator(length: 6, classes: .digits).generate()
    /// let readable = try PasswordGenerator(classes: [.lowercase, .digits], excluding: "l1o0").generate()
    /// ```
    public struct CharacterClasses: OptionSet, Sendable, Hashable {
        /// The classes as bits: ``lowercase`` 1, ``uppercase`` 2, ``digits`` 4, ``symbols`` 8.
        public let rawValue: UInt8
        /// The classes whose bits are set in `rawValue`.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `a`–`z`.
        public static let lowercase = CharacterClasses(rawValue: 1 << 0)
        /// `A`–`Z`.
        public static let uppercase = CharacterClasses(rawValue: 1 << 1)
        /// `0`–`9`.
        public static let digits = CharacterClasses(rawValue: 1 << 2)
        /// The 32 ASCII punctuation characters: `!"#$%&'()*+,-./:;<=>?@[\]^_{|}~` and the backtick.
        public static let symbols = CharacterClasses(rawValue: 1 << 3)

        /// ``lowercase`` and ``uppercase``.
        public static let letters: CharacterClasses = [.lowercase, .uppercase]
        /// Letters and ``digits``: for sites that refuse punctuation.
        public static let alphanumeric: CharacterClasses = [.lowercase, .uppercase, .digits]
        /// Every class: the default.
        public static let all: CharacterClasses = [.lowercase, .uppercase, .digits, .symbols]

        /// The characters of each class, in a fixed order.
        public static let characters: [(CharacterClasses, String)] = [
            (.lowercase, "abcdefghijklmnopqrstuvwxyz"),
            (.uppercase, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            (.digits, "0123456789"),
            (.symbols, "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
        ]
    }

    /// The default length: 32 characters of all four classes is about 209 bits.
    public static let defaultLength = 32
    /// The lengths accepted.
    public static let lengthRange = 1...4096

    /// How many characters a password has.
    public var length: Int
    /// The groups the password draws from: each non-empty class (after the excluded characters), or one
    /// custom alphabet.
    public private(set) var groups: [[Character]]
    /// Whether every group must appear at least once.
    public var requiresEveryClass: Bool

    /// A generator over character classes.
    ///
    /// ```swift
    /// let pin = PasswordGenerator(length: 6, classes: .digits)
    /// ```
    ///
    /// - Parameters:
    ///   - length: how many characters each password has (``lengthRange``).
    ///   - classes: the character classes to draw from.
    ///   - excluding: characters never used, such as the look-alikes `"Il1O0"`.
    ///   - requiringEveryClass: whether each chosen class must appear at least once.
    public init(length: Int = PasswordGenerator.defaultLength, classes: CharacterClasses = .all,
                excluding: String = "", requiringEveryClass: Bool = true) {
        self.length = length
        let excluded = Set(excluding)
        groups = CharacterClasses.characters.filter { classes.contains($0.0) }
            .map { $0.1.filter { !excluded.contains($0) } }
            .map(Array.init)
        requiresEveryClass = requiringEveryClass
        // A class emptied by the exclusions is reported by `generate()`.
        if groups.contains(where: \.isEmpty) { emptiedClass = true }
    }

    /// A generator over one custom alphabet (duplicates count once).
    ///
    /// ```swift
    /// let hex = try PasswordGenerator(length: 40, alphabet: "0123456789abcdef").generate()
    /// ```
    public init(length: Int = PasswordGenerator.defaultLength, alphabet: String) {
        self.length = length
        var seen = Set<Character>()
        groups = [alphabet.filter { seen.insert($0).inserted }.map { $0 }]
        requiresEveryClass = false
    }

    private var emptiedClass = false

    /// Every character a password may hold.
    public var alphabet: [Character] { groups.flatMap { $0 } }

    /// The strength in bits, `length × log2(alphabet size)` (slightly less with
    /// ``requiresEveryClass``, which rules some passwords out).
    public var entropyBits: Double {
        let size = alphabet.count
        return size < 2 ? 0 : Double(length) * log2(Double(size))
    }

    /// A new random password.
    ///
    /// ```swift
    /// let password = try PasswordGenerator(length: 24).generate()
    /// ```
    ///
    /// - Throws: ``SecStoreError`` `invalidParameter` when the length is outside
    ///   ``lengthRange``, the alphabet is empty, a class is emptied by the exclusions, or the
    ///   password is too short to hold one character of every class; `unsupported` when
    ///   libsodium cannot start (no source of randomness).
    public func generate() throws -> String {
        guard Self.lengthRange.contains(length) else {
            throw SecStoreError.invalid("A password is \(Self.lengthRange.lowerBound) to \(Self.lengthRange.upperBound) characters long (asked: \(length)).")
        }
        guard !emptiedClass else {
            throw SecStoreError.invalid("The excluded characters leave a chosen character class empty. Exclude fewer, or leave that class out.")
        }
        let alphabet = self.alphabet
        guard !alphabet.isEmpty else {
            throw SecStoreError.invalid("The password's alphabet is empty. Choose at least one character class.")
        }
        if requiresEveryClass && groups.count > length {
            throw SecStoreError.invalid("A password of \(length) characters cannot hold one character of each of \(groups.count) classes. Make it longer, or choose fewer classes.")
        }
        var random = UniformRandom()
        defer { random.wipe() }
        var indexes = [Int](repeating: 0, count: length)
        defer { indexes.withUnsafeMutableBytes { Wipe.buffer($0) } }
        // A password missing a class is drawn again: uniform over the passwords that hold them
        // all. Even the hardest accepted case (one character of each class, the smallest
        // classes) succeeds within a few hundred draws; the bound only turns a bug into an error.
        for _ in 0..<1_000_000 {
            for position in indexes.indices { indexes[position] = try random.below(alphabet.count) }
            if !requiresEveryClass || holdsEveryGroup(indexes) {
                return String(indexes.map { alphabet[$0] })
            }
        }
        throw SecStoreError(.unsupported, "No password satisfying every character class was found. Make it longer, or choose fewer classes.")
    }

    /// Whether the drawn alphabet positions include one of every group.
    private func holdsEveryGroup(_ indexes: [Int]) -> Bool {
        var bounds: [Int] = []
        var end = 0
        for group in groups {
            end += group.count
            bounds.append(end)
        }
        var seen = [Bool](repeating: false, count: groups.count)
        for index in indexes {
            seen[bounds.firstIndex { index < $0 }!] = true
        }
        return !seen.contains(false)
    }
}

/// Uniform integers below a bound from libsodium's random bytes, by rejection as
/// `randombytes_uniform` does: a 32-bit draw below `2³² mod n` is drawn again, so every result
/// is equally likely.
private struct UniformRandom {
    private var pool = [UInt32](repeating: 0, count: 64)
    private var next = 64

    mutating func below(_ bound: Int) throws -> Int {
        precondition(bound > 0 && bound <= Int(UInt32.max))
        let upper = UInt32(bound)
        let minimum = (0 &- upper) % upper
        while true {
            let draw = try word()
            if draw >= minimum { return Int(draw % upper) }
        }
    }

    private mutating func word() throws -> UInt32 {
        if next == pool.count {
            try pool.withUnsafeMutableBytes { try RandomBytes.fill($0) }
            next = 0
        }
        defer { next += 1 }
        return pool[next]
    }

    mutating func wipe() {
        pool.withUnsafeMutableBytes { Wipe.buffer($0) }
    }
}
