import Foundation
import SecStore

/// The circle's keys in etcd, all under one prefix (docs/sync.md, "The etcd layout"). No key
/// names a service, account, group or label: records are named by opaque tags, devices by
/// random ids.
///
/// | key | value |
/// |---|---|
/// | `P/circle` | circle id, epoch, MAC under the epoch's circle key |
/// | `P/join/DEVICE` | a joining device's public key, salt, MAC under its code's key |
/// | `P/grant/EPOCH/DEVICE` | the epoch's keys sealed to the device, MAC |
/// | `P/member/DEVICE` | a member's public key and epoch, MAC under the circle key |
/// | `P/rec/TAG` | one sealed item record (or tombstone) |
struct EtcdLayout: Sendable {
    let prefix: String

    enum Kind: Equatable {
        case circle
        case join(device: [UInt8])
        case grant(epoch: UInt32, device: [UInt8])
        case member(device: [UInt8])
        case record(tag: [UInt8])
    }

    /// Everything of the circle: what a catch-up reads and the daemon watches.
    var all: [UInt8] { Array("\(prefix)/".utf8) }
    var circle: [UInt8] { Array("\(prefix)/circle".utf8) }
    var joins: [UInt8] { Array("\(prefix)/join/".utf8) }
    var members: [UInt8] { Array("\(prefix)/member/".utf8) }
    var records: [UInt8] { Array("\(prefix)/rec/".utf8) }

    func join(_ device: [UInt8]) -> [UInt8] { Array("\(prefix)/join/\(Hex.string(device))".utf8) }
    func grant(epoch: UInt32, device: [UInt8]) -> [UInt8] { Array("\(prefix)/grant/\(epoch)/\(Hex.string(device))".utf8) }
    func member(_ device: [UInt8]) -> [UInt8] { Array("\(prefix)/member/\(Hex.string(device))".utf8) }
    func record(_ tag: [UInt8]) -> [UInt8] { Array("\(prefix)/rec/\(Hex.string(tag))".utf8) }

    /// What an etcd key is, or `nil` for a key that is not one of the circle's (ignored).
    func kind(of key: [UInt8]) -> Kind? {
        guard let text = String(bytes: key, encoding: .utf8), text.hasPrefix("\(prefix)/") else { return nil }
        let parts = text.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("circle", 1): return .circle
        case ("join", 2): return Self.id(parts[1], count: CircleKeys.idByteCount).map { .join(device: $0) }
        case ("member", 2): return Self.id(parts[1], count: CircleKeys.idByteCount).map { .member(device: $0) }
        case ("rec", 2): return Self.id(parts[1], count: 32).map { .record(tag: $0) }
        case ("grant", 3):
            guard let epoch = UInt32(parts[1]), let device = Self.id(parts[2], count: CircleKeys.idByteCount) else { return nil }
            return .grant(epoch: epoch, device: device)
        default: return nil
        }
    }

    /// Hex text of exactly `count` bytes.
    private static func id(_ text: String, count: Int) -> [UInt8]? {
        Hex.bytes(text).flatMap { $0.count == count ? $0 : nil }
    }
}
