// swift-tools-version:6.2
import PackageDescription

/// Every target is compiled in the Swift 6 language mode with strict concurrency, and with the
/// upcoming features that make imports and existentials explicit (see docs/CONTRIBUTING.md).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let nio = "swift-nio"
let package = Package(
    name: "sesame",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "sesamed", targets: ["sesamed"]),
        .executable(name: "sesamectl", targets: ["sesamectl"]),
        .executable(name: "sesame-emulator", targets: ["sesame-emulator"]),
        .library(name: "SesameClient", targets: ["SesameClient"]),
        .library(name: "SesameEmulator", targets: ["SesameEmulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Tests only: child processes (Foundation's Process.run() can crash a runner with many descriptors).
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
    ],
    targets: [
        // Domain: values, the session state machine, ports, errors. No I/O.
        .target(name: "SesameCore", swiftSettings: strict),
        // The wire contract of docs/protocol.md. Imports no domain code, only SesameCore's encodings.
        .target(name: "SesameLocalAPI", dependencies: ["SesameCore"], swiftSettings: strict),
        // The one actor that owns the session, and its background work as a ServiceLifecycle service.
        .target(
            name: "SesameService",
            dependencies: [
                "SesameCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // One HTTP transport for every backend adapter: AsyncHTTPClient, timeouts, JSON,
        // Retry-After. Imports no domain code.
        .target(
            name: "SesameHTTP",
            dependencies: [
                "SesameCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: nio),
                .product(name: "NIOHTTP1", package: nio),
            ],
            swiftSettings: strict
        ),
        // Adapter: Firebase Auth REST + RTDB username directory.
        .target(
            name: "SesameFirebase",
            dependencies: [
                "SesameCore", "SesameHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: nio),
                .product(name: "NIOHTTP1", package: nio),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Adapter: Supabase Auth (GoTrue) + PostgREST username directory.
        .target(
            name: "SesameSupabase",
            dependencies: [
                "SesameCore", "SesameHTTP",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: nio),
                .product(name: "NIOHTTP1", package: nio),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Adapter: the identity providers' RFC 8628 device flow endpoints ([oauth.<providerId>]).
        .target(
            name: "SesameOAuth",
            dependencies: [
                "SesameCore", "SesameHTTP",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: nio),
            ],
            swiftSettings: strict
        ),
        // Adapter: the encrypted keyring file.
        .target(
            name: "SesameKeyring",
            dependencies: [
                "SesameCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Adapter: the Unix-socket server.
        .target(
            name: "SesameSocketServer",
            dependencies: [
                "SesameCore", "SesameService", "SesameLocalAPI",
                .product(name: "NIOCore", package: nio),
                .product(name: "NIOPosix", package: nio),
                .product(name: "NIOConcurrencyHelpers", package: nio),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // Adapter: systemd (notify, socket activation, journald).
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // QR codes for sesamectl's sign-in prompts (libqrencode, as a system library).
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(
            name: "SesameSystemd",
            dependencies: ["CSystemd", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The client library for apps.
        .target(
            name: "SesameClient",
            dependencies: [
                "SesameCore", "SesameLocalAPI",
                .product(name: "NIOCore", package: nio),
                .product(name: "NIOPosix", package: nio),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ],
            swiftSettings: strict
        ),
        // The Firebase Auth Emulator-compatible backend, as a library.
        .target(
            name: "SesameEmulator",
            dependencies: [
                // CQRencode: the SVG QR code of a GoTrue TOTP enrolment.
                "CQRencode", "SesameCore", "SesameLocalAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                // _CryptoExtras: RSA for `--supabase-signing-key rs256`.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: nio),
                .product(name: "NIOPosix", package: nio),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // Test kit shared by the test targets: fakes for pure domain tests, and the one harness of
        // built binaries, child processes (the emulator's among them), raw socket clients and
        // `eventually`. Never the emulator library: pure domain tests use this target.
        .target(
            name: "SesameTesting",
            dependencies: [
                "SesameCore", "SesameHTTP", "SesameLocalAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: nio), .product(name: "NIOHTTP1", package: nio),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        // The in-process emulator as every test target starts it, with a clock moved by hand.
        .target(name: "SesameEmulatorTesting", dependencies: ["SesameEmulator"], swiftSettings: strict),
        // Executables: composition and arguments only.
        .executableTarget(
            name: "sesamed",
            dependencies: [
                "SesameCore", "SesameService", "SesameFirebase", "SesameSupabase", "SesameOAuth", "SesameHTTP",
                "SesameKeyring", "SesameSocketServer", "SesameSystemd", "SesameLocalAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOPosix", package: nio),
                .product(name: "NIOConcurrencyHelpers", package: nio),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // libFuzzer target for the request decoder (scripts/fuzz.sh); inert in normal builds.
        .executableTarget(name: "FuzzLocalAPI", dependencies: ["SesameLocalAPI"], swiftSettings: strict),
        .executableTarget(
            name: "sesamectl",
            dependencies: [
                "CQRencode", "SesameClient", "SesameCore", "SesameLocalAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                // The loopback listener of `sign-in --browser` (RFC 8252).
                .product(name: "NIOCore", package: nio), .product(name: "NIOPosix", package: nio),
                .product(name: "NIOHTTP1", package: nio),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "sesame-emulator",
            dependencies: [
                "SesameEmulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        .executableTarget(
            name: "sesame-example-migrator",
            dependencies: ["SesameClient"],
            path: "Examples/Migrator",
            swiftSettings: strict
        ),
        // `make bench`'s SwiftNIO floor: a line answered by one NIO handler and nothing else.
        .executableTarget(
            name: "sesame-nio-echo",
            dependencies: [.product(name: "NIOCore", package: nio), .product(name: "NIOPosix", package: nio)],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "sesame-emulator-bench",
            dependencies: [
                "SesameEmulator",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: nio),
                .product(name: "NIOHTTP1", package: nio),
            ],
            swiftSettings: strict
        ),

        .testTarget(name: "SesameCoreTests", dependencies: ["SesameCore", "SesameTesting"], swiftSettings: strict),
        .testTarget(name: "SesameLocalAPITests", dependencies: ["SesameLocalAPI"], swiftSettings: strict),
        .testTarget(
            name: "SesameKeyringTests",
            dependencies: [
                "SesameKeyring", "SesameCore", "SesameTesting", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameEmulatorTests",
            dependencies: [
                "SesameEmulator", "SesameEmulatorTesting", "SesameTesting",
                "SesameCore", "SesameLocalAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // Checks the emulator's access tokens against its JWK set, as a relying party.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: nio),
                .product(name: "NIOPosix", package: nio),
                .product(name: "NIOHTTP1", package: nio),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameFirebaseTests",
            dependencies: [
                "SesameFirebase", "SesameHTTP", "SesameCore", "SesameLocalAPI", "SesameEmulator",
                "SesameEmulatorTesting", "SesameTesting",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameHTTPTests",
            dependencies: [
                "SesameHTTP", "SesameEmulator", "SesameCore", "SesameTesting",
                .product(name: "NIOCore", package: nio), .product(name: "NIOHTTP1", package: nio),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameSupabaseTests",
            dependencies: [
                "SesameSupabase", "SesameHTTP", "SesameCore", "SesameTesting",
                .product(name: "NIOCore", package: nio), .product(name: "NIOHTTP1", package: nio),
            ],
            swiftSettings: strict
        ),
        // sesamed's configuration and composition, with `@testable import sesamed`.
        .testTarget(
            name: "SesamedTests",
            dependencies: ["sesamed", "SesameOAuth", "SesameCore", "SesameTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameOAuthTests",
            dependencies: [
                "SesameOAuth", "SesameHTTP", "SesameCore", "SesameTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: nio), .product(name: "NIOHTTP1", package: nio),
            ],
            swiftSettings: strict
        ),
        // The RemoteAuthProvider conformance suite (SesameTesting) run against both adapters,
        // each with its emulator.
        .testTarget(
            name: "ProviderConformanceTests",
            dependencies: [
                "SesameTesting", "SesameCore", "SesameHTTP", "SesameFirebase", "SesameSupabase", "SesameOAuth",
                "SesameEmulator",
                "SesameEmulatorTesting", "SesameLocalAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: nio), .product(name: "NIOHTTP1", package: nio),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameServiceTests",
            dependencies: ["SesameService", "SesameCore", "SesameTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameSystemdTests",
            dependencies: ["SesameSystemd", "SesameTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameSocketServerTests",
            dependencies: [
                "SesameSocketServer", "SesameService", "SesameCore", "SesameLocalAPI", "SesameTesting",
                .product(name: "NIOCore", package: nio), .product(name: "NIOPosix", package: nio),
                .product(name: "NIOEmbedded", package: nio), .product(name: "NIOConcurrencyHelpers", package: nio),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SesameClientTests",
            dependencies: [
                // sesamectl too, so its pure output functions (status, errors, exit statuses) are
                // unit-tested with `@testable import sesamectl`.
                "SesameClient", "SesameCore", "SesameLocalAPI", "sesamectl", "SesameTesting",
                .product(name: "NIOCore", package: nio), .product(name: "NIOPosix", package: nio),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["SesameClient", "SesameLocalAPI", "SesameEmulator", "SesameTesting"],
            swiftSettings: strict
        ),
    ]
)
