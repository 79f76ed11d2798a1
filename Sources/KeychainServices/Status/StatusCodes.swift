import Foundation
import SecStore

// Result codes of the SecItem functions, with Apple's numbers (SecBase.h). The numbers and
// the messages `SecCopyErrorMessageString` returns come from SecStore's one status table
// (`SecurityStatus`); each doc comment repeats the number for readers.

/// `noErr`: zero, as Apple's MacTypes.h declares it, typed `OSStatus` as Apple's Swift
/// overlay imports it, so `var lastResult: OSStatus = noErr` and `status == noErr` compile.
///
/// ```swift
/// var lastResultCode: OSStatus = noErr
/// lastResultCode = SecItemCopyMatching(query as CFDictionary, &result)
/// if lastResultCode == noErr { … }
/// ```
public let noErr: OSStatus = 0

/// `errSecSuccess` (0): no error.
///
/// ```swift
/// guard SecItemAdd(attributes as CFDictionary, nil) == errSecSuccess else { return }
/// ```
public let errSecSuccess: OSStatus = SecurityStatus.success.value
/// `errSecUnimplemented` (-4): the operation is not supported, such as a certificate or key
/// class, or a certificate-only match key on a password.
public let errSecUnimplemented: OSStatus = SecurityStatus.unimplemented.value
/// `errSecIO` (-36): reading or writing the store file failed.
public let errSecIO: OSStatus = SecurityStatus.io.value
/// `errSecParam` (-50): a parameter was missing, of the wrong type or not allowed here.
public let errSecParam: OSStatus = SecurityStatus.param.value
/// `errSecAllocate` (-108): guarded memory for keys could not be allocated.
public let errSecAllocate: OSStatus = SecurityStatus.allocate.value
/// `errSecUserCanceled` (-128): the user canceled. Never returned by SecStore (there is no UI).
public let errSecUserCanceled: OSStatus = SecurityStatus.userCanceled.value
/// `errSecBadReq` (-909): bad parameter or invalid state. Never returned by SecStore.
public let errSecBadReq: OSStatus = SecurityStatus.badReq.value
/// `errSecNotAvailable` (-25291): the store cannot be opened or used (missing, busy, wrong
/// kind of file, exposed key file).
public let errSecNotAvailable: OSStatus = SecurityStatus.notAvailable.value
/// `errSecReadOnly` (-25292): the store is read-only.
public let errSecReadOnly: OSStatus = SecurityStatus.readOnly.value
/// `errSecAuthFailed` (-25293): a passphrase is wrong or required, or the store was made with
/// another device key.
public let errSecAuthFailed: OSStatus = SecurityStatus.authFailed.value
/// `errSecDuplicateItem` (-25299): an item with the same primary key exists.
public let errSecDuplicateItem: OSStatus = SecurityStatus.duplicateItem.value
/// `errSecItemNotFound` (-25300): no item matched.
public let errSecItemNotFound: OSStatus = SecurityStatus.itemNotFound.value
/// `errSecDataTooLarge` (-25302): a secret larger than 64 MiB (`Item.maximumDataByteCount`), or a
/// string or data attribute larger than 1 MiB. Apple sets no such limit (docs/porting.md §3).
public let errSecDataTooLarge: OSStatus = SecurityStatus.dataTooLarge.value
/// `errSecNoSuchAttr` (-25303): the attribute does not exist for this class.
public let errSecNoSuchAttr: OSStatus = SecurityStatus.noSuchAttr.value
/// `errSecNoSuchClass` (-25306): the item class is unknown.
public let errSecNoSuchClass: OSStatus = SecurityStatus.noSuchClass.value
/// `errSecInteractionNotAllowed` (-25308): the item's accessibility class is locked.
public let errSecInteractionNotAllowed: OSStatus = SecurityStatus.interactionNotAllowed.value
/// `errSecNoAccessForItem` (-25243): never returned (not used by the data-protection keychain).
public let errSecNoAccessForItem: OSStatus = SecurityStatus.noAccessForItem.value
/// `errSecDecode` (-26275): stored bytes failed authentication (a damaged or altered store),
/// or the store was written by a newer SecStore.
public let errSecDecode: OSStatus = SecurityStatus.decode.value
/// `errSecMissingEntitlement` (-34018): the access group is not among the process's
/// entitlements, or the process has none, or its entitlements file is unusable.
public let errSecMissingEntitlement: OSStatus = SecurityStatus.missingEntitlement.value
/// `errSecRestrictedAPI` (-34020): restricted client (App Clips). Never returned by SecStore.
public let errSecRestrictedAPI: OSStatus = SecurityStatus.restrictedAPI.value
