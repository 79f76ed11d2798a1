// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "SecStore",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SecStore", targets: ["SecStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // libsodium, the only crypto. Wrapped once, in Sources/SecStore/Crypto.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .yum(["libsodium-devel"]), .brew(["libsodium"])]
        ),
        .target(
            name: "SecStore",
            dependencies: [
                "CSodium",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SecStoreTests",
            dependencies: ["SecStore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
