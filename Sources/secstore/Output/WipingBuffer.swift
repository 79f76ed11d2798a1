import SecStore

/// A growable byte buffer for text that holds secrets (`get --json`, `list --show-secrets
/// --json`, a plaintext export): when it grows it zeroes the block it moves out of, and
/// ``wipe()`` zeroes what it holds (``Wipe``), so no copy of a secret is freed as it was. A
/// `[UInt8]` that grows frees its old block unwiped, and a `String` cannot be wiped at all.
///
/// ```swift
/// var text = WipingBuffer()
/// defer { text.wipe() }
/// text.append(contentsOf: "API_KEY=".utf8)
/// ```
struct WipingBuffer {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    mutating func append(_ byte: UInt8) {
        makeRoom(for: 1)
        bytes.append(byte)
    }

    mutating func append<Bytes: Collection<UInt8>>(contentsOf more: Bytes) {
        makeRoom(for: more.count)
        bytes.append(contentsOf: more)
    }

    /// Zeroes the bytes and empties the buffer, keeping its block for what comes next.
    mutating func wipe() {
        Wipe.bytes(&bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Grows by hand, as the array would (doubling), so the old block is zeroed before it goes.
    private mutating func makeRoom(for count: Int) {
        guard bytes.count + count > bytes.capacity else { return }
        var larger: [UInt8] = []
        larger.reserveCapacity(Swift.max(bytes.capacity * 2, bytes.count + count, 1024))
        larger.append(contentsOf: bytes)
        Wipe.bytes(&bytes)
        bytes = larger
    }
}
