import Foundation
@testable import SecStore
import Testing

/// The access-control rules on their own, with a clock: the reuse window of a passphrase
/// proof cannot be waited out in the suite.
@Suite("Access-control rules") struct AccessControlRulesTests {
    let now = Date()

    func outcome(_ flags: AccessControlFlags, provenSecondsAgo: Double?) -> SecStoreError.Code? {
        do {
            try AccessControlRules.checkUse(flags, passphraseProvenAt: provenSecondsAgo.map { now.addingTimeInterval(-$0) }, now: now)
            return nil
        } catch let error as SecStoreError {
            return error.code
        } catch {
            return .storeUnavailable
        }
    }

    @Test("userPresence and devicePasscode: a passphrase proof within 5 minutes, not after, not without")
    func reuseWindow() {
        for flags in [AccessControlFlags.userPresence, .devicePasscode, [.userPresence, .devicePasscode]] {
            #expect(outcome(flags, provenSecondsAgo: 0) == nil)
            #expect(outcome(flags, provenSecondsAgo: 299) == nil)
            #expect(outcome(flags, provenSecondsAgo: 301) == .interactionNotAllowed)
            #expect(outcome(flags, provenSecondsAgo: nil) == .interactionNotAllowed)
        }
        #expect(AccessControlFlags.presenceReuseDuration == 300)
    }

    @Test("Biometry, companion, application password: never; or needs one satisfiable constraint, and (or neither) all")
    func combinations() {
        for flags in [AccessControlFlags.biometryAny, .biometryCurrentSet, .companion, .applicationPassword] {
            #expect(outcome(flags, provenSecondsAgo: 0) == .authenticationFailed)
            #expect(outcome(flags.union([.userPresence]), provenSecondsAgo: 0) == .authenticationFailed, "without .or, all must hold")
            #expect(outcome(flags.union([.userPresence, .and]), provenSecondsAgo: 0) == .authenticationFailed)
            #expect(outcome(flags.union([.userPresence, .or]), provenSecondsAgo: 0) == nil)
            #expect(outcome(flags.union([.userPresence, .or]), provenSecondsAgo: 400) == .interactionNotAllowed)
            #expect(outcome(flags.union(.or), provenSecondsAgo: 0) == .authenticationFailed)
        }
        #expect(outcome([], provenSecondsAgo: nil) == nil)
        #expect(outcome([.or], provenSecondsAgo: nil) == nil, "combinators alone constrain nothing")
    }

    @Test("A new item: known flags, no privateKeyUsage, not both or and and, a passphrase for any constraint")
    func newItems() {
        #expect(throws: SecStoreError.self) { try AccessControlRules.checkNewItem(.userPresence, storeHasPassphrase: false) }
        #expect(throws: SecStoreError.self) { try AccessControlRules.checkNewItem(.privateKeyUsage, storeHasPassphrase: true) }
        #expect(throws: SecStoreError.self) { try AccessControlRules.checkNewItem([.userPresence, .or, .and], storeHasPassphrase: true) }
        #expect(throws: SecStoreError.self) { try AccessControlRules.checkNewItem(AccessControlFlags(rawValue: 1 << 7), storeHasPassphrase: true) }
        #expect(throws: Never.self) { try AccessControlRules.checkNewItem([.userPresence, .or, .biometryAny], storeHasPassphrase: true) }
        #expect(throws: Never.self) { try AccessControlRules.checkNewItem([], storeHasPassphrase: false) }
    }

    @Test("A proof dated in the future (the clock was set back) proves nothing")
    func clockSetBack() {
        #expect(outcome(.userPresence, provenSecondsAgo: -60) == .interactionNotAllowed)
    }

    @Test("accc takes only Apple's flags as a number: anything else is invalidParameter, never a crash or a bypass")
    func accessControlValuesAreChecked() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        try store.setPassphrase("pw", limits: .minimumForTesting)
        for value: AttributeValue in [.number(-1), .string("userPresence"), .number(1 << 7), .data(Data([1]))] {
            var item = Item.genericPassword(service: "s", account: "a", data: Data("x".utf8), accessGroup: "G")
            item.attributes[.accessControl] = value
            #expect { try store.add(item) } throws: { ($0 as? SecStoreError)?.code == .invalidParameter }
        }
        var highBit = Item.genericPassword(service: "s", account: "b", data: Data("x".utf8), accessGroup: "G")
        highBit.attributes.accessControlFlags = AccessControlFlags(rawValue: UInt(1) << 63)
        #expect { try store.add(highBit) } throws: { ($0 as? SecStoreError)?.code == .invalidParameter }
    }
}
