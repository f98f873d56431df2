import SesameCore
import SesameLocalAPI

extension LocalAPICall {
    /// The parameters of the methods of PROTOCOL.md's "Second factors" and "Account security".
    static func decodeAccountSecurity(
        _ method: LocalAPIMethod, _ params: LocalAPIParams
    ) throws(LocalAPIError) -> LocalAPICall {
        switch method {
        case .completeSecondFactor:
            return .completeSecondFactor(
                challengeId: try params.string("challengeId"), code: try params.string("code"),
                factorId: try params.optionalString("factorId"))
        case .enrollTotp:
            return .enrollTotp(displayName: try params.optionalString("displayName"))
        case .confirmTotp:
            return .confirmTotp(enrollmentId: try params.string("enrollmentId"), code: try params.string("code"))
        case .unenrollFactor:
            return .unenrollFactor(factorId: try params.string("factorId"))
        case .reauthenticate:
            let password = try params.optionalString("password")
            let code = try params.optionalString("code")
            switch (password, code) {
            case (let password?, nil): return .reauthenticate(.password(password))
            case (nil, let code?): return .reauthenticate(.code(code))
            case (nil, nil): return .reauthenticate(nil)
            default: throw .invalidParams("Give either \"password\" or \"code\", not both.")
            }
        case .changePassword:
            return .changePassword(newPassword: try params.string("newPassword"))
        case .changeEmail:
            return .changeEmail(newEmail: try params.string("newEmail"))
        case .confirmPasswordReset:
            let newPassword = try params.string("newPassword")
            let proof = try signInProof(from: params)
            let email = try params.optionalString("email")
            if case .code = proof, email == nil {
                throw .invalidParams("A reset \"code\" needs the account's \"email\".")
            }
            return .confirmPasswordReset(proof: proof, email: email, newPassword: newPassword)
        default:
            throw .internalError
        }
    }
}
