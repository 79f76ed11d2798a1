/// One incoming method call: where it is addressed, who sent it (the unique bus name, for the
/// caller's credentials), its signature, and its arguments, read only when asked for.
///
/// The arguments are read after the handler has matched the signature against the method's:
/// reading a body builds one `BusValue` per element, and a 30 MiB array of a shape no method
/// takes cost the provider 1.8 GB and 41 s before it answered `InvalidArgs`, while every other
/// client waited (found by a helper session's audit).
///
/// ```swift
/// guard call.signature == "a{ss}" else { throw .invalidArgs("…") }
/// let arguments = try call.readArguments()
/// ```
struct BusCall {
    var path: String
    var interface: String
    var member: String
    var sender: String
    /// The arguments' complete signature, as sent.
    var signature: String
    /// Reads the arguments from the message; valid only while the call is being handled.
    var readArguments: () throws(BusError) -> [BusValue]
}
