import Foundation
import SecStore
import Testing

@Suite("secstore generate and PasswordGenerator")
struct GenerateTests {
    static let lower = Set("abcdefghijklmnopqrstuvwxyz")
    static let upper = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    static let digits = Set("0123456789")
    static let symbols = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

    @Test("generate stores a 32-character password of all four classes and does not print it")
    func storesWithoutPrinting() throws {
        let store = try CLIStore.created()
        let result = try store.run("generate", "-s", "db.example.com", "-a", "app")
        #expect(result.status == Exit.success, "\(result)")
        #expect(result.stdout.hasPrefix("Stored a new password as genp item (service \"db.example.com\", account \"app\")"))
        #expect(result.stdout.contains("32 characters, 209 bits"))
        let password = try store.run("get", "-s", "db.example.com", "-a", "app").stdout
        #expect(password.count == 32)
        #expect(!result.stdout.contains(password) && !result.stderr.contains(password))
        for set in [Self.lower, Self.upper, Self.digits, Self.symbols] {
            #expect(password.contains(where: set.contains), "every class appears: \(set)")
        }
    }

    @Test("--print writes the password alone on standard output; --json with --print carries it")
    func printing() throws {
        let store = try CLIStore.created()
        let printed = try store.run("generate", "-s", "wifi", "-a", "home", "--length", "20", "--no-symbols", "--print")
        #expect(printed.status == Exit.success, "\(printed)")
        #expect(printed.stdout.count == 20, "no newline when standard output is not a terminal: \(printed.stdout)")
        #expect(printed.stdout.allSatisfy { Self.lower.contains($0) || Self.upper.contains($0) || Self.digits.contains($0) })
        #expect(printed.stderr.contains("Stored a new password"))
        #expect(try store.run("get", "-s", "wifi", "-a", "home").stdout == printed.stdout)

        let json = try store.run("generate", "-s", "pin", "-a", "door", "-l", "6", "--classes", "digits", "--print", "--json")
        let object = try json.jsonObject()
        let secret = try #require(object["secret"] as? String)
        #expect(secret.count == 6 && secret.allSatisfy(Self.digits.contains))
        #expect((object["attributes"] as? [String: Any])?["service"] as? String == "pin")
        let quiet = try store.run("generate", "-s", "pin", "-a", "door2", "--json")
        #expect(try quiet.jsonObject()["secret"] == nil, "no secret in JSON without --print")
    }

    @Test("--update rotates an existing item's secret; without it a duplicate is status 4")
    func rotation() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "old", "--label", "CI token")
        #expect(try store.run("generate", "-s", "api", "-a", "ci").status == Exit.duplicate)
        let rotated = try store.run("generate", "-s", "api", "-a", "ci", "--update", "--json", "--print", "--exclude", "Il1O0")
        #expect(rotated.status == Exit.success, "\(rotated)")
        let object = try rotated.jsonObject()
        #expect(object["replaced"] as? Bool == true)
        let secret = try #require(object["secret"] as? String)
        let lookAlikes = Set("Il1O0")
        #expect(!secret.contains { lookAlikes.contains($0) })
        #expect(try store.run("get", "-s", "api", "-a", "ci").stdout == secret)
        #expect(try store.run("list", "-s", "api", "--json").jsonArray().count == 1)
        let attributes = try #require(try store.run("get", "-s", "api", "-a", "ci", "--json").jsonObject()["attributes"] as? [String: Any])
        #expect(attributes["label"] as? String == "CI token", "attributes not given are kept")
    }

    @Test("Bad options are usage errors with a message", arguments: [
        ["--length", "0"], ["--length", "5000"], ["--length", "3"], ["--classes", "emoji"], ["--classes", ""],
        ["--classes", "digits", "--exclude", "0123456789"], ["--no-symbols", "--classes", "symbols"], ["--ref", "67656e7000000000000000019afe06c2fe302355"],
    ])
    func badOptions(_ options: [String]) throws {
        let store = try CLIStore.created()
        let result = try store.run(["generate", "-s", "x", "-a", "y"] + options, stdin: Data())
        #expect(result.status == Exit.usage, "\(options): \(result)")
        #expect(result.stderr.hasPrefix("secstore: error: "), "\(options): \(result.stderr)")
        #expect(try store.run("list", "--json").jsonArray().isEmpty, "nothing stored")
    }

    @Test("PasswordGenerator: lengths, classes, exclusions, custom alphabets")
    func generatorAPI() throws {
        for length in [1, 4, 17, 64, 4096] {
            let password = try PasswordGenerator(length: length, classes: length >= 4 ? .all : .digits).generate()
            #expect(password.count == length)
        }
        let hex = try PasswordGenerator(length: 40, alphabet: "0123456789abcdef").generate()
        #expect(hex.count == 40 && hex.allSatisfy { "0123456789abcdef".contains($0) })
        let tight = try PasswordGenerator(length: 4, classes: .all, excluding: "abcdefghijklmnopqrstuvwxy").generate()
        #expect(tight.contains("z"), "the one character left of a class appears")
        #expect(PasswordGenerator(classes: .alphanumeric).entropyBits > 190)
        #expect(throws: SecStoreError.self) { try PasswordGenerator(length: 0).generate() }
        #expect(throws: SecStoreError.self) { try PasswordGenerator(length: 2, classes: .all).generate() }
        #expect(throws: SecStoreError.self) { try PasswordGenerator(classes: []).generate() }
        #expect(throws: SecStoreError.self) { try PasswordGenerator(alphabet: "").generate() }
        #expect(throws: SecStoreError.self) { try PasswordGenerator(classes: .digits, excluding: "0123456789").generate() }
    }

    @Test("PasswordGenerator draws every character about equally often (chi-squared, 3 and 10 symbols)")
    func uniformity() throws {
        for alphabet in ["abc", "0123456789"] {
            var counts: [Character: Int] = [:]
            let draws = 30_000
            let password = PasswordGenerator(length: 4096, alphabet: alphabet)
            var drawn = 0
            while drawn < draws {
                for character in try password.generate() { counts[character, default: 0] += 1 }
                drawn += 4096
            }
            let expected = Double(drawn) / Double(alphabet.count)
            let chiSquared = alphabet.reduce(0.0) { sum, character in
                let difference = Double(counts[character, default: 0]) - expected
                return sum + difference * difference / expected
            }
            // Far beyond the 0.9999 quantile for 2 and 9 degrees of freedom (18.4 and 33.7).
            #expect(chiSquared < 40, "\(alphabet): \(counts)")
        }
    }
}
