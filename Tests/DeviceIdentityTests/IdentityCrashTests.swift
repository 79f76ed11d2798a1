import Foundation
import SecStore
import SecStoreTestSupport
import Testing
@testable import DeviceIdentity

/// DeviceIdentity's first launch killed at random moments (`scripts/crash-campaign.sh` runs
/// many trials): whatever the kill left, the next launches agree on one identifier, and
/// the store verifies.
@Suite struct IdentityCrashTests {
    static var trials: Int {
        ProcessInfo.processInfo.environment["SECSTORE_CRASH_TRIALS"].flatMap(Int.init).map { max(2, $0 / 4) } ?? 4
    }

    @Test func aKilledFirstLaunchLeavesOneIdentifier() throws {
        for trial in 0..<Self.trials {
            let app = TestApp(appID: "ABCDE12345.com.example.app", directory: TemporaryDirectory())
            let first = try helper.start(app.helperArguments())
            Thread.sleep(forTimeInterval: Double.random(in: 0.0...0.12))
            first.kill()
            let second = try helper.run(app.helperArguments())
            let third = try helper.run(app.helperArguments())
            #expect(second.status == 0 && third.status == 0, "trial \(trial): \(second.output) \(third.output)")
            let secondID = second.output.split(separator: " ").first
            #expect(secondID != nil && secondID == third.output.split(separator: " ").first, "trial \(trial)")
            let owner = try SecretStore(at: app.directory.storeURL, options: .init(access: .owner, deviceKeyURL: app.directory.deviceKeyURL))
            #expect(try owner.verify().isIntact, "trial \(trial)")
        }
    }
}
