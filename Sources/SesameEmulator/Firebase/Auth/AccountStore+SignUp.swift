extension AccountStore {
    /// `accounts:signUp` (and, privileged, `projects/{p}/accounts`): anonymous, email+password,
    /// or linking email+password to the `idToken`'s user. Reference §4.1.
    func signUp(_ body: SignUpRequest, privileged: Bool) throws(IdentityToolkitError) -> WithTokens<SignUpResponse> {
        if !privileged && body.localId != nil { throw .invalid("UNEXPECTED_PARAMETER : User ID") }
        let email = body.email.nonEmpty
        let password = body.password.nonEmpty
        let idToken = body.idToken.nonEmpty
        let passwordMode = email != nil || password != nil || idToken != nil
        if passwordMode && !privileged {
            if email == nil { throw .invalid("MISSING_EMAIL") }
            if password == nil { throw .invalid("MISSING_PASSWORD") }
        }
        if let rawEmail = body.email, !AccountStore.isValidEmail(rawEmail) { throw .invalid("INVALID_EMAIL") }
        if let email, !config.allowDuplicateEmails, user(withEmail: email) != nil { throw .invalid("EMAIL_EXISTS") }
        if let password { try checkPassword(password) }

        var phoneNumber: String?
        var localId: String?
        if privileged {
            localId = body.localId.nonEmpty
            if let localId, users[localId] != nil { throw .invalid("DUPLICATE_LOCAL_ID") }
            phoneNumber = body.phoneNumber.nonEmpty
            if let phoneNumber { try checkPhoneNumber(phoneNumber, excluding: nil) }
        }

        var user: UserRecord
        if let idToken {
            user = try verifyIdToken(idToken).user
            user.displayName = body.displayName
            user.emailVerified = false
        } else {
            user = newUser(localId: localId)
        }
        if let email {
            user.email = email.lowercased()
            if user.emailVerified == nil { user.emailVerified = false }
        }
        if passwordMode && idToken == nil && !privileged { user.displayName = body.displayName }
        if let password { setPassword(password, on: &user) }
        user.lastLoginAt = nowMilliseconds

        var tokens: IssuedTokens?
        if privileged {
            user.displayName = body.displayName ?? user.displayName
            user.photoUrl = body.photoUrl
            if let verified = body.emailVerified { user.emailVerified = verified }
            if let disabled = body.disabled { user.disabled = disabled }
            user.phoneNumber = phoneNumber
            if !passwordMode && phoneNumber == nil { user.lastLoginAt = nil }
            users[user.localId] = user
        } else {
            let provider = passwordMode ? "password" : "anonymous"
            tokens = issueTokens(for: &user, signInProvider: provider)
        }
        return WithTokens(
            answer: SignUpResponse(localId: user.localId, email: user.email, displayName: user.displayName),
            tokens: tokens)
    }
}
