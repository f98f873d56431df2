import Foundation
import SesameCore
import SesameLocalAPI

/// One enrolled TOTP second factor of an account (`mfaInfo` entry). The shared secret stays in
/// the emulator: `accounts:lookup` shows `totpInfo: {}` as Identity Platform does; only the
/// emulator's own export files keep it, so that a data directory survives a restart.
struct MfaEnrollmentRecord: Sendable, Equatable {
    var mfaEnrollmentId: String
    var displayName: String?
    /// Milliseconds since 1970.
    var enrolledAt: Int
    /// The shared secret, base32.
    var secret: String

    /// The `mfaInfo` entry: `{mfaEnrollmentId, displayName, enrolledAt (RFC 3339), totpInfo}`.
    func json(revealingSecret: Bool) -> JSONValue {
        var entry: [String: JSONValue] = [
            "mfaEnrollmentId": .string(mfaEnrollmentId),
            "enrolledAt": .string(RFC3339.format(milliseconds: enrolledAt)),
            "totpInfo": revealingSecret ? ["sharedSecretKey": .string(secret)] : .object([:]),
        ]
        if let displayName { entry["displayName"] = .string(displayName) }
        return .object(entry)
    }
}

extension MfaEnrollmentRecord {
    /// Reads an entry of an export file; nil for a factor that is not TOTP or has no secret.
    init?(exportJSON j: JSONValue) {
        guard let id = j["mfaEnrollmentId"]?.stringValue, let secret = j["totpInfo"]?["sharedSecretKey"]?.stringValue
        else { return nil }
        let enrolled = j["enrolledAt"]?.stringValue.flatMap(RFC3339.parse).map { Int($0.timeIntervalSince1970 * 1000) }
        self.init(
            mfaEnrollmentId: id, displayName: j["displayName"]?.stringValue, enrolledAt: enrolled ?? 0, secret: secret)
    }
}

/// A TOTP enrolment started by `mfaEnrollment:start` and not finalized yet.
struct PendingTotpEnrollment: Sendable, Equatable {
    var localId: String
    var secret: String
    /// Milliseconds since 1970 after which `mfaEnrollment:finalize` refuses it.
    var expiresAt: Int
}

/// A first factor accepted for an account with a second factor (`mfaPendingCredential`).
struct PendingSecondFactorSignIn: Sendable, Equatable {
    var localId: String
    var signInProvider: String
    var extraClaims: [String: JSONValue]
    /// Milliseconds since 1970 after which `mfaSignIn:finalize` refuses it.
    var expiresAt: Int
    /// Wrong codes `mfaSignIn:finalize` was given for it.
    var wrongCodes = 0
}

/// `firebase.sign_in_second_factor` and `firebase.second_factor_identifier` of a token issued
/// after a second factor.
struct SecondFactorClaim: Sendable, Equatable, Codable {
    var identifier: String
    var provider: String
}

/// The Auth port's second-factor sessions: TOTP enrolments started and not finalized, and
/// first factors waiting for their second.
struct SecondFactorSessions: Sendable {
    /// By `sessionInfo`.
    var enrollments: [String: PendingTotpEnrollment] = [:]
    /// By `mfaPendingCredential`.
    var signIns: [String: PendingSecondFactorSignIn] = [:]
}
