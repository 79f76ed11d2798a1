import Foundation
import SecStore
import SecStoreTestSupport
import Testing

/// A read(2) of the device key or of a passphrase file that fails (EIO: a failing disk) was
/// taken for the end of the file: the bytes read so far — none — made the key "not a SecStore
/// device key" (status 8, "restore the original file", though the file was fine) and the
/// passphrase file "empty". Now it is an `ioFailure` that names the file, and an interrupted
/// read (EINTR) is retried. The preload library (Tests/FaultInjection/faultinject.c,
/// `FI_CALL=read`) fails the read of the one file named.
@Suite(.enabled(if: isInstalled("cc"), "needs a C compiler to build the preload library"))
struct ReadFailureTests {
    func fixture(_ scratch: TemporaryDirectory) throws -> FaultFixture {
        let fixture = FaultFixture(root: scratch.url)
        try FaultWriter.all[0].prepare(fixture)
        return fixture
    }

    static let get = FaultWriter("get", {
        FaultWriter.storeArguments($0) + ["get", "--service", "s", "--account", "a", "--passphrase-file", $0.passFile("old").path]
    }) { _ in true }

    @Test func aFailedReadOfTheDeviceKeyIsAnIOFailureNamingIt() throws {
        let library = try FaultLibrary.shared()
        let scratch = TemporaryDirectory("secstore-read-failure")
        let fixture = try fixture(scratch)

        let failed = try Self.get.run(fixture, library: library, environment: ["FI_CALL": "read", "FI_NTH": "1", "FI_ERRNO": "EIO",
                                                                                "FI_PATH": fixture.key.path])
        #expect(failed.exitedNormally)
        #expect(failed.status == 1, "an I/O error is status 1 (ioFailure), not 8 (a bad key file): \(failed.output)")
        #expect(failed.output.contains("Reading the device key \(fixture.key.path) failed: Input/output error"), "\(failed.output)")
        #expect(!failed.output.contains("not a SecStore device key"), "\(failed.output)")
        #expect(!failed.output.contains("one"), "\(failed.output)")
    }

    @Test func anInterruptedReadIsRetried() throws {
        let library = try FaultLibrary.shared()
        let scratch = TemporaryDirectory("secstore-read-eintr")
        let fixture = try fixture(scratch)
        let log = scratch.url.appending(path: "fi.log")

        let read = try Self.get.run(fixture, library: library, environment: ["FI_CALL": "read", "FI_NTH": "1", "FI_TIMES": "2",
                                                                              "FI_ERRNO": "EINTR", "FI_PATH": fixture.key.path,
                                                                              "FI_LOG": log.path])
        #expect(read.status == 0 && read.output == "one", "\(read.output)")
        let injected = (try String(contentsOf: log, encoding: .utf8)).split(separator: "\n").filter { $0.hasSuffix(" injected") }
        #expect(injected.count == 2, "the key's reads were not interrupted: \(injected)")
    }

    /// `SECSTORE_PASSPHRASE_FILE`, read by the library (``PassphraseFile``) for a program such
    /// as the test helper's SecItem reader: `ioErr` (-36), not `errSecParam` (-50, "empty").
    @Test func aFailedReadOfAPassphraseFileIsAnIOFailure() throws {
        let library = try FaultLibrary.shared()
        let scratch = TemporaryDirectory("secstore-read-passfile")
        let fixture = try fixture(scratch)
        let reader = FaultWriter("secitem-read", helper: true, { _ in ["secitem-read", "--service", "s", "--account", "a"] }) { _ in true }
        let environment = ["SECSTORE_PATH": fixture.store.path, "SECSTORE_DEVICE_KEY": fixture.key.path,
                           "SECSTORE_PASSPHRASE_FILE": fixture.passFile("old").path]

        let failed = try reader.run(fixture, library: library,
                                    environment: environment.merging(["FI_CALL": "read", "FI_NTH": "1", "FI_ERRNO": "EIO",
                                                                      "FI_PATH": fixture.passFile("old").path]) { _, new in new })
        #expect(failed.output.contains("status \(SecStoreError.Code.ioFailure.status)"), "\(failed.output)")
    }

    /// A backup whose read fails part way (EIO on its header, a record's length or its body)
    /// was called truncated (status 7, "use a complete copy") though the file was whole. It is
    /// now an I/O failure naming the backup (status 1), and nothing is imported.
    @Test(arguments: [1, 2, 3, 5])
    func aFailedReadOfABackupIsAnIOFailureNotATruncation(failingRead: Int) throws {
        let library = try FaultLibrary.shared()
        let scratch = TemporaryDirectory("secstore-read-backup")
        let fixture = try fixture(scratch)
        let importer = try #require(FaultWriter.all.first { $0.name == "import" })
        let failed = try importer.run(fixture, library: library, environment: ["FI_CALL": "read", "FI_NTH": "\(failingRead)",
                                                                                 "FI_ERRNO": "EIO", "FI_PATH": fixture.backup.path])
        #expect(failed.exitedNormally)
        #expect(failed.status == 1, "read \(failingRead): \(failed.output)")
        #expect(failed.output.contains("Reading the backup \(fixture.backup.path) failed: Input/output error"), "\(failed.output)")
        #expect(!failed.output.contains("truncated"), "\(failed.output)")
        #expect(try importer.check(fixture) == false, "nothing imported")
        // The same backup, read without a fault, imports whole.
        let imported = try importer.run(fixture, library: library, environment: [:])
        #expect(imported.status == 0, "\(imported.output)")
        #expect(try importer.check(fixture) == true)
    }

    /// The command line's own file reads (`--passphrase-file`, `--value-file`) report a failed
    /// read as an I/O failure (status 1), not as a usage error (status 2): the arguments were right.
    @Test func theCommandLinesFileReadsReportAFailedReadAsAnIOFailure() throws {
        let library = try FaultLibrary.shared()
        let scratch = TemporaryDirectory("secstore-read-cli-file")
        let fixture = try fixture(scratch)
        let failed = try Self.get.run(fixture, library: library, environment: ["FI_CALL": "read", "FI_NTH": "1", "FI_ERRNO": "EIO",
                                                                                "FI_PATH": fixture.passFile("old").path])
        #expect(failed.status == 1, "a failed read is status 1 (ioFailure), not 2 (usage): \(failed.output)")
        #expect(failed.output.contains("Cannot read the store passphrase file"), "\(failed.output)")
    }
}
