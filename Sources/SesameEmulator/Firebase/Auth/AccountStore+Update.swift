extension AccountStore {
    /// `accounts:update` (setAccountInfo), reference §4.6: by `idToken` or `oobCode`, or
    /// privileged by `localId`.
    func update(
        _ body: UpdateRequest, privileged: Bool
    ) throws(IdentityToolkitError) -> WithTokens<SetAccountInfoResponse> {
        if body.provider != nil || body.upgradeToFederatedLogin != nil {
            throw .notImplemented("NOT_IMPLEMENTED : provider and upgradeToFederatedLogin are not supported")
        }
        let idToken = body.idToken.nonEmpty
        let oobCode = body.oobCode.nonEmpty
        let localId = body.localId.nonEmpty
        if !privileged {
            if idToken == nil && oobCode == nil { throw .invalid("INVALID_REQ_TYPE : Unsupported request parameters.") }
            if body.customAttributes != nil { throw .invalid("INSUFFICIENT_PERMISSION") }
        }
        let adminPath = privileged && idToken == nil && oobCode == nil
        if adminPath && localId == nil { throw .invalid("MISSING_LOCAL_ID") }
        if privileged, let attributes = body.customAttributes { try Self.checkCustomAttributes(attributes) }

        if let oobCode, idToken == nil, !adminPath {
            let user = try applyActionCode(oobCode)
            return WithTokens(
                answer: SetAccountInfoResponse(
                    localId: user.localId, email: user.email, emailVerified: user.emailVerified))
        }

        var user: UserRecord
        var signInProvider: String?
        if adminPath {
            guard let found = users[localId!] else { throw .invalid("USER_NOT_FOUND") }
            user = found
        } else {
            let verified = try verifyIdToken(idToken!)
            user = verified.user
            signInProvider = verified.signInProvider
            if body.disableUser != nil { throw .invalid("OPERATION_NOT_ALLOWED") }
            if body.password != nil || body.email != nil { try checkRecentLogin(verified.payload) }
        }

        let newEmail = body.email
        if let newEmail {
            if !AccountStore.isValidEmail(newEmail) { throw .invalid("INVALID_EMAIL") }
            if !config.allowDuplicateEmails, let owner = self.user(withEmail: newEmail), owner.localId != user.localId {
                throw .invalid("EMAIL_EXISTS")
            }
        }
        let newPassword = body.password
        if let newPassword { try checkPassword(newPassword) }
        let newPhone = privileged ? body.phoneNumber.nonEmpty : nil
        if let newPhone { try checkPhoneNumber(newPhone, excluding: user.localId) }
        var linkedProviders: [ProviderUserInfo] = []
        for info in privileged ? body.linkProviderUserInfo ?? [] : [] {
            guard let providerId = info.providerId.nonEmpty else { throw .invalid("MISSING_PROVIDER_ID") }
            guard let rawId = info.rawId.nonEmpty else { throw .invalid("MISSING_RAW_ID") }
            linkedProviders.append(
                ProviderUserInfo(
                    providerId: providerId, rawId: rawId, federatedId: info.federatedId ?? rawId, email: info.email,
                    displayName: info.displayName, photoUrl: info.photoUrl, screenName: info.screenName))
        }

        var tokensDue = false
        if let newEmail, newEmail.lowercased() != user.email {
            let lowered = newEmail.lowercased()
            if let old = user.email, signInProvider != "anonymous" {
                if user.initialEmail == nil { user.initialEmail = old }
                _ = createOobRecord(
                    email: old, requestType: "RECOVER_EMAIL", baseURL: "http://localhost", continueUrl: nil,
                    localId: user.localId)
            }
            user.email = lowered
            user.emailVerified = false
            user.validSince = nowSeconds
            tokensDue = true
        }
        if let newPassword {
            setPassword(newPassword, on: &user)
            signInProvider = "password"
            tokensDue = true
        }
        if let displayName = body.displayName { user.displayName = displayName }
        if let photoUrl = body.photoUrl { user.photoUrl = photoUrl }
        for attribute in body.deleteAttribute ?? [] {
            switch attribute {
            case "DISPLAY_NAME": user.displayName = nil
            case "PHOTO_URL": user.photoUrl = nil
            case "PASSWORD":
                user.password = nil
                user.salt = nil
            case "EMAIL":
                user.email = nil
                user.emailVerified = nil
            default: break
            }
        }
        for provider in body.deleteProvider ?? [] {
            switch provider {
            case "password":
                user.email = nil
                user.emailVerified = nil
                user.emailLinkSignin = false
                user.password = nil
                user.salt = nil
                user.passwordUpdatedAt = nil
            case "phone":
                user.phoneNumber = nil
            default:
                user.federatedProviders.removeAll { $0.providerId == provider }
            }
        }
        if privileged {
            if let disabled = body.disableUser { user.disabled = disabled }
            if let verified = body.emailVerified { user.emailVerified = verified }
            if let attributes = body.customAttributes { user.customAttributes = attributes }
            if let validSince = body.validSince { user.validSince = validSince }
            if let createdAt = body.createdAt { user.createdAt = createdAt }
            if let lastLoginAt = body.lastLoginAt { user.lastLoginAt = lastLoginAt }
            if let newPhone { user.phoneNumber = newPhone }
            for info in linkedProviders {
                user.federatedProviders.removeAll { $0.providerId == info.providerId }
                user.federatedProviders.append(info)
            }
        }
        users[user.localId] = user

        let providers = user.providerUserInfo
        let response = SetAccountInfoResponse(
            localId: user.localId, email: user.email, emailVerified: user.emailVerified, displayName: user.displayName,
            photoUrl: user.photoUrl, passwordHash: user.passwordHash,
            // setAccountInfo echoes a requested email, as the account now holds it (lower-cased).
            newEmail: newEmail?.lowercased(), providerUserInfo: providers.isEmpty ? nil : providers)
        guard tokensDue, let signInProvider else { return WithTokens(answer: response) }
        return WithTokens(answer: response, tokens: issueTokens(for: &user, signInProvider: signInProvider))
    }
}
