import Foundation
import SesameCore

/// The checks every ``RemoteAuthProvider`` must pass, whatever the backend: the behaviour the
/// session service relies on (uids kept by links, the error reasons it branches on, transient
/// failures that never end a session). Run them against each adapter with its emulator:
///
/// ```swift
/// @Test(arguments: ProviderConformanceCheck.allCases)
/// func conformance(_ check: ProviderConformanceCheck) async throws {
///     try await withBackend { try await ProviderConformance(backend: $0).run(check) }
/// }
/// ```
public struct ProviderConformance: Sendable {
    public let backend: any ProviderConformanceBackend

    public init(backend: any ProviderConformanceBackend) {
        self.backend = backend
    }

    var provider: any RemoteAuthProvider { backend.provider }

    /// Runs one check.
    /// - Throws: ``ProviderConformanceFailure`` when the provider does not conform, or the
    ///   provider's own error when a step that must succeed fails.
    public func run(_ check: ProviderConformanceCheck) async throws {
        switch check {
        case .backendName: try backendName()
        case .anonymousSignUp: try await anonymousSignUp()
        case .refreshKeepsUid: try await refreshKeepsUid()
        case .linkPasswordKeepsUid: try await linkPasswordKeepsUid()
        case .passwordSignIn: try await passwordSignIn()
        case .passwordResetOfUnknownAddress: try await passwordResetOfUnknownAddress()
        case .wrongPassword: try await wrongPassword()
        case .duplicateEmail: try await duplicateEmail()
        case .emailLinkSignIn: try await emailLinkSignIn()
        case .federatedSignIn: try await federatedSignIn()
        case .federatedLinkKeepsUid: try await federatedLinkKeepsUid()
        case .deleteAccount: try await deleteAccount()
        case .revokeSession: try await revokeSession()
        case .lookupOfAnAccount: try await lookupOfAnAccount()
        case .serverErrorIsTransient: try await serverErrorIsTransient()
        case .garbageIsTransient: try await garbageIsTransient()
        }
    }

    // MARK: Assertions

    func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ProviderConformanceFailure(message()) }
    }

    /// Runs `body`, which must fail with a ``RemoteAuthError`` that `matches`.
    func requireFailure<T>(
        _ what: String, _ body: () async throws(RemoteAuthError) -> T, matches: (RemoteAuthError) -> Bool
    ) async throws {
        do {
            _ = try await body()
        } catch {
            try require(matches(error), "\(what): unexpected \(error)")
            return
        }
        throw ProviderConformanceFailure("\(what): succeeded, but must fail")
    }

    /// The result of `body`, success or the provider's error.
    func outcome<T>(_ body: () async throws(RemoteAuthError) -> T) async -> Result<T, RemoteAuthError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// Whether `error` is a definitive rejection with `reason`.
    func isRejected(_ error: RemoteAuthError, _ reason: AuthError.Reason) -> Bool {
        if case .rejected(let authError) = error { return authError.reason == reason }
        return false
    }

    /// A fresh address per check, so checks may share a backend.
    func freshEmail(_ label: String) -> String {
        "\(label)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
    }
}

/// The checks of ``ProviderConformance``.
public enum ProviderConformanceCheck: String, Sendable, CaseIterable, CustomStringConvertible {
    case backendName
    case anonymousSignUp
    case refreshKeepsUid
    case linkPasswordKeepsUid
    case passwordSignIn
    case passwordResetOfUnknownAddress
    case wrongPassword
    case duplicateEmail
    case emailLinkSignIn
    case federatedSignIn
    case federatedLinkKeepsUid
    case deleteAccount
    case revokeSession
    case lookupOfAnAccount
    case serverErrorIsTransient
    case garbageIsTransient

    public var description: String { rawValue }
}
