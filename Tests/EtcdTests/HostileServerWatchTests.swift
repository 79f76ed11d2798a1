import Foundation
import Synchronization
import Testing
@testable import Etcd

extension EtcdTests {
    /// Watches against a server that streams crafted bytes: each ends with a typed EtcdError
    /// within the deadline, never a crash, a hang, unbounded memory or a wrong batch.
    @Suite struct HostileServerWatch {
        static let streamHead = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n"
        static let created = #"{"result":{"header":{"revision":"7"},"created":true}}"# + "\n"

        /// A server that sends the stream's head, then `lines` (as given: newlines included).
        static func streaming(_ lines: String) throws -> HostileServer {
            try HostileServer { connection, _ in
                connection.readRequest()
                connection.write(Self.streamHead + lines)
            }
        }

        static func expectMalformed(_ error: (any Error)?, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            HostileServerHTTP.expectMalformed(error, what, sourceLocation: sourceLocation)
        }

        static func expectUnreachable(_ error: (any Error)?, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
            HostileServerHTTP.expectUnreachable(error, reason, sourceLocation: sourceLocation)
        }

        /// A member that sends progress notifications as fast as the socket takes them, to a
        /// consumer that takes one batch and then nothing for three seconds. The watch reads on
        /// only as its batches are taken, so the member's writes stop once the socket's buffers
        /// are full (a few MB on loopback). Before, every line was cut and kept as it came: the
        /// member wrote 55 MB in two seconds and the client's memory grew with
        /// them (52 MB to 1 GB in 41 s; found by a helper session's audit).
        @Test func aFloodWaitsForTheConsumer() async throws {
            let written = Atomic<Int>(0)
            // 64 KB a line (JSON white space inside the object), so that a reader that runs
            // ahead of the consumer shows in the bytes the member gets to write.
            let progress = Array((#"{"result":{"header":{"revision":"8"},"events":[]}"# + String(repeating: " ", count: 65_000) + "}\n").utf8)
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                guard connection.write(Self.streamHead + Self.created) else { return }
                while connection.write(progress) { written.add(progress.count, ordering: .relaxed) }
            }
            defer { server.stop() }
            let client = try EtcdClient(endpoints: [server.url], requestTimeout: 2, retryWindow: 1)
            var batches = client.watch(key: Array("k".utf8)).makeAsyncIterator()
            #expect(try await batches.next()?.revision == 8)
            try await Task.sleep(for: .seconds(3))
            // Loopback's socket buffers hold a few MB (3.8 MB measured); before, 55 MB were
            // written in two seconds (debug build).
            let sent = written.load(ordering: .relaxed)
            #expect(sent < 24 << 20, "the member wrote \(sent >> 20) MiB while nothing was taken")
            // And the watch goes on where the consumer left it.
            #expect(try await batches.next()?.revision == 8)
        }

        @Test func aServerThatAcceptsAndNeverAnswers() async throws {
            let server = try HostileServer { connection, _ in connection.waitForHangUp() }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await watchError(client), "timed out")
        }

        @Test func aServerThatClosesAtOnce() async throws {
            let server = try HostileServer { _, _ in }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await watchError(client), "")
        }

        @Test func aStatusLineThatIsNotHTTP() async throws {
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                connection.write("220 smtp.example.com ESMTP\r\n\r\n")
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await watchError(client), "not an HTTP response")
        }

        /// Before: the watch waited for its creation forever (a stream has no body deadline).
        @Test func aHeadThenSilence() async throws {
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                connection.write(Self.streamHead)
                connection.waitForHangUp()
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await watchError(client), "no watch creation")
        }

        /// Before: likewise, a creation line dripping forever was waited for forever.
        @Test func aCreationLineThatDripsForever() async throws {
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                connection.write(Self.streamHead + "{")
                connection.writeForever(Array(" ".utf8), pause: .milliseconds(20))
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await watchError(client), "no watch creation")
        }

        @Test func aFirstLineThatIsNotTheCreation() async throws {
            let server = try Self.streaming(#"{"result":{"header":{"revision":"7"},"events":[]}}"# + "\n")
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectMalformed(await watchError(client), "did not start with its creation")
        }

        @Test(arguments: [
            "not json\n",
            #"{"result":{"header":{"revision":"seven"},"created":true}}"# + "\n",
            #"{"result":{"created":true}}"# + "\n",
            // Before: the first revision to watch from (creation + 1) overflowed: a crash.
            #"{"result":{"header":{"revision":"9223372036854775807"},"created":true}}"# + "\n",
        ])
        func aCreationLineThatIsWrong(_ line: String) async throws {
            let server = try Self.streaming(line)
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectMalformed(await watchError(client), "")
        }

        @Test(arguments: [
            (#"{"result":{"header":{"revision":"8"},"events":[{"kv":{"key":"%%%","mod_revision":"8"}}]}}"#, "kv.key"),
            (#"{"result":{"header":{"revision":"8"},"events":[{"kv":{"key":"aw==","value":"@@","mod_revision":"8"}}]}}"#, "kv.value"),
            (#"{"result":{"header":{"revision":"8"},"events":[{"type":"PUT"}]}}"#, "without a key"),
            (#"{"result":{"header":{"revision":"8"},"events":"x"}}"#, "WatchLine"),
            (#"{"result":{"events":[]}}"#, "header.revision"),
            // Before: the resume revision (mod_revision + 1, revision + 1) overflowed: a crash.
            (#"{"result":{"header":{"revision":"8"},"events":[{"kv":{"key":"aw==","mod_revision":"9223372036854775807"}}]}}"#,
             "mod_revision is not a revision"),
            (#"{"result":{"header":{"revision":"9223372036854775807"},"events":[]}}"#, "header.revision is not a revision"),
            (#"{"result":{"header":{"revision":"8"},"events":[{"type":"COMPACT","kv":{"key":"aw==","mod_revision":"8"}}]}}"#,
             "unknown type"),
            (#"{"result":{"header":{"revision":"8"},"canceled":true,"compact_revision":"x"}}"#, "compact_revision"),
        ])
        func anEventLineThatIsWrong(_ line: String, _ what: String) async throws {
            let server = try Self.streaming(Self.created + line + "\n")
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectMalformed(await watchError(client), what)
        }

        /// A stream that keeps closing in the middle of a line is a connection that keeps
        /// breaking, not a member answering nonsense. Before: the cut line was parsed as an
        /// answer and the watch ended with `malformedResponse`.
        @Test func streamsThatCloseMidLine() async throws {
            let server = try Self.streaming(Self.created + #"{"result":{"header":{"revision":"8"},"eve"#)
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await watchError(client), "closing right after their creation")
        }

        /// A connection that breaks in the middle of a line loses nothing: the watch reopens
        /// from the revision after the last event it delivered. Before: the watch ended with
        /// `malformedResponse` after the first event.
        @Test func aStreamThatBreaksMidLineIsResumed() async throws {
            let resumedFrom = Mutex<String?>(nil)
            let server = try HostileServer { connection, index in
                if index == 0 {
                    connection.readRequest()
                    connection.write(Self.streamHead + Self.created + Self.event(revision: 8) + "\n"
                                     + #"{"result":{"header":{"revision":"9"},"eve"#)
                } else {
                    let request = connection.readRequest()
                    resumedFrom.withLock { $0 = request.contains(#""start_revision":"9""#) ? "9" : request }
                    connection.write(Self.streamHead + Self.created + Self.event(revision: 9) + "\n")
                    connection.waitForHangUp()
                }
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            let watch = Task {
                var revisions: [Int64] = []
                for try await batch in client.watch(key: Array("k".utf8)) {
                    revisions += batch.events.map(\.keyValue.modRevision)
                    if revisions.count >= 2 { break }
                }
                return revisions
            }
            // A watch that hangs is cancelled, which ends it with what it had delivered.
            let deadline = Task { try await Task.sleep(for: .seconds(30)); watch.cancel() }
            defer { deadline.cancel() }
            #expect(try await watch.value == [8, 9])
            #expect(resumedFrom.withLock { $0 } == "9")
        }

        /// Before: an event sent twice was delivered twice. etcd 3.4 before 3.4.24 (Debian's
        /// 3.4.23) can repeat an event to a watcher catching up (`leavesAMemberCutOffFromTheMajority`
        /// once got `p/1` twice in one batch), and a reopened stream could repeat what the last
        /// one sent. Each event is now delivered once; events of one revision on other keys all
        /// are; a batch left with nothing new is not delivered (it is no progress notification).
        @Test func eventsSentTwiceAreDeliveredOnce() async throws {
            let server = try HostileServer { connection, index in
                connection.readRequest()
                if index == 0 {
                    connection.write(Self.streamHead + Self.created + Self.events([(8, "aw=="), (8, "aw=="), (8, "bA=="), (9, "aw==")]) + "\n"
                                     + Self.events([(9, "aw==")]) + "\n")
                } else {
                    // Reopened from 10: a member that sends 9 again, then 10.
                    connection.write(Self.streamHead + Self.created + Self.events([(9, "aw==")]) + "\n" + Self.events([(10, "aw==")]) + "\n")
                    connection.waitForHangUp()
                }
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            let watch = Task {
                var seen: [String] = []
                for try await batch in client.watch(key: Array("k".utf8)) {
                    #expect(!batch.events.isEmpty, "a batch with nothing new was delivered")
                    seen += batch.events.map { "\(String(decoding: $0.keyValue.key, as: UTF8.self))@\($0.keyValue.modRevision)" }
                    if seen.count >= 4 { break }
                }
                return seen
            }
            let deadline = Task { try await Task.sleep(for: .seconds(30)); watch.cancel() }
            defer { deadline.cancel() }
            #expect(try await watch.value == ["k@8", "l@8", "k@9", "k@10"])
        }

        /// One batch of `PUT`s, each (revision, base64 key), under the last one's revision.
        static func events(_ puts: [(Int, String)]) -> String {
            let events = puts.map { #"{"kv":{"key":"\#($0.1)","value":"dg==","mod_revision":"\#($0.0)"}}"# }.joined(separator: ",")
            return #"{"result":{"header":{"revision":"\#(puts.last!.0)"},"events":[\#(events)]}}"#
        }

        /// Before: a progress notification counted as a delivery, so a member that sends one
        /// and closes, again and again, kept the watch reopening every 50 ms forever, never
        /// ending (here: until the test's deadline).
        @Test func streamsThatOnlyEverSendAProgressNotification() async throws {
            let server = try Self.streaming(Self.created + #"{"result":{"header":{"revision":"7"},"events":[]}}"# + "\n")
            defer { server.stop() }
            let client = try hostileClient(server)
            let error = await hostileError(within: .seconds(20)) {
                for try await batch in client.watch(key: Array("k".utf8)) where !batch.events.isEmpty {
                    Issue.record("a hostile watch delivered events: \(batch.revision)")
                }
            }
            Self.expectUnreachable(error, "closing right after their creation")
        }

        /// One batch of one `PUT` of key "k" at `revision`.
        static func event(revision: Int) -> String {
            #"{"result":{"header":{"revision":"\#(revision)"},"events":[{"kv":{"key":"aw==","value":"dg==","mod_revision":"\#(revision)"}}]}}"#
        }

        /// Before: the line buffer grew for as long as the server sent (here ~200 MiB, all of
        /// it). Now the watch ends once the line passes the limit, long before the end.
        @Test func aLineThatNeverEnds() async throws {
            let sentAll = HostileFlag()
            let server = try HostileServer { connection, _ in
                connection.readRequest()
                guard connection.write(Self.streamHead + Self.created + #"{"result":{"header":{"revision":"8"},"x":""#) else { return }
                let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
                for _ in 0..<200 where !connection.write(chunk) { return }
                sentAll.raise()
            }
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectMalformed(await watchError(client), "longer than")
            #expect(!sentAll.isRaised)
        }

        /// Before: the watch reopened every 50 ms forever, never delivering, never failing.
        @Test func streamsThatCloseRightAfterTheirCreation() async throws {
            let server = try Self.streaming(Self.created)
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await watchError(client), "closing right after their creation")
        }

        /// Likewise for streams that each send only an "unavailable" error after the creation.
        @Test func streamsThatOnlyEverSayUnavailable() async throws {
            let server = try Self.streaming(Self.created + #"{"error":{"grpc_code":14,"http_code":503,"message":"no leader"}}"#)
            defer { server.stop() }
            let client = try hostileClient(server)
            Self.expectUnreachable(await watchError(client), "closing right after their creation")
        }

        /// The stream's error line (etcd's gateway ends it without a newline) still ends the watch.
        @Test func anErrorLineEndsTheWatchWithItsCode() async throws {
            let server = try Self.streaming(Self.created
                + #"{"error":{"grpc_code":7,"http_code":403,"message":"permission denied"}}"#)
            defer { server.stop() }
            let client = try hostileClient(server)
            let error = await watchError(client)
            #expect(error as? EtcdError == .rejected(httpStatus: 403, code: 7, message: "permission denied"))
        }
    }
}
