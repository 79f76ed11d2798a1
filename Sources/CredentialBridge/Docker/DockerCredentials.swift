import Foundation
import SecStore

/// What docker and podman send to `store` and read from `get`: `{"ServerURL", "Username",
/// "Secret"}` (docker-credential-helpers' `Credentials`). An identity token is stored with
/// the username `<token>`, as docker sends it.
///
/// ```swift
/// let credentials = try DockerCredentials(json: Array(#"{"ServerURL":"https://index.docker.io/v1/","Username":"alice","Secret":"s3cr3t"}"#.utf8))
/// print(credentials.json)   // the same object, with a newline
/// ```
public struct DockerCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The registry's server URL, as docker names it.
    public var serverURL: String
    /// The username, or `<token>` for an identity token.
    public var username: String
    /// The password or token.
    public var secret: String

    /// Credentials with these values.
    ///
    /// ```swift
    /// let credentials = DockerCredentials(serverURL: "registry.example.com", username: "alice", secret: "s3cr3t")
    /// ```
    public init(serverURL: String, username: String, secret: String) {
        self.serverURL = serverURL
        self.username = username
        self.secret = secret
    }

    /// Reads the JSON object `store` receives. As Go's decoder does, member names match
    /// without regard to case, unknown members are ignored, and a missing or `null` member
    /// is empty. Two members naming one field (`ServerURL` and `serverurl`) with different
    /// values are refused: Go takes the later one, and JSONSerialization keeps no order.
    ///
    /// ```swift
    /// let credentials = try DockerCredentials(json: input)
    /// ```
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/malformedInput`` when the input is not
    ///   one JSON object, a member is not a string, or a field is given twice with different
    ///   values (the message never quotes the input);
    ///   ``BridgeError/Kind/incomplete`` with docker-credential-helpers' messages
    ///   `no credentials server URL` and `no credentials username`.
    public init(json input: [UInt8]) throws(BridgeError) {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(input)) as? [String: Any] else {
                throw BridgeError(.malformedInput, "invalid credentials: the input is not a JSON object")
            }
            object = parsed
        } catch let error as BridgeError {
            throw error
        } catch {
            throw BridgeError(.malformedInput, "invalid credentials: the input is not JSON")
        }
        func member(_ name: String) throws(BridgeError) -> String {
            // Every member naming the field (Go matches names without regard to case). The
            // dictionary's order changes from run to run, so which of two differing values
            // to take cannot be decided from it: they are refused, and `null`s are left out.
            var texts: [String] = []
            for (key, value) in object where key.lowercased() == name.lowercased() {
                switch value {
                case is NSNull: continue
                case let text as String: texts.append(text)
                default: throw BridgeError(.malformedInput, "invalid credentials: \(name) is not a string")
                }
            }
            // Compared in place by their bytes (`Secret` is one of them: no copy of it is made).
            guard texts.dropFirst().allSatisfy({ UTF8Bytes.equal($0, texts[0]) }) else {
                throw BridgeError(.malformedInput, "invalid credentials: \(name) is given more than once")
            }
            return texts.first ?? ""
        }
        self.init(serverURL: try member("ServerURL"), username: try member("Username"), secret: try member("Secret"))
        guard !serverURL.isEmpty else { throw DockerCredentialHelper.missingServerURL }
        guard !username.isEmpty else { throw DockerCredentialHelper.missingUsername }
    }

    /// The object `get` prints: `{"ServerURL":…,"Username":…,"Secret":…}` and a newline.
    public var json: String {
        GoJSON.object([("ServerURL", serverURL), ("Username", username), ("Secret", secret)]) + "\n"
    }

    /// Shows the server and the username, never the secret.
    public var description: String {
        "DockerCredentials(serverURL: \(serverURL), username: \(username), secret: <redacted>)"
    }
}
