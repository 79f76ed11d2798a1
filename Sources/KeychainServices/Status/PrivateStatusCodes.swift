import Foundation

// Apple's private names (SecBasePriv.h) for the reasons behind `errSecParam` and
// `errSecUnimplemented`. They share those numbers, so callers cannot tell them apart; the
// translation code uses them to say which rule a dictionary broke.

/// `errSecInternal` (-26276, private on Apple systems): an internal error. Never returned.
public let errSecInternal: OSStatus = -26276
/// `errSecUnsupportedOperation` (private): an alias of `errSecUnimplemented` (-4).
public let errSecUnsupportedOperation: OSStatus = errSecUnimplemented
/// `errSecItemInvalidKey` (private, -50): a dictionary key that is not allowed here.
public let errSecItemInvalidKey: OSStatus = errSecParam
/// `errSecItemInvalidKeyType` (private, -50): a dictionary key that is not a string.
public let errSecItemInvalidKeyType: OSStatus = errSecParam
/// `errSecItemInvalidValue` (private, -50): a value of the wrong type.
public let errSecItemInvalidValue: OSStatus = errSecParam
/// `errSecItemClassMissing` (private, -50): no `kSecClass`.
public let errSecItemClassMissing: OSStatus = errSecParam
/// `errSecItemMatchUnsupported` (private, -50): a match key where none is allowed.
public let errSecItemMatchUnsupported: OSStatus = errSecParam
/// `errSecUseItemListUnsupported` (private, -50): `kSecUseItemList`.
public let errSecUseItemListUnsupported: OSStatus = errSecParam
/// `errSecReturnDataUnsupported` (private, -50): the call may not ask for results, such as a
/// `SecItemUpdate` query with `kSecReturn…` keys.
public let errSecReturnDataUnsupported: OSStatus = errSecParam
/// `errSecReturnAttributesUnsupported` (private, -50): the call does not support returning attributes.
public let errSecReturnAttributesUnsupported: OSStatus = errSecParam
/// `errSecReturnRefUnsupported` (private, -50): the call does not support returning a reference.
public let errSecReturnRefUnsupported: OSStatus = errSecParam
/// `errSecReturnPersistentRefUnsupported` (private, -50): the call does not support returning a
/// persistent reference.
public let errSecReturnPersistentRefUnsupported: OSStatus = errSecParam
/// `errSecValueRefUnsupported` (private, -50): `kSecValueRef` on a password.
public let errSecValueRefUnsupported: OSStatus = errSecParam
/// `errSecValuePersistentRefUnsupported` (private, -50): a persistent reference where none is allowed.
public let errSecValuePersistentRefUnsupported: OSStatus = errSecParam
/// `errSecReturnMissingPointer` (private, -50): a result was asked for without a pointer to receive it.
public let errSecReturnMissingPointer: OSStatus = errSecParam
/// `errSecMatchLimitUnsupported` (private, -50): `kSecMatchLimit` in an update or delete.
public let errSecMatchLimitUnsupported: OSStatus = errSecParam
/// `errSecItemIllegalQuery` (private, -50): a persistent reference combined with attributes.
public let errSecItemIllegalQuery: OSStatus = errSecParam
