import Testing
import SecStore
@testable import SecStoreSync

/// The conflict rules decide from versions and revisions only, so every device decides alike.
@Suite struct ConflictRulesTests {
    let mine: [UInt8] = Array(repeating: 0x01, count: 16)
    let theirs: [UInt8] = Array(repeating: 0x02, count: 16)

    func record(_ modified: Int64, _ device: [UInt8], revision: Int64, itemID: Int64? = 7) -> SyncRecordState {
        SyncRecordState(tag: Array(repeating: 9, count: 32), itemID: itemID, groupID: Array(repeating: 3, count: 16),
                        version: SyncVersion(modified: modified, device: device), revision: revision, deleted: itemID == nil)
    }

    @Test func laterModificationWinsAndTiesGoToTheGreaterDevice() {
        #expect(SyncVersion(modified: 2, device: mine) > SyncVersion(modified: 1, device: theirs))
        #expect(SyncVersion(modified: 1, device: theirs) > SyncVersion(modified: 1, device: mine))
    }

    @Test func anEchoOrTheSameVersionResealedIsIgnored() {
        let known = record(10, mine, revision: 5)
        #expect(ConflictRules.decide(incoming: known.version, revision: 5, local: .init(record: known)) == .ignore)
        #expect(ConflictRules.decide(incoming: known.version, revision: 9, local: .init(record: known)) == .ignore)
    }

    @Test func anOlderVersionAtALaterRevisionIsAReplay() {
        let known = record(10, theirs, revision: 5)
        let decision = ConflictRules.decide(incoming: SyncVersion(modified: 9, device: theirs), revision: 8, local: .init(record: known))
        #expect(decision == .refuse(.stale))
    }

    @Test func aNewerRecordWinsOverAnOlderPendingChange() {
        let known = record(10, theirs, revision: 5)
        let local = ConflictRules.Local(record: known, pendingVersion: SyncVersion(modified: 11, device: mine))
        #expect(ConflictRules.decide(incoming: SyncVersion(modified: 12, device: theirs), revision: 8, local: local) == .apply)
        #expect(ConflictRules.decide(incoming: SyncVersion(modified: 11, device: theirs), revision: 8, local: local) == .apply)
        let newer = ConflictRules.Local(record: known, pendingVersion: SyncVersion(modified: 13, device: mine))
        #expect(ConflictRules.decide(incoming: SyncVersion(modified: 12, device: theirs), revision: 8, local: newer) == .keepLocal)
    }

    @Test func aConcurrentCreateGoesToTheRecordAlreadyInEtcd() {
        let identical = ConflictRules.Local(unsyncedTwin: (itemID: 4, identical: true))
        let different = ConflictRules.Local(unsyncedTwin: (itemID: 4, identical: false))
        let version = SyncVersion(modified: 1, device: theirs)
        #expect(ConflictRules.decide(incoming: version, revision: 3, local: identical) == .adoptTwin(itemID: 4))
        #expect(ConflictRules.decide(incoming: version, revision: 3, local: different) == .keepTwinAsConflictCopy(itemID: 4))
    }

    @Test func joinCodesReadAsTyped() throws {
        let code = try JoinCode.random()
        #expect(code.description.count == 14)
        #expect(JoinCode(typed: code.description.lowercased()) == code)
        #expect(JoinCode(typed: code.description.replacingOccurrences(of: "-", with: " ")) == code)
        #expect(JoinCode(typed: "ABCD-EFGH-JKM") == nil)
        #expect(JoinCode(typed: "ABCD-EFGH-JKMU") == nil)
        #expect(JoinCode(typed: "oooo-iiii-llll") == JoinCode(typed: "0000-1111-1111"))
    }
}
