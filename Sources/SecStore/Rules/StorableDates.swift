import Foundation

/// The dates an item may carry when they come from elsewhere, a restored backup or a sync
/// record: from 1970-01-01 to 9999-12-31 (UTC). Within them every date converts to the
/// whole seconds and microseconds the store, the sync versions and the Secret Service's
/// `Created` and `Modified` count in; a date of 1e300 seconds, which a hostile circle member
/// could seal into a record, stopped the program in those conversions.
///
/// ```swift
/// StorableDates.contains(Date())                                  // true
/// StorableDates.contains(Date(timeIntervalSince1970: 1e300))      // false
/// ```
package enum StorableDates {
    /// The last second of 9999 (UTC), in seconds since 1970.
    private static let lastSecond: Int64 = 253_402_300_799
    /// The range in seconds since 1970.
    package static let seconds: ClosedRange<Double> = 0...Double(lastSecond)
    /// The same range in microseconds since 1970 (a sync version's `modified`): up to the last
    /// microsecond of that second.
    package static let microseconds: ClosedRange<Int64> = 0...(lastSecond * 1_000_000 + 999_999)

    /// Whether `date` is within the range (never a NaN or an infinity).
    package static func contains(_ date: Date) -> Bool {
        seconds.contains(date.timeIntervalSince1970)
    }
}
