import Foundation
import SesameCore
import SesameLocalAPI
import SesameService

extension SessionCalls {
    /// Runs the methods of PROTOCOL.md's "Second factors" and "Account security".
    func runAccountSecurity(_ call: LocalAPICall) async throws -> JSONValue {
        switch call {
        case .completeSecondFactor(let challengeId, let code, let factorId):
            let outcome = try await service.secondFactors.verify(
                challengeId: challengeId, code: code, factorId: factorId)
            return outcomeJSON(outcome)
        case .enrollTotp(let displayName):
            let enrollment = try await service.security.enrollTotp(displayName: displayName)
            return .object([
                "enrollmentId": .string(enrollment.enrollmentId), "secret": .string(enrollment.secret),
                "otpauthUri": .string(enrollment.otpauthUri),
                "expiresAt": .string(WireTime.string(enrollment.expiresAt + calendarOffset())),
            ])
        case .confirmTotp(let enrollmentId, let code):
            return (try await service.security.confirmTotp(enrollmentId: enrollmentId, code: code)).wire.json
        case .unenrollFactor(let factorId):
            return (try await service.security.unenrollFactor(factorId: factorId)).wire.json
        case .reauthenticate(let proof):
            let done = try await service.security.reauthenticate(proof)
            let validUntil = done.validUntil.map { $0 + calendarOffset() }
            var result: [String: JSONValue] = ["validUntil": WireTime.json(validUntil)]
            if done.codeSent { result["codeSent"] = .bool(true) }
            return .object(result)
        case .changePassword(let newPassword):
            try await service.security.changePassword(newPassword: newPassword)
            return .object([:])
        case .changeEmail(let newEmail):
            return .object(["pendingEmail": .string(try await service.accounts.changeEmail(newEmail: newEmail))])
        case .confirmPasswordReset(let proof, let email, let newPassword, let replacing):
            let account = try await service.security.confirmPasswordReset(
                proof, email: email, newPassword: newPassword, replacingChallenge: replacing)
            return .object(["email": .string(account)])
        default:
            throw LocalAPIError.internalError
        }
    }
}
