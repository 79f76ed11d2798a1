import Foundation

/// The calling thread's identity, `pthread_self()` as a number: unique among the process's
/// live threads (a finished thread's may be given to a new one) and never 0.
///
/// ```swift
/// let me = ThreadIdentity.current   // the same value for every call on this thread
/// ```
package enum ThreadIdentity {
    package static var current: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}
