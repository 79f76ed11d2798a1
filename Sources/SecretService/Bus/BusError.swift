/// A D-Bus error reply: the error name a client matches on and a message for people. The
/// message never holds a secret or an attribute value (clients may log it).
package struct BusError: Error, Equatable {
    package var name: String
    package var message: String

    package init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    // The names the D-Bus specification and the Secret Service API 0.2 define.
    static func invalidArgs(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.InvalidArgs", message) }
    static func unknownMethod(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.UnknownMethod", message) }
    static func unknownObject(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.UnknownObject", message) }
    static func unknownInterface(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.UnknownInterface", message) }
    static func unknownProperty(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.UnknownProperty", message) }
    static func propertyReadOnly(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.PropertyReadOnly", message) }
    static func notSupported(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.NotSupported", message) }
    static func accessDenied(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.AccessDenied", message) }
    static func failed(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.Failed", message) }
    static func fileNotFound(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.FileNotFound", message) }
    static func invalidFileContent(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.InvalidFileContent", message) }
    static func noMemory(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.NoMemory", message) }
    static func limitsExceeded(_ message: String) -> BusError { BusError("org.freedesktop.DBus.Error.LimitsExceeded", message) }
    static func noSuchObject(_ message: String) -> BusError { BusError("org.freedesktop.Secret.Error.NoSuchObject", message) }
    static func noSession(_ message: String) -> BusError { BusError("org.freedesktop.Secret.Error.NoSession", message) }
    static func isLocked(_ message: String) -> BusError { BusError("org.freedesktop.Secret.Error.IsLocked", message) }
}
