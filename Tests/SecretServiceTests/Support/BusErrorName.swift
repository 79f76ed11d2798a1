@testable import SecretService

/// The D-Bus error name a call fails with, or `nil` when it succeeds: for tests that expect
/// one error or another from a call made through the provider's handlers or a client.
///
/// ```swift
/// #expect(busErrorName { () throws(BusError) in try client.getSecrets(paths) } == "org.freedesktop.DBus.Error.LimitsExceeded")
/// ```
func busErrorName(_ body: () throws(BusError) -> [BusValue]) -> String? {
    do throws(BusError) {
        _ = try body()
        return nil
    } catch {
        return error.name
    }
}
