import ArgumentParser
import SecStore
import SecStoreSync

/// `secstore sync approve`: lets a waiting device into the circle. The code is read from the
/// terminal, or from standard input with `--code-stdin`, never from the command line (where
/// other users read it in `/proc/PID/cmdline`, and shell history keeps it).
struct SyncApproveCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Approve the device whose `sync join` printed a code: hand it the circle's keys.",
        discussion: """
        The code is asked for at the terminal, or read from the next line of standard input \
        with --code-stdin; never give it on the command line, which other users can read.

        Examples:
          secstore sync approve                      # asks: Code `sync join` printed:
          echo 7K2M-QX4D-9RTW | secstore sync approve --code-stdin
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Flag(help: "Read the code from the next line of standard input.")
    var codeStdin = false
    /// Refused with a message that says where the code goes now.
    @Argument(help: .hidden)
    var commandLineCode: String?
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if commandLineCode != nil {
            throw ValidationError("The code is not taken on the command line (other users can read it, and shell history keeps it). Run `secstore sync approve` and type it when asked, or pipe it with --code-stdin.")
        }
    }

    func run() throws {
        let store = try storeOptions.open()
        let code = try readCode()
        let device = try AsyncBridge.wait { try await SyncEngine.open(store: store).approve(code: code) }
        if output.json {
            JSONOutput.print(["approved": .string(device)])
        } else {
            Console.report("Approved device \(device). It receives the circle's items at its next `secstore sync now`.")
        }
    }

    /// The code from standard input, or typed at the terminal.
    private func readCode() throws -> String {
        var bytes: [UInt8] = []
        defer { Wipe.bytes(&bytes) }
        if codeStdin {
            bytes = StandardInput.readLine()
        } else {
            guard Terminal.canPrompt else {
                throw CLIError.usage("No code given and no terminal to ask for it. Pipe the code `sync join` printed with --code-stdin.")
            }
            bytes = try NoEchoPrompt.read("Code `sync join` printed: ", echo: true)
        }
        guard !bytes.isEmpty else { throw CLIError.usage("The code is empty. Give the code `sync join` printed on the new device.") }
        return String(decoding: bytes, as: UTF8.self)
    }
}
