import ArgumentParser
import Foundation
import SecStore

/// `secstore generate`: a random password from libsodium, stored as an item (and printed
/// only when asked).
struct GenerateCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a random password and store it as an item.",
        discussion: """
        The password is drawn from libsodium's generator, every character uniformly from the \
        chosen classes (rejection sampling: no character is likelier than another), with at \
        least one character of each class. By default 32 characters of lower, upper, digits \
        and symbols (about 209 bits). It is stored like `secstore add` stores a secret, and \
        printed only with --print. --update replaces an existing item's secret (a rotation).

        Examples:
          secstore generate -s db.example.com -a app
          secstore generate -s wifi -a home --length 20 --no-symbols --print
          secstore generate -s pin -a door --length 6 --classes digits
          secstore generate -s api -a ci --update --exclude 'Il1O0' --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var item: ItemOptions
    @OptionGroup var details: ItemDetailOptions

    @Option(name: [.customShort("l"), .customLong("length")], help: ArgumentHelp(
        "How many characters (1 to 4096; default 32).", valueName: "count"))
    var length = PasswordGenerator.defaultLength

    @Option(name: .customLong("classes"), help: ArgumentHelp(
        "The character classes, comma-separated: lower, upper, digits, symbols, or letters, alphanumeric, all (default: all).", valueName: "list"))
    var classes: CharacterClassList?

    @Flag(name: .customLong("no-symbols"), help: "Letters and digits only (as --classes lower,upper,digits).")
    var noSymbols = false

    @Option(name: .customLong("exclude"), help: ArgumentHelp(
        "Characters never to use, such as the look-alikes Il1O0.", valueName: "characters"))
    var excluded = ""

    @Flag(name: .customLong("print"), help: "Also print the password on standard output (in JSON: \"secret\").")
    var print = false

    @Flag(name: .customLong("update"), help: "Replace the item's secret if it exists (rotate it): add or replace in one call.")
    var update = false

    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if item.reference != nil {
            throw ValidationError("--ref names an existing item; a generated password is stored under --service/--server and --account.")
        }
        if noSymbols, let classes, classes.value.contains(.symbols) {
            throw ValidationError("--no-symbols contradicts --classes \(classes.text). Give one of them.")
        }
        guard PasswordGenerator.lengthRange.contains(length) else {
            throw ValidationError("--length must be \(PasswordGenerator.lengthRange.lowerBound) to \(PasswordGenerator.lengthRange.upperBound).")
        }
    }

    var generator: PasswordGenerator {
        var chosen = classes?.value ?? .all
        if noSymbols { chosen.remove(.symbols) }
        return PasswordGenerator(length: length, classes: chosen, excluding: excluded)
    }

    func run() throws {
        let generator = self.generator
        let password: String
        do {
            password = try generator.generate()
        } catch let error as SecStoreError where error.code == .invalidParameter {
            throw CLIError.usage(error.message)
        }
        var value = Data(password.utf8)
        defer { value.resetBytes(in: 0..<value.count) }
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let itemClass = item.resolvedClass() ?? .genericPassword
        let attributes = try item.newItemAttributes(details)
        let newItem = Item(itemClass: itemClass, attributes: attributes, data: value)
        let (stored, replaced) = try session.unlockingIfNeeded {
            try ItemWriter.add(newItem, replacing: update, in: session.store)
        }
        if output.json {
            AddCommand.report(stored, replaced: replaced, update: update, output: output, secret: print ? value : nil)
            return
        }
        let strength = "\(password.count) characters, \(Int(generator.entropyBits)) bits"
        let summary = "\(replaced ? "Replaced the secret of" : "Stored a new password as") \(itemClass.rawValue) item (\(AddCommand.describe(stored))) in group \(stored.attributes.accessGroup ?? "") (\(strength))."
        if print {
            Console.writeBytes(value)
            if Terminal.standardOutputIsTerminal { Console.write("\n") }
            Console.note(summary)
        } else {
            Console.report(summary)
        }
    }
}

/// `--classes lower,upper,digits,symbols`: character classes by name.
struct CharacterClassList: ExpressibleByArgument, Sendable {
    let value: PasswordGenerator.CharacterClasses
    let text: String

    static let names: [String: PasswordGenerator.CharacterClasses] = [
        "lower": .lowercase, "lowercase": .lowercase, "upper": .uppercase, "uppercase": .uppercase,
        "digits": .digits, "digit": .digits, "numbers": .digits, "symbols": .symbols, "symbol": .symbols,
        "special": .symbols, "letters": .letters, "alphanumeric": .alphanumeric, "all": .all,
    ]

    init?(argument: String) {
        var classes: PasswordGenerator.CharacterClasses = []
        for name in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let named = Self.names[name.trimmingWhitespace().lowercased()] else { return nil }
            classes.formUnion(named)
        }
        guard !classes.isEmpty else { return nil }
        value = classes
        text = argument
    }

    static var allValueStrings: [String] { ["lower", "upper", "digits", "symbols"] }
    static var defaultCompletionKind: CompletionKind { .list(["lower,upper,digits,symbols", "lower,upper,digits", "digits"]) }
}
