@testable import SecretService
import Testing

/// Session bookkeeping: a session belongs to the connection that opened it, and goes away when
/// it is closed or its client leaves the bus (the provider calls `closeAll(of:)` on the bus
/// daemon's NameOwnerChanged, so a long-running provider does not keep every past client's
/// sessions).
@Suite("Sessions")
struct SessionsTests {
    @Test("sessions belong to their client and end with it")
    func ownership() throws {
        var sessions = Sessions()
        let mine = try sessions.open(algorithm: "plain", for: ":1.5")
        let theirs = try sessions.open(algorithm: "plain", for: ":1.6")
        #expect(mine != theirs)
        try sessions.check(mine, for: ":1.5")
        #expect(throws: BusError.self) { try sessions.check(mine, for: ":1.6") }
        sessions.closeAll(of: ":1.5")
        #expect(throws: BusError.self) { try sessions.check(mine, for: ":1.5") }
        try sessions.check(theirs, for: ":1.6")
        #expect(throws: BusError.self) { try sessions.open(algorithm: "dh-ietf1024-sha256-aes128-cbc-pkcs7", for: ":1.6") }
    }
}
