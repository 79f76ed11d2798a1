// Swift 6.3.1 crashes compiling this ordinary client code (signal 11 in the SIL pass
// "MandatoryAllocBoxToStack") once the callee declares a typed throw. SecStore's public API
// stays untyped `throws` until a toolchain compiles it: see docs/decisions.md,
// "Typed throws: not yet". Check a toolchain with scripts/toolchain/check-typed-throws.sh.
struct LibraryError: Error { var code: Int }

func typedLibraryCall() throws(LibraryError) -> [Int] { throw LibraryError(code: 1) }

func clientCode() throws -> [Int] {
    var items: [Int] = []
    do {
        items += try typedLibraryCall()
    } catch where error.code == 1 {}
    return items
}
