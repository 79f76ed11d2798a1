import ArgumentParser

/// `--json`: machine-readable output with the shapes documented in `docs/cli.md`.
struct OutputOptions: ParsableArguments {
    @Flag(name: .customLong("json"), help: "Print JSON (shapes documented in docs/cli.md) instead of text.")
    var json = false
}
