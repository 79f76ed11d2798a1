import Foundation
@testable import SecretService
import Testing

/// Introspection reaches every object, as D-Feet and `gdbus introspect -r` walk the tree.
@Suite("Introspection")
struct IntrospectionTests {
    @Test("the tree from the root down to an item is introspectable")
    func tree() throws {
        let provider = try Provider(bus: try PrivateBus())
        _ = try provider.secretTool(["store", "--label=x", "service", "s"], stdin: "pw")
        let connection = try BusConnection(address: provider.bus.address)
        func introspect(_ path: String) throws -> String {
            let reply = try connection.call(destination: "org.freedesktop.secrets", path: path,
                                            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect", [])
            return reply.first?.text ?? ""
        }
        #expect(try introspect("/org/freedesktop/secrets").contains(#"<node name="collection"/>"#))
        #expect(try introspect("/org/freedesktop/secrets").contains(#"<interface name="org.freedesktop.Secret.Service">"#))
        #expect(try introspect("/org/freedesktop/secrets/collection").contains(#"<node name="default"/>"#))
        #expect(try introspect("/org/freedesktop/secrets/aliases").contains(#"<node name="default"/>"#))
        let collection = try introspect("/org/freedesktop/secrets/collection/default")
        #expect(collection.contains(#"<method name="CreateItem">"#))
        let child = try #require(collection.split(separator: "\n").first { $0.contains("<node name=") })
        let id = child.split(separator: "\"")[1]
        #expect(try introspect("/org/freedesktop/secrets/collection/default/\(id)").contains(#"<property name="Attributes" type="a{ss}" access="readwrite"/>"#))
    }
}
