import Foundation
import SecStore
import Testing

/// docker-credential-secstore fed server URLs at the edges of what docker-credential-helpers
/// (Go's `net/url`) accepts.
@Suite struct DockerProtocolEdgeTests {
    /// A server URL holding an ASCII control character is refused, as Go's `url.Parse` refuses
    /// it in docker-credential-helpers ("net/url: invalid control character in URL"). It was
    /// stored, and `list` then named a credential that neither `get` nor `erase` could reach:
    /// docker writes the URL back on one line, which the helper reads with its line breaks
    /// removed.
    @Test func aServerURLWithAControlCharacterIsRefused() throws {
        let home = try HelperHome()
        for url in [#"https://registry.example.com/a\nb"#, #"https://registry.example.com/a\tb"#,
                    #"https://registry.example.com/v2/\u007f"#, #"https://registry.example.com/\u0000"#] {
            let stored = try home.docker("store", input: #"{"ServerURL":"\#(url)","Username":"alice","Secret":"s3cr3t"}"#)
            #expect(stored.status == 1 && stored.stdout == "net/url: invalid control character in URL\n", "\(url): \(stored)")
        }
        #expect(try home.internetPasswords().isEmpty)
        for action in ["get", "erase"] {
            let result = try home.docker(action, input: "https://registry.example.com/a\tb")
            #expect(result.status == 1 && result.stdout == "net/url: invalid control character in URL\n", "\(action): \(result)")
        }
        // Line breaks around (or inside) the URL docker writes are not part of it.
        try #require(try home.docker("store", input: #"{"ServerURL":"https://registry.example.com/ab","Username":"alice","Secret":"s3cr3t"}"#).status == 0)
        #expect(try home.docker("get", input: "https://registry.example.com/a\r\nb\n").stdout.contains("s3cr3t"))
    }

    /// `get` and `erase` join the input's lines as docker-credential-helpers does (Go's
    /// `bufio.ScanLines`: lines end at LF, each without the CR before it), and nothing else
    /// ends a line. They split at every `Character` that is a newline: a URL `store` took with
    /// U+2028, U+2029 or U+0085 in it (no ASCII control character, so Go's `url.Parse` takes
    /// it) was listed, but `get` and `erase` of that same URL read it without them and found
    /// nothing. A CR inside a line was removed too, where Go keeps it and refuses the URL.
    @Test func onlyLineFeedsEndTheLinesOfAServerURL() throws {
        let home = try HelperHome()
        for separator in ["\u{2028}", "\u{2029}", "\u{85}"] {
            let url = "https://registry.example.com/a\(separator)b"
            let stored = try home.docker("store", input: #"{"ServerURL":"\#(url)","Username":"alice","Secret":"s3cr3t"}"#)
            try #require(stored.status == 0, "\(stored)")
            let found = try home.docker("get", input: url + "\n")
            #expect(found.status == 0 && found.stdout.contains("s3cr3t"), "\(separator.unicodeScalars.first!): \(found)")
            let erased = try home.docker("erase", input: url + "\r\n")
            #expect(erased.status == 0, "\(separator.unicodeScalars.first!): \(erased)")
        }
        #expect(try home.internetPasswords().isEmpty)

        try #require(try home.docker("store", input: #"{"ServerURL":"https://registry.example.com/ab","Username":"alice","Secret":"s3cr3t"}"#).status == 0)
        let carriageReturn = try home.docker("get", input: "https://registry.example.com/a\rb\n")
        #expect(carriageReturn.status == 1 && carriageReturn.stdout == "net/url: invalid control character in URL\n", "\(carriageReturn)")
    }

    /// Member names match without regard to case, as Go's decoder matches them; two members
    /// naming one field with different values are refused. The helper took whichever its
    /// dictionary happened to list first, which changes from run to run (Swift seeds its
    /// hashing per process): the same input stored under one URL or the other.
    @Test func oneFieldGivenTwiceIsRefused() throws {
        let home = try HelperHome()
        let input = #"{"serverurl":"https://a.example.com","SERVERURL":"https://b.example.com","Username":"u","Secret":"s"}"#
        for _ in 0..<6 {
            let result = try home.docker("store", input: input)
            #expect(result.status == 1 && result.stdout == "invalid credentials: ServerURL is given more than once\n", "\(result)")
        }
        #expect(try home.internetPasswords().isEmpty)
        // The same value twice is one value.
        let same = #"{"serverurl":"https://a.example.com","ServerURL":"https://a.example.com","Username":"u","Secret":"s"}"#
        #expect(try home.docker("store", input: same).status == 0)
    }
}
