/// SplitMix64: a tiny seeded generator, so that a multi-process workload or a benchmark run
/// can be repeated exactly from its seed. Not for cryptography.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let account = "acct-\(random.next() % 1000)"
/// ```
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The output for one position, without keeping state: item `i`'s bytes in O(1).
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
