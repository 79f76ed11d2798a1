import ArgumentParser
import SecStore

/// Attributes that describe an item without naming it: `--accessibility`, `--comment`,
/// `--description`. Used by `add`; `update` has `--new-…` forms of these.
struct ItemDetailOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "When the secret is readable: whenUnlocked (default), afterFirstUnlock, always, or a …ThisDeviceOnly variant; Apple's codes (ak, ck, …) work too.",
        valueName: "class"))
    var accessibility: Accessibility?

    @Option(help: ArgumentHelp("A comment.", valueName: "text"))
    var comment: String?

    @Option(name: .customLong("description"), help: ArgumentHelp(
        "A kind shown to users, such as \"application password\".", valueName: "text"))
    var itemDescription: String?

    /// These options written over `attributes`.
    func apply(to attributes: inout Attributes) {
        if let accessibility { attributes.accessibility = accessibility }
        if let comment { attributes.comment = comment }
        if let itemDescription { attributes.itemDescription = itemDescription }
    }
}
