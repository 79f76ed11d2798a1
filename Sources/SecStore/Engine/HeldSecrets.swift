import Foundation

/// A value that may hold a secret in a `Data`: an ``Item`` (its `data`) and a search's match
/// (`ItemEngine.Found`, its `secret`).
///
/// Arrays of them need care when they are copied or grown. A `Data` of up to
/// `Array.inlineSecretByteCount` bytes keeps its bytes inline, in the struct itself,
/// and so in the memory block of the array that holds it: an array that grows moves its
/// elements to a new block and frees the old one with those bytes still in it, as does an
/// array whose elements were copied into another. A longer secret lives in a heap block of its
/// own, which the copies share, so moving it leaves nothing behind; it is zeroed when the last
/// holder is done with it (`zeroSecrets()`).
protocol HoldsSecret {
    /// Zeroes the secret in place, where this value holds it.
    mutating func wipeSecret()

    /// The secret's length in bytes, 0 without one.
    var secretByteCount: Int { get }
}

extension Item: HoldsSecret {
    mutating func wipeSecret() { Wipe.data(&data) }

    var secretByteCount: Int { data?.count ?? 0 }
}

extension ItemEngine.Found: HoldsSecret {
    mutating func wipeSecret() { Wipe.data(&secret) }

    var secretByteCount: Int { secret?.count ?? 0 }
}

extension Array where Element: HoldsSecret {
    /// The most bytes a `Data` keeps inline: 14 on 64-bit platforms, its 16 bytes less a
    /// length byte and the representation's tag. A shorter or equal secret is copied with the
    /// struct; a longer one is a reference to a shared heap block.
    static var inlineSecretByteCount: Int { MemoryLayout<Data>.size - 2 }

    /// Zeroes every element's secret in place: for the last holder of the secrets, before it
    /// is freed (the caller has copied what it needed out of them).
    mutating func zeroSecrets() {
        for index in indices { self[index].wipeSecret() }
    }

    /// Zeroes the secrets held inline, leaving the shared heap blocks of longer ones to the
    /// copies: for an array whose elements were copied into another, before its block is freed.
    mutating func zeroInlineSecrets() {
        for index in indices where self[index].secretByteCount <= Self.inlineSecretByteCount {
            self[index].wipeSecret()
        }
    }

    /// Appends `element`. With `zeroingWhatItLeaves`, when the array is full, it grows into a
    /// new block here rather than in `append`, so that the inline secrets of the block it leaves
    /// are zeroed before that block is freed; that growth copies the elements instead of moving
    /// them, so arrays that hold no secrets (a listing of attributes) grow as usual.
    @inline(__always)
    mutating func append(_ element: consuming Element, zeroingWhatItLeaves: Bool) {
        if zeroingWhatItLeaves && count == capacity && count > 0 { growLeavingNoSecret() }
        append(element)
    }

    @inline(never)
    private mutating func growLeavingNoSecret() {
        var grown: [Element] = []
        grown.reserveCapacity(2 * capacity)
        grown.append(contentsOf: self)
        zeroInlineSecrets()
        self = grown
    }
}

extension Array where Element == Item {
    /// Zeroes every item's secret in place: for the last holder of the items a search
    /// returned, once it has copied what it needed out of them (`SecItemCopyMatching` into its
    /// result objects, the Secret Service provider into its replies).
    ///
    /// ```swift
    /// var found = try store.items(matching: Query(service: "api", limit: .all, returning: .data))
    /// defer { found.wipeSecrets() }
    /// ```
    package mutating func wipeSecrets() {
        zeroSecrets()
    }
}
