import Foundation

/// Whole-process timings of the `secstore` tool: start, open, work, print, exit, as a shell
/// runs it. The binary is the one built beside this benchmark (`.build/release/secstore`:
/// `scripts/build-release.sh secstore`). Users get the tool with the Swift runtime linked in
/// statically (scripts/run.sh builds it so), which halves its start-up; the progress output
/// says which kind of binary was timed (``linkage``).
struct CommandLineTimings {
    /// The `secstore` executable, or `nil` when it is not beside this one.
    let executable: String?
    let directory: URL

    static let getRuns = 20
    static let versionRuns = 20
    static let listRuns = 5
    static let listItems = 20_000

    init(directory: URL) {
        let beside = URL(filePath: Subprocess.currentExecutable).deletingLastPathComponent().appending(path: "secstore").path
        executable = FileManager.default.isExecutableFile(atPath: beside) ? beside : nil
        self.directory = directory
        if let executable {
            progress("[command line] timing \(executable): \(Self.linkage(of: executable, scratch: directory))")
        }
    }

    /// How the binary at `path` links the Swift runtime: statically, as users get it from
    /// scripts/run.sh, or dynamically (`libswiftCore.so` among the libraries it loads), which
    /// costs every process about 5 ms more (docs/performance.md, "Command line: where
    /// start-up goes"); and, when the runtime is linked in, the shared libraries it still
    /// loads, which show whether scripts/build-release.sh linked the C libraries in (each one
    /// loaded shared costs every process start-up: docs/decisions.md). Asked of the dynamic
    /// loader, as `ldd` does: with `LD_TRACE_LOADED_OBJECTS` set it lists the libraries and
    /// runs nothing. (Scanning the 100 MB binary for the library's name took seconds and put
    /// it all in the resident set.)
    static func linkage(of path: String, scratch: URL) -> String {
        let listing = scratch.appending(path: "linkage.txt")
        guard let run = try? Subprocess.run(path, [], outputPath: listing.path, errorPath: "/dev/null",
                                            environment: ["LD_TRACE_LOADED_OBJECTS=1"]),
              run.status == 0, let libraries = try? String(contentsOf: listing, encoding: .utf8), !libraries.isEmpty
        else { return "linkage unknown (the dynamic loader did not list its libraries)" }
        if libraries.contains("libswiftCore.so") {
            return "Swift runtime linked dynamically; users get it linked statically "
                + "(scripts/build-release.sh secstore), about 5 ms faster per process"
        }
        // Each line starts with the library's name ("libm.so.6 => /lib/…"); the loader and
        // the vDSO are not libraries the binary asked for.
        let loaded = libraries.split(separator: "\n").compactMap { line -> Substring? in
            guard let name = line.split(whereSeparator: \.isWhitespace).first, name.hasPrefix("lib") else { return nil }
            return name.prefix { $0 != "." }
        }
        return "Swift runtime linked statically, as scripts/run.sh builds it; shared libraries loaded: "
            + loaded.joined(separator: ", ")
    }

    /// Why nothing is measured when the tool is missing.
    static let missingNote = "secstore not found beside secstore-benchmark: build it too "
        + "(scripts/build-release.sh secstore)"

    /// `secstore --version`: the process start-up floor (dynamic loading, the Swift runtime
    /// and Foundation, argument parsing; no store).
    func timeVersion() throws -> ProcessTiming? {
        guard let executable else { return nil }
        return try time(runs: Self.versionRuns) { _ in
            let run = try runTool([executable, "--version"])
            return run
        }
    }

    /// `secstore get --service S --account A` of `getRuns` different items (plus one
    /// untimed first run), each output checked against the stored secret.
    func timeGet(storeURL: URL, deviceKeyURL: URL, size: Int) throws -> ProcessTiming? {
        guard let executable else { return nil }
        let order = Workload.readOrder(count: Self.getRuns + 1, size: size, seed: 0x5EC5_7012_E000_0300)
        return try time(runs: Self.getRuns) { run in
            let index = order[run + 1]
            let result = try runTool([executable, "get", "--store", storeURL.path, "--device-key", deviceKeyURL.path,
                                      "--service", Workload.service(index, size: size), "--account", Workload.account(index)])
            let printed = try Data(contentsOf: outputURL)
            guard printed == Data(Workload.secret(index)) else {
                throw BenchmarkError("secstore get printed \(printed.count) bytes, not item \(index)'s secret")
            }
            return result
        }
    }

    /// `secstore list --json` of a store of ``listItems`` items, output to a file; the
    /// first (untimed) run's output must be a JSON array of that many items.
    func timeList(storeURL: URL, deviceKeyURL: URL, items: Int) throws -> ProcessTiming? {
        guard let executable else { return nil }
        return try time(runs: Self.listRuns) { run in
            let result = try runTool([executable, "list", "--json", "--store", storeURL.path, "--device-key", deviceKeyURL.path])
            if run < 0 {
                let listed = try JSONSerialization.jsonObject(with: Data(contentsOf: outputURL)) as? [Any]
                guard listed?.count == items else {
                    throw BenchmarkError("secstore list --json listed \(listed?.count ?? -1) items, not \(items)")
                }
            }
            return result
        }
    }

    private var outputURL: URL { directory.appending(path: "secstore-output") }
    private var errorURL: URL { directory.appending(path: "secstore-errors") }

    /// One run that must exit 0.
    private func runTool(_ command: [String]) throws -> Subprocess.Run {
        let run = try Subprocess.run(command[0], Array(command.dropFirst()), outputPath: outputURL.path, errorPath: errorURL.path)
        guard run.status == 0 else {
            let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
            throw BenchmarkError("\(command.dropFirst().prefix(2).joined(separator: " ")) exited with status \(run.status): \(errors)")
        }
        return run
    }

    /// One untimed run (number -1: loads the binary and libraries into the page cache),
    /// then `runs` timed ones (numbers 0…).
    private func time(runs: Int, _ body: (Int) throws -> Subprocess.Run) throws -> ProcessTiming {
        _ = try body(-1)
        return ProcessTiming(try (0..<runs).map(body))
    }
}
