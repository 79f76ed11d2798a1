/// `Introspect` XML for an object, generated from ``Interfaces``, with its child nodes.
enum Introspection {
    /// `object` `nil` is a node with no interfaces of its own (`…/collection`).
    static func xml(for object: ObjectPaths.Object?, children: [String]) -> String {
        var lines = [
            #"<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">"#,
            "<node>",
        ]
        for interface in object.map(Interfaces.of) ?? [Interfaces.introspectable] {
            lines.append(#" <interface name="\#(interface.name)">"#)
            for method in interface.methods {
                lines.append(#"  <method name="\#(method.name)">"#)
                lines += method.arguments.map { #"   <arg name="\#($0.0)" type="\#($0.1)" direction="in"/>"# }
                lines += method.results.map { #"   <arg name="\#($0.0)" type="\#($0.1)" direction="out"/>"# }
                lines.append("  </method>")
            }
            for signal in interface.signals {
                lines.append(#"  <signal name="\#(signal.name)">"#)
                lines += signal.arguments.map { #"   <arg name="\#($0.0)" type="\#($0.1)"/>"# }
                lines.append("  </signal>")
            }
            lines += interface.properties.map { #"  <property name="\#($0.name)" type="\#($0.type)" access="\#($0.writable ? "readwrite" : "read")"/>"# }
            lines.append(" </interface>")
        }
        lines += children.map { #" <node name="\#($0)"/>"# }
        lines.append("</node>")
        return lines.joined(separator: "\n") + "\n"
    }
}
