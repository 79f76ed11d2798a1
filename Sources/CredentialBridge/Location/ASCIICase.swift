/// The one case folding of the names in a location (hosts and URL schemes): ASCII `A`–`Z`
/// become `a`–`z`, and every other byte stays as it is.
///
/// Not Unicode lowercasing (`String.lowercased()`), which maps some non-ASCII characters
/// onto ASCII ones — U+212A KELVIN SIGN to `k` — so that a request for the different host
/// `\u{212A}ey.com` would find `key.com`'s credential. git's own helpers compare hosts byte
/// for byte; DNS compares names without regard to ASCII case only; internationalized names
/// reach the helpers as the client wrote them, and match only as written.
///
/// ```swift
/// ASCIICase.lowercased("Git.Example.COM")   // "git.example.com"
/// ASCIICase.lowercased("\u{212A}ey.com")    // "\u{212A}ey.com", not "key.com"
/// ASCIICase.lowercased("BÜCHER.de")         // "bÜcher.de"
/// ```
enum ASCIICase {
    /// `text` with ASCII capitals lowercased and nothing else changed. The UTF-8 stays
    /// valid: only single-byte characters change, and only to other single-byte ones.
    static func lowercased(_ text: some StringProtocol) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
