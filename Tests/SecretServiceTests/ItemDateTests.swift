import Foundation
import Testing
@testable import SecretService

/// `Created` and `Modified` are whole seconds since 1970 in a `UInt64`. A stored date is within
/// 1970–9999 (SecStore's `StorableDates`, since the twelfth issue-13 session); a store written
/// before that rule may hold one a hostile sync peer chose, and converting 1e300 seconds
/// stopped the provider for every client that read the item's properties (found by a helper
/// session's audit, through `busctl get-property … Modified`).
@Suite struct ItemDateTests {
    @Test(arguments: [
        (1_700_000_000.75, UInt64(1_700_000_000)),
        (0, 0),
        (-5, 0),
        (1e300, UInt64.max),
        (.infinity, UInt64.max),
        (-.infinity, 0),
        (.nan, 0),
    ] as [(Double, UInt64)])
    func secondsNeverStopTheProvider(_ seconds: Double, _ expected: UInt64) {
        #expect(SecretServiceProvider.seconds(Date(timeIntervalSince1970: seconds)) == .uint64(expected))
    }

    @Test func noDateIsZero() {
        #expect(SecretServiceProvider.seconds(nil) == .uint64(0))
    }
}
