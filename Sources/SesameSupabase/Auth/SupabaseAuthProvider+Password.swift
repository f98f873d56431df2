import NIOHTTP1
import SesameCore

extension SupabaseAuthProvider {
    /// Without `linkingTo`: `POST /signup {email, password}`. With it: `PUT /user {email,
    /// password}` on the anonymous user (same id), then a password sign-in for tokens that say
    /// so (GoTrue answers the update with a user, and the old token stays anonymous until a new
    /// session); the anonymous session is then ended. When the project confirms emails, the
    /// address is not usable until confirmed: `operation-not-allowed` says so.
    public func signUp(
        email: String, password: String, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> SignInResult {
        let body = EmailPasswordBody(email: email, password: password)
        guard let linkingTo else {
            let context = SupabaseCallContext(
                name: "auth.signup", fallback: .invalidCredential, validationReason: .invalidEmail, email: email,
                providerId: "password")
            let request = client.request(
                context.name, .POST, url: client.authURL("signup"), bearer: .nobody, body: body)
            let answer = try await client.send(request, context: context, as: GoTrueSession.self)
            guard answer.hasTokens else { throw .rejected(Self.confirmEmailFirst(email)) }
            return try signedIn(answer, name: context.name, isNewUser: true)
        }
        let context = SupabaseCallContext(
            name: "auth.user.update", sentUserToken: true, fallback: .invalidCredential,
            validationReason: .invalidEmail,
            email: email, providerId: "password")
        let request = client.request(
            context.name, .PUT, url: client.authURL("user"), bearer: .user(linkingTo), body: body)
        let user: GoTrueUser
        do {
            user = try await client.send(request, context: context, as: GoTrueUser.self)
        } catch .rejected(let error) where error.reason == .weakPassword {
            // GoTrue's `same_password`: this user has that password already, so an earlier link
            // went through and only its answer was lost. Its sign-in is the answer.
            guard let linked = try? await signIn(email: email, password: password),
                linked.uid == SupabaseClaims.subject(of: linkingTo.rawValue)
            else { throw .rejected(error) }
            try? await revokeSession(linkingTo)
            return linked
        }
        guard user.email?.lowercased() == email.lowercased(), user.emailConfirmedAt?.isEmpty == false else {
            throw .rejected(Self.confirmEmailFirst(email))
        }
        let result = try await signIn(email: email, password: password)
        guard result.uid == user.id else { throw .malformedResponse("auth.token.password: another user after linking") }
        // The anonymous session has been replaced: end it, so its refresh token is dead too.
        try? await revokeSession(linkingTo)
        return result
    }

    public func signIn(email: String, password: String) async throws(RemoteAuthError) -> SignInResult {
        let context = SupabaseCallContext(
            name: "auth.token.password", fallback: .invalidLoginCredentials, validationReason: .invalidLoginCredentials,
            email: email, providerId: "password")
        let request = client.request(
            context.name, .POST, url: client.authURL("token", query: [("grant_type", "password")]), bearer: .nobody,
            body: EmailPasswordBody(email: email, password: password))
        let answer = try await client.send(request, context: context, as: GoTrueSession.self)
        return try signedIn(answer, name: context.name, isNewUser: false)
    }

    /// `POST /recover {email}`.
    public func sendPasswordReset(email: String) async throws(RemoteAuthError) {
        let context = SupabaseCallContext(name: "auth.recover", validationReason: .invalidEmail, email: email)
        let request = client.request(
            context.name, .POST, url: client.authURL("recover"), bearer: .nobody, body: EmailBody(email: email))
        try await client.send(request, context: context)
    }

    /// Resends the confirmation of the account's address (`POST /resend`): `signup` for an
    /// unconfirmed email, `email_change` for a pending new one.
    public func sendEmailVerification(_ idToken: IDToken) async throws(RemoteAuthError) {
        let user = try await currentUser(idToken)
        let body: ResendBody
        if let pending = user.newEmail, !pending.isEmpty {
            body = ResendBody(type: "email_change", email: pending)
        } else if let email = user.email, !email.isEmpty {
            body = ResendBody(type: "signup", email: email)
        } else {
            throw .rejected(
                AuthError(.missingEmail, message: "This account has no email address to verify: add one first."))
        }
        let context = SupabaseCallContext(name: "auth.resend", sentUserToken: false, email: body.email)
        let request = client.request(context.name, .POST, url: client.authURL("resend"), bearer: .nobody, body: body)
        try await client.send(request, context: context)
    }

    static func confirmEmailFirst(_ email: String) -> AuthError {
        AuthError(
            .operationNotAllowed,
            message:
                "This Supabase project confirms email addresses: open the confirmation email sent to the address, then sign in.",
            email: email)
    }
}
