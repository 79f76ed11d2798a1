import SecStore

/// Prints a failure the way the tests parse it: `error <code name> <OSStatus>`, on standard
/// output, where the tests read every result. The caller exits 1.
func reportFailure(_ error: Error) {
    if let error = error as? SecStoreError {
        print("error \(error.code.name) \(error.status)")
    } else {
        print("error unexpected \(error)")
    }
}
