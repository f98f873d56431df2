/// `auth.users` by id, each with its identities and second factors.
struct GoTrueUsers: Sendable {
    private(set) var byId: [String: GoTrueUser] = [:]

    subscript(id: String) -> GoTrueUser? {
        get { byId[id] }
        set { byId[id] = newValue }
    }

    var all: Dictionary<String, GoTrueUser>.Values { byId.values }

    /// The user with `email`, compared in lower case.
    func with(email: String) -> GoTrueUser? {
        let wanted = email.lowercased()
        return byId.values.first { $0.email == wanted }
    }

    /// The user holding the identity `providerId` of `provider`.
    func owner(of provider: String, providerId: String) -> GoTrueUser? {
        byId.values.first { $0.identities.contains { $0.provider == provider && $0.providerId == providerId } }
    }

    /// Adds an identity; an anonymous user with a verified `email` becomes permanent.
    mutating func link(_ identity: GoTrueIdentity, to userId: String, email: String?, now: Int) {
        guard var user = byId[userId] else { return }
        var identity = identity
        identity.userId = userId
        user.identities.append(identity)
        if user.isAnonymous, let email {
            user.email = email
            user.emailConfirmedAt = now
            user.isAnonymous = false
        }
        user.updatedAt = now
        user.refreshProviders()
        byId[userId] = user
    }

    /// Changes the factor `id` of `userId` in place.
    mutating func updateFactor(_ id: String, of userId: String, _ change: (inout GoTrueFactor) -> Void) {
        guard let index = byId[userId]?.factors?.firstIndex(where: { $0.id == id }) else { return }
        change(&byId[userId]!.factors![index])
    }

    /// Records a sign-in by `provider` at `now` on the user and its identity of that provider.
    mutating func signedIn(_ userId: String, provider: String, at now: Int) {
        byId[userId]?.lastSignInAt = now
        if let index = byId[userId]?.identities.firstIndex(where: { $0.provider == provider }) {
            byId[userId]?.identities[index].lastSignInAt = now
        }
    }
}
