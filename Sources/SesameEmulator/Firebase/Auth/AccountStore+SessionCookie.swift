import SesameLocalAPI

/// `projects/{project}:createSessionCookie` (privileged): `{idToken, validDuration}`.
struct CreateSessionCookieRequest: IdentityToolkitRequest {
    @Field var idToken: String?
    /// Seconds, as a number or an int64 string; absent or 0 means the longest, two weeks.
    @Field var validDuration: Int?
}

extension AccountStore {
    /// The shortest session cookie Firebase issues: five minutes.
    static let sessionCookieMinimumDuration = 5 * 60
    /// The longest session cookie Firebase issues (and the default): two weeks.
    static let sessionCookieMaximumDuration = 14 * 24 * 60 * 60

    /// `createSessionCookie`: checks the ID token as every operation does (its user exists, is
    /// enabled, has not revoked it) and answers `{sessionCookie}`.
    func createSessionCookie(_ body: CreateSessionCookieRequest) throws(IdentityToolkitError) -> JSONValue {
        guard let idToken = body.idToken.nonEmpty else { throw .invalid("MISSING_ID_TOKEN") }
        let requested = body.validDuration ?? 0
        let duration = requested == 0 ? Self.sessionCookieMaximumDuration : requested
        guard (Self.sessionCookieMinimumDuration...Self.sessionCookieMaximumDuration).contains(duration) else {
            throw .invalid("INVALID_DURATION")
        }
        let (_, _, claims) = try verifyIdToken(idToken)
        let cookie = tokens.sessionCookie(from: claims, issuedAt: nowSeconds, validDuration: duration)
        return ["sessionCookie": .string(cookie)]
    }
}
