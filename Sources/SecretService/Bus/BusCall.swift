/// One incoming method call, read in full before it is handled: where it is addressed, who
/// sent it (the unique bus name, for the caller's credentials) and its arguments.
struct BusCall {
    var path: String
    var interface: String
    var member: String
    var sender: String
    /// The arguments' complete signature, as sent.
    var signature: String
    var arguments: [BusValue]
}
