extension AccountStore {
    /// `accounts:signUp` (and, privileged, `projects/{p}/accounts`): anonymous, email+password,
    /// or linking email+password to the `idToken`'s user. Reference §4.1.
    func signUp(_ body: AuthRequestBody, privileged: Bool) throws(IdentityToolkitError) -> JSON {
        if !privileged && body.has("localId") { throw .invalid("UNEXPECTED_PARAMETER : User ID") }
        let rawEmail = try body.string("email")
        let email = try body.nonEmpty("email")
        let password = try body.nonEmpty("password")
        let idToken = try body.nonEmpty("idToken")
        let displayName = try body.string("displayName")
        let passwordMode = email != nil || password != nil || idToken != nil
        if passwordMode && !privileged {
            if email == nil { throw .invalid("MISSING_EMAIL") }
            if password == nil { throw .invalid("MISSING_PASSWORD") }
        }
        if let rawEmail, !AccountStore.isValidEmail(rawEmail) { throw .invalid("INVALID_EMAIL") }
        if let email, !config.allowDuplicateEmails, user(withEmail: email) != nil { throw .invalid("EMAIL_EXISTS") }
        if let password { try checkPassword(password) }

        var phoneNumber: String?
        var localId: String?
        if privileged {
            localId = try body.nonEmpty("localId")
            if let localId, users[localId] != nil { throw .invalid("DUPLICATE_LOCAL_ID") }
            phoneNumber = try body.nonEmpty("phoneNumber")
            if let phoneNumber { try checkPhoneNumber(phoneNumber, excluding: nil) }
        }

        var user: UserRecord
        if let idToken {
            user = try verifyIdToken(idToken).user
            user.displayName = displayName
            user.emailVerified = false
        } else {
            user = newUser(localId: localId)
        }
        if let email {
            user.email = email.lowercased()
            if user.emailVerified == nil { user.emailVerified = false }
        }
        if passwordMode && idToken == nil && !privileged { user.displayName = displayName }
        if let password { setPassword(password, on: &user) }
        user.lastLoginAt = nowMilliseconds

        var response: [String: JSON] = ["kind": "identitytoolkit#SignupNewUserResponse"]
        if privileged {
            user.displayName = displayName ?? user.displayName
            user.photoUrl = try body.string("photoUrl")
            if let verified = try body.bool("emailVerified") { user.emailVerified = verified }
            if let disabled = try body.bool("disabled") { user.disabled = disabled }
            user.phoneNumber = phoneNumber
            if !passwordMode && phoneNumber == nil { user.lastLoginAt = nil }
            users[user.localId] = user
        } else {
            let provider = passwordMode ? "password" : "anonymous"
            response.merge(issueTokens(for: &user, signInProvider: provider)) { _, new in new }
        }
        response["localId"] = .string(user.localId)
        response["email"] = user.email.map(JSON.string)
        response["displayName"] = user.displayName.map(JSON.string)
        return .object(response)
    }
}
