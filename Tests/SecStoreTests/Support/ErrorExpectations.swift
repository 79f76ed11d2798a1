import Foundation
import Testing
import SecStore

/// Runs `body` and records an issue unless it throws a ``SecStoreError`` with exactly
/// `code` (name and OSStatus). Returns the error so a test can inspect its message.
@discardableResult
func expectError<T>(
    _ code: SecStoreError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) -> SecStoreError? {
    do {
        _ = try body()
        Issue.record("Expected SecStoreError \(code) (\(code.status)), but the call succeeded.", sourceLocation: sourceLocation)
        return nil
    } catch let error as SecStoreError {
        #expect(error.code == code, "Expected \(code), got \(error)", sourceLocation: sourceLocation)
        #expect(error.status == code.status, sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected SecStoreError \(code), got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// OSStatus values from Apple's SecBase.h, spelled out so a wrong mapping in the engine
/// shows up as a failing test rather than being compared with itself.
enum OSStatusValue {
    static let duplicateItem: Int32 = -25299
    static let itemNotFound: Int32 = -25300
    static let param: Int32 = -50
    static let noSuchAttribute: Int32 = -25303
    static let noSuchClass: Int32 = -25306
    static let decode: Int32 = -26275
    static let missingEntitlement: Int32 = -34018
    static let authFailed: Int32 = -25293
    static let notAvailable: Int32 = -25291
    static let unimplemented: Int32 = -4
}
