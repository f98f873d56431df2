import Foundation
import SesameCore

/// The account-security secrets that live in the daemon's memory only (PROTOCOL.md, "Account
/// security"): the TOTP enrolments started and not yet confirmed, and the reauthentication code
/// held for the next password change.
///
/// A field of ``SessionFeatures`` that the account-security feature alone uses. Nothing here
/// reaches the keyring, a state, an event, a log line or an error. A restart drops it.
struct AccountSecrets {
    /// A started TOTP enrolment.
    struct Enrollment {
        let uid: String
        let start: TotpEnrollmentStart
        let displayName: String?
        let expiresAt: Date
    }

    /// A reauthentication code given to `reauthenticate {code}`, for the next password change.
    struct HeldCode {
        let uid: String
        let code: String
        let validUntil: Date
    }

    /// The daemon's own limit on an enrolment that is not confirmed.
    static let enrollmentLifetime: TimeInterval = 600

    private var enrollments: [String: Enrollment] = [:]
    var heldCode: HeldCode?

    /// Drops everything (shutdown).
    mutating func abandon() {
        enrollments = [:]
        heldCode = nil
    }

    // MARK: Enrolments

    /// Keeps a started enrolment under a new daemon id, dropping the expired ones.
    mutating func addEnrollment(_ enrollment: Enrollment, now: Date) -> String {
        enrollments = enrollments.filter { $0.value.expiresAt > now }
        let id = UUID().uuidString.lowercased()
        enrollments[id] = enrollment
        return id
    }

    /// The pending enrolment `id` of `uid`; nil when there is none (never started, confirmed,
    /// expired, or another account's).
    mutating func enrollment(_ id: String, of uid: String, now: Date) -> Enrollment? {
        guard let enrollment = enrollments[id], enrollment.uid == uid else { return nil }
        guard enrollment.expiresAt > now else {
            enrollments[id] = nil
            return nil
        }
        return enrollment
    }

    mutating func removeEnrollment(_ id: String) { enrollments[id] = nil }

    // MARK: Reauthentication code

    /// Takes the held code of `uid` (it is used once), if still valid.
    mutating func takeCode(of uid: String, now: Date) -> String? {
        guard let held = heldCode else { return nil }
        heldCode = nil
        guard held.uid == uid, held.validUntil > now else { return nil }
        return held.code
    }
}
