import ArgumentParser
import Foundation
import SecStore

/// Where an item's secret comes from: `--value-stdin`, `--value-file`, the terminal
/// prompt, or (with a warning) `--value`, which anyone can read in the process list.
///
/// Bytes from standard input or a file are stored exactly as given; `--trim-newline`
/// removes one trailing newline (what `echo` adds).
///
/// ```
/// printf %s "$TOKEN" | secstore add --service api --account ci --value-stdin
/// secstore add --service api --account alice          # asks twice, without echo
/// ```
struct SecretInputOptions: ParsableArguments {
    @Flag(name: .customLong("value-stdin"), help: "Read the secret from standard input (all of it, bytes unchanged).")
    var stdin = false

    @Option(name: .customLong("value-file"), help: ArgumentHelp(
        "Read the secret from a file (all of it, bytes unchanged).", valueName: "path"), completion: .file())
    var file: String?

    @Option(name: .customLong("value"), help: ArgumentHelp(
        "The secret as an argument. Other users can see it in the process list: prefer --value-stdin.",
        valueName: "secret"))
    var argument: String?

    @Flag(name: .customLong("prompt"), help: "Ask for the secret at the terminal, without echo.")
    var prompt = false

    @Flag(name: .customLong("trim-newline"), help: "Remove one trailing newline from --value-stdin or --value-file input.")
    var trimNewline = false

    @Flag(name: .customLong("allow-empty"), help: "Accept an empty secret from --value-stdin or --value-file (otherwise an error: a closed or empty input is usually a mistake).")
    var allowEmpty = false

    func validate() throws {
        if [stdin, file != nil, argument != nil, prompt].filter({ $0 }).count > 1 {
            throw ValidationError("Give at most one of --value-stdin, --value-file, --value and --prompt.")
        }
        if trimNewline && !stdin && file == nil {
            throw ValidationError("--trim-newline applies to --value-stdin and --value-file.")
        }
    }

    /// Whether the user named a source (or asked for the prompt).
    var isGiven: Bool { stdin || file != nil || argument != nil || prompt }

    /// The secret from the named source, or from the terminal prompt when none was named.
    func read() throws -> Data {
        var data: Data
        if stdin {
            data = try StandardInput.readAll()
        } else if let file {
            data = try InputFile.read(file, what: "secret")
        } else if let argument {
            Console.warn("--value puts the secret in the process list and your shell history. Prefer --value-stdin or the prompt.")
            data = Data(argument.utf8)
        } else {
            guard Terminal.canPrompt else {
                throw CLIError.usage("No secret given and no terminal to ask for it. Pass --value-stdin (or --value-file PATH).")
            }
            var typed = try Prompter.ask(what: "secret", confirm: true)
            defer { Wipe.bytes(&typed) }
            data = Data(typed)
        }
        if trimNewline, data.last == UInt8(ascii: "\n") { data.removeLast() }
        if data.isEmpty && (stdin || file != nil) && !allowEmpty {
            throw CLIError.usage("The secret is empty (\(stdin ? "standard input was empty or closed" : "the file is empty")). Pass --allow-empty if an empty secret is what you mean.")
        }
        return data
    }
}
