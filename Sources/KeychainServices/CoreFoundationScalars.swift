import Foundation

// The Core Foundation scalar types that keychain code names, with the types Apple's Swift
// overlay gives them on 64-bit platforms.

/// `CFIndex`: a count or an index (`Int`), as `CFErrorGetCode` returns.
public typealias CFIndex = Int
/// `CFOptionFlags`: a bit set (`UInt`), the raw type of ``SecAccessControlCreateFlags``.
///
/// ```swift
/// let flags = SecAccessControlCreateFlags(rawValue: CFOptionFlags(1 << 0))   // .userPresence
/// ```
public typealias CFOptionFlags = UInt
/// `CFTypeID`: the identifier of a Core Foundation type (`UInt`).
public typealias CFTypeID = UInt
/// `CFHashCode`: a Core Foundation hash value (`UInt`).
public typealias CFHashCode = UInt

/// `CFAllocator`: where Core Foundation allocates. There is one allocator here, the
/// default; the type exists so that `kCFAllocatorDefault` and `nil` can be passed where
/// Apple's functions take an allocator.
public final class CFAllocator: Sendable {
    private init() {}
}

/// `kCFAllocatorDefault`: the default allocator. `nil`, as on Apple systems, where it is
/// the same as passing `NULL`.
///
/// ```swift
/// let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlocked,
///                                              .userPresence, nil)
/// ```
public let kCFAllocatorDefault: CFAllocator! = nil
