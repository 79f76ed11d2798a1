import CSystemdBus
import Glibc

/// Object path elements for names that may hold any character (access groups), by sd-bus's
/// escaping (`_` followed by two hex digits for every byte outside `[A-Za-z0-9]`).
enum BusPath {
    /// `prefix/escaped(name)`.
    static func encode(_ name: String, under prefix: String) -> String? {
        var result: UnsafeMutablePointer<CChar>?
        guard sd_bus_path_encode(prefix, name, &result) >= 0, let result else { return nil }
        defer { free(result) }
        return String(cString: result)
    }

    /// The name a path made by ``encode(_:under:)`` names, or `nil` when it is not directly
    /// below `prefix`.
    static func decode(_ path: String, under prefix: String) -> String? {
        var result: UnsafeMutablePointer<CChar>?
        guard sd_bus_path_decode(path, prefix, &result) > 0, let result else { return nil }
        defer { free(result) }
        return String(cString: result)
    }
}
