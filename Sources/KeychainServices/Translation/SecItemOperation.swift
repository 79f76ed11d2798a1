/// The SecItem function a dictionary is given to. Apple parses every dictionary the same
/// way but each function allows different keys (reference §4).
enum SecItemOperation: Sendable, CustomStringConvertible {
    case add, copyMatching, update, delete

    var description: String {
        switch self {
        case .add: "SecItemAdd"
        case .copyMatching: "SecItemCopyMatching"
        case .update: "SecItemUpdate"
        case .delete: "SecItemDelete"
        }
    }
}
