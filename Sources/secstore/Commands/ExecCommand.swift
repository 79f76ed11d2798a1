import ArgumentParser
import Foundation
import SecStore

/// `secstore exec`: runs a command with secrets in its environment.
///
/// The tool reads every secret first (any failure: a message, a status, and nothing run),
/// then replaces itself with the command (execve(2)): the command has the tool's process id,
/// receives every signal sent to it, and its exit status is the one the caller sees. The
/// secrets are only in the command's environment: never on a command line, never in a file.
struct ExecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command with secrets in its environment.",
        discussion: """
        Each --env NAME=REFERENCE sets the environment variable NAME to the secret of one \
        item: REFERENCE is service/account (a generic password; the first / that is not \
        escaped separates them, \\/ is a slash in a name and \\\\ a backslash), service alone \
        (the one item of that service), or ref:HEX (any item, by persistent reference). \
        --env-file reads NAME=REFERENCE lines (# comments and blank lines skipped); --env \
        overrides a name the file sets.

        Every secret is read before anything runs: a missing item (status 3), a locked store \
        (status 5) or a bad reference (status 2) runs nothing. Then secstore replaces itself \
        with the command (execve, no shell): the command keeps secstore's process id, gets \
        every signal sent to it, and its exit status is secstore's. A command that is not \
        found exits 127, one that cannot run 126. The variable named by --passphrase-env is \
        removed from the command's environment.

        Examples:
          secstore exec --env API_TOKEN=api.example.com/ci -- ./deploy.sh
          secstore exec -e PGPASSWORD=db.example.com/app -- psql -h db.example.com app
          secstore exec --env-file secrets.env -- docker compose up
          secstore exec -e TOKEN=ref:67656e7080599e4e51272fa6277b626155402458 -- printenv TOKEN
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: [.customShort("e"), .customLong("env")], help: ArgumentHelp(
        "Set NAME to the secret REFERENCE names: service/account, service, or ref:HEX (repeatable).",
        valueName: "name=reference"))
    var bindings: [String] = []

    @Option(name: .customLong("env-file"), help: ArgumentHelp(
        "Read NAME=REFERENCE lines from a file (repeatable; # comments and blank lines are skipped).",
        valueName: "file"), completion: .file())
    var environmentFiles: [String] = []

    @OptionGroup var passphrase: PassphraseOptions

    @Argument(parsing: .postTerminator, help: ArgumentHelp(
        "The command and its arguments, after --.", valueName: "command"), completion: .file())
    var command: [String] = []

    /// The command without the `--` that ends secstore's options.
    var commandLine: [String] { command.first == "--" ? Array(command.dropFirst()) : command }

    func validate() throws {
        if commandLine.isEmpty {
            throw ValidationError("Name the command to run after --, as in `secstore exec --env TOKEN=api/ci -- ./deploy.sh`.")
        }
        if bindings.isEmpty && environmentFiles.isEmpty {
            throw ValidationError("Give at least one --env NAME=service/account or --env-file FILE: exec puts secrets in the command's environment.")
        }
    }

    func run() throws {
        let chosen = try environmentBindings()
        var values = try readSecrets(chosen)
        defer { for index in values.indices { Wipe.bytes(&values[index].value) } }
        let environment = ChildEnvironment(passphrase: passphrase, secrets: values)
        CrashHygiene.restoreForExec()
        // Returns only when nothing could be run.
        throw ProcessLauncher.replaceProcess(with: commandLine, environment: environment)
    }

    /// The bindings of the files, in order, then those of `--env`, which override a name a
    /// file set. A name given twice by `--env`, or twice in the files, is an error.
    func environmentBindings() throws -> [EnvironmentBinding] {
        var fromFiles: [EnvironmentBinding] = []
        for file in environmentFiles {
            let data = try InputFile.read(file, what: "environment", limit: 1 << 20)
            guard let text = String(validating: Array(data), as: UTF8.self) else {
                throw CLIError.usage("The environment file \(file) is not UTF-8 text.")
            }
            let parsed = try Self.parse { () throws(SecretReferenceError) in try EnvironmentBinding.parseFile(text, file: file) }
            for binding in parsed {
                if let earlier = fromFiles.first(where: { $0.name == binding.name }) {
                    throw CLIError.usage("\(binding.origin): \(binding.name) is already set at \(earlier.origin).")
                }
                fromFiles.append(binding)
            }
        }
        var fromOptions: [EnvironmentBinding] = []
        for text in bindings {
            let binding = try Self.parse { () throws(SecretReferenceError) in
                try EnvironmentBinding(parsing: text, origin: EnvironmentBinding.commandLineOrigin)
            }
            if fromOptions.contains(where: { $0.name == binding.name }) {
                throw CLIError.usage("--env: \(binding.name) is given twice.")
            }
            fromOptions.append(binding)
        }
        let overridden = Set(fromOptions.map(\.name))
        return fromFiles.filter { !overridden.contains($0.name) } + fromOptions
    }

    private static func parse<T>(_ body: () throws(SecretReferenceError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CLIError.usage(error.message + ".")
        }
    }

    /// Every binding's secret, read before anything runs. The store is closed when this returns.
    private func readSecrets(_ chosen: [EnvironmentBinding]) throws -> [(name: String, value: [UInt8])] {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        return try session.unlockingIfNeeded {
            try chosen.map { binding in (binding.name, try Self.secret(of: binding, in: session.store)) }
        }
    }

    private static func secret(of binding: EnvironmentBinding, in store: SecretStore) throws -> [UInt8] {
        let matches = try store.find(binding.reference.query)
        guard let match = matches.first, let reference = match.persistentReference else {
            var fix = "Check the names with `secstore list`"
            if case .genericPassword(let service, _) = binding.reference, binding.quotesReference {
                fix = "Check the names with `secstore list --service \(Self.shellQuoted(service))`"
            }
            throw CLIError(.notFound, "\(binding.name) (\(binding.origin)): no item matches \(binding.shownReference). \(fix). Nothing was run.",
                           name: SecStoreError.Code.itemNotFound.name)
        }
        guard matches.count == 1 else {
            throw CLIError.usage("\(binding.name) (\(binding.origin)): \(matches.count) items match \(binding.shownReference) (other accounts or access groups). Name one as service/account, or as ref:HEX from `secstore list --refs`. Nothing was run.")
        }
        // Only the one item's secret is decrypted.
        let data = try store.items(matching: Query(persistentReference: reference, returning: .data))[0].data ?? Data()
        let bytes = [UInt8](data)
        guard !bytes.contains(0) else {
            throw CLIError.usage("\(binding.name) (\(binding.origin)): the secret of \(binding.shownReference) holds a zero byte, which an environment variable cannot. Nothing was run.")
        }
        // NAME=value and its terminating zero, as execve(2) copies it.
        guard binding.name.utf8.count + 2 + bytes.count <= largestVariable else {
            throw CLIError.usage("\(binding.name) (\(binding.origin)): the secret of \(binding.shownReference) has \(bytes.count) bytes; Linux takes at most \(largestVariable) bytes for one environment variable (NAME=value), and would refuse to run the command. Pass the secret through a file or standard input (`secstore get … | command`). Nothing was run.")
        }
        return bytes
    }

    /// The longest `NAME=value` string execve(2) accepts, with its zero byte: Linux's
    /// MAX_ARG_STRLEN, 32 pages. Longer, the command is refused with E2BIG ("Argument list too
    /// long"), which names neither the variable nor the cause.
    static var largestVariable: Int { 32 * sysconf(Int32(_SC_PAGESIZE)) }

    /// `text` quoted for a shell command in a message.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-+:@/,".unicodeScalars.contains($0)) }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
