import SesameLocalAPI

extension AccountStore {
    /// What a fake IdP credential says about the IdP account: the provider entry it gives the
    /// account (email lower-cased), whether the IdP verified the email, and the IdP fields of the
    /// `signInWithIdp` response.
    typealias IdpAccount = (info: ProviderUserInfo, emailVerified: Bool, response: [String: JSONValue])

    /// Reads the fake IdP credential in `requestUri` + `postBody` (reference §4.5), or takes the
    /// one the fake identity provider resolved (``ResolvedIdpCredential``).
    func parseIdpCredential(
        _ body: SignInWithIdpRequest, resolved: ResolvedIdpCredential? = nil
    ) throws(IdentityToolkitError) -> IdpAccount {
        let credential: ResolvedIdpCredential
        if let resolved {
            credential = resolved
        } else {
            let params = try Self.idpParameters(body)
            guard let id = params["providerId"], !id.isEmpty else {
                throw .invalid(
                    "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: \(body.requestUri ?? "")?\(body.postBody ?? "")"
                )
            }
            let idToken = params["id_token"].nonEmpty
            let accessToken = params["access_token"].nonEmpty
            credential = ResolvedIdpCredential(
                providerId: id, claims: try Self.fakeClaims(idToken: idToken, accessToken: accessToken),
                idToken: idToken, accessToken: accessToken ?? "FirebaseAuthEmulatorFakeAccessToken_\(id)")
        }
        let (providerId, claims) = (credential.providerId, credential.claims)
        guard let subValue = claims["sub"], !subValue.isNull else {
            throw .invalid(
                "INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields. ((Missing \"sub\" field. This field is required and should be a unique identifier.))"
            )
        }
        guard let sub = subValue.stringValue else {
            throw .invalid("INVALID_IDP_RESPONSE : ((The \"sub\" field must be a string.))")
        }
        let email = claims["email"]?.stringValue
        var response: [String: JSONValue] = [
            "kind": "identitytoolkit#VerifyAssertionResponse", "context": "", "providerId": .string(providerId),
            "oauthAccessToken": .string(credential.accessToken),
        ]
        let fields = [
            ("displayName", "name"), ("fullName", "name"), ("screenName", "screen_name"), ("email", "email"),
            ("photoUrl", "picture"),
        ]
        for (field, claim) in fields { response[field] = claims[claim]?.stringValue.map(JSONValue.string) }
        response["emailVerified"] = claims["email_verified"]?.boolValue.map(JSONValue.bool)
        response["oauthIdToken"] = credential.idToken.map(JSONValue.string)
        var federatedId = sub
        if providerId == "google.com" {
            federatedId = "https://accounts.google.com/\(sub)"
            var scopes = "openid https://www.googleapis.com/auth/userinfo.profile"
            if email != nil { scopes += " https://www.googleapis.com/auth/userinfo.email" }
            response["firstName"] = claims["given_name"]?.stringValue.map(JSONValue.string)
            response["lastName"] = claims["family_name"]?.stringValue.map(JSONValue.string)
            var raw: [String: JSONValue] = ["granted_scopes": .string(scopes), "id": .string(sub), "locale": "en"]
            for key in ["name", "email", "picture"] { raw[key] = claims[key]?.stringValue.map(JSONValue.string) }
            raw["given_name"] = claims["given_name"]
            raw["family_name"] = claims["family_name"]
            raw["verified_email"] = claims["email_verified"]
            response["rawUserInfo"] = .string(JSONValue.object(raw).jsonString)
        } else {
            response["rawUserInfo"] = .string(JSONValue.object(claims).jsonString)
        }
        response["federatedId"] = .string(federatedId)
        let info = ProviderUserInfo(
            providerId: providerId, rawId: sub, federatedId: federatedId, email: email?.lowercased(),
            displayName: claims["name"]?.stringValue, photoUrl: claims["picture"]?.stringValue,
            screenName: claims["screen_name"]?.stringValue)
        return (info, claims["email_verified"]?.boolValue ?? false, response)
    }

    /// The claims of a fake credential: strict JSON, or any JWT (signature unchecked).
    static func fakeClaims(idToken: String?, accessToken: String?) throws(IdentityToolkitError) -> [String: JSONValue] {
        guard let credential = idToken ?? accessToken else {
            throw .invalid(
                "INVALID_IDP_RESPONSE : Unable to parse id_token: ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))"
            )
        }
        if credential.hasPrefix("{") {
            guard case .object(let o)? = try? JSONCoding.parse(credential) else {
                throw .invalid(
                    "INVALID_IDP_RESPONSE : Unable to parse id_token: \(credential) ((Auth Emulator failed to parse fake id_token as strict JSON.))"
                )
            }
            return o
        } else if let (_, payload) = TokenFactory.decodeJWT(credential) {
            return payload
        } else if idToken == nil {
            throw .notImplemented(
                "NOT_IMPLEMENTED : The Auth Emulator only accepts fake access tokens that are strict JSON or JWTs.")
        }
        throw .invalid(
            "INVALID_IDP_RESPONSE : Unable to parse id_token: \(credential) ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))"
        )
    }

    /// `accounts:signInWithIdp`, reference §4.5: sign in, sign up, or link a fake IdP account.
    func signInWithIdp(
        _ body: SignInWithIdpRequest, resolved: ResolvedIdpCredential? = nil
    ) throws(IdentityToolkitError) -> JSONValue {
        if body.returnRefreshToken != nil {
            throw .notImplemented("NOT_IMPLEMENTED : returnRefreshToken is not implemented yet.")
        }
        if body.pendingIdToken != nil {
            throw .notImplemented("NOT_IMPLEMENTED : pendingIdToken is not implemented yet.")
        }
        let idp = try parseIdpCredential(body, resolved: resolved)
        let (info, providerId) = (idp.info, idp.info.providerId)
        var response = idp.response
        let emailMatching = !config.allowDuplicateEmails
        let idpEmail = info.email

        var user: UserRecord
        if let idToken = body.idToken.nonEmpty {
            user = try verifyIdToken(idToken).user
            var failure: String?
            if self.user(withProvider: providerId, rawId: info.rawId) != nil {
                failure = "FEDERATED_USER_ID_ALREADY_LINKED"
            } else if emailMatching, let idpEmail, let owner = self.user(withEmail: idpEmail),
                owner.localId != user.localId
            {
                failure = "EMAIL_EXISTS"
            }
            if let failure {
                if body.returnIdpCredential != true { throw .invalid(failure) }
                response["errorMessage"] = .string(failure)
                return .object(response)
            }
            user.federatedProviders.removeAll { $0.providerId == providerId }
            user.federatedProviders.append(info)
            if emailMatching, let idpEmail {
                if user.email == nil {
                    user.email = idpEmail
                    user.emailVerified = idp.emailVerified
                } else if user.email == idpEmail && idp.emailVerified {
                    user.emailVerified = true
                }
            }
        } else if let linked = self.user(withProvider: providerId, rawId: info.rawId) {
            user = linked
        } else if emailMatching, let idpEmail, let owner = self.user(withEmail: idpEmail) {
            guard idp.emailVerified else {
                response["needConfirmation"] = true
                response["localId"] = .string(owner.localId)
                response["verifiedProvider"] = .array(owner.federatedProviders.map { .string($0.providerId) })
                return .object(response)
            }
            user = owner
            if user.emailVerified != true {
                user.password = nil
                user.salt = nil
                user.passwordUpdatedAt = nil
                user.phoneNumber = nil
                user.emailLinkSignin = false
                user.federatedProviders = []
                user.validSince = nowSeconds
                user.displayName = info.displayName
                user.photoUrl = info.photoUrl
            }
            if user.federatedProviders.contains(where: { $0.providerId == providerId }) {
                response["emailRecycled"] = true
                user.federatedProviders.removeAll { $0.providerId == providerId }
            }
            user.federatedProviders.append(info)
            user.emailVerified = true
        } else {
            user = newUser()
            if emailMatching, let idpEmail {
                user.email = idpEmail
                user.emailVerified = idp.emailVerified
            }
            user.displayName = info.displayName
            user.photoUrl = info.photoUrl
            user.federatedProviders = [info]
            response["isNewUser"] = true
        }
        if user.disabled { throw .invalid("USER_DISABLED") }
        response["localId"] = .string(user.localId)
        if response["email"] == nil, let email = user.email { response["email"] = .string(email) }
        if body.idToken.nonEmpty == nil, let pending = secondFactorPending(for: user, signInProvider: providerId) {
            users[user.localId] = user
            response["mfaPendingCredential"] = .string(pending.credential)
            response["mfaInfo"] = .array(pending.mfaInfo)
            return .object(response)
        }
        user.lastLoginAt = nowMilliseconds
        response.merge(issueTokens(for: &user, signInProvider: providerId).fields) { _, new in new }
        return .object(response)
    }
}
