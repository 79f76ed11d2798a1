// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "SecStore",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SecStore", targets: ["SecStore"]),
        .library(name: "KeychainServices", targets: ["KeychainServices"]),
        .library(name: "DeviceIdentity", targets: ["DeviceIdentity"]),
        .executable(name: "secstore", targets: ["secstore"]),
        .executable(name: "secstore-benchmark", targets: ["secstore-benchmark"]),
        .executable(name: "git-credential-secstore", targets: ["git-credential-secstore"]),
        .executable(name: "docker-credential-secstore", targets: ["docker-credential-secstore"]),
        .executable(name: "secstore-secret-service", targets: ["secstore-secret-service"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // libsodium, the only crypto. Wrapped once, in Sources/SecStore/Crypto.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .yum(["libsodium-devel"]), .brew(["libsodium"])]
        ),
        // add_key(2)/keyctl(2) for AfterFirstUnlock keys. Wrapped once, in Sources/SecStore/Keys/KernelKeyring.swift.
        .target(name: "CKeyring"),
        // prctl(2), variadic: SecStore's programs make themselves non-dumpable (no ptrace by
        // other processes of the user). Wrapped once, in Sources/SecStore/Keys/CrashHygiene.swift.
        .target(name: "CProcessControl"),
        // sqlite3_config(3) and sqlite3_db_config(3), variadic, for the process-wide SQLite
        // settings SecStore offers a program (no memory statistics; adaptive mutexes, whose
        // methods are C) and the ones it makes on each connection (the hardening for a store
        // file someone else may have written; the WAL left at close).
        // Wrapped once, in Sources/SecStore/Storage/SQLiteRows.swift.
        .target(name: "CSQLiteConfig", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The engine: store file, keys, items, queries, typed Swift API.
        .target(
            name: "SecStore",
            dependencies: [
                "CSodium",
                "CKeyring",
                "CProcessControl",
                "CSQLiteConfig",
                .product(name: "GRDB", package: "GRDB.swift"),
                // Raw column access on the read hot path, in Storage/SQLiteRows.swift only.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Apple's SecItem API over a process-wide default SecStore store.
        .target(
            name: "KeychainServices",
            dependencies: ["SecStore"]
        ),
        // A stable device / vendor / installation UUID kept in a store.
        .target(
            name: "DeviceIdentity",
            dependencies: ["SecStore"]
        ),
        // The command-line tool.
        .executableTarget(
            name: "secstore",
            dependencies: [
                "SecStore", "DeviceIdentity", "SecStoreSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Bridges: the git and docker credential protocols over internet-password items, with
        // the one URL mapping they share. No product: the two helpers below are its users.
        .target(
            name: "CredentialBridge",
            dependencies: ["SecStore", "KeychainServices"]
        ),
        // `git config credential.helper secstore` runs this.
        .executableTarget(name: "git-credential-secstore", dependencies: ["CredentialBridge", "SecStore"]),
        // `"credsStore": "secstore"` in ~/.docker/config.json runs this.
        .executableTarget(name: "docker-credential-secstore", dependencies: ["CredentialBridge", "SecStore"]),
        // A seeded generator (SplitMix64) shared by the benchmark, the test helper and the
        // tests, so that a workload can be repeated from its seed. Internal: no product.
        .target(name: "SeededRandom"),
        // Release-build benchmark: ratios against a raw SQLite + AEAD baseline.
        .executableTarget(
            name: "secstore-benchmark",
            dependencies: [
                "SecStore", "KeychainServices", "CSodium", "SeededRandom",
                // The provider's D-Bus wrapper, for the Secret Service lookups over a private bus
                // (SecretServiceClient.swift): sd-bus stays wrapped in one place.
                "SecretService",
                // Sync's convergence over a real 3-member etcd cluster (SyncTimings.swift, issue 18):
                // the engine, and the tests' cluster harness (a plain Foundation target).
                "SecStoreSync", "SecStoreTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Separate processes for the tests of sharing, locking, crashes and races.
        .executableTarget(
            name: "secstore-test-helper",
            dependencies: [
                "SecStore", "KeychainServices", "DeviceIdentity", "SeededRandom", "CrashVFS",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "SecStoreTests",
            dependencies: ["SecStore", "SecStoreTestSupport", "SeededRandom", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "KeychainServicesTests", dependencies: ["KeychainServices", "SecStore", "SecStoreFuzzing", "SecStoreTestSupport",
                                                                 .product(name: "Logging", package: "swift-log")]),
        // Shared by the test targets: temporary store directories, helper processes.
        .target(name: "SecStoreTestSupport", path: "Tests/SecStoreTestSupport"),
        .testTarget(name: "DeviceIdentityTests", dependencies: ["DeviceIdentity", "SecStore", "SecStoreTestSupport"]),
        .testTarget(
            name: "SecstoreCLITests",
            dependencies: ["SecStore", "SecStoreTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The fuzz targets' entry points (issue 15): scripts/fuzz.sh links them into libFuzzer
        // binaries, and the suite replays every Fixtures/fuzz file through them. Internal: no product.
        .target(name: "SecStoreFuzzing", dependencies: ["SecStore", "KeychainServices", "CredentialBridge", "CSodium"],
                path: "Tests/SecStoreFuzzing"),
        // Replays Fixtures/fuzz through those entries and the CLI's and the plaintext import's
        // (which need `secstore`'s module).
        .testTarget(
            name: "FuzzReplayTests",
            dependencies: ["SecStoreFuzzing", "SecStore", "secstore",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Test-only (issue 15): an SQLite VFS that simulates a power cut (unsynced writes
        // dropped or torn), linked only into secstore-test-helper.
        .target(name: "CrashVFS", path: "Tests/CrashVFS", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The power-loss campaign, the fsync audit and the fault-injection tests (issue 15).
        .testTarget(name: "ReliabilityTests", dependencies: ["SecStore", "DeviceIdentity", "SecStoreTestSupport"]),
        // Runs the built credential helpers under the real `git` and as docker drives them.
        .testTarget(name: "CredentialHelperTests", dependencies: ["CredentialBridge", "SecStore", "SecStoreTestSupport"]),
        // sd-bus (libsystemd), the Secret Service provider's D-Bus library (issue 17; docs/secret-service.md).
        // Wrapped once, in Sources/SecretService/Bus.
        .systemLibrary(
            name: "CSystemdBus",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"]), .yum(["systemd-devel"])]
        ),
        // The freedesktop Secret Service (org.freedesktop.secrets) over a store. Internal: no
        // product; the executable below is its user.
        .target(name: "SecretService", dependencies: ["SecStore", "CSystemdBus"]),
        // The provider process on the session bus.
        .executableTarget(
            name: "secstore-secret-service",
            dependencies: ["SecretService", "SecStore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Runs the built provider on a private bus against the real `secret-tool`, and sends it
        // bad input through SecretService's own bus connection.
        // Python/ holds the SecretStorage and keyring tests PythonClientTests runs in a venv.
        .testTarget(name: "SecretServiceTests", dependencies: ["SecretService", "SecStore", "SecStoreTestSupport"],
                    exclude: ["Python"]),
        // etcd's v3 API over its JSON gateway, for sync (issue 18; docs/sync.md). Internal: no
        // product. Foundation and a plain socket (not URLSession: see EtcdSocket.swift); TLS through the
        // system's libssl, loaded at run time (OpenSSLLibrary.swift). No package dependency.
        .target(name: "Etcd"),
        // Sync of synchronizable items between a circle of devices over etcd (issue 18,
        // docs/sync.md): records sealed per access group, the circle's keys, conflicts.
        .target(
            name: "SecStoreSync",
            dependencies: ["SecStore", "Etcd", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "SecStoreSyncTests", dependencies: ["SecStoreSync", "SecStore", "Etcd", "SecStoreTestSupport", "DeviceIdentity"]),
        // Runs the client against real etcd clusters started by SecStoreTestSupport's EtcdCluster.
        .testTarget(name: "EtcdTests", dependencies: ["Etcd", "SecStoreTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
