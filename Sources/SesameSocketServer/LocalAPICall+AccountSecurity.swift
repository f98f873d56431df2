import SesameCore
import SesameLocalAPI

extension LocalAPICall {
    /// `reauthenticate`'s proof: the password or a mailed code. Nil: ask the backend to mail a
    /// one-time code (where it sends them).
    static func reauthenticationProof(from params: LocalAPIParams) throws(LocalAPIError) -> ReauthenticationProof? {
        let password = try params.optionalString("password")
        let code = try params.optionalString("code")
        switch (password, code) {
        case (let password?, nil): return .password(password)
        case (nil, let code?): return .code(code)
        case (nil, nil): return nil
        default: throw .invalidParams("Give either \"password\" or \"code\", not both.")
        }
    }

    /// `confirmPasswordReset`: the link, or a code with the account's email. `replacingChallenge`
    /// (the caller may replace an open second-factor challenge) is set by the dispatcher from
    /// the role, never from the params.
    static func passwordReset(from params: LocalAPIParams) throws(LocalAPIError) -> LocalAPICall {
        let newPassword = try params.string("newPassword")
        let proof = try signInProof(from: params)
        let email = try params.optionalString("email")
        if case .code = proof, email == nil {
            throw .invalidParams("A reset \"code\" needs the account's \"email\".")
        }
        return .confirmPasswordReset(proof: proof, email: email, newPassword: newPassword)
    }
}
