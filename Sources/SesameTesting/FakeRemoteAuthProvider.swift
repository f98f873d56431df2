import Foundation
import SesameCore

/// A scriptable backend in memory: accounts, tokens with a lifetime on the test's clock,
/// call counters, failures to inject, and refreshes that can be held open.
public actor FakeRemoteAuthProvider: RemoteAuthProvider {
    public struct Account: Sendable {
        public var uid: String
        public var email: String?
        public var password: String?
        public var providers: [String]
        public var disabled = false
        public var displayName: String?
    }

    let clock: ManualClock
    /// The backend name `hello` reports.
    public nonisolated let backendName: String
    /// Whether sign-in emails carry codes (`.code` proofs), as on Supabase; else only links.
    public nonisolated let sendsCodes: Bool
    /// Whether federated sign-in needs an ID token, as on Supabase: `checkFederatedSignIn`
    /// refuses a provider that yields none.
    public nonisolated let federatedNeedsIDToken: Bool
    /// Sign-in proofs sent and not yet spent: proof text → email.
    private var unspentProofs: [String: String] = [:]
    public var tokenLifetime: TimeInterval = 3600
    public internal(set) var accounts: [String: Account] = [:]
    public private(set) var calls: [String: Int] = [:]
    var refreshOwners: [String: String] = [:]
    public internal(set) var revokedScopes: [SessionRevocationScope] = []
    var nextNumber = 0
    private var scriptedFailures: [String: [RemoteAuthError]] = [:]
    private var offline = false
    private var holdingRefreshes = false
    private var heldRefreshes: [CheckedContinuation<Void, Never>] = []
    /// Second factors, recent sign-ins, address changes and resets (+SecondFactors.swift).
    var security = FakeAccountSecurity()

    public init(
        clock: ManualClock, backendName: String = "fake", sendsCodes: Bool = false, federatedNeedsIDToken: Bool = false
    ) {
        self.clock = clock
        self.backendName = backendName
        self.sendsCodes = sendsCodes
        self.federatedNeedsIDToken = federatedNeedsIDToken
    }

    /// The link (or, with ``sendsCodes``, the code) the last sign-in email to `email` carried.
    public func lastSignInProof(for email: String) -> EmailSignInProof? {
        guard let text = lastSent[email.lowercased()] else { return nil }
        return text.hasPrefix(Self.linkPrefix) ? .link(text) : .code(text)
    }

    private static let linkPrefix = "https://fake.invalid/signin?code="
    private var lastSent: [String: String] = [:]
    /// Browser sign-ins started (by their backend secret) → whether their callback was spent.
    var browserSessions: [String: Bool] = [:]
    /// The last browser sign-in started, so a test can play the browser's callback.
    public internal(set) var lastBrowserStart: BrowserSignInStart?

    // MARK: Knobs

    public func setTokenLifetime(_ seconds: TimeInterval) { tokenLifetime = seconds }
    /// Every call fails as unreachable until turned off.
    public func setOffline(_ value: Bool) { offline = value }
    /// The next call of `operation` fails with `error`.
    public func failNext(_ operation: String, with error: RemoteAuthError) {
        scriptedFailures[operation, default: []].append(error)
    }
    /// Refreshes wait until ``releaseRefreshes()``.
    public func holdRefreshes() { holdingRefreshes = true }
    public func releaseRefreshes() {
        holdingRefreshes = false
        let held = heldRefreshes
        heldRefreshes = []
        for continuation in held { continuation.resume() }
    }
    public var heldRefreshCount: Int { heldRefreshes.count }
    public func count(_ operation: String) -> Int { calls[operation] ?? 0 }
    /// Deletes an account as an administrator would: its refresh tokens stop working.
    public func deleteAccountAsAdmin(_ uid: String) { accounts[uid] = nil }
    public func addAccount(email: String, password: String) -> String {
        let uid = newUID()
        accounts[uid] = Account(uid: uid, email: email, password: password, providers: ["password"])
        return uid
    }

    // MARK: RemoteAuthProvider

    public func signUpAnonymously() async throws(RemoteAuthError) -> SignInResult {
        try enter("signUp")
        let uid = newUID()
        accounts[uid] = Account(uid: uid, providers: [])
        return issue(uid: uid, provider: "anonymous", isNew: true)
    }

    public func refresh(_ refreshToken: RefreshToken) async throws(RemoteAuthError) -> TokenGrant {
        try enter("refresh")
        if holdingRefreshes {
            await withCheckedContinuation { heldRefreshes.append($0) }
        }
        guard let uid = refreshOwners[refreshToken.rawValue], let account = accounts[uid], !account.disabled else {
            throw .accountGone(.sessionRevoked)
        }
        let result = issue(uid: uid, provider: account.providers.first ?? "anonymous", isNew: false, refreshing: true)
        return TokenGrant(uid: uid, idToken: result.idToken, refreshToken: result.refreshToken)
    }

    public func lookup(_ idToken: IDToken) async throws(RemoteAuthError) -> User {
        try enter("lookup")
        let account = try owner(of: idToken)
        return User(
            uid: account.uid, isAnonymous: account.providers.isEmpty && account.email == nil, email: account.email,
            displayName: account.displayName, providers: account.providers, factors: security.factors(of: account.uid),
            pendingEmail: security.reportsPendingEmail ? security.emailChanges[account.uid] : nil)
    }

    public func deleteAccount(_ idToken: IDToken) async throws(RemoteAuthError) {
        try enter("delete")
        let account = try owner(of: idToken)
        try checkRecentLogin(account.uid)
        accounts[account.uid] = nil
    }

    /// Ends every session of the token's account: its refresh tokens stop working.
    public func revokeSession(_ idToken: IDToken) async throws(RemoteAuthError) {
        try enter("revokeSession")
        let account = try owner(of: idToken)
        revokedSessions.append(account.uid)
        refreshOwners = refreshOwners.filter { $0.value != account.uid }
    }

    /// The uids whose sessions were ended at the backend, in order.
    public private(set) var revokedSessions: [String] = []

    public func signUp(
        email: String, password: String, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> SignInResult {
        try enter("signUpPassword")
        guard email.contains("@") else { throw .rejected(AuthError(.invalidEmail)) }
        guard password.count >= 6 else { throw .rejected(AuthError(.weakPassword)) }
        if accounts.values.contains(where: { $0.email == email.lowercased() }) {
            throw .rejected(AuthError(.emailAlreadyInUse))
        }
        if let linkingTo {
            var account = try owner(of: linkingTo)
            account.email = email.lowercased()
            account.password = password
            if !account.providers.contains("password") { account.providers.append("password") }
            accounts[account.uid] = account
            return issue(uid: account.uid, provider: "password", isNew: false)
        }
        let uid = newUID()
        accounts[uid] = Account(uid: uid, email: email.lowercased(), password: password, providers: ["password"])
        return issue(uid: uid, provider: "password", isNew: true)
    }

    public func signIn(email: String, password: String) async throws(RemoteAuthError) -> SignInResult {
        try enter("signInWithPassword")
        guard let account = accounts.values.first(where: { $0.email == email.lowercased() }),
            account.password == password
        else { throw .rejected(AuthError(.invalidLoginCredentials)) }
        return try signInIssue(uid: account.uid, provider: "password", isNew: false)
    }

    public func sendSignInLink(email: String, continueUrl: String?) async throws(RemoteAuthError) {
        try enter("sendSignInLink")
        nextNumber += 1
        let text = sendsCodes ? String(100_000 + nextNumber) : Self.linkPrefix + String(nextNumber)
        unspentProofs[text] = email.lowercased()
        lastSent[email.lowercased()] = text
    }

    public nonisolated func checkSignInProof(_ proof: EmailSignInProof) throws(RemoteAuthError) {
        switch proof {
        case .link(let text):
            guard text.hasPrefix(Self.linkPrefix) else {
                throw .rejected(AuthError(.invalidActionCode, message: "That is not a sign-in link (fake)."))
            }
        case .code:
            guard sendsCodes else { throw .unsupported("This fake backend sends links, not codes.") }
        }
    }

    public func signIn(
        email: String, proof: EmailSignInProof, linkingTo: IDToken?
    ) async throws(RemoteAuthError)
        -> SignInResult
    {
        try enter("signInWithEmailLink")
        let text: String
        switch proof {
        case .link(let value), .code(let value): text = value
        }
        guard let addressee = unspentProofs[text] else { throw .rejected(AuthError(.invalidActionCode)) }
        guard addressee == email.lowercased() else { throw .rejected(AuthError(.invalidEmail)) }
        unspentProofs[text] = nil
        if let linkingTo {
            var account = try owner(of: linkingTo)
            account.email = addressee
            if !account.providers.contains("password") { account.providers.append("password") }
            accounts[account.uid] = account
            return issue(uid: account.uid, provider: "password", isNew: false)
        }
        if let account = accounts.values.first(where: { $0.email == addressee }) {
            return try signInIssue(uid: account.uid, provider: "password", isNew: false)
        }
        let uid = newUID()
        accounts[uid] = Account(uid: uid, email: addressee, providers: ["password"])
        return issue(uid: uid, provider: "password", isNew: true)
    }

    /// A federated identity is its provider id and ID token (an access token alone is refused).
    public func signIn(
        federated: FederatedCredential, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> SignInResult {
        try enter("signInWithIdp")
        guard let idToken = federated.idToken else { throw .rejected(AuthError(.invalidCredential)) }
        let identity = federated.providerId + "|" + idToken
        if let linkingTo {
            var account = try owner(of: linkingTo)
            if let holder = identities[identity], holder != account.uid {
                throw .rejected(AuthError(.credentialAlreadyInUse))
            }
            identities[identity] = account.uid
            if !account.providers.contains(federated.providerId) { account.providers.append(federated.providerId) }
            accounts[account.uid] = account
            return issue(uid: account.uid, provider: federated.providerId, isNew: false)
        }
        if let uid = identities[identity], accounts[uid] != nil {
            return try signInIssue(uid: uid, provider: federated.providerId, isNew: false)
        }
        let uid = newUID()
        accounts[uid] = Account(uid: uid, providers: [federated.providerId])
        identities[identity] = uid
        return issue(uid: uid, provider: federated.providerId, isNew: true)
    }

    var identities: [String: String] = [:]

    public func signInMethods(forEmail email: String) async throws(RemoteAuthError) -> [String]? {
        try enter("createAuthUri")
        return accounts.values.first(where: { $0.email == email.lowercased() })?.providers ?? []
    }

    public func updateProfile(_ idToken: IDToken, displayName: String?) async throws(RemoteAuthError) -> TokenGrant? {
        try enter("update")
        var account = try owner(of: idToken)
        account.displayName = displayName
        accounts[account.uid] = account
        return nil
    }

    public func unlink(_ idToken: IDToken, providerIds: [String]) async throws(RemoteAuthError) {
        try enter("update")
        var account = try owner(of: idToken)
        account.providers.removeAll { providerIds.contains($0) }
        accounts[account.uid] = account
    }

    public func sendEmailVerification(_ idToken: IDToken) async throws(RemoteAuthError) {
        try enter("sendEmailVerification")
    }

    // MARK: Helpers

    func enter(_ operation: String) throws(RemoteAuthError) {
        calls[operation, default: 0] += 1
        if offline { throw .transport("offline (fake)") }
        if var queue = scriptedFailures[operation], !queue.isEmpty {
            let error = queue.removeFirst()
            scriptedFailures[operation] = queue
            throw error
        }
    }

    func newUID() -> String {
        nextNumber += 1
        return "uid\(nextNumber)"
    }

    func issue(uid: String, provider: String, isNew: Bool, refreshing: Bool = false) -> SignInResult {
        nextNumber += 1
        let now = clock.date
        if !refreshing { security.authTimes[uid] = now }
        let idToken = IDToken(
            rawValue: "id.\(uid).\(nextNumber)", expiresAt: now.addingTimeInterval(tokenLifetime), issuedAt: now,
            signInProvider: provider)
        let refresh = RefreshToken("refresh.\(uid).\(nextNumber)")
        refreshOwners[refresh.rawValue] = uid
        return SignInResult(uid: uid, idToken: idToken, refreshToken: refresh, isNewUser: isNew)
    }

    func owner(of idToken: IDToken) throws(RemoteAuthError) -> Account {
        let parts = idToken.rawValue.split(separator: ".")
        guard parts.count == 3 else { throw .idTokenRejected }
        guard let account = accounts[String(parts[1])] else { throw .accountGone(.userNotFound) }
        return account
    }
}
