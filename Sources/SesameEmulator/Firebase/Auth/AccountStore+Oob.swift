import Foundation
import SesameLocalAPI

extension AccountStore {
    static let requestTypeNames: [Int: String] = [
        0: "OOB_REQ_TYPE_UNSPECIFIED", 1: "PASSWORD_RESET", 2: "OLD_EMAIL_AGREE", 3: "NEW_EMAIL_ACCEPT",
        4: "VERIFY_EMAIL", 5: "RECOVER_EMAIL", 6: "EMAIL_SIGNIN", 7: "VERIFY_AND_CHANGE_EMAIL",
        8: "REVERT_SECOND_FACTOR_ADDITION",
    ]

    /// Whether `text` is an absolute URI with a scheme and a host.
    static func isAbsoluteURI(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty, let host = url.host, !host.isEmpty
        else { return false }
        return true
    }

    /// `accounts:sendOobCode`, reference §4.3. `baseURL` is `http://host:port` for links.
    func sendOobCode(
        _ body: SendOobCodeRequest, privileged: Bool, baseURL: String
    ) throws(IdentityToolkitError) -> JSONValue {
        let requestType: String
        if let number = body.requestType?.int64TextValue, let name = Self.requestTypeNames[number] {
            requestType = name
        } else if let json = body.requestType, case let text = try String.coerce(json, path: "/requestType"),
            !text.isEmpty
        {
            requestType = text
        } else {
            throw .invalid("MISSING_REQ_TYPE")
        }
        let returnOobLink = body.returnOobLink ?? false
        if returnOobLink && !privileged { throw .invalid("INSUFFICIENT_PERMISSION") }
        let continueUrl = body.continueUrl.nonEmpty
        if let continueUrl, !AccountStore.isAbsoluteURI(continueUrl) {
            throw .invalid("INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
        }
        // A link domain must be a custom domain of the project's Firebase Hosting; the emulator's
        // project has none, so every one is refused as production refuses an unknown one.
        if body.linkDomain.nonEmpty != nil { throw .invalid(Self.invalidHostingLinkDomain) }
        let email: String
        var newEmail: String?
        var localId: String?
        switch requestType {
        case "EMAIL_SIGNIN":
            guard let address = body.email.nonEmpty else { throw .invalid("MISSING_EMAIL") }
            if !AccountStore.isValidEmail(address) { throw .invalid("INVALID_EMAIL") }
            email = address.lowercased()
        case "PASSWORD_RESET":
            guard let address = body.email.nonEmpty else { throw .invalid("MISSING_EMAIL") }
            email = address.lowercased()
            guard let user = user(withEmail: address) else {
                if config.enableImprovedEmailPrivacy {
                    return ["kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": .string(email)]
                }
                throw .invalid("EMAIL_NOT_FOUND")
            }
            localId = user.localId
        case "VERIFY_EMAIL":
            let user: UserRecord
            if privileged, returnOobLink, body.idToken.nonEmpty == nil {
                guard let address = body.email.nonEmpty else { throw .invalid("MISSING_EMAIL") }
                guard let found = self.user(withEmail: address) else { throw .invalid("USER_NOT_FOUND") }
                user = found
            } else {
                guard let idToken = body.idToken.nonEmpty else { throw .invalid("INVALID_ID_TOKEN") }
                user = try verifyIdToken(idToken).user
            }
            guard let address = user.email else { throw .invalid("MISSING_EMAIL") }
            email = address
            localId = user.localId
        case "VERIFY_AND_CHANGE_EMAIL":
            guard let requested = body.newEmail.nonEmpty else { throw .invalid("MISSING_NEW_EMAIL") }
            guard let idToken = body.idToken.nonEmpty else { throw .invalid("MISSING_ID_TOKEN") }
            let verified = try verifyIdToken(idToken)
            try checkRecentLogin(verified.payload)
            if !AccountStore.isValidEmail(requested) { throw .invalid("INVALID_EMAIL") }
            if let owner = self.user(withEmail: requested), owner.localId != verified.user.localId {
                throw .invalid("EMAIL_EXISTS")
            }
            email = verified.user.email ?? requested.lowercased()
            newEmail = requested.lowercased()
            localId = verified.user.localId
        default:
            if AccountStore.requestTypeNames.values.contains(requestType) {
                throw .notImplemented("NOT_IMPLEMENTED : requestType \(requestType) is not supported")
            }
            throw .invalidArgument(
                "Invalid JSON payload received. /requestType must be a valid request type: \(requestType)")
        }
        let record = createOobRecord(
            email: email, requestType: requestType, baseURL: baseURL, continueUrl: continueUrl, newEmail: newEmail,
            localId: localId)
        var response: [String: JSONValue] = [
            "kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": .string(email),
        ]
        if returnOobLink {
            response["oobCode"] = .string(record.oobCode)
            response["oobLink"] = .string(record.oobLink)
        }
        return .object(response)
    }

    /// `accounts:signInWithEmailLink`, reference §4.4. The code is consumed once it matches,
    /// even when a later check fails.
    func signInWithEmailLink(
        _ body: SignInWithEmailLinkRequest
    ) throws(IdentityToolkitError) -> WithTokens<SignInWithEmailLinkResponse> {
        var linkTarget: UserRecord?
        if let idToken = body.idToken.nonEmpty { linkTarget = try verifyIdToken(idToken).user }
        guard let email = body.email.nonEmpty else { throw .invalid("MISSING_EMAIL") }
        guard let code = body.oobCode.nonEmpty else { throw .invalid("MISSING_OOB_CODE") }
        guard let record = oobRecord(code), record.requestType == "EMAIL_SIGNIN" else {
            throw .invalid("INVALID_OOB_CODE")
        }
        let lowered = email.lowercased()
        if lowered != record.email {
            throw .invalid("INVALID_EMAIL : The email provided does not match the sign-in email address.")
        }
        consumeOobCode(code)
        let owner = user(withEmail: lowered)
        let isNewUser = linkTarget == nil && owner == nil
        var user = linkTarget ?? owner ?? newUser()
        if user.disabled { throw .invalid("USER_DISABLED") }
        if linkTarget != nil, let owner, owner.localId != user.localId { throw .invalid("EMAIL_EXISTS") }
        user.email = lowered
        user.emailVerified = true
        user.emailLinkSignin = true
        var response = SignInWithEmailLinkResponse(email: lowered, localId: user.localId, isNewUser: isNewUser)
        if linkTarget == nil, let pending = secondFactorPending(for: user, signInProvider: "password") {
            users[user.localId] = user
            response.mfaPendingCredential = pending.credential
            response.mfaInfo = pending.mfaInfo
            return WithTokens(answer: response)
        }
        user.lastLoginAt = nowMilliseconds
        return WithTokens(answer: response, tokens: issueTokens(for: &user, signInProvider: "password"))
    }

    /// `accounts:resetPassword`, reference §4.10: inspects a code, or applies a
    /// `PASSWORD_RESET` code with `newPassword`.
    func resetPassword(_ body: ResetPasswordRequest) throws(IdentityToolkitError) -> JSONValue {
        guard let code = body.oobCode.nonEmpty else { throw .invalid("MISSING_OOB_CODE") }
        guard let record = oobRecord(code) else { throw .invalid("INVALID_OOB_CODE") }
        var response: [String: JSONValue] = [
            "kind": "identitytoolkit#ResetPasswordResponse", "requestType": .string(record.requestType),
        ]
        if record.requestType != "EMAIL_SIGNIN" { response["email"] = .string(record.email) }
        guard let newPassword = body.newPassword else { return .object(response) }
        guard record.requestType == "PASSWORD_RESET" else { throw .invalid("INVALID_OOB_CODE") }
        try checkPassword(newPassword)
        consumeOobCode(code)
        guard var user = record.localId.flatMap({ users[$0] }) ?? user(withEmail: record.email) else {
            throw .invalid("INVALID_OOB_CODE")
        }
        if user.disabled { throw .invalid("USER_DISABLED") }
        setPassword(newPassword, on: &user)
        user.sessionsRevokedAt = nowMilliseconds
        user.emailVerified = true
        user.federatedProviders = []
        users[user.localId] = user
        return .object(response)
    }

    /// Applies a `VERIFY_EMAIL`, `VERIFY_AND_CHANGE_EMAIL` or `RECOVER_EMAIL` code
    /// (`accounts:update {oobCode}` and the action link). Returns the changed account.
    func applyActionCode(_ code: String) throws(IdentityToolkitError) -> UserRecord {
        guard let record = oobRecord(code) else { throw .invalid("INVALID_OOB_CODE") }
        guard ["VERIFY_EMAIL", "VERIFY_AND_CHANGE_EMAIL", "RECOVER_EMAIL"].contains(record.requestType) else {
            throw .notImplemented(
                "NOT_IMPLEMENTED : \(record.requestType) codes cannot be applied with accounts:update")
        }
        guard var user = record.localId.flatMap({ users[$0] }) ?? user(withEmail: record.email) else {
            throw .invalid("USER_NOT_FOUND")
        }
        consumeOobCode(code)
        switch record.requestType {
        case "VERIFY_AND_CHANGE_EMAIL":
            if let newEmail = record.newEmail {
                if let owner = self.user(withEmail: newEmail), owner.localId != user.localId {
                    throw .invalid("EMAIL_EXISTS")
                }
                user.email = newEmail
                user.validSince = nowSeconds
                user.sessionsRevokedAt = nowMilliseconds
            }
        case "RECOVER_EMAIL":
            user.email = record.email
            user.validSince = nowSeconds
        default:
            if user.email != record.email { throw .invalid("INVALID_OOB_CODE") }
        }
        user.emailVerified = true
        users[user.localId] = user
        return user
    }

    static let invalidHostingLinkDomain =
        "INVALID_HOSTING_LINK_DOMAIN : The provided hosting link domain is not configured in Firebase Hosting or is not owned by the current project. This cannot be a default hosting domain (web.app or firebaseapp.com)."
}
