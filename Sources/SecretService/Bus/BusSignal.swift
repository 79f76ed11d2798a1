/// One signal a connection received: where it comes from and its arguments. Clients (the
/// tests) read it to see exactly what reached their own connection.
///
///     connection.watchSignals("type='signal'") { print($0.path, $0.member) }
struct BusSignal: Equatable {
    var path: String
    var interface: String
    var member: String
    var arguments: [BusValue]
}
