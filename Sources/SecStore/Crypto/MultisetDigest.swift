internal import CSodium

/// A keyed digest of a set of rows that can be updated one row at a time: the sum, modulo
/// 2^256, of a keyed BLAKE2b-256 hash of each row (an additive multiset hash, as in
/// Clarke et al., "Incremental Multiset Hash Functions"). Adding a row adds its hash,
/// removing it subtracts it: O(1) per write, whatever the store's size.
///
/// Without the key nobody can compute a row's hash, so deleting, reverting or copying in
/// a row changes the sum in a way nobody can compensate.
struct MultisetDigest: Equatable {
    static let byteCount = 32

    private(set) var bytes: [UInt8]

    /// The digest of no rows.
    static let empty = MultisetDigest(bytes: [UInt8](repeating: 0, count: byteCount))

    /// A stored digest; `nil` when it does not have the right length.
    init?(stored: [UInt8]) {
        guard stored.count == Self.byteCount else { return nil }
        bytes = stored
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func add(_ rowHash: [UInt8]) {
        precondition(rowHash.count == Self.byteCount)
        sodium_add(&bytes, rowHash, Self.byteCount)
    }

    mutating func remove(_ rowHash: [UInt8]) {
        precondition(rowHash.count == Self.byteCount)
        sodium_sub(&bytes, rowHash, Self.byteCount)
    }

    /// Compares in constant time (`sodium_memcmp`).
    static func == (lhs: MultisetDigest, rhs: MultisetDigest) -> Bool {
        ConstantTime.equals(lhs.bytes, rhs.bytes)
    }
}

/// Comparisons of secret-derived bytes that take the same time wherever they differ.
///
/// ```swift
/// guard ConstantTime.equals(expectedMAC, receivedMAC) else { throw … }
/// ```
package enum ConstantTime {
    package static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        lhs.count == rhs.count && (lhs.isEmpty || sodium_memcmp(lhs, rhs, lhs.count) == 0)
    }
}
