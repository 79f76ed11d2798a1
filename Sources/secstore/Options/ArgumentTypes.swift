import ArgumentParser
import Foundation
import SecStore

// Command-line spellings of the engine's value types. Each accepts Apple's short code
// and a readable name, and lists its values for `--help` and shell completion.

extension ItemClass: ExpressibleByArgument {
    /// `genp`, `generic`, `generic-password`, or `inet`, `internet`, `internet-password` (any case).
    public init?(argument: String) {
        switch argument.lowercased() {
        case "genp", "generic", "generic-password": self = .genericPassword
        case "inet", "internet", "internet-password": self = .internetPassword
        default: return nil
        }
    }

    /// The short codes, for `--help` and completion.
    public static var allValueStrings: [String] { ["genp", "inet"] }
}

extension Accessibility: ExpressibleByArgument {
    /// `ak`, `ck`, … or the names `whenUnlocked`, `afterFirstUnlock`, … (any case).
    public init?(argument: String) {
        if let match = Accessibility(rawValue: argument) {
            self = match
            return
        }
        guard let match = Accessibility.allCases.first(where: { $0.description.lowercased() == argument.lowercased() }) else {
            return nil
        }
        self = match
    }

    /// The readable names, for `--help` and completion.
    public static var allValueStrings: [String] { allCases.map(\.description) }
}

extension ImportConflictPolicy: ExpressibleByArgument {}

/// `--protocol`: a four-character code (`htps`) or a common scheme name (`https`).
struct ProtocolArgument: ExpressibleByArgument, Sendable {
    let value: InternetProtocol

    static let names: [String: InternetProtocol] = [
        "ftp": .ftp, "http": .http, "https": .https, "ssh": .ssh, "sftp": .ssh, "imap": .imap,
        "imaps": .imaps, "smtp": .smtp, "pop3": .pop3, "pop3s": .pop3s, "ldap": .ldap, "ldaps": .ldaps,
        "ftps": .ftps, "telnet": .telnet, "irc": .irc, "ircs": .ircs, "smb": .smb, "afp": .afp,
        "nntp": .nntp, "socks": .socks, "rtsp": .rtsp, "ipp": .ipp,
    ]

    init?(argument: String) {
        if let named = Self.names[argument.lowercased()] {
            value = named
        } else if (1...4).contains(argument.utf8.count), argument.allSatisfy(\.isASCII) {
            // Apple's codes are four characters, padded with spaces ("ssh ").
            value = InternetProtocol(rawValue: argument.padding(toLength: 4, withPad: " ", startingAt: 0))
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { names.keys.sorted() }
}

/// A duration on the command line: `90s`, `30m`, `8h`, `2d`, or plain seconds.
struct DurationArgument: ExpressibleByArgument, Sendable {
    let seconds: TimeInterval

    init?(argument: String) {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var text = argument.lowercased()
        var unit: TimeInterval = 1
        if let last = text.last, let scale = units[last] {
            unit = scale
            text.removeLast()
        }
        guard let amount = Double(text), amount.isFinite, amount > 0 else { return nil }
        seconds = amount * unit
    }

    static var defaultCompletionKind: CompletionKind { .list(["90s", "30m", "8h", "1d"]) }
}

extension InterchangeFormat: ExpressibleByArgument {}
