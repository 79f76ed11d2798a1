import Foundation
internal import CSodium

/// `crypto_secretstream_xchacha20poly1305`: a sequence of authenticated messages under one
/// key, in order, with an explicit final message, so reordering, dropping or truncating
/// messages is detected. Backups are written with it.
enum SecretStream {
    static let headerByteCount = Int(crypto_secretstream_xchacha20poly1305_HEADERBYTES)
    static let overhead = Int(crypto_secretstream_xchacha20poly1305_ABYTES)
    static let keyByteCount = Int(crypto_secretstream_xchacha20poly1305_KEYBYTES)

    enum Tag: UInt8 {
        case message = 0
        case final = 3
    }

    /// Encrypts messages in order.
    final class Writer {
        private var state: crypto_secretstream_xchacha20poly1305_state
        /// Goes at the start of the stream; the reader needs it.
        let header: [UInt8]

        init(key: SecureBytes) throws {
            try Sodium.ready()
            var state = crypto_secretstream_xchacha20poly1305_state()
            var header = [UInt8](repeating: 0, count: headerByteCount)
            key.withUnsafeBytes { keyBytes in
                _ = crypto_secretstream_xchacha20poly1305_init_push(
                    &state, &header, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            self.state = state
            self.header = header
        }

        func seal(_ message: [UInt8], associatedData: [UInt8] = [], tag: Tag = .message) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: message.count + overhead)
            var written: UInt64 = 0
            _ = crypto_secretstream_xchacha20poly1305_push(
                &state, &out, &written, message, UInt64(message.count),
                associatedData.isEmpty ? nil : associatedData, UInt64(associatedData.count), tag.rawValue)
            return out
        }

        deinit {
            withUnsafeMutableBytes(of: &state) { sodium_memzero($0.baseAddress!, $0.count) }
        }
    }

    /// Decrypts messages in the order they were written.
    final class Reader {
        private var state: crypto_secretstream_xchacha20poly1305_state

        init(key: SecureBytes, header: [UInt8]) throws(CryptoFailure) {
            try Sodium.ready()
            guard header.count == headerByteCount else { throw .malformedCiphertext }
            var state = crypto_secretstream_xchacha20poly1305_state()
            let status = key.withUnsafeBytes { keyBytes in
                crypto_secretstream_xchacha20poly1305_init_pull(
                    &state, header, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            self.state = state
            guard status == 0 else { throw .malformedCiphertext }
        }

        func open(_ sealed: [UInt8], associatedData: [UInt8] = []) throws(CryptoFailure) -> (message: [UInt8], tag: Tag) {
            guard sealed.count >= overhead else { throw .malformedCiphertext }
            var out = [UInt8](repeating: 0, count: sealed.count - overhead)
            var written: UInt64 = 0
            var tag: UInt8 = 0
            let status = crypto_secretstream_xchacha20poly1305_pull(
                &state, &out, &written, &tag, sealed, UInt64(sealed.count),
                associatedData.isEmpty ? nil : associatedData, UInt64(associatedData.count))
            guard status == 0, let known = Tag(rawValue: tag) else { throw .authenticationFailed }
            return (out, known)
        }

        deinit {
            withUnsafeMutableBytes(of: &state) { sodium_memzero($0.baseAddress!, $0.count) }
        }
    }
}
