import ArgumentParser

/// `--json`: machine-readable output with the shapes documented in `docs/cli.md`; `--quiet`:
/// only what was asked for.
///
/// ```
/// secstore add -s api -a ci --value-stdin --quiet     # nothing on success
/// secstore list --json
/// ```
struct OutputOptions: ParsableArguments {
    @Flag(name: .customLong("json"), help: "Print JSON (shapes documented in docs/cli.md) instead of text.")
    var json = false

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: ArgumentHelp(
        "Print only what was asked for (secrets, listings, JSON) and problems: no confirmations, notes or hints."))
    var quiet = false
}

/// `--format json|table|tsv` and `--no-headers`, for the commands whose output is a table
/// (`list`, `keyring list`).
///
/// ```
/// secstore list --format tsv --no-headers | cut -f2,3
/// ```
struct TableOutputOptions: ParsableArguments {
    @Option(name: .customLong("format"), help: ArgumentHelp(
        "table (aligned columns, the default), tsv (tab-separated, for cut and awk) or json (as --json).",
        valueName: "format"))
    var format: TableFormat?

    @Flag(name: .customLong("no-headers"), help: "Leave out the header row of table and tsv output.")
    var noHeaders = false

    /// Checks the options against `--json`: `--format` may not contradict it, and
    /// `--no-headers` applies to tables only.
    func validate(json: Bool) throws {
        if json, let format, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) ask for different output. Give one of them.")
        }
        if noHeaders && (json || format == .json) {
            throw ValidationError("--no-headers applies to table and tsv output, not JSON.")
        }
    }

    /// Whether JSON was asked for, by `--json` or `--format json`.
    func isJSON(_ output: OutputOptions) -> Bool { output.json || format == .json }

    /// How tables are rendered.
    var style: Table.Style { Table.Style(separatedByTabs: format == .tsv, headers: !noHeaders) }
}

/// The values of `--format`.
enum TableFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, tsv, json
}
