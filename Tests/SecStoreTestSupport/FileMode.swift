import Foundation

/// The permission bits of a file (`0o600`, `0o700`, …), as tests of private files check them.
///
/// ```swift
/// #expect(try permissionBits(of: storeURL) == 0o600)
/// ```
public func permissionBits(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    guard let mode = attributes[.posixPermissions] as? Int else {
        throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    return mode & 0o7777
}
