import Foundation
import Synchronization
import Testing
@testable import Etcd

extension EtcdTests {
    /// Unary calls (range, put, txn, status) against a server that answers with crafted bytes:
    /// each ends with a typed EtcdError within the deadline, never a crash, a hang or a
    /// success with wrong data.
    @Suite struct HostileServerHTTP {
        static let key = Array("k".utf8)

        /// What a broken transport comes to: the member counts as down.
        static func expectUnreachable(_ error: (any Error)?, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
            guard case let .unreachable(_, lastReason)? = error as? EtcdError else {
                Issue.record("expected unreachable, got \(String(describing: error))", sourceLocation: sourceLocation)
                return
            }
            // An empty `reason`: any transport failure will do (String.contains("") is false).
            #expect(reason.isEmpty || lastReason.contains(reason), "\(lastReason)", sourceLocation: sourceLocation)
        }

        /// What a readable transport with an unreadable answer comes to.
        static func expectMalformed(_ error: (any Error)?, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            guard case let .malformedResponse(reason)? = error as? EtcdError else {
                Issue.record("expected malformedResponse, got \(String(describing: error))", sourceLocation: sourceLocation)
                return
            }
            #expect(what.isEmpty || reason.contains(what), "\(reason)", sourceLocation: sourceLocation)
        }

        static func expectTooLarge(_ error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation) {
            guard case .responseTooLarge? = error as? EtcdError else {
                Issue.record("expected responseTooLarge, got \(String(describing: error))", sourceLocation: sourceLocation)
                return
            }
        }

        /// A server answering every request with `response`, then closing.
        static func answering(_ response: String) throws -> HostileServer {
            try HostileServer { connection, _ in
                connection.readRequest()
                connection.write(response)
            }
        }

        @Test func aStatusLineThatIsNotHTTP() async throws {
            let server = try Self.answering("SSH-2.0-OpenSSH_9.6\r\n\r\n")
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await hostileError { _ = try await client.range(key: Self.key) }, "not an HTTP response")
        }

        @Test func aServerThatClosesAtOnce() async throws {
            let server = try HostileServer { _, _ in }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await hostileError { _ = try await client.put(key: Self.key, value: Self.key) }, "")
        }

        @Test func aServerThatAcceptsAndNeverAnswers() async throws {
            let server = try HostileServer { connection, _ in connection.waitForHangUp() }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await hostileError { _ = try await client.range(key: Self.key) }, "timed out")
        }

        @Test func aHeaderSectionThatNeverEnds() async throws {
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                connection.write("HTTP/1.1 200 OK\r\n")
                connection.writeForever(Array("X-Drip: a\r\n".utf8), pause: .milliseconds(20))
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await hostileError { _ = try await client.range(key: Self.key) }, "timed out")
        }

        @Test func aHeaderSectionOverTheLimit() async throws {
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                connection.write("HTTP/1.1 200 OK\r\n")
                connection.writeForever(Array(String(repeating: "X-Flood: aaaaaaaaaaaaaaaa\r\n", count: 1000).utf8))
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await hostileError { _ = try await client.range(key: Self.key) }, "response head too long")
        }

        @Test func aContentLengthLargerThanTheBodyThenClose() async throws {
            let body = #"{"header":{"revision":"5"}}"#
            let server = try Self.answering("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n\(body)")
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await hostileError { _ = try await client.put(key: Self.key, value: Self.key) },
                                   "closed in the middle")
        }

        /// Before: the body's end was taken from the closed connection, the Content-Length
        /// ignored, and the call succeeded with whatever the server sent.
        @Test(arguments: ["-5", "99999999999999999999", "abc", "12 34", ""])
        func aContentLengthThatIsNotALength(_ length: String) async throws {
            let body = #"{"header":{"revision":"5"}}"#
            let server = try Self.answering("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n\(body)")
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await hostileError { _ = try await client.put(key: Self.key, value: Self.key) },
                                   "invalid Content-Length")
        }

        /// Before: `Content-Length - bytes already read` overflowed and the process died.
        @Test func theMostNegativeContentLength() async throws {
            let server = try Self.answering("HTTP/1.1 200 OK\r\nContent-Length: \(Int.min)\r\n\r\n{}")
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await hostileError { _ = try await client.range(key: Self.key) }, "invalid Content-Length")
        }

        /// Before: bytes past the Content-Length were taken as part of the body.
        @Test func bytesPastTheContentLengthAreNotTheBody() async throws {
            let body = #"{"header":{"revision":"5"}}"#
            let server = try Self.answering(httpOK(body) + #"{"injected":true}"#)
            defer { server.stop() }
            let client = try hostileClient(server)
            let revision = try await client.put(key: Self.key, value: Self.key)
            #expect(revision == 5)
        }

        @Test func aBodyThatNeverEnds() async throws {
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                connection.write("HTTP/1.1 200 OK\r\n\r\n{\"header\":")
                connection.writeForever(Array(" ".utf8), pause: .milliseconds(20))
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await hostileError { _ = try await client.range(key: Self.key) }, "timed out")
        }

        @Test(arguments: [
            ("not json", "RangeResponse"),
            (#"{"header":{"revision":"#, "RangeResponse"),
            (#"[1,2,3]"#, "RangeResponse"),
            (#"{"header":{"revision":"five"}}"#, "header.revision"),
            (#"{"header":{"revision":5}}"#, "RangeResponse"),
            (#"{"header":{"revision":"5"},"kvs":[{"key":"%%%","value":"dg=="}]}"#, "kv.key"),
            (#"{"header":{"revision":"5"},"kvs":[{"key":"aw==","value":"not base64!"}]}"#, "kv.value"),
            (#"{"header":{"revision":"5"},"kvs":[{"key":"aw==","mod_revision":"99999999999999999999"}]}"#, "mod_revision"),
            (#"{"header":{"revision":"5"},"kvs":"many"}"#, "RangeResponse"),
            (#"{"kvs":[]}"#, "header.revision"),
            // Before: returned, and SyncEngine's `revision + 1` overflowed.
            (#"{"header":{"revision":"9223372036854775807"}}"#, "header.revision is not a revision"),
            (#"{"header":{"revision":"-3"}}"#, "header.revision is not a revision"),
            (#"{"header":{"revision":"5"},"kvs":[{"key":"aw==","create_revision":"-1"}]}"#, "create_revision is not a revision"),
            (#"{"header":{}}"#, "header.revision"),
        ])
        func a200WhoseJSONIsWrong(_ body: String, _ what: String) async throws {
            let server = try Self.answering(httpOK(body))
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectMalformed(await hostileError { _ = try await client.range(key: Self.key) }, what)
        }

        /// `rangeAll` reads pages until one says there is no more. Before, pages that said `more`
        /// but repeated a key, went back, or strayed outside the prefix made it ask again from
        /// the same place for good, keeping every page (2.5 GB in 10 s with 1 MiB values; found
        /// by a helper session's audit). Each is a malformed answer now.
        @Test(arguments: [
            // The same key on every page: the second page's is before where that page starts.
            (#"{"header":{"revision":"5"},"kvs":[{"key":"aw==","value":"dg==","mod_revision":"3"}],"more":true,"count":"2"}"#, "outside the range"),
            (#"{"header":{"revision":"5"},"kvs":[{"key":"aw==","value":"dg=="},{"key":"aw==","value":"dg=="}],"more":true}"#, "ascending"),
            (#"{"header":{"revision":"5"},"kvs":[{"key":"eg==","value":"dg=="}],"more":true}"#, "outside the range"),
        ])
        func rangeAllPagesThatNeverMoveOn(_ body: String, _ what: String) async throws {
            let server = try Self.answering(httpOK(body))
            defer { server.stop() }
            let client = try hostileClient(server)
            // The prefix "k" covers "k" (aw== ) but not "z" (eg==).
            Self.expectMalformed(await hostileError { _ = try await client.rangeAll(prefix: Array("k".utf8)) }, what)
        }

        /// Nesting deep enough to exhaust a recursive parser's stack.
        @Test func aDeeplyNestedJSON() async throws {
            let server = try Self.answering(httpOK(String(repeating: "[", count: 1_000_000)))
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectMalformed(await hostileError { _ = try await client.range(key: Self.key) }, "RangeResponse")
        }

        /// Before: a put answered with `{}` reported revision 0 as if it had been written.
        @Test func putTxnAndStatusRefuseAMissingHeader() async throws {
            let server = try Self.answering(httpOK("{}"))
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectMalformed(await hostileError { _ = try await client.put(key: Self.key, value: Self.key) }, "header.revision")
            Self.expectMalformed(await hostileError {
                _ = try await client.txn(compare: [], success: [.put(key: Self.key, value: Self.key)])
            }, "header.revision")
            Self.expectMalformed(await hostileError { _ = try await client.delete(key: Self.key) }, "header.revision")
            Self.expectMalformed(await hostileError { _ = try await client.status(of: server.url) }, "header.revision")
        }

        @Test func aTxnResponseOfAnUnknownKind() async throws {
            let server = try Self.answering(httpOK(#"{"header":{"revision":"5"},"responses":[{}]}"#))
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectMalformed(await hostileError { _ = try await client.txn(compare: [], success: []) }, "unknown kind")
        }

        /// Before: the whole body was kept in memory, however large (here 200 MiB, all sent).
        /// Now the client hangs up once the body passes the limit, long before the end. No
        /// Content-Length: the body ends with the connection, so only counting can stop it.
        @Test func anEnormousBodyIsRefusedBeforeItIsAllRead() async throws {
            let total = 200 << 20
            let sentAll = HostileFlag()
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                guard connection.write("HTTP/1.1 200 OK\r\n\r\n") else { return }
                let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
                for _ in 0..<(total >> 20) where !connection.write(chunk) { return }
                sentAll.raise()
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectTooLarge(await hostileError { _ = try await client.range(key: Self.key) })
            #expect(!sentAll.isRaised)
        }

        /// Before: the client waited for a body it would have kept whole, until the timeout.
        @Test func anEnormousContentLengthIsRefusedUpFront() async throws {
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: \(Int.max)\r\n\r\n")
                connection.waitForHangUp()
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectTooLarge(await hostileError { _ = try await client.range(key: Self.key) })
        }
    }
}

extension EtcdTests.HostileServerHTTP {
    /// Before: the token was put into every later request's head as it came, so a member
    /// answering `authenticate` with a line break in it added headers of its choosing.
    @Test func aTokenThatWouldInjectHeadersIsRefused() async throws {
        let injected = HostileFlag()
        let server = try HostileServer { connection, index in
            let request = connection.readRequest()
            if index == 0 {
                connection.write(httpOK(#"{"token":"abc\r\nX-Injected: yes"}"#))
                return
            }
            if request.contains("X-Injected") { injected.raise() }
            connection.write(httpOK(#"{"header":{"revision":"5"}}"#))
        }
        defer { server.stop() }
        let client = try EtcdClient(endpoints: [server.url], credentials: EtcdCredentials(user: "u", password: "p"),
                                    requestTimeout: 2, retryWindow: 1)
        Self.expectMalformed(await EtcdTests.hostileError { _ = try await client.range(key: Self.key) }, "token")
        #expect(!injected.isRaised)
    }
}
