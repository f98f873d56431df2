extension AccountStore {
    /// `accounts:update` (setAccountInfo), reference §4.6: by `idToken` or `oobCode`, or
    /// privileged by `localId`.
    func update(_ body: AuthRequestBody, privileged: Bool) throws(IdentityToolkitError) -> JSON {
        if body.has("provider") || body.has("upgradeToFederatedLogin") {
            throw .notImplemented("NOT_IMPLEMENTED : provider and upgradeToFederatedLogin are not supported")
        }
        let idToken = try body.nonEmpty("idToken")
        let oobCode = try body.nonEmpty("oobCode")
        let localId = try body.nonEmpty("localId")
        if !privileged {
            if idToken == nil && oobCode == nil { throw .invalid("INVALID_REQ_TYPE : Unsupported request parameters.") }
            if body.has("customAttributes") { throw .invalid("INSUFFICIENT_PERMISSION") }
        }
        let adminPath = privileged && idToken == nil && oobCode == nil
        if adminPath && localId == nil { throw .invalid("MISSING_LOCAL_ID") }
        if privileged, let attributes = try body.string("customAttributes") {
            try AccountStore.checkCustomAttributes(attributes)
        }

        if let oobCode, idToken == nil, !adminPath {
            let user = try applyActionCode(oobCode)
            var response: [String: JSON] = ["kind": "identitytoolkit#SetAccountInfoResponse", "localId": .string(user.localId)]
            response["email"] = user.email.map(JSON.string)
            response["emailVerified"] = user.emailVerified.map(JSON.bool)
            return .object(response)
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
            if body.has("disableUser") { throw .invalid("OPERATION_NOT_ALLOWED") }
        }

        let newEmail = try body.string("email")
        if let newEmail {
            if !AccountStore.isValidEmail(newEmail) { throw .invalid("INVALID_EMAIL") }
            if !config.allowDuplicateEmails, let owner = self.user(withEmail: newEmail), owner.localId != user.localId {
                throw .invalid("EMAIL_EXISTS")
            }
        }
        let newPassword = try body.string("password")
        if let newPassword { try checkPassword(newPassword) }
        var newPhone: String?
        if privileged, let phone = try body.nonEmpty("phoneNumber") {
            try checkPhoneNumber(phone, excluding: user.localId)
            newPhone = phone
        }
        var linkedProviders: [ProviderUserInfo] = []
        if privileged, let infos = try body.objectArray("linkProviderUserInfo") {
            for info in infos {
                guard let providerId = try info.nonEmpty("providerId") else { throw .invalid("MISSING_PROVIDER_ID") }
                guard let rawId = try info.nonEmpty("rawId") else { throw .invalid("MISSING_RAW_ID") }
                linkedProviders.append(
                    ProviderUserInfo(
                        providerId: providerId, rawId: rawId, federatedId: try info.string("federatedId") ?? rawId,
                        email: try info.string("email"), displayName: try info.string("displayName"),
                        photoUrl: try info.string("photoUrl"), screenName: try info.string("screenName")))
            }
        }

        var tokensDue = false
        if let newEmail, newEmail.lowercased() != user.email {
            let lowered = newEmail.lowercased()
            if let old = user.email, signInProvider != "anonymous" {
                if user.initialEmail == nil { user.initialEmail = old }
                _ = createOobRecord(
                    email: old, requestType: "RECOVER_EMAIL", mode: "recoverEmail", baseURL: "http://localhost",
                    continueUrl: nil, localId: user.localId)
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
        if let displayName = try body.string("displayName") { user.displayName = displayName }
        if let photoUrl = try body.string("photoUrl") { user.photoUrl = photoUrl }
        for attribute in try body.stringArray("deleteAttribute") ?? [] {
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
        for provider in try body.stringArray("deleteProvider") ?? [] {
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
            if let disabled = try body.bool("disableUser") { user.disabled = disabled }
            if let verified = try body.bool("emailVerified") { user.emailVerified = verified }
            if let attributes = try body.string("customAttributes") { user.customAttributes = attributes }
            if let validSince = try body.int("validSince") { user.validSince = validSince }
            if let createdAt = try body.int("createdAt") { user.createdAt = createdAt }
            if let lastLoginAt = try body.int("lastLoginAt") { user.lastLoginAt = lastLoginAt }
            if let newPhone { user.phoneNumber = newPhone }
            for info in linkedProviders {
                user.federatedProviders.removeAll { $0.providerId == info.providerId }
                user.federatedProviders.append(info)
            }
        }
        users[user.localId] = user

        var response: [String: JSON] = ["kind": "identitytoolkit#SetAccountInfoResponse", "localId": .string(user.localId)]
        response["email"] = user.email.map(JSON.string)
        response["emailVerified"] = user.emailVerified.map(JSON.bool)
        response["displayName"] = user.displayName.map(JSON.string)
        response["photoUrl"] = user.photoUrl.map(JSON.string)
        response["passwordHash"] = user.passwordHash.map(JSON.string)
        let providers = user.providerUserInfo
        if !providers.isEmpty {
            response["providerUserInfo"] = .array(
                providers.map { p in
                    var o: [String: JSON] = ["providerId": .string(p.providerId)]
                    o["federatedId"] = p.federatedId.map(JSON.string)
                    o["rawId"] = .string(p.rawId)
                    o["email"] = p.email.map(JSON.string)
                    o["displayName"] = p.displayName.map(JSON.string)
                    o["photoUrl"] = p.photoUrl.map(JSON.string)
                    o["phoneNumber"] = p.phoneNumber.map(JSON.string)
                    return .object(o)
                })
        }
        if tokensDue, let signInProvider {
            response.merge(issueTokens(for: &user, signInProvider: signInProvider)) { _, new in new }
        }
        return .object(response)
    }
}
