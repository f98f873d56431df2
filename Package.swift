// swift-tools-version:6.2
import PackageDescription

/// Every target is compiled in the Swift 6 language mode with strict concurrency, and with the
/// upcoming features that make imports and existentials explicit (see docs/CONTRIBUTING.md).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// The products targets use, named once.
let nio = "swift-nio"
let lifecycle = "swift-service-lifecycle"
let nioCore: Target.Dependency = .product(name: "NIOCore", package: nio)
let nioPosix: Target.Dependency = .product(name: "NIOPosix", package: nio)
let nioHTTP1: Target.Dependency = .product(name: "NIOHTTP1", package: nio)
let nioLocks: Target.Dependency = .product(name: "NIOConcurrencyHelpers", package: nio)
let nioExtras: Target.Dependency = .product(name: "NIOExtras", package: "swift-nio-extras")
let httpClient: Target.Dependency = .product(name: "AsyncHTTPClient", package: "async-http-client")
let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
// _CryptoExtras: RSA for the emulator's `--supabase-signing-key rs256`.
let cryptoExtras: Target.Dependency = .product(name: "_CryptoExtras", package: "swift-crypto")
let arguments: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: lifecycle)
let unixSignals: Target.Dependency = .product(name: "UnixSignals", package: lifecycle)
let toml: Target.Dependency = .product(name: "TOMLKit", package: "TOMLKit")
let prometheus: Target.Dependency = .product(name: "Prometheus", package: "swift-prometheus")

func library(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: strict)
}
func executable(_ name: String, _ dependencies: [Target.Dependency], path: String? = nil) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: path, swiftSettings: strict)
}
func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, swiftSettings: strict)
}

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
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Tests only: child processes (Foundation's Process.run() can crash a runner with many descriptors).
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
    ],
    targets: [
        // Domain: values, the session state machine, ports, errors. No I/O.
        library("SesameCore"),
        // The wire contract of docs/protocol.md. Imports no domain code, only SesameCore's encodings.
        library("SesameLocalAPI", ["SesameCore"]),
        // The one actor that owns the session, and its background work as a ServiceLifecycle service.
        library("SesameService", ["SesameCore", logging, serviceLifecycle]),
        // One HTTP transport for every backend adapter: AsyncHTTPClient, timeouts, JSON,
        // Retry-After. Imports no domain code.
        library("SesameHTTP", ["SesameCore", httpClient, logging, nioCore, nioHTTP1]),
        // Adapter: Firebase Auth REST + RTDB username directory.
        library("SesameFirebase", ["SesameCore", "SesameHTTP", httpClient, nioCore, nioHTTP1, logging]),
        // Adapter: Supabase Auth (GoTrue) + PostgREST username directory.
        library("SesameSupabase", ["SesameCore", "SesameHTTP", crypto, nioCore, nioHTTP1, logging]),
        // Adapter: the identity providers' RFC 8628 device flow endpoints ([oauth.<providerId>]).
        library("SesameOAuth", ["SesameCore", "SesameHTTP", logging, nioHTTP1]),
        // Adapter: the encrypted keyring file.
        library("SesameKeyring", ["SesameCore", crypto, logging]),
        // Adapter: the Unix-socket server.
        library(
            "SesameSocketServer",
            ["SesameCore", "SesameService", "SesameLocalAPI", nioCore, nioPosix, nioLocks, logging, serviceLifecycle]),
        // Adapter: systemd (notify, socket activation, journald).
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // QR codes for sesamectl's sign-in prompts (libqrencode, as a system library).
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        library("SesameSystemd", ["CSystemd", logging]),
        // The client library for apps.
        library("SesameClient", ["SesameCore", "SesameLocalAPI", nioCore, nioPosix, nioExtras]),
        // The Firebase Auth Emulator-compatible backend, as a library. CQRencode: the SVG QR code
        // of a GoTrue TOTP enrolment; SesameKeyring: its durable file replacement for --data-dir.
        library(
            "SesameEmulator",
            [
                "CQRencode", "SesameCore", "SesameLocalAPI", "SesameKeyring",
                .product(name: "Hummingbird", package: "hummingbird"),
                crypto, cryptoExtras, nioCore, nioPosix, logging, serviceLifecycle, unixSignals,
            ]),
        // Test kit shared by the test targets: fakes for pure domain tests, and the one harness of
        // built binaries, child processes (the emulator's among them), raw socket clients and
        // `eventually`. Never the emulator library: pure domain tests use this target.
        library(
            "SesameTesting",
            [
                // CSystemd: a fake logind on a test's own D-Bus (FakeLogind).
                "CSystemd", "SesameCore", "SesameHTTP", "SesameLocalAPI", httpClient, logging, nioCore, nioHTTP1,
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        // The in-process emulator as every test target starts it, with a clock moved by hand.
        library("SesameEmulatorTesting", ["SesameEmulator"]),

        // Executables: composition and arguments only.
        executable(
            "sesamed",
            [
                "SesameCore", "SesameService", "SesameFirebase", "SesameSupabase", "SesameOAuth", "SesameHTTP",
                "SesameKeyring", "SesameSocketServer", "SesameSystemd", "SesameLocalAPI",
                arguments, toml, logging, serviceLifecycle, nioPosix, nioLocks, unixSignals, prometheus,
            ]),
        // libFuzzer target for the request decoder (scripts/fuzz.sh); inert in normal builds.
        executable("FuzzLocalAPI", ["SesameLocalAPI"]),
        // NIO: the loopback listener of `sign-in --browser` (RFC 8252).
        executable(
            "sesamectl",
            [
                "CQRencode", "SesameClient", "SesameCore", "SesameLocalAPI", arguments, toml, nioCore, nioPosix,
                nioHTTP1,
            ]),
        executable("sesame-emulator", ["SesameEmulator", arguments, logging, serviceLifecycle, unixSignals]),
        executable("sesame-example-migrator", ["SesameClient"], path: "Examples/Migrator"),
        // `make bench`'s SwiftNIO floor: a line answered by one NIO handler and nothing else.
        executable("sesame-nio-echo", [nioCore, nioPosix]),
        executable("sesame-emulator-bench", ["SesameEmulator", httpClient, arguments, nioCore, nioHTTP1]),

        tests("SesameCoreTests", ["SesameCore", "SesameTesting"]),
        tests("SesameLocalAPITests", ["SesameLocalAPI"]),
        tests("SesameKeyringTests", ["SesameKeyring", "SesameCore", "SesameTesting", crypto]),
        // Crypto: checks the emulator's access tokens against its JWK set, as a relying party.
        tests(
            "SesameEmulatorTests",
            [
                "SesameEmulator", "SesameEmulatorTesting", "SesameTesting", "SesameCore", "SesameLocalAPI",
                httpClient, crypto, cryptoExtras, nioCore, nioPosix, nioHTTP1,
            ]),
        tests(
            "SesameFirebaseTests",
            [
                "SesameFirebase", "SesameHTTP", "SesameCore", "SesameLocalAPI", "SesameEmulator",
                "SesameEmulatorTesting", "SesameTesting",
            ]),
        tests(
            "SesameHTTPTests",
            ["SesameHTTP", "SesameEmulator", "SesameCore", "SesameTesting", nioCore, nioHTTP1, logging]),
        tests(
            "SesameSupabaseTests", ["SesameSupabase", "SesameHTTP", "SesameCore", "SesameTesting", nioCore, nioHTTP1]),
        // sesamed's configuration and composition, with `@testable import sesamed`.
        tests("SesamedTests", ["sesamed", "SesameOAuth", "SesameCore", "SesameTesting"]),
        tests(
            "SesameOAuthTests",
            ["SesameOAuth", "SesameHTTP", "SesameCore", "SesameTesting", logging, nioCore, nioHTTP1]),
        // The RemoteAuthProvider conformance suite (SesameTesting) run against both adapters,
        // each with its emulator.
        tests(
            "ProviderConformanceTests",
            [
                "SesameTesting", "SesameCore", "SesameHTTP", "SesameFirebase", "SesameSupabase", "SesameOAuth",
                "SesameEmulator", "SesameEmulatorTesting", "SesameLocalAPI", httpClient, nioCore, nioHTTP1,
            ]),
        tests("SesameServiceTests", ["SesameService", "SesameCore", "SesameTesting"]),
        tests("SesameSystemdTests", ["SesameSystemd", "SesameTesting"]),
        tests(
            "SesameSocketServerTests",
            [
                "SesameSocketServer", "SesameService", "SesameCore", "SesameLocalAPI", "SesameTesting",
                nioCore, nioPosix, .product(name: "NIOEmbedded", package: nio), nioLocks, nioExtras, logging,
            ]),
        // sesamectl too, so its pure output functions (status, errors, exit statuses) are
        // unit-tested with `@testable import sesamectl`.
        tests(
            "SesameClientTests",
            ["SesameClient", "SesameCore", "SesameLocalAPI", "sesamectl", "SesameTesting", nioCore, nioPosix]),
        tests("EndToEndTests", ["SesameClient", "SesameLocalAPI", "SesameEmulator", "SesameTesting"]),
    ]
)
