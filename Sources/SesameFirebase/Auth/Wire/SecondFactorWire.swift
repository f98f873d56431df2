import SesameCore

/// One `mfaInfo` entry (Identity Platform `MfaEnrollment`): in lookups and in the answer of a
/// sign-in that needs a second factor. Only the factor's kind is read from `totpInfo` /
/// `phoneInfo`, never its details.
struct MfaEnrollmentWire: Decodable, Sendable {
    var mfaEnrollmentId: String?
    var displayName: String?
    /// RFC 3339.
    var enrolledAt: String?
    var totpInfo: Presence?
    var phoneInfo: String?

    /// The domain's view; nil for an entry without an id.
    var factor: SecondFactor? {
        guard let id = mfaEnrollmentId, !id.isEmpty else { return nil }
        let type = totpInfo != nil ? "totp" : phoneInfo != nil ? "phone" : "unknown"
        return SecondFactor(
            factorId: id, type: type, displayName: displayName.flatMap { $0.isEmpty ? nil : $0 },
            enrolledAt: enrolledAt.flatMap(RFC3339.parse))
    }
}

/// Any JSON value whose content is not read (an object such as `totpInfo: {}`).
struct Presence: Decodable, Sendable {
    init(from decoder: any Decoder) throws {}
}

/// A sign-in answer (`signInWithPassword`, `signInWithEmailLink`, `signInWithIdp`,
/// `signInWithCustomToken`): either the answer itself, or — for an account with a second
/// factor — `mfaPendingCredential` and `mfaInfo` instead of tokens.
struct FirstFactorAnswer<Answer: Decodable & Sendable>: Decodable, Sendable {
    struct Pending: Decodable, Sendable {
        var mfaPendingCredential: String
        var mfaInfo: [MfaEnrollmentWire]?
        var localId: String?
        var email: String?
    }

    enum Outcome: Sendable {
        case answered(Answer)
        case needsSecondFactor(Pending)
    }

    var outcome: Outcome

    private enum Keys: String, CodingKey { case mfaPendingCredential }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if let credential = try? container.decodeIfPresent(String.self, forKey: .mfaPendingCredential),
            !credential.isEmpty
        {
            outcome = .needsSecondFactor(try Pending(from: decoder))
        } else {
            outcome = .answered(try Answer(from: decoder))
        }
    }

    /// The answer, or ``RemoteAuthError/secondFactorRequired(_:)`` with the pending sign-in.
    func answer() throws(RemoteAuthError) -> Answer {
        switch outcome {
        case .answered(let answer): return answer
        case .needsSecondFactor(let pending): throw .secondFactorRequired(pending.secondFactor)
        }
    }
}

extension FirstFactorAnswer.Pending {
    /// The pending sign-in as the domain holds it. Identity Platform does not say how long the
    /// credential lasts, so `expiresAt` is nil (the daemon applies its own limit).
    var secondFactor: PendingSecondFactor {
        PendingSecondFactor(
            uid: localId.flatMap { $0.isEmpty ? nil : $0 }, email: email.flatMap { $0.isEmpty ? nil : $0 },
            factors: (mfaInfo ?? []).compactMap(\.factor), credential: mfaPendingCredential)
    }
}

/// `v2/accounts/mfaEnrollment:start {idToken, totpEnrollmentInfo: {}}`.
struct StartTotpEnrollmentRequest: Encodable, Sendable {
    struct Info: Encodable, Sendable {}
    var idToken: String
    var totpEnrollmentInfo = Info()
}

struct StartTotpEnrollmentResponse: Decodable, Sendable {
    struct SessionInfo: Decodable, Sendable {
        var sharedSecretKey: String
        var verificationCodeLength: Int?
        var hashingAlgorithm: String?
        var periodSec: Int?
        var sessionInfo: String
        var finalizeEnrollmentTime: String?
    }

    var totpSessionInfo: SessionInfo
}

/// `v2/accounts/mfaEnrollment:finalize {idToken, displayName, totpVerificationInfo}`.
struct FinalizeTotpEnrollmentRequest: Encodable, Sendable {
    struct Verification: Encodable, Sendable {
        var sessionInfo: String
        var verificationCode: String
    }

    var idToken: String
    var displayName: String?
    var totpVerificationInfo: Verification
}

/// `v2/accounts/mfaEnrollment:withdraw {idToken, mfaEnrollmentId}`.
struct WithdrawSecondFactorRequest: Encodable, Sendable {
    var idToken: String
    var mfaEnrollmentId: String
}

/// `v2/accounts/mfaSignIn:finalize {mfaPendingCredential, mfaEnrollmentId, totpVerificationInfo}`.
struct FinalizeTotpSignInRequest: Encodable, Sendable {
    struct Verification: Encodable, Sendable {
        var verificationCode: String
    }

    var mfaPendingCredential: String
    var mfaEnrollmentId: String
    var totpVerificationInfo: Verification
}

/// The answer of the v2 multi-factor operations that issue tokens: `{idToken, refreshToken}`,
/// without `expiresIn` (the lifetime is read from the token).
struct SecondFactorTokensResponse: Decodable, Sendable {
    var idToken: String?
    var refreshToken: String?
}

/// `accounts:resetPassword {oobCode, newPassword}` → `{email, requestType}`.
struct ResetPasswordRequest: Encodable, Sendable {
    var oobCode: String
    var newPassword: String
}

struct ResetPasswordResponse: Decodable, Sendable {
    var email: String?
    var requestType: String?
}
