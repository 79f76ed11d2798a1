import Foundation
import SecStore

/// The short code a joining device prints and a member types to approve it: 60 random bits
/// as 12 characters of Crockford's base32 (`ABCD-EFGH-JKMN`). It travels only through the
/// person, never through etcd; each side turns it into a key with Argon2id and a per-join
/// salt, and that key authenticates both directions: the joiner's public key to the
/// approver, and the grant to the joiner. Guessing it offline costs 2^60 Argon2id runs.
struct JoinCode: Equatable, CustomStringConvertible {
    /// The 12 characters, without separators.
    let characters: String

    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    static let length = 12
    static let saltByteCount = PasswordHashing.saltByteCount
    /// Interactive limits: one derivation per approval attempt and per pending device.
    static let limits = PasswordHashingLimits.interactive

    /// A fresh random code.
    static func random() throws -> JoinCode {
        let bytes = try SecureRandom.bytes(length)
        return JoinCode(characters: String(bytes.map { alphabet[Int($0 & 31)] }))
    }

    /// A code as a person typed it: case, spaces and dashes ignored; `I`/`L` read as 1 and `O` as 0.
    init?(typed text: String) {
        var characters = ""
        for character in text.uppercased() where character != "-" && character != " " {
            let mapped: Character = switch character {
            case "I", "L": "1"
            case "O": "0"
            default: character
            }
            guard Self.alphabet.contains(mapped) else { return nil }
            characters.append(mapped)
        }
        guard characters.count == Self.length else { return nil }
        self.characters = characters
    }

    private init(characters: String) { self.characters = characters }

    /// Grouped for reading aloud.
    var description: String {
        let chars = Array(characters)
        return stride(from: 0, to: chars.count, by: 4).map { String(chars[$0..<min($0 + 4, chars.count)]) }.joined(separator: "-")
    }

    /// The key both sides derive from the code and the join entry's salt.
    func key(salt: [UInt8]) throws -> SecureBytes {
        try PasswordHashing.deriveKey(passphrase: Array(characters.utf8), salt: salt, limits: Self.limits)
    }
}
