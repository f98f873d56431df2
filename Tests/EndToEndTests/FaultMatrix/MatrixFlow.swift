import SesameClient
import SesameTesting
import Testing

/// One flow of the fault matrix: a row. Each flow names the call the fault is put on, runs
/// that call, and says what the session looks like once it has succeeded.
enum MatrixFlow: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case anonymousStart
    case refresh
    case createAccount
    case signInAndMerge
    case emailLink
    case federated
    case signOut
    case serverSignOut
    case deleteAccount
    case usernameClaim

    var testDescription: String {
        switch self {
        case .anonymousStart: "anonymous start"
        case .refresh: "refresh"
        case .createAccount: "createAccount"
        case .signInAndMerge: "signIn + merge"
        case .emailLink: "email link"
        case .federated: "federated"
        case .signOut: "sign-out"
        case .serverSignOut: "sign-out, server side"
        case .deleteAccount: "delete"
        case .usernameClaim: "username claim"
        }
    }

    static let email = "matrix@example.com"
    static let password = "secret12"
    static let username = "matrix_user"
    /// The directory key of ``username`` (its normalised form).
    static let usernameKey = "matrix_user"

    /// Supabase ends a session at the server (`POST /logout`); Firebase has no such call.
    static let firebaseFlows = allCases.filter { $0 != .serverSignOut }

    /// The daemon starts with the fault already on (the first guest is what is faulted).
    var faultsBeforeStart: Bool { self == .anonymousStart }

    /// The flow starts from an account (not the guest).
    var needsAccount: Bool { [.signOut, .serverSignOut, .deleteAccount, .usernameClaim].contains(self) }

    /// A failure of the faulted call reaches the client. Sign-out does not fail: the account
    /// is left locally, and the new guest the backend refused comes later.
    /// The server-side end of the session is a durable to-do the daemon retries.
    var clientSeesFault: Bool { self != .signOut && self != .serverSignOut }

    /// Runs the call under test (preparing what it needs first with `prepare`, which the
    /// fault does not touch).
    func act(_ rig: MatrixRig, _ setup: MatrixSetup) async throws {
        let client = rig.client
        switch self {
        case .anonymousStart: _ = try await client.signInAnonymously()
        case .refresh: _ = try await client.idToken(forceRefresh: true)
        case .createAccount: _ = try await client.createAccount(email: Self.email, password: Self.password)
        case .signInAndMerge: _ = try await client.signIn(identifier: Self.email, password: Self.password)
        case .emailLink: _ = try await client.completeSignInLink(link: try #require(setup.link))
        case .federated:
            _ = try await client.signInWithIdp(
                providerId: "google.com", idToken: rig.backend.idpToken(sub: "matrix-1", email: Self.email))
        case .signOut, .serverSignOut: _ = try await client.signOut()
        case .deleteAccount: _ = try await client.deleteAccount()
        case .usernameClaim: _ = try await client.setUsername(Self.username)
        }
    }

    /// What must hold before the fault goes on (the backend side the flow needs).
    func prepare(_ rig: MatrixRig) async throws -> MatrixSetup {
        var setup = MatrixSetup()
        if needsAccount {
            _ = try await rig.client.createAccount(email: Self.email, password: Self.password)
        }
        switch self {
        case .signInAndMerge:
            setup.accountUid = try await rig.backend.createAccount(email: Self.email, password: Self.password)
        case .emailLink: setup.link = try await rig.freshSignInLink(Self.email)
        default: break
        }
        return setup
    }

    /// Before the fault clears: when the backend carried the call out and only the answer was
    /// lost (latency past the timeout), checks that its effect shows, so the retry meets it.
    func awaitLateEffect(_ rig: MatrixRig, uid: String?) async throws {
        guard let uid else { return }
        let backend = rig.backend
        switch self {
        case .emailLink where rig.emulator.backend == .supabase:
            return  // a new account, not the guest's
        case .usernameClaim:
            // The daemon gives back a claim whose answer was lost (Supabase), or keeps it for
            // the retry (Firebase): either is fine, the retry decides.
            return
        case .createAccount, .emailLink:
            try await eventually("the backend gave \(uid) an email") { try await backend.email(of: uid) != nil }
        case .federated:
            try await eventually("the backend linked google.com to \(uid)") {
                try await backend.providers(of: uid).contains("google.com")
            }
        case .deleteAccount:
            try await eventually("the backend deleted \(uid)") { try await !backend.accountExists(uid) }
        case .anonymousStart, .refresh, .signInAndMerge, .signOut, .serverSignOut:
            return
        }
    }

    /// The call that must succeed once the fault is cleared (the same call; a fresh link for
    /// the email link, whose one-time code may be spent).
    func retry(_ rig: MatrixRig, _ setup: inout MatrixSetup, after fault: MatrixFault) async throws {
        switch self {
        case .emailLink where fault.isLateAnswer:
            // The backend used the one-time code; only the answer was lost. A new link, once
            // the backend's mail timer allows one.
            setup.link = try await rig.freshSignInLink(Self.email, afterMailTimer: true)
        case .createAccount where fault.isLateAnswer && rig.emulator.backend == .firebase:
            // The backend linked the password and only the answer was lost: the retry is told
            // the email has an account, and signing in to it, as the message says, keeps the
            // uid (it is the guest's own account: no merge). (Supabase's retry answers
            // `same_password`, which the adapter recognises: the retry itself succeeds.)
            try await expectDaemonError("email-already-in-use", code: 1000) { try await act(rig, setup) }
            let (_, merge) = try await rig.client.signIn(identifier: Self.email, password: Self.password)
            #expect(merge == nil, "no merge of the guest into itself")
            return
        case .signOut:
            // The account is signed out already; the next call starts the guest.
            let state = try await rig.client.state()
            if state.status == .signedOut { _ = try await rig.client.signInAnonymously() }
            return
        case .serverSignOut:
            // Nothing to call: the daemon's cleanup retries the server-side sign-out by itself.
            // The counter also holds the calls the fault answered, so wait for one made after
            // the faults were cleared, and for the connectivity its answer brings back.
            let backend = rig.emulator
            let faulted = try await backend.calls()["logout"] ?? 0
            try await eventually("the daemon ends the old session at the server", timeout: .seconds(40)) {
                try await backend.calls()["logout"] ?? 0 > faulted
            }
            let client = rig.client
            try await eventually("the server-side sign-out turns connectivity online", timeout: .seconds(40)) {
                try await client.state().connectivity == .online
            }
            return
        default: break
        }
        try await act(rig, setup)
    }

    /// The session after the retry: the status, and whose uid it is.
    func expectSucceeded(_ rig: MatrixRig, _ setup: MatrixSetup, before: SesameState) async throws {
        let state = try await rig.client.state()
        let uid = state.user?.uid
        switch self {
        case .anonymousStart:
            #expect(state.status == .anonymous)
        case .refresh:
            #expect(state.status == before.status)
            #expect(uid == before.user?.uid)
        case .emailLink where rig.emulator.backend == .supabase:
            // GoTrue's magic link signs in to a new account for the address: the guest is merged.
            #expect(state.status == .authenticated)
            #expect(state.user?.email == Self.email)
        case .createAccount, .emailLink, .federated:
            #expect(state.status == .authenticated)
            #expect(uid == before.user?.uid, "the guest is upgraded in place")
        case .signInAndMerge:
            #expect(state.status == .authenticated)
            #expect(uid == setup.accountUid)
        case .signOut, .serverSignOut, .deleteAccount:
            #expect(state.status == .anonymous)
            #expect(uid != before.user?.uid)
        case .usernameClaim:
            #expect(state.user?.username == Self.username)
            #expect(uid == before.user?.uid)
            #expect(try await rig.backend.usernameOwner(Self.usernameKey) == uid, "the directory holds the name")
        }
        if self == .deleteAccount, let old = before.user?.uid {
            #expect(try await !rig.backend.accountExists(old), "the deleted account is gone at the backend")
        }
    }
}

/// What a flow prepared before the fault.
struct MatrixSetup: Sendable {
    var accountUid: String?
    var link: String?
}
