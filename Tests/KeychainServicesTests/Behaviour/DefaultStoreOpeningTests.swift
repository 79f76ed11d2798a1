import Foundation
import KeychainServices
import Logging
import SecStore
import Synchronization
import Testing

extension DefaultStoreTests {
    /// The default store opens on the first SecItem call, under the process-wide lock, and logs
    /// to its configuration's logger while it opens. A handler that calls back into the SecItem
    /// functions or `SecItemDefaultStore` from there is on the opening thread: it used to take
    /// that lock again and stop the process ("Recursive call to lock Mutex").
    @Suite("Default store: calls from inside its opening") struct DefaultStoreOpeningTests {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        /// What a handler does with each message, and what it got back.
        final class CallBack: Sendable {
            let calls: @Sendable () -> String
            let answers = Mutex<[String]>([])
            init(_ calls: @escaping @Sendable () -> String) { self.calls = calls }
        }

        struct CallingHandler: LogHandler {
            let callBack: CallBack
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                let answer = callBack.calls()
                callBack.answers.withLock { $0.append(answer) }
            }
        }

        func configuration(_ name: String, logging callBack: CallBack) -> SecItemDefaultStore.Configuration {
            var options = SecretStore.Options(access: .entitled(Entitlements(applicationIdentifier: "XYZ.com.example.logged")),
                                              deviceKeyURL: keychain.deviceKeyURL)
            options.logger = Logger(label: "app") { _ in CallingHandler(callBack: callBack) }
            return SecItemDefaultStore.Configuration(storeURL: keychain.directory.appending(path: name), options: options)
        }

        @Test("SecItem functions and configure(_:) called by a logger during the opening get errSecParam")
        func secItemFromTheOpeningIsRefused() throws {
            let callBack = CallBack {
                let read = copyMatching(.queryQ).status
                let configured: String
                do {
                    try SecItemDefaultStore.configure(.init(storeURL: URL(filePath: "/nonexistent"), applicationIdentifier: "x"))
                    configured = "configured"
                } catch {
                    configured = "\((error as? SecStoreError)?.status ?? 0)"
                }
                return "\(read) \(configured)"
            }
            SecItemDefaultStore.reconfigure(configuration("logged.secstore", logging: callBack))
            // The first call creates the store, which logs.
            #expect(add(.itemA).status == errSecSuccess)
            let answers = callBack.answers.withLock { $0 }
            #expect(!answers.isEmpty)
            #expect(answers.allSatisfy { $0 == "\(errSecParam) \(errSecParam)" }, "\(answers)")
            // Once open, the same calls work, from anywhere.
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).data == "pw".utf8Data)
        }

        @Test("reconfigure(_:) called by a logger during the opening takes effect when the opening ends")
        func reconfigureFromTheOpeningAppliesAfterIt() throws {
            let other = keychain.directory.appending(path: "after.secstore")
            let otherConfiguration = SecItemDefaultStore.Configuration(storeURL: other, applicationIdentifier: "XYZ.com.example.after",
                                                                       deviceKeyURL: keychain.deviceKeyURL)
            let callBack = CallBack {
                SecItemDefaultStore.reconfigure(otherConfiguration)
                return "reconfigured"
            }
            SecItemDefaultStore.reconfigure(configuration("first.secstore", logging: callBack))
            // The call that opened the first store answers from it …
            #expect(add(.itemA).status == errSecSuccess)
            #expect(!callBack.answers.withLock { $0 }.isEmpty)
            // … and the next one opens the store the handler asked for.
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
            #expect(try SecItemDefaultStore.store().url == other)
        }
    }
}
