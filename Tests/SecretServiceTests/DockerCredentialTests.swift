import Foundation
import Testing

/// Docker's own `docker-credential-secretservice` (golang-docker-credential-helpers) against the
/// provider: store, get, list, erase, as `docker login` / `docker logout` drive it.
@Suite("docker-credential-secretservice against secstore-secret-service")
struct DockerCredentialTests {
    static let helper = try? Programs.require("docker-credential-secretservice")

    @Test("store, get, list and erase round trip",
          .enabled(if: helper != nil, "docker-credential-secretservice is not installed (scripts/bootstrap.sh installs golang-docker-credential-helpers)"))
    func roundTrip() throws {
        let provider = try Provider(bus: try PrivateBus())
        let helper = try #require(Self.helper)
        func run(_ command: String, _ input: String) throws -> Programs.Result {
            try Programs.run(helper, [command], stdin: Data(input.utf8), environment: provider.bus.clientEnvironment)
        }
        let url = "https://registry.example.com"
        let stored = try run("store", #"{"ServerURL":"\#(url)","Username":"alice","Secret":"docker-pw-1"}"#)
        #expect(stored.status == 0, "\(stored)")
        let got = try run("get", url)
        #expect(got.status == 0, "\(got)")
        #expect(got.stdout.contains(#""Username":"alice""#) && got.stdout.contains(#""Secret":"docker-pw-1""#), "\(got)")
        #expect(try run("list", "").stdout.contains(#""\#(url)":"alice""#))
        #expect(try run("erase", url).status == 0)
        let gone = try run("get", url)
        #expect(gone.status != 0)
        #expect(gone.stdout.contains("credentials not found"), "\(gone)")
        #expect(!provider.log.contains("docker-pw-1"))
    }
}
